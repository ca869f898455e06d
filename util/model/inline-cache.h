/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_INLINE_CACHE_H
#define PRF_MODEL_INLINE_CACHE_H
/*
 * What the DWARF of a debug file says about the inline chain at an
 * address, kept between runs: per address a run looked an inline chain
 * up at, the names of the function and of the inlined calls at the
 * address, their call sites and the address's own line, in the debug
 * cache (util/model/debug-cache.h, kind DEBUG_CACHE_INLINE: same
 * directory, size limit, eviction and staleness rules as the debug
 * images). The next run reads the chain from there instead of building
 * the unit's function index and the function's inline scope index and
 * reading the DIEs, the bulk of a short `script -F +srcline` on big LTO
 * units (python3.11-dbg's).
 * Only the DWARF's facts are kept: how a level is shown (its ELF symbol,
 * "(inlined)") is decided at each run, against that run's symbols.
 *
 * The file (host byte order; its trailer names the debug file and the
 * layout's magic, debug-cache.c's kinds[]):
 *   struct ic_header { uint32_t nr, pad; uint64_t strings_off, strings_len; }
 *   struct ic_entry[nr], sorted by addr: { uint64_t addr, rec_off; }
 *   records, 4-aligned: struct ic_rec { uint32_t n, flags, file, line; }
 *             then n struct ic_level { uint32_t name, call_file, call_line; }
 *   strings: NUL-terminated; a string field is its offset there,
 *             IC_NONE for none.
 * A record that does not fit the file, or a string offset outside the
 * strings or without its NUL, is not used (-v says so): the chain is
 * worked out from the DWARF again.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct inline_cache;

/* One level of a chain, outermost (the DW_TAG_subprogram) first. */
struct inline_fact_level {
	const char *name;	/* levels > 0: a mangled DW_AT_linkage_name; else
				 * DW_AT_name, else DW_AT_linkage_name, else "??" */
	const char *call_file;	/* levels > 0 with positions: DW_AT_call_file's name */
	unsigned int call_line;	/* and DW_AT_call_line (0: none) */
};

/* The chain at addr. n 0: no function's code holds addr (no chain). */
struct inline_facts {
	uint64_t addr;
	unsigned int n;
	bool positions;		/* file/line and the call sites are filled */
	bool has_name0;		/* the outermost level has a DW_AT_name */
	bool has_linkage0;	/* ... a DW_AT_linkage_name or DW_AT_MIPS_linkage_name */
	const char *file;	/* positions: the line table's row at addr (NULL: none) */
	unsigned int line;
	struct inline_fact_level *levels;	/* n of them */
};

/* Most levels a kept chain has (more are not kept). */
#define INLINE_CACHE_MAX_LEVELS 64

/*
 * Map the kept chains of the debug file at path (identity: st, as stat()
 * gave it when its DWARF was opened). NULL when none are kept (or no
 * cache: $PRF_DEBUG_CACHE=0). Free with inline_cache__close().
 */
struct inline_cache *inline_cache__open(const char *path, const struct stat *st);

/*
 * The kept chain at addr into *f, its levels into levels[] (room for
 * INLINE_CACHE_MAX_LEVELS); its strings point into the mapping (valid
 * until inline_cache__close()). 0; -ENOENT: not kept; -EINVAL: its
 * record is damaged (-v says so).
 */
int inline_cache__get(struct inline_cache *ic, uint64_t addr, struct inline_facts *f,
		      struct inline_fact_level *levels);

/*
 * Keep the n chains at facts (any order, each addr once) and those of old
 * (may be NULL) at other addresses, as the chains of the debug file at
 * path (st as for inline_cache__open()). Quiet on failure: -v says why.
 */
void inline_cache__store(const char *path, const struct stat *st, struct inline_cache *old,
			 const struct inline_facts *facts, size_t n);

/* Unmap. NULL is fine. */
void inline_cache__close(struct inline_cache *ic);

#endif
