// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader unit tests: small files written by hand in both byte
 * orders (layout per tools/perf/Documentation/perf.data-file-format.txt,
 * records per perf_event_open(2)), read back through perf_session.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "../util/session/session.h"
#include "../util/format/ordered-events.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/evlist.h"

/* ---- a tiny perf.data writer, either byte order ---- */

struct wbuf {
	unsigned char *p;
	size_t len, cap;
	bool be;
};

static void wb_bytes(struct wbuf *w, const void *d, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2 + 256;
		w->p = realloc(w->p, w->cap);
	}
	memcpy(w->p + w->len, d, n);
	w->len += n;
}

static void wb_int(struct wbuf *w, uint64_t v, int n)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < n; i++)
		b[w->be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	wb_bytes(w, b, n);
}

#define W64(w, v) wb_int(w, (uint64_t)(v), 8)
#define W32(w, v) wb_int(w, (uint64_t)(v), 4)
#define W16(w, v) wb_int(w, (uint64_t)(v), 2)

static void wb_put_at(struct wbuf *w, size_t at, uint64_t v, int n)
{
	size_t save = w->len;

	w->len = at;
	wb_int(w, v, n);
	w->len = save;
}

static void rec_header(struct wbuf *w, uint32_t type, uint16_t misc, uint16_t size)
{
	W32(w, type);
	W16(w, misc);
	W16(w, size);
}

#define ATTR_SZ 120	/* PERF_ATTR_SIZE_VER5: an older writer */
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static void sample(struct wbuf *w, uint64_t time, uint32_t pid, uint64_t id)
{
	/* ip, pid/tid, time, id, cpu/res, period, callchain nr + 3 ips */
	rec_header(w, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 8 * 7 + 8 * 3);
	W64(w, 0x401000 + time);
	W32(w, pid);
	W32(w, pid + 1);
	W64(w, time);
	W64(w, id);
	W32(w, 1);
	W32(w, 0);
	W64(w, 1000);
	W64(w, 3);
	W64(w, 0x401000 + time);
	W64(w, 0x402000);
	W64(w, 0x403000);
}

static void finished_round(struct wbuf *w)
{
	rec_header(w, PERF_RECORD_FINISHED_ROUND, 0, 8);
}

/*
 * File: one attr (cpu-clock, 2 ids), COMM, samples at 300,100 | round |
 * 200,150 | round | 120 (late), 400, an unknown record type, then a
 * HOSTNAME feature. corrupt: 1 = a record of size 4 before the last sample.
 */
static char *write_file(bool be, int corrupt)
{
	struct wbuf w = { .be = be };
	size_t attrs_at, ids_at, data_at, data_end, feat_at, ids_sec;
	uint64_t flags;
	char tmpl[] = "/tmp/prf-session-test-XXXXXX";
	int fd, i;

	/* header */
	W64(&w, PERF_MAGIC2);		/* "PERFILE2" on a little-endian writer */
	W64(&w, 104);
	W64(&w, ATTR_SZ + 16);
	attrs_at = w.len;
	W64(&w, 0); W64(&w, 0);		/* attrs */
	W64(&w, 0); W64(&w, 0);		/* data */
	W64(&w, 0); W64(&w, 0);		/* event_types */
	W64(&w, 1ULL << HEADER_HOSTNAME); W64(&w, 0); W64(&w, 0); W64(&w, 0);
	/* attr */
	data_at = w.len;
	W32(&w, PERF_TYPE_SOFTWARE);
	W32(&w, ATTR_SZ);
	W64(&w, PERF_COUNT_SW_CPU_CLOCK);
	W64(&w, 4000);			/* sample_period */
	W64(&w, SAMPLE_TYPE);
	W64(&w, PERF_FORMAT_ID);
	/* bit-fields: comm (bit 9), freq (10), sample_id_all (18); on a
	 * big-endian writer the first bit-field is the most significant bit */
	flags = (1ULL << 9) | (1ULL << 10) | (1ULL << 18);
	if (be) {
		uint64_t r = 0;

		for (i = 0; i < 64; i++)
			if (flags >> i & 1)
				r |= 1ULL << (63 - i);
		flags = r;
	}
	W64(&w, flags);
	while (w.len < data_at + ATTR_SZ)
		W32(&w, 0);
	ids_sec = w.len;
	W64(&w, 0); W64(&w, 16);	/* ids section */
	ids_at = w.len;
	W64(&w, 77);
	W64(&w, 78);
	wb_put_at(&w, ids_sec, ids_at, 8);
	wb_put_at(&w, attrs_at, data_at, 8);
	wb_put_at(&w, attrs_at + 8, ATTR_SZ + 16, 8);

	/* data */
	data_at = w.len;
	rec_header(&w, PERF_RECORD_COMM, 0, 8 + 8 + 8 + 32);
	W32(&w, 42); W32(&w, 43);
	wb_bytes(&w, "prog\0\0\0\0", 8);
	W32(&w, 42); W32(&w, 43);	/* trailer: tid */
	W64(&w, 50);			/* time */
	W64(&w, 77);			/* id */
	W32(&w, 1); W32(&w, 0);		/* cpu */
	sample(&w, 300, 42, 77);
	sample(&w, 100, 42, 78);
	finished_round(&w);
	sample(&w, 200, 42, 77);
	sample(&w, 150, 42, 78);
	finished_round(&w);
	sample(&w, 120, 42, 77);
	rec_header(&w, 200, 0, 16);	/* unknown type: skipped */
	W64(&w, 0);
	if (corrupt == 1)
		rec_header(&w, PERF_RECORD_SAMPLE, 0, 4);
	sample(&w, 400, 42, 999);	/* id not in the attrs */
	sample(&w, 500, 42, 78);
	data_end = w.len;
	wb_put_at(&w, attrs_at + 16, data_at, 8);
	wb_put_at(&w, attrs_at + 24, data_end - data_at, 8);
	/* features: HOSTNAME */
	feat_at = w.len;
	W64(&w, feat_at + 16);
	W64(&w, 4 + 8);
	W32(&w, 8);
	wb_bytes(&w, "testhost", 8);

	fd = mkstemp(tmpl);
	if (fd < 0)
		return NULL;
	if (write(fd, w.p, w.len) != (ssize_t)w.len) {
		close(fd);
		return NULL;
	}
	close(fd);
	free(w.p);
	return strdup(tmpl);
}

/* ---- a tool that records what it gets ---- */

struct rec_tool {
	struct perf_tool tool;
	uint64_t times[16];
	int nr;
	uint32_t pid, tid, cpu;
	uint64_t cc[3];
	int nr_comm;
	char comm[16];
	uint32_t comm_pid;
	uint64_t comm_time;
	const char *evname;
	int nr_barrier;
	int barrier_at;		/* COMMs delivered at the first barrier */
};

static int rec_barrier(struct perf_tool *tool)
{
	struct rec_tool *t = (struct rec_tool *)tool;

	if (!t->nr_barrier++)
		t->barrier_at = t->nr_comm;
	return 0;
}

static int rec_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
		      struct evsel *evsel, struct machine *machine)
{
	struct rec_tool *t = (struct rec_tool *)tool;

	if (t->nr < 16)
		t->times[t->nr++] = s->time;
	t->pid = s->pid;
	t->tid = s->tid;
	t->cpu = s->cpu;
	if (s->callchain && s->callchain->nr == 3)
		memcpy(t->cc, s->callchain->ips, sizeof(t->cc));
	t->evname = evsel__name(evsel);
	return 0;
}

static int rec_comm(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
		    struct machine *machine)
{
	struct rec_tool *t = (struct rec_tool *)tool;

	t->nr_comm++;
	memcpy(t->comm, event->comm.comm, 8);
	t->comm_pid = event->comm.pid;
	t->comm_time = s->time;
	return 0;
}

static int check_file(bool be)
{
	struct rec_tool t;
	struct perf_session *s;
	char *path = write_file(be, 0);
	static const uint64_t want[] = { 100, 150, 200, 300, 120, 400, 500 };
	int err = 0, i;

	TEST_ASSERT_VAL("write test file", path);
	memset(&t, 0, sizeof(t));
	perf_tool__init(&t.tool, true);
	t.tool.sample = rec_sample;
	t.tool.comm = rec_comm;
	t.tool.model_barrier = rec_barrier;
	s = perf_session__new(path, &t.tool, &err);
	unlink(path);
	free(path);
	TEST_ASSERT_VAL("open session", s);
	TEST_ASSERT_EQUAL("byte order detected", s->data.needs_swap, be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__));
	TEST_ASSERT_EQUAL("one evsel", s->data.evlist->nr_entries, 1);
	TEST_ASSERT_EQUAL("sample_type", evlist__first(s->data.evlist)->attr.sample_type, SAMPLE_TYPE);
	TEST_ASSERT_EQUAL("sample_id_all bit", evlist__first(s->data.evlist)->attr.sample_id_all, 1);
	TEST_ASSERT_EQUAL("freq bit", evlist__first(s->data.evlist)->attr.freq, 1);
	TEST_ASSERT_EQUAL("exclude_kernel bit clear", evlist__first(s->data.evlist)->attr.exclude_kernel, 0);
	TEST_ASSERT_STREQ("hostname feature", s->data.env.hostname, "testhost");
	err = perf_session__process_events(s);
	TEST_ASSERT_EQUAL("process", err, 0);
	/* with a single evsel perf (and prf) take every sample as its own,
	 * whatever the id */
	TEST_ASSERT_EQUAL("samples delivered", t.nr, 7);
	for (i = 0; i < 7; i++)
		TEST_ASSERT_EQUAL("time order (perf round rule)", t.times[i], want[i]);
	TEST_ASSERT_EQUAL("pid", t.pid, 42);
	TEST_ASSERT_EQUAL("tid", t.tid, 43);
	TEST_ASSERT_EQUAL("cpu", t.cpu, 1);
	TEST_ASSERT_EQUAL("callchain[1]", t.cc[1], 0x402000);
	TEST_ASSERT_EQUAL("callchain[2]", t.cc[2], 0x403000);
	/* derived by perf_event_attr__snprintf_name(): "cpu-clock" plus the
	 * modifiers perf derives (":HG" here, as perf prints "dummy:HG") */
	TEST_ASSERT_VAL("evsel name derived from attr", t.evname && !strncmp(t.evname, "cpu-clock", 9));
	TEST_ASSERT_EQUAL("comm delivered", t.nr_comm, 1);
	TEST_ASSERT_STREQ("comm", t.comm, "prog");
	TEST_ASSERT_EQUAL("comm pid", t.comm_pid, 42);
	TEST_ASSERT_EQUAL("comm sample_id time", t.comm_time, 50);
	/* the COMM is the one record that changes the model: one barrier,
	 * before it; none for samples, rounds, unknown types */
	TEST_ASSERT_EQUAL("model barriers", t.nr_barrier, 1);
	TEST_ASSERT_EQUAL("barrier before the COMM", t.barrier_at, 0);
	TEST_ASSERT_EQUAL("SAMPLE count", s->data.stats.nr_events[PERF_RECORD_SAMPLE], 7);
	TEST_ASSERT_EQUAL("FINISHED_ROUND count", s->data.stats.nr_events[PERF_RECORD_FINISHED_ROUND], 2);
	TEST_ASSERT_EQUAL("unknown id", s->data.stats.nr_unknown_id, 0);
	TEST_ASSERT_EQUAL("bad (unknown type) records", s->data.stats.nr_bad_records, 1);
	TEST_ASSERT_EQUAL("late record counted", s->data.stats.nr_unordered, 1);
	/* read summary: the unknown type skipped, reading went on: exit 0 */
	TEST_ASSERT_VAL("not stopped", !s->data.summary.stopped);
	TEST_ASSERT_EQUAL("skipped records", s->data.summary.nr_skipped, 1);
	TEST_ASSERT_EQUAL("records read", s->data.summary.nr_records, s->data.stats.nr_events[0]);
	TEST_ASSERT_EQUAL("exit status", perf_session__read_status(s, "test", false), 0);
	perf_session__delete(s);
	return TEST_OK;
}

static int test__read_native(void)
{
	return check_file(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static int test__read_swapped(void)
{
	return check_file(__BYTE_ORDER__ != __ORDER_BIG_ENDIAN__);
}

static int count_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
			struct evsel *evsel, struct machine *machine)
{
	((struct rec_tool *)tool)->nr++;
	return 0;
}

static int test__corrupt_size(void)
{
	struct rec_tool t;
	struct perf_session *s;
	char *path = write_file(false, 1);
	int err = 0;

	TEST_ASSERT_VAL("write test file", path);
	memset(&t, 0, sizeof(t));
	perf_tool__init(&t.tool, true);
	t.tool.sample = count_sample;
	s = perf_session__new(path, &t.tool, &err);
	unlink(path);
	free(path);
	TEST_ASSERT_VAL("open session", s);
	err = perf_session__process_events(s);
	TEST_ASSERT_VAL("error returned", err < 0);
	/* what was read before the bad record is still delivered */
	TEST_ASSERT_EQUAL("samples before the bad record", t.nr, 5);
	TEST_ASSERT_EQUAL("bad records", s->data.stats.nr_bad_records, 2);
	/* read summary: stopped at the size-4 record, the unknown type skipped */
	TEST_ASSERT_VAL("stopped", s->data.summary.stopped);
	TEST_ASSERT_STREQ("why", s->data.summary.stop_why, "record size too small");
	TEST_ASSERT_VAL("stop inside the data", s->data.summary.stop_offset > s->data.data_offset &&
			s->data.summary.stop_offset < s->data.data_offset + s->data.data_size);
	TEST_ASSERT_EQUAL("skipped records", s->data.summary.nr_skipped, 1);
	TEST_ASSERT_VAL("input damage", perf_session__input_damage(s, err));
	TEST_ASSERT_EQUAL("exit status", perf_session__read_status(s, "test", false), 1);
	TEST_ASSERT_EQUAL("exit status, force", perf_session__read_status(s, "test", true), 0);
	perf_session__delete(s);
	return TEST_OK;
}

static int test__not_perf(void)
{
	char tmpl[] = "/tmp/prf-session-test-XXXXXX";
	int fd = mkstemp(tmpl), err = 0;
	struct perf_session *s;

	TEST_ASSERT_VAL("mkstemp", fd >= 0);
	TEST_ASSERT_VAL("write", write(fd, "hello, this is not a perf.data file\n", 36) == 36);
	close(fd);
	s = perf_session__new(tmpl, NULL, &err);
	TEST_ASSERT_VAL("rejected", !s && err == -EINVAL);
	fd = open(tmpl, O_WRONLY | O_TRUNC);
	close(fd);
	s = perf_session__new(tmpl, NULL, &err);
	unlink(tmpl);
	TEST_ASSERT_VAL("empty file rejected", !s && err == -EINVAL);
	return TEST_OK;
}

/* ---- ordered queue alone ---- */

struct oe_check {
	uint64_t last;
	int n, bad;
	uint64_t seen[64];
};

static int oe_check_deliver(void *ctx, struct oe_node *node)
{
	struct oe_check *c = ctx;

	if (node->timestamp < c->last)
		c->bad++;
	c->last = node->timestamp;
	if (c->n < 64)
		c->seen[c->n] = node->file_offset;
	c->n++;
	return 0;
}

static int test__ordered_queue(void)
{
	struct ordered_events oe;
	struct oe_check c = { 0 };
	uint64_t i;

	ordered_events__init(&oe, oe_check_deliver, &c);
	/* two interleaved "cpus", each sorted, plus equal timestamps */
	for (i = 0; i < 1000; i++) {
		TEST_ASSERT_EQUAL("queue", ordered_events__queue(&oe, i * 2, NULL, NULL, i), 0);
		TEST_ASSERT_EQUAL("queue", ordered_events__queue(&oe, i * 2 + 1, NULL, NULL, 10000 + i), 0);
		if (i % 100 == 99)
			TEST_ASSERT_EQUAL("round", ordered_events__flush_round(&oe), 0);
	}
	/* first round delivers nothing (limit 0 except ts 0), later ones up to the previous max */
	TEST_ASSERT_VAL("round flush delivered some", c.n > 0 && c.n < 2000);
	TEST_ASSERT_EQUAL("ties", ordered_events__queue(&oe, 5000, NULL, NULL, 1), 0);
	TEST_ASSERT_EQUAL("ties", ordered_events__queue(&oe, 5000, NULL, NULL, 2), 0);
	TEST_ASSERT_EQUAL("flush all", ordered_events__flush_all(&oe), 0);
	TEST_ASSERT_EQUAL("all delivered", c.n, 2002);
	TEST_ASSERT_EQUAL("non-decreasing", c.bad, 0);
	ordered_events__exit(&oe);

	/* stable for equal timestamps, random input */
	memset(&c, 0, sizeof(c));
	ordered_events__init(&oe, oe_check_deliver, &c);
	srand(1);
	for (i = 0; i < 64; i++)
		ordered_events__queue(&oe, (uint64_t)(rand() % 8), NULL, NULL, i);
	ordered_events__flush_all(&oe);
	TEST_ASSERT_EQUAL("random: all", c.n, 64);
	TEST_ASSERT_EQUAL("random: sorted", c.bad, 0);
	ordered_events__exit(&oe);
	return TEST_OK;
}

struct oe_order {
	uint64_t *offs;
	size_t n;
};

static int oe_order_deliver(void *ctx, struct oe_node *node)
{
	struct oe_order *o = ctx;

	o->offs[o->n++] = node->file_offset;
	return 0;
}

/*
 * One input stream (rounds of records from several "cpus", with late
 * records below an earlier round's limit, and records processed outside
 * the queue), delivered with every round flushed (defer_mask 0) or with
 * the rounds in defer_mask put off, as the session does for parallel
 * unwinding: the sequence of delivered offsets into o.
 */
static int oe_run(uint64_t defer_mask, unsigned int seed, struct oe_order *o)
{
	struct ordered_events oe;
	uint64_t off = 0, t = 1000;
	int err = 0;

	o->n = 0;
	ordered_events__init(&oe, oe_order_deliver, o);
	srand(seed);
	for (unsigned int round = 0; round < 64 && !err; round++) {
		unsigned int nr = 5 + rand() % 40;

		for (unsigned int i = 0; i < nr && !err; i++) {
			uint64_t ts = t + rand() % 50;

			if (rand() % 16 == 0)	/* late: below earlier rounds' limits */
				ts = ts > 300 ? ts - 300 : 0;
			err = ordered_events__queue(&oe, ts, NULL, NULL, off++);
			/* a record processed outside the queue (e.g. HEADER_*): what
			 * is owed is delivered first */
			if (rand() % 64 == 0)
				err = err ?: ordered_events__flush_pending(&oe);
		}
		t += 40;
		if (defer_mask >> round & 1)
			err = err ?: ordered_events__defer_round(&oe);
		else
			err = err ?: ordered_events__flush_round(&oe);
	}
	err = err ?: ordered_events__flush_all(&oe);
	ordered_events__exit(&oe);
	return err;
}

static int test__ordered_defer(void)
{
	struct oe_order a = { calloc(64 * 64, sizeof(uint64_t)), 0 };
	struct oe_order b = { calloc(64 * 64, sizeof(uint64_t)), 0 };
	int ret = TEST_OK;

	TEST_ASSERT_VAL("alloc", a.offs && b.offs);
	for (unsigned int seed = 1; seed <= 50 && ret == TEST_OK; seed++) {
		uint64_t mask = (uint64_t)rand() << 32 ^ (uint64_t)rand() << 8 ^ (uint64_t)rand();

		if (seed == 1)
			mask = ~0ULL;	/* every round deferred: one flush at the end */
		if (oe_run(0, seed, &a) || oe_run(mask, seed, &b) || a.n != b.n ||
		    memcmp(a.offs, b.offs, a.n * sizeof(*a.offs))) {
			pr_err("seed %u, deferred rounds %#llx: delivery differs (%zu / %zu records)\n",
			       seed, (unsigned long long)mask, a.n, b.n);
			ret = TEST_FAIL;
		}
	}
	free(a.offs);
	free(b.offs);
	return ret;
}

DEFINE_SUITE(session, "perf.data reader and session",
	TEST_CASE(read_native, "hand-written file, native byte order"),
	TEST_CASE(read_swapped, "hand-written file, other byte order"),
	TEST_CASE(corrupt_size, "record with an impossible size: stop, keep what was read"),
	TEST_CASE(not_perf, "non-perf and empty files rejected"),
	TEST_CASE(ordered_queue, "ordered-events queue: round flush, ties, random input"),
	TEST_CASE(ordered_defer, "deferred round flushes deliver in exactly the order of flushing every round, late records too"));
