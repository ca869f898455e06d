/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SCHED_H
#define PRF_ANALYSIS_SCHED_H
/*
 * Scheduler analysis over the sched tracepoints (sched:sched_switch,
 * sched_wakeup/sched_waking/sched_wakeup_new, sched_migrate_task,
 * sched_stat_runtime) of a recording, delivered by the session in time
 * order: per-task run/wait/sleep accounting from their payloads (read
 * through util/session/trace-format.h), printed the way perf 6.1's
 * `perf sched latency`, `timehist`, `map` and `replay` print them.
 *
 * Times are ns internally and printed as perf does (msec with three
 * decimals, timestamps as sec.usec truncated). Tasks are keyed by tid;
 * their comm and process come from the session's machine at the moment
 * perf would read them (at print time for timehist and map, at the end
 * for latency).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "../format/event.h"

struct evsel;
struct perf_session;
struct sched;

enum sched_cmd {
	SCHED_LATENCY,
	SCHED_TIMEHIST,
	SCHED_MAP,
	SCHED_REPLAY,
};

struct sched_opts {
	enum sched_cmd cmd;
	int verbose;
	/* latency */
	const char *sort;	/* "avg, max, switch, runtime" by default */
	bool per_pid;		/* -p: one row per task, not per comm */
	int profile_cpu;	/* -C: -1 for all */
	bool callchain;		/* --callchain: stack at the worst delay's start */
	/* timehist */
	bool summary, summary_only, wakeups, cpu_visual, state, migrations, next;
	bool idle_hist;
	bool show_callchain;	/* -g (default on): stacks after each line */
	unsigned int max_stack;	/* --max-stack: frames resolved, 2 more than shown */
	const char *cpu_list;	/* -C: cpus to show */
	const char *pids, *tids;	/* -p/-t filters */
	uint64_t time_start, time_end;	/* --time, ns; 0 open */
	/* map */
	bool compact;
	const char *map_cpus, *color_pids, *color_cpus;
	/* replay */
	unsigned int repeat;
};

/*
 * New analysis over session s (not owned) for opts (copied; its strings
 * must outlive the analysis). NULL with *err = -ENOMEM or -EINVAL (a bad
 * sort key or cpu/pid list: message printed).
 */
struct sched *sched__new(struct perf_session *s, const struct sched_opts *opts, int *err);
void sched__delete(struct sched *sc);

/*
 * Before processing: check the recording holds sched_switch samples
 * (timehist needs them: perf's message and -EINVAL otherwise; the other
 * views only say when there are no tracepoints at all) and prepare
 * per-evsel handlers; prints timehist's header. 0 or -EINVAL.
 */
int sched__start(struct sched *sc);

/*
 * Whether a sample of evsel on cpu can change what the analysis prints:
 * false for those sched__sample() would ignore (other events,
 * sched_waking but in timehist, map's non-switch samples, latency's
 * migrations without -C, timehist's sched_stat_runtime and unshown
 * migrations on CPUs at or below the highest seen so far, which could
 * only raise that). For the session's sample_wanted filter
 * (util/session/session.h).
 */
bool sched__sample_wanted(struct sched *sc, struct evsel *evsel, uint32_t cpu);

/* One sample (any event; non-sched ones are ignored). 0 or -errno. */
int sched__sample(struct sched *sc, struct perf_sample *sample, struct evsel *evsel);

/* A COMM record was applied to the machine; tid is its sample's (perf
 * marks that task, which for records synthesized at the start, whose
 * sample ids are 0, is the idle task): map reprints the task's name. */
void sched__comm(struct sched *sc, pid_t tid);

/*
 * A FORK record is about to be applied to the machine. perf's model then
 * drops what it knew of the child's tid and, when the parent's known
 * process differs from ppid, of the parent: their accounting starts
 * afresh (latency keeps the old rows). 0 or -ENOMEM.
 */
int sched__fork_begin(struct sched *sc, pid_t ppid, pid_t ptid, pid_t pid, pid_t tid);
/* A FORK record was applied to the machine: replay registers the parent
 * and the child (perf's fork handler). 0 or -ENOMEM. */
int sched__fork(struct sched *sc, pid_t ppid, pid_t ptid, pid_t pid, pid_t tid);

/* A LOST record: timehist prints it. */
void sched__lost(struct sched *sc, uint64_t lost, struct perf_sample *sample);

/* After processing: the tables (latency, timehist summary, replay run).
 * 0 or -errno. */
int sched__finish(struct sched *sc);

#endif
