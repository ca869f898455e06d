// SPDX-License-Identifier: GPL-2.0
/* stat report: STAT records into the stat aggregation; see stat-report.h. */
#include <errno.h>
#include <string.h>
#include "stat-report.h"
#include "../kernel/cpumap.h"
#include "../kernel/event-names.h"
#include "../kernel/evlist.h"
#include "../kernel/thread_map.h"
#include "../lib/debug.h"

static const struct { int perf; enum aggr_mode ours; } aggr_modes[] = {
	{ PERF_AGGR_NONE, AGGR_NONE }, { PERF_AGGR_GLOBAL, AGGR_GLOBAL },
	{ PERF_AGGR_SOCKET, AGGR_SOCKET }, { PERF_AGGR_DIE, AGGR_DIE },
	{ PERF_AGGR_CORE, AGGR_CORE }, { PERF_AGGR_THREAD, AGGR_THREAD },
	{ PERF_AGGR_NODE, AGGR_NODE },
};

int stat_report__aggr_from_perf(int perf_mode)
{
	for (size_t i = 0; i < sizeof(aggr_modes) / sizeof(aggr_modes[0]); i++)
		if (aggr_modes[i].perf == perf_mode)
			return aggr_modes[i].ours;
	return -1;
}

int stat_report__aggr_to_perf(enum aggr_mode mode)
{
	for (size_t i = 0; i < sizeof(aggr_modes) / sizeof(aggr_modes[0]); i++)
		if (aggr_modes[i].ours == mode)
			return aggr_modes[i].perf;
	return PERF_AGGR_GLOBAL;
}

static struct stat_report *to_sr(struct perf_session *s)
{
	return (struct stat_report *)s->tool;
}

/*
 * At the first STAT (or STAT_ROUND) record: the rows of the mode over the
 * recorded slots (a file without maps: one slot), every event marked
 * unsupported until a reading of it comes, tool events known by name.
 */
static int stat_report__setup(struct stat_report *sr, struct perf_session *s)
{
	struct evsel *evsel;
	int mode;

	sr->ready = true;
	sr->evlist = s->data.evlist;
	if (!sr->cpus)
		sr->cpus = perf_cpu_map__dummy_new();
	if (!sr->threads)
		sr->threads = perf_thread_map__new_dummy();
	if (!sr->cpus || !sr->threads)
		return sr->err = -ENOMEM;
	mode = sr->aggr_override >= 0 ? sr->aggr_override : stat_report__aggr_from_perf(sr->cfg.aggr_mode);
	sr->aggr = mode < 0 ? AGGR_GLOBAL : (enum aggr_mode)mode;
	/* rows per cpu or per thread need slots of that kind */
	if (sr->aggr == AGGR_THREAD && perf_thread_map__pid(sr->threads, 0) == -1)
		sr->aggr = AGGR_GLOBAL;
	if (sr->aggr != AGGR_GLOBAL && sr->aggr != AGGR_THREAD && perf_cpu_map__cpu(sr->cpus, 0) < 0)
		sr->aggr = AGGR_GLOBAL;
	if (evlist__stat_alloc(sr->evlist, perf_cpu_map__nr(sr->cpus),
			       perf_thread_map__nr(sr->threads), sr->aggr))
		return sr->err = -ENOMEM;
	if (sr->aggr >= AGGR_CORE) {
		sr->aggr_map = aggr_map__new(sr->cpus, sr->aggr, NULL);
		if (!sr->aggr_map) {
			pr_err("cannot read the cpu topology from /sys/devices/system/cpu: %s\n",
			       strerror(errno));
			return sr->err = -errno;
		}
		evlist__stat_set_aggr_map(sr->evlist, sr->aggr_map);
	}
	evlist__for_each_entry(sr->evlist, evsel) {
		evsel->unsupported = true;
		if (evsel->attr.type == PERF_TYPE_SOFTWARE &&
		    evsel->attr.config == PERF_COUNT_SW_DUMMY)
			evsel->tool_event = tool_event__find(evsel__name(evsel));
	}
	sr->d->aggr_mode = sr->aggr;
	sr->d->cpus = sr->cpus;
	sr->d->threads = sr->threads;
	sr->d->aggr_map = sr->aggr_map;
	sr->d->interval = sr->cfg.interval > 0;
	sr->d->interval_no_wall = true;
	sr->d->hide_zero_threads = perf_cpu_map__cpu(sr->cpus, 0) >= 0;
	return 0;
}

static int sr_thread_map(struct perf_session *s, union perf_event *ev)
{
	struct stat_report *sr = to_sr(s);
	struct perf_thread_map *m;
	int err;

	if (sr->ready)
		return 0;	/* the slots are fixed once counts came */
	err = stat_event__parse_thread_map(ev, &m);
	if (err == -ENOMEM)
		return err;
	if (err) {
		pr_warning("Warning: bad THREAD_MAP record ignored\n");
		return 0;
	}
	perf_thread_map__put(sr->threads);
	sr->threads = m;
	return 0;
}

static int sr_cpu_map(struct perf_session *s, union perf_event *ev)
{
	struct stat_report *sr = to_sr(s);
	struct perf_cpu_map *m;
	int err;

	if (sr->ready)
		return 0;
	err = stat_event__parse_cpu_map(ev, &m);
	if (err == -ENOMEM)
		return err;
	if (err) {
		pr_warning("Warning: bad CPU_MAP record ignored\n");
		return 0;
	}
	perf_cpu_map__put(sr->cpus);
	sr->cpus = m;
	return 0;
}

static int sr_stat_config(struct perf_session *s, union perf_event *ev)
{
	struct stat_report *sr = to_sr(s);

	if (!sr->ready && stat_event__parse_config(ev, &sr->cfg))
		pr_warning("Warning: bad STAT_CONFIG record ignored\n");
	return 0;
}

static int sr_stat(struct perf_session *s, union perf_event *ev)
{
	struct stat_report *sr = to_sr(s);
	const struct perf_record_stat *st = stat_event__parse_stat(ev);
	struct evsel_stat *es;
	struct evsel *evsel;
	int cpu_idx;

	if (!sr->ready && stat_report__setup(sr, s))
		return sr->err;
	if (!st) {
		pr_warning("Warning: STAT record too short, ignored\n");
		return 0;
	}
	evsel = evlist__id2evsel(sr->evlist, st->id);
	if (!evsel || !(es = evsel__stat(evsel))) {
		pr_err("Failed to resolve counter for stat event (id %llu).\n",
		       (unsigned long long)st->id);
		return -EINVAL;
	}
	cpu_idx = perf_cpu_map__idx(sr->cpus, (int)st->cpu);
	if (cpu_idx < 0 || st->thread >= (uint32_t)es->nr_threads) {
		pr_err("Invalid CPU %d or thread %u for event %s.\n", (int)st->cpu, st->thread,
		       evsel__name(evsel));
		return -EINVAL;
	}
	es->cur[cpu_idx * es->nr_threads + (int)st->thread] =
		(struct perf_counts_values){ .val = st->val, .ena = st->ena, .run = st->run };
	evsel->unsupported = false;
	return 0;
}

static int sr_stat_round(struct perf_session *s, union perf_event *ev)
{
	struct stat_report *sr = to_sr(s);
	const struct perf_record_stat_round *r = stat_event__parse_round(ev);
	struct stat_display *d = sr->d;

	if (!sr->ready && stat_report__setup(sr, s))
		return sr->err;
	if (!r) {
		pr_warning("Warning: STAT_ROUND record too short, ignored\n");
		return 0;
	}
	sr->nr_rounds++;
	if (r->type == STAT_ROUND_FINAL)
		update_stats(&d->walltime, (double)r->time);
	if (sr->cfg.interval && r->time) {
		evlist__stat_process(sr->evlist, sr->aggr, true, false);
		d->interval_len = r->time - d->interval_ts;
		d->interval_ts = r->time;
		stat_display__print_interval(d, sr->evlist);
	} else {
		evlist__stat_process(sr->evlist, sr->aggr, false, true);
		stat_display__print(d, sr->evlist);
	}
	return 0;
}

void stat_report__init(struct stat_report *sr, struct stat_display *d, int aggr_override)
{
	memset(sr, 0, sizeof(*sr));
	perf_tool__init(&sr->tool, false);
	sr->tool.thread_map = sr_thread_map;
	sr->tool.cpu_map = sr_cpu_map;
	sr->tool.stat_config = sr_stat_config;
	sr->tool.stat = sr_stat;
	sr->tool.stat_round = sr_stat_round;
	sr->d = d;
	sr->aggr_override = aggr_override;
	sr->cfg.aggr_mode = PERF_AGGR_GLOBAL;
	sr->cfg.scale = true;
}

void stat_report__exit(struct stat_report *sr)
{
	if (sr->evlist)
		evlist__stat_free(sr->evlist);
	perf_cpu_map__put(sr->cpus);
	perf_thread_map__put(sr->threads);
	aggr_map__delete(sr->aggr_map);
}
