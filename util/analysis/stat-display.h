/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_STAT_DISPLAY_H
#define PRF_ANALYSIS_STAT_DISPLAY_H
/*
 * Printers for `prf stat`: perf 6.1's human layout (value, unit, event,
 * "# metric" column, "(NN.NN%)" multiplexing, "( +- X.XX% )" noise), CSV
 * (-x SEP: value,unit,event[,variance],run-time,percent,metric-value,
 * metric-unit) and JSON (-j: one object per row with perf's keys) through
 * util/lib/out.h. One row walk, a mode switch per field.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include "stat.h"
#include "stat-metric.h"
#include "../lib/out.h"

struct evlist;
struct perf_cpu_map;
struct perf_thread_map;

struct stat_display {
	FILE *fp;			/* not owned */
	enum out_mode mode;
	const char *sep;		/* CSV separator (-x) */
	enum aggr_mode aggr_mode;
	int run_count;			/* -r N (1 by default) */
	const char *target;		/* header text after "for ": "'true'",
					   "process id '12'", "'system wide'" */
	struct perf_cpu_map *cpus;	/* row labels for AGGR_NONE */
	struct perf_thread_map *threads;/* row labels for AGGR_THREAD */
	const struct aggr_map *aggr_map;/* rows of AGGR_CORE..AGGR_NODE; not owned */
	bool hide_zero_threads;		/* AGGR_THREAD: leave out rows counting 0
					   (system-wide --per-thread, as perf) */
	struct stats walltime;		/* elapsed ns per run */
	bool print_rusage;		/* forked workload, one run */
	struct timeval ru_utime, ru_stime;
	/* interval mode (-I) */
	bool interval;
	uint64_t interval_ts;		/* ns since start, printed first */
	uint64_t interval_len;		/* ns covered by this interval */
	int interval_lines;		/* printed intervals, for the header */
	bool interval_no_wall;		/* intervals know no wall-clock time (stat
					   report of an -I recording, as perf): no
					   "CPUs utilized" for clocks */
	bool interval_clear;		/* --interval-clear: clear the screen
					   (stdout) and print the header each time */
	bool big_num;			/* thousands separators (locale's) */
	bool csv_summary;		/* CSV rows start with a "summary" field
					   (--summary without --no-csv-summary) */
	bool after_intervals;		/* the -I --summary block */
	bool metric_only;		/* --metric-only: one line of metrics */
	bool cgroups;			/* some event counts in a cgroup (-G,
					   --for-each-cgroup): every row has a
					   cgroup column after the event, as perf */
	const double *walltime_run;	/* --table: elapsed ns of each run,
					   run_count of them; not owned */
	const struct stat_metrics *metrics;	/* -M: a row's metric when it has
					   no other; not owned */
};

/* Print the final block: header, one row per evsel (and per cpu/thread),
 * the elapsed/user/sys footer (human mode only). */
void stat_display__print(struct stat_display *d, struct evlist *evlist);
/*
 * --metric-only: the line of metric names (header) or of their values,
 * one cell per evsel, as perf 6.1: a metric per second of a clock or
 * "CPUs utilized" is no cell, an evsel without a value an empty one.
 */
void stat_display__print_metric_only(struct stat_display *d, struct evlist *evlist, bool header);
/* Print the rows of one interval (-I), prefixed by the timestamp. */
void stat_display__print_interval(struct stat_display *d, struct evlist *evlist);

/*
 * The "#" column for one row: fills *val and unit (e.g. 0.912, "CPUs
 * utilized"; 617.6, "/sec"; 23.4, "K/sec"; 1.23, "insn per cycle") from
 * the rows of the same cpu/thread. Returns false when the event has no
 * metric. Exposed for the tests.
 */
bool stat_display__metric(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
			  int aggr_idx, double *val, const char **unit, const char **fmt);

#endif
