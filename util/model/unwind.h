/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_UNWIND_H
#define PRF_MODEL_UNWIND_H
/*
 * DWARF unwinding of user stacks from PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER samples (perf_event_open(2): "sample_regs_user",
 * "sample_stack_user"), in process: CFI from .eh_frame/.eh_frame_hdr and
 * .debug_frame (also of separate debug files) via libdw, state cached per
 * DSO (util/model/debuginfo.h), memory read only from the captured stack
 * copy and from the mapped files. Register tables: arch/<arch>/unwind-regs.h.
 *
 * Threads: unwind__get_entries() keeps no state of its own between calls;
 * per-DSO state is guarded by a per-DSO lock that is never held while
 * another DSO's is taken, so concurrent calls (one per worker, each its own
 * sample) are safe as long as the address-space lookup (thread maps) is.
 */
#include <stdbool.h>
#include <stdint.h>

struct map;
struct symbol;
struct thread;
struct dso;
struct perf_sample;
struct regs_dump;
struct stack_dump;

struct unwind_entry {
	struct map *map;	/* NULL: ip is in no known map */
	struct symbol *sym;	/* NULL: no symbol */
	uint64_t ip;		/* innermost: sampled pc; callers: return address - 1
				 * (inside the call), as perf reports them */
	bool truncated;		/* last frame: the stack copy ended before the
				 * outermost frame was reached */
};

typedef int (*unwind_entry_cb_t)(struct unwind_entry *entry, void *arg);

/*
 * Unwind the user stack of sample in thread's address space; calls cb for
 * each frame, innermost first, up to max_stack frames; 0 or -errno.
 * -ENOENT: the sample has no user registers (e.g. kernel thread) or no
 * stack copy; -ENOTSUP: no register table for this architecture. A
 * non-zero return of cb stops the walk and is returned.
 */
int unwind__get_entries(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			struct perf_sample *data, int max_stack);

/* ---- the address-space adapter (for tests and other callers) ---- */

/* What the unwinder needs to know about the map holding an address. */
struct unwind_map {
	struct map *map;	/* passed through to unwind_entry (may be NULL) */
	struct symbol *sym;	/* passed through to unwind_entry (may be NULL) */
	struct dso *dso;	/* NULL: anonymous memory, no CFI */
	uint64_t start, end;	/* [start, end) virtual addresses */
	uint64_t pgoff;		/* file offset of start, bytes */
};

/* Find the map containing addr: 0 and *m filled, or -ENOENT. */
typedef int (*unwind_find_map_t)(void *space, uint64_t addr, struct unwind_map *m);

/*
 * Core of unwind__get_entries() over any address space: regs and stack as
 * decoded from the sample (event.h regs_dump/stack_dump), maps through
 * find. Same return values.
 */
int unwind__get_entries_space(unwind_entry_cb_t cb, void *arg, unwind_find_map_t find,
			      void *space, const struct regs_dump *regs,
			      const struct stack_dump *stack, int max_stack);

/* sample_regs_user mask the host architecture needs for unwinding
 * (bits: asm/perf_regs.h), 0 when unsupported. */
uint64_t unwind__sample_regs_mask(void);

#endif
