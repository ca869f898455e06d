/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_STAT_H
#define PRF_ANALYSIS_STAT_H
/*
 * Counting aggregation for `prf stat`: read the counters of an evlist,
 * scale multiplexed counts by time_enabled/time_running (perf_event_open(2)
 * "read_format"), sum them per output row (whole system, per cpu or per
 * thread) and keep running mean/stddev over the -r repeats.
 */
#include <stdbool.h>
#include <stdint.h>
#include "../kernel/cpu-topology.h"
#include "../kernel/evsel.h"

struct evlist;
struct perf_cpu_map;

/* Running mean and variance (Welford). */
struct stats {
	double n, mean, M2;
};

void init_stats(struct stats *s);
void update_stats(struct stats *s, double v);
double avg_stats(const struct stats *s);
/* Standard error of the mean: sqrt(variance / n), 0 for n < 2. */
double stddev_stats(const struct stats *s);
/* 100 * stddev / avg, 0 when avg is 0. */
double rel_stddev_stats(double stddev, double avg);

enum aggr_mode {
	AGGR_GLOBAL,	/* one row per event: everything summed */
	AGGR_NONE,	/* -A/--no-aggr: one row per cpu */
	AGGR_THREAD,	/* --per-thread: one row per thread */
	AGGR_CORE,	/* --per-core: one row per (socket, die, core) */
	AGGR_SOCKET,	/* --per-socket */
	AGGR_DIE,	/* --per-die: one row per (socket, die) */
	AGGR_NODE,	/* --per-node: one row per NUMA node */
};

/*
 * The rows of --per-core/--per-socket/--per-die/--per-node: which row
 * each cpu of the counted cpu map adds to, and each row's topology id
 * (only the fields of the mode are set, the others -1), rows sorted by
 * socket, die, core or by node.
 */
struct aggr_map {
	int nr;				/* rows */
	int *cpu_aggr;			/* [cpu map index] -> row */
	struct cpu_topology_id *ids;	/* [row] */
	int *nr_cpus;			/* [row]: cpus of the map in it */
};

/*
 * Build the rows of mode (AGGR_CORE..AGGR_NODE) for cpus from the sysfs
 * topology under sysfs_root (NULL: /sys). NULL with errno set on ENOMEM
 * or when a cpu's topology cannot be read. Free with aggr_map__delete().
 */
struct aggr_map *aggr_map__new(struct perf_cpu_map *cpus, enum aggr_mode mode,
			       const char *sysfs_root);
void aggr_map__delete(struct aggr_map *map);

/* One output row of one evsel. */
struct stat_aggr {
	double val;		/* scaled count of the last run/interval */
	uint64_t ena, run;	/* summed time_enabled/time_running, ns */
	bool counted;		/* run > 0 */
	struct stats res;	/* val over the -r runs */
	struct stats ena_s, run_s;
};

/* evsel->priv while stat runs. */
struct evsel_stat {
	struct perf_counts_values *cur;		/* last read, absolute, per fd */
	struct perf_counts_values *prev;	/* previous read (interval deltas) */
	int nr_cpus, nr_threads;
	int nr_aggr;
	struct stat_aggr *aggr;
	int open_err;		/* -errno of the last open, 0 when open */
	const struct aggr_map *aggr_map;	/* AGGR_CORE..NODE rows; not owned */
	struct evsel *merged_into;	/* its counts are added to this earlier
					   evsel's rows (evlist__stat_merge()) and
					   it has no rows of its own; NULL: none */
};

static inline struct evsel_stat *evsel__stat(const struct evsel *evsel)
{
	return evsel->priv;
}

/* The evsel_stat of an evsel that has output rows: NULL when it has none
 * or its counts are merged into another's. */
static inline struct evsel_stat *evsel__row_stat(const struct evsel *evsel)
{
	struct evsel_stat *st = evsel->priv;

	return st && !st->merged_into ? st : NULL;
}

/*
 * perf's merged aliases: the evsels one event made on several PMUs
 * (evsel->merge_group, in the same cgroup) print as one row, the first's,
 * with their counts added (evlist__stat_process()). Call after
 * evlist__stat_alloc(); --no-merge does not call it.
 */
void evlist__stat_merge(struct evlist *evlist);

/* Number of rows for the mode: 1, nr_cpus or nr_threads. */
int stat__nr_aggr(enum aggr_mode mode, int nr_cpus, int nr_threads);
/* Allocate evsel->priv for nr_cpus x nr_threads fds. 0 or -ENOMEM. */
int evsel__stat_alloc(struct evsel *evsel, int nr_cpus, int nr_threads, enum aggr_mode mode);
void evsel__stat_free(struct evsel *evsel);
int evlist__stat_alloc(struct evlist *evlist, int nr_cpus, int nr_threads, enum aggr_mode mode);
void evlist__stat_free(struct evlist *evlist);
/* Use map's rows (AGGR_CORE..AGGR_NODE) for every evsel; map must
 * outlive the evsel_stats and have at most nr_cpus rows. */
void evlist__stat_set_aggr_map(struct evlist *evlist, const struct aggr_map *map);
/* Zero prev (start of a run), keeping the per-run statistics. */
void evlist__stat_reset_prev(struct evlist *evlist);

/*
 * Scale one reading: val * ena / run when run < ena; 0 when run == 0.
 * Returns true when the value was scaled (multiplexed).
 */
bool perf_counts_values__scale(struct perf_counts_values *c);

/*
 * Read every open evsel into its evsel_stat->cur (group leaders with
 * PERF_FORMAT_GROUP read their members in one read(2)). Evsels that are
 * not open are left at zero. Returns 0 or the first -errno.
 */
int evlist__stat_read(struct evlist *evlist);

/*
 * Set the readings of the tool events (event-names.h) that are not group
 * members: duration_time = elapsed_ns, user_time/system_time = the
 * workload's rusage times (ns; 0 when unknown, printed "<not counted>"),
 * in the first fd's slot with time_enabled = time_running = the value, as
 * perf reports them. Call after evlist__stat_read().
 */
void evlist__stat_set_tool(struct evlist *evlist, uint64_t elapsed_ns, uint64_t utime_ns,
			   uint64_t stime_ns);

/*
 * Fill every row's val/ena/run from cur (minus prev when delta; prev is
 * then set to cur), scaling each fd's reading (multiplexing, then the
 * evsel's alias scale), adding merged evsels' rows to theirs
 * (evlist__stat_merge()), and when add_run add the value to the per-run
 * statistics.
 */
void evlist__stat_process(struct evlist *evlist, enum aggr_mode mode, bool delta, bool add_run);

#endif
