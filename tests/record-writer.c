// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the record path's lower layers: ring buffer reading with a
 * real software event, the perf.data writer's layout, feature payloads and
 * synthesized records. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tests.h"
#include "../util/kernel/mmap.h"
#include "../util/format/event.h"
#include "../util/format/header.h"
#include "../util/format/writer.h"
#include "../util/format/features-write.h"
#include "../util/format/synthesize.h"

/* Ring buffer: a task-clock event on ourselves with a tiny period and a
 * 1-page buffer wraps many times (40-byte samples straddle the end); every record read must be well formed
 * and samples must carry our pid. */
static int test__mmap_read(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(attr),
		.sample_period = 20000,	/* ns of task clock */
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct perf_mmap m;
	union perf_event *ev;
	unsigned long samples = 0, bad = 0, wrapped = 0;
	volatile unsigned long sink = 0;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return test_skip("perf_event_open(task-clock): %s", strerror(errno));
	TEST_ASSERT_EQUAL("non power of two pages", perf_mmap__mmap(&m, fd, -1, 3), -EINVAL);
	TEST_ASSERT_EQUAL("mmap 1 page", perf_mmap__mmap(&m, fd, -1, 1), 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int round = 0; round < 200; round++) {
		for (unsigned long i = 0; i < 200000; i++)
			sink += i;
		perf_mmap__read_init(&m);
		while ((ev = perf_mmap__read_event(&m)) != NULL) {
			if ((char *)ev == m.bounce)
				wrapped++;
			if (ev->header.type == PERF_RECORD_SAMPLE) {
				if (ev->header.size != 8 + 4 * 8 ||
				    (pid_t)(uint32_t)ev->sample.array[1] != getpid())
					bad++;
				samples++;
			} else if (ev->header.type != PERF_RECORD_LOST &&
				   ev->header.type != PERF_RECORD_THROTTLE &&
				   ev->header.type != PERF_RECORD_UNTHROTTLE) {
				bad++;
			}
		}
		perf_mmap__consume(&m, m.start);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_mmap__munmap(&m);
	close(fd);
	pr_debug("samples %lu wrapped %lu bad %lu\n", samples, wrapped, bad);
	TEST_ASSERT_VAL("got samples", samples > 100);
	TEST_ASSERT_EQUAL("malformed records", bad, 0);
	/* 40-byte records in a 4096-byte ring: some must straddle the end */
	TEST_ASSERT_VAL("wrapped records went through the bounce buffer", wrapped > 0);
	return TEST_OK;
}

/* Writer: header layout, data size kept current, features after the data. */
static int test__layout(void)
{
	char path[] = "/tmp/prf-writer-XXXXXX";
	struct perf_data_writer w;
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.sample_type = PERF_SAMPLE_IP };
	uint64_t ids[2] = { 11, 12 };
	struct writer_attr wa = { &attr, ids, 2 };
	struct perf_event_header rec = { .type = PERF_RECORD_FINISHED_ROUND, .size = 8 };
	const char *names[] = { "cpu-clock" };
	struct features_ctx ctx = { .attrs = &wa, .names = names, .nr_attrs = 1, .version = "t" };
	struct writer_feat *feats;
	struct perf_file_header h;
	struct stat st;
	int nr, fd = mkstemp(path);

	TEST_ASSERT_VAL("mkstemp", fd >= 0);
	close(fd);
	unlink(path);
	TEST_ASSERT_EQUAL("open", writer__open(&w, path, 0), 0);
	TEST_ASSERT_EQUAL("header", writer__write_header(&w, &wa, 1), 0);
	fd = open(path, O_RDONLY);
	TEST_ASSERT_VAL("reopen", fd >= 0);
	TEST_ASSERT_EQUAL("read header", pread(fd, &h, sizeof(h), 0), sizeof(h));
	TEST_ASSERT_VAL("magic", h.magic == PERF_MAGIC2);
	TEST_ASSERT_EQUAL("header size", h.size, 104);
	TEST_ASSERT_EQUAL("attr_size", h.attr_size, 128 + 16);
	TEST_ASSERT_EQUAL("data size starts at 0", h.data.size, 0);
	TEST_ASSERT_EQUAL("data after the attrs", h.data.offset, h.attrs.offset + h.attrs.size);
	for (int i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL("write", writer__write_records(&w, &rec, sizeof(rec)), 0);
	TEST_ASSERT_EQUAL("sync", writer__sync_data_size(&w), 0);
	TEST_ASSERT_EQUAL("read header", pread(fd, &h, sizeof(h), 0), sizeof(h));
	TEST_ASSERT_EQUAL("synced data size", h.data.size, 24);
	TEST_ASSERT_EQUAL("features", features__build(&ctx, &feats, &nr), 0);
	TEST_ASSERT_VAL("some features", nr >= 10);
	TEST_ASSERT_EQUAL("finish", writer__finish(&w, &wa, 1, feats, nr), 0);
	writer__close(&w);
	TEST_ASSERT_EQUAL("read header", pread(fd, &h, sizeof(h), 0), sizeof(h));
	TEST_ASSERT_EQUAL("final data size", h.data.size, 24);
	TEST_ASSERT_VAL("HOSTNAME bit", h.adds_features[0] & (1ULL << HEADER_HOSTNAME));
	TEST_ASSERT_VAL("no BUILD_ID bit without DSOs", !(h.adds_features[0] & (1ULL << HEADER_BUILD_ID)));
	{
		struct perf_file_section sec;
		char len_and_name[4 + 64];

		/* first section is HOSTNAME's (lowest set bit): a perf_header_string */
		TEST_ASSERT_EQUAL("section", pread(fd, &sec, sizeof(sec),
			(off_t)(h.data.offset + h.data.size)), sizeof(sec));
		TEST_ASSERT_EQUAL("string", pread(fd, len_and_name, sizeof(len_and_name), (off_t)sec.offset),
				  sizeof(len_and_name));
		TEST_ASSERT_EQUAL("string padded to 64", *(uint32_t *)len_and_name % 64, 0);
		TEST_ASSERT_EQUAL("section size", sec.size, 4 + *(uint32_t *)len_and_name);
	}
	fstat(fd, &st);
	close(fd);
	features__free(feats, nr);
	unlink(path);
	TEST_ASSERT_VAL("file holds the features", (uint64_t)st.st_size > h.data.offset + h.data.size);
	return TEST_OK;
}

struct synth_count { int comm, fork, mmap2, mmap; size_t bad_size; };

static int count_cb(void *arg, const union perf_event *ev)
{
	struct synth_count *c = arg;

	if (ev->header.size % 8)
		c->bad_size++;
	switch (ev->header.type) {
	case PERF_RECORD_COMM: c->comm++; break;
	case PERF_RECORD_FORK: c->fork++; break;
	case PERF_RECORD_MMAP2: c->mmap2++; break;
	case PERF_RECORD_MMAP: c->mmap++; break;
	}
	return 0;
}

/* Synthesis of ourselves: a COMM and executable maps, sizes 8-aligned,
 * the sample_id trailer accounted for. */
static int test__synthesize_self(void)
{
	struct synth_count c = { 0 };

	TEST_ASSERT_EQUAL("id hdr size", synthesize__id_hdr_size(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD), 24);
	TEST_ASSERT_EQUAL("process", synthesize__process(count_cb, &c, 24, getpid()), 0);
	TEST_ASSERT_VAL("comm", c.comm >= 1);
	TEST_ASSERT_VAL("exec maps", c.mmap2 >= 2);
	TEST_ASSERT_EQUAL("8-byte sizes", c.bad_size, 0);
	return TEST_OK;
}

DEFINE_SUITE(record_writer, "record: ring buffer, perf.data writer, synthesis",
	TEST_CASE(mmap_read, "ring buffer read with wrap-around on a real event"),
	TEST_CASE(layout, "perf.data header, data size sync, feature sections"),
	TEST_CASE(synthesize_self, "COMM and MMAP2 of the own process"));
