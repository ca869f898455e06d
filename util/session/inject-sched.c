// SPDX-License-Identifier: GPL-2.0
/* inject -s: sched_switch callchains weighted by sched_stat; see inject-sched.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "inject-sched.h"
#include "trace-format.h"
#include "../format/data.h"
#include "../format/ordered-events.h"
#include "../format/sample-parse.h"
#include "../kernel/evsel.h"

/* A task's last sched_switch sample. */
struct sched_kept {
	uint32_t tid;
	union perf_event *ev;	/* malloc'd copy */
};

struct inject_sched {
	struct perf_data *d;
	inject_emit_fn emit;
	void *ctx;
	struct ordered_events oe;
	struct trace_formatter *tf;
	struct sched_kept *kept;
	size_t nr_kept, alloc_kept;
};

enum sched_role { SCHED_OTHER, SCHED_SWITCH, SCHED_EXIT, SCHED_STAT };

static enum sched_role sched__role(struct evsel *evsel)
{
	const char *name = evsel ? evsel__name(evsel) : NULL;

	if (!name || evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return SCHED_OTHER;
	if (!strcmp(name, "sched:sched_switch"))
		return SCHED_SWITCH;
	if (!strcmp(name, "sched:sched_process_exit"))
		return SCHED_EXIT;
	if (!strncmp(name, "sched:sched_stat_", 17))
		return SCHED_STAT;
	return SCHED_OTHER;
}

static struct sched_kept *sched__find(struct inject_sched *s, uint32_t tid)
{
	for (size_t i = 0; i < s->nr_kept; i++)
		if (s->kept[i].tid == tid)
			return &s->kept[i];
	return NULL;
}

static void sched__forget(struct inject_sched *s, uint32_t tid)
{
	struct sched_kept *k = sched__find(s, tid);

	if (k) {
		free(k->ev);
		*k = s->kept[--s->nr_kept];
	}
}

static int sched__keep(struct inject_sched *s, uint32_t tid, const union perf_event *ev)
{
	union perf_event *copy = malloc(ev->header.size);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, ev, ev->header.size);
	sched__forget(s, tid);
	if (s->nr_kept == s->alloc_kept) {
		size_t n = s->alloc_kept ? s->alloc_kept * 2 : 64;
		struct sched_kept *v = realloc(s->kept, n * sizeof(*v));

		if (!v) {
			free(copy);
			return -ENOMEM;
		}
		s->kept = v;
		s->alloc_kept = n;
	}
	s->kept[s->nr_kept++] = (struct sched_kept){ tid, copy };
	return 0;
}

/* Index (in u64 words of a sample's array) of the TIME and PERIOD fields
 * of sample_type, -1 when absent (perf_event_open(2) field order). */
static void sample_slots(uint64_t t, int *time_at, int *period_at)
{
	int i = !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID);

	*time_at = (t & PERF_SAMPLE_TIME) ? i : -1;
	i += !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
	     !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU);
	*period_at = (t & PERF_SAMPLE_PERIOD) ? i : -1;
}

/* A sched_stat sample: the kept switch sample of its task, with the
 * stat's time and period. */
static int sched__stat(struct inject_sched *s, struct evsel *evsel, union perf_event *ev,
		       const struct perf_sample *sample)
{
	struct sched_kept *k;
	union perf_event *out;
	uint64_t pid;
	int time_at, period_at, err;
	size_t words;

	if (!s->tf || trace_formatter__field_u64(s->tf, evsel, sample, "pid", &pid))
		return 0;
	k = sched__find(s, (uint32_t)pid);
	if (!k)
		return 0;
	out = malloc(k->ev->header.size);
	if (!out)
		return -ENOMEM;
	memcpy(out, k->ev, k->ev->header.size);
	/* the layout of the stat's event, as perf rewrites it */
	sample_slots(evsel->attr.sample_type, &time_at, &period_at);
	words = (out->header.size - sizeof(out->header)) / 8;
	if (time_at >= 0 && (size_t)time_at < words)
		memcpy(&out->sample.array[time_at], &sample->time, 8);
	if (period_at >= 0 && (size_t)period_at < words)
		memcpy(&out->sample.array[period_at], &sample->period, 8);
	err = s->emit(s->ctx, out, out->header.size);
	free(out);
	(void)ev;
	return err;
}

static int sched__deliver(void *ctx, struct oe_node *node)
{
	struct inject_sched *s = ctx;
	union perf_event *ev = node->event;
	struct evsel *evsel;
	struct perf_sample sample;
	int err = 0;

	if (ev->header.type != PERF_RECORD_SAMPLE)
		goto out_emit;
	evsel = perf_data__event_evsel(s->d, ev);
	switch (sched__role(evsel)) {
	case SCHED_SWITCH:
		if (!evsel__parse_sample(evsel, ev, &sample))
			err = sched__keep(s, sample.tid, ev);
		goto out;
	case SCHED_EXIT:
		if (!evsel__parse_sample(evsel, ev, &sample))
			sched__forget(s, sample.tid);
		goto out;
	case SCHED_STAT:
		if (!evsel__parse_sample(evsel, ev, &sample))
			err = sched__stat(s, evsel, ev, &sample);
		goto out;
	default:
		break;
	}
out_emit:
	err = s->emit(s->ctx, ev, ev->header.size);
out:
	free(node->owner);
	return err;
}

struct inject_sched *inject_sched__new(struct perf_data *d, inject_emit_fn emit, void *ctx)
{
	struct inject_sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->d = d;
	s->emit = emit;
	s->ctx = ctx;
	ordered_events__init(&s->oe, sched__deliver, s);
	return s;
}

void inject_sched__delete(struct inject_sched *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->oe.nr; i++)
		free(s->oe.nodes[i].owner);
	ordered_events__exit(&s->oe);
	for (size_t i = 0; i < s->nr_kept; i++)
		free(s->kept[i].ev);
	free(s->kept);
	trace_formatter__delete(s->tf);
	free(s);
}

int inject_sched__record(struct inject_sched *s, union perf_event *ev)
{
	uint64_t t = perf_data__event_time(s->d, ev);
	union perf_event *copy;
	int err;

	if (!s->tf) {
		/* the tracing data is known before the first sample (the
		 * file's feature, or the pipe's record before the data) */
		s->tf = trace_formatter__new(s->d->env.tracing_data,
					     (size_t)s->d->env.tracing_data_size, &err);
		if (!s->tf)	/* damaged tracing data: the local formats */
			s->tf = trace_formatter__new(NULL, 0, &err);
		if (!s->tf)
			return -ENOMEM;
	}
	if (t == ~0ULL)
		return s->emit(s->ctx, ev, ev->header.size);
	copy = malloc(ev->header.size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ev, ev->header.size);
	err = ordered_events__queue(&s->oe, t, copy, copy, 0);
	if (err == -ENOMEM)
		free(copy);	/* not queued */
	return err;
}

int inject_sched__round(struct inject_sched *s)
{
	return ordered_events__flush_round(&s->oe);
}

int inject_sched__finish(struct inject_sched *s)
{
	return ordered_events__flush_all(&s->oe);
}
