/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_MAP_H
#define PRF_MODEL_MAP_H
/*
 * map: one address range of a thread's (or the kernel's) address space
 * backed by a DSO, from PERF_RECORD_MMAP/MMAP2 (or kallsyms/modules).
 */
#include <stdint.h>

struct dso;

struct map {
	uint64_t start, end;	/* [start, end) virtual addresses */
	uint64_t pgoff;		/* file offset of start, bytes */
	struct dso *dso;	/* reference held */
	uint32_t prot, flags;
	int refcnt;
};

/* Sampled ip -> DSO address space (what symbols are kept in). */
uint64_t map__map_ip(const struct map *map, uint64_t ip);
/* DSO address space -> ip (inverse of map__map_ip). */
uint64_t map__unmap_ip(const struct map *map, uint64_t addr);

#endif
