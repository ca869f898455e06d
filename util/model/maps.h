/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_MAPS_H
#define PRF_MODEL_MAPS_H
/*
 * maps: the address space of one process (shared by its threads) or of the
 * kernel: non-overlapping struct map ranges kept in an array sorted by
 * start. Lookup by address is a binary search (O(log n)) with a one-entry
 * cache for the common "same map as last time" case. Insertion replaces
 * (and splits) any overlapped part of older maps, as an mmap(2) over an
 * existing range does; it is O(n) but happens once per MMAP record.
 *
 * Threads: maps__find() is reentrant: it only reads the array, and its
 * one-entry "last" cache is read and written with relaxed atomics (a
 * racing reader at worst misses the cache), so parallel unwinders may
 * look up concurrently as long as nobody inserts/flushes meanwhile
 * (inserts happen on the event-delivery thread only). The other caches
 * keyed by address (thread__find_symbol()'s per-thread TLS table, the
 * per-cursor callchain cache of util/model/callchain.h) are private to
 * their thread/cursor and check maps__generation, never shared state.
 */
#include <stddef.h>
#include <stdint.h>

struct map;

struct maps {
	struct map **entries;	/* sorted by start, non-overlapping; refs held */
	size_t nr, alloc;
	struct map *last;	/* lookup cache (not a separate reference) */
	int refcnt;
};

/*
 * Bumped (atomically) whenever any maps changes or is freed (insert,
 * flush, last put): address-resolution caches keyed by (maps, address)
 * are valid only while it stays the same.
 */
extern uint64_t maps__generation;

static inline uint64_t maps__current_generation(void)
{
	return __atomic_load_n(&maps__generation, __ATOMIC_ACQUIRE);
}

/* New empty maps with refcnt 1; NULL on ENOMEM. */
struct maps *maps__new(void);
/* Take / drop a reference (atomic count, as map's); the last put frees
 * every map reference. */
struct maps *maps__get(struct maps *maps);
void maps__put(struct maps *maps);
/* Insert map (a new reference is taken), cutting overlapped parts out of
 * older maps (split into a head and/or tail piece). 0 or -ENOMEM. */
int maps__insert(struct maps *maps, struct map *map);
/* The map containing addr, or NULL. Borrowed (valid while maps lives and
 * no insert replaces it). */
struct map *maps__find(struct maps *maps, uint64_t addr);
/* A copy (fork of a new process): same map objects, new array. NULL on ENOMEM. */
struct maps *maps__clone(const struct maps *maps);
/* Drop every map (exec). */
void maps__flush(struct maps *maps);

#endif
