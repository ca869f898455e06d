// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for util/kernel: cpu/thread maps, the corked workload and
 * evsel open/read with real perf_event_open(2) software counters on this
 * process (no PMU needed; skipped when perf_event_open is refused).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "../util/kernel/cpumap.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/thread_map.h"
#include "../util/kernel/workload.h"

static int test__cpumap_parse(void)
{
	struct perf_cpu_map *m = perf_cpu_map__new("0-3,5");
	char buf[64];

	TEST_ASSERT_VAL("parse 0-3,5", m);
	TEST_ASSERT_EQUAL("nr", perf_cpu_map__nr(m), 5);
	TEST_ASSERT_EQUAL("first", perf_cpu_map__cpu(m, 0), 0);
	TEST_ASSERT_EQUAL("last", perf_cpu_map__cpu(m, 4), 5);
	TEST_ASSERT_EQUAL("idx of 5", perf_cpu_map__idx(m, 5), 4);
	TEST_ASSERT_EQUAL("idx of 4", perf_cpu_map__idx(m, 4), -1);
	perf_cpu_map__snprintf(m, buf, sizeof(buf));
	TEST_ASSERT_STREQ("round trip", buf, "0-3,5");
	perf_cpu_map__put(m);

	m = perf_cpu_map__new("7,1,1,3");
	TEST_ASSERT_VAL("parse unsorted", m);
	TEST_ASSERT_EQUAL("dedup", perf_cpu_map__nr(m), 3);
	TEST_ASSERT_EQUAL("sorted", perf_cpu_map__cpu(m, 0), 1);
	perf_cpu_map__put(m);

	TEST_ASSERT_VAL("bad char", !perf_cpu_map__new("0-a"));
	TEST_ASSERT_VAL("reversed range", !perf_cpu_map__new("3-1"));
	TEST_ASSERT_VAL("trailing junk", !perf_cpu_map__new("1;2"));

	m = perf_cpu_map__new(NULL);
	TEST_ASSERT_VAL("online", m);
	TEST_ASSERT_EQUAL("online = sysconf", perf_cpu_map__nr(m), sysconf(_SC_NPROCESSORS_ONLN));
	TEST_ASSERT_VAL("not dummy", !perf_cpu_map__empty(m));
	perf_cpu_map__put(m);

	m = perf_cpu_map__dummy_new();
	TEST_ASSERT_VAL("dummy", m && perf_cpu_map__empty(m) && perf_cpu_map__cpu(m, 0) == -1);
	perf_cpu_map__put(m);
	return TEST_OK;
}

static volatile int thread_stop;

static void *idle_thread(void *arg __attribute__((unused)))
{
	while (!thread_stop)
		usleep(1000);
	return NULL;
}

static int test__thread_map(void)
{
	struct perf_thread_map *m;
	pthread_t th;
	char buf[32];
	int i, found = 0;

	if (pthread_create(&th, NULL, idle_thread, NULL))
		return test_skip("pthread_create failed");
	snprintf(buf, sizeof(buf), "%d", getpid());
	m = thread_map__new_by_pid_str(buf);
	thread_stop = 1;
	pthread_join(th, NULL);
	TEST_ASSERT_VAL("by pid", m);
	TEST_ASSERT_VAL("all tasks of the process", perf_thread_map__nr(m) >= 2);
	for (i = 0; i < perf_thread_map__nr(m); i++)
		found += perf_thread_map__pid(m, i) == getpid();
	TEST_ASSERT_EQUAL("main thread once", found, 1);
	TEST_ASSERT_VAL("comm", perf_thread_map__comm(m, 0)[0] != '\0');
	perf_thread_map__put(m);

	m = thread_map__new_by_tid_str(buf);
	TEST_ASSERT_VAL("by tid", m && perf_thread_map__nr(m) == 1 &&
			perf_thread_map__pid(m, 0) == getpid());
	perf_thread_map__put(m);

	errno = 0;
	TEST_ASSERT_VAL("missing pid", !thread_map__new_by_pid_str("2147483646"));
	TEST_ASSERT_EQUAL("ESRCH", errno, ESRCH);
	TEST_ASSERT_VAL("bad list", !thread_map__new_by_tid_str("12x"));
	TEST_ASSERT_EQUAL("EINVAL", errno, EINVAL);

	m = perf_thread_map__new_dummy();
	TEST_ASSERT_VAL("dummy", m && perf_thread_map__nr(m) == 1 && perf_thread_map__pid(m, 0) == -1);
	perf_thread_map__put(m);
	return TEST_OK;
}

static int test__workload(void)
{
	const char *ok[] = { "sh", "-c", "exit 3", NULL };
	const char *bad[] = { "/nonexistent/prf-test-binary", NULL };
	struct workload w;
	int status = 0;

	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, ok), 0);
	TEST_ASSERT_VAL("child pid", w.pid > 0);
	/* Corked: the child must still be waiting for us. */
	usleep(20000);
	TEST_ASSERT_EQUAL("corked child still alive", waitpid(w.pid, &status, WNOHANG), 0);
	TEST_ASSERT_EQUAL("start", workload__start(&w), 0);
	TEST_ASSERT_EQUAL("reap", waitpid(w.pid, &status, 0), w.pid);
	TEST_ASSERT_EQUAL("exit status", workload__exit_status(status), 3);

	TEST_ASSERT_EQUAL("prepare bad", workload__prepare(&w, bad), 0);
	TEST_ASSERT_EQUAL("exec error reported", workload__start(&w), -ENOENT);
	TEST_ASSERT_EQUAL("exec errno", w.exec_errno, ENOENT);

	TEST_ASSERT_EQUAL("prepare abort", workload__prepare(&w, ok), 0);
	workload__abort(&w);
	TEST_ASSERT_EQUAL("aborted", w.pid, -1);

	/* 128 + signal, as the shell reports it. */
	TEST_ASSERT_EQUAL("signal status", workload__exit_status(9), 137);
	return TEST_OK;
}

static struct evsel *sw_evsel(uint64_t config, uint64_t read_format)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.read_format = read_format;
	attr.disabled = 1;
	attr.exclude_guest = 1;		/* perf's default: no ":HG" in the name */
	return evsel__new(&attr);
}

/* Touch npages fresh anonymous pages: at least npages page faults. */
static void touch_pages(int npages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, npages * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char *q = p;
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < npages; i++)
		q[i * psz] = 1;
	munmap(p, npages * psz);
}

static int test__read(void)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perf_cpu_map *cpus = perf_cpu_map__dummy_new();
	struct perf_thread_map *threads = thread_map__new_by_tid(0);	/* 0 = this task */
	struct evsel *clk = sw_evsel(PERF_COUNT_SW_TASK_CLOCK, rf);
	struct evsel *pf = sw_evsel(PERF_COUNT_SW_PAGE_FAULTS, rf);
	struct perf_counts_values c1, c2;
	volatile unsigned long spin = 0;
	char msg[256];
	int err;

	TEST_ASSERT_VAL("alloc", cpus && threads && clk && pf);
	TEST_ASSERT_STREQ("name", evsel__name(clk), "task-clock");
	err = evsel__open(clk, cpus, threads);
	if (err == -EACCES || err == -EPERM)
		return test_skip("perf_event_open not permitted (perf_event_paranoid)");
	TEST_ASSERT_EQUAL("open task-clock", err, 0);
	TEST_ASSERT_EQUAL("open page-faults", evsel__open(pf, cpus, threads), 0);
	TEST_ASSERT_VAL("fd", clk->fds && clk->fds[0] >= 0 && clk->supported);
	TEST_ASSERT_EQUAL("enable", evsel__ioctl(clk, PERF_EVENT_IOC_ENABLE, 0), 0);
	TEST_ASSERT_EQUAL("enable", evsel__ioctl(pf, PERF_EVENT_IOC_ENABLE, 0), 0);
	while (spin < 20000000UL)
		spin++;
	touch_pages(256);
	TEST_ASSERT_EQUAL("disable", evsel__ioctl(clk, PERF_EVENT_IOC_DISABLE, 0), 0);
	TEST_ASSERT_EQUAL("disable", evsel__ioctl(pf, PERF_EVENT_IOC_DISABLE, 0), 0);
	TEST_ASSERT_EQUAL("read clock", evsel__read_counter(clk, 0, 0, &c1), 0);
	TEST_ASSERT_EQUAL("read faults", evsel__read_counter(pf, 0, 0, &c2), 0);
	pr_debug("task-clock %llu ns (ena %llu run %llu), page-faults %llu\n",
		 (unsigned long long)c1.val, (unsigned long long)c1.ena,
		 (unsigned long long)c1.run, (unsigned long long)c2.val);
	TEST_ASSERT_VAL("task-clock counted time", c1.val > 1000000);	/* > 1 ms of spinning */
	TEST_ASSERT_VAL("enabled", c1.ena > 0 && c1.run > 0 && c1.run <= c1.ena);
	TEST_ASSERT_VAL("page faults >= pages touched", c2.val >= 256);
	TEST_ASSERT_VAL("page faults sane", c2.val < 100000);
	TEST_ASSERT_VAL("bad index", evsel__read_counter(clk, 1, 0, &c1) == -EINVAL);

	evsel__open_strerror(clk, -EACCES, msg, sizeof(msg));
	TEST_ASSERT_VAL("paranoid hint", strstr(msg, "perf_event_paranoid"));
	evsel__open_strerror(clk, -EMFILE, msg, sizeof(msg));
	TEST_ASSERT_VAL("emfile", strstr(msg, "Too many open files"));

	evsel__delete(clk);
	evsel__delete(pf);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return TEST_OK;
}

static int test__group(void)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			    PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perf_cpu_map *cpus = perf_cpu_map__dummy_new();
	struct perf_thread_map *threads = thread_map__new_by_tid(0);
	struct evlist *evlist = evlist__new();
	struct evsel *leader = sw_evsel(PERF_COUNT_SW_TASK_CLOCK, rf);
	struct evsel *member = sw_evsel(PERF_COUNT_SW_PAGE_FAULTS, rf);
	struct perf_counts_values v[2];
	int err;

	TEST_ASSERT_VAL("alloc", cpus && threads && evlist && leader && member);
	member->attr.disabled = 0;
	member->leader = leader;
	evlist__add(evlist, leader);
	evlist__add(evlist, member);
	evlist__update_groups(evlist);
	TEST_ASSERT_EQUAL("members", leader->nr_members, 2);
	TEST_ASSERT_EQUAL("groups", evlist->nr_groups, 1);
	evlist__set_maps(evlist, cpus, threads);
	err = evlist__open(evlist, NULL);
	if (err == -EACCES || err == -EPERM)
		return test_skip("perf_event_open not permitted");
	TEST_ASSERT_EQUAL("open group", err, 0);
	evlist__enable(evlist);
	touch_pages(64);
	evlist__disable(evlist);
	TEST_ASSERT_EQUAL("group read", evsel__read_group(leader, 0, 0, v, 2), 2);
	TEST_ASSERT_VAL("leader value", v[0].val > 0);
	TEST_ASSERT_VAL("member value", v[1].val >= 64);
	TEST_ASSERT_VAL("ids", v[0].id == leader->ids[0] && v[1].id == member->ids[0]);
	TEST_ASSERT_VAL("id2evsel", evlist__id2evsel(evlist, member->ids[0]) == member);
	evlist__delete(evlist);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return TEST_OK;
}

DEFINE_SUITE(evsel, "evsel/evlist open and read, cpu/thread maps, workload",
	TEST_CASE(cpumap_parse, "cpu map parsing: 0-3,5, online, dummy"),
	TEST_CASE(thread_map, "thread map from -p (all tasks), -t, dummy"),
	TEST_CASE(workload, "corked workload: exit status, exec failure, abort"),
	TEST_CASE(read, "task-clock and page-faults on this process"),
	TEST_CASE(group, "group read with PERF_FORMAT_GROUP"));
