// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for util/analysis/stat.c (scaling, aggregation, mean/stddev
 * over runs) and stat-display.c (perf 6.1's human/CSV/JSON rows), fed with
 * known counter readings so every number can be checked exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/analysis/stat.h"
#include "../util/analysis/stat-display.h"
#include "../util/kernel/cpumap.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/thread_map.h"
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

static int test__stats(void)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats s;
	size_t i;

	init_stats(&s);
	TEST_ASSERT_VAL("empty stddev", stddev_stats(&s) == 0);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		update_stats(&s, v[i]);
	TEST_ASSERT_VAL("mean", fabs(avg_stats(&s) - 5.0) < 1e-9);
	/* sample variance 32/7, standard error sqrt(32/7/8) */
	TEST_ASSERT_VAL("stddev of mean", fabs(stddev_stats(&s) - sqrt(32.0 / 7 / 8)) < 1e-9);
	TEST_ASSERT_VAL("relative", fabs(rel_stddev_stats(1.0, 4.0) - 25.0) < 1e-9);
	TEST_ASSERT_VAL("relative of 0", rel_stddev_stats(1.0, 0.0) == 0.0);
	return TEST_OK;
}

static int test__scale(void)
{
	struct perf_counts_values c = { .val = 1000, .ena = 400, .run = 100 };

	TEST_ASSERT_VAL("scaled", perf_counts_values__scale(&c));
	TEST_ASSERT_EQUAL("val * ena / run", c.val, 4000);
	c = (struct perf_counts_values){ .val = 1000, .ena = 400, .run = 400 };
	TEST_ASSERT_VAL("not scaled", !perf_counts_values__scale(&c));
	TEST_ASSERT_EQUAL("unchanged", c.val, 1000);
	c = (struct perf_counts_values){ .val = 1000, .ena = 400, .run = 0 };
	perf_counts_values__scale(&c);
	TEST_ASSERT_EQUAL("never ran", c.val, 0);
	return TEST_OK;
}

static struct evsel *add_sw(struct evlist *evlist, uint64_t config)
{
	struct perf_event_attr attr;
	struct evsel *evsel;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.exclude_guest = 1;
	evsel = evsel__new(&attr);
	if (evsel)
		evlist__add(evlist, evsel);
	return evsel;
}

/* An evlist of task-clock + page-faults + cycles(unsupported) on 2 cpus. */
static struct evlist *fake_evlist(enum aggr_mode mode)
{
	struct evlist *evlist = evlist__new();
	struct evsel *clk, *pf, *cyc;
	struct perf_event_attr attr;
	struct evsel_stat *st;

	if (!evlist)
		return NULL;
	clk = add_sw(evlist, PERF_COUNT_SW_TASK_CLOCK);
	pf = add_sw(evlist, PERF_COUNT_SW_PAGE_FAULTS);
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_guest = 1;
	cyc = evsel__new(&attr);
	if (!clk || !pf || !cyc)
		return NULL;
	evlist__add(evlist, cyc);
	if (evlist__stat_alloc(evlist, 2, 1, mode))
		return NULL;
	cyc->unsupported = true;
	/* cpu0 multiplexed half the time, cpu1 fully */
	st = evsel__stat(clk);
	st->cur[0] = (struct perf_counts_values){ .val = 1000000, .ena = 2000000, .run = 1000000 };
	st->cur[1] = (struct perf_counts_values){ .val = 1000000, .ena = 1000000, .run = 1000000 };
	st = evsel__stat(pf);
	st->cur[0] = (struct perf_counts_values){ .val = 100, .ena = 2000000, .run = 2000000 };
	st->cur[1] = (struct perf_counts_values){ .val = 50, .ena = 1000000, .run = 1000000 };
	return evlist;
}

static char *render(struct stat_display *d, struct evlist *evlist)
{
	char *buf = NULL;
	size_t len = 0;

	d->fp = open_memstream(&buf, &len);
	if (!d->fp)
		return NULL;
	stat_display__print(d, evlist);
	fclose(d->fp);
	return buf;
}

static void display_init(struct stat_display *d, enum out_mode mode)
{
	memset(d, 0, sizeof(*d));
	d->mode = mode;
	d->sep = ",";
	d->run_count = 1;
	d->target = "'true'";
	init_stats(&d->walltime);
	update_stats(&d->walltime, 2000000.0);	/* 2 ms elapsed */
}

static int test__aggregate(void)
{
	struct evlist *evlist = fake_evlist(AGGR_GLOBAL);
	struct evsel *clk;
	struct evsel_stat *st;

	TEST_ASSERT_VAL("evlist", evlist);
	clk = evlist__first(evlist);
	evlist__stat_process(evlist, AGGR_GLOBAL, false, true);
	st = evsel__stat(clk);
	TEST_ASSERT_EQUAL("scaled sum", (long long)st->aggr[0].val, 3000000);
	TEST_ASSERT_EQUAL("ena sum", st->aggr[0].ena, 3000000);
	TEST_ASSERT_EQUAL("run sum", st->aggr[0].run, 2000000);
	TEST_ASSERT_VAL("counted", st->aggr[0].counted);
	evlist__stat_free(evlist);
	evlist__delete(evlist);

	evlist = fake_evlist(AGGR_NONE);
	TEST_ASSERT_VAL("evlist", evlist);
	evlist__stat_process(evlist, AGGR_NONE, false, true);
	st = evsel__stat(evlist__first(evlist));
	TEST_ASSERT_EQUAL("per-cpu rows", st->nr_aggr, 2);
	TEST_ASSERT_EQUAL("cpu0 scaled", (long long)st->aggr[0].val, 2000000);
	TEST_ASSERT_EQUAL("cpu1", (long long)st->aggr[1].val, 1000000);

	/* interval deltas: second read of the same values gives zero */
	evlist__stat_process(evlist, AGGR_NONE, true, false);
	evlist__stat_process(evlist, AGGR_NONE, true, false);
	TEST_ASSERT_VAL("delta zero, not counted", st->aggr[0].val == 0 && !st->aggr[0].counted);
	evlist__stat_free(evlist);
	evlist__delete(evlist);
	return TEST_OK;
}

static int test__display(void)
{
	struct evlist *evlist = fake_evlist(AGGR_GLOBAL);
	struct stat_display d;
	char *s;

	TEST_ASSERT_VAL("evlist", evlist);
	evlist__stat_process(evlist, AGGR_GLOBAL, false, true);

	display_init(&d, OUT_CSV);
	s = render(&d, evlist);
	TEST_ASSERT_STREQ("csv", s,
		"3.00,msec,task-clock,2000000,66.67,1.500,CPUs utilized\n"
		"150,,page-faults,3000000,100.00,50.000,K/sec\n"
		"<not supported>,,cycles,0,100.00,,\n");
	free(s);

	display_init(&d, OUT_JSON);
	s = render(&d, evlist);
	TEST_ASSERT_VAL("json keys", s && strstr(s,
		"{\"counter-value\" : \"3.000000\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		"\"event-runtime\" : 2000000, \"pcnt-running\" : 66.67, \"metric-value\" : 1.500000, "
		"\"metric-unit\" : \"CPUs utilized\"}\n"));
	TEST_ASSERT_VAL("json not supported", strstr(s, "\"counter-value\" : \"<not supported>\""));
	free(s);

	display_init(&d, OUT_HUMAN);
	s = render(&d, evlist);
	TEST_ASSERT_VAL("human", s);
	pr_debug("%s", s);
	TEST_ASSERT_VAL("header", !strncmp(s, "\n Performance counter stats for 'true':\n\n", 41));
	TEST_ASSERT_VAL("clock row", strstr(s,
		"              3.00 msec task-clock                       #    1.500 CPUs utilized            (66.67%)\n"));
	TEST_ASSERT_VAL("faults row", strstr(s,
		"               150      page-faults                      #   50.000 K/sec                  \n"));
	TEST_ASSERT_VAL("unsupported row", strstr(s,
		"   <not supported>      cycles                                                      \n"));
	TEST_ASSERT_VAL("elapsed", strstr(s, "\n       0.002000000 seconds time elapsed\n\n"));
	free(s);

	/* -r: a second run with other values gives "( +- X% )" noise */
	evlist__stat_process(evlist, AGGR_GLOBAL, false, true);
	evsel__stat(evlist__first(evlist))->cur[1].val = 3000000;
	evlist__stat_process(evlist, AGGR_GLOBAL, false, true);
	display_init(&d, OUT_HUMAN);
	d.run_count = 3;
	update_stats(&d.walltime, 2100000.0);
	update_stats(&d.walltime, 1900000.0);
	s = render(&d, evlist);
	TEST_ASSERT_VAL("runs header", s && strstr(s, "for 'true' (3 runs):"));
	TEST_ASSERT_VAL("noise", strstr(s, "( +- "));
	TEST_ASSERT_VAL("elapsed +-", strstr(s, " +- 0.0000"));
	free(s);

	evlist__stat_free(evlist);
	evlist__delete(evlist);
	return TEST_OK;
}

/* Real counters: a lone event, then a {task-clock,page-faults} group read
 * with PERF_FORMAT_GROUP as the last entries of the evlist. */
static int test__group_read(void)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *cpus = perf_cpu_map__dummy_new();
	struct perf_thread_map *threads = thread_map__new_by_tid(0);
	struct evsel *lone, *leader, *member;
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p;
	int err, i;

	TEST_ASSERT_VAL("alloc", evlist && cpus && threads);
	lone = add_sw(evlist, PERF_COUNT_SW_PAGE_FAULTS);
	leader = add_sw(evlist, PERF_COUNT_SW_TASK_CLOCK);
	member = add_sw(evlist, PERF_COUNT_SW_PAGE_FAULTS);
	TEST_ASSERT_VAL("evsels", lone && leader && member);
	member->leader = leader;
	evlist__update_groups(evlist);
	lone->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	leader->attr.read_format = lone->attr.read_format | PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	member->attr.read_format = leader->attr.read_format;
	lone->attr.disabled = leader->attr.disabled = 1;
	evlist__set_maps(evlist, cpus, threads);
	TEST_ASSERT_EQUAL("stat alloc", evlist__stat_alloc(evlist, 1, 1, AGGR_GLOBAL), 0);
	err = evlist__open(evlist, NULL);
	if (err == -EACCES || err == -EPERM)
		return test_skip("perf_event_open not permitted");
	TEST_ASSERT_EQUAL("open", err, 0);
	evlist__enable(evlist);
	p = mmap(NULL, 300 * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT_VAL("mmap", p != MAP_FAILED);
	for (i = 0; i < 300; i++)
		p[i * psz] = 1;
	evlist__disable(evlist);
	munmap((void *)p, 300 * psz);
	TEST_ASSERT_EQUAL("read", evlist__stat_read(evlist), 0);
	evlist__stat_process(evlist, AGGR_GLOBAL, false, true);
	TEST_ASSERT_VAL("lone faults", evsel__stat(lone)->aggr[0].val >= 300);
	TEST_ASSERT_VAL("group member faults", evsel__stat(member)->aggr[0].val >= 300);
	TEST_ASSERT_VAL("group leader clock", evsel__stat(leader)->aggr[0].val > 0);
	TEST_ASSERT_VAL("group times", evsel__stat(member)->aggr[0].ena == evsel__stat(leader)->aggr[0].ena);
	evlist__stat_free(evlist);
	evlist__delete(evlist);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return TEST_OK;
}

DEFINE_SUITE(stat, "stat aggregation and printers",
	TEST_CASE(stats, "mean, stddev of the mean"),
	TEST_CASE(scale, "scaling by time_enabled/time_running"),
	TEST_CASE(aggregate, "global, per-cpu and interval aggregation"),
	TEST_CASE(display, "human, CSV and JSON rows as perf 6.1"),
	TEST_CASE(group_read, "real group read with PERF_FORMAT_GROUP into the stat rows"));
