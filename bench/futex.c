// SPDX-License-Identifier: GPL-2.0
/*
 * futex hash: each thread runs through its own array of futexes calling
 * FUTEX_WAIT with a value the futex does not hold, so every call looks the
 * futex up in the kernel's hash table and returns EAGAIN at once; the
 * figure is calls per second for RUNTIME seconds.
 */
#include <errno.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

/* The standard error of the mean of N values (their SUM and SUM of squares), in percent of the mean. */
static double rel_stderr(double sum, double sumsq, unsigned int n)
{
	double mean = n ? sum / n : 0, var;

	if (n < 2 || mean <= 0)
		return 0;
	var = (sumsq - sum * mean) / (n - 1);
	return sqrt((var > 0 ? var : 0) / n) / mean * 100.0;
}

struct futex_worker {
	pthread_t tid;
	uint32_t *futexes;
	unsigned int nfutexes;
	int op;
	atomic_bool *stop;
	uint64_t ops;
	int err;
};

static void *futex_hash_thread(void *arg)
{
	struct futex_worker *w = arg;

	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		for (unsigned int i = 0; i < w->nfutexes; i++) {
			/* the futex holds 0: waiting for 1 fails with EAGAIN */
			long r = syscall(SYS_futex, &w->futexes[i], w->op, 1, NULL, NULL, 0);

			if (r != -1 || errno != EAGAIN) {
				w->err = r == -1 ? errno : EINVAL;
				return NULL;
			}
		}
		w->ops += w->nfutexes;
	}
	return NULL;
}

int bench_futex_hash(const struct bench_futex_hash *p, enum bench_format fmt)
{
	struct futex_worker *w = calloc(p->threads ? p->threads : 1, sizeof(*w));
	atomic_bool stop = false;
	unsigned int started = 0;
	double sum = 0, sumsq = 0, mean, rel = 0;
	int err = 0;

	if (!w || !p->threads || !p->nfutexes) {
		free(w);
		return w ? -EINVAL : -ENOMEM;
	}
	if (p->mlockall && mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "prf bench futex hash: mlockall: %s\n", strerror(errno));
	(void)fmt;	/* perf's simple format prints these lines too */
	printf("Run summary [PID %d]: %u threads, each operating on %u [%s] futexes for %u secs.\n\n",
	       (int)getpid(), p->threads, p->nfutexes, p->shared ? "shared" : "private",
	       p->runtime);
	for (; started < p->threads; started++) {
		struct futex_worker *t = &w[started];

		t->futexes = calloc(p->nfutexes, sizeof(*t->futexes));
		t->nfutexes = p->nfutexes;
		t->op = FUTEX_WAIT | (p->shared ? 0 : FUTEX_PRIVATE_FLAG);
		t->stop = &stop;
		if (!t->futexes) {
			err = -ENOMEM;
			break;
		}
		err = -pthread_create(&t->tid, NULL, futex_hash_thread, t);
		if (err) {
			free(t->futexes);
			break;
		}
	}
	if (!err) {
		struct timespec ts = { .tv_sec = p->runtime };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < started; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].err && !err)
			err = -w[i].err;
	}
	for (unsigned int i = 0; i < started && !err; i++) {
		double rate = (double)w[i].ops / (p->runtime ? p->runtime : 1);

		sum += rate;
		sumsq += rate * rate;
		if (!p->silent)
			printf("[thread %2u] futexes: %p ... %p [ %llu ops/sec ]\n", i,
			       (void *)w[i].futexes, (void *)&w[i].futexes[p->nfutexes - 1],
			       (unsigned long long)rate);
	}
	if (!err) {
		mean = sum / started;
		rel = rel_stderr(sum, sumsq, started);
		printf("\nAveraged %llu operations/sec (+-%5.2f%%), total secs = %u\n",
		       (unsigned long long)mean, rel, p->runtime);
	}
	for (unsigned int i = 0; i < started; i++)
		free(w[i].futexes);
	free(w);
	return err;
}

/*
 * futex wake: THREADS threads block in FUTEX_WAIT on one futex; the time
 * is how long FUTEX_WAKE calls of NWAKES each take to wake them all.
 * Repeated for WAKE_RUNS runs, then averaged.
 */
#define WAKE_RUNS 10

struct futex_waiter {
	uint32_t *futex;
	int op;
	atomic_uint *ready, *escaped;
};

static void *futex_wait_thread(void *arg)
{
	struct futex_waiter *w = arg;

	atomic_fetch_add(w->ready, 1);
	/* a return other than by a wake (EINTR) is counted, so nobody waits on it */
	if (syscall(SYS_futex, w->futex, w->op, 0, NULL, NULL, 0) == -1)
		atomic_fetch_add(w->escaped, 1);
	return NULL;
}

int bench_futex_wake(const struct bench_futex_wake *p, enum bench_format fmt)
{
	static uint32_t futex;
	pthread_t *tids = calloc(p->threads ? p->threads : 1, sizeof(*tids));
	int wait_op = FUTEX_WAIT | (p->shared ? 0 : FUTEX_PRIVATE_FLAG);
	int wake_op = FUTEX_WAKE | (p->shared ? 0 : FUTEX_PRIVATE_FLAG);
	double sum = 0, sumsq = 0, mean, rel = 0;
	unsigned int woken = 0;
	int err = 0;

	(void)fmt;
	if (!tids)
		return -ENOMEM;
	if (p->mlockall && mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "prf bench futex wake: mlockall: %s\n", strerror(errno));
	printf("Run summary [PID %d]: blocking on %u threads (at [%s] futex %p), waking up %u at a time.\n\n",
	       (int)getpid(), p->threads, p->shared ? "shared" : "private", (void *)&futex, p->nwakes);
	for (int run = 1; run <= WAKE_RUNS && !err; run++) {
		atomic_uint ready = 0, escaped = 0;
		struct futex_waiter w = { &futex, wait_op, &ready, &escaped };
		unsigned int started = 0;
		uint64_t start, ns;
		double ms;

		for (; started < p->threads; started++) {
			err = -pthread_create(&tids[started], NULL, futex_wait_thread, &w);
			if (err)
				break;
		}
		while (atomic_load(&ready) < started)
			sched_yield();
		usleep(10000);	/* let them reach FUTEX_WAIT */
		start = bench_now_ns();
		for (woken = 0; woken + atomic_load(&escaped) < started;) {
			long r = syscall(SYS_futex, &futex, wake_op, p->nwakes, NULL, NULL, 0);

			if (r > 0)
				woken += (unsigned int)r;
		}
		ns = bench_now_ns() - start;
		for (unsigned int i = 0; i < started; i++)
			pthread_join(tids[i], NULL);
		if (err)
			break;
		ms = (double)ns / 1e6;
		sum += ms;
		sumsq += ms * ms;
		if (!p->silent)
			printf("[Run %d]: Wokeup %u of %u threads in %.4f ms\n", run, woken, p->threads, ms);
	}
	if (!err) {
		mean = sum / WAKE_RUNS;
		rel = rel_stderr(sum, sumsq, WAKE_RUNS);
		printf("Wokeup %u of %u threads in %.4f ms (+-%5.2f%%)\n", woken, p->threads, mean, rel);
	}
	free(tids);
	return err;
}
