/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DWARF_LINE_H
#define PRF_MODEL_DWARF_LINE_H
/*
 * prf's own reader of one DWARF line number program (.debug_line, DWARF
 * 2 to 5, DWARF 5 standard section 6.2): its file table and its rows, in
 * program order, straight into the rows util/model/debuginfo-lines.c looks up.
 *
 * Why not libdw's dwarf_getsrclines(): for every row it builds a
 * Dwarf_Line, sorts all of them with qsort() and is then read back one
 * accessor call per field, and dwarf_getsrcfiles() runs the same whole
 * program for the file table alone, which dominates a `script -F
 * +srcline` on an LTO build (Debian's python3.11 with python3.11-dbg:
 * 10 K to 20 K rows a unit). The rows of a program come in sequences already
 * sorted by address, which the caller concatenates instead of sorting.
 *
 * What it does not read (vendor forms such as DW_FORM_strp_sup of dwz
 * files, DW_FORM_strx without .debug_str_offsets, a segment selector)
 * gives -EOPNOTSUPP: the caller then asks libdw.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libelf.h>

struct line_row {
	uint64_t addr;
	uint32_t file;		/* index into the program's file table (struct
				 * dwarf_line_files), or LINE_FILE_END/_NONE */
	uint32_t line;		/* the line (line_row__line()) in the low
				 * LINE_DISC_SHIFT bits, the discriminator
				 * (line_row__disc()) above */
};

#define LINE_FILE_END UINT32_MAX	/* the row ends a sequence */
#define LINE_FILE_NONE (UINT32_MAX - 1)	/* a file the table lacks ("") */

/*
 * A row's discriminator (DW_LNE_set_discriminator: which block of a line
 * the code is of) shares the line's 32 bits, so rows stay 16 bytes: lines
 * below 2^24, discriminators below 256 (a line beyond is no line, a
 * discriminator beyond is 0). Only annotate shows discriminators, as
 * objdump -l prints them.
 */
#define LINE_DISC_SHIFT 24

/* The packed line field of a row of line and discriminator disc. */
static inline uint32_t line_row__pack(uint64_t line, uint64_t disc)
{
	if (line >= (1u << LINE_DISC_SHIFT))
		return 0;
	return (uint32_t)line | (disc < (1u << (32 - LINE_DISC_SHIFT)) ?
				 (uint32_t)disc << LINE_DISC_SHIFT : 0);
}

static inline unsigned int line_row__line(const struct line_row *r)
{
	return r->line & ((1u << LINE_DISC_SHIFT) - 1);
}

static inline unsigned int line_row__disc(const struct line_row *r)
{
	return r->line >> LINE_DISC_SHIFT;
}

static inline bool line_row__end(const struct line_row *r)
{
	return r->file == LINE_FILE_END;
}

/*
 * Order of rows, libdw's: by address, an end of sequence before a row
 * starting at the same address; line_rows__sort() keeps program order
 * among rows equal by it.
 */
int line_row__cmp(const void *a, const void *b);

/* Stable sort of n rows by line_row__cmp() (a merge sort). 0, -ENOMEM. */
int line_rows__sort(struct line_row *rows, size_t n);

/* The sections a line program refers to; NULL/0 when absent. */
struct dwarf_line_secs {
	const unsigned char *line;	/* .debug_line */
	size_t line_len;
	const unsigned char *line_str;	/* .debug_line_str (DW_FORM_line_strp) */
	size_t line_str_len;
	const unsigned char *str;	/* .debug_str (DW_FORM_strp) */
	size_t str_len;
};

/* A program's file table, indexed by the file register (and by
 * DW_AT_decl_file/DW_AT_call_file): full paths, "dir/name" as libdw
 * composes them; DWARF 2-4 have no file 0 ("???" here, as libdw). */
struct dwarf_line_files {
	const char **name;
	size_t n;
};

/*
 * Read the line program at byte offset off of secs->line. comp_dir is
 * the unit's DW_AT_comp_dir (directory 0 before DWARF 5) or NULL.
 * Fills *files (one malloc'd block the caller frees with
 * dwarf_line_files__free(); the rows' file indexes index it) and, when
 * rows is not NULL, appends the program's rows to *rows / *nrows /
 * *alloc (realloc'd). 0; -EINVAL: the program is
 * cut short or malformed (rows appended so far stay); -EOPNOTSUPP: it
 * uses a form or feature this reader does not know (nothing appended);
 * -ENOMEM.
 */
int dwarf_line__read(const struct dwarf_line_secs *secs, uint64_t off, const char *comp_dir,
		     struct dwarf_line_files *files, struct line_row **rows, size_t *nrows,
		     size_t *alloc);

/* Free a file table from dwarf_line__read(). Idempotent. */
void dwarf_line_files__free(struct dwarf_line_files *files);

/*
 * Fill *secs from elf's .debug_line, .debug_line_str and .debug_str
 * section data (after dwarf_begin_elf(), which inflates compressed
 * sections in place; a section still SHF_COMPRESSED is left out). The
 * pointers are elf's: valid until elf_end(). 0; -ENOENT (no plain
 * .debug_line); -EOPNOTSUPP (not a little-endian file on a little-endian
 * host, which this reader assumes).
 */
int dwarf_line_secs__from_elf(Elf *elf, struct dwarf_line_secs *secs);

#endif
