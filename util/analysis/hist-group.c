// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --group: one table for an event group (see hist-group.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist-group.h"
#include "hist.h"
#include "sort.h"

struct group_cmp {
	const struct sort_order *so;
	struct hist_entry *const *e;
};

static int collapse_idx_cmp(const void *pa, const void *pb, void *arg)
{
	const struct group_cmp *c = arg;

	return hist_entry__cmp_collapse(c->so, c->e[*(const size_t *)pa], c->e[*(const size_t *)pb]);
}

static uint64_t value_of(const struct hist_entry *he, int field)
{
	if (!he)
		return 0;
	switch (field) {
	case HPP_CHILDREN:
		return he->period_acc;
	case HPP_SAMPLE:
		return he->nr_samples;
	case HPP_OVERHEAD_SYS:
		return he->period_sys;
	case HPP_OVERHEAD_US:
		return he->period_us;
	default:
		return he->period;
	}
}

struct row_sort {
	const struct hist_group *g;
	const struct sort_order *so;
	struct sort_order key_so;	/* one key at a time */
};

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	struct row_sort *rs = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct hist_group *g = rs->g;

	for (int i = 0; i < rs->so->nr_sort; i++) {
		int f = rs->so->sort[i];

		if (f == HPP_CHILDREN) {
			/* perf 6.1 orders children by the leader's value (and
			 * its caller-above-callee rule) only */
			int r;

			rs->key_so.sort[0] = f;
			r = hist_entry__cmp_output(&rs->key_so, g->rows[a], g->rows[b]);
			if (r)
				return r;
		} else if (f >= HPP_OVERHEAD) {
			for (int m = 0; m < g->nr; m++) {
				uint64_t x = value_of(g->pairs[a * g->nr + m], f);
				uint64_t y = value_of(g->pairs[b * g->nr + m], f);

				if (x != y)
					return x > y ? -1 : 1;
			}
		} else {
			int r;

			if (sort_order__key_elided(rs->so, f))
				continue;
			rs->key_so.sort[0] = f;
			r = hist_entry__cmp_output(&rs->key_so, g->rows[a], g->rows[b]);
			if (r)
				return r;
		}
	}
	return a < b ? -1 : a > b;
}

int hist_group__build(struct hist_group *g, struct hists **hists, int nr,
		      const struct sort_order *so)
{
	size_t max = 0, n;
	size_t *idx = NULL, *order = NULL;
	struct hist_entry **rows = NULL;
	const struct hist_entry **pairs = NULL;
	int err = -ENOMEM;

	memset(g, 0, sizeof(*g));
	if (nr < 1 || nr > HIST_GROUP_MAX)
		return -EINVAL;
	g->nr = nr;
	for (int m = 0; m < nr; m++) {
		g->hists[m] = hists[m];
		max += hists[m]->nr_sorted;
	}
	rows = malloc((max + 1) * sizeof(*rows));
	pairs = calloc((max + 1) * (size_t)nr, sizeof(*pairs));
	g->zero = calloc(max + 1, sizeof(*g->zero));
	idx = malloc((max + 1) * sizeof(*idx));
	if (!rows || !pairs || !g->zero || !idx)
		goto out;
	n = hists[0]->nr_sorted;
	for (size_t i = 0; i < n; i++) {
		rows[i] = hists[0]->sorted[i];
		pairs[i * nr] = rows[i];
	}
	for (int m = 1; m < nr; m++) {
		struct group_cmp c = { .so = so, .e = rows };
		size_t nr_rows = n;

		/* the rows so far by keys, to find each member entry's row */
		for (size_t i = 0; i < nr_rows; i++)
			idx[i] = i;
		qsort_r(idx, nr_rows, sizeof(*idx), collapse_idx_cmp, &c);
		for (size_t j = 0; j < hists[m]->nr_sorted; j++) {
			struct hist_entry *me = hists[m]->sorted[j];
			size_t lo = 0, hi = nr_rows;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				int r = hist_entry__cmp_collapse(so, rows[idx[mid]], me);

				if (!r) {
					lo = mid;
					break;
				}
				if (r < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < nr_rows && !hist_entry__cmp_collapse(so, rows[idx[lo]], me)) {
				pairs[idx[lo] * nr + m] = me;
				continue;
			}
			/* a row of zeros for the leader (perf's dummy entry) */
			g->zero[n] = *me;
			g->zero[n].period = g->zero[n].period_acc = g->zero[n].nr_samples = 0;
			g->zero[n].period_sys = g->zero[n].period_us = 0;
			g->zero[n].cc_root = 0;
			g->zero[n].max_depth = 0;
			rows[n] = &g->zero[n];
			pairs[n * nr] = NULL;
			pairs[n * nr + m] = me;
			n++;
		}
	}
	/* output order */
	order = malloc((n + 1) * sizeof(*order));
	if (!order)
		goto out;
	{
		struct row_sort rs = { .g = g, .so = so };
		struct hist_entry **sorted = malloc((n + 1) * sizeof(*sorted));
		const struct hist_entry **sp = malloc((n + 1) * (size_t)nr * sizeof(*sp));

		if (!sorted || !sp) {
			free(sorted);
			free(sp);
			goto out;
		}
		g->rows = rows;
		g->pairs = pairs;
		rs.key_so = *so;
		rs.key_so.nr_sort = 1;
		rs.key_so.elided_keys = 0;
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		qsort_r(order, n, sizeof(*order), row_cmp, &rs);
		for (size_t i = 0; i < n; i++) {
			sorted[i] = rows[order[i]];
			memcpy(&sp[i * nr], &pairs[order[i] * nr], (size_t)nr * sizeof(*sp));
		}
		free(rows);
		free(pairs);
		rows = sorted;
		pairs = sp;
	}
	g->rows = rows;
	g->pairs = pairs;
	g->nr_rows = n;
	rows = NULL;
	pairs = NULL;
	err = 0;
out:
	free(rows);
	free(pairs);
	free(idx);
	free(order);
	if (err)
		hist_group__exit(g);
	return err;
}

void hist_group__exit(struct hist_group *g)
{
	free(g->rows);
	free(g->pairs);
	free(g->zero);
	memset(g, 0, sizeof(*g));
}
