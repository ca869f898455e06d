/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_RBTREE_IDX_H
#define PRF_LIB_RBTREE_IDX_H
/*
 * A red-black tree over node numbers 0..n-1 (links in one array), built
 * with the classic bottom-up insertion (recolor on a red uncle, else one
 * or two rotations), the algorithm of the Linux kernel's lib/rbtree.c.
 * Used where prf must reproduce the shape of a tree perf builds, because
 * perf's answer depends on it: the output order of report under a
 * non-transitive compare (util/analysis/hist.c) and which of two
 * overlapping symbols perf's lookup meets first (util/model/symbol-elf.c).
 * The caller descends with its own compare and attaches the new node
 * with rbi_insert(); rbi_erase() removes a node as lib/rbtree.c's
 * rb_erase() does (a node with two children is replaced by its in-order
 * successor, which takes its color), so a tree built by inserts and
 * erases has the kernel's shape. No allocation here.
 */
#include <stdint.h>

/* one node, all of its links in one 16-byte record */
struct rbi_link {
	int32_t child[2];	/* 0: left, 1: right; -1: none */
	int32_t parent;
	int32_t red;
};

struct rbi_tree {
	struct rbi_link *n;	/* caller's array, one per node */
	int32_t root;		/* -1: empty */
};

/* rotate x's child on side 1 - dir up into x's place (dir 0: left
 * rotation, x goes down to the left) */
static inline void rbi_rotate(struct rbi_tree *t, int32_t x, int dir)
{
	struct rbi_link *n = t->n;
	int32_t y = n[x].child[1 - dir], p = n[x].parent;

	n[x].child[1 - dir] = n[y].child[dir];
	if (n[y].child[dir] >= 0)
		n[n[y].child[dir]].parent = x;
	n[y].parent = p;
	if (p < 0)
		t->root = y;
	else
		n[p].child[n[p].child[0] == x ? 0 : 1] = y;
	n[y].child[dir] = x;
	n[x].parent = y;
}

/* Attach node x as child dir (0 left, 1 right) of p (-1: x becomes the
 * root of an empty tree), then restore the red-black rules. */
static inline void rbi_insert(struct rbi_tree *t, int32_t x, int32_t p, int dir)
{
	struct rbi_link *n = t->n;

	n[x].child[0] = n[x].child[1] = -1;
	n[x].red = 1;
	n[x].parent = p;
	if (p < 0)
		t->root = x;
	else
		n[p].child[dir] = x;

	while (n[x].parent >= 0 && n[n[x].parent].red) {
		int32_t par = n[x].parent, g = n[par].parent;
		int side = n[g].child[0] == par ? 0 : 1;	/* par's side of g */
		int32_t uncle = n[g].child[1 - side];

		if (uncle >= 0 && n[uncle].red) {
			n[par].red = 0;
			n[uncle].red = 0;
			n[g].red = 1;
			x = g;
			continue;
		}
		if (n[par].child[1 - side] == x) {
			/* inner grandchild: turn it outer first */
			rbi_rotate(t, par, side);
			x = par;
			par = n[x].parent;
		}
		n[par].red = 0;
		n[g].red = 1;
		rbi_rotate(t, g, 1 - side);
	}
	n[t->root].red = 0;
}

/* leftmost node of the subtree at x (-1: none) */
static inline int32_t rbi_first(const struct rbi_tree *t, int32_t x)
{
	if (x < 0)
		return -1;
	while (t->n[x].child[0] >= 0)
		x = t->n[x].child[0];
	return x;
}

/* in-order successor of x, -1 after the last */
static inline int32_t rbi_next(const struct rbi_tree *t, int32_t x)
{
	int32_t p;

	if (t->n[x].child[1] >= 0)
		return rbi_first(t, t->n[x].child[1]);
	for (p = t->n[x].parent; p >= 0 && t->n[p].child[1] == x; p = t->n[p].parent)
		x = p;
	return p;
}

/* put v (may be -1) where u hangs */
static inline void rbi_transplant(struct rbi_tree *t, int32_t u, int32_t v)
{
	int32_t p = t->n[u].parent;

	if (p < 0)
		t->root = v;
	else
		t->n[p].child[t->n[p].child[0] == u ? 0 : 1] = v;
	if (v >= 0)
		t->n[v].parent = p;
}

static inline int rbi_red(const struct rbi_tree *t, int32_t x)
{
	return x >= 0 && t->n[x].red;
}

/* Remove node z from the tree (its links are left stale). */
static inline void rbi_erase(struct rbi_tree *t, int32_t z)
{
	struct rbi_link *n = t->n;
	int32_t y = z, x, xp;
	int removed_red = n[z].red;

	if (n[z].child[0] < 0 || n[z].child[1] < 0) {
		x = n[z].child[0] >= 0 ? n[z].child[0] : n[z].child[1];
		xp = n[z].parent;
		rbi_transplant(t, z, x);
	} else {
		y = rbi_first(t, n[z].child[1]);
		removed_red = n[y].red;
		x = n[y].child[1];
		if (n[y].parent == z) {
			xp = y;
		} else {
			xp = n[y].parent;
			rbi_transplant(t, y, x);
			n[y].child[1] = n[z].child[1];
			n[n[y].child[1]].parent = y;
		}
		rbi_transplant(t, z, y);
		n[y].child[0] = n[z].child[0];
		n[n[y].child[0]].parent = y;
		n[y].red = n[z].red;
	}
	if (removed_red)
		return;
	/* x (maybe none) carries an extra black: push it up or fix it */
	while (x != t->root && !rbi_red(t, x)) {
		int side = n[xp].child[0] == x ? 0 : 1;	/* x's side of xp */
		int32_t w = n[xp].child[1 - side];

		if (rbi_red(t, w)) {
			n[w].red = 0;
			n[xp].red = 1;
			rbi_rotate(t, xp, side);
			w = n[xp].child[1 - side];
		}
		if (!rbi_red(t, n[w].child[0]) && !rbi_red(t, n[w].child[1])) {
			n[w].red = 1;
			x = xp;
			xp = n[x].parent;
			continue;
		}
		if (!rbi_red(t, n[w].child[1 - side])) {
			n[n[w].child[side]].red = 0;
			n[w].red = 1;
			rbi_rotate(t, w, 1 - side);
			w = n[xp].child[1 - side];
		}
		n[w].red = n[xp].red;
		n[xp].red = 0;
		n[n[w].child[1 - side]].red = 0;
		rbi_rotate(t, xp, side);
		x = t->root;
	}
	if (x >= 0)
		n[x].red = 0;
}

#endif
