/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_CHAIN_CACHE_H
#define PRF_MODEL_CHAIN_CACHE_H
/*
 * The callchain (chain) cache of a cursor (callchain_cursor__enable_cache(),
 * callchain.h): resolved frames per raw chain, in a direct-mapped table
 * that grows with use (struct cache_size). The resolver (callchain.c)
 * makes a chain's key, finds it here, and on a hit lends the entry's
 * frames to the cursor; after a miss it offers the resolved frames back
 * (chain_cache__resolved()). Not thread-safe: one cache per cursor or
 * per unwinding thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "callchain.h"
#include "unwind.h"
#include "../lib/util.h"

#define CHAIN_CACHE_MIN_BITS 11	/* slots: 2^11, growing to 2^14 with use */
#define CHAIN_CACHE_MAX_BITS 14
#define CHAIN_CACHE_MAX_IPS 512		/* longer raw chains are not cached */
#define CHAIN_CACHE_MAX_BYTES (32u << 20)	/* entries held, all together */
#define AHEAD_CACHE_MAX_BYTES (4u << 20)	/* the same, of each unwinding thread's */

struct chain_cache_entry {
	uint64_t hash;
	uint64_t id;			/* 0: empty */
	uint64_t gen;			/* maps__generation when made */
	const void *maps, *machine;
	uint32_t opts_key;
	uint8_t cpumode;
	bool discarded;
	bool truncated, unwound;	/* DWARF chains: the cursor's marks */
	unsigned int dgen;		/* DWARF chains: debuginfo__generation() */
	uint32_t nr_ips, nr_frames;
	size_t cap;			/* bytes after this header */
	/* in the same block, after this header: the raw addresses, then the
	 * frames (one cache miss plus sequential lines to compare a chain) */
	uint64_t *ips;
	struct callchain_frame *frames;
};

/* A slot of the table: its chain, and the hash of the last chain resolved
 * there without being stored (a chain is stored the second time it is
 * met, so chains met once, most of them in a big profile, cost no copy
 * and evict no entry that repeats). */
struct chain_slot {
	struct chain_cache_entry *e;	/* NULL: none yet */
	uint64_t seen;
};

/*
 * A DWARF sample's unwound entries, collected before they are resolved:
 * the cache (see dwarf_chain_key()) needs them to know the chain. The
 * walk keeps going where unwind_cb() would have stopped it; replaying
 * stops there and returns what the walk would have returned.
 */
struct raw_walk {
	struct unwind_entry *e;
	unsigned int nr, alloc;
	unsigned int max;	/* unwound frames to keep, as unwind_arg's */
	int err;		/* what the walk returned */
	bool no_memory;
};

struct callchain_cache {
	struct chain_slot *slots;
	size_t nr_slots;		/* of slots */
	struct cache_size size;		/* the size slots is to have */
	uint64_t next_id;
	size_t bytes;			/* held by the entries */
	size_t max_bytes;		/* at most */
	uint64_t nr_hits, nr_misses;	/* statistics */
	bool no_memory;			/* the table could not be made */
	/* on a hit the cursor's frames point into the entry (alloc 0, so any
	 * append goes through callchain_cursor__append(), which takes the
	 * cursor's own array back first); its own array is kept here */
	bool borrowed;
	struct callchain_frame *own;
	unsigned int own_alloc;
	/* DWARF chains: the key of the sample being resolved (see
	 * dwarf_chain_key()) */
	uint64_t *key;
	unsigned int key_nr, key_alloc;
	struct raw_walk walk;		/* its unwound entries */
};

/* What identifies a chain in the cache: the raw addresses (ips: for
 * PERF_SAMPLE_CALLCHAIN chains the callchain itself, for DWARF chains
 * what dwarf_chain_key() makes) and everything else the resolution
 * depends on. */
struct chain_key {
	const uint64_t *ips;
	size_t nr;
	const void *maps, *machine;
	uint64_t gen, hash, slot;
	unsigned int dgen;
	uint32_t opts_key;
	uint8_t cpumode;
};

/* An empty cache holding at most max_bytes of entries (bytes); NULL when
 * there is no memory. Free with callchain_cache__free(). */
struct callchain_cache *callchain_cache__new(size_t max_bytes);

/* Print its statistics (-v) and free cache, its entries and key (NULL:
 * nothing). Frames it lent are gone with it. */
void callchain_cache__free(struct callchain_cache *cache);

/* callchain_cache__slots() past its first test: make the table (again,
 * bigger). false when no memory or frames are lent from it. */
bool callchain_cache__remake(struct callchain_cache *cache);

/* The table, made at the first chain that may use it, and again bigger
 * as it fills (struct cache_size), when no frames are lent from it: at
 * the start of a resolve. false when there is no memory for it: chains
 * are then resolved in full. */
static inline bool callchain_cache__slots(struct callchain_cache *cache)
{
	if (likely(cache->nr_slots == (size_t)1 << cache->size.bits))
		return true;
	return callchain_cache__remake(cache);
}

/*
 * Fill k with the key of the raw chain ips[0..nr) of thread, sampled in
 * cpumode, resolved with options whose resolve_opts__key() is opts_key
 * (k points at ips: keep them until the key is used). The cache has its
 * table (callchain_cache__slots()).
 */
void chain_key__init(struct chain_key *k, const struct callchain_cache *cache,
		     const uint64_t *ips, size_t nr, struct thread *thread, uint8_t cpumode,
		     uint32_t opts_key);

/* The entry holding the chain k, or NULL. */
static inline struct chain_cache_entry *chain_cache__find(struct callchain_cache *cache,
						   const struct chain_key *k)
{
	struct chain_cache_entry *e = cache->slots[k->slot].e;

	if (e && e->id && e->hash == k->hash && e->gen == k->gen && e->dgen == k->dgen &&
	    e->maps == k->maps && e->machine == k->machine && e->cpumode == k->cpumode &&
	    e->opts_key == k->opts_key && e->nr_ips == k->nr &&
	    !memcmp(e->ips, k->ips, k->nr * sizeof(*e->ips)))
		return e;
	return NULL;
}

/*
 * The chain k was just resolved into cursor in full: remember it when it
 * is met the second time and its answer still holds (the maps and the
 * DWARF state unchanged meanwhile, frames that stay valid: dwarf, a DWARF
 * chain). Sets cursor->chain_id when stored. The entry, or NULL.
 */
struct chain_cache_entry *chain_cache__resolved(struct callchain_cache *cache,
						const struct chain_key *k,
						struct callchain_cursor *cursor, bool dwarf);

#endif
