/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_TRACE_H
#define PRF_ANALYSIS_TRACE_H
/*
 * `perf trace`'s syscall view over the samples of the syscall tracepoints
 * (raw_syscalls:sys_enter/sys_exit, or syscalls:sys_enter_NAME/
 * sys_exit_NAME): each sys_enter is formatted (syscall-fmt.h) and kept per
 * thread; its sys_exit prints the line
 *
 *      0.420 ( 0.009 ms): t/1415 openat(dfd: CWD, filename: 0x50a31140, flags: RDONLY|CLOEXEC) = 3
 *
 * (ms since the first sample, or absolute with full_time; duration; comm/
 * tid; the call padded to 70 columns; "= " and the return value), a
 * sys_enter interrupted by another thread's prints "... " and its exit
 * "... [continued]: name()", exit/exit_group print "= ?"; a sys_exit
 * sample with a callchain has its frames printed under the line. The summary is
 * perf 6.1's per-thread table (calls, errors, total/min/avg/max msec,
 * stddev of the mean in % of the mean), threads in perf's order.
 * Layout as perf 6.1's builtin-trace.c prints it, uncoloured.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct evsel;
struct perf_sample;
struct perf_session;
struct syscall_tbl;
struct syscall_trace;

struct syscall_trace_opts {
	FILE *out;			/* where lines and the summary go; not owned */
	bool summary;			/* gather per-thread syscall statistics */
	bool summary_only;		/* ... and print no syscall lines (-s) */
	bool errno_summary;		/* errno counts under each summary row */
	bool failure_only;		/* only calls that returned an error */
	bool full_time;			/* absolute timestamps (-T) */
	bool show_comm;			/* "comm/" before the tid (default) */
	bool live;			/* fds get their /proc/PID/fd path */
	double duration_ms;		/* only calls lasting at least this (0: all) */
	uint64_t max_events;		/* stop after printing this many (0: no limit) */
	unsigned int max_stack;		/* callchain frames printed (0: 127) */
	unsigned int min_stack;		/* only calls whose callchain has this many */
	bool sched;			/* summary: each thread's sched_stat_runtime total */
};

/*
 * New syscall view printing with opts over the syscall table tbl (not
 * owned). NULL on ENOMEM. Free with syscall_trace__delete().
 */
struct syscall_trace *syscall_trace__new(const struct syscall_trace_opts *opts,
					 struct syscall_tbl *tbl);
void syscall_trace__delete(struct syscall_trace *st);

/*
 * Only the syscalls in nrs (n numbers) are shown and counted, or, with
 * negate, all but those. Copies nrs. 0 or -ENOMEM.
 */
int syscall_trace__set_filter(struct syscall_trace *st, const int *nrs, int n, bool negate);

/* Whether only one thread is traced (perf then prints no comm/tid). */
void syscall_trace__set_single_thread(struct syscall_trace *st, bool single);

/*
 * Whether evsel is one of the syscall tracepoints this view understands
 * (needs the session's tracepoint formats).
 */
bool syscall_trace__handles(struct syscall_trace *st, struct perf_session *s, struct evsel *evsel);

/*
 * One sample of session s: a syscall tracepoint's is printed/counted, any
 * other is ignored (but counted for the summary's percentages, as perf
 * counts every sample it handles). 0, or -ENOMEM.
 */
int syscall_trace__sample(struct syscall_trace *st, struct perf_session *s, struct evsel *evsel,
			  struct perf_sample *sample);

/*
 * Whether max_events lines were printed (perf trace --max-events: a
 * sys_exit line, or a call interrupted by another thread's, is one
 * event); later samples are ignored.
 */
bool syscall_trace__done(const struct syscall_trace *st);
/* Count one more record toward the summary's "% of events" (live mode
 * counts every record read from the ring buffers, as perf does). */
void syscall_trace__count_record(struct syscall_trace *st);

/*
 * Print the summary ("\n Summary of events:\n\n" and a table per thread)
 * with the threads' comms from session s. 0 or -EIO (output error).
 */
int syscall_trace__print_summary(struct syscall_trace *st, struct perf_session *s);

#endif
