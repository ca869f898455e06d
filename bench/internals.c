// SPDX-License-Identifier: GPL-2.0
/*
 * internals synthesize: times repeated syntheses of side-band records,
 * first of this process alone, then of every process on the system with
 * 1..N threads sharing the work (perf bench internals synthesize's two
 * parts and their lines). The synthesis itself is the caller's (bench.h).
 */
#include <math.h>
#include <stdio.h>
#include "bench.h"

/* Running mean and variance (Welford) of one measured quantity. */
struct run_stats {
	double n, mean, m2;
};

static void run_stats__add(struct run_stats *s, double v)
{
	double d = v - s->mean;

	s->n += 1;
	s->mean += d / s->n;
	s->m2 += d * (v - s->mean);
}

/* The standard error of the mean. */
static double run_stats__stderr(const struct run_stats *s)
{
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

/* One part: ITERATIONS runs of fn, then its three lines indented by IND. */
static int synth_part(const char *ind, unsigned int iterations, const struct bench_synth_ops *ops,
		      unsigned int nr_threads, enum bench_format fmt)
{
	struct run_stats t = { 0 }, ev = { 0 };

	for (unsigned int i = 0; i < iterations; i++) {
		uint64_t nr = 0, start = bench_now_ns();
		int err = nr_threads ? ops->all(ops->arg, nr_threads, &nr) : ops->self(ops->arg, &nr);

		if (err)
			return err;
		run_stats__add(&t, (double)(bench_now_ns() - start) / 1e3);
		run_stats__add(&ev, (double)nr);
	}
	if (fmt == BENCH_FORMAT_SIMPLE) {
		printf("%.3f\n", t.mean);
		return 0;
	}
	printf("%sAverage synthesis took: %.3f usec (+- %.3f usec)\n", ind, t.mean,
	       run_stats__stderr(&t));
	printf("%sAverage num. events: %.3f (+- %.3f)\n", ind, ev.mean, run_stats__stderr(&ev));
	printf("%sAverage time per event %.3f usec\n", ind, ev.mean > 0 ? t.mean / ev.mean : 0);
	return 0;
}

int bench_internals_synthesize(const struct bench_synthesize *p, const struct bench_synth_ops *ops,
			       enum bench_format fmt)
{
	int err;

	if (p->st) {
		if (fmt == BENCH_FORMAT_DEFAULT)
			printf("Computing performance of single threaded perf event synthesis by\n"
			       "synthesizing events on the perf process itself:\n");
		err = synth_part("  ", p->st_iterations, ops, 0, fmt);
		if (err)
			return err;
	}
	if (!p->mt)
		return 0;
	if (fmt == BENCH_FORMAT_DEFAULT)
		printf("Computing performance of multi threaded perf event synthesis by\n"
		       "synthesizing events on CPU 0:\n");
	for (unsigned int n = p->min_threads; n <= p->max_threads; n++) {
		if (fmt == BENCH_FORMAT_DEFAULT)
			printf("  Number of synthesis threads: %u\n", n);
		err = synth_part("    ", p->mt_iterations, ops, n, fmt);
		if (err)
			return err;
	}
	return 0;
}
