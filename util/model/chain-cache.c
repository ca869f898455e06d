// SPDX-License-Identifier: GPL-2.0
/*
 * The callchain (chain) cache: resolved frames per raw chain (see
 * chain-cache.h and callchain_cursor__enable_cache()).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "chain-cache.h"
#include "debuginfo.h"
#include "dso.h"
#include "map.h"
#include "maps.h"
#include "thread.h"
#include "../lib/debug.h"
#include "../lib/util.h"

struct callchain_cache *callchain_cache__new(size_t max_bytes)
{
	struct callchain_cache *cache = zalloc(sizeof(*cache));

	if (!cache)
		return NULL;
	cache->next_id = 1;
	cache->max_bytes = max_bytes;
	cache->size = (struct cache_size)CACHE_SIZE_INIT(CHAIN_CACHE_MIN_BITS, CHAIN_CACHE_MAX_BITS);
	return cache;
}

/* Free the table and its entries (ids are never given again). */
static void callchain_cache__drop(struct callchain_cache *cache)
{
	/* a slot holds memory only once a chain was stored */
	for (size_t i = 0; cache->slots && cache->next_id > 1 && i < cache->nr_slots; i++)
		free(cache->slots[i].e);
	zfree(&cache->slots);
	cache->nr_slots = 0;
	cache->bytes = 0;
}

/* Count a write to a slot: the table is made again bigger when due, at
 * the next callchain_cache__slots(). */
static inline void callchain_cache__filled(struct callchain_cache *cache)
{
	cache_size__fill(&cache->size);
}

bool callchain_cache__remake(struct callchain_cache *cache)
{
	size_t nr = (size_t)1 << cache->size.bits;

	if (cache->no_memory || cache->borrowed)
		return false;
	callchain_cache__drop(cache);
	/* written now: slots are read before they are written */
	cache->slots = zalloc_written(nr * sizeof(*cache->slots));
	cache->no_memory = !cache->slots;
	if (cache->slots)
		cache->nr_slots = nr;
	return cache->slots != NULL;
}

void callchain_cache__free(struct callchain_cache *cache)
{
	if (!cache)
		return;
	pr_debug("callchain cache: %" PRIu64 " hits, %" PRIu64 " misses, %zu slots\n",
		 cache->nr_hits, cache->nr_misses, cache->nr_slots);
	callchain_cache__drop(cache);
	free(cache->key);
	free(cache->walk.e);
	free(cache);
}

static uint64_t chain_hash(const uint64_t *ips, uint64_t nr, const void *maps, uint8_t cpumode,
			   uint32_t opts_key)
{
	uint64_t h = ((uintptr_t)maps ^ ((uint64_t)cpumode << 56) ^ opts_key) * 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 0xff51afd7ed558ccdULL + (h >> 29);
	return h ^ (h >> 31) ^ nr;
}

/* Frames whose answer stays valid while the maps generation does (and,
 * for DWARF chains, the debuginfo generation: their inlined symbols and
 * srclines are interned per DSO, the truncated marker's symbol is static). */
static bool frames__cacheable(const struct callchain_frame *f, unsigned int nr, bool dwarf)
{
	for (unsigned int i = 0; i < nr; i++) {
		const struct dso *dso = f[i].map ? f[i].map->dso : NULL;

		if (!dwarf && (f[i].inlined || f[i].truncated))
			return false;
		if (dso && dso->kind != DSO_USER && dso->kind != DSO_KERNEL)
			return false;
		if (dso && !__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE))
			return false;
	}
	return true;
}

void chain_key__init(struct chain_key *k, const struct callchain_cache *cache,
		     const uint64_t *ips, size_t nr, struct thread *thread, uint8_t cpumode,
		     uint32_t opts_key)
{
	k->ips = ips;
	k->nr = nr;
	k->maps = thread->maps;
	k->machine = thread__machine(thread);
	k->cpumode = cpumode;
	k->opts_key = opts_key;
	k->gen = maps__current_generation();
	k->dgen = debuginfo__generation();
	k->hash = chain_hash(ips, nr, k->maps, cpumode, k->opts_key);
	k->slot = k->hash >> (64 - __builtin_ctzll(cache->nr_slots));	/* a power of two */
}

/* Remember the cursor's frames as the chain k's, in its slot; the
 * entry, or NULL (no memory: the slot is then empty). */
static struct chain_cache_entry *chain_cache__store(struct callchain_cache *cache,
						    const struct chain_key *k,
						    struct callchain_cursor *cursor)
{
	struct chain_slot *sl = &cache->slots[k->slot];
	struct chain_cache_entry *e = sl->e;
	size_t need = k->nr * sizeof(*e->ips) + cursor->nr * sizeof(*e->frames);

	if (!e || e->cap < need) {
		size_t held = e ? sizeof(*e) + e->cap : 0;

		if (cache->bytes - held + sizeof(*e) + need > cache->max_bytes) {
			if (e)
				e->id = 0;	/* full: the old chain stays, unused */
			return NULL;
		}
		free(e);
		cache->bytes -= held;
		sl->e = e = malloc(sizeof(*e) + need);
		if (!e)
			return NULL;
		cache->bytes += sizeof(*e) + need;
		e->cap = need;
	}
	e->ips = (uint64_t *)(e + 1);
	e->frames = (struct callchain_frame *)(e->ips + k->nr);
	memcpy(e->ips, k->ips, k->nr * sizeof(*e->ips));
	if (cursor->nr)
		memcpy(e->frames, cursor->frames, cursor->nr * sizeof(*e->frames));
	e->hash = k->hash;
	e->gen = k->gen;
	e->dgen = k->dgen;
	e->maps = k->maps;
	e->machine = k->machine;
	e->opts_key = k->opts_key;
	e->cpumode = k->cpumode;
	e->discarded = cursor->discarded;
	e->truncated = cursor->truncated;
	e->unwound = false;
	e->nr_ips = (uint32_t)k->nr;
	e->nr_frames = cursor->nr;
	e->id = cache->next_id++;
	cursor->chain_id = e->id;
	callchain_cache__filled(cache);
	return e;
}

struct chain_cache_entry *chain_cache__resolved(struct callchain_cache *cache,
						const struct chain_key *k,
						struct callchain_cursor *cursor, bool dwarf)
{
	if (maps__current_generation() != k->gen || debuginfo__generation() != k->dgen ||
	    !frames__cacheable(cursor->frames, cursor->nr, dwarf))
		return NULL;
	if (cache->slots[k->slot].seen != k->hash) {
		cache->slots[k->slot].seen = k->hash;	/* first time: stored if met again */
		callchain_cache__filled(cache);
		return NULL;
	}
	return chain_cache__store(cache, k, cursor);
}

