/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FUZZ_COMMON_H
#define PRF_FUZZ_COMMON_H
/*
 * Helpers shared by the libFuzzer harnesses in tests/fuzz/: put the fuzz
 * input into an anonymous file (memfd, no disk I/O) so the code under test
 * can open it by path (/proc/self/fd/N) exactly as it opens a real file;
 * the lookups after a JIT symbol loader.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/model/dso.h"

/*
 * The fuzz input as a file: one memfd per process, reused for every input
 * (truncated and rewritten: no memfd_create/close per run), file offset
 * 0; path receives /proc/self/fd/N, which the code under test opens as a
 * new file. Returns the fd (owned here: callers must not close it) or -1.
 */
static inline int fuzz__memfd(const uint8_t *data, size_t size, char *path, size_t path_size)
{
	static int fd = -1;
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create("prf-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			return -1;
	}
	if (ftruncate(fd, 0))
		return -1;
	while (done < size) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);

		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	lseek(fd, 0, SEEK_SET);
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

/*
 * After a loader filled dso's symbols: the table fix-up and the lookups a
 * report does, at the edges of the first 64 symbols and at both ends of
 * the address space (JIT symbol loaders: perf-PID.map, jitdump).
 */
static inline void fuzz__jit_symbol_lookups(struct dso *dso)
{
	dso__symbols_finish(dso);
	dso->symbols_loaded = true;
	for (size_t i = 0; i < dso->nr_symbols && i < 64; i++) {
		struct symbol *s = dso->symbols[i];

		dso__find_symbol_loaded(dso, s->start);
		dso__find_symbol_loaded(dso, s->end - 1);
		dso__find_symbol_loaded(dso, s->end);
	}
	dso__find_symbol_loaded(dso, 0);
	dso__find_symbol_loaded(dso, UINT64_MAX);
}

#endif
