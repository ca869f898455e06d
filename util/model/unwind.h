/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_UNWIND_H
#define PRF_MODEL_UNWIND_H
/*
 * DWARF unwinding of user stacks from PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER samples (perf_event_open(2): "sample_regs_user",
 * "sample_stack_user"), in process: CFI from .eh_frame/.eh_frame_hdr and
 * .debug_frame (also of separate debug files) via libdw, state cached per
 * DSO (util/model/debuginfo.h), memory read only from the captured stack
 * copy and from the mapped files. Where no CFI covers a pc, the caller
 * comes from the frame-pointer record (as libunwind and libdw do); a
 * sample whose copy is empty (dyn_size 0) has no user frames, as in perf.
 * Register tables: arch/<arch>/unwind-regs.h.
 *
 * Threads: the walk keeps no state of its own between calls; per-DSO
 * state is guarded by a per-DSO lock that is never held while another
 * DSO's is taken, so concurrent walks (one per worker, each its own
 * sample) are safe as long as the address-space lookup (thread maps) is
 * and nothing changes the maps meanwhile. unwind__get_entries() first
 * replays the calling thread's prepared batch (parallel unwinding, below).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct map;
struct symbol;
struct thread;
struct dso;
struct perf_sample;
struct regs_dump;
struct stack_dump;
struct evsel;

struct unwind_entry {
	struct map *map;	/* NULL: ip is in no known map */
	struct symbol *sym;	/* NULL: no symbol */
	uint64_t ip;		/* innermost: sampled pc; callers: return address - 1
				 * (inside the call), as perf reports them */
	bool truncated;		/* last frame: the stack copy ended before the
				 * outermost frame was reached */
	bool sym_known;		/* sym is map's DSO's symbol at ip, NULL meaning
				 * none there (no second lookup needed) */
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

/*
 * unwind__get_entries() for a consumer that needs only the entries' maps
 * and addresses: entries may come with sym_known false (no symbol looked
 * up), which lets a frame in the same map as the one before skip the
 * address-space lookup (9% of a walk). Same frames otherwise.
 */
int unwind__get_entries_nosym(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			      struct perf_sample *data, int max_stack);

/* ---- the address-space adapter (for tests and other callers) ---- */

/* What the unwinder needs to know about the map holding an address. */
struct unwind_map {
	struct map *map;	/* passed through to unwind_entry (may be NULL) */
	struct symbol *sym;	/* passed through to unwind_entry (may be NULL) */
	bool sym_known;		/* passed through: sym was looked up */
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

/*
 * unwind__get_entries_space() plus FP mixing: fp_ips[0..nr_fp) is the
 * kernel's frame-pointer walk of the same stack ([0] = the sampled pc,
 * then return addresses, as the user part of PERF_SAMPLE_CALLCHAIN).
 * When the DWARF walk ends truncated at depth d and fp_ips[d] is the pc
 * of that frame (both walks agree there), the frames beyond come from
 * fp_ips (as return address - 1) and the truncated mark moves to the last
 * of them only when fp_capped (the kernel's depth limit may have cut the
 * FP chain). No agreement: no mixing, the frame stays marked truncated.
 */
int unwind__get_entries_space_fp(unwind_entry_cb_t cb, void *arg, unwind_find_map_t find,
				 void *space, const struct regs_dump *regs,
				 const struct stack_dump *stack, const uint64_t *fp_ips,
				 size_t nr_fp, bool fp_capped, int max_stack);

/* Callchain entries (context markers included) at which the kernel's
 * default kernel.perf_event_max_stack stops a callchain. */
#define UNWIND_FP_MAX_STACK 127

/*
 * For tests: the CFI row the unwinder applies at file offset off of dso,
 * as text (CFA rule, return address column, then per register
 * "reg:kind/nops+offset"), into buf of size bytes. With fresh false it
 * comes through the per-thread row memo and the DSO's CFI cache as a step
 * would get it (and may fill them); with fresh true it is computed anew
 * from libdw, past both.
 * 0, -ENOENT (no CFI covers off) or -ENOTSUP (no unwinder for the host).
 */
int unwind__row_text(struct dso *dso, uint64_t off, bool fresh, char *buf, size_t size);

/* sample_regs_user mask the host architecture needs for unwinding
 * (bits: asm/perf_regs.h), 0 when unsupported. */
uint64_t unwind__sample_regs_mask(void);

/* ---- parallel unwinding (util/model/unwind-parallel.c) ----
 *
 * The session (util/session/session.c) hands runs of consecutive samples
 * (no side-band record between them, so every address space is fixed
 * during the run) to unwind_batch__run(), which lets worker threads
 * unwind them into raw frames while the caller goes on delivering; the
 * serial delivery calls unwind__get_entries() as before, which replays a
 * prepared sample's frames, or walks the sample itself when no worker has
 * got to it yet (same frames, same order: output is identical to
 * single-threaded unwinding). Only the thread that ran the batch sees its
 * results. The workers also fill the DWARF caches (inline chains,
 * srclines) for the frames they unwound, as far as the consumer has
 * asked for them (debuginfo__usage()).
 */
struct unwind_batch;

/*
 * Worker threads to use: $PRF_UNWIND_THREADS when set (1 = parallel
 * unwinding off), else 1 with at most 2 CPUs to run on (cpus_usable():
 * it does not pay there, see unwind-parallel.c), else those CPUs not kept
 * busy by other work (minus the rounded 1-minute load average of
 * /proc/loadavg), at least 1, at most 16.
 */
int unwind__parallel_threads(void);
/* New empty batch for up to cap samples; NULL on ENOMEM. */
struct unwind_batch *unwind_batch__new(size_t cap);
/* Drop all prepared samples (their replay is no longer offered); waits
 * until no worker touches the batch or its samples any more. */
void unwind_batch__clear(struct unwind_batch *b);
/* Queue a sample of thread and evsel (borrowed; all must stay valid and
 * unchanged until unwind_batch__clear()); 0, or -ENOSPC when the batch is
 * full, -EBUSY when it runs (clear it first). */
int unwind_batch__add(struct unwind_batch *b, struct thread *thread, struct evsel *evsel,
		      const struct perf_sample *sample);
/* Samples queued. */
size_t unwind_batch__nr(const struct unwind_batch *b);
/*
 * Whole-sample work ahead. A consumer that turns each unwound sample into
 * more (util/model/callchain.c: the callchain with symbols, inline frames
 * and srclines) registers a job; the workers then run it per queued
 * sample instead of the bare walk, and its result waits in the sample's
 * slot until the delivering thread takes it (unwind__ahead_take()): most
 * of a sample's work moves to the workers, not just the bare walk (about
 * a fifth of it). When workers pay: unwind__parallel_threads().
 */
struct unwind_ahead {
	/* Resolve sample into *slot (the job allocates it on first use; it
	 * stays with the batch position across runs, freed by free_slot).
	 * Runs on workers and on the delivering thread, concurrently; its
	 * walks never replay. key: what to compute (opaque here). */
	void (*job)(uint64_t key, struct thread *thread, struct perf_sample *sample,
		    struct evsel *evsel, void **slot);
	void (*free_slot)(void *slot);
	uint64_t key;
};
/* Register (copied; NULL: off) the job b's workers run from its next
 * unwind_batch__run() on. */
void unwind_batch__set_ahead(struct unwind_batch *b, const struct unwind_ahead *ahead);
/*
 * On the thread that ran batch b (NULL: none): the slot the job filled
 * for this sample of thread under key, waiting while it is being resolved
 * (and meanwhile resolving queued samples from the batch's end itself);
 * NULL when the caller must resolve the sample itself (not queued, another
 * key, or no one had started it: it is then marked taken).
 */
void *unwind_batch__ahead_take(struct unwind_batch *b, struct thread *thread,
			       const struct perf_sample *sample, uint64_t key);

/* Start unwinding the queued samples on nthreads - 1 worker threads and
 * return at once; unwind__get_entries() on the calling thread replays
 * them (or walks those no worker has started) until unwind_batch__clear().
 * When the workers did less than a quarter of the last run's walks (no
 * idle CPU for them), the next runs are left to the calling thread.
 * Nothing in the model may change until unwind_batch__clear(). 0. */
int unwind_batch__run(struct unwind_batch *b, int nthreads);
/* Samples prepared and replayed so far (to tell whether it pays). */
void unwind_batch__stats(const struct unwind_batch *b, uint64_t *prepared, uint64_t *replayed);
/* Clear, stop the worker threads and free. NULL is fine. */
void unwind_batch__delete(struct unwind_batch *b);

/* ---- internal (unwind.c <-> unwind-parallel.c) ---- */
/* The walk of unwind__get_entries() without replay. */
int unwind__walk_sample(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			const struct perf_sample *data, int max_stack);
/* Replay a prepared sample: true and *ret set when data was prepared for
 * thread with enough depth, false otherwise (caller walks). */
bool unwind__replay(unwind_entry_cb_t cb, void *arg, struct thread *thread,
		    const struct perf_sample *data, int max_stack, int *ret);

#endif
