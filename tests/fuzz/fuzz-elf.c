// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the ELF symbol loader of util/model on mutated ELF
 * files, the code `prf report` runs for a user-space DSO: the build-id
 * note, .gnu_debuglink, .symtab (else .dynsym), the "name@plt" entries
 * from .rela.plt/.rel.plt, the text offset, symbol-table finishing and
 * lookups; and the in-memory loader used for the vdso.
 *
 * Speed: every input goes through the loaders on the image in memory
 * (elf_memory(): no open, no mmap/munmap, which cost a TLB flush each and
 * kept this harness near 2,000 exec/s). One input in 16, picked by a hash
 * of its bytes (so a given input always takes the same path), also goes
 * through the whole file path, dso__load() on the input as a file (memfd
 * at /proc/self/fd/N: stat, build-id, debug-file search by build-id and
 * debuglink, dso__load_elf()), and when those symbols came from the input
 * itself the two results must be identical (symbols, text offset, class):
 * the in-memory loader repeats dso__load_elf()'s steps, and this keeps it
 * honest. The file path also reads the input's SDT notes into uprobe
 * definitions (util/model/sdt.h). PRF_FUZZ_ELF_FILES=1 in the environment sends every input
 * through the file path too. Seeds are small ELF files compiled when the harness is built.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz-common.h"
#include "util/lib/tunables.h"
#include "util/model/dso.h"
#include "util/model/model.h"
#include "util/model/sdt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FILE_PATH_EVERY
#define FILE_PATH_EVERY 16
#endif

static char home_dir[64] = "/tmp/prf-fuzz-elf-XXXXXX";
static unsigned int file_path_every = FILE_PATH_EVERY;

static void cleanup(void)
{
	rmdir(home_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(home_dir))
		strcpy(home_dir, "/nonexistent-prf-fuzz-home");
	else
		atexit(cleanup);
	/* dso__load() looks for debug files in $HOME/.debug (perf's build-id
	 * cache): keep the host's out of it */
	setenv("HOME", home_dir, 1);
	/* PRF_FUZZ_ELF_FILES=1: every input through the file path as well
	 * (replaying a crasher found there; slow) */
	if (tunable__bool(TUNABLE_FUZZ_ELF_FILES))
		file_path_every = 1;
	return 0;
}

/*
 * A private copy of the input for libelf (elf_memory() may convert the
 * image in place): one buffer per process, grown as needed, refilled for
 * each loader.
 */
static void *image_copy(const uint8_t *data, size_t size)
{
	static void *buf;
	static size_t cap;

	if (size > cap || !buf) {
		size_t n = size > 4096 ? size : 4096;
		void *p = realloc(buf, n);

		if (!p)
			return NULL;
		buf = p;
		cap = n;
	}
	memcpy(buf, data, size);
	return buf;
}

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

/* Abort (a finding) when the file loader and the in-memory loader disagree. */
static void compare(const struct dso *file, const struct dso *mem)
{
	const char *what = NULL;

	if (file->nr_symbols != mem->nr_symbols)
		what = "number of symbols";
	else if (file->text_offset != mem->text_offset)
		what = "text offset";
	else if (file->is_64_bit != mem->is_64_bit)
		what = "ELF class";
	for (size_t i = 0; !what && i < file->nr_symbols; i++) {
		const struct symbol *a = file->symbols[i], *b = mem->symbols[i];

		if (a->start != b->start || a->end != b->end || a->binding != b->binding ||
		    a->type != b->type || strcmp(a->name, b->name))
			what = "a symbol";
	}
	if (what) {
		fprintf(stderr, "fuzz-elf: dso__load() and dso__load_elf_image() differ in %s "
			"(%zu vs %zu symbols)\n", what, file->nr_symbols, mem->nr_symbols);
		abort();
	}
}

/* The input's SDT notes and their uprobe definitions, as buildid-cache
 * -a makes its probes file. */
static void sdt_probes(const char *path)
{
	struct sdt_note *notes;
	size_t n;

	if (sdt_notes__read(path, &notes, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		char *def;

		if (!sdt_note__uprobe(&notes[i], path, true, &def))
			free(def);
	}
	sdt_notes__free(notes, n);
}

/* dso__load() on the input as a file, checked against the image loader. */
static void file_path(const uint8_t *data, size_t size, const struct dso *mem)
{
	char path[64];
	struct dso *dso;

	if (fuzz__memfd(data, size, path, sizeof(path)) < 0)
		return;
	sdt_probes(path);
	dso = dso__new(path);
	if (!dso)
		return;
	dso__load(dso);
	lookups(dso);
	/* symbols from the input itself (not a debug file found elsewhere) */
	if (mem && dso->symsrc_path && !strcmp(dso->symsrc_path, path))
		compare(dso, mem);
	dso__put(dso);
}

/* FNV-1a of the size and 16 bytes spread over the input (not all of it:
 * every loop iteration here is a coverage callback) */
static uint32_t hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u ^ (uint32_t)size;

	for (size_t i = 0; size && i < 16; i++)
		h = (h ^ data[i * size / 16]) * 16777619u;
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct build_id bid = { .size = 0 };
	struct dso *dso, *vdso;
	char link[4096], dbg[4096];
	void *image;
	int err;

	/* what dso__load() reads before the symbols: build-id, where a
	 * debug file would be (by build-id), the debuglink name */
	image = image_copy(data, size);
	if (!image)
		return 0;
	dso = dso__new("/fuzz/input.so");
	if (!dso)
		return 0;
	if (!elf_mem__read_build_id(image, size, &bid) && bid.size) {
		dso__set_build_id(dso, &bid);
		dso__find_build_id_file(dso, &bid, dbg, sizeof(dbg));
	}
	image = image_copy(data, size);
	if (image)
		elf_mem__read_debuglink(image, size, link, sizeof(link));

	/* the symbols, as dso__load_elf() + dso__load() give them */
	image = image_copy(data, size);
	err = image ? dso__load_elf_image(dso, image, size, image, size, "/fuzz/input.so") : -1;
	dso__symbols_finish(dso);
	dso->symbols_loaded = true;
	lookups(dso);

	if (hash(data, size) % file_path_every == 0)
		file_path(data, size, err ? NULL : dso);
	dso__put(dso);

	/* the vdso loader (image copied out of the process) */
	image = image_copy(data, size);
	vdso = image ? dso__new("[vdso]") : NULL;
	if (vdso) {
		if (!dso__load_elf_mem(vdso, image, size)) {
			dso__symbols_finish(vdso);
			vdso->symbols_loaded = true;
			lookups(vdso);
		}
		dso__put(vdso);
	}
	return 0;
}
