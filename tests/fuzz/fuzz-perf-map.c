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
		if (!dso__load_perf_map(dso, path))
			fuzz__jit_symbol_lookups(dso);
		dso__put(dso);
	}
	return 0;
}
