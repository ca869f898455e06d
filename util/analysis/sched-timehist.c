// SPDX-License-Identifier: GPL-2.0
/*
 * sched timehist: one line per context switch with the switched-out
 * task's wait time (since it last left a CPU), scheduling delay (since
 * its wakeup) and run time (since the previous switch on that CPU), as
 * perf 6.1's `perf sched timehist` prints them; wakeups (-w) and
 * migrations (-M) between them, a CPU column (-V), and the per-task
 * summary (-s, -S).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sched-internal.h"
#include "../kernel/cpumap.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../model/machine.h"
#include "../session/session.h"

/* -I: no task ran before the idle task (tid -1 is a task: an exiting one) */
#define IDLE_LAST_NONE INT32_MIN

static const char dotted[] =
	"--------------------------------------------------------------------------------"
	"--------------------------------------------------------------------------------";

/* perf 6.1's state letter: ffs() of prev_state into its state string */
static char task_state_char(pid_t tid, int64_t state)
{
	static const char state_to_char[] = "RSDTtZXxKWP";
	unsigned int bit = state ? (unsigned int)ffs((int)state) : 0;

	if (tid == 0)
		return 'I';
	return bit < sizeof(state_to_char) - 1 ? state_to_char[bit] : '?';
}

/*
 * The per-event lines are written into sc->obuf and go to stdout in
 * blocks: th_room() makes room (writing the block out when full),
 * th_done() takes the text written, th_sync() hands the block to stdout
 * before anything else prints there.
 */
#define TH_OUT_BYTES (64u << 10)
#define TH_LINE_ROOM 512u	/* a line's text but its -V CPU column */

static void th_sync(struct sched *sc)
{
	if (sc->olen)
		fwrite(sc->obuf, 1, sc->olen, stdout);
	sc->olen = 0;
}

/* where to write n more bytes (n <= TH_OUT_BYTES) */
static char *th_room(struct sched *sc, size_t n)
{
	if (sc->olen + n > TH_OUT_BYTES)
		th_sync(sc);
	return sc->obuf + sc->olen;
}

static void th_done(struct sched *sc, char *w)
{
	sc->olen = (size_t)(w - sc->obuf);
}

/* -V: a column per CPU, mark in cpu's, after the text at w; returns
 * where to go on, with TH_LINE_ROOM bytes of room */
static char *th_cpu_column(struct sched *sc, char *w, int cpu, char mark)
{
	int n = sc->max_cpu + 1;

	for (int i = 0; i < n; i += 256) {
		int chunk = n - i < 256 ? n - i : 256;

		th_done(sc, w);
		w = sched_w_fill(th_room(sc, (size_t)chunk), ' ', chunk);
		if (cpu >= i && cpu < i + chunk)
			w[cpu - i - chunk] = mark;
	}
	th_done(sc, w);
	return th_room(sc, TH_LINE_ROOM);
}

/* msec.usec and a space, as perf's print_sched_time() */
static char *w_sched_time(char *w, uint64_t nsecs, int width)
{
	uint64_t msecs = nsecs / NSEC_PER_MSEC;

	w = sched_w_udec(w, msecs, width, ' ');
	*w++ = '.';
	w = sched_w_udec(w, (nsecs - msecs * NSEC_PER_MSEC) / 1000, 3, '0');
	*w++ = ' ';
	return w;
}

static void print_sched_time(uint64_t nsecs, int width)
{
	char buf[64];

	fwrite(buf, 1, (size_t)(w_sched_time(buf, nsecs, width) - buf), stdout);
}

/* "comm", "comm[tid]" or "comm[tid/pid]", cut at 31 bytes (perf's
 * 32-byte buffer); widens the task column */
static const char *commstr3(struct sched *sc, const char *comm, pid_t tid, pid_t pid)
{
	static char str[32];
	char tmp[64], *w = tmp;
	size_t len = strnlen(comm, sizeof(str) - 1);
	int n;

	memcpy(w, comm, len);
	w += len;
	if (pid != 0) {
		*w++ = '[';
		w = sched_w_sdec(w, tid);
		if (tid != pid) {
			*w++ = '/';
			w = sched_w_sdec(w, pid);
		}
		*w++ = ']';
	}
	n = (int)(w - tmp);
	if (n > (int)sizeof(str) - 1)
		n = sizeof(str) - 1;
	memcpy(str, tmp, (size_t)n);
	str[n] = '\0';
	if (n > sc->comm_width)
		sc->comm_width = n;
	return str;
}

/* a task name padded to the task column, "%-*s" */
static char *w_comm(struct sched *sc, char *w, const char *name)
{
	return sched_w_str(w, name, strlen(name), sc->comm_width, true);
}

/* " %-*s " the task, then "  %9s  %9s  %9s " of nothing: the start of a
 * wakeup's or a migration's line after the time and CPU */
static char *w_empty_times(struct sched *sc, char *w, const char *name)
{
	*w++ = ' ';
	w = w_comm(sc, w, name);
	return sched_w_fill(w, ' ', 1 + 3 * 11 + 1);
}

/* "%15s [%04d] ": the time and the CPU that start every line */
static char *w_line_start(char *w, uint64_t t, uint32_t cpu)
{
	w = sched_w_tstamp(w, t, 15);
	*w++ = ' ';
	*w++ = '[';
	w = sched_w_udec(w, cpu, 4, '0');
	*w++ = ']';
	*w++ = ' ';
	return w;
}

/* a thread's, NULL: the idle task */
static const char *commstr(struct sched *sc, struct thread *t)
{
	if (!t)
		return commstr3(sc, "<idle>", 0, 0);
	return commstr3(sc, thread__comm_str(t), t->tid, sched__pid(sc, t));
}

/* a wakeup's or a migration's line after the time and CPU: the task
 * doing it, empty times, what (10 bytes) and the task it was done to */
static char *w_event_tasks(struct sched *sc, char *w, struct thread *by, const char *what,
			   struct thread *to)
{
	const char *name;

	w = w_empty_times(sc, w, commstr(sc, by));
	memcpy(w, what, 10);
	w += 10;
	name = commstr(sc, to);	/* commstr()'s buffer: by's name is written */
	memcpy(w, name, strlen(name));
	return w + strlen(name);
}

static struct th_task *idle_task(struct sched *sc, int cpu)
{
	if (cpu < 0 || cpu >= SCHED_MAX_CPUS)
		return NULL;
	if (cpu >= sc->nr_idle) {
		int n = 1;
		struct th_task *v;

		while (n < cpu + 1)
			n <<= 1;
		v = realloc(sc->idle, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + sc->nr_idle, 0, (n - sc->nr_idle) * sizeof(*v));
		for (int i = sc->nr_idle; i < n; i++) {
			init_stats(&v[i].run_stats);
			v[i].run_min = UINT64_MAX;
		}
		sc->idle = v;
		sc->nr_idle = n;
	}
	sc->idle[cpu].known = true;
	return &sc->idle[cpu];
}

static bool in_list(const pid_t *v, int n, pid_t x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static bool cpu_shown(struct sched *sc, int cpu)
{
	return !sc->cpus || perf_cpu_map__idx(sc->cpus, cpu) >= 0;
}

/* -p/-t: whether the task is outside the lists */
static bool thread_filtered(struct sched *sc, const struct thread *t)
{
	if (!t)
		return false;
	return (sc->nr_filter_pids &&
		!in_list(sc->filter_pids, sc->nr_filter_pids, sched__pid(sc, t))) ||
	       (sc->nr_filter_tids && !in_list(sc->filter_tids, sc->nr_filter_tids, t->tid));
}

/* a filtered task's event is skipped, and counted */
static bool skip_thread(struct sched *sc, struct thread *t)
{
	bool skip = thread_filtered(sc, t);

	if (skip)
		sc->skipped_samples++;
	return skip;
}

void sched__timehist_check_chains(struct sched *sc)
{
	struct evsel *evsel;

	if (!sc->o.show_callchain || !sc->session->data.evlist)
		return;
	evlist__for_each_entry(sc->session->data.evlist, evsel) {
		if (!(evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			fprintf(stderr, "Samples do not have callchains.\n");
			sc->o.show_callchain = false;
			return;
		}
	}
}

int sched__timehist_start(struct sched *sc)
{
	int ncpu = sc->session->data.env.nr_cpus_online;
	int vis;

	sc->obuf = malloc(TH_OUT_BYTES);
	if (!sc->obuf)
		return -ENOMEM;
	sc->max_cpu = ncpu ? ncpu : 4;
	if (!idle_task(sc, sc->max_cpu - 1))
		return -ENOMEM;
	for (int i = 0; i < sc->nr_idle; i++)
		sc->idle[i].known = true;
	if (sc->o.idle_hist) {
		sc->idle_last = malloc(SCHED_MAX_CPUS * sizeof(*sc->idle_last));
		if (!sc->idle_last)
			return -ENOMEM;
		for (int i = 0; i < SCHED_MAX_CPUS; i++)
			sc->idle_last[i] = IDLE_LAST_NONE;
	}
	if (sc->o.summary_only)
		sc->o.summary = true;
	if (sc->o.summary_only)
		return 0;

	vis = sc->max_cpu + 1;
	printf("%15s %6s ", "time", "cpu");
	if (sc->o.cpu_visual) {
		printf(" ");
		for (int i = 0, j = 0; i < vis; i++) {
			printf("%x", j++);
			if (j > 15)
				j = 0;
		}
		printf(" ");
	}
	printf(" %-*s  %9s  %9s  %9s", sc->comm_width, "task name", "wait time", "sch delay",
	       "run time");
	if (sc->o.state)
		printf("  %s", "state");
	printf("\n");

	printf("%15s %-6s ", "", "");
	if (sc->o.cpu_visual)
		printf(" %*s ", vis, "");
	printf(" %-*s  %9s  %9s  %9s", sc->comm_width, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (sc->o.state)
		printf("  %5s", "");
	printf("\n");

	printf("%.15s %.6s ", dotted, dotted);
	if (sc->o.cpu_visual)
		printf(" %.*s ", vis, dotted);
	printf(" %.*s  %.9s  %.9s  %.9s", sc->comm_width, dotted, dotted, dotted, dotted);
	if (sc->o.state)
		printf("  %.5s", dotted);
	printf("\n");
	return 0;
}

static void update_runtime_stats(struct th_task *r, uint64_t t, uint64_t tprev)
{
	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = r->dt_run = 0;
	if (tprev) {
		r->dt_run = t - tprev;
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			uint64_t dt_wait = tprev - r->last_time;

			if (r->last_state == 0)
				r->dt_preempt = dt_wait;
			else if (r->last_state == 2)
				r->dt_iowait = dt_wait;
			else
				r->dt_sleep = dt_wait;
		}
	}
	update_stats(&r->run_stats, (double)r->dt_run);
	if (r->dt_run < r->run_min)
		r->run_min = r->dt_run;
	if (r->dt_run > r->run_max)
		r->run_max = r->dt_run;
	r->total_run_time += r->dt_run;
	r->total_delay_time += r->dt_delay;
	r->total_sleep_time += r->dt_sleep;
	r->total_iowait_time += r->dt_iowait;
	r->total_preempt_time += r->dt_preempt;
}

/* th: the task switched out (NULL: idle), task its sched task */
static void print_sample(struct sched *sc, struct evsel *evsel, struct perf_sample *sample,
			 struct thread *th, const struct sched_task *task, struct th_task *tr,
			 uint64_t t, int64_t state)
{
	pid_t tid = th ? th->tid : 0;
	const char *name;
	char *w;

	if (!cpu_shown(sc, (int)sample->cpu))
		return;
	w = w_line_start(th_room(sc, TH_LINE_ROOM), t, sample->cpu);
	if (sc->o.cpu_visual) {
		*w++ = ' ';
		w = th_cpu_column(sc, w, (int)sample->cpu, tid == 0 ? 'i' : 's');
		*w++ = ' ';
	}
	*w++ = ' ';
	/* commstr(), with the process id of the task at hand */
	name = th ? commstr3(sc, thread__comm_str(th), th->tid, task->has_pid ? task->pid : th->pid) :
		    commstr(sc, NULL);
	w = w_comm(sc, w, name);
	*w++ = ' ';
	w = w_sched_time(w, tr->dt_sleep + tr->dt_iowait + tr->dt_preempt, 6);
	w = w_sched_time(w, tr->dt_delay, 6);
	w = w_sched_time(w, tr->dt_run, 6);
	if (sc->o.state) {
		w = sched_w_fill(w, ' ', 5);
		*w++ = task_state_char(tid, state);
		*w++ = ' ';
	}
	if (sc->o.next) {
		char comm[32], nstr[64], *n = nstr;

		sched__field_str(sc, evsel, sample, SF_NEXT_COMM, comm, sizeof(comm));
		memcpy(n, "next: ", 6);
		n += 6;
		memcpy(n, comm, strlen(comm));
		n += strlen(comm);
		*n++ = '[';
		n = sched_w_sdec(n, (int)sched__field(sc, evsel, sample, SF_NEXT_PID));
		*n++ = ']';
		/* perf's 30-byte buffer cuts the text at 29 bytes */
		*w++ = ' ';
		w = sched_w_str(w, nstr, n - nstr > 29 ? 29 : (size_t)(n - nstr), sc->comm_width, true);
	}
	if (sc->o.wakeups && !sc->o.next)
		w = sched_w_fill(w, ' ', 2 + sc->comm_width);
	if (tid != 0 && sc->o.show_callchain) {
		*w++ = ' ';
		*w++ = ' ';
		th_done(sc, w);
		th_sync(sc);
		sched__print_chain(sc, sample, evsel, sc->o.max_stack + 2, stdout);
		w = th_room(sc, TH_LINE_ROOM);
	}
	*w++ = '\n';
	th_done(sc, w);
}

static int th_switch(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	int64_t state = (int64_t)sched__field(sc, evsel, sample, SF_PREV_STATE);
	pid_t prev = (pid_t)sched__field(sc, evsel, sample, SF_PREV_PID);
	uint64_t tprev, t = sample->time;
	int cpu = (int)sample->cpu;
	struct thread *th;
	struct th_task *tr = NULL;
	struct sched_task *task = NULL;
	bool ih = sc->o.idle_hist;

	if (cpu < 0 || cpu >= SCHED_MAX_CPUS)
		return 0;
	/* perf resolves the sample first: its thread exists from here on */
	th = sched__thread(sc, sample->pid, sample->tid);
	if (!th)
		return -ENOMEM;
	if (prev == 0) {
		/* the idle task is filtered by -p/-t as pid 0 */
		static const struct thread idle_thread = { .pid = 0, .tid = 0 };

		th = NULL;
		if (skip_thread(sc, (struct thread *)&idle_thread))
			goto out;
		tr = idle_task(sc, cpu);
		if (!tr)
			return -ENOMEM;
	} else {
		/* the thread just made, but for a tid 0 sample */
		if (!sample->tid)
			th = sched__thread(sc, sample->pid, sample->pid);
		if (!th)
			return -ENOMEM;
		if (ih)		/* -I: whom the CPU's next idle time goes to */
			sc->idle_last[cpu] = th->tid;
		if (skip_thread(sc, th))
			goto out;
		/* -I: only switches to and from the idle task */
		if (ih && sched__field(sc, evsel, sample, SF_NEXT_PID) != 0)
			goto out;
		task = sched__task(sc, th->tid);
		if (!task)
			return -ENOMEM;
		tr = &task->th;
		tr->known = true;
	}
	tprev = sc->switch_last_time[cpu];
	if (sc->o.time_start && sc->o.time_start > t)
		goto out;
	if (tprev && sc->o.time_start > tprev)
		tprev = sc->o.time_start;
	if (sc->o.time_end) {
		if (!tprev || tprev > sc->o.time_end)
			goto out;
		if (t > sc->o.time_end)
			t = sc->o.time_end;
	}
	if (!ih || prev == 0) {
		if (cpu_shown(sc, cpu))
			update_runtime_stats(tr, t, tprev);
		if (ih) {
			/* the idle time is the last task's, in its run stats */
			struct sched_task *last;

			if (sc->idle_last[cpu] == IDLE_LAST_NONE)
				goto out;
			last = sched__task(sc, sc->idle_last[cpu]);
			if (!last)
				return -ENOMEM;
			last->th.known = true;
			update_runtime_stats(&last->th, t, tprev);
			last->th.dt_run = last->th.dt_delay = last->th.dt_sleep = 0;
			last->th.dt_iowait = last->th.dt_preempt = 0;
			sc->idle_last[cpu] = IDLE_LAST_NONE;
		}
	}
	if (!sc->o.summary_only)
		print_sample(sc, evsel, sample, th, task, tr, t, state);
out:
	if (sc->hist_start == 0 && t >= sc->o.time_start)
		sc->hist_start = t;
	if (sc->o.time_end == 0 || t <= sc->o.time_end)
		sc->hist_end = t;
	if (tr) {
		tr->last_time = sample->time;
		tr->last_state = state;
		tr->ready_to_run = 0;	/* perf 6.1: even when preempted */
	}
	sc->switch_last_time[cpu] = sample->time;
	return 0;
}

static int th_wakeup(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t pid = (pid_t)sched__field(sc, evsel, sample, SF_PID);
	struct thread *wakee = sched__thread(sc, 0, pid), *waker;
	struct sched_task *task = sched__task(sc, pid);
	char *w;

	if (!wakee || !task)
		return -ENOMEM;
	task->th.known = true;
	if (task->th.ready_to_run == 0)
		task->th.ready_to_run = sample->time;
	if (!sc->o.wakeups || sc->o.idle_hist ||
	    (sc->o.time_start && sample->time < sc->o.time_start) ||
	    (sc->o.time_end && sample->time > sc->o.time_end))
		return 0;
	waker = sched__thread(sc, sample->pid, sample->tid);
	if (!waker)
		return -ENOMEM;
	/* shown unless both tasks are filtered out */
	if (skip_thread(sc, waker) && skip_thread(sc, wakee))
		return 0;
	w = w_line_start(th_room(sc, TH_LINE_ROOM), sample->time, sample->cpu);
	if (sc->o.cpu_visual) {
		*w++ = ' ';
		w = th_cpu_column(sc, w, -1, ' ');
		*w++ = ' ';
	}
	w = w_event_tasks(sc, w, waker, "awakened: ", wakee);
	*w++ = '\n';
	th_done(sc, w);
	return 0;
}

static int th_migrate(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t pid = (pid_t)sched__field(sc, evsel, sample, SF_PID);
	struct thread *migrated = sched__thread(sc, 0, pid), *th;
	struct sched_task *task = sched__task(sc, pid);
	char *w;

	if (!migrated || !task)
		return -ENOMEM;
	task->th.known = true;
	task->th.migrations++;
	if (sc->o.summary_only || sc->o.idle_hist)
		return 0;
	th = sched__thread(sc, sample->pid, sample->tid);
	if (!th)
		return -ENOMEM;
	if (skip_thread(sc, th) && skip_thread(sc, migrated))
		return 0;
	w = w_line_start(th_room(sc, TH_LINE_ROOM), sample->time, sample->cpu);
	if (sc->o.cpu_visual) {
		*w++ = ' ';
		*w++ = ' ';
		w = th_cpu_column(sc, w, (int)sample->cpu, 'm');
		*w++ = ' ';
		*w++ = ' ';
	}
	w = w_event_tasks(sc, w, th, "migrated: ", migrated);
	memcpy(w, " cpu ", 5);
	w = sched_w_sdec(w + 5, (int)sched__field(sc, evsel, sample, SF_ORIG_CPU));
	memcpy(w, " => ", 4);
	w = sched_w_sdec(w + 4, (int)sched__field(sc, evsel, sample, SF_DEST_CPU));
	*w++ = '\n';
	th_done(sc, w);
	return 0;
}

int sched__timehist_event(struct sched *sc, enum sched_ev kind, struct evsel *evsel,
			  struct perf_sample *sample)
{
	if ((int)sample->cpu > sc->max_cpu)
		sc->max_cpu = (int)sample->cpu;
	switch (kind) {
	case SEV_SWITCH:
		return th_switch(sc, evsel, sample);
	case SEV_WAKEUP:
	case SEV_WAKING:
	case SEV_WAKEUP_NEW:
		return th_wakeup(sc, evsel, sample);
	case SEV_MIGRATE:
		/* perf counts migrations only when it shows them */
		return sc->o.migrations ? th_migrate(sc, evsel, sample) : 0;
	default:
		return 0;
	}
}

void sched__timehist_lost(struct sched *sc, uint64_t lost, struct perf_sample *sample)
{
	char *w = sched_w_tstamp(th_room(sc, TH_LINE_ROOM), sample->time, 15);

	memcpy(w, " lost ", 6);
	w = sched_w_udec(w + 6, lost, 0, ' ');
	memcpy(w, " events on cpu ", 15);
	w = sched_w_sdec(w + 15, (int32_t)sample->cpu);
	*w++ = '\n';
	th_done(sc, w);
}

/* ---- summary ---- */

struct th_totals {
	uint64_t sched_count, task_count, total_run_time;
};

static void print_task_line(struct sched *sc, struct thread *t, const struct sched_task *task)
{
	const struct th_task *r = &task->th;
	pid_t parent = task->forked ? task->parent : t ? t->ppid : -1;
	const char *name;

	if (task->retired_comm) {	/* the thread perf replaced, as it was */
		parent = task->retired_ppid;
		name = commstr3(sc, task->retired_comm, task->tid, task->retired_pid);
	} else {
		name = commstr(sc, t);
	}
	printf("%*s   %5d  %9" PRIu64 " ", sc->comm_width, name, parent,
	       (uint64_t)r->run_stats.n);
	print_sched_time(r->total_run_time, 8);
	if (sc->o.state) {
		print_sched_time(r->total_sleep_time, 6);
		printf(" ");
		print_sched_time(r->total_iowait_time, 6);
		printf(" ");
		print_sched_time(r->total_preempt_time, 6);
		printf(" ");
		print_sched_time(r->total_delay_time, 6);
		printf("\n");
		return;
	}
	print_sched_time(r->run_min, 6);
	printf(" ");
	print_sched_time((uint64_t)avg_stats(&r->run_stats), 6);
	printf(" ");
	print_sched_time(r->run_max, 6);
	printf("  ");
	printf("%5.2f", (float)rel_stddev_stats(stddev_stats(&r->run_stats), avg_stats(&r->run_stats)));
	printf("   %5" PRIu64, r->migrations);
	printf("\n");
}

/* perf walks its threads table: 256 buckets by tid, each its tree in
 * tid order, then the threads it replaced, oldest first */
static int task_table_order(const void *a, const void *b)
{
	const struct sched_task *l = *(struct sched_task *const *)a;
	const struct sched_task *r = *(struct sched_task *const *)b;
	unsigned int bl = (uint32_t)l->tid % 256, br = (uint32_t)r->tid % 256;
	bool rl = l->retired_comm, rr = r->retired_comm;

	if (bl != br)
		return bl < br ? -1 : 1;
	if (rl != rr)
		return rl ? 1 : -1;
	if (rl)
		return l->retired_order < r->retired_order ? -1 : 1;
	return l->tid < r->tid ? -1 : l->tid > r->tid;
}

static void show_tasks(struct sched *sc, struct sched_task **v, unsigned int nr, bool dead,
		       struct th_totals *tot)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct th_task *r = &v[i]->th;
		struct thread *t;

		if (!r->known || !r->run_stats.n)
			continue;
		/* a replaced thread never exited */
		t = v[i]->retired_comm ? NULL : machine__find_thread(sc->session->machine, v[i]->tid);
		if ((t && t->dead) != dead)
			continue;
		if (thread_filtered(sc, t))
			continue;
		tot->task_count++;
		tot->sched_count += (uint64_t)r->run_stats.n;
		tot->total_run_time += r->total_run_time;
		print_task_line(sc, t, v[i]);
	}
}

int sched__timehist_finish(struct sched *sc)
{
	uint64_t hist_time = sc->hist_end - sc->hist_start;
	struct th_totals tot = { 0 };
	struct sched_task **v;
	unsigned int nr;
	uint64_t live;

	th_sync(sc);
	if (!sc->o.summary)
		return 0;
	v = sched__tasks(sc, &nr);
	if (!v)
		return -ENOMEM;
	qsort(v, nr, sizeof(*v), task_table_order);
	if (sc->o.idle_hist) {
		printf("\nIdle-time summary\n");
		printf("%*s  parent  sched-out  ", sc->comm_width, "comm");
		printf("  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else if (sc->o.state) {
		printf("\nWait-time summary\n");
		printf("%*s  parent   sched-in  ", sc->comm_width, "comm");
		printf("   run-time      sleep      iowait     preempt       delay\n");
	} else {
		printf("\nRuntime summary\n");
		printf("%*s  parent   sched-in  ", sc->comm_width, "comm");
		printf("   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	printf("%*s            (count)  ", sc->comm_width, "");
	printf("     (msec)     (msec)      (msec)      (msec)       %s\n",
	       sc->o.state ? "(msec)" : "%");
	printf("%.117s\n", dotted);

	show_tasks(sc, v, nr, false, &tot);
	live = tot.task_count;
	if (!live)
		printf("<no still running tasks>\n");
	printf("\nTerminated tasks:\n");
	show_tasks(sc, v, nr, true, &tot);
	if (live == tot.task_count)
		printf("<no terminated tasks>\n");
	free(v);

	/* CPU idle stats are not tracked when samples were skipped */
	if (sc->skipped_samples && !sc->o.idle_hist)
		return 0;
	printf("\nIdle stats:\n");
	for (int i = 0; i < sc->nr_idle; i++) {
		struct th_task *r = &sc->idle[i];

		if (!cpu_shown(sc, i) || !r->known)
			continue;
		if (r->run_stats.n) {
			tot.sched_count += (uint64_t)r->run_stats.n;
			printf("    CPU %2d idle for ", i);
			print_sched_time(r->total_run_time, 6);
			printf(" msec  (%6.2f%%)\n", 100.0 * r->total_run_time / hist_time);
		} else {
			printf("    CPU %2d idle entire time window\n", i);
		}
	}
	if (sc->o.idle_hist && sc->o.show_callchain) {
		/* perf 6.1 lists no idle callchains here (its idle accounting
		 * of such files comes out empty); prf prints the same frame */
		printf("\nIdle stats by callchain:\n");
		for (int i = 0; i < sc->nr_idle; i++) {
			if (!sc->idle[i].known)
				continue;
			printf("  CPU %2d:", i);
			print_sched_time(sc->idle[i].total_run_time, 6);
			printf(" msec\n");
			printf("  %16s  %8s  %s\n", "Idle time (msec)", "Count", "Callchains");
			printf("  %.16s  %.8s  %.50s\n", dotted, dotted, dotted);
			printf("\n");
		}
	}
	printf("\n"
	       "    Total number of unique tasks: %" PRIu64 "\n"
	       "Total number of context switches: %" PRIu64 "\n",
	       tot.task_count, tot.sched_count);
	printf("           Total run time (msec): ");
	print_sched_time(tot.total_run_time, 2);
	printf("\n");
	printf("    Total scheduling time (msec): ");
	print_sched_time(hist_time, 2);
	printf(" (x %d)\n", sc->max_cpu);
	return 0;
}

void sched__timehist_exit(struct sched *sc)
{
	if (sc->obuf)
		th_sync(sc);	/* what an error stopped the processing after */
	free(sc->obuf);
	sc->obuf = NULL;
	free(sc->idle_last);
	sc->idle_last = NULL;
	free(sc->idle);
	sc->idle = NULL;
	sc->nr_idle = 0;
}
