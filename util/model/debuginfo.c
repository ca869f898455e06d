// SPDX-License-Identifier: GPL-2.0
/*
 * Per-DSO ELF/DWARF state (debuginfo.h): made on first use, its lock, the
 * use bits, the generation and teardown. The jobs are in files of their
 * own (debuginfo-internal.h lists them). Sources followed: ELF gABI
 * (program headers, notes), DWARF 5 sections 6.2 (line table) and 6.4
 * (CFI), GDB manual "Separate Debug Files" (build-id path,
 * .gnu_debuglink CRC).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libelf.h>

#include "debuginfo-internal.h"
#include "../lib/radix.h"
#include "../lib/util.h"

static pthread_mutex_t debuginfo__create_lock = PTHREAD_MUTEX_INITIALIZER;
unsigned int debuginfo_used;	/* DEBUGINFO_USED_*, atomic */
unsigned int debuginfo_gen = 1;	/* debuginfo__generation(), atomic */

unsigned int debuginfo__usage(void)
{
	return __atomic_load_n(&debuginfo_used, __ATOMIC_RELAXED);
}

struct debuginfo *dso__debuginfo(struct dso *dso)
{
	struct debuginfo *di;

	di = __atomic_load_n((struct debuginfo **)&dso->debuginfo, __ATOMIC_ACQUIRE);
	if (di)
		return di;
	pthread_mutex_lock(&debuginfo__create_lock);
	di = dso->debuginfo;
	if (!di) {
		di = zalloc(sizeof(*di));
		if (di) {
			pthread_mutexattr_t attr;

			di->cfi.size = (struct cache_size)CACHE_SIZE_INIT(CFI_CACHE_MIN_BITS,
									  CFI_CACHE_MAX_BITS);
			di->memo.size = (struct cache_size)CACHE_SIZE_INIT(INLINE_CACHE_MIN_BITS,
									   INLINE_CACHE_MAX_BITS);

			/* held for short cache probes mostly: spin a little
			 * before sleeping when another thread has it */
			pthread_mutexattr_init(&attr);
			pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
			pthread_mutex_init(&di->lock, &attr);
			pthread_mutexattr_destroy(&attr);
			di->dso = dso;
			di->file.fd = di->file.dbg_fd = -1;
			__atomic_store_n((struct debuginfo **)&dso->debuginfo, di, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&debuginfo__create_lock);
	return di;
}

void debuginfo__lock(struct debuginfo *di)
{
	pthread_mutex_lock(&di->lock);
}

void debuginfo__unlock(struct debuginfo *di)
{
	pthread_mutex_unlock(&di->lock);
}

static void __attribute__((constructor)) debuginfo__init_libelf(void)
{
	elf_version(EV_CURRENT);
}

void sort_by_u64_key(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *b = base, t[32], *tmp;
	struct radix_item *v;
	uint64_t ki, kj;
	size_t i, j;

	if (size > sizeof(t)) {
		qsort(base, n, size, cmp);
		return;
	}
	if (n <= 24) {
		for (i = 1; i < n; i++) {
			memcpy(&ki, b + i * size, sizeof(ki));
			for (j = i; j > 0; j--) {
				memcpy(&kj, b + (j - 1) * size, sizeof(kj));
				if (kj <= ki)
					break;
			}
			if (j == i)
				continue;
			memcpy(t, b + i * size, size);
			memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
			memcpy(b + j * size, t, size);
		}
		return;
	}
	v = malloc(n * sizeof(*v));
	tmp = malloc(n * size);
	if (!v || !tmp) {
		free(v);
		free(tmp);
		qsort(base, n, size, cmp);
		return;
	}
	for (i = 0; i < n; i++) {
		memcpy(&v[i].key, b + i * size, sizeof(v[i].key));
		v[i].val = i;
	}
	if (radix_sort(v, n)) {
		qsort(base, n, size, cmp);
	} else {
		for (i = 0; i < n; i++)
			memcpy(tmp + i * size, b + v[i].val * size, size);
		memcpy(base, tmp, n * size);
	}
	free(v);
	free(tmp);
}

void dso__debuginfo_delete(struct dso *dso)
{
	struct debuginfo *di = dso->debuginfo;

	if (!di)
		return;
	__atomic_add_fetch(&debuginfo_gen, 1, __ATOMIC_RELAXED);
	debuginfo__cfi_free(di);
	debuginfo__memo_free(di);
	debuginfo__inline_free(di);
	debuginfo__keep_lines(di);
	debuginfo__keep_inline(di);
	debuginfo__lines_free(di);
	debuginfo__file_free(di);
	pthread_mutex_destroy(&di->lock);
	free(di);
	dso->debuginfo = NULL;
}
