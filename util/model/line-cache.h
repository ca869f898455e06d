/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_LINE_CACHE_H
#define PRF_MODEL_LINE_CACHE_H
/*
 * Line tables kept between runs: the sorted rows and file tables of the
 * compilation units a run looked source lines up in, per debug file, in
 * the debug cache (util/model/debug-cache.h, kind DEBUG_CACHE_LINES:
 * same directory, size limit, eviction and staleness rules as the debug
 * images). The next run reads a unit's table from there instead of
 * running its line program and sorting its rows, the bulk of a short
 * `script -F +srcline` on big LTO units (python3.11-dbg's).
 *
 * The file (host byte order; its trailer names the debug file and the
 * layout's magic, debug-cache.c's kinds[]):
 *   struct lc_header { uint32_t nr_units, pad; }
 *   struct lc_unit[nr_units], sorted by cu_off: the file offsets of
 *             the unit's rows and names, their counts, names_len
 *   per unit: nrows struct line_row (dwarf-line.h), sorted, 8-aligned:
 *             used in place, mapped; then its names: nnames
 *             NUL-terminated strings in names_len bytes, padded to 8
 * A unit whose entry does not fit the file, or whose names are not nnames
 * strings, is not used (-v says so): its line program is read again. A
 * row's file index past the names reads as "" (as LINE_FILE_NONE).
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "dwarf-line.h"

struct line_cache;

/*
 * Map the kept line tables of the debug file at path (identity: st, as
 * stat() gave it when its DWARF was opened). NULL when none are kept (or
 * no cache: $PRF_DEBUG_CACHE=0). Free with line_cache__close().
 */
struct line_cache *line_cache__open(const char *path, const struct stat *st);

/* The cu_off under which the table of all the units that no CU range
 * (.debug_aranges) lists is kept, as one unit (util/model/
 * debuginfo-lines.c: the table for addresses no CU range claims): no
 * unit DIE lies there. */
#define LINE_CACHE_UNLISTED UINT64_MAX

/*
 * The kept table of the unit whose DIE is at cu_off: its sorted rows
 * (line_row__cmp()), in the mapping, and its file table in *files (a
 * malloc'd array of pointers into the mapping, freed by
 * dwarf_line_files__free()): both valid until line_cache__close().
 * 0; -ENOENT: not kept; -EINVAL: its entry is damaged; -ENOMEM.
 */
int line_cache__get(struct line_cache *lc, uint64_t cu_off, const struct line_row **rows,
		    size_t *nrows, struct dwarf_line_files *files);

/* One unit's table to keep: rows sorted (line_row__cmp()), their file
 * indexes into files. */
struct line_cache_unit {
	uint64_t cu_off;
	const struct line_row *rows;
	size_t nrows;
	const struct dwarf_line_files *files;
};

/*
 * Keep the n units at units (any order, each cu_off once) and the units
 * of old (may be NULL) that are not among them, as the line tables of the
 * debug file at path (st as for line_cache__open()). Quiet on failure:
 * -v says why.
 */
void line_cache__store(const char *path, const struct stat *st, const struct line_cache *old,
		       const struct line_cache_unit *units, size_t n);

/* Unmap. NULL is fine. */
void line_cache__close(struct line_cache *lc);

#endif
