/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_EVLIST_H
#define PRF_KERNEL_EVLIST_H
/*
 * evlist: the ordered list of evsels of one command (or one perf.data
 * file), plus the cpu/thread maps they are opened on and, for record, the
 * ring buffers. Owns its evsels.
 */
#include <poll.h>
#include "evsel.h"

struct perf_cpu_map;
struct perf_thread_map;

struct evlist {
	struct list_head entries;
	int nr_entries;
	int nr_groups;
	struct perf_cpu_map *cpus;	/* owned when set via evlist__set_maps */
	struct perf_thread_map *threads;
	void *mmap;			/* ring buffers (util/kernel/mmap.h), record only */
	int nr_mmaps;
	struct pollfd *pollfd;
	int nr_pollfd;
	pid_t workload_pid;		/* -1 when none */
	int workload_cork_fd;		/* write end of the exec go-pipe, -1 */
};

#define evlist__for_each_entry(evlist, evsel) \
	list_for_each_entry(evsel, &(evlist)->entries, node)
#define evlist__first(evlist) list_first_entry(&(evlist)->entries, struct evsel, node)
#define evlist__last(evlist)  list_last_entry(&(evlist)->entries, struct evsel, node)

/* Empty evlist; NULL on ENOMEM. evlist__delete() frees evsels and maps. */
struct evlist *evlist__new(void);
void evlist__delete(struct evlist *evlist);
/* Append; sets evsel->idx. The evlist takes ownership. */
void evlist__add(struct evlist *evlist, struct evsel *evsel);
/* Find by kernel sample id (PERF_SAMPLE_ID/IDENTIFIER); NULL if unknown. */
struct evsel *evlist__id2evsel(struct evlist *evlist, uint64_t id);

#endif
