// SPDX-License-Identifier: GPL-2.0
/*
 * Per-frame significance of a differential flame graph over groups of
 * runs (see flamegraph-stat.h); the statistics are diff-stat.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph-stat.h"
#include "folded.h"

struct flamegraph_stat {
	int nr_a, nr_b, nr_runs, cur;
	/* node -> slot + 1 (0: free), open addressing, power-of-2 size */
	const struct folded_node **keys;
	uint32_t *slot_of;
	size_t alloc_hash;
	/* per slot: nr_runs self weights, nr_runs inclusive weights, entry */
	uint64_t *self, *incl;
	struct diff_stat_entry *e;
	size_t nr_slots, alloc_slots;
	struct flamegraph_stat_opts opts;
};

struct flamegraph_stat *flamegraph_stat__new(int nr_a, int nr_b)
{
	struct flamegraph_stat *s;

	if (nr_a < 1 || nr_b < 1)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->nr_a = nr_a;
	s->nr_b = nr_b;
	s->nr_runs = nr_a + nr_b;
	return s;
}

void flamegraph_stat__delete(struct flamegraph_stat *s)
{
	if (!s)
		return;
	free(s->keys);
	free(s->slot_of);
	free(s->self);
	free(s->incl);
	free(s->e);
	free(s);
}

void flamegraph_stat__set_run(struct flamegraph_stat *s, int run)
{
	s->cur = run;
}

static size_t node_hash(const struct folded_node *n, size_t mask)
{
	return (size_t)(((uintptr_t)n * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
}

static long lookup(const struct flamegraph_stat *s, const struct folded_node *n)
{
	if (!s->alloc_hash)
		return -1;
	for (size_t j = node_hash(n, s->alloc_hash - 1); s->keys[j]; j = (j + 1) & (s->alloc_hash - 1))
		if (s->keys[j] == n)
			return (long)s->slot_of[j] - 1;
	return -1;
}

static int grow_hash(struct flamegraph_stat *s)
{
	size_t sz = s->alloc_hash ? s->alloc_hash * 2 : 1024;
	const struct folded_node **k = calloc(sz, sizeof(*k));
	uint32_t *v = calloc(sz, sizeof(*v));

	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->alloc_hash; i++) {
		size_t j;

		if (!s->keys[i])
			continue;
		for (j = node_hash(s->keys[i], sz - 1); k[j]; j = (j + 1) & (sz - 1))
			;
		k[j] = s->keys[i];
		v[j] = s->slot_of[i];
	}
	free(s->keys);
	free(s->slot_of);
	s->keys = k;
	s->slot_of = v;
	s->alloc_hash = sz;
	return 0;
}

static int grow_slots(struct flamegraph_stat *s)
{
	size_t n = s->alloc_slots ? s->alloc_slots * 2 : 256, r = (size_t)s->nr_runs;
	uint64_t *self = realloc(s->self, n * r * sizeof(*self));
	uint64_t *incl;

	if (!self)
		return -ENOMEM;
	s->self = self;
	incl = realloc(s->incl, n * r * sizeof(*incl));
	if (!incl)
		return -ENOMEM;
	s->incl = incl;
	memset(self + s->alloc_slots * r, 0, (n - s->alloc_slots) * r * sizeof(*self));
	s->alloc_slots = n;
	return 0;
}

/* The slot of n, added when new; -1 on ENOMEM. */
static long slot(struct flamegraph_stat *s, const struct folded_node *n)
{
	long i = lookup(s, n);
	size_t j;

	if (i >= 0)
		return i;
	if ((s->nr_slots + 1) * 2 > s->alloc_hash && grow_hash(s))
		return -1;
	if (s->nr_slots == s->alloc_slots && grow_slots(s))
		return -1;
	for (j = node_hash(n, s->alloc_hash - 1); s->keys[j]; j = (j + 1) & (s->alloc_hash - 1))
		;
	s->keys[j] = n;
	s->slot_of[j] = (uint32_t)(s->nr_slots + 1);
	return (long)s->nr_slots++;
}

int flamegraph_stat__observe(void *arg, const struct perf_sample *sample, const char *comm,
			     bool off_cpu, const struct folded_node *leaf, uint64_t weight)
{
	struct flamegraph_stat *s = arg;
	long i;

	(void)sample;
	(void)comm;
	if (off_cpu || !leaf)
		return 0;
	i = slot(s, leaf);
	if (i < 0)
		return -ENOMEM;
	s->self[(size_t)i * (size_t)s->nr_runs + (size_t)s->cur] += weight;
	return 0;
}

/* Inclusive weights of n and its subtree; the slot of n, or -1 on ENOMEM. */
static long sum_up(struct flamegraph_stat *s, const struct folded_node *n)
{
	size_t r = (size_t)s->nr_runs;
	long i = slot(s, n);

	if (i < 0)
		return -1;
	memcpy(s->incl + (size_t)i * r, s->self + (size_t)i * r, r * sizeof(*s->incl));
	for (unsigned int k = 0; k < n->nr_children; k++) {
		long c = sum_up(s, n->children[k]);

		if (c < 0)
			return -1;
		/* the arrays may have moved: index them afresh */
		for (size_t j = 0; j < r; j++)
			s->incl[(size_t)i * r + j] += s->incl[(size_t)c * r + j];
	}
	return i;
}

/*
 * Mark in rep[] the slot whose test each frame of n's subtree repeats:
 * a callee holding all of its caller's weight in every run (a caller
 * with no samples of its own and one callee) has the same data, so the
 * same test; it is one hypothesis, counted once in the correction.
 */
static void mark_repeats(const struct flamegraph_stat *s, const struct folded_node *n, size_t *rep)
{
	size_t r = (size_t)s->nr_runs, i = (size_t)lookup(s, n);

	for (unsigned int k = 0; k < n->nr_children; k++) {
		size_t c = (size_t)lookup(s, n->children[k]);

		rep[c] = memcmp(s->incl + i * r, s->incl + c * r, r * sizeof(*s->incl)) ? c : rep[i];
		mark_repeats(s, n->children[k], rep);
	}
}

/* Holm's correction over the distinct tests of the trie under root, the
 * result copied to the frames repeating them. 0 or -ENOMEM. */
static int holm_distinct(struct flamegraph_stat *s, const struct folded_node *root)
{
	size_t *rep = malloc((s->nr_slots + 1) * sizeof(*rep));
	struct diff_stat_entry *d = calloc(s->nr_slots + 1, sizeof(*d));
	size_t nd = 0;

	if (!rep || !d) {
		free(rep);
		free(d);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nr_slots; i++)
		rep[i] = i;
	mark_repeats(s, root, rep);
	for (size_t i = 0; i < s->nr_slots; i++)
		if (rep[i] == i)
			d[nd++] = s->e[i];	/* row: its slot */
	diff_stat__holm(d, nd, s->opts.alpha);
	for (size_t j = 0; j < nd; j++)
		s->e[d[j].row] = d[j];
	for (size_t i = 0; i < s->nr_slots; i++) {
		s->e[i].p_adj = s->e[rep[i]].p_adj;
		s->e[i].changed = s->e[rep[i]].changed;
	}
	free(rep);
	free(d);
	return 0;
}

int flamegraph_stat__compute(struct flamegraph_stat *s, struct folded *f,
			     const struct flamegraph_stat_opts *opts)
{
	size_t r = (size_t)s->nr_runs;
	double *v, *share;
	long root;

	s->opts = *opts;
	root = sum_up(s, folded__root(f));
	if (root < 0)
		return -ENOMEM;
	free(s->e);
	s->e = calloc(s->nr_slots + 1, sizeof(*s->e));
	v = calloc(r, sizeof(*v));
	share = calloc(r, sizeof(*share));
	if (!s->e || !v || !share) {
		free(v);
		free(share);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nr_slots; i++) {
		const uint64_t *w = s->incl + i * r, *tot = s->incl + (size_t)root * r;
		double ma = 0.0, mb = 0.0;

		for (size_t j = 0; j < r; j++) {
			share[j] = tot[j] ? 100.0 * (double)w[j] / (double)tot[j] : 0.0;
			v[j] = opts->by_period ? (double)w[j] : share[j];
			if (j < (size_t)s->nr_a)
				ma += share[j];
			else
				mb += share[j];
		}
		ma /= s->nr_a;
		mb /= s->nr_b;
		s->e[i].row = i;
		diff_stat__welch(v, s->nr_a, v + s->nr_a, s->nr_b, opts->alpha, &s->e[i]);
		/* Welch needs two runs a side; the floor is on the mean shares */
		s->e[i].tested = s->nr_a > 1 && s->nr_b > 1 && (ma >= opts->floor || mb >= opts->floor);
	}
	free(v);
	free(share);
	return holm_distinct(s, folded__root(f));
}

const struct diff_stat_entry *flamegraph_stat__find(const struct flamegraph_stat *s,
						    const struct folded_node *n)
{
	long i = s->e ? lookup(s, n) : -1;

	return i < 0 ? NULL : &s->e[i];
}

const struct flamegraph_stat_opts *flamegraph_stat__opts(const struct flamegraph_stat *s)
{
	return &s->opts;
}

void flamegraph_stat__runs(const struct flamegraph_stat *s, int *nr_a, int *nr_b)
{
	*nr_a = s->nr_a;
	*nr_b = s->nr_b;
}
