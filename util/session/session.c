// SPDX-License-Identifier: GPL-2.0
/*
 * Session: the perf_data's records into the machine model and to a
 * perf_tool, in time order, DWARF samples unwound ahead. See session.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "session.h"
#include "dump.h"
#include "off-cpu.h"
#include "../format/ordered-events.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"
#include "../kernel/event-names.h"
#include "../model/machine.h"
#include "../model/unwind.h"

/* ---- default tool callbacks ---- */

static int default_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			  struct evsel *evsel, struct machine *machine)
{
	return 0;
}

static int default_sideband(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			    struct machine *machine)
{
	if (!machine)
		return 0;
	return machine__process_event(machine, event, sample);
}

static int default_ignore(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			  struct machine *machine)
{
	return 0;
}

void perf_tool__init(struct perf_tool *tool, bool ordered_events)
{
	memset(tool, 0, sizeof(*tool));
	tool->sample = default_sample;
	tool->mmap = tool->mmap2 = tool->comm = tool->namespaces = tool->cgroup =
		tool->fork = tool->exit = tool->ksymbol = tool->text_poke = default_sideband;
	tool->lost = tool->lost_samples = tool->aux = tool->itrace_start =
		tool->context_switch = tool->throttle = tool->unthrottle = tool->bpf =
		tool->read = default_ignore;
	tool->ordered_events = ordered_events;
}

/* ---- delivery ---- */

static int deliver_sideband(struct perf_session *s, event_op fn, union perf_event *event,
			    struct perf_sample *sample)
{
	if (!fn)
		return 0;
	return fn(s->tool, event, sample, s->machine);
}

/* A record that may change the model (maps, threads, DSO names): the
 * tool's model_barrier first, then the record. */
static int deliver_model(struct perf_session *s, event_op fn, union perf_event *event,
			 struct perf_sample *sample)
{
	if (s->tool->model_barrier) {
		int err = s->tool->model_barrier(s->tool);

		if (err)
			return err;
	}
	return deliver_sideband(s, fn, event, sample);
}

static int session__deliver_event(struct perf_session *s, union perf_event *event, uint64_t off);

/* -D: the record printed, then delivered as it would have been */
static int session__dump_deliver(struct perf_session *s, union perf_event *event, uint64_t off,
				 struct evsel *evsel)
{
	struct perf_sample sample;
	int err;

	memset(&sample, 0, sizeof(sample));
	sample.pid = sample.tid = sample.cpu = (u32)-1;
	if (evsel && perf_event__parse_id_sample(evsel, event, &sample, s->data.needs_swap)) {
		memset(&sample, 0, sizeof(sample));
		sample.pid = sample.tid = sample.cpu = (u32)-1;
	}
	session_dump__event(s, event, off, &sample, evsel);
	s->dump = false;
	err = session__deliver_event(s, event, off);
	s->dump = true;
	return err;
}

static int session__deliver_event(struct perf_session *s, union perf_event *event, uint64_t off)
{
	struct perf_tool *tool = s->tool;
	struct perf_sample sample;
	struct evsel *evsel = perf_data__event_evsel(&s->data, event);
	int err = 0;

	perf_data__set_deliver_offset(&s->data, off);
	if (unlikely(s->dump))
		return session__dump_deliver(s, event, off, evsel);
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if (!evsel) {
			s->data.stats.nr_unknown_id++;
			s->data.summary.nr_skipped++;
			pr_debug("sample at offset %#" PRIx64 " with unknown id, skipped\n", off);
			return 0;
		}
		if (perf_event__parse_id_sample(evsel, event, &sample, s->data.needs_swap)) {
			perf_data__bad_record(&s->data, off, "sample too short for its sample_type",
					      event->header.type);
			return 0;
		}
		perf_data__count_sample(&s->data, evsel->idx);
		if (unlikely(s->off_cpu_wanted)) {
			struct off_cpu *oc = perf_session__off_cpu(s, &err);

			if (err)
				return err;
			if (oc && off_cpu__consume_sample(oc, evsel, &sample, &err))
				return err;
		}
		return tool->sample ? tool->sample(tool, event, &sample, evsel, s->machine) : 0;
	}
	if (evsel) {
		if (perf_event__parse_id_sample(evsel, event, &sample, s->data.needs_swap)) {
			perf_data__bad_record(&s->data, off, "sample_id trailer does not fit",
					      event->header.type);
			return 0;
		}
	} else {
		memset(&sample, 0, sizeof(sample));
		sample.pid = sample.tid = sample.cpu = (u32)-1;
		sample.time = ~0ULL;
		sample.misc = event->header.misc;
		sample.cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	}
	switch (event->header.type) {
	case PERF_RECORD_MMAP:
		if (event->header.size < offsetof(struct perf_record_mmap, filename) + 1)
			goto short_rec;
		return deliver_model(s, tool->mmap, event, &sample);
	case PERF_RECORD_MMAP2:
		if (event->header.size < offsetof(struct perf_record_mmap2, filename) + 1)
			goto short_rec;
		return deliver_model(s, tool->mmap2, event, &sample);
	case PERF_RECORD_COMM:
		if (event->header.size < offsetof(struct perf_record_comm, comm) + 1)
			goto short_rec;
		return deliver_model(s, tool->comm, event, &sample);
	case PERF_RECORD_NAMESPACES:
		return deliver_model(s, tool->namespaces, event, &sample);
	case PERF_RECORD_CGROUP:
		return deliver_model(s, tool->cgroup, event, &sample);
	case PERF_RECORD_FORK:
		if (event->header.size < sizeof(struct perf_record_fork))
			goto short_rec;
		return deliver_model(s, tool->fork, event, &sample);
	case PERF_RECORD_EXIT:
		if (event->header.size < sizeof(struct perf_record_fork))
			goto short_rec;
		return deliver_model(s, tool->exit, event, &sample);
	case PERF_RECORD_LOST:
		if (event->header.size < sizeof(struct perf_record_lost))
			goto short_rec;
		s->data.stats.total_lost += event->lost.lost;
		return deliver_sideband(s, tool->lost, event, &sample);
	case PERF_RECORD_LOST_SAMPLES:
		if (event->header.size < sizeof(struct perf_record_lost_samples))
			goto short_rec;
		s->data.stats.total_lost_samples += event->lost_samples.lost;
		return deliver_sideband(s, tool->lost_samples, event, &sample);
	case PERF_RECORD_AUX:
		return deliver_sideband(s, tool->aux, event, &sample);
	case PERF_RECORD_ITRACE_START:
		return deliver_sideband(s, tool->itrace_start, event, &sample);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (s->off_cpu_wanted) {
			struct off_cpu *oc = perf_session__off_cpu(s, &err);

			if (!err && oc)
				err = off_cpu__context_switch(oc, event, &sample);
			if (err)
				return err;
		}
		return deliver_sideband(s, tool->context_switch, event, &sample);
	case PERF_RECORD_THROTTLE:
		s->data.stats.nr_throttles++;
		return deliver_sideband(s, tool->throttle, event, &sample);
	case PERF_RECORD_UNTHROTTLE:
		s->data.stats.nr_unthrottles++;
		return deliver_sideband(s, tool->unthrottle, event, &sample);
	case PERF_RECORD_KSYMBOL:
		if (event->header.size < offsetof(struct perf_record_ksymbol, name) + 1)
			goto short_rec;
		return deliver_model(s, tool->ksymbol, event, &sample);
	case PERF_RECORD_BPF_EVENT:
		return deliver_model(s, tool->bpf, event, &sample);
	case PERF_RECORD_TEXT_POKE:
		return deliver_model(s, tool->text_poke, event, &sample);
	case PERF_RECORD_READ:
		if (event->header.size < sizeof(struct perf_record_read))
			goto short_rec;
		return deliver_sideband(s, tool->read, event, &sample);
	default:
		return 0;
	}
short_rec:
	perf_data__bad_record(&s->data, off, "record too short", event->header.type);
	return 0;
}

static int oe_deliver(void *ctx, struct oe_node *node)
{
	struct perf_session *s = ctx;
	int err = session__deliver_event(s, node->event, node->file_offset);

	if (node->owner)
		perf_data__put(&s->data, node->owner);
	return err;
}

/* ---- off-CPU spans ---- */

/* A finished span: an offcpu-time sample for the tool. */
static int session__off_cpu_span(void *arg, const struct off_cpu_span *span)
{
	struct perf_session *s = arg;
	struct perf_sample sample = span->sample;

	return s->tool->sample ? s->tool->sample(s->tool, NULL, &sample, sample.evsel, s->machine) : 0;
}

void perf_session__enable_off_cpu(struct perf_session *s)
{
	s->off_cpu_wanted = true;
}

struct off_cpu *perf_session__off_cpu(struct perf_session *s, int *err)
{
	if (!s->off_cpu_wanted) {
		*err = 0;
		return NULL;
	}
	if (!s->off_cpu_setup) {
		s->off_cpu_setup = true;
		s->oc = off_cpu__new_session(s, NULL, session__off_cpu_span, s, &s->off_cpu_err);
	}
	*err = s->off_cpu_err;
	return s->oc;
}

/* ---- parallel DWARF unwinding ---- */

#define UNWIND_BATCH_MAX 512	/* samples unwound ahead at a time */
#define UNWIND_BATCH_MIN 16	/* fewer in a run: not worth waking workers */
#define UNWIND_DEFER_NODES 2048	/* rounds deferred while fewer records queued */

void perf_session__set_unwind_threads(struct perf_session *s, int nthreads)
{
	s->unwind_threads = nthreads < 0 ? 0 : nthreads;
}

static bool session__has_dwarf_samples(struct perf_session *s)
{
	struct evsel *evsel;

	evlist__for_each_entry(s->data.evlist, evsel)
		if (evsel__has_dwarf_stack(evsel))
			return true;
	return false;
}

/*
 * Queue the DWARF samples of the run of SAMPLE records at nodes[0..n)
 * (up to UNWIND_BATCH_MAX) and unwind them on the workers. Returns the
 * nodes the run covers (0: nodes[0] is not a sample). Only samples of
 * threads that exist with the sample's pid are taken: delivering them
 * then changes no address space (machine__findnew_thread() finds them
 * as they are), so the model the workers saw is the one delivery sees.
 */
static size_t session__unwind_ahead(struct perf_session *s, struct oe_node *nodes, size_t n)
{
	struct unwind_batch *b = s->unwind_batch;
	size_t i;

	unwind_batch__clear(b);
	for (i = 0; i < n && unwind_batch__nr(b) < UNWIND_BATCH_MAX; i++) {
		union perf_event *event = nodes[i].event;
		struct perf_sample sample;
		struct thread *thread;
		struct evsel *evsel;

		if (event->header.type != PERF_RECORD_SAMPLE)
			break;
		evsel = perf_data__event_evsel(&s->data, event);
		if (!evsel__has_dwarf_stack(evsel))
			continue;
		if (perf_event__parse_id_sample(evsel, event, &sample, s->data.needs_swap) ||
		    !perf_sample__has_user_stack(&sample))
			continue;
		thread = machine__find_thread(s->machine, (pid_t)sample.tid);
		if (!thread || thread->pid != (pid_t)sample.pid)
			continue;
		unwind_batch__add(b, thread, evsel, &sample);
	}
	if (unwind_batch__nr(b) >= UNWIND_BATCH_MIN)
		unwind_batch__run(b, s->unwind_threads);
	else
		unwind_batch__clear(b);
	return i;
}

/* Does the session unwind DWARF samples on worker threads (so far)? */
static bool session__unwinds_ahead(struct perf_session *s)
{
	struct ordered_events *oe = s->ordered;

	return oe && oe->deliver_batch && !s->unwind_parallel_off && s->unwind_batch;
}

/* After a batch: stop when the tool replays too few of the prepared
 * samples (it does not unwind, or filters most samples out). */
static void session__unwind_check(struct perf_session *s)
{
	uint64_t prepared, replayed;

	unwind_batch__stats(s->unwind_batch, &prepared, &replayed);
	if (prepared >= 4 * UNWIND_BATCH_MAX && replayed < prepared / 2) {
		pr_debug("parallel unwinding off: %" PRIu64 " of %" PRIu64 " prepared stacks used\n",
			 replayed, prepared);
		s->unwind_parallel_off = true;
	}
}

static int oe_deliver(void *ctx, struct oe_node *node);

static int oe_deliver_batch(void *ctx, struct oe_node *nodes, size_t n, size_t *done)
{
	struct perf_session *s = ctx;
	size_t i, ahead = 0;
	int err = 0;

	if (!s->unwind_batch && !s->unwind_parallel_off) {
		if (session__has_dwarf_samples(s))
			s->unwind_batch = unwind_batch__new(UNWIND_BATCH_MAX);
		if (!s->unwind_batch)
			s->unwind_parallel_off = true;
	}
	for (i = 0; i < n; i++) {
		if (i >= ahead && !s->unwind_parallel_off) {
			size_t k = session__unwind_ahead(s, nodes + i, n - i);

			if (k && unwind_batch__nr(s->unwind_batch))
				session__unwind_check(s);
			ahead = i + (k ? k : 1);
		}
		if (i + 8 < n)
			__builtin_prefetch(nodes[i + 8].event);
		err = oe_deliver(ctx, &nodes[i]);
		if (err) {
			i++;
			break;
		}
	}
	unwind_batch__clear(s->unwind_batch);
	*done = i;
	return err;
}

static int call_op2(struct perf_session *s, event_op2 fn, union perf_event *event)
{
	return fn ? fn(s, event) : 0;
}

/* A pipe's PERF_RECORD_HEADER_BUILD_ID (at least the fixed part, checked)
 * handed to the tool as the file's feature section is. */
static void session__build_id_record(struct perf_session *s, union perf_event *event)
{
	size_t max = event->header.size - sizeof(event->build_id);
	uint8_t cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct build_id bid = { .size = BUILD_ID_SIZE };

	if (!s->tool->header_build_id || !max || strnlen(event->build_id.filename, max) == max)
		return;
	if ((event->header.misc & (1 << 15)) && event->build_id.size <= BUILD_ID_SIZE)
		bid.size = event->build_id.size;
	memcpy(bid.data, event->build_id.data, bid.size);
	s->tool->header_build_id(s->tool, event->build_id.filename, &bid,
				 cpumode == PERF_RECORD_MISC_KERNEL ||
				 cpumode == PERF_RECORD_MISC_GUEST_KERNEL);
}

static int process_user_event(struct perf_session *s, union perf_event *event, uint64_t off)
{
	struct perf_tool *tool = s->tool;
	struct ordered_events *oe = s->ordered;
	int err;

	perf_data__set_deliver_offset(&s->data, off);
	if (unlikely(s->dump))
		session_dump__user(s, event, off);
	/* deferred rounds are delivered before anything else happens, as
	 * their flushes would have been */
	if (oe && oe->pending && event->header.type != PERF_RECORD_FINISHED_ROUND) {
		err = ordered_events__flush_pending(oe);
		if (err)
			return err;
	}
	/* the evlist and features take in ATTR, EVENT_UPDATE, ID_INDEX and
	 * FEATURE records first; a short one was reported and is skipped */
	err = perf_data__apply_user_event(&s->data, event, off);
	if (err)
		return err > 0 ? 0 : err;
	switch (event->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		return call_op2(s, tool->attr, event);
	case PERF_RECORD_EVENT_UPDATE:
		return call_op2(s, tool->event_update, event);
	case PERF_RECORD_HEADER_TRACING_DATA:
		return call_op2(s, tool->tracing_data, event);
	case PERF_RECORD_HEADER_BUILD_ID:
		if (event->header.size < sizeof(struct perf_record_header_build_id)) {
			perf_data__bad_record(&s->data, off, "record too short", event->header.type);
			return 0;
		}
		if (s->machine) {
			struct perf_sample sample;

			memset(&sample, 0, sizeof(sample));
			machine__process_event(s->machine, event, &sample);
		}
		session__build_id_record(s, event);
		return call_op2(s, tool->build_id, event);
	case PERF_RECORD_FINISHED_ROUND:
		/* rounds of a few dozen samples are too short to unwind in
		 * parallel: deliver a few at once (same order) */
		if (oe && session__unwinds_ahead(s) && oe->nr < UNWIND_DEFER_NODES && !s->dump) {
			ordered_events__defer_round(oe);
		} else if (oe) {
			err = ordered_events__flush_round(oe);
			if (err)
				return err;
		}
		return call_op2(s, tool->finished_round, event);
	case PERF_RECORD_FINISHED_INIT:
		return call_op2(s, tool->finished_init, event);
	case PERF_RECORD_ID_INDEX:
		return call_op2(s, tool->id_index, event);
	case PERF_RECORD_HEADER_FEATURE:
		return call_op2(s, tool->feature, event);
	case PERF_RECORD_TIME_CONV:
		return call_op2(s, tool->time_conv, event);
	case PERF_RECORD_STAT:
		return call_op2(s, tool->stat, event);
	case PERF_RECORD_STAT_ROUND:
		return call_op2(s, tool->stat_round, event);
	case PERF_RECORD_STAT_CONFIG:
		return call_op2(s, tool->stat_config, event);
	case PERF_RECORD_THREAD_MAP:
		return call_op2(s, tool->thread_map, event);
	case PERF_RECORD_CPU_MAP:
		return call_op2(s, tool->cpu_map, event);
	case PERF_RECORD_AUXTRACE_INFO:
		return call_op2(s, tool->auxtrace_info, event);
	default:
		return 0;
	}
}

/* The total a progress callback is given: the data section's bytes (file). */
static uint64_t session__progress_total(const struct perf_session *s)
{
	return s->data.pipe && !s->data.file_size ? 0 : s->data.data_size;
}

/* tool->sample_wanted() drops the sample read (counted as delivered);
 * its time still counts for the round flushes, so that the records kept
 * are delivered in the same order as without the filter */
static bool session__sample_dropped(struct perf_session *s, union perf_event *event)
{
	struct evsel *evsel = perf_data__event_evsel(&s->data, event);
	struct ordered_events *oe = s->ordered;

	if (!evsel || s->tool->sample_wanted(s->tool, evsel,
					     perf_event__sample_cpu(evsel, event, s->data.needs_swap)))
		return false;
	perf_data__count_sample(&s->data, evsel->idx);
	if (oe) {
		uint64_t ts = perf_data__event_time(&s->data, event);

		if (ts != ~0ULL && ts > oe->max_timestamp)
			oe->max_timestamp = ts;
	}
	return true;
}

/* perf_data_ops.record: a record as read, swapped: user records are
 * processed now, timed ones queued for ordered delivery, the rest
 * delivered. */
static int session__record(void *ctx, union perf_event *event, uint64_t off,
			   struct rec_chunk *owner)
{
	struct perf_session *s = ctx;
	struct ordered_events *oe = s->ordered;

	if (unlikely(s->progress != NULL) && !(++s->nr_progress & 1023))
		s->progress(off - s->data.data_offset, session__progress_total(s), false);
	if (event->header.type >= PERF_RECORD_USER_TYPE_START)
		return process_user_event(s, event, off);
	if (unlikely(s->tool && s->tool->sample_wanted) && event->header.type == PERF_RECORD_SAMPLE &&
	    session__sample_dropped(s, event))
		return 0;
	if (oe) {
		uint64_t ts = perf_data__event_time(&s->data, event);

		/* -D: perf delivers a record of time 0 as it reads it */
		if (ts != ~0ULL && !(ts == 0 && s->dump)) {
			uint64_t before = oe->nr_unordered;
			int err = ordered_events__queue(oe, ts, event, owner, off);

			if (err)
				return err;
			if (oe->nr_unordered != before) {
				s->data.stats.nr_unordered++;
				pr_debug("record at offset %#" PRIx64 " is older than the last flush\n", off);
			}
			if (owner)
				rec_chunk__get(owner);
			return 0;
		}
	}
	return session__deliver_event(s, event, off);
}

static int session__compressed(void *ctx, union perf_event *event)
{
	struct perf_session *s = ctx;

	return s->tool && s->tool->compressed ? s->tool->compressed(s, event) : 0;
}

static void session__build_id(void *ctx, const char *filename, const struct build_id *bid,
			      bool kernel)
{
	struct perf_session *s = ctx;

	machine__set_build_id(s->machine, filename, bid, kernel);
	if (s->tool && s->tool->header_build_id)
		s->tool->header_build_id(s->tool, filename, bid, kernel);
}


static uint64_t session__held_offset(void *ctx)
{
	struct perf_session *s = ctx;

	return s->ordered ? ordered_events__min_mapped_offset(s->ordered) : ~0ULL;
}

/* ---- public ---- */

struct perf_session *perf_session__new(const char *path, struct perf_tool *tool, int *err)
{
	struct perf_session *s = zalloc(sizeof(*s));
	int e = -ENOMEM;

	if (!s)
		goto fail;
	s->tool = tool;
	/* before the features: HEADER_BUILD_ID feeds the machine's DSOs */
	s->machine = machine__new_host();
	if (!s->machine)
		goto fail;
	s->data.ops = (struct perf_data_ops){
		.record = session__record,
		.compressed = session__compressed,
		.build_id = session__build_id,
		.held_offset = session__held_offset,
		.sparse = tool && tool->samples_sparse,
	};
	s->data.ops_ctx = s;
	e = perf_data__open(&s->data, path);
	if (e)
		goto fail;
	return s;
fail:
	perf_session__delete(s);
	if (err)
		*err = e;
	return NULL;
}

void perf_session__delete(struct perf_session *s)
{
	if (!s)
		return;
	if (s->ordered) {
		ordered_events__exit(s->ordered);
		free(s->ordered);
	}
	off_cpu__delete(s->oc);
	perf_data__close(&s->data);
	if (s->machine)
		machine__delete(s->machine);
	free(s);
}

int perf_session__deliver_live(struct perf_session *s, union perf_event *event)
{
	return session__record(s, event, 0, NULL);
}

int perf_session__process_events(struct perf_session *s)
{
	struct perf_tool default_tool;
	struct ordered_events *oe = NULL;
	int err, err2 = 0;

	if (!s->tool) {
		perf_tool__init(&default_tool, true);
		s->tool = &default_tool;
	}
	if (s->tool->ordered_events) {
		oe = zalloc(sizeof(*oe));
		if (!oe)
			return -ENOMEM;
		ordered_events__init(oe, oe_deliver, s);
		s->ordered = oe;
		if (!s->unwind_threads)
			s->unwind_threads = unwind__parallel_threads();
		/* the batch is made at the first delivery, once the attrs
		 * are known (pipe mode: HEADER_ATTR records) */
		s->unwind_parallel_off = false;
		if (s->unwind_threads > 1 && s->tool->sample != default_sample)
			oe->deliver_batch = oe_deliver_batch;
	}
	if (s->progress)
		s->progress(0, session__progress_total(s), false);
	err = perf_data__read(&s->data);
	if (oe) {
		/* deliver what was read, even after an input error */
		if (err >= 0 || err == -EIO || err == -EINVAL)
			err2 = ordered_events__flush_all(oe);
		else
			oe->nr = 0;
		ordered_events__exit(oe);
		free(oe);
		s->ordered = NULL;
		if (s->unwind_batch) {
			uint64_t prepared, replayed;

			unwind_batch__stats(s->unwind_batch, &prepared, &replayed);
			pr_debug("parallel unwinding: %d threads, %" PRIu64 " stacks unwound ahead, %"
				 PRIu64 " used\n", s->unwind_threads, prepared, replayed);
		}
		unwind_batch__delete(s->unwind_batch);
		s->unwind_batch = NULL;
	}
	if (s->progress)
		s->progress(s->data.data_size, session__progress_total(s), true);
	if (s->tool == &default_tool)
		s->tool = NULL;
	if (s->data.stats.nr_unknown_id)
		pr_warning("%s: %" PRIu64 " samples with an id not in the file's attrs were skipped\n",
			   s->data.path, s->data.stats.nr_unknown_id);
	if (s->data.stats.nr_unordered)
		pr_debug("%" PRIu64 " records older than the last round flush\n", s->data.stats.nr_unordered);
	return err ? err : err2;
}

/* ---- the end of a read: summary and exit status ---- */

int read_summary__finish(const struct read_summary *rs, const char *cmd, const char *path,
			 bool force)
{
	if (rs->stopped) {
		uint64_t end = rs->data_offset + rs->data_size;
		char left_txt[160];

		if (rs->data_size && end > rs->stop_offset && rs->stop_offset >= rs->data_offset) {
			uint64_t left = end - rs->stop_offset, done = rs->stop_offset - rs->data_offset;
			int n = snprintf(left_txt, sizeof(left_txt), "%" PRIu64 " of %" PRIu64
					 " bytes of the data section (%.1f%%) not read", left, rs->data_size,
					 100.0 * (double)left / (double)rs->data_size);

			/* the records in the bytes not read are unknown: an
			 * estimate from the size of those read */
			if (done && rs->nr_records && n > 0 && (size_t)n < sizeof(left_txt)) {
				double est = (double)rs->nr_records * (double)left / (double)done;

				snprintf(left_txt + n, sizeof(left_txt) - n, est < 1 ? ", part of a record" :
					 ", about %.0f records", est);
			}
		} else if (!rs->data_size) {
			snprintf(left_txt, sizeof(left_txt), "the rest of the input not read");
		} else {
			snprintf(left_txt, sizeof(left_txt), "the end of the data not read");
		}
		pr_err("prf %s: %s: partial result: reading stopped at offset %#" PRIx64 " (%s); %s; %"
		       PRIu64 " records read\n", cmd, path, rs->stop_offset,
		       rs->stop_why ? rs->stop_why : "damaged input", left_txt, rs->nr_records);
		if (!force)
			pr_err("prf %s: exit status 1 for a partial result (-f/--force: 0)\n", cmd);
	}
	if (rs->nr_skipped)
		pr_warning("prf %s: warning: %s: %" PRIu64 " of %" PRIu64
			   " records skipped (bad or unprocessable, see above)%s\n", cmd, path,
			   rs->nr_skipped, rs->nr_records, rs->stopped ? "" : "; the rest was read");
	return rs->stopped && !force ? 1 : 0;
}

int perf_session__read_status(struct perf_session *s, const char *cmd, bool force)
{
	return read_summary__finish(&s->data.summary, cmd, s->data.path, force);
}

bool perf_session__input_damage(const struct perf_session *s, int err)
{
	return (err == -EIO || err == -EINVAL) && s->data.summary.stopped;
}
