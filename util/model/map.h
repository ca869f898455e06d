/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_MAP_H
#define PRF_MODEL_MAP_H
/*
 * map: one address range of a thread's (or the kernel's) address space
 * backed by a DSO, from PERF_RECORD_MMAP/MMAP2 (or kallsyms/modules).
 */
#include <stdbool.h>
#include <stdint.h>

struct dso;

struct map {
	uint64_t start, end;	/* [start, end) virtual addresses */
	uint64_t pgoff;		/* file offset of start, bytes */
	struct dso *dso;	/* reference held */
	uint32_t prot, flags;
	uint64_t ino;		/* inode of the MMAP2 record; 0 unknown */
	int refcnt;
};

/* New map of [start, start+len) at file offset pgoff (bytes) backed by
 * dso (a reference is taken). refcnt 1; NULL on ENOMEM. */
struct map *map__new(struct dso *dso, uint64_t start, uint64_t len, uint64_t pgoff,
		     uint32_t prot, uint32_t flags);
/* Copy with its own refcnt (same dso, new reference). NULL on ENOMEM. */
struct map *map__clone(const struct map *map);
/* Take / drop a reference; the last put drops the dso reference. The
 * count is atomic: references may be dropped on another thread (prf
 * top's browser) than the one changing the model. */
struct map *map__get(struct map *map);
void map__put(struct map *map);

/* Sampled ip -> DSO address space (what symbols are kept in):
 * ip - start + pgoff + dso->text_offset (p_vaddr - p_offset of the ELF
 * exec segment), identity for the kernel, modules and JIT maps. Loads the
 * DSO's headers/symbols on first use. */
uint64_t map__map_ip(const struct map *map, uint64_t ip);
/*
 * The symbol perf names for data address ip in map (a sample's
 * PERF_SAMPLE_ADDR): dso__find_data_symbol() at ip's file offset, the
 * function symbols for the kernel, modules and JIT maps. *addr gets ip
 * in the DSO address space of the symbol (offset into it: *addr -
 * sym->start). NULL when no symbol holds ip. Owned by the DSO.
 */
struct symbol;
struct symbol *map__find_data_symbol(const struct map *map, uint64_t ip, uint64_t *addr);
/* DSO address space -> ip (inverse of map__map_ip). */
uint64_t map__unmap_ip(const struct map *map, uint64_t addr);

#endif
