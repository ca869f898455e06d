// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of prf diff --stat's statistics (util/analysis/diff-stat.h):
 * Student's t tail and quantile against table values, Welch's test
 * against a worked example (the numbers R's t.test() gives for the same
 * samples), Holm's adjustment by hand.
 */
#include <math.h>
#include "tests.h"
#include "../util/analysis/diff-stat.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

static int test__student_t(void)
{
	/* two-sided 5% points of t with 1, 4, 10 and ~infinite df */
	TEST_ASSERT_VAL("t 1 df", NEAR(student_t_p2(12.7062047, 1), 0.05, 1e-6));
	TEST_ASSERT_VAL("t 4 df", NEAR(student_t_p2(2.7764451, 4), 0.05, 1e-6));
	TEST_ASSERT_VAL("t -4 df", NEAR(student_t_p2(-2.7764451, 4), 0.05, 1e-6));
	TEST_ASSERT_VAL("t 10 df 1%", NEAR(student_t_p2(3.1692727, 10), 0.01, 1e-6));
	TEST_ASSERT_VAL("normal limit", NEAR(student_t_p2(1.959964, 1e7), 0.05, 1e-5));
	TEST_ASSERT_VAL("t 0", NEAR(student_t_p2(0.0, 5), 1.0, 1e-12));
	TEST_ASSERT_VAL("fractional df", student_t_p2(2.0, 3.5) > student_t_p2(2.0, 4.0));
	TEST_ASSERT_VAL("quantile 4 df", NEAR(student_t_quantile2(0.05, 4), 2.7764451, 1e-5));
	TEST_ASSERT_VAL("quantile 10 df", NEAR(student_t_quantile2(0.01, 10), 3.1692727, 1e-5));
	return TEST_OK;
}

static int test__welch(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 7, 7, 7 };
	struct diff_stat_entry e = { 0 };

	/* equal variances 1, df 4, t = 3 / sqrt(2/3) */
	diff_stat__welch(a, 3, b, 3, 0.05, &e);
	TEST_ASSERT_VAL("means", e.mean_a == 2.0 && e.mean_b == 5.0 && e.delta == 3.0);
	TEST_ASSERT_VAL("p", NEAR(e.p, 0.02131164, 1e-6));
	TEST_ASSERT_VAL("ci low", NEAR(e.ci_lo, 0.733042, 1e-5));
	TEST_ASSERT_VAL("ci high", NEAR(e.ci_hi, 5.266958, 1e-5));
	/* no variance on either side: certain */
	diff_stat__welch(c, 3, c, 3, 0.05, &e);
	TEST_ASSERT_VAL("same constants", e.p == 1.0 && e.delta == 0.0);
	/* unequal variances: Welch-Satterthwaite df below na + nb - 2 */
	diff_stat__welch(a, 3, c, 3, 0.05, &e);
	TEST_ASSERT_VAL("one side constant", NEAR(e.p, student_t_p2(5.0 / sqrt(1.0 / 3), 2), 1e-12));
	return TEST_OK;
}

static int test__holm(void)
{
	struct diff_stat_entry e[5] = {
		{ .p = 0.01, .tested = true }, { .p = 0.04, .tested = true },
		{ .p = 0.03, .tested = true }, { .p = 0.005, .tested = true },
		{ .p = 0.0001, .tested = false },
	};

	diff_stat__holm(e, 5, 0.05);
	TEST_ASSERT_VAL("smallest", NEAR(e[3].p_adj, 0.02, 1e-12) && e[3].changed);
	TEST_ASSERT_VAL("second", NEAR(e[0].p_adj, 0.03, 1e-12) && e[0].changed);
	TEST_ASSERT_VAL("third", NEAR(e[2].p_adj, 0.06, 1e-12) && !e[2].changed);
	TEST_ASSERT_VAL("step-down max", NEAR(e[1].p_adj, 0.06, 1e-12) && !e[1].changed);
	TEST_ASSERT_VAL("untested", !e[4].changed && e[4].p_adj == 1.0);
	return TEST_OK;
}

DEFINE_SUITE(diff_math, "prf diff --stat statistics",
	     TEST_CASE(student_t, "Student's t tail and quantile"),
	     TEST_CASE(welch, "Welch's t-test and its interval"),
	     TEST_CASE(holm, "Holm's step-down adjustment"));
