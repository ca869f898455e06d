/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_EVSEL_H
#define PRF_KERNEL_EVSEL_H
/*
 * evsel: one event selector, i.e. one perf_event_attr plus its name and,
 * once opened, one fd per (cpu, thread). Created by parse_events() (or by
 * the perf.data reader from the file's attr section), opened by stat and
 * record. Follows perf_event_open(2).
 */
#include <linux/perf_event.h>
#include "callchain-record.h"
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "../lib/list.h"

struct perf_cpu_map;
struct perf_thread_map;
struct cgroup;

/* Counter value as read with read_format TOTAL_TIME_ENABLED|RUNNING. */
struct perf_counts_values {
	uint64_t val;
	uint64_t ena;	/* time_enabled, ns */
	uint64_t run;	/* time_running, ns */
	uint64_t id;
	uint64_t lost;
};

/*
 * Per-event config terms of an event string ("cpu-clock/period=1000,
 * call-graph=dwarf,max-stack=8/", "sched:sched_switch/max-stack=3/"), as
 * perf-list(1) documents them; record applies them over its options.
 */
struct evsel_config {
	bool has_period, has_freq, has_time, has_inherit, has_callgraph;
	bool has_weak_period;		/* an alias's period (a JSON event's
					   SampleAfterValue) after every period=/
					   freq= term: it wins over them and -F,
					   -c wins over it (perf's weak term) */
	uint64_t weak_period;
	uint64_t period;		/* period=N: every Nth event */
	uint64_t freq;			/* freq=N: Hz */
	bool time;			/* time=0|1: PERF_SAMPLE_TIME off/on */
	bool inherit;			/* inherit / no-inherit */
	struct callchain_record cg;	/* call-graph=fp|dwarf|lbr|no, stack-size=N */
	unsigned int max_stack;		/* max-stack=N frames (0: not given) */
};

struct evsel {
	struct list_head node;		/* in evlist->entries */
	struct perf_event_attr attr;
	char *name;			/* as perf prints it: "cycles", "cpu-clock:u",
					   "sched:sched_switch", "cpu/event=0x3c/" */
	char *filter;			/* tracepoint filter (PERF_EVENT_IOC_SET_FILTER) */
	char *pmu_name;			/* "cpu", "software", "tracepoint", ... */
	char *tp_sys, *tp_name;		/* tracepoint system/name */
	struct evsel *leader;		/* group leader; self when not grouped */
	int nr_members;			/* leader only: group size incl. leader */
	int idx;			/* position in the evlist, 0-based */
	int core_nr;			/* reserved */
	bool exclude_GH;		/* modifier bookkeeping for the parser */
	bool precise_max;		/* :P */
	bool weak_group;		/* :W */
	bool sample_read;		/* :S */
	bool unsupported;		/* open failed with ENOENT/EOPNOTSUPP */
	bool supported;			/* at least one fd opened */
	bool tracking;			/* carries comm/mmap/task side-band */
	struct cgroup *cgrp;		/* count only in this cgroup (cgroup.h), a
					   reference owned; NULL: everywhere */
	int tool_event;			/* enum tool_event (event-names.h): a
					   dummy counter stat fills in; 0: none */
	struct evsel_config config;	/* event/terms/ beyond the PMU's own */
	struct perf_cpu_map *own_cpus;	/* an uncore PMU's cpumask (owned), the
					   cpus it counts on system-wide unless
					   -C names others; NULL: none */
	bool own_cpus_only;		/* evsel__open() skips the cpus of its map
					   that own_cpus lacks (their fds stay -1):
					   set for system-wide runs without -C */
	int merge_group;		/* >0: one of the evsels an alias or PMU
					   name made on several PMUs (uncore_imc_0,
					   _1), the same number for each: stat adds
					   their counts in one row (perf's merged
					   aliases) unless --no-merge */
	char *unit;			/* its alias's unit ("MiB"), or NULL */
	double scale;			/* its alias's scale: stat prints count *
					   scale in unit; 0: none (1) */
	bool uniquify;			/* a PMU's event, named as written (no
					   name= term): with --no-merge, stat
					   names it after its PMU */

	/* open state: fds[cpu_idx * nr_threads + thread_idx], -1 when closed */
	int *fds;
	uint64_t *ids;			/* kernel ids (PERF_EVENT_IOC_ID), same layout */
	int nr_cpus, nr_threads;
	struct perf_cpu_map *cpus;	/* not owned */
	struct perf_thread_map *threads;/* not owned */

	void *priv;			/* per-command data (stat counts, ...) */
};

/*
 * The callchain evsel's samples take: its call-graph= term's, else, when
 * it has max-stack=, the command's (global) or fp where that is none (as
 * perf), else global. *tmp holds a made-up answer.
 */
const struct callchain_record *evsel__callchain(const struct evsel *evsel,
						const struct callchain_record *global,
						struct callchain_record *tmp);
/*
 * Apply the period, freq, time and inherit terms (evsel->config) to attr,
 * over what the command's options set (perf applies them last too); a
 * weak period (an alias's) only when the user gave no period (-c):
 * user_period.
 */
void evsel__apply_config_terms(struct evsel *evsel, bool user_period);

/* New evsel with a copy of attr; name may be NULL (derived later). Returns
 * NULL on ENOMEM. Free with evsel__delete(). idx is set by evlist__add(). */
struct evsel *evsel__new(const struct perf_event_attr *attr);
void evsel__delete(struct evsel *evsel);
/* Replace the name (copied). 0 or -ENOMEM. */
int evsel__set_name(struct evsel *evsel, const char *name);
/* Name as perf prints it; when not set, derived once with
 * perf_event_attr__snprintf_name() (event-names.h) and cached in ->name
 * (owned by the evsel). Never NULL. */
const char *evsel__name(struct evsel *evsel);
static inline bool evsel__is_group_leader(const struct evsel *e) { return e->leader == e; }
/* Samples carry user registers and a user stack copy (REGS_USER and
 * STACK_USER in sample_type): DWARF callchains. NULL: false. */
static inline bool evsel__has_dwarf_stack(const struct evsel *e)
{
	const uint64_t bits = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return e && (e->attr.sample_type & bits) == bits;
}

/*
 * Open one fd per (cpu, thread) with perf_event_open(2); group members use
 * the leader's fd for the same cpu/thread. cpus/threads must outlive the
 * evsel's open state. Returns 0 or -errno of the first failure (all fds of
 * this evsel closed again on failure; ->unsupported set for ENOENT,
 * EOPNOTSUPP and ENODEV). With several threads, a task that exited since
 * the map was made (ESRCH) is skipped: its fd stays -1 and reading it
 * gives -EBADF; -ESRCH only when every task is gone. With own_cpus_only
 * the cpus outside own_cpus are skipped the same way (-ENODEV when that
 * leaves none). Opens with
 * PERF_FLAG_FD_CLOEXEC and records each fd's PERF_EVENT_IOC_ID in ->ids.
 */
int evsel__open(struct evsel *evsel, struct perf_cpu_map *cpus, struct perf_thread_map *threads);
void evsel__close(struct evsel *evsel);
/* Read one counter (read_format as set in attr, without GROUP; the
 * values in ns/counts as the kernel gives them, unscaled). 0, -EINVAL for
 * a bad index or a GROUP read_format, -EBADF for an fd not opened, or the
 * read(2) -errno. */
int evsel__read_counter(struct evsel *evsel, int cpu_idx, int thread_idx,
			struct perf_counts_values *count);
/*
 * Read a whole group through the leader's fd (leader->attr.read_format has
 * PERF_FORMAT_GROUP; perf_event_open(2) "Reading results"): fills
 * counts[0..nr-1] in group order (leader first), each with the group's
 * time_enabled/time_running. Returns the number of values filled or
 * -errno (-EINVAL without PERF_FORMAT_GROUP).
 */
int evsel__read_group(struct evsel *leader, int cpu_idx, int thread_idx,
		      struct perf_counts_values *counts, int nr);
/* ioctl(2) every open fd of evsel (PERF_EVENT_IOC_ENABLE/DISABLE/RESET...).
 * Returns 0 or the last -errno. */
int evsel__ioctl(struct evsel *evsel, unsigned long request, unsigned long arg);
/* Human message for an open error (EACCES -> perf_event_paranoid hint,
 * ENOENT/EOPNOTSUPP -> not supported, EMFILE -> too many open files...). */
int evsel__open_strerror(struct evsel *evsel, int err, char *buf, size_t size);
/*
 * perf's fallback for unprivileged users: when perf_event_paranoid is above
 * 1 (or unreadable) and the open failed with EACCES/EPERM (err, negative
 * errno), switch the evsel to user space only (exclude_kernel) and rename
 * it "<name>:u". Returns true when the attr changed and the open is worth
 * retrying; false leaves the evsel untouched.
 */
bool evsel__fallback_exclude_kernel(struct evsel *evsel, int err);

/* Size in bytes of one PERF_RECORD_SAMPLE's fixed part for sample_type. */
int evsel__sample_size(uint64_t sample_type);

#endif
