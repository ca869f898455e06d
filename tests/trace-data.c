// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the tracing data writer/reader (util/format/trace-data.c),
 * the tracepoint payload formatter (util/analysis/trace-format.c) and the
 * off-CPU accounter (util/analysis/off-cpu.c). Payloads are built here in
 * both byte orders from the kernel's real sched_switch format text; the
 * round trip through tracefs runs when tracefs is readable.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "tests.h"
#include "../util/lib/strbuf.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/tracefs.h"
#include "../util/format/trace-data.h"
#include "../util/session/trace-format.h"
#include "../util/session/off-cpu.h"

static const char header_page_txt[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char switch_fmt[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
	"REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? "
	"__print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", "
	"{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", "
	"REC->next_comm, REC->next_pid, REC->next_prio\n";

/* A made-up event with a __data_loc string and a negative int. */
static const char msg_fmt[] =
	"name: prf_msg\nID: 901\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int delta;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] msg;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"delta=%d msg=%s\", REC->delta, __get_str(msg)\n";

struct builder {
	struct strbuf sb;
	bool be;	/* write numbers big endian */
};

static void b_uint(struct builder *b, uint64_t v, int width)
{
	if (width == 4) {
		uint32_t u = (uint32_t)v;

		if (b->be)
			u = bswap_32(u);
		strbuf_add(&b->sb, &u, 4);
	} else {
		if (b->be)
			v = bswap_64(v);
		strbuf_add(&b->sb, &v, 8);
	}
}

static void b_blob(struct builder *b, const char *s, int width)
{
	b_uint(b, strlen(s), width);
	strbuf_add(&b->sb, s, strlen(s));
}

/* A tracing data payload with sched:sched_switch and prf:prf_msg. */
static void build_payload(struct builder *b, bool be)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	strbuf_init(&b->sb, 4096);
	b->be = be;
	strbuf_add(&b->sb, magic, 10);
	strbuf_add(&b->sb, "0.6", 4);
	strbuf_addch(&b->sb, be ? 1 : 0);
	strbuf_addch(&b->sb, 8);
	b_uint(b, 4096, 4);
	strbuf_add(&b->sb, "header_page", 12);
	b_blob(b, header_page_txt, 8);
	strbuf_add(&b->sb, "header_event", 13);
	b_blob(b, "# compressed entry header\n", 8);
	b_uint(b, 0, 4);		/* ftrace events */
	b_uint(b, 2, 4);		/* systems */
	strbuf_add(&b->sb, "sched", 6);
	b_uint(b, 1, 4);
	b_blob(b, switch_fmt, 8);
	strbuf_add(&b->sb, "prf", 4);
	b_uint(b, 1, 4);
	b_blob(b, msg_fmt, 8);
	b_uint(b, 0, 4);		/* kallsyms */
	b_blob(b, "0xffffffff8281a8ff : \"thaw_processes\"\n", 4);
	b_blob(b, "1234 myproc\n", 8);	/* saved cmdlines */
}

/* sched_switch payload (68 bytes as the kernel pads to u64) */
static void switch_raw(unsigned char *raw, bool be, const char *prev, int prev_pid, long state,
		       const char *next, int next_pid)
{
	uint16_t type = 372;
	int32_t prio = 120, pp = prev_pid, np = next_pid;
	int64_t st = state;

	memset(raw, 0, 72);
	if (be) {
		type = bswap_16(type);
		prio = (int32_t)bswap_32((uint32_t)prio);
		pp = (int32_t)bswap_32((uint32_t)pp);
		np = (int32_t)bswap_32((uint32_t)np);
		st = (int64_t)bswap_64((uint64_t)st);
	}
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &pp, 4);
	strncpy((char *)raw + 8, prev, 15);
	memcpy(raw + 24, &pp, 4);
	memcpy(raw + 28, &prio, 4);
	memcpy(raw + 32, &st, 8);
	strncpy((char *)raw + 40, next, 15);
	memcpy(raw + 56, &np, 4);
	memcpy(raw + 60, &prio, 4);
}

static struct evsel *tp_evsel(const char *sys, const char *name, uint64_t id)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT, .config = id };
	struct evsel *evsel = evsel__new(&attr);
	char full[128];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	evsel__set_name(evsel, full);
	evsel->tp_sys = strdup(sys);
	evsel->tp_name = strdup(name);
	return evsel;
}

static int check_format(bool be)
{
	struct builder b;
	struct trace_formatter *tf;
	struct evsel *sw, *msg, *byname;
	struct perf_sample sample;
	unsigned char raw[72], mraw[32];
	uint64_t v;
	char str[32];
	int err;

	build_payload(&b, be);
	tf = trace_formatter__new(b.sb.buf, b.sb.len, &err);
	TEST_ASSERT_VAL("parse payload", tf && !err);
	TEST_ASSERT_EQUAL("events parsed", tep_get_events_count(trace_formatter__tep(tf)), 2);
	TEST_ASSERT_VAL("saved cmdline", tep_is_pid_registered(trace_formatter__tep(tf), 1234));

	sw = tp_evsel("sched", "sched_switch", 372);
	switch_raw(raw, be, "sleep", 28936, 1, "swapper/1", 0);
	memset(&sample, 0, sizeof(sample));
	sample.raw_data = raw;
	sample.raw_size = 68;
	sample.cpu = 1;
	TEST_ASSERT_STREQ("sched_switch info", trace_formatter__info(tf, sw, &sample),
			  "prev_comm=sleep prev_pid=28936 prev_prio=120 prev_state=S ==> "
			  "next_comm=swapper/1 next_pid=0 next_prio=120");
	switch_raw(raw, be, "kworker/0:1", 77, 0x100, "bash", 4242);
	TEST_ASSERT_STREQ("preempted", trace_formatter__info(tf, sw, &sample),
			  "prev_comm=kworker/0:1 prev_pid=77 prev_prio=120 prev_state=R+ ==> "
			  "next_comm=bash next_pid=4242 next_prio=120");
	TEST_ASSERT_VAL("next_pid", !trace_formatter__field_u64(tf, sw, &sample, "next_pid", &v));
	TEST_ASSERT_EQUAL("next_pid value", v, 4242);
	TEST_ASSERT_VAL("prev_state", !trace_formatter__field_u64(tf, sw, &sample, "prev_state", &v));
	TEST_ASSERT_EQUAL("prev_state value", v, 0x100);
	TEST_ASSERT_VAL("common_pid", !trace_formatter__field_u64(tf, sw, &sample, "common_pid", &v));
	TEST_ASSERT_EQUAL("common_pid value", v, 77);
	TEST_ASSERT_VAL("prev_comm", !trace_formatter__field_str(tf, sw, &sample, "prev_comm", str, sizeof(str)));
	TEST_ASSERT_STREQ("prev_comm value", str, "kworker/0:1");
	TEST_ASSERT_EQUAL("no such field", trace_formatter__field_u64(tf, sw, &sample, "nope", &v), -ENOENT);
	TEST_ASSERT_EQUAL("string is not a number",
			  trace_formatter__field_u64(tf, sw, &sample, "next_comm", &v), -EINVAL);
	/* fields resolved once, read by offset: the same values and errors */
	{
		struct trace_field pid, comm, none;

		TEST_ASSERT_VAL("ref next_pid", !trace_formatter__field_ref(tf, sw, "next_pid", &pid));
		TEST_ASSERT_EQUAL("next_pid numeric", pid.kind, TRACE_FIELD_NUM);
		TEST_ASSERT_EQUAL("byte order", pid.swap, be != tep_is_bigendian());
		TEST_ASSERT_VAL("ref read", !trace_field__u64(&pid, &sample, &v));
		TEST_ASSERT_EQUAL("ref next_pid value", v, 4242);
		TEST_ASSERT_VAL("ref prev_comm", !trace_formatter__field_ref(tf, sw, "prev_comm", &comm));
		TEST_ASSERT_VAL("ref str", !trace_field__str(&comm, &sample, str, sizeof(str)));
		TEST_ASSERT_STREQ("ref prev_comm value", str, "kworker/0:1");
		TEST_ASSERT_EQUAL("ref string is not a number", trace_field__u64(&comm, &sample, &v), -EINVAL);
		TEST_ASSERT_EQUAL("ref no such field",
				  trace_formatter__field_ref(tf, sw, "nope", &none), -ENOENT);
		TEST_ASSERT_EQUAL("ref missing read", trace_field__u64(&none, &sample, &v), -ENOENT);
		sample.raw_size = 30;
		TEST_ASSERT_EQUAL("ref past the payload", trace_field__u64(&pid, &sample, &v), -EINVAL);
	}
	TEST_ASSERT_EQUAL("field past the payload",
			  trace_formatter__field_u64(tf, sw, &sample, "next_pid", &v), -EINVAL);

	/* interned texts: equal payloads, one pointer */
	sample.raw_size = 68;
	{
		const char *a = trace_formatter__info_intern(tf, sw, &sample);
		const char *b2 = trace_formatter__info_intern(tf, sw, &sample);
		struct evsel *swev = tp_evsel("sched", "nope_event", 1);

		TEST_ASSERT_VAL("interned", a && a == b2);
		TEST_ASSERT_STREQ("interned text", a, "prev_comm=kworker/0:1 prev_pid=77 prev_prio=120 "
				  "prev_state=R+ ==> next_comm=bash next_pid=4242 next_prio=120");
		swev->attr.type = PERF_TYPE_SOFTWARE;
		TEST_ASSERT_STREQ("not a tracepoint", trace_formatter__info_intern(tf, swev, &sample), "N/A");
		evsel__delete(swev);
	}
	/* lookup by name when the id is another boot's */
	byname = tp_evsel("sched", "sched_switch", 9999);
	TEST_ASSERT_VAL("by name", trace_formatter__event(tf, byname) != NULL);
	TEST_ASSERT_VAL("is sched_switch", trace_formatter__evsel_is(byname, "sched", "sched_switch"));

	/* __data_loc string and a negative int */
	msg = tp_evsel("prf", "prf_msg", 901);
	memset(mraw, 0, sizeof(mraw));
	{
		uint16_t type = 901;
		int32_t delta = -5;
		uint32_t loc = (6u << 16) | 16;	/* "hello\0" at 16 */

		if (be) {
			type = bswap_16(type);
			delta = (int32_t)bswap_32((uint32_t)delta);
			loc = bswap_32(loc);
		}
		memcpy(mraw, &type, 2);
		memcpy(mraw + 8, &delta, 4);
		memcpy(mraw + 12, &loc, 4);
		memcpy(mraw + 16, "hello", 6);
	}
	sample.raw_data = mraw;
	sample.raw_size = 24;
	TEST_ASSERT_STREQ("msg info", trace_formatter__info(tf, msg, &sample), "delta=-5 msg=hello");
	TEST_ASSERT_VAL("delta", !trace_formatter__field_u64(tf, msg, &sample, "delta", &v));
	TEST_ASSERT_EQUAL("delta sign-extended", (int64_t)v, -5);
	TEST_ASSERT_VAL("msg", !trace_formatter__field_str(tf, msg, &sample, "msg", str, sizeof(str)));
	TEST_ASSERT_STREQ("msg value", str, "hello");
	TEST_ASSERT_VAL("msg truncated", !trace_formatter__field_str(tf, msg, &sample, "msg", str, 3));
	TEST_ASSERT_STREQ("msg truncated value", str, "he");

	evsel__delete(sw);
	evsel__delete(msg);
	evsel__delete(byname);
	trace_formatter__delete(tf);
	strbuf_release(&b.sb);
	return TEST_OK;
}

static int test__format_le(void)
{
	return check_format(false);
}

static int test__format_be(void)
{
	return check_format(true);
}

static int test__truncated(void)
{
	struct builder b;
	struct tep_handle *tep;
	size_t bad_cut = 0;
	int bad = 0, err = 0, magic_err = 0;
	int saved_fd = dup(2), null_fd = open("/dev/null", O_WRONLY);

	/* the reader's messages for 2000 bad inputs would drown the log */
	if (null_fd >= 0)
		dup2(null_fd, 2);
	build_payload(&b, false);
	/* every cut before the optional saved cmdlines must fail cleanly */
	/* every cut in the header, then every 23rd (each parse forks a
	 * checker child, see trace_data__parse) and the last 16 */
	size_t last = b.sb.len - 8 - strlen("1234 myproc\n");

	for (size_t cut = 0; cut < last; cut += (cut < 64 || cut + 16 >= last) ? 1 : 23) {
		tep = trace_data__parse(b.sb.buf, cut, &err);
		if (tep || err != -EINVAL) {
			if (!bad++)
				bad_cut = cut;
			tep_free(tep);
		}
	}
	b.sb.buf[0] = 0x18;
	tep = trace_data__parse(b.sb.buf, b.sb.len, &magic_err);
	if (saved_fd >= 0) {
		dup2(saved_fd, 2);
		close(saved_fd);
	}
	if (null_fd >= 0)
		close(null_fd);
	if (bad)
		pr_err("first accepted truncation at byte %zu\n", bad_cut);
	TEST_ASSERT_EQUAL("truncations rejected", bad, 0);
	TEST_ASSERT_VAL("bad magic", !tep);
	TEST_ASSERT_EQUAL("bad magic err", magic_err, -EINVAL);
	strbuf_release(&b.sb);
	return TEST_OK;
}

/* Writer through the local tracefs, read back by our reader. */
static int test__roundtrip(void)
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error perr;
	struct strbuf sb = STRBUF_INIT;
	struct tep_handle *tep;
	struct tep_event *ev;
	struct evsel *evsel;
	uint64_t id;
	uint32_t u32;
	int err, mnt_err = 0;

	if (!tracefs__mountpoint(&mnt_err))
		return test_skip("tracefs not available");
	if (tracefs__event_id("sched", "sched_switch", &id))
		return test_skip("no sched:sched_switch tracepoint");
	TEST_ASSERT_VAL("no tracepoints: nothing", trace_data__build(evlist, &sb) == -ENODATA);
	parse_events_error__init(&perr);
	err = parse_events(evlist, "sched:sched_switch,sched:sched_wakeup,sched:sched_switch", &perr);
	parse_events_error__exit(&perr);
	TEST_ASSERT_VAL("parse events", !err);
	TEST_ASSERT_VAL("has tracepoints", trace_data__has_tracepoints(evlist));
	err = trace_data__build(evlist, &sb);
	if (err == -EACCES || err == -EPERM) {
		evlist__delete(evlist);
		return test_skip("tracefs format files not readable");
	}
	TEST_ASSERT_VAL("build", !err);
	TEST_ASSERT_VAL("magic", sb.len > 20 && !memcmp(sb.buf, "\027\010\104tracing", 10));
	TEST_ASSERT_STREQ("version", sb.buf + 10, "0.6");
	TEST_ASSERT_EQUAL("long size", sb.buf[15], (int)sizeof(long));
	memcpy(&u32, sb.buf + 16, 4);
	TEST_ASSERT_EQUAL("page size", u32, 4096);
	TEST_ASSERT_STREQ("header_page", sb.buf + 20, "header_page");

	tep = trace_data__parse(sb.buf, sb.len, &err);
	TEST_ASSERT_VAL("parse back", tep && !err);
	/* the duplicate sched_switch is stored once */
	TEST_ASSERT_EQUAL("two events", tep_get_events_count(tep), 2);
	ev = tep_find_event(tep, (int)id);
	TEST_ASSERT_VAL("sched_switch by id", ev && !strcmp(ev->name, "sched_switch") &&
		       !strcmp(ev->system, "sched"));
	TEST_ASSERT_VAL("prev_pid field", tep_find_field(ev, "prev_pid") != NULL);
	TEST_ASSERT_VAL("wakeup", tep_find_event_by_name(tep, "sched", "sched_wakeup") != NULL);
	tep_free(tep);

	/* the feature hook writes nothing without tracepoints */
	evlist__for_each_entry(evlist, evsel)
		evsel->attr.type = PERF_TYPE_SOFTWARE;
	strbuf_reset(&sb);
	TEST_ASSERT_VAL("hook no tp", !trace_data__feature_hook(&sb, evlist) && sb.len == 0);
	strbuf_release(&sb);
	evlist__delete(evlist);
	return TEST_OK;
}

/* ---------------- off-CPU ---------------- */

struct spans {
	int nr;
	uint64_t dur[8], tid[8], chain0[8], chain_nr[8];
	const char *evname;
};

static int span_cb(void *arg, const struct off_cpu_span *span)
{
	struct spans *s = arg;

	if (s->nr < 8) {
		s->dur[s->nr] = span->duration;
		s->tid[s->nr] = span->sample.tid;
		s->chain_nr[s->nr] = span->sample.callchain ? span->sample.callchain->nr : 0;
		s->chain0[s->nr] = s->chain_nr[s->nr] ? span->sample.callchain->ips[1] : 0;
		s->evname = evsel__name(span->sample.evsel);
		if (span->sample.period != span->duration)
			return -EINVAL;
	}
	s->nr++;
	return 0;
}

static int test__off_cpu(void)
{
	struct spans s = { 0 };
	struct off_cpu *oc = off_cpu__new(NULL, span_cb, &s);
	uint64_t chain_buf[4] = { 3, PERF_CONTEXT_USER, 0x401136, 0x401180 };
	uint64_t kchain[7] = { 6, PERF_CONTEXT_KERNEL, 0xffffffff81000001ULL,
			       0xffffffff81000002ULL, PERF_CONTEXT_USER, 0x401136, 0x401180 };
	struct perf_sample smp;
	union perf_event ev;

	TEST_ASSERT_VAL("new", oc);
	memset(&smp, 0, sizeof(smp));
	smp.pid = smp.tid = 100;
	smp.time = 1000;
	smp.callchain = (const struct ip_callchain *)chain_buf;
	TEST_ASSERT_VAL("out", !off_cpu__switch_out(oc, &smp, 1));
	chain_buf[2] = 0xdead;	/* the accounter keeps its own copy */
	/* a switch-out record is not a switch-in */
	memset(&ev, 0, sizeof(ev));
	ev.header.type = PERF_RECORD_SWITCH;
	ev.header.misc = PERF_RECORD_MISC_SWITCH_OUT;
	smp.time = 1500;
	TEST_ASSERT_VAL("switch out rec", !off_cpu__context_switch(oc, &ev, &smp));
	TEST_ASSERT_EQUAL("no span yet", s.nr, 0);
	ev.header.misc = 0;
	smp.time = 201000;
	TEST_ASSERT_VAL("switch in rec", !off_cpu__context_switch(oc, &ev, &smp));
	TEST_ASSERT_EQUAL("one span", s.nr, 1);
	TEST_ASSERT_EQUAL("duration", s.dur[0], 200000);
	TEST_ASSERT_EQUAL("tid", s.tid[0], 100);
	TEST_ASSERT_EQUAL("chain nr", s.chain_nr[0], 3);
	TEST_ASSERT_EQUAL("chain copied", s.chain0[0], 0x401136);
	TEST_ASSERT_STREQ("pseudo event", s.evname, "offcpu-time");
	/* a second switch-in finds nothing pending */
	smp.time = 300000;
	TEST_ASSERT_VAL("again", !off_cpu__context_switch(oc, &ev, &smp));
	TEST_ASSERT_EQUAL("still one", s.nr, 1);
	/* preempted (R+) switch-outs do not count by default */
	smp.time = 400000;
	TEST_ASSERT_VAL("preempted", !off_cpu__switch_out(oc, &smp, 0x100));
	TEST_ASSERT_VAL("in", !off_cpu__switch_in(oc, 100, 500000));
	TEST_ASSERT_EQUAL("not counted", s.nr, 1);
	/* D state counts; the idle task never does */
	smp.time = 600000;
	TEST_ASSERT_VAL("blocked", !off_cpu__switch_out(oc, &smp, 2));
	smp.tid = smp.pid = 0;
	TEST_ASSERT_VAL("idle", !off_cpu__switch_out(oc, &smp, 1));
	TEST_ASSERT_VAL("in2", !off_cpu__switch_in(oc, 100, 650000));
	TEST_ASSERT_VAL("idle in", !off_cpu__switch_in(oc, 0, 700000));
	TEST_ASSERT_EQUAL("two spans", s.nr, 2);
	TEST_ASSERT_EQUAL("d duration", s.dur[1], 50000);
	TEST_ASSERT_EQUAL("nr spans", off_cpu__nr_spans(oc), 2);
	TEST_ASSERT_EQUAL("total", off_cpu__total_ns(oc), 250000);
	off_cpu__delete(oc);

	/* the kernel part of the stack is dropped, ip is the user ip */
	{
		struct spans s3 = { 0 };
		struct off_cpu_opts ko = { .kernel_stacks = true };

		oc = off_cpu__new(NULL, span_cb, &s3);
		smp.tid = smp.pid = 9;
		smp.time = 100;
		smp.callchain = (const struct ip_callchain *)kchain;
		off_cpu__switch_out(oc, &smp, 1);
		off_cpu__switch_in(oc, 9, 300);
		TEST_ASSERT_EQUAL("user part only", s3.chain_nr[0], 3);
		TEST_ASSERT_EQUAL("first user frame", s3.chain0[0], 0x401136);
		off_cpu__delete(oc);
		oc = off_cpu__new(&ko, span_cb, &s3);
		off_cpu__switch_out(oc, &smp, 1);
		off_cpu__switch_in(oc, 9, 300);
		TEST_ASSERT_EQUAL("kernel kept", s3.chain_nr[1], 6);
		off_cpu__delete(oc);
	}

	/* all_states: preemption counts too */
	{
		struct off_cpu_opts o = { .all_states = true };
		struct spans s2 = { 0 };

		oc = off_cpu__new(&o, span_cb, &s2);
		smp.tid = smp.pid = 7;
		smp.time = 10;
		off_cpu__switch_out(oc, &smp, 0x100);
		off_cpu__switch_in(oc, 7, 25);
		TEST_ASSERT_EQUAL("all states", s2.nr, 1);
		TEST_ASSERT_EQUAL("all states dur", s2.dur[0], 15);
		off_cpu__delete(oc);
	}
	return TEST_OK;
}

/* sched_switch samples alone (system-wide): next_pid is the switch-in. */
static int test__off_cpu_sched_switch(void)
{
	struct builder b;
	struct spans s = { 0 };
	struct trace_formatter *tf;
	struct off_cpu *oc;
	struct evsel *sw;
	struct perf_sample smp;
	unsigned char raw[72];

	build_payload(&b, false);
	tf = trace_formatter__new(b.sb.buf, b.sb.len, NULL);
	TEST_ASSERT_VAL("tf", tf);
	oc = off_cpu__new(NULL, span_cb, &s);
	sw = tp_evsel("sched", "sched_switch", 372);
	memset(&smp, 0, sizeof(smp));
	smp.raw_data = raw;
	smp.raw_size = 68;
	/* 50 sleeps at t=1000 */
	switch_raw(raw, false, "sleeper", 50, 1, "swapper/0", 0);
	smp.tid = smp.pid = 50;
	smp.time = 1000;
	TEST_ASSERT_VAL("out", !off_cpu__sched_switch(oc, tf, sw, &smp));
	/* idle switches to 50 at t=9000 */
	switch_raw(raw, false, "swapper/0", 0, 0, "sleeper", 50);
	smp.tid = smp.pid = 0;
	smp.time = 9000;
	TEST_ASSERT_VAL("in", !off_cpu__sched_switch(oc, tf, sw, &smp));
	TEST_ASSERT_EQUAL("span", s.nr, 1);
	TEST_ASSERT_EQUAL("dur", s.dur[0], 8000);
	TEST_ASSERT_EQUAL("tid", s.tid[0], 50);
	off_cpu__delete(oc);
	evsel__delete(sw);
	trace_formatter__delete(tf);
	strbuf_release(&b.sb);
	return TEST_OK;
}

DEFINE_SUITE(trace_data, "Tracing data, tracepoint formatting and off-CPU time",
	     TEST_CASE(format_le, "tracing data parse + format (little endian)"),
	     TEST_CASE(format_be, "tracing data parse + format (big endian file)"),
	     TEST_CASE(truncated, "truncated/corrupt tracing data rejected"),
	     TEST_CASE(roundtrip, "write from tracefs, read back"),
	     TEST_CASE(off_cpu, "off-CPU spans from switch-out/in"),
	     TEST_CASE(off_cpu_sched_switch, "off-CPU spans from sched_switch next_pid"));
