/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_LIVE_H
#define PRF_SESSION_LIVE_H
/*
 * A live session: the caller's events opened on a target (a command
 * forked corked and started with enable_on_exec, -p pids, -t tids, -a /
 * -C cpus), their ring buffers drained by the record loop
 * (util/kernel/record-loop.h) and every record delivered, as it arrives,
 * to a perf_tool through a perf_session that has no file
 * (perf_session__deliver_live()): side-band into the session's machine
 * (threads and comms for resolving), samples to tool->sample. The
 * existing tasks' COMM/FORK/MMAP2 records are synthesized from /proc
 * first (and the kernel's maps with synth_kernel), so consumers see them
 * as in a perf.data file. The records of each drain pass over the
 * buffers are delivered at its end in time order (the buffers are per
 * cpu: a task that migrated has its records in two), not across passes.
 *
 * Used by `prf trace` and `prf top`.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include "session.h"

struct evlist;

/*
 * prf top --record: every record the live session delivers (the
 * synthesized side-band first, then the ring buffers' records, a
 * PERF_RECORD_FINISHED_ROUND after each drain pass) also written to a
 * perf.data file through record's writer (util/format/writer.h), its
 * features (build-ids of the DSOs samples hit, sample times, the command
 * line) and final header written by live__delete(). A write error ends
 * the writing (one message), not the live session.
 */
struct live_record {
	const char *path;		/* the file (an old one becomes PATH.old) */
	const char *version;		/* HEADER_VERSION text */
	int argc;			/* HEADER_CMDLINE */
	const char **argv;
};

struct live_target {
	const char *pid_str, *tid_str;	/* -p / -t lists */
	const char *cpu_list;		/* -C */
	bool system_wide;		/* -a */
	bool no_inherit;		/* children are not followed */
	bool synth_kernel;		/* synthesize the kernel's and modules' maps */
	unsigned int mmap_pages;	/* ring buffer data pages per cpu (power of 2; 0: 128) */
	const struct live_record *record;	/* also write a perf.data; NULL: no */
};

struct live;

/*
 * Set up: the target (argv, NULL-terminated, when there is no pid/tid/cpu
 * target: forked now, waiting to exec), evlist's attrs completed for it
 * (disabled, inherit, enable_on_exec for a command, sample_id_all, the
 * first evsel tracking comm/task/mmap; the caller chose type, config,
 * sample_type and period), the events opened with their tracepoint
 * filters, the ring buffers mapped, a session for tool made (owning
 * evlist from now on: freed by live__delete() even on error), an existing
 * target's events enabled (a command's wait for live__run()) and the
 * side-band synthesized into it. NULL with *err = -errno after a message
 * (perf's wording for open errors, "Couldn't find process" for a dead
 * -p pid).
 */
struct live *live__new(struct evlist *evlist, const struct live_target *target,
		       const char *const *argv, struct perf_tool *tool, int *err);
/* The session records are delivered through (owned by live). */
struct perf_session *live__session(struct live *live);
/*
 * Call fn(arg) every interval_ms (ms > 0) while live__run() runs, from its
 * loop between drain passes (after the records read so far were
 * delivered), at most that late: poll(2) then waits no longer than the
 * tick needs. prf top's refresh. After live__new().
 */
void live__set_tick(struct live *live, unsigned int interval_ms, void (*fn)(void *arg), void *arg);
/*
 * Also wait for fd (a terminal's keyboard) in live__run(): fn(arg) is
 * called when it is readable. After live__new().
 */
void live__set_input(struct live *live, int fd, void (*fn)(void *arg), void *arg);
/* Number of threads in the thread map (-1 entries: per-cpu targets count
 * as one "any thread" entry). */
int live__nr_threads(struct live *live);
/* Pid of the command, -1 when there is none. */
pid_t live__workload_pid(struct live *live);
/*
 * Start (enable the events, let the command exec) and deliver records
 * until the command has exited and its records are read, until every
 * traced task is gone, or until *stop is set (a signal handler); then
 * disable and drain once more. Returns 0, -errno of a failed exec (after perf's message),
 * or the first negative errno a tool callback returned.
 */
int live__run(struct live *live, volatile sig_atomic_t *stop);
/*
 * SIGINT, SIGTERM and SIGCHLD (the command ended) set *stop, the flag to
 * pass to live__run(). Call before live__new() so that no SIGCHLD is
 * missed.
 */
void live__stop_on_signals(volatile sig_atomic_t *stop);
/* Records read so far from the ring buffers. */
uint64_t live__nr_records(struct live *live);
/* -errno of the command's failed exec (live__run() returned it), else 0. */
int live__exec_error(struct live *live);
/* Exit status of the command as a shell gives it (128 + signal when
 * killed), 0 when there is none. After live__run(). */
int live__exit_status(struct live *live);
/*
 * Let the command run on unwatched: live__run() and live__delete() then
 * neither stop nor reap it, and live__exit_status() is 0 (perf trace
 * --max-events leaves its workload running when it stops). Call from a
 * tool callback before setting the stop flag.
 */
void live__release_workload(struct live *live);
/* Bytes and samples written with live_target.record (0 without). */
uint64_t live__record_bytes(struct live *live);
uint64_t live__record_samples(struct live *live);
/* Stop and reap a command still running, finish the --record file (its
 * features and header), unmap, close, free. */
void live__delete(struct live *live);

#endif
