// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the metric expressions (util/kernel/metric-expr.h) with known
 * counts: arithmetic and precedence, if/else, min/max, d_ratio, the
 * #literals, source_count, durations (tool events in seconds), escapes,
 * division by zero; the identifiers an expression needs, with perf's
 * constant folding, in perf's hash order (checked against the event
 * strings perf 6.1 builds for AMD Zen 3 metrics); and the event strings
 * of util/kernel/metricgroup.h for a model picked by $PERF_CPUID.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/kernel/metric-expr.h"
#include "../util/kernel/metricgroup.h"
#include "../util/kernel/pmu-events.h"

struct counts {
	const char *const *names;
	const double *vals;
};

static int lookup(const char *id, bool source_count, double *val, void *data)
{
	const struct counts *c = data;

	for (int i = 0; c->names[i]; i++) {
		if (!strcmp(c->names[i], id)) {
			*val = source_count ? 2 : c->vals[i];
			return 0;
		}
	}
	return -1;
}

static const struct metric_env env_smt = {
	.smt_on = 1, .num_cpus = 8, .num_packages = 1, .num_dies = 1, .num_cores = 4,
	.system_tsc_freq = 2e9, .runtime = 3,
};
static const struct metric_env env_nosmt = { .num_cpus = 2, .num_cores = 2, .num_packages = 1 };

static const char *const names[] = {
	"cycles", "instructions", "duration_time", "msr@tsc@", "cpu@event=0x3c@", "a-b", "ev3",
	"branches", "misses", NULL,
};
static const double vals[] = { 1000, 2500, 0.5, 4000, 7, 3, 11, 200, 10 };

static double ev(const char *expr, const struct metric_env *env, int *ret)
{
	struct counts c = { names, vals };
	double v = NAN;

	*ret = metric_expr__eval(expr, env, lookup, &c, &v);
	return v;
}

#define EXPECT(expr, want)								\
	do {										\
		int __r;								\
		double __v = ev(expr, &env_smt, &__r);					\
		if (__r || fabs(__v - (double)(want)) > 1e-9 * (fabs((double)(want)) + 1)) {		\
			pr_err("FAILED %s:%d '%s' = %g (ret %d), want %g\n", __FILE__,	\
			       __LINE__, expr, __v, __r, (double)(want));		\
			return TEST_FAIL;						\
		}									\
	} while (0)

static int test__arithmetic(void)
{
	EXPECT("1 + 2 * 3", 7);
	EXPECT("(1 + 2) * 3", 9);
	EXPECT("10 - 4 - 3", 3);
	EXPECT("100 / 10 / 5", 2);
	EXPECT("-2 * 3", -6);
	EXPECT("- -4", 4);
	EXPECT("7 % 4", 3);
	EXPECT("6 | 1", 7);
	EXPECT("6 & 3", 2);
	EXPECT("6 ^ 3", 5);
	EXPECT("1 | 2 ^ 3 & 1", 3);	/* & binds tighter than ^, ^ than | */
	EXPECT("2 < 3", 1);
	EXPECT("2 > 3 + 1", 0);		/* + before > */
	EXPECT("1.5e3 + .5", 1500.5);
	EXPECT("2e-3 * 1000", 2);
	EXPECT("instructions / cycles", 2.5);
	EXPECT("100 * misses / branches", 5);
	return TEST_OK;
}

static int test__nan_and_errors(void)
{
	int r;
	double v = ev("unknown_event + 1", &env_smt, &r);

	TEST_ASSERT_VAL("unknown id is NaN", !r && isnan(v));
	ev("1 / 0", &env_smt, &r);
	TEST_ASSERT_VAL("division by 0", r == -EINVAL);
	ev("cycles % 0", &env_smt, &r);
	TEST_ASSERT_VAL("modulo by 0", r == -EINVAL);
	ev("1 +", &env_smt, &r);
	TEST_ASSERT_VAL("trailing operator", r == -EINVAL);
	ev("(1 + 2", &env_smt, &r);
	TEST_ASSERT_VAL("unclosed parenthesis", r == -EINVAL);
	ev("#no_such_literal", &env_smt, &r);
	TEST_ASSERT_VAL("unknown literal", r == -EINVAL);
	ev("1 if 2", &env_smt, &r);
	TEST_ASSERT_VAL("if without else", r == -EINVAL);
	ev("min(1)", &env_smt, &r);
	TEST_ASSERT_VAL("min of one", r == -EINVAL);
	return TEST_OK;
}

static int test__functions(void)
{
	EXPECT("d_ratio(instructions, cycles)", 2.5);
	EXPECT("d_ratio(cycles, 0)", 0);
	EXPECT("min(cycles, instructions)", 1000);
	EXPECT("max(cycles, instructions) / 2", 1250);
	EXPECT("source_count(cycles)", 2);
	EXPECT("cycles if instructions > cycles else 5", 1000);
	EXPECT("cycles if 0 else 5", 5);
	EXPECT("1 if 0 else 2 if 0 else 3", 3);
	EXPECT("(1 if 1 else 2) + 10", 11);
	EXPECT("2 * 3 if 1 else 4", 6);		/* the if takes the whole sum */
	return TEST_OK;
}

static int test__literals(void)
{
	int r;

	EXPECT("#smt_on", 1);
	EXPECT("#SMT_on", 1);			/* case-insensitive, as perf */
	EXPECT("#num_cpus", 8);
	EXPECT("#num_cores * #num_packages", 4);
	EXPECT("#system_tsc_freq / 1e9", 2);
	EXPECT("cycles / 2 if #smt_on else cycles", 500);
	TEST_ASSERT_VAL("no smt", ev("cycles / 2 if #smt_on else cycles", &env_nosmt, &r) == 1000);
	EXPECT("#core_wide", 0);
	return TEST_OK;
}

static int test__durations_and_ids(void)
{
	/* duration_time is given in seconds (stat-metric.c scales the ns) */
	EXPECT("cycles / duration_time", 2000);
	EXPECT("msr@tsc@ / 1000", 4);			/* '@' stands for '/' */
	EXPECT("cpu@event\\=0x3c@", 7);			/* "\\" escapes '=' */
	EXPECT("a\\-b * 2", 6);
	EXPECT("ev? + 1", 12);				/* '?': the runtime parameter */
	return TEST_OK;
}

/* ids of `expr` in iteration order, comma-joined, into buf */
static int ids_of(const char *expr, const struct metric_env *env, char *buf, size_t len)
{
	struct metric_ids ids = { 0 };
	struct metric_id *n;
	size_t b;
	int ret = metric_expr__find_ids(expr, env, &ids);

	buf[0] = '\0';
	metric_ids__for_each(&ids, n, b) {
		if (buf[0])
			strncat(buf, ",", len - strlen(buf) - 1);
		strncat(buf, n->key, len - strlen(buf) - 1);
	}
	metric_ids__release(&ids);
	return ret;
}

static int test__find_ids(void)
{
	char buf[512];

	/* perf 6.1 builds these AMD Zen 3 metrics' events in this order */
	TEST_ASSERT_VAL("l2", !ids_of("l2_request_g1.all_no_prefetch + l2_pf_hit_l2 + "
				       "l2_pf_miss_l2_hit_l3 + l2_pf_miss_l2_l3", &env_smt, buf,
				       sizeof(buf)));
	TEST_ASSERT_STREQ("l2 order", buf, "l2_pf_miss_l2_l3,l2_pf_hit_l2,l2_pf_miss_l2_hit_l3,"
			  "l2_request_g1.all_no_prefetch");
	TEST_ASSERT_VAL("ratio", !ids_of("d_ratio(ex_ret_brn_misp, ex_ret_brn)", &env_smt, buf,
					  sizeof(buf)));
	TEST_ASSERT_STREQ("ratio order", buf, "ex_ret_brn,ex_ret_brn_misp");
	/* constants fold: a known condition keeps one branch */
	TEST_ASSERT_VAL("smt", !ids_of("a if #smt_on else b", &env_smt, buf, sizeof(buf)));
	TEST_ASSERT_STREQ("smt on", buf, "a");
	TEST_ASSERT_VAL("nosmt", !ids_of("a if #smt_on else b", &env_nosmt, buf, sizeof(buf)));
	TEST_ASSERT_STREQ("smt off", buf, "b");
	TEST_ASSERT_VAL("d_ratio 0", !ids_of("d_ratio(a, 0) + c", &env_smt, buf, sizeof(buf)));
	TEST_ASSERT_STREQ("d_ratio by 0 needs no event", buf, "c");
	TEST_ASSERT_VAL("same", !ids_of("5 if x > 1 else 5", &env_smt, buf, sizeof(buf)));
	TEST_ASSERT_STREQ("equal branches need nothing", buf, "");
	TEST_ASSERT_VAL("unknown cond", !ids_of("a if x else b", &env_smt, buf, sizeof(buf)));
	TEST_ASSERT_VAL("all three", strstr(buf, "a") && strstr(buf, "x") && strstr(buf, "b"));
	TEST_ASSERT_VAL("syntax", ids_of("a +", &env_smt, buf, sizeof(buf)) == -EINVAL);
	return TEST_OK;
}

static int test__id_set(void)
{
	struct metric_ids a = { 0 }, b = { 0 };
	char key[16];

	/* grows from 4 chains and keeps every key once */
	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		TEST_ASSERT_VAL("add", !metric_ids__add(&a, key));
		TEST_ASSERT_VAL("again", !metric_ids__add(&a, key));
	}
	TEST_ASSERT_EQUAL("size", a.nr, 100);
	TEST_ASSERT_VAL("cap", a.cap >= 128 && a.cap * 3 / 4 >= a.nr);
	metric_ids__del(&a, "k7");
	TEST_ASSERT_VAL("deleted", !metric_ids__has(&a, "k7") && a.nr == 99);
	TEST_ASSERT_VAL("b", !metric_ids__add(&b, "k7") && !metric_ids__add(&b, "zz"));
	TEST_ASSERT_VAL("union", !metric_ids__union(&b, &a));
	TEST_ASSERT_VAL("union size", b.nr == 101 && a.nr == 0);
	TEST_ASSERT_VAL("subset", metric_ids__has(&b, "k7") && metric_ids__has(&b, "k99"));
	metric_ids__release(&a);
	metric_ids__release(&b);
	return TEST_OK;
}

static int test__event_strings(void)
{
	struct metric_plan plan;

	if (!pmu_events__available())
		return test_skip("prf built without the kernel's pmu-events tables");
	setenv("PERF_CPUID", "AuthenticAMD-25-1-1", 1);
	TEST_ASSERT_VAL("plan", !metric_plan__build(&plan, "branch_misprediction_ratio,tlb", false,
						     false, false));
	/* later names first, then sorted by event count */
	TEST_ASSERT_EQUAL("metrics", plan.nr, 2);
	TEST_ASSERT_STREQ("first", plan.metrics[0].name, "l1_itlb_misses");
	TEST_ASSERT_EQUAL("strings", plan.nr_events, 2);
	TEST_ASSERT_STREQ("events", plan.events[0],
			  "{bp_l1_tlb_miss_l2_tlb_miss/metric-id=bp_l1_tlb_miss_l2_tlb_miss/,"
			  "bp_l1_tlb_miss_l2_tlb_hit/metric-id=bp_l1_tlb_miss_l2_tlb_hit/}:W");
	metric_plan__exit(&plan);
	/* a constant metric (Haswell's "0") still counts duration_time */
	setenv("PERF_CPUID", "GenuineIntel-6-3C-1", 1);
	TEST_ASSERT_VAL("const", !metric_plan__build(&plan, "L3_Cache_Access_BW_1T", false, false,
						      false));
	TEST_ASSERT_STREQ("duration_time", plan.events[0], "duration_time");
	metric_plan__exit(&plan);
	TEST_ASSERT_VAL("unknown", metric_plan__build(&plan, "no_such_metric", false, false,
						       false) == -EINVAL);
	unsetenv("PERF_CPUID");
	return TEST_OK;
}

DEFINE_SUITE(metric_expr, "Metric expressions (pmu-events MetricExpr) and their events",
	     TEST_CASE(arithmetic, "arithmetic and precedence"),
	     TEST_CASE(nan_and_errors, "unknown ids are NaN, syntax errors and division by 0"),
	     TEST_CASE(functions, "d_ratio, min, max, source_count, if/else"),
	     TEST_CASE(literals, "#smt_on, #num_cpus and the other literals"),
	     TEST_CASE(durations_and_ids, "tool events in seconds, @, escapes, ?"),
	     TEST_CASE(find_ids, "the ids an expression needs, in perf's order"),
	     TEST_CASE(id_set, "the id set: growth, delete, union"),
	     TEST_CASE(event_strings, "perf's event strings for metrics and groups"));
