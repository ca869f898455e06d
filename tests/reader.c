// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader buffers (util/format/reader.c, read-*.c): a small regular file is
 * read into memory, a big one (over 1 MiB) in 2 MB blocks (or mapped), and a real pipe is
 * read into chunks that start at 64 KiB and double up to 4 MiB. The same
 * pipe-format stream (header, ATTR record, N samples; layout per
 * tools/perf/Documentation/perf.data-file-format.txt, samples per
 * perf_event_open(2)) goes through each path and every sample must come
 * out once, in order, with its fields intact.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "../util/session/session.h"
#include "../util/kernel/evsel.h"
#include "../util/lib/tunables.h"
#include "../util/lib/util.h"

#define RD_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define RD_SAMPLE_SIZE (8 + 4 * 8)	/* header, ip, pid/tid, time, period */
#define RD_AUX_BYTES (9u << 20)

struct rd_buf {
	char *p;
	size_t len;
};

/* Bytes of sample i's PERF_SAMPLE_RAW data (rd_stream() with raw):
 * 4 mod 8 (the u32 size before it keeps records 8-byte sized), from 4
 * to 65484, the largest a record holds (header.size is 16 bits) */
static uint32_t rd_raw_size(unsigned int i)
{
	return i % 97 == 0 ? 65484 : 4 + 8 * ((i * 2654435761u) % 1500);
}

/*
 * Pipe-format perf.data with nr samples at times 1..nr (ip = 0x1000 +
 * time); with raw, each also has PERF_SAMPLE_RAW data of rd_raw_size(i)
 * bytes (byte j: i + j), a PERF_RECORD_FINISHED_ROUND follows every
 * 64th sample, and a PERF_RECORD_AUXTRACE with 9 MB of AUX data after it
 * the middle one.
 */
static int rd_stream(struct rd_buf *b, unsigned int nr, bool raw)
{
	struct perf_event_attr attr;
	struct perf_event_header h;
	uint64_t v, id = 7;
	size_t cap = 16 + sizeof(h) + sizeof(attr) + 8 + (size_t)nr * RD_SAMPLE_SIZE;
	char *p;

	for (unsigned int i = 1; raw && i <= nr; i++)
		cap += 4 + rd_raw_size(i) + (i % 64 ? 0 : 8);
	if (raw)
		cap += 48 + RD_AUX_BYTES;

	b->p = p = malloc(cap);
	if (!p)
		return -ENOMEM;
	v = PERF_MAGIC2;
	memcpy(p, &v, 8);
	v = 16;
	memcpy(p + 8, &v, 8);
	p += 16;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000;
	attr.sample_type = RD_SAMPLE_TYPE | (raw ? PERF_SAMPLE_RAW : 0);
	h.type = PERF_RECORD_HEADER_ATTR;
	h.misc = 0;
	h.size = (uint16_t)(sizeof(h) + sizeof(attr) + 8);
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), &attr, sizeof(attr));
	memcpy(p + sizeof(h) + sizeof(attr), &id, 8);
	p += h.size;
	for (unsigned int i = 1; i <= nr; i++) {
		uint32_t pt[2] = { 100 + i % 3, 100 + i % 3 };

		uint32_t rs = raw ? rd_raw_size(i) : 0;

		h.type = PERF_RECORD_SAMPLE;
		h.misc = PERF_RECORD_MISC_USER;
		h.size = (uint16_t)(RD_SAMPLE_SIZE + (raw ? 4 + rs : 0));
		memcpy(p, &h, 8);
		v = 0x1000 + i;
		memcpy(p + 8, &v, 8);
		memcpy(p + 16, pt, 8);
		v = i;
		memcpy(p + 24, &v, 8);
		v = 1000;
		memcpy(p + 32, &v, 8);
		p += RD_SAMPLE_SIZE;
		if (!raw)
			continue;
		memcpy(p, &rs, 4);
		for (uint32_t j = 0; j < rs; j++)
			p[4 + j] = (char)(i + j);
		p += 4 + rs;
		if (i == nr / 2) {
			/* AUX data the reader skips: 9 MB after the record */
			uint64_t aux[5] = { RD_AUX_BYTES, 0, 0, 0, 0 };

			h.type = PERF_RECORD_AUXTRACE;
			h.misc = 0;
			h.size = 48;
			memcpy(p, &h, 8);
			memcpy(p + 8, aux, sizeof(aux));
			memset(p + 48, 0xff, RD_AUX_BYTES);
			p += 48 + RD_AUX_BYTES;
		}
		if (i % 64 == 0) {
			h.type = PERF_RECORD_FINISHED_ROUND;
			h.misc = 0;
			h.size = 8;
			memcpy(p, &h, 8);
			p += 8;
		}
	}
	b->len = (size_t)(p - b->p);
	return 0;
}

struct rd_tool {
	struct perf_tool tool;
	uint64_t nr, next_time, bad;
};

static int rd_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
		     struct evsel *evsel, struct machine *machine)
{
	struct rd_tool *t = (struct rd_tool *)tool;

	if (s->time != t->next_time || s->ip != 0x1000 + s->time || s->period != 1000 ||
	    s->pid != 100 + s->time % 3)
		t->bad++;
	if (evsel->attr.sample_type & PERF_SAMPLE_RAW) {
		const unsigned char *d = s->raw_data;

		if (s->raw_size != rd_raw_size((unsigned int)s->time))
			t->bad++;
		for (uint32_t j = 0; d && j < s->raw_size; j++)
			if (d[j] != (unsigned char)(s->time + j)) {
				t->bad++;
				break;
			}
	}
	t->next_time = s->time + 1;
	t->nr++;
	return 0;
}

/* Read path through a session; the samples seen go to *t. */
static int rd_read(const char *path, bool ordered, struct rd_tool *t)
{
	struct perf_session *s;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->next_time = 1;
	perf_tool__init(&t->tool, ordered);
	t->tool.sample = rd_sample;
	s = perf_session__new(path, &t->tool, &err);
	if (!s)
		return err ? err : -EINVAL;
	err = perf_session__process_events(s);
	perf_session__delete(s);
	return err;
}

static int rd_file(unsigned int nr, bool raw, size_t *size)
{
	char tmpl[] = "/tmp/prf-reader-test-XXXXXX";
	struct rd_buf b;
	struct rd_tool t;
	int fd, err;

	TEST_ASSERT_EQUAL("build stream", rd_stream(&b, nr, raw), 0);
	*size = b.len;
	fd = mkstemp(tmpl);
	TEST_ASSERT_VAL("temp file", fd >= 0);
	err = write(fd, b.p, b.len) == (ssize_t)b.len ? 0 : -EIO;
	close(fd);
	free(b.p);
	if (!err)
		err = rd_read(tmpl, true, &t);
	unlink(tmpl);
	TEST_ASSERT_EQUAL("read the file", err, 0);
	TEST_ASSERT_EQUAL("every sample delivered", t.nr, nr);
	TEST_ASSERT_EQUAL("samples intact and in order", t.bad, 0);
	return TEST_OK;
}

static int test__small_file(void)
{
	size_t size;
	int r = rd_file(1000, false, &size);

	TEST_ASSERT_VAL("file is under 1 MiB (read path)", size < (1u << 20));
	return r;
}

static int test__big_file(void)
{
	size_t size;
	int r = rd_file(60000, false, &size);

	TEST_ASSERT_VAL("file is over 1 MiB (mmap path)", size > (1u << 20));
	return r;
}

/*
 * About 40 MB of records from 44 bytes to 64 KB, a round flush every 64
 * samples, 9 MB of AUX data to skip: read in 2 MB blocks (records on
 * the steps between blocks, blocks used again once delivered; over 16
 * MB a helper thread reads them ahead where there are two CPUs), and
 * through the mapping (PRF_READ_MAPPED=1): every sample and every byte
 * of its raw data.
 */
static int test__blocks(void)
{
	const char *mapped[] = { NULL, "1" };
	size_t size;

	for (unsigned int k = 0; k < ARRAY_SIZE(mapped); k++) {
		int r;

		tunable__set(TUNABLE_READ_MAPPED, mapped[k]);
		r = rd_file(6000, true, &size);
		tunable__set(TUNABLE_READ_MAPPED, NULL);
		if (r != TEST_OK)
			return r;
		TEST_ASSERT_VAL("file over 16 MB (read-ahead thread)", size > (16u << 20));
	}
	return TEST_OK;
}

struct rd_writer {
	int fd;
	struct rd_buf b;
};

static void *rd_write_pipe(void *arg)
{
	struct rd_writer *w = arg;
	size_t done = 0;

	while (done < w->b.len) {
		ssize_t n = write(w->fd, w->b.p + done, w->b.len - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(w->fd);
	return NULL;
}

/* A real pipe: 200000 samples (8 MB) cross every chunk size 64 KiB..4 MiB. */
static int test__pipe_chunks(void)
{
	struct rd_writer w;
	struct rd_tool t;
	pthread_t th;
	char path[64];
	int p[2], err;
	const unsigned int nr = 200000;

	TEST_ASSERT_EQUAL("build stream", rd_stream(&w.b, nr, false), 0);
	TEST_ASSERT_VAL("stream longer than 4 MiB", w.b.len > (4u << 20));
	TEST_ASSERT_EQUAL("pipe", pipe2(p, O_CLOEXEC), 0);
	w.fd = p[1];
	TEST_ASSERT_EQUAL("writer thread", pthread_create(&th, NULL, rd_write_pipe, &w), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	err = rd_read(path, true, &t);
	pthread_join(th, NULL);
	close(p[0]);
	free(w.b.p);
	TEST_ASSERT_EQUAL("read the pipe", err, 0);
	TEST_ASSERT_EQUAL("every sample delivered", t.nr, nr);
	TEST_ASSERT_EQUAL("samples intact and in order", t.bad, 0);
	return TEST_OK;
}

DEFINE_SUITE(reader, "perf.data reader buffers: read, mmap, pipe chunks",
	TEST_CASE(small_file, "small file (read into memory): every sample"),
	TEST_CASE(big_file, "file over 1 MiB (read in blocks): every sample"),
	TEST_CASE(blocks, "40 MB of records up to 64 KB, in blocks read ahead and mapped: every byte"),
	TEST_CASE(pipe_chunks, "real pipe, 8 MB of records: chunks grow, every sample"));
