/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_CALLCHAIN_H
#define PRF_MODEL_CALLCHAIN_H
/*
 * The one resolver: turn a sample into a resolved callchain (callee first),
 * from PERF_SAMPLE_CALLCHAIN (frame pointers; PERF_CONTEXT_* markers set
 * the cpumode of following entries) or from REGS_USER+STACK_USER (DWARF
 * unwinding, util/model/unwind.h), kernel part joined with the user part,
 * each frame with map, symbol and, when asked, inlined frames and srcline.
 * report, script and every exporter use this, never their own walk.
 */
#include <stdbool.h>
#include <stdint.h>
#include "machine.h"

struct evsel;
struct callchain_cache;
struct unwind_batch;

struct callchain_frame {
	uint64_t ip;		/* virtual address as sampled */
	struct map *map;
	struct symbol *sym;
	uint64_t addr;		/* DSO address space (for sym+off) */
	uint8_t cpumode;
	bool inlined;		/* synthetic frame of an inlined call (sym is an
				   interned inlined symbol, util/model/inline-sym.h,
				   same ip as the real frame that follows it) */
	bool truncated;		/* marker: DWARF stack copy ended here (the last
				   frame of a truncated cursor; ip ~0 (where perf
				   6.1 prints an unknown frame), addr 0, no map,
				   sym = callchain__truncated_sym()) */
	const char *srcline;	/* "file.c:123" when resolved, else NULL (cached, not owned);
				   for inline-expanded frames the position within
				   that function (call site of the inner one) */
};

struct callchain_cursor {
	struct callchain_frame *frames;
	unsigned int nr, alloc;
	bool truncated;		/* the user stack copy ran out */
	bool discarded;		/* the callchain held an unknown PERF_CONTEXT_*
				   marker: dropped whole (nr = 0), as perf does */
	/* cumulative over every sample resolved into this cursor (not reset
	 * per sample; zeroed by callchain_cursor__init): */
	uint64_t nr_unwound;	/* samples whose user part was DWARF-unwound */
	uint64_t nr_truncated;	/* of those, ended by a truncated stack copy */
	/* Identity of the resolved chain, set by sample__resolve_callchain()
	 * when the cursor has a cache (callchain_cursor__enable_cache()):
	 * two samples with the same nonzero chain_id have the very same
	 * frames (same map, symbol, addresses, cpumodes, srclines), so
	 * consumers may memoize per chain_id (hists and script's printer
	 * do). 0: no identity (no cache, a chain met the first time,
	 * resolved ahead by unwinding workers, or through DSOs whose symbols
	 * may change). Ids are never reused within one cache. */
	uint64_t chain_id;
	struct callchain_cache *cache;	/* private, NULL: none */
};

struct resolve_opts {
	unsigned int max_stack;	/* frames kept (default 127); for DWARF stacks the
				   unwound frames, inline frames come on top (perf) */
	bool inline_frames;	/* expand DWARF-unwound user frames whose DSO has
				   debug info with their inlined calls (perf 6.1
				   does so only for DWARF callchains) */
	bool srcline;		/* fill frame->srcline (dso__srcline(), cached) */
	bool hide_unresolved;
};

/* The static symbol named "[truncated]" that truncated marker frames carry
 * (no DSO, range [0, 0)); never freed. */
struct symbol *callchain__truncated_sym(void);

void callchain_cursor__init(struct callchain_cursor *c);
/* Frees the frames and the cache, if any. */
void callchain_cursor__exit(struct callchain_cursor *c);

/*
 * Give the cursor a resolution cache: sample__resolve_callchain() then
 * remembers the resolved frames per raw chain, and a later sample with
 * the same raw chain gets them instead of resolving them again, with
 * cursor->chain_id set. The raw chain: for PERF_SAMPLE_CALLCHAIN
 * samples the address array; for DWARF samples (REGS_USER+STACK_USER)
 * the callchain's entries plus the addresses the walk unwound (the walk
 * itself runs for every sample: its stack copy differs), so that the
 * symbols, inline frames and srclines of a repeated stack are resolved
 * once. Also part of the key: sample cpumode, the thread's maps and
 * machine, the resolve opts. A chain is stored the second time it is
 * resolved (chain_id stays 0 the first time): in big profiles most
 * chains occur once, and storing those only cost copies and evicted
 * chains that repeat. An entry is used only while maps__generation
 * (util/model/maps.h) and debuginfo__generation() are unchanged and only
 * for chains whose frames lie in no map or in ELF user DSOs / the kernel
 * (whose symbols are fixed once loaded). Not with hide_unresolved on
 * DWARF samples; with $PRF_NO_CHAIN_CACHE set, no cache is made (for
 * comparison).
 * Bounded memory: 16384 direct-mapped slots (256 KB, made at the first
 * chain that may be cached), each replaced on collision and holding one
 * chain (8 bytes per address + 48 per frame: ~2.7 KB for a 25-frame
 * DWARF chain with its inline frames), at most 32 MB of entries in all.
 * On a hit the cursor's frames point into the cache entry (valid until
 * the next sample__resolve_callchain() or callchain_cursor__append() on
 * it; treat them as read-only). The unwinding workers' resolution ahead
 * (unwind.h) does not go through it. Not thread-safe: one cursor per
 * thread, as cursors are. 0 or -ENOMEM.
 */
int callchain_cursor__enable_cache(struct callchain_cursor *c);

/* Append one frame (grows the array; no per-sample malloc once grown).
 * 0 or -ENOMEM. */
int callchain_cursor__append(struct callchain_cursor *c, const struct callchain_frame *f);

/* Make dst (a cursor without a cache) hold src's resolved chain: its own
 * copy of the frames (src's may be lent by its cache), nr, the truncated
 * and discarded marks and chain_id. The cumulative counters are left as
 * they are. 0 or -ENOMEM (dst unchanged). */
int callchain_cursor__copy(struct callchain_cursor *dst, const struct callchain_cursor *src);

/* DWARF unwinding: unwind__get_entries() of util/model/unwind.h. */

/*
 * Fill cursor for sample (reset first). Without a callchain the cursor
 * holds the sample ip alone. PERF_SAMPLE_CALLCHAIN entries are taken
 * as the kernel wrote them (the first is the sample ip), PERF_CONTEXT_*
 * markers switching the cpumode of the following entries; at most
 * opts->max_stack frames (0: 127) are kept; hide_unresolved drops frames
 * without a symbol. With REGS_USER+STACK_USER in the evsel's sample_type
 * and a non-empty stack copy, the user part comes from unwind__get_entries()
 * after the kernel part of the callchain. opts may be NULL (defaults).
 * A callchain with an unknown context marker (a value >= PERF_CONTEXT_MAX
 * that is none of PERF_CONTEXT_HV/KERNEL/USER/GUEST*) is treated as
 * corrupt, as perf 6.1 does: nr = 0 and discarded = true (report still
 * counts the sample at its ip; script prints no frames).
 * DWARF: when the stack copy ended before the outermost frame, the last
 * real frame is followed by a marker frame (truncated = true) and
 * cursor->truncated is set; opts->inline_frames puts the inlined calls of
 * each unwound user frame (dso__inline_frames(), innermost first) before
 * it at the same ip, each with an interned inlined symbol
 * (dso__inline_sym(), range of the real symbol, as perf 6.1's
 * "func (inlined)"), and their srclines when opts->srcline.
 * ahead: the batch (unwind.h) the session ran for the samples being
 * delivered, NULL when none: a DWARF sample its workers resolved ahead
 * is taken from there (same frames), and the batch's workers are given
 * this resolution as their job for its next runs.
 * Returns 0 or -errno (-ENOMEM).
 */
int sample__resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			      struct thread *thread, const struct resolve_opts *opts,
			      struct unwind_batch *ahead, struct callchain_cursor *cursor);

/*
 * The sample's own location (machine__resolve()'s answer) from a cursor
 * sample__resolve_callchain() just filled for it: when its first frame is
 * the sample ip resolved in the sample's user or kernel cpumode (a real
 * frame: not an inlined level nor a marker), *al gets that frame's map,
 * symbol and address as thread__find_symbol(thread, sample->cpumode,
 * sample->ip) gives them (the frame was resolved by that very lookup),
 * and true is returned; else false and *al is untouched. Saves report
 * its second lookup of the sample ip.
 */
bool callchain_cursor__sample_location(const struct callchain_cursor *c,
				       const struct perf_sample *sample, struct thread *thread,
				       struct addr_location *al);

/*
 * The srcline to print for a frame, as perf 6.1 does: frame->srcline when
 * resolved; else "??:0" when the DSO has DWARF (no line for the address)
 * or the frame has no DSO; else, for DSOs without line info (e.g. the
 * kernel without vmlinux), "sym+OFFSET" (decimal) when with_sym and the
 * frame has a symbol (perf's srcline sort key), or "DSO[hexaddr]"
 * (perf script -F srcline). The string is interned per DSO (never freed
 * by the caller). Never NULL.
 */
const char *callchain_frame__srcline(const struct callchain_frame *f, bool with_sym);

#endif
