// SPDX-License-Identifier: GPL-2.0
/* Time-ordered record queue; see ordered-events.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "ordered-events.h"

void ordered_events__init(struct ordered_events *oe, oe_deliver_fn deliver, void *ctx)
{
	memset(oe, 0, sizeof(*oe));
	oe->deliver = deliver;
	oe->ctx = ctx;
	oe->max_nodes = 8u << 20;	/* 8M nodes (256 MB) before a forced half flush */
}

void ordered_events__exit(struct ordered_events *oe)
{
	free(oe->nodes);
	free(oe->tmp);
	oe->nodes = oe->tmp = NULL;
	oe->nr = oe->nr_sorted = oe->cap = oe->tmp_cap = 0;
}

static int oe__reserve_tmp(struct ordered_events *oe, size_t n)
{
	struct oe_node *t;

	if (oe->tmp_cap >= n)
		return 0;
	t = realloc(oe->tmp, n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	oe->tmp = t;
	oe->tmp_cap = n;
	return 0;
}

/* Stable merge of a[0..na) and b[0..nb) into out. */
static void merge(const struct oe_node *a, size_t na, const struct oe_node *b, size_t nb,
		  struct oe_node *out)
{
	size_t i = 0, j = 0, k = 0;

	/* fast path: already in order */
	if (!na || !nb || a[na - 1].timestamp <= b[0].timestamp) {
		memcpy(out, a, na * sizeof(*a));
		memcpy(out + na, b, nb * sizeof(*b));
		return;
	}
	while (i < na && j < nb) {
		if (b[j].timestamp < a[i].timestamp)
			out[k++] = b[j++];
		else
			out[k++] = a[i++];
	}
	if (i < na)
		memcpy(out + k, a + i, (na - i) * sizeof(*a));
	if (j < nb)
		memcpy(out + k, b + j, (nb - j) * sizeof(*b));
}

/*
 * Natural merge sort of v[0..n) (stable): find ascending runs, then merge
 * neighbouring runs pass by pass. Result left in v.
 */
static int natural_sort(struct ordered_events *oe, struct oe_node *v, size_t n)
{
	size_t *runs, nruns = 0, i;
	struct oe_node *src = v, *dst;

	if (n < 2)
		return 0;
	for (i = 1; i < n; i++)
		if (v[i].timestamp < v[i - 1].timestamp)
			break;
	if (i == n)
		return 0;	/* already sorted */
	if (oe__reserve_tmp(oe, n))
		return -ENOMEM;
	runs = malloc((n + 1) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	runs[nruns++] = 0;
	for (i = 1; i < n; i++)
		if (v[i].timestamp < v[i - 1].timestamp)
			runs[nruns++] = i;
	runs[nruns] = n;
	dst = oe->tmp;
	while (nruns > 1) {
		size_t r, w = 0;

		for (r = 0; r < nruns; r += 2) {
			size_t s = runs[r], m = runs[r + 1];
			size_t e = r + 2 <= nruns ? runs[r + 2] : n;

			if (r + 1 >= nruns) {	/* odd run out */
				memcpy(dst + s, src + s, (n - s) * sizeof(*src));
				runs[w++] = s;
				break;
			}
			merge(src + s, m - s, src + m, e - m, dst + s);
			runs[w++] = s;
		}
		nruns = w;
		runs[nruns] = n;
		{ struct oe_node *t = src; src = dst; dst = t; }
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(runs);
	return 0;
}

int ordered_events__queue(struct ordered_events *oe, uint64_t timestamp,
			  union perf_event *event, void *owner, uint64_t file_offset)
{
	struct oe_node *n;

	/* a record the deferred rounds would have delivered after: pay them
	 * first, as their flushes would have */
	if (oe->pending && (timestamp <= oe->pending_limit ||
			    (oe->max_nodes && oe->nr >= oe->max_nodes))) {
		int err = ordered_events__flush_pending(oe);

		if (err)
			return err;
	}
	if (oe->nr == oe->cap) {
		size_t cap = oe->cap ? oe->cap * 2 : 4096;
		struct oe_node *nn;

		if (oe->max_nodes && oe->nr >= oe->max_nodes) {
			/* too much queued without a round: deliver the older half */
			uint64_t lo = oe->nodes[0].timestamp, hi = oe->max_timestamp;
			size_t i;
			int err;

			for (i = 0; i < oe->nr; i++)
				if (oe->nodes[i].timestamp < lo)
					lo = oe->nodes[i].timestamp;
			oe->next_flush = lo + (hi - lo) / 2;
			err = ordered_events__flush_round(oe);
			oe->next_flush = oe->max_timestamp;
			if (err)
				return err;
		}
		if (oe->nr == oe->cap) {
			nn = realloc(oe->nodes, cap * sizeof(*nn));
			if (!nn)
				return -ENOMEM;
			oe->nodes = nn;
			oe->cap = cap;
		}
	}
	if (timestamp < oe->last_flush)
		oe->nr_unordered++;
	if (timestamp > oe->max_timestamp)
		oe->max_timestamp = timestamp;
	n = &oe->nodes[oe->nr++];
	n->timestamp = timestamp;
	n->event = event;
	n->owner = owner;
	n->file_offset = file_offset;
	return 0;
}

/* Sort everything queued (sorted prefix + new tail) into nodes[0..nr). */
static int oe__sort(struct ordered_events *oe)
{
	size_t ns = oe->nr_sorted, nn = oe->nr - ns;
	int err;

	if (!nn)
		return 0;
	err = natural_sort(oe, oe->nodes + ns, nn);
	if (err)
		return err;
	if (ns && oe->nodes[ns - 1].timestamp > oe->nodes[ns].timestamp) {
		err = oe__reserve_tmp(oe, oe->nr);
		if (err)
			return err;
		merge(oe->nodes, ns, oe->nodes + ns, nn, oe->tmp);
		memcpy(oe->nodes, oe->tmp, oe->nr * sizeof(*oe->nodes));
	}
	oe->nr_sorted = oe->nr;
	return 0;
}

static int oe__deliver_upto(struct ordered_events *oe, uint64_t limit, bool all)
{
	size_t i, n;
	int err = oe__sort(oe);

	if (err)
		return err;
	n = oe->nr;
	if (!all) {
		/* first node with timestamp > limit */
		size_t lo = 0, hi = oe->nr;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (oe->nodes[mid].timestamp <= limit)
				lo = mid + 1;
			else
				hi = mid;
		}
		n = lo;
	}
	if (oe->deliver_batch && n) {
		i = 0;
		err = oe->deliver_batch(oe->ctx, oe->nodes, n, &i);
		if (i > n)
			i = n;
		/* delivered in timestamp order: the last one is the highest */
		if (i && oe->nodes[i - 1].timestamp > oe->last_flush)
			oe->last_flush = oe->nodes[i - 1].timestamp;
	} else {
		for (i = 0; i < n; i++) {
			struct oe_node *node = &oe->nodes[i];

			/* records are delivered out of file order: fetch ahead */
			if (i + 8 < n)
				__builtin_prefetch(oe->nodes[i + 8].event);

			if (node->timestamp > oe->last_flush)
				oe->last_flush = node->timestamp;
			err = oe->deliver(oe->ctx, node);
			if (err) {
				i++;
				break;
			}
		}
	}
	if (i) {
		memmove(oe->nodes, oe->nodes + i, (oe->nr - i) * sizeof(*oe->nodes));
		oe->nr -= i;
		oe->nr_sorted = oe->nr;
	}
	return err;
}

int ordered_events__flush_round(struct ordered_events *oe)
{
	int err = 0;

	/* next_flush >= pending_limit: this pays what deferred rounds owe */
	oe->pending = false;
	if (oe->nr)
		err = oe__deliver_upto(oe, oe->next_flush, false);
	oe->next_flush = oe->max_timestamp;
	return err;
}

int ordered_events__defer_round(struct ordered_events *oe)
{
	if (oe->nr) {
		oe->pending = true;
		oe->pending_limit = oe->next_flush;
	}
	oe->next_flush = oe->max_timestamp;
	return 0;
}

int ordered_events__flush_pending(struct ordered_events *oe)
{
	if (!oe->pending)
		return 0;
	oe->pending = false;
	return oe->nr ? oe__deliver_upto(oe, oe->pending_limit, false) : 0;
}

int ordered_events__flush_all(struct ordered_events *oe)
{
	oe->pending = false;
	if (!oe->nr)
		return 0;
	return oe__deliver_upto(oe, 0, true);
}

uint64_t ordered_events__min_mapped_offset(const struct ordered_events *oe)
{
	uint64_t min = UINT64_MAX;
	size_t i;

	for (i = 0; i < oe->nr; i++)
		if (!oe->nodes[i].owner && oe->nodes[i].file_offset < min)
			min = oe->nodes[i].file_offset;
	return min;
}
