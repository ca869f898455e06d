/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walk memo: the DWARF walk of a sample (unwind.c) is a function of what
 * it reads, so a walk that read the same things returns the same frames.
 * What it reads: the sampled registers it consumed (as the CFA's base, in
 * an expression, as the return address...: the stack pointer and pc are
 * always among them), the stack copy's words it loaded, the copy's size
 * (a load past its end marks the walk truncated), and the mapped files
 * and CFI, which are fixed while maps__generation and
 * debuginfo__generation() stay the same. A recorded walk (the registers
 * consumed and their values, each load's offset in the copy and bytes,
 * the frames it produced) is taken for a later sample with the same key
 * (maps, generations, pc, stack pointer, copy size, valid registers, depth
 * limit) when all of those compare equal: about a tenth of walking again
 * (a python3 loop: 12 K samples, 549 distinct pc and stack pointer pairs).
 *
 * Per thread (thread_zalloc()), no locks; internal to the unwinder.
 * Only walks without symbol lookups (unwind__get_entries_nosym(), the
 * callchain cache's key) and without a frame-pointer chain to mix in are
 * memoized. $PRF_NO_WALK_MEMO=1 turns it off (tests compare).
 */
#ifndef PRF_UNWIND_MEMO_H
#define PRF_UNWIND_MEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "unwind.h"
#include "../../arch/x86/unwind-regs.h"

#define WALK_TRACE_MAX_READS 1024
#define WALK_TRACE_MAX_ENTRIES 512
#define WALK_READ_MAX 16		/* bytes of one load */

/* One load from the stack copy: len bytes at offset off. needed: the
 * walk's result depends on the value (a register loaded and never used
 * afterwards, such as most callee-saved ones, does not). */
struct walk_read {
	uint32_t off;
	uint16_t len;
	uint16_t needed;
	uint64_t v[WALK_READ_MAX / 8];
};

/* A walk being recorded. on: still complete (a read or frame past the
 * caps turns it off: not stored). */
struct walk_trace {
	bool on;
	unsigned int nr_reads, nr_entries;
	struct walk_read reads[WALK_TRACE_MAX_READS];
	struct unwind_entry entries[WALK_TRACE_MAX_ENTRIES];
};

/* What a walk's result is keyed by before its reads are compared. */
struct walk_key {
	const void *maps;
	uint64_t maps_gen;
	unsigned int dwarf_gen;		/* debuginfo__generation() */
	int max_stack;
	uint64_t ip, sp;		/* sampled pc and stack pointer */
	uint64_t span;			/* bytes of the stack copy */
	uint64_t valid;			/* sampled registers present */
};

struct walk_memo;
struct walk_memo_entry;

/* This thread's memo, made on first use; NULL when off or no memory. */
struct walk_memo *walk_memo__thread(void);

/*
 * The recorded walk for k whose consumed registers equal regs' (regs in
 * the unwinder's numbering, as the sample gives them) and whose loads
 * read the same bytes from stack (the copy, k->span bytes), or NULL.
 */
const struct walk_memo_entry *walk_memo__find(struct walk_memo *wm, const struct walk_key *k,
					      const uint64_t *regs, const char *stack);

/* Call cb with each frame of the recorded walk e, in order; cb's first
 * non-zero return, else 0 (what the walk returned). */
int walk_memo__replay(const struct walk_memo_entry *e, unwind_entry_cb_t cb, void *arg);

/* The thread's trace, emptied and on, for recording a walk. */
struct walk_trace *walk_memo__trace(struct walk_memo *wm);

/*
 * Keep the walk recorded in wm's trace (ignored when it is off) for key
 * k: regs are the sampled registers (unwinder numbering), used the mask
 * of those the walk consumed. Memory per thread is bounded; past it the
 * memo starts over.
 */
void walk_memo__store(struct walk_memo *wm, const struct walk_key *k, const uint64_t *regs,
		      uint64_t used);

/* Print the thread's hit counts (-v). */
void walk_memo__stats(void);

/* Record a load of len bytes at offset off of the stack copy, as needed
 * (the unwinder unmarks a saved register's load until it is consumed);
 * its index, or -1 when not recorded. */
static inline int walk_trace__read(struct walk_trace *t, uint64_t off, const void *buf,
				   size_t len)
{
	struct walk_read *r;

	if (!t || !t->on)
		return -1;
	if (t->nr_reads == WALK_TRACE_MAX_READS || len > WALK_READ_MAX || off > UINT32_MAX) {
		t->on = false;
		return -1;
	}
	r = &t->reads[t->nr_reads];
	r->off = (uint32_t)off;
	r->len = (uint16_t)len;
	r->needed = 1;
	memcpy(r->v, buf, len);
	return (int)t->nr_reads++;
}

/* Record a frame the walk produced. */
static inline void walk_trace__entry(struct walk_trace *t, const struct unwind_entry *e)
{
	if (!t || !t->on)
		return;
	if (t->nr_entries == WALK_TRACE_MAX_ENTRIES) {
		t->on = false;
		return;
	}
	t->entries[t->nr_entries++] = *e;
}

#endif
