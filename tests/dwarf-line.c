// SPDX-License-Identifier: GPL-2.0
/*
 * prf's DWARF line program reader (util/model/dwarf-line.h) against
 * libdw's on real ELF files: for every unit, the same rows (address,
 * end of sequence, line, file name, in libdw's order once sorted the way
 * libdw sorts) and the same file table. The files: this binary (gcc's
 * DWARF 5), or the ones $PRF_DWARF_LINE_ELF names (colon separated;
 * tests/shell/dwarf-libdw.sh passes programs built with -gdwarf-2 to -5,
 * and glibc's compressed debug file when installed). A corrupt program
 * (cut short, a bad opcode length) gives -EINVAL without reading past
 * the section.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "tests.h"
#include "dwarf-files.h"
#include "../util/model/dwarf-line.h"

static const char *nz(const char *s)
{
	return s ? s : "(null)";
}

/* Both lists around row i, for a failure's report. */
static void dump_near(const struct line_row *rows, Dwarf_Lines *lines, size_t n, size_t i)
{
	size_t j;

	for (j = i > 3 ? i - 3 : 0; j < i + 3 && j < n; j++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, j);
		Dwarf_Addr addr = 0;
		bool end = false;
		int line = 0;

		dwarf_lineaddr(l, &addr);
		dwarf_lineendsequence(l, &end);
		dwarf_lineno(l, &line);
		pr_err("  %zu: %#lx %u%s (file %u) | libdw %#lx %d%s\n", j,
		       (unsigned long)rows[j].addr, line_row__line(&rows[j]),
		       line_row__end(&rows[j]) ? " end" : "",
		       rows[j].file, (unsigned long)addr, line, end ? " end" : "");
	}
}

/* Compare one unit; counts rows and files checked. */
static int check_unit(const struct dwarf_line_secs *secs, Dwarf_Die *cudie, size_t *nrows,
		      size_t *nfiles)
{
	struct dwarf_line_files files;
	struct line_row *rows = NULL;
	size_t n = 0, alloc = 0, ln, fn, i;
	Dwarf_Attribute attr;
	Dwarf_Lines *lines;
	Dwarf_Files *df;
	Dwarf_Word off;
	int err, ret = TEST_FAIL;

	if (dwarf_formudata(dwarf_attr(cudie, DW_AT_stmt_list, &attr), &off))
		return TEST_OK;
	err = dwarf_line__read(secs, off, dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr)),
			       &files, &rows, &n, &alloc);
	if (dwarf_getsrclines(cudie, &lines, &ln) || dwarf_getsrcfiles(cudie, &df, &fn)) {
		pr_err("libdw cannot read the line program at %#lx\n", (unsigned long)off);
		goto out;
	}
	if (err) {
		pr_err("line program at %#lx: %s\n", (unsigned long)off, strerror(-err));
		goto out;
	}
	if (files.n != fn) {
		pr_err("line program at %#lx: %zu files, libdw %zu\n", (unsigned long)off, files.n, fn);
		goto out;
	}
	for (i = 0; i < fn; i++) {
		const char *want = dwarf_filesrc(df, i, NULL, NULL);

		if (strcmp(nz(want), nz(files.name[i]))) {
			pr_err("file %zu: %s, libdw %s\n", i, nz(files.name[i]), nz(want));
			goto out;
		}
	}
	if (n != ln) {
		pr_err("line program at %#lx: %zu rows, libdw %zu\n", (unsigned long)off, n, ln);
		goto out;
	}
	if (line_rows__sort(rows, n)) {
		pr_err("no memory to sort %zu rows\n", n);
		goto out;
	}
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr = 0;
		bool end = false;
		int line = 0;
		unsigned int disc = 0;
		const char *file, *mine;

		dwarf_lineaddr(l, &addr);
		dwarf_lineendsequence(l, &end);
		dwarf_lineno(l, &line);
		dwarf_linediscriminator(l, &disc);
		file = dwarf_linesrc(l, NULL, NULL);
		mine = rows[i].file < files.n ? files.name[rows[i].file] : "";
		/* the discriminators too (dwarf-line.h keeps those below 256) */
		if (rows[i].addr != addr || line_row__end(&rows[i]) != end ||
		    (!end && (line_row__line(&rows[i]) != (uint32_t)(line > 0 ? line : 0) ||
			      (disc < 256 && line_row__disc(&rows[i]) != disc) ||
			      strcmp(mine, nz(file))))) {
			dump_near(rows, lines, n, i);
			pr_err("row %zu: %#lx %s:%u%s, libdw %#lx %s:%d%s\n", i,
			       (unsigned long)rows[i].addr, mine, line_row__line(&rows[i]),
			       line_row__end(&rows[i]) ? " end" : "", (unsigned long)addr, nz(file),
			       line, end ? " end" : "");
			goto out;
		}
	}
	*nrows += n;
	*nfiles += fn;
	ret = TEST_OK;
out:
	free(rows);
	dwarf_line_files__free(&files);
	return ret;
}

struct line_counts {
	const struct dwarf_line_secs *secs;
	size_t units, rows, files;
};

static int check_unit_cb(struct dwarf_file *df, Dwarf_Die *cudie, void *arg)
{
	struct line_counts *c = arg;

	c->units++;
	return check_unit(c->secs, cudie, &c->rows, &c->files);
}

static int check_file(const char *path)
{
	struct dwarf_line_secs secs;
	struct dwarf_file df;
	struct line_counts c = { &secs, 0, 0, 0 };
	int ret = TEST_FAIL;

	if (dwarf_file__open(&df, path))
		return TEST_FAIL;
	if (!df.dw || dwarf_line_secs__from_elf(df.elf, &secs)) {
		pr_err("%s: no DWARF line table to read\n", path);
		goto out;
	}
	if (dwarf_file__each_unit(&df, path, check_unit_cb, &c))
		goto out;
	pr_debug("%s: %zu units, %zu rows, %zu files as libdw reads them\n", path, c.units,
		 c.rows, c.files);
	ret = c.units && c.rows ? TEST_OK : TEST_FAIL;
	if (ret)
		pr_err("%s: no unit with rows\n", path);
out:
	dwarf_file__close(&df);
	return ret;
}

static int test__libdw_agrees(void)
{
	return dwarf_files__each(TUNABLE_DWARF_LINE_ELF, check_file);
}

/* The opcodes of the hand-made program: rows 0x1000 line 2, 0x1002
 * line 3, end at 0x1006. */
static const unsigned char prog_std[] = {
	0, 9, 2, 0x00, 0x10, 0, 0, 0, 0, 0, 0,	/* set_address 0x1000 */
	0x12,					/* special: addr +0, line +1 */
	0x2e,					/* special: addr +2, line +1 */
	2, 4,					/* advance_pc 4 */
	0, 1, 1,				/* end_sequence */
};
/* The line register run to INT64_MAX and one past it (UBSan watches) */
static const unsigned char prog_line_wrap[] = {
	3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0,	/* advance_line INT64_MAX */
	1,					/* copy */
	3, 1, 1,				/* advance_line 1, copy */
	0, 1, 1,				/* end_sequence */
};

/* A DWARF 4 unit: header, one directory, one file, then prog. */
static size_t build_v4(unsigned char *b, const unsigned char *prog, size_t prog_len)
{
	static const unsigned char tail[] = {
		0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0,	/* standard_opcode_lengths */
		'd', 0, 0,				/* include_directories */
		'f', '.', 'c', 0, 1, 0, 0, 0,		/* file_names */
	};
	size_t hdr = 1 + 1 + 1 + 1 + 1 + 1 + sizeof(tail), n = 0;
	size_t len = 2 + 4 + hdr + prog_len;

	b[n++] = len & 0xff;
	b[n++] = 0, b[n++] = 0, b[n++] = 0;
	b[n++] = 4, b[n++] = 0;				/* version */
	b[n++] = hdr & 0xff, b[n++] = 0, b[n++] = 0, b[n++] = 0;
	b[n++] = 1;					/* min_inst_length */
	b[n++] = 1;					/* max_ops_per_insn */
	b[n++] = 1;					/* default_is_stmt */
	b[n++] = (unsigned char)-5;			/* line_base */
	b[n++] = 14;					/* line_range */
	b[n++] = 12;					/* opcode_base */
	memcpy(b + n, tail, sizeof(tail));
	n += sizeof(tail);
	memcpy(b + n, prog, prog_len);
	n += prog_len;
	return n;
}

static int test__corrupt(void)
{
	unsigned char buf[256];
	struct dwarf_line_secs secs = { .line = buf };
	struct dwarf_line_files files;
	struct line_row *rows = NULL;
	size_t n = 0, alloc = 0, len, cut;
	int err;

	len = build_v4(buf, prog_std, sizeof(prog_std));
	secs.line_len = len;
	err = dwarf_line__read(&secs, 0, "/src", &files, &rows, &n, &alloc);
	TEST_ASSERT_VAL("hand-made program reads", !err);
	TEST_ASSERT_VAL("two files (0 is the unknown file)", files.n == 2 && !strcmp(files.name[0], "???") &&
			!strcmp(files.name[1], "d/f.c"));
	TEST_ASSERT_VAL("three rows", n == 3 && rows[0].addr == 0x1000 && rows[0].line == 2 &&
			rows[1].addr == 0x1002 && rows[2].addr == 0x1006 && line_row__end(&rows[2]));
	dwarf_line_files__free(&files);
	/* unit_length past the section: every cut of the unit is refused,
	 * nothing is read beyond secs.line_len (ASan would see it) */
	for (cut = 1; cut < len; cut++) {
		unsigned char *copy = malloc(cut);

		TEST_ASSERT_VAL("malloc", copy);
		memcpy(copy, buf, cut);
		secs.line = copy;
		secs.line_len = cut;
		n = 0;
		err = dwarf_line__read(&secs, 0, NULL, &files, &rows, &n, &alloc);
		dwarf_line_files__free(&files);
		free(copy);
		TEST_ASSERT_VAL("cut unit refused", err == -EINVAL);
	}
	/* an extended opcode whose length runs past the unit */
	len = build_v4(buf, prog_std, sizeof(prog_std));
	buf[len - 2] = 0x7f;	/* the end_sequence op's length */
	secs.line = buf;
	secs.line_len = len;
	n = 0;
	err = dwarf_line__read(&secs, 0, NULL, &files, &rows, &n, &alloc);
	TEST_ASSERT_VAL("bad extended length refused", err == -EINVAL);
	dwarf_line_files__free(&files);
	/* a line register run past INT64_MAX: no line, no overflow */
	len = build_v4(buf, prog_line_wrap, sizeof(prog_line_wrap));
	secs.line = buf;
	secs.line_len = len;
	n = 0;
	err = dwarf_line__read(&secs, 0, NULL, &files, &rows, &n, &alloc);
	TEST_ASSERT_VAL("wrapped line register read", !err && n == 3 && rows[0].line == 0 &&
			rows[1].line == 0);
	dwarf_line_files__free(&files);
	/* an unknown version: libdw's business */
	len = build_v4(buf, prog_std, sizeof(prog_std));
	buf[4] = 7;
	n = 0;
	err = dwarf_line__read(&secs, 0, NULL, &files, &rows, &n, &alloc);
	TEST_ASSERT_VAL("version 7 not read here", err == -EOPNOTSUPP && n == 0);
	free(rows);
	return TEST_OK;
}

DEFINE_SUITE(dwarf_line, "DWARF line program reader",
	TEST_CASE(libdw_agrees, "rows and file tables equal libdw's on real ELF files"),
	TEST_CASE(corrupt, "cut or malformed line programs are refused without overreading"));
