// SPDX-License-Identifier: GPL-2.0
/* thread: address resolution in a thread's (or the kernel's) address space. */
#include <string.h>
#include "thread.h"
#include "maps.h"
#include "map.h"
#include "dso.h"

void thread__find_symbol(struct thread *thread, uint8_t cpumode, uint64_t addr,
			 struct addr_location *al)
{
	struct maps *maps = NULL;
	struct map *map;

	al->thread = thread;
	al->map = NULL;
	al->sym = NULL;
	al->addr = addr;
	al->cpumode = cpumode;
	al->cpu = -1;
	al->filtered = false;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		al->level = 'k';
		maps = machine__kernel_maps(thread__machine(thread));
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		al->level = 'g';
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		al->level = 'u';
		break;
	case PERF_RECORD_MISC_HYPERVISOR:
		al->level = 'H';
		break;
	case PERF_RECORD_MISC_USER:
	default:
		al->level = '.';
		maps = thread__maps(thread);
		break;
	}
	if (!maps)
		return;
	map = maps__find(maps, addr);
	if (!map)
		return;
	al->map = map;
	al->addr = map__map_ip(map, addr);
	al->sym = dso__find_symbol(map->dso, al->addr);
}
