// SPDX-License-Identifier: GPL-2.0
/* maps: sorted array of non-overlapping maps, binary-searched. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "maps.h"
#include "map.h"
#include "dso.h"
#include "../lib/util.h"

uint64_t maps__generation = 1;

static void maps__changed(void)
{
	__atomic_add_fetch(&maps__generation, 1, __ATOMIC_ACQ_REL);
}

struct maps *maps__new(void)
{
	struct maps *maps = zalloc(sizeof(*maps));

	if (maps)
		maps->refcnt = 1;
	return maps;
}

struct maps *maps__get(struct maps *maps)
{
	if (maps)
		__atomic_add_fetch(&maps->refcnt, 1, __ATOMIC_RELAXED);
	return maps;
}

void maps__flush(struct maps *maps)
{
	maps__changed();
	for (size_t i = 0; i < maps->nr; i++)
		map__put(maps->entries[i]);
	maps->nr = 0;
	maps->last = NULL;
}

void maps__put(struct maps *maps)
{
	if (!maps || __atomic_sub_fetch(&maps->refcnt, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	maps__flush(maps);	/* bumps the generation */
	free(maps->entries);
	free(maps);
}

/* Index of the first map with end > addr (maps are sorted and disjoint). */
static size_t maps__lower(const struct maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *maps__find(struct maps *maps, uint64_t addr)
{
	/* the cache is read and written atomically: concurrent readers
	 * (parallel unwinding) may race on it harmlessly */
	struct map *m = __atomic_load_n(&maps->last, __ATOMIC_RELAXED);
	size_t i;

	if (m && addr >= m->start && addr < m->end)
		return m;
	i = maps__lower(maps, addr);
	if (i < maps->nr && maps->entries[i]->start <= addr) {
		m = maps->entries[i];
		__atomic_store_n(&maps->last, m, __ATOMIC_RELAXED);
		return m;
	}
	return NULL;
}

static int maps__grow(struct maps *maps, size_t need)
{
	struct map **n;
	size_t alloc;

	if (maps->nr + need <= maps->alloc)
		return 0;
	alloc = maps->alloc ? maps->alloc * 2 : 16;
	while (alloc < maps->nr + need)
		alloc *= 2;
	n = realloc(maps->entries, alloc * sizeof(*n));
	if (!n)
		return -ENOMEM;
	maps->entries = n;
	maps->alloc = alloc;
	return 0;
}

int maps__insert(struct maps *maps, struct map *map)
{
	size_t i, j, pos;
	struct map *head = NULL, *tail = NULL;

	if (map->end <= map->start)
		return 0;
	if (maps__grow(maps, 3))
		return -ENOMEM;
	maps__changed();
	maps->last = NULL;
	i = maps__lower(maps, map->start);
	/* maps [i, j) overlap the new one */
	for (j = i; j < maps->nr && maps->entries[j]->start < map->end; j++)
		;
	if (j > i) {
		struct map *first = maps->entries[i], *lastm = maps->entries[j - 1];

		if (first->start < map->start) {
			head = map__clone(first);
			if (!head)
				return -ENOMEM;
			head->end = map->start;
		}
		if (lastm->end > map->end) {
			tail = map__clone(lastm);
			if (!tail) {
				map__put(head);
				return -ENOMEM;
			}
			tail->pgoff += map->end - tail->start;
			tail->start = map->end;
		}
		for (size_t k = i; k < j; k++)
			map__put(maps->entries[k]);
	}
	/* replace [i, j) by head?, map, tail? */
	{
		size_t nnew = (head ? 1 : 0) + 1 + (tail ? 1 : 0);

		memmove(&maps->entries[i + nnew], &maps->entries[j],
			(maps->nr - j) * sizeof(*maps->entries));
		maps->nr = maps->nr - (j - i) + nnew;
		pos = i;
		if (head)
			maps->entries[pos++] = head;
		maps->entries[pos++] = map__get(map);
		if (tail)
			maps->entries[pos++] = tail;
	}
	return 0;
}

struct maps *maps__clone(const struct maps *maps)
{
	struct maps *n = maps__new();

	if (!n)
		return NULL;
	if (maps->nr && maps__grow(n, maps->nr)) {
		maps__put(n);
		return NULL;
	}
	for (size_t i = 0; i < maps->nr; i++)
		n->entries[i] = map__get(maps->entries[i]);
	n->nr = maps->nr;
	return n;
}
