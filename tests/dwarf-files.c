// SPDX-License-Identifier: GPL-2.0
/* Shared scaffolding of the DWARF reader tests (see dwarf-files.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <gelf.h>
#include "tests.h"
#include "dwarf-files.h"

int dwarf_file__open(struct dwarf_file *df, const char *path)
{
	df->dw = NULL;
	df->elf = NULL;
	df->fd = open(path, O_RDONLY);
	if (df->fd < 0) {
		pr_err("%s: %s\n", path, strerror(errno));
		return TEST_FAIL;
	}
	elf_version(EV_CURRENT);
	df->elf = elf_begin(df->fd, ELF_C_READ_MMAP, NULL);
	df->dw = df->elf ? dwarf_begin_elf(df->elf, DWARF_C_READ, NULL) : NULL;
	return TEST_OK;
}

void dwarf_file__close(struct dwarf_file *df)
{
	if (df->dw)
		dwarf_end(df->dw);
	if (df->elf)
		elf_end(df->elf);
	if (df->fd >= 0)
		close(df->fd);
	df->dw = NULL;
	df->elf = NULL;
	df->fd = -1;
}

int dwarf_file__each_unit(struct dwarf_file *df, const char *path,
			  int (*check)(struct dwarf_file *df, Dwarf_Die *cudie, void *arg), void *arg)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie;
	uint8_t unit_type;
	Dwarf_Half version;

	while (dwarf_get_units(df->dw, cu, &next, &version, &unit_type, &cudie, NULL) == 0) {
		cu = next;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		if (check(df, &cudie, arg) != TEST_OK) {
			pr_err("%s: unit at %#lx differs from libdw\n", path,
			       (unsigned long)dwarf_dieoffset(&cudie));
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

bool dwarf_file__self_stripped(void)
{
	struct dwarf_file df;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	if (dwarf_file__open(&df, "/proc/self/exe") != TEST_OK)
		return false;
	if (df.elf && !elf_getshdrstrndx(df.elf, &shstrndx)) {
		while (!found && (scn = elf_nextscn(df.elf, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ?
				elf_strptr(df.elf, shstrndx, sh.sh_name) : NULL;

			found = name && (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info"));
		}
	}
	dwarf_file__close(&df);
	return !found;
}

int dwarf_files__each(enum tunable_id list_id, int (*check)(const char *path))
{
	const char *list_env = tunable__str(list_id);
	char *list, *p, *tok;
	int ret = TEST_OK;

	if ((!list_env || !*list_env) && dwarf_file__self_stripped())
		return test_skip("this prf is stripped (as packages install it): no DWARF of its own; %s names ELF files to read instead",
				 tunable__desc(list_id)->name);
	if (!list_env || !*list_env)
		return check("/proc/self/exe");
	list = strdup(list_env);
	if (!list)
		return TEST_FAIL;
	for (p = list; ret == TEST_OK && (tok = strsep(&p, ":")) != NULL;)
		if (*tok)
			ret = check(tok);
	free(list);
	return ret;
}
