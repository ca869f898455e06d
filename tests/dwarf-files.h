/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_TESTS_DWARF_FILES_H
#define PRF_TESTS_DWARF_FILES_H
/*
 * Shared scaffolding of the tests that compare prf's DWARF readers with
 * libdw on real ELF files (tests/dwarf-line.c, tests/dwarf-die.c).
 */
#include <stdbool.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include "../util/lib/tunables.h"

/* An ELF file open for libdw. */
struct dwarf_file {
	int fd;
	Elf *elf;
	Dwarf *dw;	/* NULL: the file has no DWARF libdw reads */
};

/* Open path (its DWARF through dwarf_begin_elf(), which inflates
 * compressed sections). TEST_OK, or TEST_FAIL with a message when it
 * cannot be opened; df->dw may still be NULL. */
int dwarf_file__open(struct dwarf_file *df, const char *path);
/* Close what dwarf_file__open() opened. */
void dwarf_file__close(struct dwarf_file *df);

/* check(df, cudie, arg) for each compile or partial unit of the file
 * (type units left out); the first failure is reported with the unit's
 * offset and returned. TEST_OK otherwise. */
int dwarf_file__each_unit(struct dwarf_file *df, const char *path,
			  int (*check)(struct dwarf_file *df, Dwarf_Die *cudie, void *arg), void *arg);

/* Whether this binary has no .debug_info section (stripped, as a package
 * installs it; its DWARF, if any, is in a separate debug file). */
bool dwarf_file__self_stripped(void);

/* check(path) for this binary, or for each file the colon-separated list
 * in the string tunable list names; the first result other than TEST_OK
 * ends it. TEST_SKIP (test_skip() says why) when there is no list and this
 * binary is stripped. */
int dwarf_files__each(enum tunable_id list, int (*check)(const char *path));

#endif
