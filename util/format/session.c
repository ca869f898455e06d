// SPDX-License-Identifier: GPL-2.0
/*
 * Session: evlist from the file, record dispatch to a perf_tool, ordered
 * delivery, statistics. See session.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "session-internal.h"
#include "ordered-events.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"
#include "../kernel/event-names.h"
#include "../model/machine.h"
#include "../model/unwind.h"

static const char *const record_names[PERF_RECORD_HEADER_MAX] = {
	[0]				= "TOTAL",
	[PERF_RECORD_MMAP]		= "MMAP",
	[PERF_RECORD_LOST]		= "LOST",
	[PERF_RECORD_COMM]		= "COMM",
	[PERF_RECORD_EXIT]		= "EXIT",
	[PERF_RECORD_THROTTLE]		= "THROTTLE",
	[PERF_RECORD_UNTHROTTLE]	= "UNTHROTTLE",
	[PERF_RECORD_FORK]		= "FORK",
	[PERF_RECORD_READ]		= "READ",
	[PERF_RECORD_SAMPLE]		= "SAMPLE",
	[PERF_RECORD_MMAP2]		= "MMAP2",
	[PERF_RECORD_AUX]		= "AUX",
	[PERF_RECORD_ITRACE_START]	= "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES]	= "LOST_SAMPLES",
	[PERF_RECORD_SWITCH]		= "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE]	= "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES]	= "NAMESPACES",
	[PERF_RECORD_KSYMBOL]		= "KSYMBOL",
	[PERF_RECORD_BPF_EVENT]		= "BPF_EVENT",
	[PERF_RECORD_CGROUP]		= "CGROUP",
	[PERF_RECORD_TEXT_POKE]		= "TEXT_POKE",
	[21]				= "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR]	= "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE]	= "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID]	= "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND]	= "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX]		= "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO]	= "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE]		= "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR]	= "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP]	= "THREAD_MAP",
	[PERF_RECORD_CPU_MAP]		= "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG]	= "STAT_CONFIG",
	[PERF_RECORD_STAT]		= "STAT",
	[PERF_RECORD_STAT_ROUND]	= "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE]	= "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV]		= "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE]	= "FEATURE",
	[PERF_RECORD_COMPRESSED]	= "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT]	= "FINISHED_INIT",
};

const char *perf_event__name(unsigned int type)
{
	if (type >= PERF_RECORD_HEADER_MAX || !record_names[type])
		return "UNKNOWN";
	return record_names[type];
}

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

/* ---- evsels ---- */

int session__new_evsel(struct perf_session *s, const struct perf_event_attr *attr, size_t attr_size,
		       const uint64_t *ids, size_t nr_ids, bool swap_ids)
{
	struct reader_priv *rp = session__rp(s);
	struct perf_event_attr a;
	struct evsel *evsel;
	size_t i;

	memset(&a, 0, sizeof(a));
	memcpy(&a, attr, min(attr_size, sizeof(a)));
	evsel = evsel__new(&a);
	if (!evsel)
		return -ENOMEM;
	/* keep the writer's attr.size for printing (perf prints the file's) */
	evsel->attr.size = a.size ? a.size : PERF_ATTR_SIZE_VER0;
	evlist__add(s->evlist, evsel);
	/* ids may be unaligned (a pipe ATTR record whose attr.size is not a
	 * multiple of 8): read them with memcpy */
	for (i = 0; i < nr_ids; i++) {
		uint64_t id;

		memcpy(&id, (const char *)ids + i * 8, 8);
		if (swap_ids)
			id = __builtin_bswap64(id);
		if (session__id_add(s, id, evsel))
			return -ENOMEM;
	}
	if (nr_ids) {
		uint64_t *copy = malloc(nr_ids * sizeof(*copy));

		if (copy) {
			memcpy(copy, (const char *)ids, nr_ids * 8);
			for (i = 0; swap_ids && i < nr_ids; i++)
				copy[i] = __builtin_bswap64(copy[i]);
			free(evsel->ids);
			evsel->ids = copy;
			/* the file has no cpu/thread layout: keep them as one row */
			evsel->nr_cpus = 1;
			evsel->nr_threads = (int)nr_ids;
		}
	}
	if (evsel->idx >= rp->nr_evsel_samples) {
		int n = evsel->idx + 8;
		uint64_t *c = realloc(rp->evsel_samples, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		memset(c + rp->nr_evsel_samples, 0, (n - rp->nr_evsel_samples) * sizeof(*c));
		rp->evsel_samples = c;
		rp->nr_evsel_samples = n;
	}
	session__update_sample_layout(s);
	return 0;
}

/* Name from the attr alone (perf_event_attr__snprintf_name, util/kernel/event-names.h),
 * for files without EVENT_DESC / EVENT_UPDATE names. */
void session__name_evsel(struct evsel *evsel)
{
	char buf[256];

	perf_event_attr__snprintf_name(&evsel->attr, buf, sizeof(buf));
	evsel__set_name(evsel, buf);
}

static void session__name_evsels(struct perf_session *s)
{
	struct evsel *evsel;

	evlist__for_each_entry(s->evlist, evsel)
		if (!evsel->name)
			session__name_evsel(evsel);
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

static void bad_record(struct perf_session *s, uint64_t off, const char *why, uint32_t type)
{
	s->stats.nr_bad_records++;
	pr_err("bad record at offset %#" PRIx64 ": %s (type %s), skipped\n", off, why, perf_event__name(type));
}

int session__deliver_event(struct perf_session *s, union perf_event *event, uint64_t off)
{
	struct reader_priv *rp = session__rp(s);
	struct perf_tool *tool = s->tool;
	struct perf_sample sample;
	struct evsel *evsel = session__event_evsel(s, event);

	rp->deliver_offset = off;
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if (!evsel) {
			s->stats.nr_unknown_id++;
			pr_debug("sample at offset %#" PRIx64 " with unknown id, skipped\n", off);
			return 0;
		}
		if (perf_event__parse_id_sample(evsel, event, &sample, s->needs_swap)) {
			bad_record(s, off, "sample too short for its sample_type", event->header.type);
			return 0;
		}
		if (evsel->idx < rp->nr_evsel_samples)
			rp->evsel_samples[evsel->idx]++;
		if (sample.time != ~0ULL) {
			if (!rp->first_sample_time || sample.time < rp->first_sample_time)
				rp->first_sample_time = sample.time;
			if (sample.time > rp->last_sample_time)
				rp->last_sample_time = sample.time;
		}
		return tool->sample ? tool->sample(tool, event, &sample, evsel, s->machine) : 0;
	}
	if (evsel) {
		if (perf_event__parse_id_sample(evsel, event, &sample, s->needs_swap)) {
			bad_record(s, off, "sample_id trailer does not fit", event->header.type);
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
		s->stats.total_lost += event->lost.lost;
		return deliver_sideband(s, tool->lost, event, &sample);
	case PERF_RECORD_LOST_SAMPLES:
		if (event->header.size < sizeof(struct perf_record_lost_samples))
			goto short_rec;
		s->stats.total_lost_samples += event->lost_samples.lost;
		return deliver_sideband(s, tool->lost_samples, event, &sample);
	case PERF_RECORD_AUX:
		return deliver_sideband(s, tool->aux, event, &sample);
	case PERF_RECORD_ITRACE_START:
		return deliver_sideband(s, tool->itrace_start, event, &sample);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return deliver_sideband(s, tool->context_switch, event, &sample);
	case PERF_RECORD_THROTTLE:
		s->stats.nr_throttles++;
		return deliver_sideband(s, tool->throttle, event, &sample);
	case PERF_RECORD_UNTHROTTLE:
		s->stats.nr_unthrottles++;
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
	bad_record(s, off, "record too short", event->header.type);
	return 0;
}

static int oe_deliver(void *ctx, struct oe_node *node)
{
	struct perf_session *s = ctx;
	int err = session__deliver_event(s, node->event, node->file_offset);

	if (node->owner)
		rec_chunk__put(s, node->owner);
	return err;
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

	evlist__for_each_entry(s->evlist, evsel)
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
		evsel = session__event_evsel(s, event);
		if (!evsel__has_dwarf_stack(evsel))
			continue;
		if (perf_event__parse_id_sample(evsel, event, &sample, s->needs_swap) ||
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

static int process_user_event(struct perf_session *s, union perf_event *event, uint64_t off)
{
	session__rp(s)->deliver_offset = off;
	struct perf_tool *tool = s->tool;
	struct ordered_events *oe = s->ordered;
	size_t sz = event->header.size, hs = sizeof(event->header);
	int err;

	/* deferred rounds are delivered before anything else happens, as
	 * their flushes would have been */
	if (oe && oe->pending && event->header.type != PERF_RECORD_FINISHED_ROUND) {
		err = ordered_events__flush_pending(oe);
		if (err)
			return err;
	}
	switch (event->header.type) {
	case PERF_RECORD_HEADER_ATTR: {
		uint32_t asz;
		size_t nr_ids;

		if (sz < hs + PERF_ATTR_SIZE_VER0)
			goto short_rec;
		asz = event->attr.attr.size ? event->attr.attr.size : PERF_ATTR_SIZE_VER0;
		if (asz > sz - hs || asz < PERF_ATTR_SIZE_VER0)
			goto short_rec;
		nr_ids = (sz - hs - asz) / 8;
		err = session__new_evsel(s, &event->attr.attr, asz,
					 (const uint64_t *)((char *)&event->attr.attr + asz), nr_ids, false);
		if (err)
			return err;
		session__name_evsels(s);	/* provisional; EVENT_UPDATE/EVENT_DESC refine */
		return call_op2(s, tool->attr, event);
	}
	case PERF_RECORD_EVENT_UPDATE:
		if (sz < hs + 16)
			goto short_rec;
		{
			uint64_t type, id;
			struct evsel *evsel;

			memcpy(&type, (char *)event + hs, 8);
			memcpy(&id, (char *)event + hs + 8, 8);
			evsel = session__id2evsel(s, id);
			if (type == 2 /* PERF_EVENT_UPDATE__NAME */ && evsel && sz > hs + 16) {
				char name[256];
				size_t n = min(sz - hs - 16, sizeof(name) - 1);

				memcpy(name, (char *)event + hs + 16, n);
				name[n] = '\0';
				evsel__set_name(evsel, name);
			}
		}
		return call_op2(s, tool->event_update, event);
	case PERF_RECORD_HEADER_TRACING_DATA:
		return call_op2(s, tool->tracing_data, event);
	case PERF_RECORD_HEADER_BUILD_ID:
		if (sz < sizeof(struct perf_record_header_build_id))
			goto short_rec;
		if (s->machine) {
			struct perf_sample sample;

			memset(&sample, 0, sizeof(sample));
			machine__process_event(s->machine, event, &sample);
		}
		return call_op2(s, tool->build_id, event);
	case PERF_RECORD_FINISHED_ROUND:
		/* rounds of a few dozen samples are too short to unwind in
		 * parallel: deliver a few at once (same order) */
		if (oe && session__unwinds_ahead(s) && oe->nr < UNWIND_DEFER_NODES) {
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
		if (sz < hs + 8)
			goto short_rec;
		{
			uint64_t nr = event->id_index.nr, i;

			if (nr > (sz - hs - 8) / sizeof(struct id_index_entry))
				goto short_rec;
			for (i = 0; i < nr; i++) {
				struct id_index_entry *e = &event->id_index.entries[i];
				struct evsel *evsel;

				if (session__id2evsel(s, e->id))
					continue;
				evlist__for_each_entry(s->evlist, evsel)
					if ((uint64_t)evsel->idx == e->idx) {
						session__id_add(s, e->id, evsel);
						break;
					}
			}
		}
		return call_op2(s, tool->id_index, event);
	case PERF_RECORD_HEADER_FEATURE:
		if (sz < hs + 8)
			goto short_rec;
		{
			uint64_t feat = event->feat.feat_id;

			if (feat < HEADER_FEAT_BITS) {
				s->feat_bits[feat / (8 * sizeof(long))] |= 1UL << (feat % (8 * sizeof(long)));
				session__process_feature(s, (int)feat, event->feat.data, sz - hs - 8);
			}
		}
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
short_rec:
	bad_record(s, off, "record too short", event->header.type);
	return 0;
}

int session__process_record(struct perf_session *s, union perf_event *event, uint64_t off,
			    struct rec_chunk *owner)
{
	struct ordered_events *oe = s->ordered;
	uint32_t type = event->header.type;

	s->stats.nr_events[0]++;
	if (type < PERF_RECORD_HEADER_MAX)
		s->stats.nr_events[type]++;
	if (s->needs_swap) {
		struct reader_priv *rp = session__rp(s);

		perf_event__swap(event, rp->sample_id_all, rp->id_hdr_size);
	}
	if (type >= PERF_RECORD_USER_TYPE_START)
		return process_user_event(s, event, off);
	if (oe) {
		uint64_t ts = session__event_time(s, event);

		if (ts != ~0ULL) {
			uint64_t before = oe->nr_unordered;
			int err = ordered_events__queue(oe, ts, event, owner, off);

			if (err)
				return err;
			if (oe->nr_unordered != before) {
				s->stats.nr_unordered++;
				pr_debug("record at offset %#" PRIx64 " is older than the last flush\n", off);
			}
			if (owner)
				owner->refs++;
			return 0;
		}
	}
	return session__deliver_event(s, event, off);
}

/* ---- public ---- */

struct perf_session *perf_session__new(const char *path, struct perf_tool *tool, int *err)
{
	struct perf_session *s = zalloc(sizeof(*s));
	int e = -ENOMEM;

	if (!s)
		goto fail;
	s->fd = -1;
	s->path = path ? path : "perf.data";
	s->tool = tool;
	s->env.clockid = -1;
	s->reader = zalloc(sizeof(*s->reader));
	s->evlist = evlist__new();
	if (!s->reader || !s->evlist)
		goto fail;
	s->reader->id_pos = s->reader->is_pos = -1;
	/* before the features: BUILD_ID feeds the machine's DSOs */
	s->machine = machine__new_host();
	e = reader__open(s);
	if (e)
		goto fail;
	session__name_evsels(s);
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
	reader__close(s);
	session__free_features(s);
	if (s->reader) {
		free(s->reader->id_keys);
		free(s->reader->id_vals);
		free(s->reader->evsel_samples);
		free(s->reader);
	}
	evlist__delete(s->evlist);
	if (s->machine)
		machine__delete(s->machine);
	free(s->env.hostname);
	free(s->env.os_release);
	free(s->env.version);
	free(s->env.arch);
	free(s->env.cpu_desc);
	free(s->env.cpuid);
	env__free_cmdline(&s->env);
	free(s->env.tracing_data);
	free(s->symfs);
	free(s);
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
	err = reader__process(s);
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
	if (s->tool == &default_tool)
		s->tool = NULL;
	if (s->stats.nr_unknown_id)
		pr_warning("%" PRIu64 " samples with an id not in the file's attrs were skipped\n",
			   s->stats.nr_unknown_id);
	if (s->stats.nr_unordered)
		pr_debug("%" PRIu64 " records older than the last round flush\n", s->stats.nr_unordered);
	return err ? err : err2;
}

bool perf_session__has_feat(const struct perf_session *s, int feat)
{
	if (feat < 0 || feat >= HEADER_FEAT_BITS)
		return false;
	return s->feat_bits[feat / (8 * sizeof(long))] >> (feat % (8 * sizeof(long))) & 1;
}

uint64_t perf_session__evsel_nr_samples(struct perf_session *s, const struct evsel *evsel)
{
	struct reader_priv *rp = session__rp(s);

	if (!rp || evsel->idx < 0 || evsel->idx >= rp->nr_evsel_samples)
		return 0;
	return rp->evsel_samples[evsel->idx];
}

uint64_t perf_session__cur_offset(struct perf_session *s)
{
	return s->reader ? s->reader->deliver_offset : 0;
}

void perf_session__fprintf_stats(struct perf_session *s, FILE *fp)
{
	uint64_t total = s->stats.nr_events[0];
	struct evsel *evsel;
	unsigned int i;

	fprintf(fp, "\nAggregated stats:\n");
	for (i = 0; i < PERF_RECORD_HEADER_MAX; i++) {
		const char *name = perf_event__name(i);

		if (!strcmp(name, "UNKNOWN") || (!s->stats.nr_events[i] && i))
			continue;
		if (i && total)
			fprintf(fp, "%16s events: %10d  (%4.1f%%)\n", name, (int)s->stats.nr_events[i],
				(double)s->stats.nr_events[i] / (double)total * 100.0);
		else
			fprintf(fp, "%16s events: %10d\n", name, (int)s->stats.nr_events[i]);
	}
	evlist__for_each_entry(s->evlist, evsel) {
		uint64_t n = perf_session__evsel_nr_samples(s, evsel);

		if (!n)		/* perf skips empty events (skip_empty) */
			continue;
		fprintf(fp, "%s stats:\n", evsel__name(evsel));
		fprintf(fp, "%16s events: %10d\n", "SAMPLE", (int)n);
	}
}
