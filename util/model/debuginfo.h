/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DEBUGINFO_H
#define PRF_MODEL_DEBUGINFO_H
/*
 * Per-DSO debug information via libelf/libdw, loaded lazily once per DSO
 * and hung on dso->debuginfo (never per sample or per process):
 *
 *  - the ELF image (file on disk, build-id checked; [vdso] from this
 *    process's vDSO or ~/.debug/[vdso]/<build-id>/vdso) and its PT_LOAD
 *    table (file offset <-> link-time virtual address);
 *  - CFI: .eh_frame (+ .eh_frame_hdr index) of the image, and .debug_frame
 *    of the image or of its separate debug file, with a per-DSO cache of
 *    evaluated CFI rows (used by util/model/unwind.c);
 *  - DWARF (the image's own or a separate debug file found by
 *    /usr/lib/debug/.build-id/xx/yyyy.debug or .gnu_debuglink, CRC checked);
 *  - a line table index (every row of every CU's .debug_line, sorted by
 *    address) for srcline lookups by binary search, never addr2line;
 *  - inline frames from DW_TAG_inlined_subroutine scopes.
 *
 * Addresses ("DSO address space") are link-time virtual addresses, the
 * ELF st_value space that util/model/dso.h symbols use.
 *
 * Threads: every entry point takes the DSO's own mutex, so different
 * threads may query the same or different DSOs concurrently (libdw's
 * lazily filled caches are not thread-safe, hence the lock). Strings
 * returned live until dso__debuginfo_delete().
 */
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct dso;
struct debuginfo;

/*
 * perf report --full-source-path: srclines ("t.c:12") name the file by
 * its full path as the line table has it ("/src/t.c:12") instead of the
 * basename. Process-wide, as perf's; set it before any srcline is made
 * (strings already made keep their form).
 */
void debuginfo__set_full_paths(bool full);

/* srcline of addr as perf prints it ("t.c:12", basename of the file);
 * NULL when the DSO has no line info for addr. Cached; owned by the DSO. */
const char *dso__srcline(struct dso *dso, uint64_t addr);

/* Full path and line of addr from the line table, and (disc not NULL)
 * its discriminator (0: none; dwarf-line.h). 0, or -ENOENT (no line
 * info), -ENOMEM. *file is owned by the DSO's libdw state. */
int dso__srcline_full(struct dso *dso, uint64_t addr, const char **file, unsigned int *line,
		      unsigned int *disc);

/* One level of the inline chain at an address. */
struct inline_frame {
	const char *func;	/* DW_AT_name of the (abstract origin) function */
	const char *file;	/* full path of the source position, or NULL */
	unsigned int line;	/* 0: unknown */
	const char *srcline;	/* "file.c:NN" (basename), interned, or NULL */
	bool inlined;		/* false for the outermost, real function */
	struct symbol *sym;	/* inlined: the DSO's interned inlined symbol
				 * (inline-sym.h) of func over the range of
				 * the ELF symbol at the address; else NULL */
};
typedef int (*inline_frame_cb_t)(const struct inline_frame *frame, void *arg);

/*
 * Report the inline chain at addr, innermost first: each
 * DW_TAG_inlined_subroutine scope containing addr (its source position is
 * the line table's for the innermost one, else the DW_AT_call_file/
 * call_line of the next inner inline), then the containing
 * DW_TAG_subprogram (position = call site of the outermost inline).
 * inlined tells how perf 6.1 shows the level: true = a new "(inlined)"
 * symbol named func, false = the address's ELF symbol itself (an inlined
 * level whose name is the ELF symbol's; the outermost level unless its
 * DWARF name differs from the ELF symbol's, e.g. a foo.constprop.0 clone
 * of foo, and it has no linkage name). cb is called when there is at
 * least one inlined level or the outermost level is renamed so; a
 * non-zero return from cb stops the walk and is returned. Returns the
 * levels beyond the frame itself (1 for a renamed frame without inlined
 * levels; 0: nothing to show or no DWARF), or -errno.
 */
int dso__inline_frames(struct dso *dso, uint64_t addr, inline_frame_cb_t cb, void *arg);

/* dso__inline_frames() flags */
#define INLINE_F_NO_POSITIONS	(1U << 0)	/* file, line, srcline left NULL/0 */

/*
 * dso__inline_frames() with flags. INLINE_F_NO_POSITIONS: the caller
 * needs the names only (no srclines): the CU's line program is not
 * parsed for them, which is most of the cost of a first lookup in a big
 * CU. Same results and return values otherwise. With cb NULL it only
 * fills the DSO's cache (e.g. ahead, on a worker thread).
 */
int dso__inline_frames_flags(struct dso *dso, uint64_t addr, unsigned int flags,
			     inline_frame_cb_t cb, void *arg);

/* Free the DSO's debuginfo state (the model's dso destructor calls it);
 * safe on a DSO that never loaded any. */
void dso__debuginfo_delete(struct dso *dso);

/* Path of the separate debug file used for the DSO ("" when the DSO's own
 * file holds the DWARF, NULL when there is none). Owned by the DSO. */
const char *dso__debug_file(struct dso *dso);

/*
 * What consumers have asked of the debuginfo so far in this process
 * (bits, sticky): DEBUGINFO_USED_INLINE (dso__inline_frames*() with a
 * callback), DEBUGINFO_USED_POSITIONS (... with positions),
 * DEBUGINFO_USED_SRCLINE (dso__srcline*()). The parallel unwinder fills
 * only those caches ahead (util/model/unwind-parallel.c).
 */
#define DEBUGINFO_USED_INLINE		(1U << 0)
#define DEBUGINFO_USED_POSITIONS	(1U << 1)
#define DEBUGINFO_USED_SRCLINE		(1U << 2)
unsigned int debuginfo__usage(void);

/* ---- for the unwinder (util/model/unwind.c) ---- */

/* The DSO's state, created on first use (thread-safe). NULL on ENOMEM. */
struct debuginfo *dso__debuginfo(struct dso *dso);
void debuginfo__lock(struct debuginfo *di);
void debuginfo__unlock(struct debuginfo *di);
/* Load the ELF image if not yet tried. Caller holds the lock. 0 or -errno
 * (-ENOENT: no usable file, e.g. build-id mismatch or anon memory). */
int debuginfo__load_elf(struct debuginfo *di);
/* File offset -> link-time vaddr via PT_LOAD. Caller holds the lock and
 * loaded the ELF. 0 or -ENOENT when no segment maps that offset. */
int debuginfo__offset_to_vaddr(struct debuginfo *di, uint64_t off, uint64_t *vaddr);
/* Copy len bytes at file offset off of the image. Caller holds the lock.
 * 0 or -EFAULT when out of the file. */
int debuginfo__read(struct debuginfo *di, uint64_t off, void *buf, size_t len);
/*
 * CFI frame state (libdw Dwarf_Frame) for vaddr, from .eh_frame first and
 * .debug_frame second, cached per DSO. Caller holds the lock; the frame
 * stays valid until the lock is released. NULL when no CFI covers vaddr.
 * When priv is non-NULL, *priv points at the cache slot's private pointer
 * (NULL for a new row): the caller may store a malloc'd decoded form of
 * the row there; it is freed with the row. *start and *end (when non-NULL)
 * get the vaddr range [start, end) the row applies to.
 */
void *debuginfo__cfi_frame(struct debuginfo *di, uint64_t vaddr, void ***priv,
			   uint64_t *start, uint64_t *end);
/* The same frame state computed anew, past the cache (for tests that check
 * the cache). Caller holds the lock and free()s the result; NULL: no CFI. */
void *debuginfo__cfi_frame_uncached(struct debuginfo *di, uint64_t vaddr);
/*
 * Generation of the DSOs' debug state: bumped each time one is freed
 * (dso__debuginfo_delete), so per-thread memos keyed by DSO pointer can
 * tell a reused pointer from the DSO they saw. Relaxed atomic read;
 * inline, as the memos ask at every frame.
 */
extern unsigned int debuginfo_gen;	/* read it through debuginfo__generation() */
static inline unsigned int debuginfo__generation(void)
{
	return __atomic_load_n(&debuginfo_gen, __ATOMIC_RELAXED);
}

#endif
