// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --hierarchy: hist entries grouped by key columns (see
 * hist-hierarchy.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist-hierarchy.h"
#include "hist.h"
#include "sort.h"

struct hier_build {
	const struct hists *hists;
	struct hier_rows *out;
	struct sort_order lso[16];	/* per level: that key alone */
	struct sort_order dso_so;	/* DSO names alone */
	struct sort_order keys_so;	/* output order of all keys */
	size_t nr_nodes;
};

/*
 * Whether two entries share a node of level: the level's key compared
 * as perf's hierarchy compares it (a DSO by its name: two DSOs of one
 * name are one node).
 */
static int hier_key_cmp(const struct hier_build *b, int level, const struct hist_entry *x,
			const struct hist_entry *y)
{
	if (b->out->levels[level] == SORT_DSO)
		return hist_entry__cmp_output(&b->dso_so, x, y);
	return hist_entry__cmp_keys(&b->lso[level], x, y);
}

struct hier_cmp {
	const struct hier_build *b;
	int level;
};

/* by the level's key, then by flat position (groups keep flat order) */
static int idx_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hier_cmp *c = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = hier_key_cmp(c->b, c->level, c->b->hists->sorted[a], c->b->hists->sorted[b]);

	if (r)
		return r;
	return a < b ? -1 : a > b;
}

struct hier_group {
	const struct hist_entry *he;
	size_t first, len;		/* in the index array */
	size_t pos;			/* flat position of its first entry */
	bool hidden;
};

/* output order: overhead, then the level's key, then flat position */
static int group_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hier_cmp *c = arg;
	const struct hier_group *a = pa, *b = pb;
	int r = hist_entry__cmp_output(&c->b->lso[c->level], a->he, b->he);

	/* perf sorts a level's nodes by all sort keys (of the entry each
	 * node was made from), equal ones in its collapsed order, which the
	 * flat order follows */
	if (!r)
		r = hist_entry__cmp_output(&c->b->keys_so, a->he, b->he);
	if (r)
		return r;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int hier_build(struct hier_build *b, size_t *idx, size_t n, int level)
{
	struct hier_cmp c = { .b = b, .level = level };
	struct hier_group *g;
	size_t nr_g = 0;
	bool last = level + 1 == b->out->nr_levels;
	int err = 0;

	qsort_r(idx, n, sizeof(*idx), idx_cmp, &c);
	g = malloc(n * sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < n; ) {
		size_t j = i + 1;
		const struct hist_entry *first = b->hists->sorted[idx[i]];
		bool hidden = first->filtered;

		while (j < n && !hier_key_cmp(b, level, first, b->hists->sorted[idx[j]]))
			hidden &= b->hists->sorted[idx[j++]]->filtered;
		if (last && j - i == 1) {
			g[nr_g].he = first;
		} else {
			struct hist_entry *node = &b->out->nodes[b->nr_nodes++];

			*node = *first;
			node->period = node->period_acc = node->nr_samples = 0;
			node->period_sys = node->period_us = 0;
			for (size_t k = i; k < j; k++) {
				const struct hist_entry *e = b->hists->sorted[idx[k]];

				node->period += e->period;
				node->period_acc += e->period_acc;
				node->nr_samples += e->nr_samples;
				node->period_sys += e->period_sys;
				node->period_us += e->period_us;
			}
			g[nr_g].he = node;
		}
		g[nr_g].first = i;
		g[nr_g].pos = idx[i];
		g[nr_g].len = j - i;
		g[nr_g].hidden = hidden;
		nr_g++;
		i = j;
	}
	qsort_r(g, nr_g, sizeof(*g), group_cmp, &c);
	for (size_t k = 0; k < nr_g && !err; k++) {
		struct hier_row *row = &b->out->rows[b->out->nr++];

		row->he = g[k].he;
		row->depth = level;
		row->leaf = last;
		row->hidden = g[k].hidden;
		if (!last)
			err = hier_build(b, idx + g[k].first, g[k].len, level + 1);
	}
	free(g);
	return err;
}

int hier_rows__build(struct hier_rows *out, const struct hists *hists,
		     const struct sort_order *so)
{
	struct hier_build *b;
	size_t n = hists->nr_sorted, *idx;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	for (int c = 0; c < so->nr_cols; c++) {
		if (so->cols[c].type >= HPP_OVERHEAD || so->cols[c].elide ||
		    out->nr_levels == (int)(sizeof(out->levels) / sizeof(out->levels[0])))
			continue;
		out->levels[out->nr_levels++] = so->cols[c].type;
	}
	if (!out->nr_levels || !n)
		return 0;
	b = calloc(1, sizeof(*b));
	idx = malloc(n * sizeof(*idx));
	out->rows = malloc(n * (size_t)out->nr_levels * sizeof(*out->rows));
	out->nodes = malloc(n * (size_t)out->nr_levels * sizeof(*out->nodes));
	if (b && idx && out->rows && out->nodes) {
		b->hists = hists;
		b->out = out;
		for (int l = 0; l < out->nr_levels; l++) {
			struct sort_order *lso = &b->lso[l];

			/* the level's key alone: grouping and tie order (the
			 * copy shares so's regex and cgroup names, not freed) */
			*lso = *so;
			lso->keys[0] = out->levels[l];
			lso->nr_keys = 1;
			lso->sort[0] = HPP_OVERHEAD;
			lso->sort[1] = out->levels[l];
			lso->nr_sort = 2;
			lso->elided_keys = 0;
		}
		b->keys_so = *so;
		b->keys_so.elided_keys = 0;
		b->keys_so.nr_sort = 0;
		for (int k = 0; k < so->nr_keys; k++)
			b->keys_so.sort[b->keys_so.nr_sort++] = so->keys[k];
		b->dso_so = b->lso[0];
		b->dso_so.sort[0] = SORT_DSO;
		b->dso_so.nr_sort = 1;
		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		err = hier_build(b, idx, n, 0);
	}
	free(idx);
	free(b);
	if (err)
		hier_rows__exit(out);
	return err;
}

void hier_rows__exit(struct hier_rows *rows)
{
	free(rows->rows);
	free(rows->nodes);
	memset(rows, 0, sizeof(*rows));
}
