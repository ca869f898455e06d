/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_HELPER_THREAD_H
#define PRF_LIB_HELPER_THREAD_H
/*
 * Helper threads that start on another CPU than the thread creating them.
 *
 * Linux often queues a new thread on its creator's CPU although another
 * CPU is idle, and it then runs only when its creator blocks or is
 * preempted: on the 2-CPU CI machine (kernel 6.18, EEVDF), a thread
 * created while its creator kept computing ran after 1.5-3.8 ms in 3 of
 * 8 tries, so a helper meant to halve 3 ms of work started when the work
 * was done. Created with its creator's CPU left out of its affinity
 * mask, it ran within 0.05-0.16 ms in all tries.
 *
 * helper__start() does that: the new thread's mask is the creator's
 * affinity mask (sched_getaffinity(2): taskset and cpusets are obeyed)
 * less the creator's current CPU. The thread's first act is to widen its
 * mask back to the creator's, so that the scheduler may move it later
 * like any other thread; and helper__join() widens it first if the
 * thread has not started yet, so that it can run on the joiner's CPU,
 * idle while it waits. With fewer than two CPUs in the mask, or when the
 * mask cannot be set, the thread is created as pthread_create() does.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>

struct helper_thread {
	pthread_t tid;
	void *(*fn)(void *);
	void *arg;
	cpu_set_t mask;		/* the creator's affinity */
	int cpu;		/* the creator's CPU then (-1: not known) */
	bool narrowed;		/* created on the mask less the creator's CPU */
	int started;		/* set by the thread, atomically */
};

/*
 * Start fn(arg) on a new thread described by *h, which must stay in place
 * until helper_thread__join() (or, for a thread detached with
 * pthread_detach(h->tid), for the rest of the program: make it static).
 * 0, or -errno of pthread_create() (no thread: the caller does the work).
 */
int helper_thread__start(struct helper_thread *h, void *(*fn)(void *), void *arg);

/* Wait for h's thread to end; fn's return value. */
void *helper_thread__join(struct helper_thread *h);

#endif
