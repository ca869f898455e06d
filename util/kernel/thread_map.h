/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_THREAD_MAP_H
#define PRF_KERNEL_THREAD_MAP_H
/*
 * perf_thread_map: the task ids an evsel is opened on (the `pid` argument
 * of perf_event_open(2)), with each task's comm for --per-thread output.
 * A "dummy" map has one entry -1, used for cpu-wide counting (-a, -C).
 * Reference counted like perf_cpu_map.
 */
#include <sys/types.h>

struct thread_map_entry {
	pid_t pid;		/* task id (tid), -1 for the dummy entry */
	char *comm;		/* from /proc/PID/task/TID/comm; NULL if unknown */
};

struct perf_thread_map {
	int refcnt;
	int nr;
	struct thread_map_entry map[];
};

/*
 * From a -p list "1,2": every task of each process (/proc/PID/task/ *).
 * Returns NULL with errno ESRCH when a process does not exist, EINVAL on
 * a syntax error, ENOMEM.
 */
struct perf_thread_map *thread_map__new_by_pid_str(const char *pid_list);
/* From a -t list "1,2": exactly those task ids (checked in /proc). NULL
 * with errno ESRCH/EINVAL/ENOMEM. */
struct perf_thread_map *thread_map__new_by_tid_str(const char *tid_list);
/* Every task of every process in /proc now (stat -a --per-thread, as
 * perf); tasks that exit while it is read are left out. NULL with errno
 * (ENOMEM, or opendir's) on failure. */
struct perf_thread_map *thread_map__new_all(void);
/* One task (e.g. the forked workload); comm read later. NULL on ENOMEM. */
struct perf_thread_map *thread_map__new_by_tid(pid_t tid);
/* One entry, -1: for cpu-wide counting. NULL on ENOMEM. */
struct perf_thread_map *perf_thread_map__new_dummy(void);
struct perf_thread_map *perf_thread_map__get(struct perf_thread_map *map);
void perf_thread_map__put(struct perf_thread_map *map);
int perf_thread_map__nr(const struct perf_thread_map *map);
/* tid at idx, -1 for the dummy entry or an out-of-range idx. */
pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx);
/* comm at idx ("" when unknown). Reads /proc lazily; string owned by map. */
const char *perf_thread_map__comm(struct perf_thread_map *map, int idx);
/* Re-read the comm of every entry (after the workload exec'd). */
void thread_map__read_comms(struct perf_thread_map *map);

#endif
