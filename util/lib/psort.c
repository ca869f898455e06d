// SPDX-License-Identifier: GPL-2.0
/*
 * Parallel sort of pointer arrays (see psort.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "psort.h"
#include "tunables.h"
#include "util.h"
#include "helper-thread.h"

#define PSORT_MIN_PART 8192	/* smaller parts: threads cost more than they save */

struct psort_job {
	void **v, **tmp;
	size_t n;
	psort_cmp_fn cmp;
	void *arg;
	int depth;		/* 2^depth parts below this one */
};

int psort_threads(void)
{
	long n = tunable__int(TUNABLE_THREADS);	/* 0..64, 0: automatic */

	if (!n)
		n = cpus_usable();
	return n > 64 ? 64 : (int)n;
}

/* merge the sorted runs v[0..mid) and v[mid..n) through tmp */
static void merge(void **v, void **tmp, size_t mid, size_t n, psort_cmp_fn cmp, void *arg)
{
	size_t i = 0, j = mid, k = 0;

	if (!mid || mid == n || cmp(&v[mid - 1], &v[mid], arg) <= 0)
		return;		/* already in order */
	while (i < mid && j < n)
		tmp[k++] = cmp(&v[j], &v[i], arg) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	/* v[j..n) is already in place */
	memcpy(v, tmp, k * sizeof(*v));
}

static void *psort_job__run(void *p)
{
	struct psort_job *j = p;
	struct psort_job left, right;
	struct helper_thread thr;
	size_t mid;
	int threaded;

	if (!j->depth || j->n < 2 * PSORT_MIN_PART) {
		qsort_r(j->v, j->n, sizeof(*j->v), j->cmp, j->arg);
		return NULL;
	}
	mid = j->n / 2;
	left = (struct psort_job){ j->v, j->tmp, mid, j->cmp, j->arg, j->depth - 1 };
	right = (struct psort_job){ j->v + mid, j->tmp + mid, j->n - mid, j->cmp, j->arg,
				    j->depth - 1 };
	threaded = !helper_thread__start(&thr, psort_job__run, &left);
	psort_job__run(&right);
	if (threaded)
		helper_thread__join(&thr);
	else
		psort_job__run(&left);
	merge(j->v, j->tmp, mid, j->n, j->cmp, j->arg);
	return NULL;
}

void psort_ptrs(void **v, size_t n, psort_cmp_fn cmp, void *arg, int nthreads)
{
	struct psort_job job = { v, NULL, n, cmp, arg, 0 };

	if (nthreads <= 0)
		nthreads = psort_threads();
	while ((1 << (job.depth + 1)) <= nthreads && job.depth < 6)
		job.depth++;
	if (job.depth && n >= 2 * PSORT_MIN_PART)
		job.tmp = malloc(n * sizeof(*v));
	if (!job.tmp)
		job.depth = 0;
	psort_job__run(&job);
	free(job.tmp);
}
