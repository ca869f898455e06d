// SPDX-License-Identifier: GPL-2.0
/* Unit tests of record's hit tracker (util/model/record-hits.h): records
 * as a recording's ring buffers give them, out of time order across
 * buffers, and the build-ids of the DSOs their samples hit. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "../util/format/event.h"
#include "../util/format/features-write.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/lib/util.h"
#include "../util/model/record-hits.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static struct evlist *hits_evlist(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
		.task = 1,
	};
	struct evlist *evlist = evlist__new();
	struct evsel *evsel = evsel__new(&attr);

	if (!evlist || !evsel) {
		evlist__delete(evlist);
		return NULL;
	}
	evlist__add(evlist, evsel);
	return evlist;
}

/* The sample_id trailer of SAMPLE_TYPE (pid/tid, time) after body bytes of
 * rec; returns the record's size. */
static uint16_t put_id(void *rec, size_t body, uint32_t pid, uint32_t tid, uint64_t time)
{
	uint64_t *id = (uint64_t *)((char *)rec + body);

	id[0] = (uint64_t)tid << 32 | pid;
	id[1] = time;
	return (uint16_t)(body + 16);
}

static int feed_mmap2(struct record_hits *rh, uint32_t pid, uint64_t start, uint64_t len,
		      const char *file, uint16_t misc, uint64_t time)
{
	union { struct perf_record_mmap2 m; char buf[sizeof(struct perf_record_mmap2) + 16]; } u;
	size_t body = offsetof(struct perf_record_mmap2, filename) + PERF_ALIGN(strlen(file) + 1, 8);

	memset(&u, 0, sizeof(u));
	u.m.header.type = PERF_RECORD_MMAP2;
	u.m.header.misc = misc;
	u.m.pid = u.m.tid = pid;
	u.m.start = start;
	u.m.len = len;
	u.m.prot = 5;	/* PROT_READ | PROT_EXEC */
	strcpy(u.m.filename, file);
	u.m.header.size = put_id(&u, body, pid, pid, time);
	return record_hits__event(rh, (union perf_event *)&u);
}

static int feed_fork(struct record_hits *rh, uint32_t pid, uint32_t ppid, uint64_t time)
{
	union { struct perf_record_fork f; char buf[sizeof(struct perf_record_fork) + 16]; } u;

	memset(&u, 0, sizeof(u));
	u.f.header.type = PERF_RECORD_FORK;
	u.f.pid = u.f.tid = pid;
	u.f.ppid = u.f.ptid = ppid;
	u.f.time = time;
	u.f.header.size = put_id(&u, sizeof(u.f), pid, pid, time);
	return record_hits__event(rh, (union perf_event *)&u);
}

static int feed_sample(struct record_hits *rh, uint32_t pid, uint64_t ip, uint16_t cpumode,
		       uint64_t time)
{
	struct { struct perf_event_header header; uint64_t a[4]; } s = {
		.header = { .type = PERF_RECORD_SAMPLE, .misc = cpumode, .size = sizeof(s) },
		.a = { ip, (uint64_t)pid << 32 | pid, time, 1 },
	};

	return record_hits__event(rh, (union perf_event *)&s);
}

/*
 * A child's FORK drained after its MMAP2 (another cpu's buffer read later
 * in the round) still comes first in time: the child's own map is kept
 * and its later sample hits that file. The parent's library is not hit:
 * no sample of a process mapping it there. A data map (MMAP_DATA) does not
 * replace the code map under it. Sample times span the samples.
 */
static int test__fork_order(void)
{
	char exe[PATH_MAX];
	uint8_t want[20];
	struct evlist *evlist = hits_evlist();
	struct record_hits *rh;
	struct feat_build_id *bids = NULL;
	uint64_t first, last;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int nr, want_size;

	TEST_ASSERT_VAL("evlist", evlist);
	if (n <= 0) {
		evlist__delete(evlist);
		return test_skip("readlink /proc/self/exe: %s", strerror(errno));
	}
	exe[n] = '\0';
	want_size = features__read_build_id(exe, false, want);
	if (want_size <= 0) {
		evlist__delete(evlist);
		return test_skip("%s has no build-id note", exe);
	}
	rh = record_hits__new(evlist);
	TEST_ASSERT_VAL("new", rh);
	/* synthesized: the parent's library (time 0) */
	TEST_ASSERT_EQUAL("parent map", feed_mmap2(rh, 100, 0x10000, 0x10000, "/no/libparent.so",
						   0, 0), 0);
	/* round 1, cpu 1's buffer: the child execs ... */
	TEST_ASSERT_EQUAL("child map", feed_mmap2(rh, 200, 0x400000, 0x10000, exe, 0, 20), 0);
	TEST_ASSERT_EQUAL("data map", feed_mmap2(rh, 200, 0x400000, 0x1000, "/no/data",
						 PERF_RECORD_MISC_MMAP_DATA, 25), 0);
	/* ... cpu 0's buffer: the parent forked it earlier */
	TEST_ASSERT_EQUAL("fork", feed_fork(rh, 200, 100, 10), 0);
	TEST_ASSERT_EQUAL("round", record_hits__round(rh), 0);
	/* round 2: the child is sampled in its file; a process no map is
	 * known of samples an address of the parent's library: nothing is
	 * guessed */
	TEST_ASSERT_EQUAL("child sample", feed_sample(rh, 200, 0x400100, PERF_RECORD_MISC_USER,
						      30), 0);
	TEST_ASSERT_EQUAL("stray sample", feed_sample(rh, 300, 0x10100, PERF_RECORD_MISC_USER, 40),
			  0);
	TEST_ASSERT_EQUAL("round", record_hits__round(rh), 0);

	nr = record_hits__build_ids(rh, false, &bids);
	TEST_ASSERT_EQUAL("one DSO hit", nr, 1);
	TEST_ASSERT_VAL("it is the child's file", !strcmp(bids[0].filename, exe));
	TEST_ASSERT_VAL("user", !bids[0].kernel);
	TEST_ASSERT_VAL("its build-id",
			bids[0].size == want_size && !memcmp(bids[0].bid, want, (size_t)want_size));
	TEST_ASSERT_VAL("sample times", record_hits__sample_time(rh, &first, &last));
	TEST_ASSERT_EQUAL("first", first, 30);
	TEST_ASSERT_EQUAL("last", last, 40);
	free(bids);
	record_hits__delete(rh);
	evlist__delete(evlist);
	return TEST_OK;
}

/* A kernel sample hits [kernel.kallsyms] once the kernel map was recorded,
 * also past the map's recorded length; before, nothing. */
static int test__kernel(void)
{
	uint8_t bid[20];
	struct evlist *evlist = hits_evlist();
	struct record_hits *rh;
	struct feat_build_id *bids = NULL;
	int nr;

	TEST_ASSERT_VAL("evlist", evlist);
	if (features__read_build_id("/sys/kernel/notes", true, bid) <= 0) {
		evlist__delete(evlist);
		return test_skip("no kernel build-id in /sys/kernel/notes");
	}
	rh = record_hits__new(evlist);
	TEST_ASSERT_VAL("new", rh);
	TEST_ASSERT_EQUAL("sample", feed_sample(rh, 0, 0xffffffff81001000ULL,
						PERF_RECORD_MISC_KERNEL, 5), 0);
	nr = record_hits__build_ids(rh, false, &bids);
	TEST_ASSERT_EQUAL("no kernel map: no kernel hit", nr, 0);
	free(bids);
	record_hits__delete(rh);

	rh = record_hits__new(evlist);
	TEST_ASSERT_VAL("new", rh);
	TEST_ASSERT_EQUAL("kernel map", feed_mmap2(rh, (uint32_t)-1, 0xffffffff81000000ULL,
						   0x1000000, "[kernel.kallsyms]_text",
						   PERF_RECORD_MISC_KERNEL, 0), 0);
	TEST_ASSERT_EQUAL("sample", feed_sample(rh, 0, 0xffffffff90000000ULL,
						PERF_RECORD_MISC_KERNEL, 5), 0);
	nr = record_hits__build_ids(rh, false, &bids);
	TEST_ASSERT_EQUAL("kernel hit", nr, 1);
	TEST_ASSERT_VAL("named", !strcmp(bids[0].filename, "[kernel.kallsyms]"));
	TEST_ASSERT_VAL("kernel", bids[0].kernel);
	TEST_ASSERT_VAL("its build-id", !memcmp(bids[0].bid, bid, bids[0].size));
	free(bids);
	record_hits__delete(rh);
	evlist__delete(evlist);
	return TEST_OK;
}

DEFINE_SUITE(record_hits, "record: DSOs hit by samples, for the build-id feature",
	TEST_CASE(fork_order, "a FORK drained after the child's MMAP2 still comes first; no guessed hits; sample times"),
	TEST_CASE(kernel, "kernel samples hit [kernel.kallsyms] once its map was recorded, past its length too"));
