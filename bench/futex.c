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
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

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
		/* the standard error of the mean, relative to it */
		if (started > 1 && mean > 0) {
			double var = (sumsq - sum * mean) / (started - 1);

			rel = sqrt((var > 0 ? var : 0) / started) / mean * 100.0;
		}
		printf("\nAveraged %llu operations/sec (+-%5.2f%%), total secs = %u\n",
		       (unsigned long long)mean, rel, p->runtime);
	}
	for (unsigned int i = 0; i < started; i++)
		free(w[i].futexes);
	free(w);
	return err;
}
