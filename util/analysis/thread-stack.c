// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's call stack for perf's calls export (see thread-stack.h).
 */
#include "thread-stack.h"

int thread_stack__flush(struct thread_stack *ts, thread_stack_cb cb, void *ctx)
{
	struct call_return cr;

	if (!ts->has_bottom)
		return 0;
	ts->has_bottom = false;
	cr = (struct call_return){
		.comm = ts->comm,
		.sym_id = ts->bottom.sym_id,
		.ip = ts->bottom.ip,
		.call_time = ts->bottom.time,
		.return_time = ts->last_time,
		.branch_count = ts->branch_count - ts->bottom.branch_count,
		.call_ref = ts->bottom.ref,
		.flags = CALL_RETURN_NO_CALL | CALL_RETURN_NO_RETURN,
	};
	return cb(ctx, &cr);
}

int thread_stack__sample(struct thread_stack *ts, const void *comm, bool main, uint64_t time,
			 uint64_t sym_id, uint64_t ip, uint64_t ref, thread_stack_cb cb, void *ctx)
{
	if (!ts->started) {
		ts->started = true;
		ts->comm = comm;
	} else if (ts->comm != comm && main) {
		/* an exec: what ran before returns as a whole */
		int err = thread_stack__flush(ts, cb, ctx);

		if (err)
			return err;
		ts->comm = comm;
	}
	if (!ts->has_bottom && (sym_id || ip)) {
		ts->has_bottom = true;
		ts->bottom.sym_id = sym_id;
		ts->bottom.ip = sym_id ? 0 : ip;
		ts->bottom.time = time;
		ts->bottom.ref = ref;
		ts->bottom.branch_count = ts->branch_count;
	}
	ts->branch_count++;
	ts->last_time = time;
	return 0;
}
