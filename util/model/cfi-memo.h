/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_CFI_MEMO_H
#define PRF_MODEL_CFI_MEMO_H
/*
 * The CFI row memo: per thread, the decoded simple rows (cfi-row.h) the
 * unwinder stepped through lately, in front of the DSO's locked CFI cache
 * (debuginfo__cfi_frame()), keyed by DSO and file offset: a hit costs no
 * lock, no PT_LOAD lookup and no copy of ops. An entry covers the row's
 * range [lo, hi) in file offsets; entries of an older
 * debuginfo__generation() are void. Two ways per set, filled in turn:
 * direct-mapped, two hot pcs that meet in a slot would evict each other
 * at every sample, and whether they meet depends on where the DSO
 * happens to be mapped. Internal to the unwinder (util/model/unwind.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include "cfi-row.h"
#include "debuginfo.h"
#include "../lib/util.h"

struct dso;

#define CFI_MEMO_MIN_BITS 4	/* sets: 2^4, growing to 2^7 with use */
#define CFI_MEMO_MAX_BITS 7

struct cfi_memo {
	const struct dso *dso;
	unsigned int gen;
	uint64_t lo, hi;
	struct cfi_row row;
};

struct cfi_memo_set {
	struct cfi_memo way[2];
	uint8_t next;		/* way to fill next */
};

/* this thread's sets (cfi-memo.c), and the one used when there is no
 * memory for them */
extern __thread struct thread_memo cfi_memo;
extern __thread struct cfi_memo_set cfi_memo_one;

static inline bool cfi_memo__hit(const struct cfi_memo *m, const struct dso *dso, uint64_t off,
				 unsigned int gen)
{
	return m->dso == dso && m->gen == gen && off >= m->lo && off < m->hi;
}

/*
 * dso__cfi_row() past the memo: the DSO's locked CFI cache; the row, when
 * simple, goes into memo. Out of line, so that the memo hit of every
 * frame pays for no spills of this path.
 */
int dso__cfi_row_locked(struct dso *dso, uint64_t off, unsigned int nregs, struct cfi_row *buf,
			const struct cfi_row **rowp, struct cfi_memo *memo, unsigned int gen);

/*
 * The decoded CFI row at file offset off of dso (an architecture of nregs
 * registers) into *rowp: a simple row from (or into) this thread's memo,
 * valid until the next call on this thread; any other copied into buf
 * (ROW_BUF_SIZE bytes) under the DSO's lock (so no other DSO lock is ever
 * taken while it is held). 0, -ENOENT when no CFI covers off, -ENOMEM.
 */
static inline int dso__cfi_row(struct dso *dso, uint64_t off, unsigned int nregs,
			       struct cfi_row *buf, const struct cfi_row **rowp)
{
	unsigned int gen = debuginfo__generation();
	struct cfi_memo_set *set;

	/* made (again, bigger) at the size it is to have */
	set = thread_memo__slot(&cfi_memo, sizeof(struct cfi_memo_set),
				(((uintptr_t)dso >> 4) ^ off) * 0x9e3779b97f4a7c15ULL,
				&cfi_memo_one);
	if (likely(cfi_memo__hit(&set->way[0], dso, off, gen))) {
		*rowp = &set->way[0].row;
		return 0;
	}
	if (likely(cfi_memo__hit(&set->way[1], dso, off, gen))) {
		*rowp = &set->way[1].row;
		return 0;
	}
	set->next ^= 1;
	thread_memo__filled(&cfi_memo);
	return dso__cfi_row_locked(dso, off, nregs, buf, rowp, &set->way[set->next], gen);
}

#endif
