// SPDX-License-Identifier: GPL-2.0
/* map: one mapped range; address conversion between ip and DSO space. */
#include <stdlib.h>
#include <errno.h>
#include "map.h"
#include "dso.h"
#include "../lib/util.h"

struct map *map__new(struct dso *dso, uint64_t start, uint64_t len, uint64_t pgoff,
		     uint32_t prot, uint32_t flags)
{
	struct map *map = zalloc(sizeof(*map));

	if (!map)
		return NULL;
	map->start = start;
	map->end = start + len;
	if (map->end < start)		/* wrapped: clamp to the top */
		map->end = UINT64_MAX;
	map->pgoff = pgoff;
	map->dso = dso__get(dso);
	map->prot = prot;
	map->flags = flags;
	map->refcnt = 1;
	return map;
}

struct map *map__clone(const struct map *map)
{
	struct map *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	*m = *map;
	m->refcnt = 1;
	dso__get(m->dso);
	return m;
}

struct map *map__get(struct map *map)
{
	if (map)
		__atomic_add_fetch(&map->refcnt, 1, __ATOMIC_RELAXED);
	return map;
}

void map__put(struct map *map)
{
	if (!map || __atomic_sub_fetch(&map->refcnt, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	dso__put(map->dso);
	free(map);
}

static inline bool dso__identity_map(const struct dso *dso)
{
	return dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE || dso->kind == DSO_JIT;
}

uint64_t map__map_ip(const struct map *map, uint64_t ip)
{
	struct dso *dso = map->dso;

	if (unlikely(!__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE)) &&
	    dso__load(dso) == -EAGAIN)	/* text_offset comes from the ELF headers */
		return dso__identity_map(dso) ? ip : ip - map->start + map->pgoff;
	if (dso__identity_map(dso))
		return ip;
	return ip - map->start + map->pgoff + dso->text_offset;
}

struct symbol *map__find_data_symbol(const struct map *map, uint64_t ip, uint64_t *addr)
{
	struct dso *dso = map->dso;

	if (dso__identity_map(dso)) {
		*addr = ip;
		return dso__find_symbol(dso, ip);
	}
	if (dso->kind == DSO_ANON) {
		const char *n = dso->long_name;

		/* perf maps anonymous memory one to one, other names
		 * ([vvar]) by their offset */
		*addr = !strcmp(n, "//anon") || !strcmp(n, "/dev/zero") ||
			!strcmp(n, "/anon_hugepage") || !strncmp(n, "[stack", 6) ||
			!strcmp(n, "[heap]") || !strncmp(n, "/SYSV", 5) ? ip :
			ip - map->start + map->pgoff;
		return NULL;
	}
	return dso__find_data_symbol(dso, ip - map->start + map->pgoff, addr);
}

uint64_t map__unmap_ip(const struct map *map, uint64_t addr)
{
	struct dso *dso = map->dso;

	if (unlikely(!__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE)) &&
	    dso__load(dso) == -EAGAIN)	/* loading in the background */
		return dso__identity_map(dso) ? addr : addr - map->pgoff + map->start;
	if (dso__identity_map(dso))
		return addr;
	return addr - dso->text_offset - map->pgoff + map->start;
}
