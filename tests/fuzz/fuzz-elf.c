// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the ELF symbol loader (util/model dso__load on a
 * file: build-id note, debug-file search, .symtab/.dynsym/PLT, text
 * offset), the in-memory loader used for the vdso, and symbol lookups.
 * Seeds are small ELF files compiled when the harness is built.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz-common.h"
#include "util/model/dso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lookups(struct dso *dso)
{
	for (size_t i = 0; i < dso->nr_symbols && i < 64; i++) {
		struct symbol *s = dso->symbols[i];

		dso__find_symbol(dso, s->start);
		dso__find_symbol(dso, s->end - 1);
	}
	dso__find_symbol(dso, 0);
	dso__find_symbol(dso, UINT64_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct build_id bid;
	struct dso *dso;
	void *copy;
	int fd;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	dso = dso__new(path);
	if (dso) {
		dso__load(dso);
		lookups(dso);
		dso__put(dso);
	}
	filename__read_build_id(path, &bid);

	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	elf_mem__read_build_id(copy, size, &bid);
	dso = dso__new("[vdso]");
	if (dso) {
		if (!dso__load_elf_mem(dso, copy, size)) {
			dso__symbols_finish(dso);
			dso->symbols_loaded = true;
			lookups(dso);
		}
		dso__put(dso);
	}
	free(copy);
	return 0;
}
