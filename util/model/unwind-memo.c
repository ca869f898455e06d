// SPDX-License-Identifier: GPL-2.0
/*
 * Walk memo (see unwind-memo.h): per thread, a set-associative table of
 * recorded walks; entries live in chunks the thread owns (thread_zalloc(),
 * freed with the thread) and are never freed one by one: when the chunks
 * are all used (WALK_MEMO_CHUNKS) the table starts over in them. The
 * first chunks are small (a short recording keeps a few walks; each page
 * of a chunk is written when it is made).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "unwind-memo.h"
#include "../lib/debug.h"
#include "../lib/tunables.h"
#include "../lib/util.h"

#define WALK_MEMO_SETS 1024		/* power of two */
#define WALK_MEMO_WAYS 4
#define WALK_MEMO_CHUNK (256u << 10)	/* bytes of chunk i >= 2; chunks 0 and 1: a quarter */
#define WALK_MEMO_CHUNKS 64		/* about 16 MB in all */

struct walk_memo_entry {
	struct walk_key k;
	uint64_t used;			/* sampled registers the walk consumed */
	uint32_t nr_reads, nr_entries;
	const struct walk_read *reads;
	const struct unwind_entry *entries;
	uint64_t regs[];		/* values of the used registers, in register order */
};

struct walk_memo {
	struct walk_memo_entry *slot[WALK_MEMO_SETS][WALK_MEMO_WAYS];
	uint8_t next[WALK_MEMO_SETS];	/* way to fill next */
	char *chunk[WALK_MEMO_CHUNKS];	/* thread_zalloc()'d as needed */
	unsigned int cur;		/* chunk being filled */
	size_t cur_used;		/* bytes of it */
	uint64_t hits, misses, stored, restarts;
	size_t cur_size;		/* bytes of chunk cur */
	struct walk_trace trace;
};

static __thread struct walk_memo *walk_memo;
static __thread bool walk_memo_tried;

struct walk_memo *walk_memo__thread(void)
{
	if (likely(walk_memo) || walk_memo_tried)
		return walk_memo;
	walk_memo_tried = true;
	if (tunable__bool(TUNABLE_NO_WALK_MEMO))
		return NULL;
	walk_memo = thread_zalloc(sizeof(*walk_memo));
	return walk_memo;
}

static unsigned int walk_key__set(const struct walk_key *k)
{
	uint64_t h = (k->ip ^ (k->sp << 7) ^ ((uintptr_t)k->maps >> 4)) * 0x9e3779b97f4a7c15ULL;

	return (unsigned int)(h >> 40) & (WALK_MEMO_SETS - 1);
}

static bool walk_key__equal(const struct walk_key *a, const struct walk_key *b)
{
	return a->ip == b->ip && a->sp == b->sp && a->maps == b->maps &&
	       a->maps_gen == b->maps_gen && a->dwarf_gen == b->dwarf_gen &&
	       a->span == b->span && a->valid == b->valid && a->max_stack == b->max_stack;
}

/* Do e's consumed registers and loads read the same from regs and stack? */
static bool walk_memo__matches(const struct walk_memo_entry *e, const uint64_t *regs,
			       const char *stack)
{
	unsigned int i = 0;

	for (uint64_t bits = e->used; bits; bits &= bits - 1)
		if (regs[__builtin_ctzll(bits)] != e->regs[i++])
			return false;
	for (i = 0; i < e->nr_reads; i++) {
		const struct walk_read *r = &e->reads[i];
		uint64_t w;

		/* nearly all are 8-byte loads: no memcmp() call for them */
		if (likely(r->len == 8)) {
			memcpy(&w, stack + r->off, 8);
			if (w != r->v[0])
				return false;
		} else if (memcmp(stack + r->off, r->v, r->len)) {
			return false;
		}
	}
	return true;
}

const struct walk_memo_entry *walk_memo__find(struct walk_memo *wm, const struct walk_key *k,
					      const uint64_t *regs, const char *stack)
{
	struct walk_memo_entry **ways = wm->slot[walk_key__set(k)];

	for (unsigned int w = 0; w < WALK_MEMO_WAYS; w++) {
		const struct walk_memo_entry *e = ways[w];

		if (e && walk_key__equal(&e->k, k) && walk_memo__matches(e, regs, stack)) {
			wm->hits++;
			return e;
		}
	}
	wm->misses++;
	return NULL;
}

int walk_memo__replay(const struct walk_memo_entry *e, unwind_entry_cb_t cb, void *arg)
{
	for (uint32_t i = 0; i < e->nr_entries; i++) {
		struct unwind_entry copy = e->entries[i];
		int ret = cb(&copy, arg);

		if (ret)
			return ret;
	}
	return 0;
}

struct walk_trace *walk_memo__trace(struct walk_memo *wm)
{
	wm->trace.on = true;
	wm->trace.nr_reads = 0;
	wm->trace.nr_entries = 0;
	return &wm->trace;
}

/* Bytes of chunk i. */
static size_t walk_memo__chunk_size(unsigned int i)
{
	return i < 2 ? WALK_MEMO_CHUNK / 4 : WALK_MEMO_CHUNK;
}

/* size bytes (8-aligned) from the thread's chunks; NULL when they are all
 * used (the caller starts over) or there is no memory. */
static void *walk_memo__alloc(struct walk_memo *wm, size_t size)
{
	size = (size + 7) & ~(size_t)7;
	if (size > walk_memo__chunk_size(0))
		return NULL;	/* never: a walk is bounded by the trace's caps */
	while (!wm->chunk[wm->cur] || wm->cur_used + size > wm->cur_size) {
		if (wm->chunk[wm->cur] && ++wm->cur == WALK_MEMO_CHUNKS)
			return NULL;
		wm->cur_size = walk_memo__chunk_size(wm->cur);
		if (!wm->chunk[wm->cur] && !(wm->chunk[wm->cur] = thread_zalloc(wm->cur_size)))
			return NULL;
		wm->cur_used = 0;
	}
	wm->cur_used += size;
	return wm->chunk[wm->cur] + wm->cur_used - size;
}

/* Forget every walk and fill the chunks from the first again. */
static void walk_memo__restart(struct walk_memo *wm)
{
	memset(wm->slot, 0, sizeof(wm->slot));
	wm->cur = 0;
	wm->cur_used = 0;
	wm->cur_size = walk_memo__chunk_size(0);
	wm->restarts++;
}

void walk_memo__store(struct walk_memo *wm, const struct walk_key *k, const uint64_t *regs,
		      uint64_t used)
{
	const struct walk_trace *t = &wm->trace;
	unsigned int set = walk_key__set(k), nused = (unsigned int)__builtin_popcountll(used), i;
	unsigned int nreads = 0;
	size_t size;
	struct walk_memo_entry *e;
	struct walk_read *rd;
	char *p;

	if (!t->on)
		return;
	for (i = 0; i < t->nr_reads; i++)
		nreads += t->reads[i].needed;
	size = sizeof(struct walk_memo_entry) + nused * sizeof(uint64_t) +
	       nreads * sizeof(struct walk_read) + t->nr_entries * sizeof(struct unwind_entry);
	e = walk_memo__alloc(wm, size);
	if (!e) {
		walk_memo__restart(wm);
		e = walk_memo__alloc(wm, size);
		if (!e)
			return;
	}
	e->k = *k;
	e->used = used;
	i = 0;
	for (uint64_t bits = used; bits; bits &= bits - 1)
		e->regs[i++] = regs[__builtin_ctzll(bits)];
	p = (char *)&e->regs[nused];
	e->nr_reads = nreads;
	e->reads = rd = (struct walk_read *)p;
	for (i = 0; i < t->nr_reads; i++)
		if (t->reads[i].needed)
			*rd++ = t->reads[i];
	p = (char *)rd;
	e->nr_entries = t->nr_entries;
	e->entries = memcpy(p, t->entries, t->nr_entries * sizeof(*t->entries));
	wm->slot[set][wm->next[set]] = e;
	wm->next[set] = (uint8_t)((wm->next[set] + 1) % WALK_MEMO_WAYS);
	wm->stored++;
}

void walk_memo__stats(void)
{
	struct walk_memo *wm = walk_memo;

	if (wm && (wm->hits || wm->misses))
		pr_debug("walk memo: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64
			 " walks kept, %" PRIu64 " restarts\n", wm->hits, wm->misses, wm->stored,
			 wm->restarts);
}
