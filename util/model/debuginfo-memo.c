// SPDX-License-Identifier: GPL-2.0
/*
 * The memos in front of a DSO's line tables and inline scopes
 * (debuginfo-internal.h): dso__srcline() behind a per-thread memo of its
 * answers; dso__inline_frames*() behind a per-thread memo of short chains
 * and the DSO's own direct-mapped cache of chains, which grows with use
 * (struct cache_size). A memo hit takes no lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo-internal.h"
#include "inline-cache.h"
#include "../lib/util.h"

struct inline_slot {
	uint64_t addr;
	int n;			/* frames; 0: no inlined level; -1: unused */
	bool positions;		/* file/line/srcline filled */
	struct inline_frame *frames;
};

/* Per-thread memo of dso__srcline() answers (none found too), lock-free
 * like the inline chain memo below; void with an older
 * debuginfo__generation(). */
#define SRCLINE_MEMO_BITS 10	/* 2^10 entries */

struct srcline_memo {
	const struct debuginfo *di;
	uint64_t addr;
	unsigned int gen;
	const char *str;
};

static __thread struct thread_memo srcline_memo = THREAD_MEMO_INIT(SRCLINE_MEMO_BITS,
								   SRCLINE_MEMO_BITS);
static __thread struct srcline_memo srcline_memo_one;	/* when there is no memory for it */

const char *dso__srcline(struct dso *dso, uint64_t addr)
{
	struct debuginfo *di = dso__debuginfo(dso);
	unsigned int gen = debuginfo__generation();
	struct inline_fact_level lv[INLINE_CACHE_MAX_LEVELS];
	struct inline_cache *ic;
	struct inline_facts f;
	struct srcline_memo *m;
	struct line_table *t;
	const char *s = NULL;
	long i;

	debuginfo__note_use(DEBUGINFO_USED_SRCLINE);
	if (!di || debuginfo__none(di))
		return NULL;
	m = thread_memo__slot(&srcline_memo, sizeof(struct srcline_memo),
			      ((uintptr_t)di >> 4 ^ addr) * 0x9e3779b97f4a7c15ULL, &srcline_memo_one);
	if (m->di == di && m->addr == addr && m->gen == gen)
		return m->str;
	debuginfo__lock(di);
	if (!debuginfo__load_dwarf(di) && (ic = debuginfo__inline_cache(di)) &&
	    !inline_cache__get(ic, addr, &f, lv) && f.positions) {
		/* the kept chain has the line table's row at addr */
		if (f.file)
			s = debuginfo__intern(di, f.file, f.line);
	} else if ((i = debuginfo__find_line(di, addr, &t)) >= 0) {
		s = debuginfo__intern(di, line_table__file(t, (size_t)i), line_row__line(&t->rows[i]));
	}
	debuginfo__unlock(di);
	*m = (struct srcline_memo){ di, addr, gen, s };
	return s;
}

int dso__inline_frames(struct dso *dso, uint64_t addr, inline_frame_cb_t cb, void *arg)
{
	return dso__inline_frames_flags(dso, addr, 0, cb, arg);
}

/*
 * Per-thread memo in front of the DSO's inline chain cache, holding
 * copies of short chains: a hit takes no lock. (With an unwinding worker
 * resolving samples too, both threads took the same DSO's lock for every
 * frame and slept on it.) Entries of an older debuginfo__generation()
 * are void: their strings and symbols went with a freed DSO.
 */
#define INL_MEMO_MIN_BITS 6	/* entries: 2^6, growing to 2^9 with use */
#define INL_MEMO_MAX_BITS 9
#define INL_MEMO_FRAMES 6

struct inl_memo {
	const struct debuginfo *di;
	uint64_t addr;
	unsigned int gen;
	int n;			/* as the cache slot's */
	bool positions;
	struct inline_frame fr[INL_MEMO_FRAMES];
};

static __thread struct thread_memo inl_memo = THREAD_MEMO_INIT(INL_MEMO_MIN_BITS,
							       INL_MEMO_MAX_BITS);
static __thread struct inl_memo inl_memo_one;	/* when there is no memory for it */

/* The memo's entry for addr of di, valid until the next call on this
 * thread (the memo is made again, bigger, when due). */
static struct inl_memo *inl_memo__slot(const struct debuginfo *di, uint64_t addr)
{
	return thread_memo__slot(&inl_memo, sizeof(struct inl_memo),
				 ((uintptr_t)di >> 4 ^ addr) * 0x9e3779b97f4a7c15ULL, &inl_memo_one);
}

/* Free the inline chain cache (made again at its next use); locked. */
static void inline_cache__drop(struct debuginfo *di)
{
	for (size_t i = 0; di->memo.slots && i < di->memo.nr_slots; i++)
		free(di->memo.slots[i].frames);
	zfree(&di->memo.slots);
	di->memo.nr_slots = 0;
}

/* Report frames[0..n) to cb as dso__inline_frames_flags() returns. */
static int inline_frames__report(const struct inline_frame *frames, int n, inline_frame_cb_t cb,
				 void *arg)
{
	int ret = 0;

	for (int i = 0; cb && i < n && !ret; i++)
		ret = cb(&frames[i], arg);
	if (ret)
		return ret;
	/* levels reported beyond the frame itself (1: a renamed frame alone) */
	return n > 1 ? n - 1 : n;
}

int dso__inline_frames_flags(struct dso *dso, uint64_t addr, unsigned int flags,
			     inline_frame_cb_t cb, void *arg)
{
	bool positions = !(flags & INLINE_F_NO_POSITIONS);
	unsigned int gen = debuginfo__generation();
	struct inl_memo *m;

	if (cb)
		debuginfo__note_use(DEBUGINFO_USED_INLINE | (positions ? DEBUGINFO_USED_POSITIONS : 0));
	struct debuginfo *di = dso__debuginfo(dso);
	struct inline_frame *frames, local[16];
	struct inline_slot *slot;
	int n, ret = 0;

	if (!di)
		return -ENOMEM;
	if (debuginfo__none(di))
		return 0;
	m = inl_memo__slot(di, addr);
	if (m->di == di && m->addr == addr && m->gen == gen && (m->positions || !positions)) {
		/* a copy: cb may look up other addresses on this thread */
		if (m->n > 0)
			memcpy(local, m->fr, m->n * sizeof(*local));
		return inline_frames__report(local, m->n, cb, arg);
	}
	debuginfo__lock(di);
	if (di->memo.slots && di->memo.nr_slots != (size_t)1 << di->memo.size.bits)
		inline_cache__drop(di);		/* to be made bigger */
	if (!di->memo.slots) {
		size_t nr = (size_t)1 << di->memo.size.bits;

		di->memo.slots = malloc(nr * sizeof(*di->memo.slots));
		if (!di->memo.slots) {
			debuginfo__unlock(di);
			return -ENOMEM;
		}
		for (size_t k = 0; k < nr; k++) {
			di->memo.slots[k].n = -1;
			di->memo.slots[k].frames = NULL;
		}
		di->memo.nr_slots = nr;
	}
	slot = &di->memo.slots[(addr ^ (addr >> 12)) & (di->memo.nr_slots - 1)];
	if (slot->n < 0 || slot->addr != addr || (positions && !slot->positions)) {
		n = debuginfo__inline_chain(di, addr, positions, &frames);
		if (n < 0) {
			debuginfo__unlock(di);
			return n;
		}
		free(slot->frames);
		slot->addr = addr;
		slot->n = n;
		slot->positions = positions;
		slot->frames = frames;
		cache_size__fill(&di->memo.size);
	}
	n = slot->n;
	/* copy out: the slot may be reused once the lock is dropped */
	frames = NULL;
	if (n > 0 && cb) {
		frames = n <= (int)ARRAY_SIZE(local) ? local : malloc(n * sizeof(*frames));
		if (!frames) {
			debuginfo__unlock(di);
			return -ENOMEM;
		}
		memcpy(frames, slot->frames, n * sizeof(*frames));
	}
	if (n <= INL_MEMO_FRAMES) {
		if (m != &inl_memo_one)
			thread_memo__filled(&inl_memo);
		m->di = di;
		m->addr = addr;
		m->gen = gen;
		m->n = n;
		m->positions = slot->positions;
		if (n > 0)
			memcpy(m->fr, slot->frames, n * sizeof(*m->fr));
	}
	debuginfo__unlock(di);
	ret = inline_frames__report(frames, n, cb, arg);	/* frames: NULL only when unused */
	if (frames != local)
		free(frames);
	return ret;
}

void debuginfo__memo_free(struct debuginfo *di)
{
	inline_cache__drop(di);
}
