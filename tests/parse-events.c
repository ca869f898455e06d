// SPDX-License-Identifier: GPL-2.0
/* Unit tests for util/kernel/parse-events.c, pmu.c, tracefs.c, event-names.c. */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/hw_breakpoint.h>
#include <unistd.h>
#include "tests.h"
#include "../util/kernel/cpumap.h"
#include "../util/kernel/event-names.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/pmu.h"
#include "../util/kernel/tracefs.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"

/* Parse str into a fresh evlist; NULL (and the error printed) on failure. */
static struct evlist *parse(const char *str)
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;

	parse_events_error__init(&err);
	if (parse_events(evlist, str, &err)) {
		parse_events_error__print(&err, str, stderr);
		parse_events_error__exit(&err);
		evlist__delete(evlist);
		return NULL;
	}
	parse_events_error__exit(&err);
	return evlist;
}

/* Expect a parse error at idx whose message contains `msg`. */
static int expect_error(const char *str, int idx, const char *msg)
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;
	int ret;

	parse_events_error__init(&err);
	ret = parse_events(evlist, str, &err);
	if (ret != -EINVAL || !err.str || err.idx != idx || !strstr(err.str, msg) ||
	    evlist->nr_entries != 0) {
		pr_err("'%s': ret %d idx %d (want %d) msg '%s' (want '%s') entries %d\n", str, ret,
		       err.idx, idx, err.str ? err.str : "(null)", msg, evlist->nr_entries);
		ret = -1;
	} else {
		ret = 0;
	}
	parse_events_error__exit(&err);
	evlist__delete(evlist);
	return ret;
}

static struct evsel *nth(struct evlist *evlist, int n)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		if (evsel->idx == n)
			return evsel;
	return NULL;
}

static int check_one(const char *str, uint32_t type, uint64_t config, const char *name)
{
	struct evlist *evlist = parse(str);
	struct evsel *e;

	TEST_ASSERT_VAL(str, evlist);
	TEST_ASSERT_EQUAL(str, evlist->nr_entries, 1);
	e = evlist__first(evlist);
	TEST_ASSERT_EQUAL(str, e->attr.type, type);
	TEST_ASSERT_EQUAL(str, e->attr.config, config);
	TEST_ASSERT_STREQ(str, e->name, name);
	TEST_ASSERT_VAL(str, e->leader == e);
	evlist__delete(evlist);
	return TEST_OK;
}

static int test__symbolic(void)
{
	static const struct { const char *s; uint32_t type; uint64_t config; } cases[] = {
		{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
		{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
		{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
		{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
		{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
		{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
		{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
		{ "cgroup-switches", PERF_TYPE_SOFTWARE, 11 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (check_one(cases[i].s, cases[i].type, cases[i].config, cases[i].s))
			return TEST_FAIL;
	return TEST_OK;
}

#define CACHE(t, o, r) (PERF_COUNT_HW_CACHE_##t | (PERF_COUNT_HW_CACHE_OP_##o << 8) | \
			(PERF_COUNT_HW_CACHE_RESULT_##r << 16))

static int test__cache(void)
{
	static const struct { const char *s; uint64_t config; } cases[] = {
		{ "L1-dcache-load-misses", CACHE(L1D, READ, MISS) },
		{ "L1-dcache-loads", CACHE(L1D, READ, ACCESS) },
		{ "L1-dcache-stores", CACHE(L1D, WRITE, ACCESS) },
		{ "L1-dcache-prefetch-misses", CACHE(L1D, PREFETCH, MISS) },
		{ "l1d-loads", CACHE(L1D, READ, ACCESS) },
		{ "L1-data-miss", CACHE(L1D, READ, MISS) },
		{ "L1-dcache", CACHE(L1D, READ, ACCESS) },
		{ "L1-icache-load-misses", CACHE(L1I, READ, MISS) },
		{ "L1-icache-prefetches", CACHE(L1I, PREFETCH, ACCESS) },
		{ "LLC-loads", CACHE(LL, READ, ACCESS) },
		{ "LLC-store-misses", CACHE(LL, WRITE, MISS) },
		{ "LLC-speculative-read-miss", CACHE(LL, PREFETCH, MISS) },
		{ "L2-misses-load", CACHE(LL, READ, MISS) },
		{ "dTLB-load-misses", CACHE(DTLB, READ, MISS) },
		{ "dTLB-stores", CACHE(DTLB, WRITE, ACCESS) },
		{ "iTLB-load-misses", CACHE(ITLB, READ, MISS) },
		{ "branch-loads", CACHE(BPU, READ, ACCESS) },
		{ "branch-load-misses", CACHE(BPU, READ, MISS) },
		{ "node-loads", CACHE(NODE, READ, ACCESS) },
		{ "node-prefetch-misses", CACHE(NODE, PREFETCH, MISS) },
		{ "node-store-refs", CACHE(NODE, WRITE, ACCESS) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (check_one(cases[i].s, PERF_TYPE_HW_CACHE, cases[i].config, cases[i].s))
			return TEST_FAIL;
	/* ops the cache doesn't have, as perf rejects them */
	TEST_ASSERT_VAL("L1-icache-stores", !expect_error("L1-icache-stores", 0, "invalid cache event"));
	TEST_ASSERT_VAL("iTLB-stores", !expect_error("iTLB-stores", 0, "invalid cache event"));
	TEST_ASSERT_VAL("branch-prefetches", !expect_error("cs,branch-prefetches", 3, "invalid cache event"));
	/* two ops or junk are not cache events at all */
	TEST_ASSERT_VAL("L1-dcache-load-store", !expect_error("L1-dcache-load-store", 0, "unknown event"));
	TEST_ASSERT_VAL("LLC-foo", !expect_error("LLC-foo", 0, "unknown event 'LLC-foo'"));
	return TEST_OK;
}

static int test__raw(void)
{
	struct evlist *evlist;
	struct evsel *e;

	if (check_one("r1a8", PERF_TYPE_RAW, 0x1a8, "r1a8") ||
	    check_one("rDEADbeef", PERF_TYPE_RAW, 0xdeadbeef, "rDEADbeef") ||
	    check_one("r0", PERF_TYPE_RAW, 0, "r0"))
		return TEST_FAIL;
	evlist = parse("r1a8:u");
	TEST_ASSERT_VAL("r1a8:u", evlist);
	e = evlist__first(evlist);
	TEST_ASSERT_STREQ("name", e->name, "r1a8:u");
	TEST_ASSERT_VAL("exclude_kernel", e->attr.exclude_kernel && !e->attr.exclude_user);
	evlist__delete(evlist);
	TEST_ASSERT_VAL("r1g", !expect_error("r1g", 0, "unknown event 'r1g'"));
	return TEST_OK;
}

/* Parse "cpu-clock:MODS" and return the attr. */
static int mods_attr(const char *mods, struct perf_event_attr *attr, struct evsel *copy)
{
	char str[64];
	struct evlist *evlist;

	snprintf(str, sizeof(str), "cpu-clock:%s", mods);
	evlist = parse(str);
	if (!evlist)
		return -1;
	*attr = evlist__first(evlist)->attr;
	if (copy)
		*copy = *evlist__first(evlist);
	if (strcmp(evlist__first(evlist)->name, str)) {
		pr_err("name %s != %s\n", evlist__first(evlist)->name, str);
		evlist__delete(evlist);
		return -1;
	}
	evlist__delete(evlist);
	return 0;
}

static int test__modifiers(void)
{
	struct perf_event_attr a;
	struct evsel e;

	TEST_ASSERT_VAL("u", !mods_attr("u", &a, NULL));
	TEST_ASSERT_VAL("u bits", !a.exclude_user && a.exclude_kernel && a.exclude_hv &&
			a.exclude_guest && !a.exclude_host && !a.precise_ip);
	TEST_ASSERT_VAL("k", !mods_attr("k", &a, NULL));
	/* perf 6.1 (Debian's 6.1.192, perf record -vv): only u and p of an
	 * event's own modifiers exclude the guest */
	TEST_ASSERT_VAL("k bits", a.exclude_user && !a.exclude_kernel && a.exclude_hv && !a.exclude_guest);
	TEST_ASSERT_VAL("h", !mods_attr("h", &a, NULL));
	TEST_ASSERT_VAL("h bits", a.exclude_user && a.exclude_kernel && !a.exclude_hv && !a.exclude_guest);
	TEST_ASSERT_VAL("uk", !mods_attr("uk", &a, NULL));
	TEST_ASSERT_VAL("uk bits", !a.exclude_user && !a.exclude_kernel && a.exclude_hv);
	TEST_ASSERT_VAL("p", !mods_attr("p", &a, NULL));
	TEST_ASSERT_VAL("p bits", a.precise_ip == 1 && a.exclude_guest && !a.exclude_user && !a.exclude_kernel);
	TEST_ASSERT_VAL("pp", !mods_attr("pp", &a, NULL));
	TEST_ASSERT_EQUAL("pp", a.precise_ip, 2);
	TEST_ASSERT_VAL("ppp", !mods_attr("ppp", &a, NULL));
	TEST_ASSERT_EQUAL("ppp", a.precise_ip, 3);
	TEST_ASSERT_VAL("upp", !mods_attr("upp", &a, NULL));
	TEST_ASSERT_VAL("upp bits", a.precise_ip == 2 && a.exclude_kernel && !a.exclude_user);
	TEST_ASSERT_VAL("G", !mods_attr("G", &a, NULL));
	TEST_ASSERT_VAL("G bits", !a.exclude_guest && a.exclude_host && !a.exclude_user && !a.exclude_kernel);
	TEST_ASSERT_VAL("H", !mods_attr("H", &a, NULL));
	TEST_ASSERT_VAL("H bits", a.exclude_guest && !a.exclude_host);
	TEST_ASSERT_VAL("uG", !mods_attr("uG", &a, NULL));
	TEST_ASSERT_VAL("uG bits", !a.exclude_guest && a.exclude_host && a.exclude_kernel);
	TEST_ASSERT_VAL("I", !mods_attr("I", &a, NULL));
	TEST_ASSERT_VAL("I bits", a.exclude_idle && !a.exclude_kernel);
	TEST_ASSERT_VAL("D", !mods_attr("D", &a, NULL));
	TEST_ASSERT_VAL("D bits", a.pinned);
	TEST_ASSERT_VAL("e", !mods_attr("e", &a, NULL));
	TEST_ASSERT_VAL("e bits", a.exclusive);
	TEST_ASSERT_VAL("S", !mods_attr("S", &a, &e));
	TEST_ASSERT_VAL("S flag", e.sample_read);
	TEST_ASSERT_VAL("W", !mods_attr("W", &a, &e));
	TEST_ASSERT_VAL("W flag", e.weak_group);
	TEST_ASSERT_VAL("P", !mods_attr("P", &a, &e));
	TEST_ASSERT_VAL("P flag", e.precise_max);
	TEST_ASSERT_VAL("no mods", !check_one("cpu-clock", PERF_TYPE_SOFTWARE, 0, "cpu-clock"));
	/* errors: perf puts the caret on the ':' for an unknown letter */
	TEST_ASSERT_VAL("x", !expect_error("cycles:x", 6, "unknown modifier 'x'"));
	TEST_ASSERT_VAL("ux", !expect_error("cs,cycles:ux", 9, "unknown modifier 'x'"));
	TEST_ASSERT_VAL("pppp", !expect_error("cycles:pppp", 7, "at most 3"));
	TEST_ASSERT_VAL("empty", !expect_error("cycles:", 6, "missing modifier"));
	return TEST_OK;
}

static int test__groups(void)
{
	struct evlist *evlist = parse("{cs,faults}:u,cpu-clock");
	struct parse_events_error err;
	struct evsel *a, *b, *c, *d, *e;

	TEST_ASSERT_VAL("parse", evlist);
	TEST_ASSERT_EQUAL("entries", evlist->nr_entries, 3);
	TEST_ASSERT_EQUAL("groups", evlist->nr_groups, 1);
	a = nth(evlist, 0);
	b = nth(evlist, 1);
	c = nth(evlist, 2);
	TEST_ASSERT_VAL("leader", a->leader == a && b->leader == a && c->leader == c);
	TEST_ASSERT_EQUAL("nr_members", a->nr_members, 2);
	TEST_ASSERT_VAL("group mod on members", a->attr.exclude_kernel && b->attr.exclude_kernel &&
			!b->attr.exclude_user);
	TEST_ASSERT_VAL("not on others", !c->attr.exclude_kernel);
	/* perf keeps the member names without the group modifier */
	TEST_ASSERT_STREQ("name a", a->name, "cs");
	TEST_ASSERT_STREQ("name b", b->name, "faults");
	/* a second -e appends, with the indexes continuing */
	parse_events_error__init(&err);
	TEST_ASSERT_VAL("append", !parse_events(evlist, "{task-clock:k,minor-faults}:D", &err));
	TEST_ASSERT_EQUAL("entries", evlist->nr_entries, 5);
	TEST_ASSERT_EQUAL("groups", evlist->nr_groups, 2);
	d = nth(evlist, 3);
	e = nth(evlist, 4);
	TEST_ASSERT_VAL("leader 2", d->leader == d && e->leader == d && d->nr_members == 2);
	TEST_ASSERT_VAL("event mod + group mod", !d->attr.exclude_kernel && d->attr.exclude_user &&
			d->attr.pinned && e->attr.pinned);
	TEST_ASSERT_STREQ("name d", d->name, "task-clock:k");
	/* an error leaves the evlist unchanged */
	TEST_ASSERT_VAL("bad", parse_events(evlist, "cs,{faults,nope}", &err) == -EINVAL);
	TEST_ASSERT_EQUAL("unchanged", evlist->nr_entries, 5);
	TEST_ASSERT_EQUAL("idx", err.idx, 11);
	parse_events_error__exit(&err);
	evlist__delete(evlist);

	TEST_ASSERT_VAL("{cycles", !expect_error("{cycles", 0, "unbalanced braces"));
	TEST_ASSERT_VAL("cs,{cycles,faults", !expect_error("cs,{cycles,faults", 3, "unbalanced braces"));
	TEST_ASSERT_VAL("cycles}", !expect_error("cycles}", 6, "unbalanced braces"));
	TEST_ASSERT_VAL("{cs}}", !expect_error("{cs}}", 4, "unbalanced braces"));
	TEST_ASSERT_VAL("nested", !expect_error("{cs,{faults}}", 4, "nested"));
	TEST_ASSERT_VAL("group mod", !expect_error("{cs,faults}:q", 11, "unknown modifier 'q'"));
	TEST_ASSERT_VAL("{}", !expect_error("{}", 1, "parser error"));
	return TEST_OK;
}

static int test__lists(void)
{
	struct evlist *evlist = parse("cs,faults,cpu-clock:u");

	TEST_ASSERT_VAL("parse", evlist);
	TEST_ASSERT_EQUAL("entries", evlist->nr_entries, 3);
	TEST_ASSERT_STREQ("0", nth(evlist, 0)->name, "cs");
	TEST_ASSERT_STREQ("2", nth(evlist, 2)->name, "cpu-clock:u");
	TEST_ASSERT_EQUAL("no groups", evlist->nr_groups, 0);
	evlist__delete(evlist);
	TEST_ASSERT_VAL("trailing", !expect_error("cs,", 3, "parser error"));
	TEST_ASSERT_VAL("empty item", !expect_error("cs,,faults", 3, "parser error"));
	TEST_ASSERT_VAL("empty", !expect_error("", 0, "parser error"));
	TEST_ASSERT_VAL("cyclez", !expect_error("cyclez", 0, "unknown event 'cyclez'"));
	TEST_ASSERT_VAL("cs,cyclez", !expect_error("cs,cyclez:u", 3, "unknown event 'cyclez'"));
	return TEST_OK;
}

/* A fake sysfs PMU tree under a temp dir. */
static int write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static char fake_root[64];

static int make_fake_pmu(void)
{
	char d[256];

	strcpy(fake_root, "/tmp/prf-pmu-XXXXXX");
	if (!mkdtemp(fake_root))
		return -1;
	snprintf(d, sizeof(d), "%s/fake", fake_root);
	mkdir(d, 0755);
	if (write_file(d, "type", "42\n"))
		return -1;
	snprintf(d, sizeof(d), "%s/fake/format", fake_root);
	mkdir(d, 0755);
	write_file(d, "event", "config:0-7\n");
	write_file(d, "umask", "config:8-15\n");
	write_file(d, "edge", "config:18\n");
	write_file(d, "split", "config:24-27,36-39\n");
	write_file(d, "ldlat", "config1:0-15\n");
	write_file(d, "fe", "config2:0-63\n");
	snprintf(d, sizeof(d), "%s/fake/events", fake_root);
	mkdir(d, 0755);
	write_file(d, "cache-misses", "event=0x2e,umask=0x41\n");
	write_file(d, "cache-misses.scale", "1\n");
	write_file(d, "mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
	pmu__set_sysfs_root(fake_root);
	return 0;
}

static void remove_fake_pmu(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	if (system(cmd))
		pr_debug("cleanup failed\n");
	pmu__set_sysfs_root(NULL);
}

static int fake_pmu_checks(void)
{
	struct evlist *evlist;
	struct evsel *e;
	struct perf_pmu *pmu;

	pmu = pmu__load("fake", NULL);
	TEST_ASSERT_VAL("load", pmu && pmu->type == 42);
	TEST_ASSERT_VAL("alias", pmu__find_alias(pmu, "cache-misses"));
	TEST_ASSERT_VAL("scale file is no alias", !pmu__find_alias(pmu, "cache-misses.scale"));
	pmu__delete(pmu);

	if (check_one("fake/event=0x3c/", 42, 0x3c, "fake/event=0x3c/") ||
	    check_one("fake/event=0x3c,umask=0x2,edge/", 42, 0x3c | 0x200 | (1 << 18),
		      "fake/event=0x3c,umask=0x2,edge/") ||
	    check_one("fake/split=0xab/", 42, (0xbULL << 24) | (0xaULL << 36), "fake/split=0xab/") ||
	    check_one("fake/config=0x1234/", 42, 0x1234, "fake/config=0x1234/") ||
	    check_one("fake/cache-misses/", 42, 0x412e, "fake/cache-misses/") ||
	    check_one("fake/cache-misses/u", 42, 0x412e, "fake/cache-misses/u") ||
	    check_one("fake/event=1,name=foo/", 42, 1, "foo"))
		return TEST_FAIL;
	evlist = parse("fake/mem-loads,period=1000/k,fake/ldlat=7,config2=5,freq=99/");
	TEST_ASSERT_VAL("parse", evlist);
	e = nth(evlist, 0);
	TEST_ASSERT_EQUAL("alias config", e->attr.config, 0x1cd);
	TEST_ASSERT_EQUAL("alias config1", e->attr.config1, 3);
	TEST_ASSERT_EQUAL("period", e->attr.sample_period, 1000);
	TEST_ASSERT_VAL("mod k", e->attr.exclude_user && !e->attr.exclude_kernel);
	TEST_ASSERT_STREQ("pmu_name", e->pmu_name, "fake");
	e = nth(evlist, 1);
	TEST_ASSERT_EQUAL("config1", e->attr.config1, 7);
	TEST_ASSERT_EQUAL("config2", e->attr.config2, 5);
	TEST_ASSERT_VAL("freq", e->attr.freq && e->attr.sample_freq == 99);
	evlist__delete(evlist);
	/* bare alias name, found by scanning all PMUs */
	TEST_ASSERT_VAL("mem-loads", !check_one("mem-loads", 42, 0x1cd, "mem-loads"));

	TEST_ASSERT_VAL("unknown term", !expect_error("fake/foo=1/", 5, "unknown term 'foo' for pmu 'fake'"));
	TEST_ASSERT_VAL("unknown term 2", !expect_error("fake/event=1,bar/", 13, "unknown term 'bar'"));
	TEST_ASSERT_VAL("too big", !expect_error("fake/event=0x100/", 11, "value too big"));
	TEST_ASSERT_VAL("bad value", !expect_error("fake/event=zz/", 11, "invalid value 'zz'"));
	/* perf 6.1 reports a missing PMU at the string's start */
	TEST_ASSERT_VAL("no pmu", !expect_error("cs,nopmu/event=1/", 0, "Cannot find PMU `nopmu'"));
	TEST_ASSERT_VAL("no close", !expect_error("fake/event=1", 12, "missing closing '/'"));
	TEST_ASSERT_VAL("bad mod", !expect_error("fake/event=1/z", 13, "unknown modifier 'z'"));
	return TEST_OK;
}

/* checks() on the fake sysfs tree, removed after. */
static int with_fake_pmu(int (*checks)(void))
{
	int ret;

	if (make_fake_pmu())
		return test_skip("can't create a fake sysfs tree in /tmp");
	ret = checks();
	remove_fake_pmu();
	return ret;
}

static int test__pmu_terms(void)
{
	return with_fake_pmu(fake_pmu_checks);
}

/* Uncore instances: an alias, a PMU name that is none and a group make an
 * evsel per instance, with its type, cpumask, unit and scale. */
static int uncore_checks(void)
{
	struct evlist *evlist;
	struct evsel *e;
	char d[256];

	for (int i = 0; i < 2; i++) {
		snprintf(d, sizeof(d), "%s/uncore_box_%d", fake_root, i);
		mkdir(d, 0755);
		write_file(d, "type", i ? "51\n" : "50\n");
		write_file(d, "cpumask", "0\n");
		snprintf(d, sizeof(d), "%s/uncore_box_%d/format", fake_root, i);
		mkdir(d, 0755);
		write_file(d, "event", "config:0-7\n");
		snprintf(d, sizeof(d), "%s/uncore_box_%d/events", fake_root, i);
		mkdir(d, 0755);
		write_file(d, "reads", "event=0x4\n");
		write_file(d, "reads.scale", "0.5\n");
		write_file(d, "reads.unit", "MiB\n");
	}
	pmu__set_sysfs_root(fake_root);	/* rescan */
	evlist = parse("reads:u,box/event=2/,{reads,box/event=3/}");
	TEST_ASSERT_VAL("parse", evlist);
	TEST_ASSERT_EQUAL("evsels", evlist->nr_entries, 8);
	e = nth(evlist, 0);
	TEST_ASSERT_EQUAL("type 0", e->attr.type, 50);
	TEST_ASSERT_EQUAL("config", e->attr.config, 4);
	TEST_ASSERT_VAL("mod", e->attr.exclude_kernel);
	TEST_ASSERT_VAL("own cpus", e->own_cpus && perf_cpu_map__nr(e->own_cpus) == 1 &&
			perf_cpu_map__cpu(e->own_cpus, 0) == 0);
	TEST_ASSERT_STREQ("unit", e->unit, "MiB");
	TEST_ASSERT_VAL("scale", e->scale == 0.5 && e->uniquify && e->merge_group);
	TEST_ASSERT_EQUAL("type 1", nth(evlist, 1)->attr.type, 51);
	TEST_ASSERT_EQUAL("merged", nth(evlist, 1)->merge_group, e->merge_group);
	e = nth(evlist, 2);
	TEST_ASSERT_VAL("glob", e->attr.type == 50 && e->attr.config == 2 && !e->unit);
	TEST_ASSERT_STREQ("glob name", e->name, "box/event=2/");
	TEST_ASSERT_VAL("glob 2", nth(evlist, 3)->merge_group == e->merge_group &&
			e->merge_group != nth(evlist, 0)->merge_group);
	/* the group: one per PMU, in the group's order */
	TEST_ASSERT_VAL("group 0", nth(evlist, 4)->attr.type == 50 && nth(evlist, 5)->attr.type == 50 &&
			nth(evlist, 5)->leader == nth(evlist, 4) && nth(evlist, 5)->attr.config == 3);
	TEST_ASSERT_VAL("group 1", nth(evlist, 6)->attr.type == 51 && nth(evlist, 7)->leader == nth(evlist, 6));
	TEST_ASSERT_EQUAL("groups", evlist->nr_groups, 2);
	evlist__delete(evlist);

	TEST_ASSERT_VAL("unit", pmu__unit_match("uncore_imc", "uncore_imc_0") &&
			pmu__unit_match("uncore_cbox", "uncore_cbox12") &&
			pmu__unit_match("uncore_imc", "uncore_imc") &&
			!pmu__unit_match("uncore_imc", "uncore_imc_free_running_0") &&
			!pmu__unit_match("uncore_imc", "uncore_imcx") &&
			!pmu__unit_match("uncore_imc", "uncore_imc_") &&
			pmu__unit_match("hisi_sccl,ddrc", "hisi_sccl1_ddrc2") &&
			!pmu__unit_match("hisi_sccl,ddrc", "hisi_sccl1_hha2"));
	TEST_ASSERT_VAL("name", pmu__name_match("imc", "uncore_imc_1") &&
			pmu__name_match("uncore_imc", "uncore_imc_1") &&
			pmu__name_match("imc_1", "uncore_imc_1") &&
			!pmu__name_match("uncore", "uncore_imc_1") &&
			!pmu__name_match("im", "uncore_imc_1") && !pmu__name_match("", "uncore_imc_1"));
	return TEST_OK;
}

static int test__pmu_uncore(void)
{
	return with_fake_pmu(uncore_checks);
}

/* The PMUs this kernel really has. */
static int test__pmu_real(void)
{
	unsigned long long v;
	struct evlist *evlist;
	int type;

	if (filename__read_int("/sys/bus/event_source/devices/software/type", &type))
		return test_skip("no /sys/bus/event_source/devices/software");
	if (check_one("software/config=3/", (uint32_t)type, 3, "software/config=3/"))
		return TEST_FAIL;
	/* msr/tsc/ where the kernel has it (else the fake tree covers aliases) */
	(void)v;
	if (!filename__read_int("/sys/bus/event_source/devices/msr/type", &type) &&
	    !access("/sys/bus/event_source/devices/msr/events/tsc", R_OK)) {
		evlist = parse("msr/tsc/");
		TEST_ASSERT_VAL("msr/tsc/", evlist);
		TEST_ASSERT_EQUAL("type", evlist__first(evlist)->attr.type, type);
		TEST_ASSERT_STREQ("name", evlist__first(evlist)->name, "msr/tsc/");
		evlist__delete(evlist);
	}
	return TEST_OK;
}

static int count_dir_matches(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

static int test__tracepoints(void)
{
	const char *mnt = tracefs__mountpoint(NULL);
	char path[512];
	unsigned long long id;
	struct evlist *evlist;
	struct evsel *e;
	int n;

	if (!mnt)
		return test_skip("tracefs not available (%s)", tracefs__mount_hint());
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", mnt);
	if (filename__read_ull(path, &id))
		return test_skip("no sched:sched_switch tracepoint");
	evlist = parse("sched:sched_switch");
	TEST_ASSERT_VAL("parse", evlist);
	e = evlist__first(evlist);
	TEST_ASSERT_EQUAL("type", e->attr.type, PERF_TYPE_TRACEPOINT);
	TEST_ASSERT_EQUAL("id", e->attr.config, id);
	TEST_ASSERT_STREQ("name", e->name, "sched:sched_switch");
	TEST_ASSERT_STREQ("sys", e->tp_sys, "sched");
	TEST_ASSERT_STREQ("tp", e->tp_name, "sched_switch");
	TEST_ASSERT_VAL("raw sample", e->attr.sample_type & PERF_SAMPLE_RAW);
	TEST_ASSERT_EQUAL("period", e->attr.sample_period, 1);
	evlist__delete(evlist);

	/* modifiers apply, the name stays (as perf prints it) */
	evlist = parse("sched:sched_switch:u");
	TEST_ASSERT_VAL("parse :u", evlist);
	e = evlist__first(evlist);
	TEST_ASSERT_VAL(":u", e->attr.exclude_kernel && !e->attr.exclude_user);
	TEST_ASSERT_STREQ("name", e->name, "sched:sched_switch");
	evlist__delete(evlist);

	/* glob: one evsel per match, same count as the directory */
	snprintf(path, sizeof(path), "%s/events/sched", mnt);
	n = count_dir_matches(path, "sched_");
	evlist = parse("sched:sched_*");
	TEST_ASSERT_VAL("glob", evlist);
	TEST_ASSERT_EQUAL("glob count", evlist->nr_entries, n);
	evlist__for_each_entry(evlist, e)
		TEST_ASSERT_VAL("glob names", !strncmp(e->name, "sched:sched_", 12) && e->attr.config);
	evlist__delete(evlist);
	snprintf(path, sizeof(path), "%s/events/syscalls", mnt);
	n = count_dir_matches(path, "sys_enter_");
	if (n > 0) {
		evlist = parse("syscalls:sys_enter_*");
		TEST_ASSERT_VAL("syscalls glob", evlist);
		TEST_ASSERT_EQUAL("syscalls count", evlist->nr_entries, n);
		evlist__delete(evlist);
	}
	/* group of tracepoints */
	evlist = parse("{sched:sched_switch,sched:sched_wakeup}");
	TEST_ASSERT_VAL("group", evlist && evlist->nr_groups == 1 &&
			nth(evlist, 1)->leader == nth(evlist, 0));
	evlist__delete(evlist);

	TEST_ASSERT_VAL("nope", !expect_error("sched:nope", 0, "unknown tracepoint 'sched:nope'"));
	TEST_ASSERT_VAL("nosys", !expect_error("cs,nosys_xyz:foo", 3, "unknown tracepoint"));
	TEST_ASSERT_VAL("glob none", !expect_error("sched:zz_*", 0, "no match"));
	TEST_ASSERT_VAL("bad mod", !expect_error("sched:sched_switch:q", 18, "unknown modifier 'q'"));
	TEST_ASSERT_VAL("no name", !expect_error("sched:", 6, "missing tracepoint name"));
	return TEST_OK;
}

static int test__filter(void)
{
	struct evlist *evlist = evlist__new();
	struct option opt = { .value = evlist };
	struct evsel *e;
	int n = 0;

	if (!tracefs__mountpoint(NULL)) {
		evlist__delete(evlist);
		return test_skip("tracefs not available");
	}
	TEST_ASSERT_VAL("parse", !parse_events_option(&opt, "cs", 0));
	TEST_ASSERT_VAL("filter on cs fails", parse_filter_option(&opt, "prev_pid > 0", 0) == -1);
	TEST_ASSERT_VAL("parse tp", !parse_events_option(&opt, "sched:sched_switch,sched:sched_wakeup*", 0));
	TEST_ASSERT_VAL("filter", !parse_filter_option(&opt, "common_pid != 0", 0));
	TEST_ASSERT_VAL("filter 2", !parse_filter_option(&opt, "cpu == 1", 0));
	evlist__for_each_entry(evlist, e) {
		if (e->idx == 0) {
			TEST_ASSERT_VAL("cs has no filter", !e->filter);
			continue;
		}
		TEST_ASSERT_STREQ("filter", e->filter, "(common_pid != 0) && (cpu == 1)");
		n++;
	}
	TEST_ASSERT_VAL("filtered all of the last -e", n >= 2);
	TEST_ASSERT_VAL("bad -e", parse_events_option(&opt, "cyclez", 0) == -1);
	evlist__delete(evlist);
	return TEST_OK;
}

static int count_cb(const char *sys, const char *name, void *data)
{
	int *n = data;

	(*n)++;
	return strcmp(sys, "sched") ? -1 : 0;
}

static int test__tracefs(void)
{
	const char *mnt = tracefs__mountpoint(NULL);
	char path[512], sys[64], name[64];
	uint64_t id;
	int n = 0;

	if (!mnt)
		return test_skip("tracefs not available (%s)", tracefs__mount_hint());
	TEST_ASSERT_VAL("path", !tracefs__event_path("sched", "sched_switch", "format", path, sizeof(path)));
	TEST_ASSERT_VAL("format exists", !access(path, R_OK));
	TEST_ASSERT_VAL("id", !tracefs__event_id("sched", "sched_switch", &id) && id > 0);
	TEST_ASSERT_VAL("reverse", !tracefs__id_to_name(id, sys, sizeof(sys), name, sizeof(name)));
	TEST_ASSERT_STREQ("sys", sys, "sched");
	TEST_ASSERT_STREQ("name", name, "sched_switch");
	TEST_ASSERT_EQUAL("no such id", tracefs__id_to_name(~0ULL, sys, sizeof(sys), name, sizeof(name)),
			  -ENOENT);
	TEST_ASSERT_EQUAL("no such event", tracefs__event_id("sched", "nope", &id), -ENOENT);
	TEST_ASSERT_EQUAL("no escape", tracefs__event_id("..", "sched", &id), -ENOENT);
	TEST_ASSERT_EQUAL("exact", tracefs__for_each_event("sched", "sched_switch", count_cb, &n), 0);
	TEST_ASSERT_EQUAL("one match", n, 1);
	n = 0;
	TEST_ASSERT_EQUAL("cb stops", tracefs__for_each_event("s*", NULL, count_cb, &n) != 0, 1);
	return TEST_OK;
}

/* The printed error: event string, caret under idx, reason, hint line. */
static int test__error_print(void)
{
	struct parse_events_error err;
	struct evlist *evlist = evlist__new();
	char *buf = NULL, *l2, *l3;
	size_t size = 0;
	FILE *f;

	parse_events_error__init(&err);
	TEST_ASSERT_VAL("error", parse_events(evlist, "cs,cyclez", &err) == -EINVAL);
	f = open_memstream(&buf, &size);
	TEST_ASSERT_VAL("memstream", f);
	parse_events_error__print(&err, "cs,cyclez", f);
	fclose(f);
	l2 = strchr(buf, '\n') + 1;
	l3 = strchr(l2, '\n') + 1;
	TEST_ASSERT_VAL("line 1", !strncmp(buf, "event syntax error: 'cs,cyclez'\n", l2 - buf));
	/* the caret sits under 'c' of cyclez: prefix is 21 chars, idx 3 */
	TEST_ASSERT_VAL("caret", !strncmp(l2, "                        \\___ unknown event 'cyclez'\n", l3 - l2));
	TEST_ASSERT_VAL("run prf list", strstr(l3, "Run 'prf list' for a list of valid events\n"));
	free(buf);
	parse_events_error__exit(&err);

	/* long strings are shown as a window with the caret still under the token */
	{
		char longstr[400];
		const char *p;
		int col;

		strcpy(longstr, "cs");
		for (int i = 0; i < 40; i++)
			strcat(longstr, ",faults");
		strcat(longstr, ",cyclez");
		TEST_ASSERT_VAL("long", parse_events(evlist, longstr, &err) == -EINVAL);
		buf = NULL;
		f = open_memstream(&buf, &size);
		parse_events_error__print(&err, longstr, f);
		fclose(f);
		l2 = strchr(buf, '\n') + 1;
		p = strstr(buf, "cyclez");
		col = strstr(l2, "\\___") - l2;
		TEST_ASSERT_EQUAL("caret column", col, p - buf);
		free(buf);
		parse_events_error__exit(&err);
	}
	evlist__delete(evlist);
	return TEST_OK;
}

static int test__attr_names(void)
{
	static const struct { struct perf_event_attr attr; const char *name; } cases[] = {
		/* perf 6.1's rule: H/G are shown when exclude_guest differs from
		 * its default (set by u/k/h/p, clear otherwise) */
		{ { .type = PERF_TYPE_HARDWARE, .config = 0, .exclude_guest = 1 }, "cycles" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 0 }, "cycles:HG" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 4, .exclude_guest = 1 }, "branches" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 0, .exclude_kernel = 1, .exclude_hv = 1 }, "cycles:u" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 0, .exclude_kernel = 1, .exclude_hv = 1,
		    .exclude_guest = 1 }, "cycles:uH" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 0, .exclude_user = 1, .exclude_hv = 1 }, "cycles:k" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 0, .precise_ip = 2, .exclude_guest = 1 }, "cycles:ppH" },
		{ { .type = PERF_TYPE_HARDWARE, .config = 0, .exclude_host = 1 }, "cycles:G" },
		{ { .type = PERF_TYPE_SOFTWARE, .config = 0, .exclude_guest = 1 }, "cpu-clock" },
		{ { .type = PERF_TYPE_SOFTWARE, .config = 3, .exclude_kernel = 1, .exclude_hv = 1 },
		  "context-switches:u" },
		{ { .type = PERF_TYPE_SOFTWARE, .config = 9, .exclude_guest = 1 }, "dummy" },
		{ { .type = PERF_TYPE_HW_CACHE, .config = 0x10000, .exclude_guest = 1 }, "L1-dcache-load-misses" },
		{ { .type = PERF_TYPE_HW_CACHE, .config = 0x00002, .exclude_guest = 1 }, "LLC-loads" },
		{ { .type = PERF_TYPE_HW_CACHE, .config = 0x10105, .exclude_guest = 1 }, "invalid-cache" },
		{ { .type = PERF_TYPE_RAW, .config = 0x1a8, .exclude_guest = 1 }, "raw 0x1a8" },
		{ { .type = 99 }, "unknown attr type: 99" },
	};
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		perf_event_attr__snprintf_name(&cases[i].attr, buf, sizeof(buf));
		TEST_ASSERT_STREQ("attr name", buf, cases[i].name);
	}
	/* parse -> attr -> name gives back perf's canonical spelling */
	{
		struct evlist *evlist = parse("cpu-cycles:u,faults:k,l1d-load-miss,branch-misses:ppp");
		const char *want[] = { "cycles:uH", "page-faults:k", "L1-dcache-load-misses",
				       "branch-misses:pppH" };
		struct evsel *e;
		int i = 0;

		TEST_ASSERT_VAL("parse", evlist);
		evlist__for_each_entry(evlist, e) {
			perf_event_attr__snprintf_name(&e->attr, buf, sizeof(buf));
			TEST_ASSERT_STREQ("round trip", buf, want[i++]);
		}
		evlist__delete(evlist);
	}
	/* tracepoint ids resolve through tracefs */
	{
		unsigned long long id;
		char path[512];
		const char *mnt = tracefs__mountpoint(NULL);
		struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT };

		if (mnt) {
			snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", mnt);
			if (!filename__read_ull(path, &id)) {
				a.config = id;
				perf_event_attr__snprintf_name(&a, buf, sizeof(buf));
				TEST_ASSERT_STREQ("tp name", buf, "sched:sched_switch");
			}
		}
	}
	return TEST_OK;
}

static int test__breakpoints(void)
{
	static const struct { const char *s, *name; uint64_t addr, len; uint32_t type; } cases[] = {
		{ "mem:0x1000", "mem:0x1000", 0x1000, 4, HW_BREAKPOINT_R | HW_BREAKPOINT_W },
		{ "mem:0x1000:w", "mem:0x1000:w", 0x1000, 4, HW_BREAKPOINT_W },
		{ "mem:4096:r", "mem:4096:r", 0x1000, 4, HW_BREAKPOINT_R },
		{ "mem:0x1000/8:rw", "mem:0x1000", 0x1000, 8, HW_BREAKPOINT_R | HW_BREAKPOINT_W },
		{ "mem:0x1000:x", "mem:0x1000:x", 0x1000, sizeof(long), HW_BREAKPOINT_X },
		{ "mem:0x1000/2", "mem:0x1000", 0x1000, 2, HW_BREAKPOINT_R | HW_BREAKPOINT_W },
	};
	struct evlist *evlist;
	struct evsel *e;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		evlist = parse(cases[i].s);
		TEST_ASSERT_VAL(cases[i].s, evlist);
		e = evlist__first(evlist);
		TEST_ASSERT_EQUAL(cases[i].s, e->attr.type, PERF_TYPE_BREAKPOINT);
		TEST_ASSERT_EQUAL(cases[i].s, e->attr.bp_addr, cases[i].addr);
		TEST_ASSERT_EQUAL(cases[i].s, e->attr.bp_len, cases[i].len);
		TEST_ASSERT_EQUAL(cases[i].s, e->attr.bp_type, cases[i].type);
		TEST_ASSERT_STREQ(cases[i].s, e->name, cases[i].name);
		evlist__delete(evlist);
	}
	evlist = parse("mem:0x1000:x:u");
	TEST_ASSERT_VAL("mods", evlist);
	e = evlist__first(evlist);
	TEST_ASSERT_VAL("x:u", e->attr.bp_type == HW_BREAKPOINT_X && e->attr.exclude_kernel);
	TEST_ASSERT_STREQ("name", e->name, "mem:0x1000:x:u");
	evlist__delete(evlist);
	TEST_ASSERT_VAL("addr", !expect_error("mem:zz", 4, "invalid breakpoint address"));
	TEST_ASSERT_VAL("len", !expect_error("mem:0x10/0", 9, "invalid breakpoint length"));
	TEST_ASSERT_VAL("access", !expect_error("mem:0x10:rr", 9, "invalid breakpoint access"));
	return TEST_OK;
}

/* Malformed strings: always -EINVAL with a reason and an in-range idx. */
static int test__malformed(void)
{
	static const char *const bad[] = {
		",", "{", "}", "{,}", "/", "//", "a/", "cpu/", "msr/tsc", ":", "::", "a:b:c:d",
		"{cs}:", "cs:u:k", "r", "rz", "L1-", "-", "{cs,{", "cs}{", "software/config=/",
		"software/=1/", "software/,/", "software/config=1,,/", "cs:", "{cs}x", "{cs},",
		"cs,{}", "cs faults", "cs;faults", "sched:sched_switch:", "{cs:u,faults}:uu{",
		"software/config=0x10000000000000000/", "L1-dcache-load-misses-misses",
		"software/name=/", "{{cs}}", "cs/", "cpu-clock:ppppp", "mem:", "mem:0x10/",
		"mem:0x10:q", "mem:0x10/9", "mem:0x10:rwxr",
	};
	char *longstr = malloc(6001);

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct evlist *evlist = evlist__new();
		struct parse_events_error err;
		FILE *null = fopen("/dev/null", "w");
		int ret;

		parse_events_error__init(&err);
		ret = parse_events(evlist, bad[i], &err);
		if (ret != -EINVAL || !err.str || err.idx < 0 || err.idx > (int)strlen(bad[i]) ||
		    evlist->nr_entries) {
			pr_err("'%s': ret %d idx %d str %s\n", bad[i], ret, err.idx,
			       err.str ? err.str : "(null)");
			return TEST_FAIL;
		}
		parse_events_error__print(&err, bad[i], null);
		fclose(null);
		parse_events_error__exit(&err);
		evlist__delete(evlist);
	}
	TEST_ASSERT_VAL("alloc", longstr);
	memset(longstr, 'a', 6000);
	longstr[6000] = '\0';
	TEST_ASSERT_VAL("long name", !expect_error(longstr, 0, "too long"));
	for (int i = 0; i < 6000; i += 2)
		longstr[i] = ',';
	TEST_ASSERT_VAL("commas", !expect_error(longstr, 0, "parser error"));
	free(longstr);
	return TEST_OK;
}

/* Parsed attrs are accepted by the kernel: open, run, read real counts. */
static int test__open(void)
{
	const char *str = "{task-clock,faults}:u,cs,minor-faults:k";
	struct evlist *evlist = parse(str);
	struct evsel *e;
	int fds[8], n = 0, ok = 1;
	volatile char *mem;

	TEST_ASSERT_VAL("parse", evlist);
	evlist__for_each_entry(evlist, e) {
		struct perf_event_attr attr = e->attr;
		int group_fd = e->leader == e ? -1 : fds[e->leader->idx];

		attr.disabled = e->leader == e;
		fds[n] = syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, 0);
		if (fds[n] < 0) {
			int err = errno;

			evlist__delete(evlist);
			if (err == EACCES || err == EPERM)
				return test_skip("perf_event_open not permitted (%s)", strerror(err));
			pr_err("open %s: %s\n", e->name, strerror(err));
			return TEST_FAIL;
		}
		n++;
	}
	for (int i = 0; i < n; i++)
		ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	/* user-space page faults and user time */
	mem = malloc(64 << 20);
	for (size_t off = 0; mem && off < (64 << 20); off += 4096)
		mem[off] = 1;
	free((void *)mem);
	for (int i = 0; i < n; i++)
		ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
	evlist__for_each_entry(evlist, e) {
		uint64_t v = 0;

		if (read(fds[e->idx], &v, sizeof(v)) != sizeof(v))
			ok = 0;
		pr_debug("%s = %llu\n", e->name, (unsigned long long)v);
		/* task-clock ran, and touching 64 MiB faulted in user mode */
		if (e->idx == 0 && v == 0)
			ok = 0;
		if (e->idx == 1 && v < 1000)
			ok = 0;
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	evlist__delete(evlist);
	TEST_ASSERT_VAL("counts", ok);
	return TEST_OK;
}

DEFINE_SUITE(parse_events, "Parse event definitions",
	     TEST_CASE(symbolic, "hardware and software symbols and aliases"),
	     TEST_CASE(cache, "generic cache events"),
	     TEST_CASE(raw, "raw rNNNN events"),
	     TEST_CASE(modifiers, "event modifiers"),
	     TEST_CASE(groups, "groups and group modifiers"),
	     TEST_CASE(lists, "event lists and unknown events"),
	     TEST_CASE(pmu_terms, "PMU terms, formats and aliases (fake sysfs)"),
	     TEST_CASE(pmu_uncore, "uncore PMU instances: an evsel each (fake sysfs)"),
	     TEST_CASE(pmu_real, "PMUs of this kernel"),
	     TEST_CASE(tracepoints, "tracepoints and globs"),
	     TEST_CASE(tracefs, "tracefs lookups"),
	     TEST_CASE(filter, "--filter on tracepoints"),
	     TEST_CASE(error_print, "error message layout"),
	     TEST_CASE(attr_names, "names derived from an attr"),
	     TEST_CASE(breakpoints, "mem: hardware breakpoints"),
	     TEST_CASE(malformed, "malformed strings are rejected cleanly"),
	     TEST_CASE(open, "parsed events open and count (perf_event_open)"));
