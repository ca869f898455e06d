// SPDX-License-Identifier: GPL-2.0
/*
 * sched replay: rebuild each recorded task's pattern of running,
 * sleeping and waking others from its sched_switch/sched_wakeup/fork
 * events, then run it again with one thread per task (busy loops for the
 * run times, semaphores for sleeps and wakeups), several times, printing
 * how long each round took, as `perf sched replay` does.
 *
 * The per-task atom lists and counters follow perf 6.1 (so the
 * nr_*_events lines and the task list match perf's for the same file);
 * the round times are measurements and differ run to run. Each replay
 * thread's CPU time comes from CLOCK_THREAD_CPUTIME_ID.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include "sched-internal.h"
#include "../model/machine.h"

#define REPLAY_PID_MAX (1 << 22)	/* the kernel's PID_MAX_LIMIT */

enum atom_type { ATOM_RUN, ATOM_SLEEP, ATOM_WAKEUP };

struct replay_atom {
	enum atom_type type;
	uint64_t timestamp, duration;
	sem_t *wait_sem;	/* owned by the SLEEP atom */
	bool specific_wait;
};

struct replay_task {
	unsigned long nr;
	pid_t pid;
	char comm[20];
	struct replay_atom **atoms;
	unsigned long nr_atoms, alloc;
	pthread_t thread;
	sem_t ready_for_work, work_done;
	uint64_t cpu_usage;
	struct replay *rp;
};

struct replay {
	struct replay_task **tasks;	/* in registration order */
	unsigned long nr_tasks;
	struct replay_task **by_pid;	/* indexed by pid */
	unsigned long pid_max;
	unsigned long nr_run_events, nr_sleep_events, nr_wakeup_events;
	unsigned long nr_run_events_optimized, targetless_wakeups, multitarget_wakeups;
	uint64_t run_overhead, sleep_overhead;
	pthread_mutex_t start_work, work_done_wait;
	bool exit;
	int err;
	/* run statistics */
	unsigned long nr_runs;
	uint64_t sum_runtime, sum_fluct, run_avg, cpu_usage, runavg_cpu_usage;
	unsigned int repeat;
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void burn_nsecs(struct replay *rp, uint64_t nsecs)
{
	uint64_t t0 = now_ns(CLOCK_MONOTONIC);

	while (now_ns(CLOCK_MONOTONIC) + rp->run_overhead < t0 + nsecs)
		;
}

static void sleep_nsecs(uint64_t nsecs)
{
	struct timespec ts = { .tv_sec = (time_t)(nsecs / 999999999),
			       .tv_nsec = (long)(nsecs % 999999999) };

	nanosleep(&ts, NULL);
}

static struct replay *replay_of(struct sched *sc)
{
	if (!sc->replay)
		sc->replay = calloc(1, sizeof(struct replay));
	return sc->replay;
}

static struct replay_atom *new_atom(struct replay *rp, struct replay_task *t, uint64_t ts)
{
	struct replay_atom *a = calloc(1, sizeof(*a));

	if (!a)
		goto nomem;
	if (t->nr_atoms == t->alloc) {
		unsigned long n = t->alloc ? t->alloc * 2 : 8;
		struct replay_atom **v = realloc(t->atoms, n * sizeof(*v));

		if (!v) {
			free(a);
			goto nomem;
		}
		t->atoms = v;
		t->alloc = n;
	}
	a->timestamp = ts;
	t->atoms[t->nr_atoms++] = a;
	return a;
nomem:
	rp->err = -ENOMEM;
	return NULL;
}

static struct replay_atom *last_atom(struct replay_task *t)
{
	return t->nr_atoms ? t->atoms[t->nr_atoms - 1] : NULL;
}

static void add_run(struct replay *rp, struct replay_task *t, uint64_t ts, uint64_t duration)
{
	struct replay_atom *a = last_atom(t);

	if (a && a->type == ATOM_RUN) {	/* merged into the run before */
		rp->nr_run_events_optimized++;
		a->duration += duration;
		return;
	}
	a = new_atom(rp, t, ts);
	if (!a)
		return;
	a->type = ATOM_RUN;
	a->duration = duration;
	rp->nr_run_events++;
}

static void add_sleep(struct replay *rp, struct replay_task *t, uint64_t ts)
{
	struct replay_atom *a = new_atom(rp, t, ts);

	if (!a)
		return;
	a->type = ATOM_SLEEP;
	rp->nr_sleep_events++;
}

static void add_wakeup(struct replay *rp, struct replay_task *t, uint64_t ts,
		       struct replay_task *wakee)
{
	struct replay_atom *a = new_atom(rp, t, ts), *w;

	if (!a)
		return;
	a->type = ATOM_WAKEUP;
	w = last_atom(wakee);
	if (!w || w->type != ATOM_SLEEP) {
		rp->targetless_wakeups++;
		return;
	}
	if (w->wait_sem) {
		rp->multitarget_wakeups++;
		return;
	}
	w->wait_sem = calloc(1, sizeof(*w->wait_sem));
	if (!w->wait_sem) {
		rp->err = -ENOMEM;
		return;
	}
	sem_init(w->wait_sem, 0, 0);
	w->specific_wait = true;
	a->wait_sem = w->wait_sem;	/* shared: freed with the SLEEP atom */
	rp->nr_wakeup_events++;
}

static struct replay_task *register_pid(struct replay *rp, pid_t pid, const char *comm)
{
	struct replay_task *t, **v;

	if (pid < 0 || pid > REPLAY_PID_MAX)
		return NULL;	/* no such pid: bad input */
	if ((unsigned long)pid >= rp->pid_max) {
		unsigned long n = rp->pid_max ? rp->pid_max : 32768;

		while (n <= (unsigned long)pid)
			n *= 2;
		v = realloc(rp->by_pid, n * sizeof(*v));
		if (!v)
			goto nomem;
		memset(v + rp->pid_max, 0, (n - rp->pid_max) * sizeof(*v));
		rp->by_pid = v;
		rp->pid_max = n;
	}
	if (rp->by_pid[pid])
		return rp->by_pid[pid];
	t = calloc(1, sizeof(*t));
	v = realloc(rp->tasks, (rp->nr_tasks + 1) * sizeof(*v));
	if (!t || !v) {
		free(t);
		if (v)
			rp->tasks = v;
		goto nomem;
	}
	rp->tasks = v;
	t->pid = pid;
	t->nr = rp->nr_tasks;
	t->rp = rp;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	/* every task starts asleep; ignored unless a wakeup points at it */
	add_sleep(rp, t, 0);
	rp->by_pid[pid] = t;
	rp->tasks[rp->nr_tasks++] = t;
	return t;
nomem:
	rp->err = -ENOMEM;
	return NULL;
}

int sched__replay_event(struct sched *sc, enum sched_ev kind, struct evsel *evsel,
			struct perf_sample *sample)
{
	struct replay *rp = replay_of(sc);
	char comm[32], comm2[32];

	if (!rp)
		return -ENOMEM;
	if (kind == SEV_SWITCH) {
		pid_t prev = (pid_t)sched__field(sc, evsel, sample, SF_PREV_PID);
		pid_t next = (pid_t)sched__field(sc, evsel, sample, SF_NEXT_PID);
		int cpu = (int)sample->cpu;
		uint64_t t0, delta;
		struct replay_task *pt;

		if (cpu < 0 || cpu >= SCHED_MAX_CPUS)
			return 0;
		t0 = sc->cpu_last_switched[cpu];
		delta = t0 ? sample->time - t0 : 0;
		if (t0 > sample->time) {
			fprintf(stderr, "hm, delta: %lld < 0 ?\n", (long long)(sample->time - t0));
			return -EINVAL;
		}
		sched__field_str(sc, evsel, sample, SF_PREV_COMM, comm, sizeof(comm));
		sched__field_str(sc, evsel, sample, SF_NEXT_COMM, comm2, sizeof(comm2));
		pt = register_pid(rp, prev, comm);
		register_pid(rp, next, comm2);
		sc->cpu_last_switched[cpu] = sample->time;
		if (pt) {
			add_run(rp, pt, sample->time, delta);
			add_sleep(rp, pt, sample->time);
		}
	} else if (kind == SEV_WAKEUP || kind == SEV_WAKEUP_NEW) {
		pid_t pid = (pid_t)sched__field(sc, evsel, sample, SF_PID);
		struct replay_task *waker, *wakee;

		sched__field_str(sc, evsel, sample, SF_COMM, comm, sizeof(comm));
		waker = register_pid(rp, (pid_t)sample->tid, "<unknown>");
		wakee = register_pid(rp, pid, comm);
		if (waker && wakee)
			add_wakeup(rp, waker, sample->time, wakee);
	}
	return rp->err;
}

int sched__replay_fork(struct sched *sc, pid_t ppid, pid_t ptid, pid_t pid, pid_t tid)
{
	struct replay *rp = replay_of(sc);
	struct thread *child, *parent;

	if (!rp)
		return -ENOMEM;
	child = sched__thread(sc, pid, tid);
	parent = sched__thread(sc, ppid, ptid);
	if (!child || !parent)
		return 0;
	register_pid(rp, parent->tid, thread__comm_str(parent));
	register_pid(rp, child->tid, thread__comm_str(child));
	return rp->err;
}

static void *replay_thread(void *arg)
{
	struct replay_task *t = arg;
	struct replay *rp = t->rp;
	char name[22];

	snprintf(name, sizeof(name), ":%s", t->comm);
	prctl(PR_SET_NAME, name);
	for (;;) {
		uint64_t c0;

		sem_post(&t->ready_for_work);
		pthread_mutex_lock(&rp->start_work);
		pthread_mutex_unlock(&rp->start_work);
		if (rp->exit)
			break;
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (unsigned long i = 0; i < t->nr_atoms; i++) {
			struct replay_atom *a = t->atoms[i];

			if (a->type == ATOM_RUN)
				burn_nsecs(rp, a->duration);
			else if (a->type == ATOM_SLEEP && a->wait_sem)
				sem_wait(a->wait_sem);
			else if (a->type == ATOM_WAKEUP && a->wait_sem)
				sem_post(a->wait_sem);
		}
		t->cpu_usage = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		sem_post(&t->work_done);
		pthread_mutex_lock(&rp->work_done_wait);
		pthread_mutex_unlock(&rp->work_done_wait);
	}
	return NULL;
}

static uint64_t self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000 +
	       (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000;
}

/* One round: release every task, wait until each has replayed its atoms. */
static void run_one_test(struct replay *rp)
{
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), delta, avg, fluct;

	rp->cpu_usage = 0;
	pthread_mutex_unlock(&rp->work_done_wait);
	for (unsigned long i = 0; i < rp->nr_tasks; i++) {
		sem_wait(&rp->tasks[i]->ready_for_work);
		sem_init(&rp->tasks[i]->ready_for_work, 0, 0);
	}
	pthread_mutex_lock(&rp->work_done_wait);
	(void)self_cpu();
	pthread_mutex_unlock(&rp->start_work);
	for (unsigned long i = 0; i < rp->nr_tasks; i++) {
		sem_wait(&rp->tasks[i]->work_done);
		sem_init(&rp->tasks[i]->work_done, 0, 0);
		rp->cpu_usage += rp->tasks[i]->cpu_usage;
		rp->tasks[i]->cpu_usage = 0;
	}
	if (!rp->runavg_cpu_usage)
		rp->runavg_cpu_usage = rp->cpu_usage;
	rp->runavg_cpu_usage = (rp->runavg_cpu_usage * (rp->repeat - 1) + rp->cpu_usage) / rp->repeat;
	pthread_mutex_lock(&rp->start_work);

	delta = now_ns(CLOCK_MONOTONIC) - t0;
	rp->sum_runtime += delta;
	rp->nr_runs++;
	avg = rp->sum_runtime / rp->nr_runs;
	fluct = delta < avg ? avg - delta : delta - avg;
	rp->sum_fluct += fluct;
	if (!rp->run_avg)
		rp->run_avg = delta;
	rp->run_avg = (rp->run_avg * (rp->repeat - 1) + delta) / rp->repeat;
	printf("#%-3lu: %0.3f, ", rp->nr_runs, (double)delta / NSEC_PER_MSEC);
	printf("ravg: %0.2f, ", (double)rp->run_avg / NSEC_PER_MSEC);
	printf("cpu: %0.2f / %0.2f\n", (double)rp->cpu_usage / NSEC_PER_MSEC,
	       (double)rp->runavg_cpu_usage / NSEC_PER_MSEC);
	fflush(stdout);
}

static void calibrate(struct replay *rp)
{
	uint64_t min = 1000000000, t0, t1;

	for (int i = 0; i < 10; i++) {
		t0 = now_ns(CLOCK_MONOTONIC);
		burn_nsecs(rp, 0);
		t1 = now_ns(CLOCK_MONOTONIC);
		if (t1 - t0 < min)
			min = t1 - t0;
	}
	rp->run_overhead = min;
	printf("run measurement overhead: %llu nsecs\n", (unsigned long long)min);
	min = 1000000000;
	for (int i = 0; i < 10; i++) {
		t0 = now_ns(CLOCK_MONOTONIC);
		sleep_nsecs(10000);
		t1 = now_ns(CLOCK_MONOTONIC);
		if (t1 - t0 < min)
			min = t1 - t0;
	}
	min -= 10000;
	rp->sleep_overhead = min;
	printf("sleep measurement overhead: %llu nsecs\n", (unsigned long long)min);

	t0 = now_ns(CLOCK_MONOTONIC);
	burn_nsecs(rp, NSEC_PER_MSEC);
	printf("the run test took %llu nsecs\n", (unsigned long long)(now_ns(CLOCK_MONOTONIC) - t0));
	t0 = now_ns(CLOCK_MONOTONIC);
	sleep_nsecs(NSEC_PER_MSEC);
	printf("the sleep test took %llu nsecs\n", (unsigned long long)(now_ns(CLOCK_MONOTONIC) - t0));
}

/* Before reading: perf measures the loop and sleep overheads first. */
int sched__replay_start(struct sched *sc)
{
	struct replay *rp = replay_of(sc);

	if (!rp)
		return -ENOMEM;
	rp->repeat = sc->o.repeat ? sc->o.repeat : UINT_MAX;
	pthread_mutex_init(&rp->start_work, NULL);
	pthread_mutex_init(&rp->work_done_wait, NULL);
	calibrate(rp);
	fflush(stdout);
	return 0;
}

int sched__replay_finish(struct sched *sc)
{
	struct replay *rp = replay_of(sc);
	pthread_attr_t attr;
	unsigned long started = 0;

	if (!rp)
		return -ENOMEM;
	if (rp->err)
		return rp->err;
	printf("nr_run_events:        %lu\n", rp->nr_run_events);
	printf("nr_sleep_events:      %lu\n", rp->nr_sleep_events);
	printf("nr_wakeup_events:     %lu\n", rp->nr_wakeup_events);
	if (rp->targetless_wakeups)
		printf("target-less wakeups:  %lu\n", rp->targetless_wakeups);
	if (rp->multitarget_wakeups)
		printf("multi-target wakeups: %lu\n", rp->multitarget_wakeups);
	if (rp->nr_run_events_optimized)
		printf("run atoms optimized: %lu\n", rp->nr_run_events_optimized);
	for (unsigned long i = 0; i < rp->nr_tasks; i++) {
		struct replay_task *t = rp->tasks[i];

		printf("task %6lu (%20s:%10d), nr_events: %lu\n", t->nr, t->comm, t->pid, t->nr_atoms);
	}
	/* each task wakes the next one, so none waits for ever */
	for (unsigned long i = 0; i < rp->nr_tasks; i++)
		add_wakeup(rp, rp->tasks[i], 0, rp->tasks[(i + 1) % rp->nr_tasks]);
	if (rp->err)
		return rp->err;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN > 16384 ? PTHREAD_STACK_MIN : 16384);
	pthread_mutex_lock(&rp->start_work);
	pthread_mutex_lock(&rp->work_done_wait);
	for (; started < rp->nr_tasks; started++) {
		struct replay_task *t = rp->tasks[started];

		sem_init(&t->ready_for_work, 0, 0);
		sem_init(&t->work_done, 0, 0);
		if (pthread_create(&t->thread, &attr, replay_thread, t)) {
			fprintf(stderr, "prf sched replay: cannot start thread %lu of %lu\n",
				started + 1, rp->nr_tasks);
			rp->err = -EAGAIN;
			break;
		}
	}
	pthread_attr_destroy(&attr);
	printf("------------------------------------------------------------\n");
	fflush(stdout);
	for (unsigned int i = 0; !rp->err && i < rp->repeat; i++)
		run_one_test(rp);

	/* let the threads see the exit flag, then join them */
	rp->exit = true;
	pthread_mutex_unlock(&rp->work_done_wait);
	for (unsigned long i = 0; i < started; i++)
		sem_wait(&rp->tasks[i]->ready_for_work);
	pthread_mutex_unlock(&rp->start_work);
	for (unsigned long i = 0; i < started; i++)
		pthread_join(rp->tasks[i]->thread, NULL);
	return rp->err;
}

void sched__replay_exit(struct sched *sc)
{
	struct replay *rp = sc->replay;

	if (!rp)
		return;
	for (unsigned long i = 0; i < rp->nr_tasks; i++) {
		struct replay_task *t = rp->tasks[i];

		for (unsigned long j = 0; j < t->nr_atoms; j++) {
			struct replay_atom *a = t->atoms[j];

			if (a->type == ATOM_SLEEP && a->wait_sem) {
				sem_destroy(a->wait_sem);
				free(a->wait_sem);
			}
			free(a);
		}
		free(t->atoms);
		free(t);
	}
	free(rp->tasks);
	free(rp->by_pid);
	free(rp);
	sc->replay = NULL;
}
