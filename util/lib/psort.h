/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_PSORT_H
#define PRF_LIB_PSORT_H
/*
 * Sorting an array of pointers on several threads: the array is cut into
 * up to nthreads parts (a power of two), each part is qsort_r()'ed on its
 * own thread, and the parts are merged pairwise (each merge of a level on
 * its own thread too). cmp must be a strict weak order; the result is the
 * sorted array, and for a total order (no two elements compare equal) it
 * is the one qsort_r() would give. Falls back to a single qsort_r() for
 * small arrays, nthreads <= 1, or when memory or threads are short.
 */
#include <stddef.h>

typedef int (*psort_cmp_fn)(const void *a, const void *b, void *arg);

/* Sort v[0..n) (pointers; cmp gets pointers to the slots, as qsort_r).
 * nthreads <= 0: psort_threads(). Never fails: threads and the merge
 * buffer (n pointers) are an optimisation only. */
void psort_ptrs(void **v, size_t n, psort_cmp_fn cmp, void *arg, int nthreads);

/* Threads report's sorting and printing may use: $PRF_THREADS when not 0
 * (1: none besides the caller; tunables.h), else cpus_usable(); 1 to 64. */
int psort_threads(void);

#endif
