/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DEBUGINFO_INTERNAL_H
#define PRF_MODEL_DEBUGINFO_INTERNAL_H
/*
 * The per-DSO debuginfo state (debuginfo.h), shared by the files that
 * make it up, one job each, each with its part of struct debuginfo:
 *   debuginfo.c         the state: made on first use, its lock, the use
 *                       bits, the generation, teardown;
 *   debuginfo-file.c    the DSO's ELF image (build-id checked; [vdso])
 *                       and its PT_LOAD table, and the file its DWARF is
 *                       in: the image itself or a separate debug file (by
 *                       build-id path, or .gnu_debuglink with its CRC);
 *   debuginfo-cfi.c     CFI: .eh_frame, .debug_frame, the DSO's row cache;
 *   debuginfo-lines.c   line tables: CU ranges (.debug_aranges), a table
 *                       per CU, the kept tables (line-cache.h), srcline
 *                       strings;
 *   debuginfo-inline.c  inline scopes: function and scope indexes, the
 *                       chain at an address, the kept chains
 *                       (inline-cache.h);
 *   debuginfo-memo.c    the memos in front of those: dso__srcline() and
 *                       dso__inline_frames*() through per-thread memos
 *                       and the DSO's cache of inline chains.
 * Private to those files. Functions here expect di->lock held unless
 * they say otherwise.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include "debuginfo.h"
#include "debug-image.h"
#include "dwarf-die.h"
#include "dwarf-line.h"
#include "dso.h"
#include "../lib/util.h"

struct cfi_slot;
struct cu_funcs;
struct cu_range;
struct func_scopes;
struct inline_cache;
struct inline_slot;
struct intern;
struct line_cache;

/* ---- debuginfo-file.c ---- */

struct load_seg {
	uint64_t off, filesz, vaddr;
};

struct debuginfo_file {
	bool elf_tried, dwarf_tried;
	bool no_dwarf;		/* atomic: DWARF was looked for and there is none */
	/* the image */
	int fd;
	Elf *elf;
	char *image;		/* in-memory copy ([vdso]) */
	size_t image_size;
	struct load_seg *segs;
	size_t nr_segs;
	struct build_id bid;	/* of the image */
	/* the DWARF */
	int dbg_fd;
	Elf *dbg_elf;		/* separate debug file, or NULL */
	struct debug_image dbg_img;	/* dbg_elf's in-memory image, or zeroed */
	Dwarf *dwarf;
	char *debug_path;	/* "" own file */
	bool debug_file_known;	/* atomic: debug_path final (dso__debug_file()) */
};

/* ---- debuginfo-cfi.c ---- */

/* rows cached per DSO (direct mapped), 2^7 growing to 2^10 with use */
#define CFI_CACHE_MIN_BITS 7
#define CFI_CACHE_MAX_BITS 10

struct debuginfo_cfi {
	Dwarf_CFI *eh;		/* dwarf_getcfi_elf(elf), ours to end */
	Dwarf_CFI *dbg;		/* dwarf_getcfi(dwarf), owned by dwarf */
	bool eh_tried, dbg_tried;
	struct cfi_slot *slots;	/* the row cache */
	size_t nr_slots;	/* of slots */
	struct cache_size size;	/* the size it is to have */
};

/* ---- debuginfo-lines.c ---- */

struct line_table {
	struct line_row *rows;	/* sorted by address (line_row__cmp) */
	size_t n;
	const char *const *names;	/* the rows' file names, by index */
	size_t nr_names;
	const char **own_names;	/* names, when the table owns the array */
	bool mapped;		/* rows in kept line tables: not freed */
};

/* The file name of row i of t ("" for an index it lacks). */
static inline const char *line_table__file(const struct line_table *t, size_t i)
{
	return t->rows[i].file < t->nr_names ? t->names[t->rows[i].file] : "";
}

struct cu_lines {		/* one CU's line table, built on first use */
	struct cu_lines *next;
	Dwarf_Off cu_off;
	struct line_table t;
	struct dwarf_line_files files;	/* its file table (t's file names) */
	bool to_keep;		/* read from its line program: keep it */
};

#define CU_LINES_BUCKETS 256

struct debuginfo_lines {
	/* line index: per CU (found by address range), and of the whole
	 * DSO for addresses outside every CU range */
	bool lines_tried;
	struct cu_range *cu_ranges;
	size_t nr_cu_ranges;
	bool cu_ranges_tried;
	/* PLT sections of the image: never in a line table */
	struct { uint64_t lo, hi; } plt[4];
	unsigned int nr_plt;
	bool plt_tried;
	struct cu_lines *cu_lines[CU_LINES_BUCKETS];
	/* line tables kept between runs (line-cache.h), of the file the
	 * DWARF came from (lcache_path, identity lcache_st) */
	struct line_cache *lcache;
	char *lcache_path;
	struct stat lcache_st;
	bool lcache_tried, lcache_new;	/* lcache_new: a cu_lines to keep */
	bool lines_keep;		/* lines read from line programs: keep */
	struct line_table lines;
	struct dwarf_line_files *lines_files;	/* the file tables of lines */
	size_t nr_lines_files;
	struct dwarf_line_secs line_secs;	/* for prf's line program reader */
	bool line_secs_tried;
	struct intern **interned;	/* hash of srcline strings, or NULL */
	size_t intern_mask, nr_interned;
};

/* ---- debuginfo-inline.c ---- */

#define FUNC_SCOPES_BUCKETS 1024

struct debuginfo_inline {
	/* inline chains kept between runs (inline-cache.h), of the file
	 * the line tables are kept for; the chains worked out from the
	 * DWARF this run, to keep (their strings are libdw's and the line
	 * tables': kept before those go) */
	struct inline_cache *icache;
	bool icache_tried;
	struct inline_facts *ic_new;
	size_t nr_ic_new, ic_new_alloc;
	struct dwarf_die_secs die_secs;		/* for prf's DIE walker */
	bool die_secs_tried;
	/* per-CU function index, per-function scope index */
	struct cu_funcs *cus;
	size_t nr_cus;
	struct func_scopes *func_scopes[FUNC_SCOPES_BUCKETS];
};

/* ---- debuginfo-memo.c ---- */

/* addresses cached per DSO (direct mapped), 2^9 growing to 2^12 with use */
#define INLINE_CACHE_MIN_BITS 9
#define INLINE_CACHE_MAX_BITS 12

struct debuginfo_memo {
	struct inline_slot *slots;	/* the inline chain cache */
	size_t nr_slots;		/* of slots */
	struct cache_size size;		/* the size it is to have */
};

/* ---- debuginfo.c ---- */

struct debuginfo {
	pthread_mutex_t lock;
	struct dso *dso;
	struct debuginfo_file file;
	struct debuginfo_cfi cfi;
	struct debuginfo_lines line;
	struct debuginfo_inline inl;
	struct debuginfo_memo memo;
};

extern unsigned int debuginfo_used;	/* DEBUGINFO_USED_*, atomic */

/* Note what a consumer asked for (debuginfo__usage()); no lock. */
static inline void debuginfo__note_use(unsigned int bits)
{
	if ((__atomic_load_n(&debuginfo_used, __ATOMIC_RELAXED) & bits) != bits)
		__atomic_fetch_or(&debuginfo_used, bits, __ATOMIC_RELAXED);
}

/* Was DWARF looked for in this DSO and not found? (No lock needed.) */
static inline bool debuginfo__none(struct debuginfo *di)
{
	return __atomic_load_n(&di->file.no_dwarf, __ATOMIC_ACQUIRE);
}

/*
 * Binary search in base[0..n) (stride bytes per element, each starting
 * with its uint64_t sort key, ascending): the number of leading elements
 * whose key is <= key (the one before it, if any, is the last such).
 */
static inline size_t upper_bound_u64(const void *base, size_t n, size_t stride, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, (const char *)base + mid * stride, sizeof(k));
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Sort n elements of size bytes (at most 32) that start with a uint64_t
 * key (the cu_range, func_range and scope_range arrays, by lo), stable,
 * as qsort() with a compare of that key orders them here (glibc's is a
 * stable merge sort): insertion for a few, else radix_sort() of (key,
 * index) and one permutation, instead of qsort()'s n log n calls of a
 * compare function. Falls back to qsort() without memory.
 */
void sort_by_u64_key(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* debuginfo-file.c: open the DSO's DWARF (its own or a separate debug
 * file) if not yet tried; 0 or -ENOENT. */
int debuginfo__load_dwarf(struct debuginfo *di);
/* debug_image__ensure() on the DSO's debug image, saying (-vv) when a
 * section inflated on demand has become whole. */
int debuginfo__ensure(struct debuginfo *di, enum debug_lazy_sec sec, uint64_t end);
/* Free the image and DWARF state (teardown, last). */
void debuginfo__file_free(struct debuginfo *di);

/* debuginfo-cfi.c: free the row cache and .eh_frame's CFI (teardown). */
void debuginfo__cfi_free(struct debuginfo *di);

/* debuginfo-lines.c */
/* The line table and row for addr (the CU's table, else the one of the
 * units without CU ranges): row index, or -1 with no line info. */
long debuginfo__find_line(struct debuginfo *di, uint64_t addr, struct line_table **tp);
/* DIE offset of the CU whose ranges hold addr, its unit readable, or false. */
bool debuginfo__addr_cu(struct debuginfo *di, uint64_t addr, Dwarf_Off *cu_off);
/* The line and file tables of the CU at cu_off, built on first use
 * (t.n 0: no rows); NULL: no memory. */
struct cu_lines *debuginfo__cu_lines(struct debuginfo *di, Dwarf_Off cu_off);
/* "base:line" for (file, line), interned in the DSO; NULL: no memory. */
const char *debuginfo__intern(struct debuginfo *di, const char *file, unsigned int line);
/* The kept line tables of the DWARF's file, mapped on first use (and
 * di->line.lcache_path, lcache_st found); NULL when none. */
struct line_cache *debuginfo__line_cache(struct debuginfo *di);
/* Keep this run's line tables for the next runs (teardown, first). */
void debuginfo__keep_lines(struct debuginfo *di);
/* Free the line tables, CU ranges and srcline strings (teardown). */
void debuginfo__lines_free(struct debuginfo *di);

/* debuginfo-inline.c */
/* The inline chain at addr into a malloc'd frames array (see
 * debuginfo-inline.c); the number of frames (0: no inlined level) or
 * -ENOMEM. */
int debuginfo__inline_chain(struct debuginfo *di, uint64_t addr, bool positions,
			    struct inline_frame **out);
/* The kept inline chains of the DWARF's file, mapped on first use; NULL
 * when none. */
struct inline_cache *debuginfo__inline_cache(struct debuginfo *di);
/* Free the function and scope indexes (teardown). */
void debuginfo__inline_free(struct debuginfo *di);
/* Keep this run's inline chains for the next runs and unmap the kept
 * ones (teardown, after debuginfo__keep_lines(), before the line tables
 * and the DWARF go). */
void debuginfo__keep_inline(struct debuginfo *di);

/* debuginfo-memo.c: free the DSO's inline chain cache (teardown). */
void debuginfo__memo_free(struct debuginfo *di);

#endif
