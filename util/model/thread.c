// SPDX-License-Identifier: GPL-2.0
/* thread: address resolution in a thread's (or the kernel's) address space. */
#include <stdlib.h>
#include <string.h>
#include "thread.h"
#include "maps.h"
#include "map.h"
#include "dso.h"
#include "../lib/util.h"

/*
 * Resolution cache: callchains repeat the same return addresses millions
 * of times, so (maps, address) -> (map, DSO address, symbol) is kept in a
 * direct-mapped per-thread table. An entry is valid while no maps changed
 * anywhere (maps__generation) and the DSO's symbol table is the one the
 * entry was made with (same array, same count: symbols added or reloaded
 * invalidate it). Per thread (TLS) so that parallel unwinders need no lock.
 */
#define RESOLVE_CACHE_MIN_BITS 10
#define RESOLVE_CACHE_MAX_BITS 13

struct resolve_cache_entry {
	const struct maps *maps;
	uint64_t ip;
	uint64_t gen;
	struct map *map;
	struct symbol *sym;
	uint64_t addr;			/* map__map_ip(map, ip) */
	struct symbol **syms;		/* map->dso->symbols when made */
	size_t nr_syms;
};

static __thread struct thread_memo resolve_cache =
	THREAD_MEMO_INIT(RESOLVE_CACHE_MIN_BITS, RESOLVE_CACHE_MAX_BITS);

/* The entry for ip of maps in this thread's table, made on first use and
 * again bigger as it fills (struct thread_memo); NULL when there is no
 * memory for it. */
static inline struct resolve_cache_entry *resolve_cache__slot(const struct maps *maps, uint64_t ip)
{
	return thread_memo__slot(&resolve_cache, sizeof(struct resolve_cache_entry),
				 (ip ^ ((uintptr_t)maps >> 4)) * 0x9e3779b97f4a7c15ULL, NULL);
}

/* Does the entry hold addr of maps, still valid (same maps generation,
 * the DSO's symbol table not reloaded since)? */
static inline bool resolve_cache__hit(const struct resolve_cache_entry *e, const struct maps *maps,
				      uint64_t addr, uint64_t gen)
{
	return e && e->maps == maps && e->ip == addr && e->gen == gen &&
	       e->map->dso->symbols == e->syms && e->map->dso->nr_symbols == e->nr_syms;
}

/* Cache miss: the full lookup, then remember the answer. */
static __attribute__((noinline)) void thread__find_symbol_slow(struct maps *maps, uint64_t addr,
							       uint64_t gen, struct resolve_cache_entry *e,
							       struct addr_location *al)
{
	struct map *map = maps__find(maps, addr);

	if (!map)
		return;
	al->map = map;
	al->addr = map__map_ip(map, addr);
	al->sym = dso__find_symbol(map->dso, al->addr);
	/* only ELF-backed user DSOs and the kernel: their symbols and text
	 * offset are fixed once loaded ([vdso], JIT maps and modules are not
	 * cached; a [vdso] answer was seen to go stale) */
	if (e && (map->dso->kind == DSO_USER || map->dso->kind == DSO_KERNEL) &&
	    __atomic_load_n(&map->dso->symbols_loaded, __ATOMIC_ACQUIRE)) {
		e->maps = maps;
		e->ip = addr;
		e->gen = gen;
		e->map = map;
		e->sym = al->sym;
		e->addr = al->addr;
		e->syms = map->dso->symbols;
		e->nr_syms = map->dso->nr_symbols;
		thread_memo__filled(&resolve_cache);	/* made again at the next lookup when due */
	}
}

void thread__find_symbol(struct thread *thread, uint8_t cpumode, uint64_t addr,
			 struct addr_location *al)
{
	struct resolve_cache_entry *e;
	struct maps *maps;
	uint64_t gen;

	al->thread = thread;
	al->map = NULL;
	al->sym = NULL;
	al->addr = addr;
	al->cpumode = cpumode;
	al->cpu = -1;
	al->filtered = false;
	if (likely(cpumode == PERF_RECORD_MISC_USER)) {
		al->level = '.';
		maps = thread__maps(thread);
	} else {
		switch (cpumode) {
		case PERF_RECORD_MISC_KERNEL:
			al->level = 'k';
			maps = machine__kernel_maps(thread__machine(thread));
			break;
		case PERF_RECORD_MISC_GUEST_KERNEL:
			al->level = 'g';
			return;
		case PERF_RECORD_MISC_GUEST_USER:
			al->level = 'u';
			return;
		case PERF_RECORD_MISC_HYPERVISOR:
			al->level = 'H';
			return;
		default:
			al->level = '.';
			maps = thread__maps(thread);
			break;
		}
	}
	if (unlikely(!maps))
		return;
	gen = maps__current_generation();
	e = resolve_cache__slot(maps, addr);
	if (likely(resolve_cache__hit(e, maps, addr, gen))) {
		al->map = e->map;
		al->addr = e->addr;
		al->sym = e->sym;
		return;
	}
	thread__find_symbol_slow(maps, addr, gen, e, al);
}

bool thread__find_user_map(struct thread *thread, uint64_t addr, struct map **map,
			   struct symbol **sym)
{
	struct maps *maps = thread__maps(thread);
	struct resolve_cache_entry *e;
	struct addr_location al;
	uint64_t gen;

	if (likely(maps)) {
		gen = maps__current_generation();
		e = resolve_cache__slot(maps, addr);
		if (likely(resolve_cache__hit(e, maps, addr, gen))) {
			*map = e->map;
			*sym = e->sym;
			return true;
		}
	}
	thread__find_symbol(thread, PERF_RECORD_MISC_USER, addr, &al);
	*map = al.map;
	*sym = al.sym;
	return al.map != NULL;
}
