/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_HIST_GROUP_H
#define PRF_ANALYSIS_HIST_GROUP_H
/*
 * perf report --group: the hists of an event group's members shown as one
 * table, each value column holding one value per member (leader first).
 * As perf 6.1 does (hists__match/hists__link): a member's entry pairs
 * with the leader's entry of the same keys; a member's entry without one
 * gets a leader row of zero values (and no callchain). Rows are ordered by
 * each sort field compared leader first, then member by member (values
 * descending), keys as in the flat output, the leader's order kept for
 * ties.
 */
#include <stddef.h>
#include <stdint.h>

struct hists;
struct hist_entry;
struct sort_order;

#define HIST_GROUP_MAX 16

struct hist_group {
	int nr;				/* members, leader included */
	struct hists *hists[HIST_GROUP_MAX];
	size_t nr_rows;
	struct hist_entry **rows;	/* leader entries and zero rows, in output order */
	const struct hist_entry **pairs;	/* nr_rows * nr: row r's entry of member m
						   (m 0: the row itself), NULL none */
	struct hist_entry *zero;	/* storage of the zero rows */
};

/*
 * Build g from hists[0..nr) (leader first), each after
 * hists__output_resort() with so. 0, -EINVAL (nr out of range) or
 * -ENOMEM; free with hist_group__exit().
 */
int hist_group__build(struct hist_group *g, struct hists **hists, int nr,
		      const struct sort_order *so);
void hist_group__exit(struct hist_group *g);

#endif
