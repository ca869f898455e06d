/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_STAT_REPORT_H
#define PRF_ANALYSIS_STAT_REPORT_H
/*
 * `prf stat report`: the counts of a `stat record` file (prf's or perf
 * 6.1's; util/format/stat-event.h) fed back into the stat aggregation
 * (stat.h) and printed by stat-display.h, as perf stat report does: the
 * THREAD_MAP and CPU_MAP records give the slots, STAT_CONFIG the recorded
 * aggregation mode and interval, each STAT record one slot's raw reading,
 * each STAT_ROUND prints: an interval's rows (-I recordings) or, FINAL,
 * the whole block with its time as the elapsed time. Events without any
 * STAT record were not supported when recorded: "<not supported>".
 */
#include "stat.h"
#include "stat-display.h"
#include "../format/stat-event.h"
#include "../session/session.h"

struct stat_report {
	struct perf_tool tool;		/* first: the session's callbacks */
	struct stat_display *d;		/* not owned; fp, mode, target set by the caller */
	int aggr_override;		/* enum aggr_mode from -A/--per-*, -1: as recorded */
	enum aggr_mode aggr;
	struct stat_event_config cfg;
	struct perf_cpu_map *cpus;	/* owned */
	struct perf_thread_map *threads;/* owned */
	struct aggr_map *aggr_map;	/* owned */
	struct evlist *evlist;		/* the session's, once set up */
	bool ready;			/* counts allocated */
	int nr_rounds;
	int err;			/* first setup error (-errno) */
};

/* Set the callbacks; d is where the rows go. */
void stat_report__init(struct stat_report *sr, struct stat_display *d, int aggr_override);
/* Free the maps and the counts of the session's evlist. */
void stat_report__exit(struct stat_report *sr);

/* perf's aggregation mode number (STAT_CONFIG) to ours and back; -1 for
 * one prf has no rows for (AGGR_UNSET). */
int stat_report__aggr_from_perf(int perf_mode);
int stat_report__aggr_to_perf(enum aggr_mode mode);

#endif
