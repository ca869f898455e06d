// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: prf's DWARF line program reader (util/model/
 * dwarf-line.h) on mutated .debug_line sections, the bytes `prf script
 * -F +srcline` and `report -s srcline` read from a debug file. The input
 * is the section (a private, exactly sized copy, so ASan sees a read one
 * byte past it); the same bytes also serve as .debug_line_str and
 * .debug_str, so string offsets land somewhere. Every program of the
 * section is read in turn, as units do; each row's file must be NULL, ""
 * or a name of its program's file table. Seeds: the .debug_line sections
 * of small programs compiled with gcc (DWARF 2-5) and clang.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/model/dwarf-line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a row's file: an index into the unit's file table, or a sentinel */
static int file_ok(const struct dwarf_line_files *f, uint32_t file)
{
	return file < f->n || file == LINE_FILE_END || file == LINE_FILE_NONE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *sec = malloc(size ? size : 1);
	struct dwarf_line_secs secs;
	struct line_row *rows = NULL;
	size_t alloc = 0, off = 0, units = 0;

	if (!sec)
		return 0;
	memcpy(sec, data, size);
	secs = (struct dwarf_line_secs){ sec, size, sec, size, sec, size };
	while (off + 4 <= size && units++ < 64) {
		struct dwarf_line_files files;
		size_t n = 0, i;
		uint32_t len;
		int err;

		err = dwarf_line__read(&secs, off, units & 1 ? "/comp" : NULL, &files, &rows, &n,
				       &alloc);
		if (err == 0 || err == -EINVAL)
			for (i = 0; i < n; i++)
				if (!file_ok(&files, rows[i].file))
					abort();
		/* a stable sort of what was read: ordered, nothing lost */
		if ((err == 0 || err == -EINVAL) && !line_rows__sort(rows, n))
			for (i = 1; i < n; i++)
				if (line_row__cmp(&rows[i - 1], &rows[i]) > 0)
					abort();
		dwarf_line_files__free(&files);
		memcpy(&len, sec + off, 4);	/* the next unit, as units follow */
		if (len >= 0xfffffff0 || len > size - off - 4)
			break;
		off += 4 + len;
	}
	free(rows);
	free(sec);
	return 0;
}
