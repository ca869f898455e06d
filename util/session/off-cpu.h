/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_OFF_CPU_H
#define PRF_SESSION_OFF_CPU_H
/*
 * Off-CPU time: how long each thread stayed switched out, attributed to
 * the stack it was switched out with. perf 6.1 answers this with a BPF
 * program (`perf record --off-cpu`, an "offcpu-time" event whose period
 * is the off-CPU time in ns); prf derives the same from records the
 * kernel writes without BPF:
 *
 *  - switch-out: a sched:sched_switch sample (period 1, with callchain),
 *    taken in the context of the task leaving the CPU: sample pid/tid,
 *    time and callchain are that task's;
 *  - switch-in: a PERF_RECORD_SWITCH (attr.context_switch) without
 *    PERF_RECORD_MISC_SWITCH_OUT for that tid (the only way to see it when
 *    recording per task), or, recording system-wide, the next_pid of a
 *    later sched:sched_switch sample.
 *
 * Off-CPU time of one span = switch-in time - switch-out time (ns, perf
 * clock). As perf's BPF program, by default only switch-outs in state
 * TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE (prev_state & 3, i.e.
 * sleeping or blocked, not preempted) count. Records must come in time
 * order (the session's ordered delivery). Spans still open at the end are
 * dropped.
 */
#include <stdbool.h>
#include <stdint.h>
#include "../format/event.h"

struct evsel;
struct evlist;
struct perf_session;
struct trace_formatter;
struct off_cpu;

/* Name of the pseudo event off-CPU spans are reported under (perf's). */
#define OFF_CPU_EVENT_NAME "offcpu-time"

/*
 * One finished off-CPU span. sample is a copy of the switch-out sample
 * (pid, tid, cpu, callchain; raw data dropped) with, as in perf's
 * offcpu-time samples, only the user part of the callchain (from
 * PERF_CONTEXT_USER on; the whole chain for kernel threads or with
 * opts.kernel_stacks), ip = the first user ip and cpumode user, and
 * time = switch-out time (ns), period = off-CPU time (ns) and evsel set to
 * the off_cpu's pseudo evsel; its callchain is owned by the off_cpu and
 * valid only during the callback.
 */
struct off_cpu_span {
	struct perf_sample sample;
	uint64_t start, end;	/* ns: switch-out, switch-in */
	uint64_t duration;	/* ns: end - start (= sample.period) */
};

/* Called for every finished span; return 0 to go on, or a negative errno
 * that off_cpu__*() then returns. */
typedef int (*off_cpu_cb)(void *arg, const struct off_cpu_span *span);

struct off_cpu_opts {
	bool all_states;	/* count preempted switch-outs too */
	bool kernel_stacks;	/* keep the kernel part of the stacks */
};

/* New accounter calling cb(arg, span). opts may be NULL (defaults).
 * NULL on ENOMEM. Free with off_cpu__delete(). */
struct off_cpu *off_cpu__new(const struct off_cpu_opts *opts, off_cpu_cb cb, void *arg);
void off_cpu__delete(struct off_cpu *oc);

/*
 * The pseudo evsel spans are reported under: OFF_CPU_EVENT_NAME,
 * PERF_TYPE_SOFTWARE/PERF_COUNT_SW_BPF_OUTPUT as in perf's files,
 * sample_type IP|TID|TIME|CPU|PERIOD|CALLCHAIN. Owned by oc; a consumer
 * may add it to its own structures (e.g. hists keyed by evsel) but must
 * not free it.
 */
struct evsel *off_cpu__evsel(struct off_cpu *oc);

/*
 * Append the pseudo evsel to evlist (e.g. the session's, so that report
 * and script list and print it like a recorded event; its idx becomes the
 * next one); evlist then owns it and off_cpu__delete() no longer frees it.
 * Call once, before the first span.
 */
void off_cpu__attach_evlist(struct off_cpu *oc, struct evlist *evlist);

/* Thread tid left the CPU at sample->time (ns) with sample's stack, in
 * state prev_state (the sched_switch field; negative: unknown, counted). 0 or -ENOMEM. */
int off_cpu__switch_out(struct off_cpu *oc, const struct perf_sample *sample, int64_t prev_state);
/* Thread tid came back on a CPU at time (ns): finishes its span, if any,
 * calling the callback. 0 or the callback's error. */
int off_cpu__switch_in(struct off_cpu *oc, uint32_t tid, uint64_t time);

/*
 * One sched:sched_switch sample of evsel (payload fields read with tf):
 * switch-out of prev_pid (the sample's thread) and switch-in of next_pid.
 * Samples of other events are ignored (0). 0 or an error as above.
 */
int off_cpu__sched_switch(struct off_cpu *oc, struct trace_formatter *tf, struct evsel *evsel,
			  const struct perf_sample *sample);

/* One PERF_RECORD_SWITCH or PERF_RECORD_SWITCH_CPU_WIDE record with its
 * parsed sample_id (sample): a switch-in of sample->tid finishes its span.
 * Other records are ignored. 0 or an error as above. */
int off_cpu__context_switch(struct off_cpu *oc, const union perf_event *event,
			    const struct perf_sample *sample);

/*
 * Session glue for report/script. When session's evlist is an off-CPU
 * recording (off_cpu__find_evsel()), a new accounter whose sched_switch
 * fields are read with the session's tracing data (parsed on first use,
 * so pipe input works when called from the first sample; local tracefs
 * formats when the file has none) and whose pseudo evsel is appended to
 * session->evlist (off_cpu__attach_evlist()). Returns NULL with *err = 0
 * when the input is not an off-CPU recording, NULL with *err < 0 on
 * error. Free with off_cpu__delete().
 */
struct off_cpu *off_cpu__new_session(struct perf_session *session, const struct off_cpu_opts *opts,
				     off_cpu_cb cb, void *arg, int *err);

/*
 * Feed one sample of a session consumer: when evsel is the off-CPU
 * sched_switch evsel the sample is accounted (spans finished by it reach
 * the callback now) and true is returned: the consumer should not show
 * the sched_switch sample itself. *err gets 0 or the first error.
 */
bool off_cpu__consume_sample(struct off_cpu *oc, struct evsel *evsel,
			     const struct perf_sample *sample, int *err);

/*
 * Earliest switch-out time (ns) of the spans still open (switched out,
 * not yet back): no span finished later can have an older start. For
 * consumers that print spans in time order (prf script). UINT64_MAX when
 * none is open. Cached: O(1) unless the earliest one just closed.
 */
uint64_t off_cpu__pending_min(struct off_cpu *oc);

/* Totals so far: finished spans and their summed off-CPU time (ns). */
uint64_t off_cpu__nr_spans(const struct off_cpu *oc);
uint64_t off_cpu__total_ns(const struct off_cpu *oc);

/*
 * The sched:sched_switch evsel of evlist when the file was recorded for
 * off-CPU analysis (prf record --off-cpu: PERF_SAMPLE_CALLCHAIN and
 * attr.context_switch set on it), else NULL.
 */
struct evsel *off_cpu__find_evsel(struct evlist *evlist);

/*
 * For prf record --off-cpu: append a sched:sched_switch evsel to evlist
 * sampling every switch (sample_period 1) with RAW, TID, TIME, CPU and
 * CALLCHAIN, and attr.context_switch = 1 so that switch-ins are recorded
 * too. 0, -ENOMEM, or the tracefs error (message logged) when the
 * tracepoint is not available.
 */
int off_cpu__add_record_evsel(struct evlist *evlist);

#endif
