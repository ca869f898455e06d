// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the jitdump reader (util/model/jitdump.c):
 * jitdump__walk() over every record with each CODE_DEBUG_INFO's line
 * entries read through jitdump__next_line(), then dso__load_jitdump() on
 * the input as a file with the symbol table fix-up and lookups a report
 * does, and the ELF image inject --jit writes (util/model/jit-elf.c) for
 * the first CODE_LOAD, read back by the ELF symbol loader (in memory).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz-common.h"
#include "util/model/dso.h"
#include "util/model/jit-elf.h"
#include "util/model/jitdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct walk_state {
	const struct jitdump_header *hdr;
	const struct jitdump_rec *debug;
	struct jitdump_rec debug_copy;
	struct jitdump_line lines[64];
	size_t nr_lines;
	bool image_done;
	uint64_t sum;
};

/* The image read back by the ELF symbol loader, in memory (no kept
 * symbol tables written per input). */
static void read_back(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char image[1 << 20];
	size_t n = f ? fread(image, 1, sizeof(image), f) : 0;
	struct dso *dso;

	if (f)
		fclose(f);
	dso = n ? dso__new(path) : NULL;
	if (dso) {
		if (!dso__load_elf_mem(dso, image, n)) {
			dso__symbols_finish(dso);
			dso->symbols_loaded = true;
			dso__find_symbol_loaded(dso, JIT_ELF_TEXT_OFFSET);
		}
		dso__put(dso);
	}
}

static int walk_cb(void *arg, const struct jitdump_rec *r)
{
	struct walk_state *w = arg;

	w->sum += r->id + r->timestamp;
	if (r->id == JITDUMP_CODE_DEBUG_INFO) {
		const uint8_t *pos = r->lines;
		const char *prev = NULL;

		w->nr_lines = 0;
		while (jitdump__next_line(r, &pos, prev, &w->lines[w->nr_lines % 64]) == 1) {
			prev = w->lines[w->nr_lines % 64].file;
			w->sum += strlen(prev) + w->lines[w->nr_lines % 64].line;
			if (++w->nr_lines >= 64)
				break;
		}
		w->debug_copy = *r;
		w->debug = &w->debug_copy;
	} else if (r->id == JITDUMP_CODE_LOAD) {
		w->sum += strlen(r->name);
		for (uint64_t i = 0; i < r->code_size && i < 64; i++)
			w->sum += r->code[i];
		if (!w->image_done && r->code_size) {
			/* the image inject --jit writes, read back */
			char path[64];
			struct jit_elf_fn fn = { .name = r->name, .e_machine = (uint16_t)w->hdr->elf_mach,
						 .code_addr = r->code_addr, .code = r->code,
						 .code_size = r->code_size };
			uint8_t bid[20];
			struct dso *dso;

			if (w->debug && w->debug->code_addr == r->code_addr) {
				fn.lines = w->lines;
				fn.nr_lines = w->nr_lines < 64 ? w->nr_lines : 64;
			}
			w->image_done = true;
			snprintf(path, sizeof(path), "/tmp/prf-fuzz-jit-%d.so", (int)getpid());
			if (!jit_elf__write(path, &fn, bid))
				read_back(path);
			unlink(path);
		}
	} else if (r->id == JITDUMP_CODE_UNWINDING_INFO) {
		for (uint64_t i = 0; i < r->unwind_size && i < 64; i++)
			w->sum += r->unwind[i];
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jitdump_header hdr;
	struct walk_state w = { .hdr = &hdr };
	char path[64];
	struct dso *dso;
	int fd;

	jitdump__walk(data, size, &hdr, walk_cb, &w);
	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	dso = dso__new("/tmp/perf-4242.map");
	if (dso) {
		if (!dso__load_jitdump(dso, path))
			fuzz__jit_symbol_lookups(dso);
		dso__put(dso);
	}
	return 0;
}
