/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_FLAMEGRAPH_STAT_H
#define PRF_ANALYSIS_FLAMEGRAPH_STAT_H
/*
 * Significance per frame of a differential flame graph over two groups of
 * repeated runs (`prf flamegraph --diff A1,A2,... B1,B2,...`). Every run is
 * folded into the same trie (folded.h; A into value set 1, B into set 0)
 * while this collector, as the folded_file_opts.observe callback, keeps
 * each run's weight per leaf node. flamegraph_stat__compute() sums them up
 * the trie into each frame path's inclusive weight per run and tests
 * every frame as `prf diff --stat` tests an entry (diff-stat.h): Welch's
 * t over the per-run shares (percent of the run's total; or with
 * by_period the per-run weights themselves), Holm's correction over all
 * frames tested, frames whose mean share is under the floor in both groups
 * not tested.
 */
#include <stdbool.h>
#include <stdint.h>
#include "diff-stat.h"

struct folded;
struct folded_node;
struct perf_sample;
struct flamegraph_stat;

struct flamegraph_stat_opts {
	double alpha;		/* family-wise error rate, e.g. 0.05 */
	double floor;		/* percent: frames below in both groups are
				   not tested */
	bool by_period;		/* test the per-run weight, not the share */
};

/* New collector for nr_a runs A followed by nr_b runs B (each >= 1);
 * NULL on ENOMEM. */
struct flamegraph_stat *flamegraph_stat__new(int nr_a, int nr_b);
/* Free it; NULL is ignored. */
void flamegraph_stat__delete(struct flamegraph_stat *s);
/* The run (0 .. nr_a + nr_b - 1, A first) the next samples belong to. */
void flamegraph_stat__set_run(struct flamegraph_stat *s, int run);
/* folded_file_opts.observe (arg: the flamegraph_stat): adds weight to
 * the current run's weight of leaf. 0 or -ENOMEM. */
int flamegraph_stat__observe(void *arg, const struct perf_sample *sample, const char *comm,
			     bool off_cpu, const struct folded_node *leaf, uint64_t weight);
/*
 * Inclusive weights of every node of f (whose samples were all observed)
 * per run, and the test of every node. 0 or -ENOMEM.
 */
int flamegraph_stat__compute(struct flamegraph_stat *s, struct folded *f,
			     const struct flamegraph_stat_opts *opts);
/* The statistics of node n after compute (mean_a, mean_b, delta in share
 * points or weight units, p, p_adj, tested, changed); NULL for a node not
 * in the trie computed. Owned by s. */
const struct diff_stat_entry *flamegraph_stat__find(const struct flamegraph_stat *s,
						    const struct folded_node *n);
/* The options compute ran with, and the number of runs per group. */
const struct flamegraph_stat_opts *flamegraph_stat__opts(const struct flamegraph_stat *s);
void flamegraph_stat__runs(const struct flamegraph_stat *s, int *nr_a, int *nr_b);

#endif
