/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_THREAD_STACK_H
#define PRF_ANALYSIS_THREAD_STACK_H
/*
 * A thread's call stack as perf's call/return processor keeps it for a
 * db export with perf_db_export_calls (the "calls" table of
 * export-to-sqlite.py), for samples that carry no branch information:
 * perf feeds it the samples whose data address correlates with a symbol
 * (software page-fault events with PERF_SAMPLE_ADDR). Then the stack
 * only ever holds its bottom entry: the first sample of the thread (or
 * the first after a flush) puts its ip and symbol there as a call never
 * seen; every sample, that one included, counts as one branch. A flush
 * (an exec of the process, the reuse of its tid, the end of the samples)
 * returns the entry as a call with neither its call nor its return seen.
 *
 * The stack knows ids only: the caller's comm object, symbol and sample
 * ids, so that the db export turns a call into its rows.
 */
#include <stdbool.h>
#include <stdint.h>

/* perf's call_return flags (the calls table's flags column) */
#define CALL_RETURN_NO_CALL	(1U << 0)	/* the call was not seen */
#define CALL_RETURN_NO_RETURN	(1U << 1)	/* the return was not seen */

/* One call, handed to the flush callback. */
struct call_return {
	const void *comm;	/* the stack's comm when the call was pushed */
	uint64_t sym_id;	/* the call path's symbol id (0: none, then ip) */
	uint64_t ip;
	uint64_t call_time;	/* ns: the sample that pushed it */
	uint64_t return_time;	/* ns: the last sample before the flush */
	uint64_t branch_count;	/* samples since it was pushed, its own included */
	uint64_t call_ref;	/* the sample id that pushed it */
	unsigned int flags;	/* CALL_RETURN_* */
};

/* Receives each call of a flush: 0, or a negative errno that stops it. */
typedef int (*thread_stack_cb)(void *ctx, const struct call_return *cr);

/* Zeroed: an empty stack of no comm. */
struct thread_stack {
	bool started;		/* a sample was seen: comm is set */
	bool has_bottom;
	const void *comm;	/* the process's comm at the last sample */
	uint64_t branch_count;	/* samples seen */
	uint64_t last_time;	/* ns of the last sample */
	struct {
		uint64_t sym_id, ip, time, ref, branch_count;
	} bottom;
};

/*
 * One sample of the thread: comm, the process's comm object (its exec
 * comm; compared by address); main: the thread is its process's main
 * thread, whose change of comm (an exec) flushes the stack first, the
 * flush's calls to cb(ctx). time in ns; sym_id and ip: the sample's
 * symbol id, and its ip when sym_id is 0 (both 0: nothing to push);
 * ref: the sample's id. 0, or cb's error.
 */
int thread_stack__sample(struct thread_stack *ts, const void *comm, bool main, uint64_t time,
			 uint64_t sym_id, uint64_t ip, uint64_t ref, thread_stack_cb cb, void *ctx);

/* Empty the stack, each entry to cb(ctx) as a call_return, top first.
 * 0, or cb's error. */
int thread_stack__flush(struct thread_stack *ts, thread_stack_cb cb, void *ctx);

#endif
