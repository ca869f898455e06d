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

/*
 * Set the cpu and thread maps the evsels are opened on. The evlist takes
 * one reference of each (dropping the previous maps); the caller keeps its
 * own. Either may be NULL to leave it unchanged.
 */
void evlist__set_maps(struct evlist *evlist, struct perf_cpu_map *cpus,
		      struct perf_thread_map *threads);
/* Append one evsel per attr (copied). 0 or -ENOMEM (evlist unchanged). */
int evlist__add_attrs(struct evlist *evlist, const struct perf_event_attr *attrs, int nr);
/*
 * Make groups: every evsel from leader up to the next evsel whose leader
 * is itself belongs to leader; recompute nr_members/nr_groups from the
 * ->leader pointers (parse_events sets those). Idempotent.
 */
void evlist__update_groups(struct evlist *evlist);
/*
 * Open every evsel on evlist->cpus x evlist->threads. Returns 0, or the
 * -errno of the first failing evsel with *failed set to it (when failed is
 * non-NULL); evsels before it stay open. Callers that tolerate unsupported
 * events (stat) open evsel by evsel instead.
 */
int evlist__open(struct evlist *evlist, struct evsel **failed);
void evlist__close(struct evlist *evlist);
/* Whether the evlist has events and each counts on cpus of its own: an
 * uncore PMU's (evsel->own_cpus) or a tool event (perf's cpu 0). */
bool evlist__own_cpus_only(struct evlist *evlist);
/* PERF_EVENT_IOC_ENABLE / DISABLE on every open fd. */
void evlist__enable(struct evlist *evlist);
void evlist__disable(struct evlist *evlist);

#endif
