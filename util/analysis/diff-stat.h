/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_DIFF_STAT_H
#define PRF_ANALYSIS_DIFF_STAT_H
/*
 * `prf diff --stat`: two groups of recordings of repeated runs (A: before,
 * B: after), entries matched across all of them by name (diff.h). Per
 * entry, per run, the share of the run's samples (percent of its period
 * total); per entry the mean share in A and B, their difference B - A
 * with a 95% confidence interval and Welch's unequal-variance t-test
 * (Welch 1947; the Welch-Satterthwaite degrees of freedom), the p-values
 * of all entries tested adjusted with Holm's step-down method (Holm 1979)
 * so that the chance of flagging any unchanged entry stays at alpha.
 *
 * Verdicts: "changed" (adjusted p below alpha), "noise" (tested, not
 * significant: the difference is inside the run-to-run noise), "small"
 * (both mean shares below the floor: not tested, not counted in the
 * correction).
 */
#include <stdbool.h>
#include <stdio.h>
#include "diff.h"

struct diff_stat_opts {
	const char *event;		/* event name for the header */
	double alpha;			/* family-wise error rate, e.g. 0.05 */
	double floor;			/* percent: entries below in both groups
					   are not tested */
	bool json;			/* one JSON object (util/lib/out.h) */
	bool children;			/* children (self + callees) periods: a
					   caller whose callees changed is found */
	bool by_period;			/* test each run's period of the entry
					   (its CPU time for cpu-clock), not its
					   share: a change elsewhere moves every
					   share, not the periods */
	bool fail_above_set;
	double fail_above;		/* points: a significant rise above fails */
};

/* One entry's statistics. */
struct diff_stat_entry {
	size_t row;			/* in the diff_table */
	double mean_a, mean_b;		/* percent */
	double delta, ci_lo, ci_hi;	/* points, B - A */
	double p, p_adj;		/* two-sided; Holm-adjusted */
	bool tested, changed;
};

/* Two-sided p-value of Student's t with df degrees of freedom (df > 0,
 * not necessarily whole): P(|T| >= |t|). */
double student_t_p2(double t, double df);
/* The t with student_t_p2(t, df) == p (0 < p < 1), to 1e-10 relative. */
double student_t_quantile2(double p, double df);

/*
 * Welch's test of shares a[0..na) against b[0..nb) (na, nb >= 2) into e
 * (mean_a, mean_b, delta, ci at 1 - alpha, p). Equal means without
 * variance give p = 1; different means without variance p = 0.
 */
void diff_stat__welch(const double *a, int na, const double *b, int nb, double alpha,
		      struct diff_stat_entry *e);
/* Holm's adjustment of the p of the tested entries of e[0..n), setting
 * p_adj and changed (p_adj < alpha). */
void diff_stat__holm(struct diff_stat_entry *e, size_t n, double alpha);

/*
 * Test files[0..na) (A) against files[na..na+nb) (B) and print the
 * entries, changed ones first by the size of the change, then the noise,
 * to fp (text, or JSON with o->json). so: the sort keys (widths set
 * here). Returns 0, 1 when --fail-above tripped (an entry changed
 * significantly upward by more than o->fail_above points; with by_period
 * percent of its baseline mean), -ENOMEM, or
 * -EPIPE when fp failed.
 */
int diff_stat__run(const struct diff_stat_opts *o, struct sort_order *so,
		   const struct diff_file *files, int na, int nb, FILE *fp);

#endif
