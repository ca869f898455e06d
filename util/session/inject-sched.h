/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_INJECT_SCHED_H
#define PRF_SESSION_INJECT_SCHED_H
/*
 * inject -s/--sched-stat (inject.h), as perf-inject(1) describes it: a
 * sched:sched_switch sample holds the callchain where a task went to
 * sleep, a later sched:sched_stat_* sample of that task (its "pid" field)
 * how long it slept (its period). The records are taken in time order
 * (util/format/ordered-events.h, flushed at each FINISHED_ROUND, as perf
 * reads them); each task's last sched_switch sample is kept (and
 * forgotten at its sched:sched_process_exit) instead of being written,
 * and each sched_stat_* sample is replaced by a copy of the kept switch
 * sample of its task with the stat's time and period; a stat without a
 * kept switch is dropped. Other records go out unchanged, in time order.
 */
#include <stdint.h>
#include "inject-jit.h"		/* inject_emit_fn */

struct inject_sched;
struct perf_data;
union perf_event;

/* New merger over the records of d, written through emit(ctx, ...).
 * NULL on ENOMEM. */
struct inject_sched *inject_sched__new(struct perf_data *d, inject_emit_fn emit, void *ctx);
/* Free it with whatever is queued or kept. NULL is fine. */
void inject_sched__delete(struct inject_sched *s);
/* One record of the data (not a user record): queued by its time, or
 * written at once when it has none. 0 or -errno. */
int inject_sched__record(struct inject_sched *s, union perf_event *ev);
/* FINISHED_ROUND: write what is now known to be in time order. */
int inject_sched__round(struct inject_sched *s);
/* End of input: write everything queued. */
int inject_sched__finish(struct inject_sched *s);

#endif
