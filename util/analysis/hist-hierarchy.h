/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_HIST_HIERARCHY_H
#define PRF_ANALYSIS_HIST_HIERARCHY_H
/*
 * perf report --hierarchy: the sorted hist entries of a hists grouped by
 * their key columns, one level per key column in column order (the first
 * key the outermost level). A node of level L stands for the entries that
 * agree on the keys of levels 0..L; its values (period, samples, kernel
 * and user period) are their sums. Within a parent, nodes are ordered as
 * perf 6.1 orders them: by overhead, then by the level's key as the flat
 * output orders it. The last level's nodes are the flat entries
 * themselves (with their callchains).
 */
#include <stdbool.h>
#include <stddef.h>

struct hists;
struct hist_entry;
struct sort_order;

struct hier_row {
	const struct hist_entry *he;	/* a node's values and keys (the keys
					   of levels 0..depth are its own) */
	int depth;			/* 0: the outermost level */
	bool leaf;			/* a flat entry of the last level */
	bool hidden;			/* every entry under it was filtered */
};

struct hier_rows {
	struct hier_row *rows;		/* in print order, parents first */
	size_t nr;
	int nr_levels;			/* key columns shown */
	int levels[16];			/* the key type of each level */
	struct hist_entry *nodes;	/* storage of the inner nodes */
};

/*
 * Group hists->sorted (after hists__output_resort()) by so's shown key
 * columns into *out. 0 or -ENOMEM; free with hier_rows__exit().
 */
int hier_rows__build(struct hier_rows *out, const struct hists *hists,
		     const struct sort_order *so);
void hier_rows__exit(struct hier_rows *rows);

#endif
