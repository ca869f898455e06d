/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_CPUMAP_H
#define PRF_KERNEL_CPUMAP_H
/*
 * perf_cpu_map: a sorted, duplicate-free list of cpu numbers an evsel is
 * opened on (the `cpu` argument of perf_event_open(2)). A "dummy" map has
 * one entry -1 ("any cpu", used when counting a task). Reference counted:
 * __get() takes a reference, __put() drops one and frees at zero.
 */
#include <stdbool.h>

struct perf_cpu_map {
	int refcnt;
	int nr;
	int map[];
};

/*
 * Parse a cpu list such as "0-3,5" (ranges and single numbers separated
 * by commas, as /sys/devices/system/cpu/online and perf -C use). NULL or
 * "" means all online cpus. Returns a new map (refcnt 1) or NULL on a
 * syntax error, an empty result or ENOMEM (errno is set to EINVAL/ENOMEM).
 */
struct perf_cpu_map *perf_cpu_map__new(const char *cpu_list);
/* All online cpus from /sys/devices/system/cpu/online (fallback:
 * sysconf(_SC_NPROCESSORS_ONLN) cpus 0..n-1). NULL on ENOMEM. */
struct perf_cpu_map *perf_cpu_map__new_online(void);
/* One entry, -1: "any cpu" for per-task counting. NULL on ENOMEM. */
struct perf_cpu_map *perf_cpu_map__dummy_new(void);
struct perf_cpu_map *perf_cpu_map__get(struct perf_cpu_map *map);
void perf_cpu_map__put(struct perf_cpu_map *map);
/* Number of entries; 0 for NULL. */
int perf_cpu_map__nr(const struct perf_cpu_map *map);
/* cpu number at idx (-1 for the dummy entry or an out-of-range idx). */
int perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx);
/* Index of cpu in map, or -1. */
int perf_cpu_map__idx(const struct perf_cpu_map *map, int cpu);
/* True for the dummy (-1) map. */
bool perf_cpu_map__empty(const struct perf_cpu_map *map);
/* Print the map as a cpu list ("0-3,5") into buf; returns the length. */
int perf_cpu_map__snprintf(const struct perf_cpu_map *map, char *buf, int size);

#define perf_cpu_map__for_each_cpu(cpu, idx, map)			\
	for ((idx) = 0, (cpu) = perf_cpu_map__cpu(map, 0);		\
	     (idx) < perf_cpu_map__nr(map);				\
	     (idx)++, (cpu) = perf_cpu_map__cpu(map, idx))

#endif
