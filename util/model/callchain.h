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

struct callchain_frame {
	uint64_t ip;		/* virtual address as sampled */
	struct map *map;
	struct symbol *sym;
	uint64_t addr;		/* DSO address space (for sym+off) */
	uint8_t cpumode;
	bool inlined;		/* synthetic frame of an inlined call */
	bool truncated;		/* marker: DWARF stack copy ended here */
	const char *srcline;	/* "file.c:123" when resolved, else NULL (cached, not owned) */
};

struct callchain_cursor {
	struct callchain_frame *frames;
	unsigned int nr, alloc;
	bool truncated;		/* the user stack copy ran out */
};

struct resolve_opts {
	unsigned int max_stack;	/* frames kept (default 127) */
	bool inline_frames;
	bool srcline;
	bool hide_unresolved;
};

void callchain_cursor__init(struct callchain_cursor *c);
void callchain_cursor__exit(struct callchain_cursor *c);

/*
 * Fill cursor for sample (reset first). Without a callchain the cursor
 * holds the sample ip alone. Returns 0 or -errno (-ENOMEM).
 */
int sample__resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			      struct thread *thread, const struct resolve_opts *opts,
			      struct callchain_cursor *cursor);

#endif
