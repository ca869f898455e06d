// SPDX-License-Identifier: GPL-2.0
/* Off-CPU time from sched_switch samples and switch records; see off-cpu.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "off-cpu.h"
#include "trace-format.h"
#include "../../arch/x86/unwind-regs.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../kernel/parse-events.h"
#include "session.h"

#define OC_HASH_BITS 8
#define OC_HASH_SIZE (1U << OC_HASH_BITS)

/* Linux task states (include/linux/sched.h) */
#define TASK_INTERRUPTIBLE	0x1
#define TASK_UNINTERRUPTIBLE	0x2

/* A thread switched out, waiting for its switch-in. */
struct oc_pending {
	struct oc_pending *next;
	uint32_t tid;
	bool active;
	struct perf_sample sample;	/* switch-out sample; callchain -> chain */
	struct ip_callchain *chain;	/* owned copy */
	uint64_t chain_alloc;		/* ips allocated */
	/* DWARF recordings: owned copies of the user registers and of the
	 * user stack the switch-out sample carried */
	u64 *regs;
	size_t regs_alloc;		/* u64s */
	char *stack;
	size_t stack_alloc;		/* bytes */
};

struct off_cpu {
	struct off_cpu_opts opts;
	off_cpu_cb cb;
	void *arg;
	struct oc_pending *hash[OC_HASH_SIZE];
	struct evsel *evsel;
	bool evsel_owned;		/* false once attached to an evlist */
	/* session glue (off_cpu__new_session) */
	struct perf_session *session;
	struct evsel *switch_evsel;	/* the recorded sched:sched_switch */
	struct trace_formatter *tf;	/* owned */
	uint64_t nr_spans, total_ns;
	uint64_t pending_min;		/* cached off_cpu__pending_min() */
	bool pending_min_valid;
};

struct off_cpu *off_cpu__new(const struct off_cpu_opts *opts, off_cpu_cb cb, void *arg)
{
	struct off_cpu *oc = zalloc(sizeof(*oc));
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
		.sample_id_all = 1,
	};

	if (!oc)
		return NULL;
	if (opts)
		oc->opts = *opts;
	oc->cb = cb;
	oc->arg = arg;
	oc->evsel = evsel__new(&attr);
	if (!oc->evsel || evsel__set_name(oc->evsel, OFF_CPU_EVENT_NAME)) {
		evsel__delete(oc->evsel);
		free(oc);
		return NULL;
	}
	oc->evsel_owned = true;
	return oc;
}

void off_cpu__attach_evlist(struct off_cpu *oc, struct evlist *evlist)
{
	if (!oc || !evlist || !oc->evsel_owned)
		return;
	evlist__add(evlist, oc->evsel);
	oc->evsel_owned = false;
}

void off_cpu__delete(struct off_cpu *oc)
{
	if (!oc)
		return;
	for (unsigned int i = 0; i < OC_HASH_SIZE; i++) {
		struct oc_pending *p = oc->hash[i], *n;

		for (; p; p = n) {
			n = p->next;
			free(p->chain);
			free(p->regs);
			free(p->stack);
			free(p);
		}
	}
	if (oc->evsel_owned)
		evsel__delete(oc->evsel);
	trace_formatter__delete(oc->tf);
	free(oc);
}

struct evsel *off_cpu__evsel(struct off_cpu *oc)
{
	return oc ? oc->evsel : NULL;
}

static struct oc_pending *oc_find(struct off_cpu *oc, uint32_t tid, bool create)
{
	struct oc_pending **slot = &oc->hash[(tid * 2654435761U) >> (32 - OC_HASH_BITS)];
	struct oc_pending *p;

	for (p = *slot; p; p = p->next)
		if (p->tid == tid)
			return p;
	if (!create)
		return NULL;
	p = zalloc(sizeof(*p));
	if (!p)
		return NULL;
	p->tid = tid;
	p->next = *slot;
	*slot = p;
	return p;
}

/*
 * A DWARF switch-out sample (REGS_USER + STACK_USER): keep copies of its
 * user registers and stack in p, for the span's sample. user_only: the
 * callchain held no user part (perf's dwarf mode records none), so the
 * span keeps no kernel frames either: its ip becomes the user pc of the
 * registers and the stack is unwound from there. 0 or -ENOMEM.
 */
static int oc_keep_user_stack(struct oc_pending *p, const struct perf_sample *sample,
			      bool user_only)
{
	size_t nregs = (size_t)__builtin_popcountll(sample->user_regs.mask);
	size_t len = sample->user_stack.dyn_size;

	if (nregs > p->regs_alloc) {
		u64 *r = realloc(p->regs, nregs * sizeof(*r));

		if (!r)
			return -ENOMEM;
		p->regs = r;
		p->regs_alloc = nregs;
	}
	if (len > p->stack_alloc) {
		char *st = realloc(p->stack, len);

		if (!st)
			return -ENOMEM;
		p->stack = st;
		p->stack_alloc = len;
	}
	memcpy(p->regs, sample->user_regs.regs, nregs * sizeof(*p->regs));
	memcpy(p->stack, sample->user_stack.data, len);
	p->sample.user_regs.regs = p->regs;
	p->sample.user_stack.data = p->stack;
	p->sample.user_stack.size = len;
	if (user_only) {
		const struct unwind_arch *arch = unwind_arch__host();
		uint64_t regs[UNWIND_MAX_REGS], valid = 0;

		if (arch && !unwind_arch__sample_regs(arch, &p->sample.user_regs, regs, &valid)) {
			p->chain->nr = 0;
			p->sample.ip = regs[arch->ip_reg];
			p->sample.cpumode = PERF_RECORD_MISC_USER;
			p->sample.misc = (uint16_t)((p->sample.misc & ~PERF_RECORD_MISC_CPUMODE_MASK) |
						    PERF_RECORD_MISC_USER);
		}
	}
	return 0;
}

int off_cpu__switch_out(struct off_cpu *oc, const struct perf_sample *sample, int64_t prev_state)
{
	struct oc_pending *p;
	uint64_t nr, first;

	if (!sample->tid || sample->tid == (uint32_t)-1)
		return 0;	/* the idle task is never "off CPU" */
	if (!oc->opts.all_states && prev_state >= 0 &&
	    !(prev_state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE))) {
		/* preempted: a pending span of this tid is stale */
		p = oc_find(oc, sample->tid, false);
		if (p && p->active) {
			p->active = false;
			if (p->sample.time <= oc->pending_min)
				oc->pending_min_valid = false;
		}
		return 0;
	}
	p = oc_find(oc, sample->tid, true);
	if (!p)
		return -ENOMEM;
	if (p->active && p->sample.time <= oc->pending_min)	/* replaced */
		oc->pending_min_valid = false;
	nr = sample->callchain ? sample->callchain->nr : 0;
	if (nr > 65536)
		nr = 65536;
	/* as perf's off-CPU samples: the user part of the stack only (the
	 * kernel part is always the same path into __schedule), unless asked */
	first = 0;
	if (!oc->opts.kernel_stacks) {
		for (uint64_t i = 0; i < nr; i++) {
			if (sample->callchain->ips[i] == PERF_CONTEXT_USER) {
				first = i;
				break;
			}
		}
	}
	nr -= first;
	if (!p->chain || p->chain_alloc < nr) {
		struct ip_callchain *c = realloc(p->chain, sizeof(*c) + (nr ? nr : 1) * sizeof(u64));

		if (!c)
			return -ENOMEM;
		p->chain = c;
		p->chain_alloc = nr ? nr : 1;
	}
	p->chain->nr = nr;
	if (nr)
		memcpy(p->chain->ips, sample->callchain->ips + first, nr * sizeof(u64));
	p->sample = *sample;
	p->sample.callchain = sample->callchain ? p->chain : NULL;
	if (first || (nr > 1 && p->chain->ips[0] == PERF_CONTEXT_USER)) {
		/* the sample ip is where the thread was in user space */
		p->sample.ip = p->chain->ips[1];
		p->sample.cpumode = PERF_RECORD_MISC_USER;
		p->sample.misc = (uint16_t)((p->sample.misc & ~PERF_RECORD_MISC_CPUMODE_MASK) |
					    PERF_RECORD_MISC_USER);
	}
	p->sample.raw_data = NULL;
	p->sample.raw_size = 0;
	p->sample.branch_stack = NULL;
	memset(&p->sample.intr_regs, 0, sizeof(p->sample.intr_regs));
	if (perf_sample__has_user_stack(sample)) {
		int err = oc_keep_user_stack(p, sample, !first && !oc->opts.kernel_stacks);

		if (err)
			return err;
	} else {
		memset(&p->sample.user_regs, 0, sizeof(p->sample.user_regs));
		memset(&p->sample.user_stack, 0, sizeof(p->sample.user_stack));
	}
	p->sample.read_data = NULL;
	p->sample.read_size = 0;
	p->active = true;
	if (oc->pending_min_valid && sample->time < oc->pending_min)
		oc->pending_min = sample->time;
	return 0;
}

int off_cpu__switch_in(struct off_cpu *oc, uint32_t tid, uint64_t time)
{
	struct oc_pending *p = oc_find(oc, tid, false);
	struct off_cpu_span span;

	if (!p || !p->active)
		return 0;
	p->active = false;
	if (p->sample.time <= oc->pending_min)
		oc->pending_min_valid = false;
	if (time < p->sample.time)
		return 0;	/* out of order: no span */
	span.sample = p->sample;
	span.start = p->sample.time;
	span.end = time;
	span.duration = time - p->sample.time;
	span.sample.period = span.duration;
	span.sample.evsel = oc->evsel;
	oc->nr_spans++;
	oc->total_ns += span.duration;
	return oc->cb ? oc->cb(oc->arg, &span) : 0;
}

int off_cpu__sched_switch(struct off_cpu *oc, struct trace_formatter *tf, struct evsel *evsel,
			  const struct perf_sample *sample)
{
	uint64_t prev_pid, next_pid, state;
	int64_t prev_state = -1;
	int err;

	if (!trace_formatter__evsel_is(evsel, "sched", "sched_switch"))
		return 0;
	if (trace_formatter__field_u64(tf, evsel, sample, "next_pid", &next_pid))
		return 0;
	if (trace_formatter__field_u64(tf, evsel, sample, "prev_pid", &prev_pid))
		prev_pid = sample->tid;
	if (!trace_formatter__field_u64(tf, evsel, sample, "prev_state", &state))
		prev_state = (int64_t)(state & 0x7fffffff);
	if (prev_pid == sample->tid) {
		err = off_cpu__switch_out(oc, sample, prev_state);
		if (err)
			return err;
	}
	return off_cpu__switch_in(oc, (uint32_t)next_pid, sample->time);
}

int off_cpu__context_switch(struct off_cpu *oc, const union perf_event *event,
			    const struct perf_sample *sample)
{
	if (event->header.type != PERF_RECORD_SWITCH &&
	    event->header.type != PERF_RECORD_SWITCH_CPU_WIDE)
		return 0;
	if (event->header.misc & PERF_RECORD_MISC_SWITCH_OUT)
		return 0;
	if (!sample || sample->tid == (uint32_t)-1 || !sample->time)
		return 0;
	return off_cpu__switch_in(oc, sample->tid, sample->time);
}

struct off_cpu *off_cpu__new_session(struct perf_session *session, const struct off_cpu_opts *opts,
				     off_cpu_cb cb, void *arg, int *err)
{
	struct evsel *sw = session ? off_cpu__find_evsel(session->data.evlist) : NULL;
	struct off_cpu *oc;

	*err = 0;
	if (!sw)
		return NULL;
	oc = off_cpu__new(opts, cb, arg);
	if (!oc) {
		*err = -ENOMEM;
		return NULL;
	}
	oc->session = session;
	oc->switch_evsel = sw;
	if (evsel__has_dwarf_stack(sw)) {
		/* --call-graph dwarf: the spans carry the switch-out's user
		 * registers and stack and are unwound like any DWARF sample */
		struct perf_event_attr *a = &oc->evsel->attr;

		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = sw->attr.sample_regs_user;
		a->sample_stack_user = sw->attr.sample_stack_user;
	}
	off_cpu__attach_evlist(oc, session->data.evlist);
	return oc;
}

bool off_cpu__consume_sample(struct off_cpu *oc, struct evsel *evsel,
			     const struct perf_sample *sample, int *err)
{
	*err = 0;
	if (!oc || !evsel || evsel != oc->switch_evsel)
		return false;
	if (!oc->tf) {
		struct perf_env *env = &oc->session->data.env;

		oc->tf = trace_formatter__new(env->tracing_data, (size_t)env->tracing_data_size, err);
		if (!oc->tf && env->tracing_data)	/* corrupt: try the local formats */
			oc->tf = trace_formatter__new(NULL, 0, err);
		if (!oc->tf)
			return true;
	}
	*err = off_cpu__sched_switch(oc, oc->tf, evsel, sample);
	return true;
}

uint64_t off_cpu__pending_min(struct off_cpu *oc)
{
	if (!oc)
		return UINT64_MAX;
	if (!oc->pending_min_valid) {
		uint64_t min = UINT64_MAX;

		for (unsigned int i = 0; i < OC_HASH_SIZE; i++)
			for (struct oc_pending *p = oc->hash[i]; p; p = p->next)
				if (p->active && p->sample.time < min)
					min = p->sample.time;
		oc->pending_min = min;
		oc->pending_min_valid = true;
	}
	return oc->pending_min;
}

uint64_t off_cpu__nr_spans(const struct off_cpu *oc)
{
	return oc ? oc->nr_spans : 0;
}

uint64_t off_cpu__total_ns(const struct off_cpu *oc)
{
	return oc ? oc->total_ns : 0;
}

struct evsel *off_cpu__find_evsel(struct evlist *evlist)
{
	struct evsel *evsel;

	if (!evlist)
		return NULL;
	evlist__for_each_entry(evlist, evsel) {
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
		    (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		    evsel->attr.context_switch &&
		    trace_formatter__evsel_is(evsel, "sched", "sched_switch"))
			return evsel;
	}
	return NULL;
}

int off_cpu__add_record_evsel(struct evlist *evlist)
{
	struct parse_events_error perr;
	struct evsel *evsel;
	int err;

	parse_events_error__init(&perr);
	err = parse_events(evlist, "sched:sched_switch", &perr);
	if (err) {
		pr_err("--off-cpu needs the sched:sched_switch tracepoint: %s\n",
		       perr.str ? perr.str : strerror(-err));
		parse_events_error__exit(&perr);
		return err;
	}
	parse_events_error__exit(&perr);
	evsel = evlist__last(evlist);
	evsel->attr.sample_period = 1;
	evsel->attr.freq = 0;
	evsel->attr.sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
	evsel->attr.context_switch = 1;
	return 0;
}
