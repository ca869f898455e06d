// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the perf-PID.map JIT symbol parser
 * (util/model/perf-map.c dso__load_perf_map), then the symbol table
 * fix-up and lookups a report does on it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz-common.h"
#include "util/lib/debug.h"
#include "util/model/dso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct dso *dso;
	int fd;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	dso = dso__new("/tmp/perf-4242.map");
	if (dso) {
		if (!dso__load_perf_map(dso, path)) {
			dso__symbols_finish(dso);
			dso->symbols_loaded = true;
			/* lookups at every symbol's edges and a few fixed addresses */
			for (size_t i = 0; i < dso->nr_symbols && i < 64; i++) {
				struct symbol *s = dso->symbols[i];

				dso__find_symbol_loaded(dso, s->start);
				dso__find_symbol_loaded(dso, s->end - 1);
				dso__find_symbol_loaded(dso, s->end);
			}
			dso__find_symbol_loaded(dso, 0);
			dso__find_symbol_loaded(dso, UINT64_MAX);
		}
		dso__put(dso);
	}
	return 0;
}
