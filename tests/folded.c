// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the script printer, the folded-stacks aggregation and the
 * flamegraph writers, on in-memory fake frames (maps, DSOs and symbols
 * built here, no perf.data needed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/analysis/folded.h"
#include "../util/analysis/flamegraph.h"
#include "../util/analysis/script-print.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/evlist.h"
#include "../util/model/callchain.h"
#include "../util/model/dso.h"
#include "../util/model/map.h"

struct fake {
	struct dso dso_t, dso_libc, dso_kernel;
	struct map map_t, map_libc, map_kernel;
	struct symbol *leaf, *b, *a, *main_, *start, *ksym;
};

static struct symbol *mksym(const char *name, uint64_t start, uint64_t len)
{
	struct symbol *s = calloc(1, sizeof(*s) + strlen(name) + 1);

	s->start = start;
	s->end = start + len;
	strcpy(s->name, name);
	return s;
}

static void fake__init(struct fake *fk)
{
	memset(fk, 0, sizeof(*fk));
	fk->dso_t.long_name = (char *)"/tmp/sc/t";
	fk->dso_t.short_name = (char *)"t";
	fk->dso_t.kind = DSO_USER;
	fk->dso_libc.long_name = (char *)"/usr/lib/x86_64-linux-gnu/libc.so.6";
	fk->dso_libc.short_name = (char *)"libc.so.6";
	fk->dso_libc.kind = DSO_USER;
	fk->dso_kernel.long_name = (char *)"[kernel.kallsyms]";
	fk->dso_kernel.short_name = (char *)"[kernel.kallsyms]";
	fk->dso_kernel.kind = DSO_KERNEL;
	fk->map_t = (struct map){ .start = 0x55ceaed2e000, .end = 0x55ceaed2f000, .pgoff = 0x1000, .dso = &fk->dso_t };
	fk->map_libc = (struct map){ .start = 0x7f8b193ae000, .end = 0x7f8b19504000, .pgoff = 0x26000, .dso = &fk->dso_libc };
	fk->map_kernel = (struct map){ .start = 0xffffffff81000000, .end = 0xffffffff83000000, .dso = &fk->dso_kernel };
	fk->leaf = mksym("leaf", 0x1139, 0x36);
	fk->b = mksym("b", 0x1171, 0xc);
	fk->a = mksym("a", 0x117d, 0xc);
	fk->main_ = mksym("main", 0x1189, 0x50);
	fk->start = mksym("__libc_start_call_main", 0x271d0, 0xb0);
	fk->ksym = mksym("do_syscall_64", 0xffffffff82259c50, 0x100);
}

static void fake__exit(struct fake *fk)
{
	free(fk->leaf); free(fk->b); free(fk->a); free(fk->main_); free(fk->start); free(fk->ksym);
}

static struct callchain_frame frame(struct map *map, struct symbol *sym, uint64_t addr)
{
	struct callchain_frame f = { 0 };

	f.map = map;
	f.sym = sym;
	f.addr = addr;
	f.ip = map ? addr - map->pgoff + map->start : addr;
	if (map && map->dso->kind == DSO_KERNEL)
		f.ip = addr;
	return f;
}

/* leaf <- b <- a <- main <- __libc_start_call_main, plus an unknown frame */
static void fake_chain(struct fake *fk, struct callchain_frame *fr, unsigned int *nr)
{
	unsigned int n = 0;

	fr[n++] = frame(&fk->map_t, fk->leaf, 0x116b);
	fr[n++] = frame(&fk->map_t, fk->b, 0x117a);
	fr[n++] = frame(&fk->map_t, fk->a, 0x1186);
	fr[n++] = frame(&fk->map_t, fk->main_, 0x11cb);
	fr[n++] = frame(&fk->map_libc, fk->start, 0x2724a);
	fr[n] = frame(NULL, NULL, 0x7f8b195b38a8);
	n++;
	*nr = n;
}

static int test__script_print(void)
{
	struct fake fk;
	struct callchain_frame fr[8];
	struct callchain_cursor cursor = { .frames = fr };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .sample_type =
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD };
	struct evsel *evsel = evsel__new(&attr);
	struct script_fields sf;
	struct script_printer p;
	struct perf_sample sample = { .ip = 0x55ceaed2e16b, .pid = 6601, .tid = 6601, .time = 615752132123ULL, .period = 1001001 };
	char *out = NULL, err[256];
	size_t outlen = 0;
	FILE *fp = open_memstream(&out, &outlen);

	TEST_ASSERT_VAL("evsel", evsel && fp);
	evsel__set_name(evsel, "cpu-clock:ppp");
	fake__init(&fk);
	fake_chain(&fk, fr, &cursor.nr);
	script_fields__init(&sf);
	TEST_ASSERT_VAL("check", script_fields__check(&sf, evsel, err, sizeof(err)) == 0);
	TEST_ASSERT_VAL("init", script_printer__init(&p, fp, &sf) == 0);
	p.name_width = 13;
	p.use_callchain = true;
	TEST_ASSERT_VAL("print", script_printer__sample(&p, evsel, &sample, "t", &cursor) == 0);
	/* single line, -F comm,pid,tid,time,event,ip,sym,dso, --ns */
	p.use_callchain = false;
	script_fields__init(&sf);
	TEST_ASSERT_VAL("parse", script_fields__parse(&sf, "comm,pid,tid,time,event,ip,sym,dso", err, sizeof(err)) == 0);
	p.nanosecs = true;
	TEST_ASSERT_VAL("print2", script_printer__sample(&p, evsel, &sample, "t", &cursor) == 0);
	fflush(fp);
	TEST_ASSERT_VAL("nothing written before the batch is full or flushed", outlen == 0);
	TEST_ASSERT_VAL("flush", script_printer__flush(&p, UINT64_MAX) == 0);
	fclose(fp);
	TEST_ASSERT_STREQ("perf layout", out,
		"t  6601   615.752132:    1001001 cpu-clock:ppp: \n"
		"\t            116b leaf+0x32 (/tmp/sc/t)\n"
		"\t            117a b+0x9 (/tmp/sc/t)\n"
		"\t            1186 a+0x9 (/tmp/sc/t)\n"
		"\t            11cb main+0x42 (/tmp/sc/t)\n"
		"\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
		"\t    7f8b195b38a8 [unknown] ([unknown])\n"
		"\n"
		"               t  6601/6601    615.752132123: cpu-clock:ppp:      55ceaed2e16b leaf (/tmp/sc/t)\n");
	free(out);
	script_printer__exit(&p);

	/* field syntax */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("+pid", script_fields__parse(&sf, "+pid", err, sizeof(err)) == 0);
	TEST_ASSERT_VAL("+pid set", sf.fields[PERF_TYPE_SOFTWARE] & SF_PID);
	TEST_ASSERT_VAL("-period", script_fields__parse(&sf, "sw:-period", err, sizeof(err)) == 0);
	TEST_ASSERT_VAL("-period sw", !(sf.fields[PERF_TYPE_SOFTWARE] & SF_PERIOD));
	TEST_ASSERT_VAL("-period hw kept", sf.fields[PERF_TYPE_HARDWARE] & SF_PERIOD);
	TEST_ASSERT_VAL("bad field", script_fields__parse(&sf, "comm,bogus", err, sizeof(err)) == -EINVAL);
	TEST_ASSERT_VAL("bad type", script_fields__parse(&sf, "xx:comm", err, sizeof(err)) == -EINVAL);
	script_fields__init(&sf);
	TEST_ASSERT_VAL("addr", script_fields__parse(&sf, "comm,addr", err, sizeof(err)) == 0);
	TEST_ASSERT_VAL("addr missing", script_fields__check(&sf, evsel, err, sizeof(err)) == -EINVAL);
	TEST_ASSERT_VAL("addr msg", strstr(err, "Cannot print 'addr' field") != NULL);
	evsel__delete(evsel);
	fake__exit(&fk);
	return TEST_OK;
}

static int test__tidy(void)
{
	char buf[256];

	TEST_ASSERT_STREQ("args", folded__tidy_name("foo(int, char)", buf, sizeof(buf)), "foo");
	TEST_ASSERT_STREQ("semicolon", folded__tidy_name("a;b", buf, sizeof(buf)), "a:b");
	TEST_ASSERT_STREQ("quotes", folded__tidy_name("x\"y'z", buf, sizeof(buf)), "xyz");
	TEST_ASSERT_STREQ("go", folded__tidy_name("net/http.(*Client).Do", buf, sizeof(buf)),
			  "net/http.(*Client).Do");
	TEST_ASSERT_STREQ("anon ns", folded__tidy_name("(anonymous namespace)::f(int)", buf, sizeof(buf)),
			  "(anonymous namespace)::f");
	TEST_ASSERT_STREQ("template", folded__tidy_name("std::vector<int>::push_back(int const&)", buf, sizeof(buf)),
			  "std::vector<int>::push_back");
	return TEST_OK;
}

static int test__stacks(void)
{
	struct fake fk;
	struct callchain_frame fr[8];
	struct callchain_cursor cursor = { .frames = fr };
	struct folded_opts fo = { .annotate_kernel = true };
	struct folded *f = folded__new(&fo);
	char *out = NULL;
	size_t outlen = 0;
	FILE *fp;

	TEST_ASSERT_VAL("new", f);
	fake__init(&fk);
	fake_chain(&fk, fr, &cursor.nr);
	for (int i = 0; i < 3; i++)
		TEST_ASSERT_VAL("add", folded__add_cursor(f, 0, "t", &cursor, 1) == 0);
	/* a libc frame without symbol, a kernel frame, comm with a space */
	fr[0] = frame(&fk.map_kernel, fk.ksym, 0xffffffff82259cc1);
	fr[1] = frame(&fk.map_libc, NULL, 0x2724a);
	cursor.nr = 2;
	TEST_ASSERT_VAL("add2", folded__add_cursor(f, 0, "V8 Worker", &cursor, 2) == 0);
	cursor.nr = 0;
	TEST_ASSERT_VAL("add3", folded__add_cursor(f, 0, "t", &cursor, 1) == 0);
	fp = open_memstream(&out, &outlen);
	TEST_ASSERT_VAL("fprintf", folded__fprintf(f, fp) == 0);
	fclose(fp);
	TEST_ASSERT_STREQ("folded", out,
		"V8_Worker;[libc.so.6];do_syscall_64_[k] 2\n"
		"t 1\n"
		"t;[unknown];__libc_start_call_main;main;a;b;leaf 3\n");
	free(out);
	TEST_ASSERT_EQUAL("root total", folded__root(f)->total[0], 6);
	folded__delete(f);
	fake__exit(&fk);
	return TEST_OK;
}

static int test__flamegraph_files(void)
{
	struct folded *f = folded__new(NULL);
	struct folded_frame st1[] = { { "leaf", FOLDED_KIND_MAIN }, { "b", FOLDED_KIND_MAIN },
				      { "main", FOLDED_KIND_MAIN } };
	struct folded_frame st2[] = { { "x<y>&\"z\"", FOLDED_KIND_LIB }, { "main", FOLDED_KIND_MAIN } };
	struct flamegraph_opts o = { .title = "T<1>" };
	char *out = NULL, c1[8], c2[8];
	size_t outlen = 0;
	FILE *fp;

	TEST_ASSERT_VAL("new", f);
	TEST_ASSERT_VAL("add", folded__add(f, 0, "t", st1, 3, 7) == 0);
	TEST_ASSERT_VAL("add", folded__add(f, 0, "t", st2, 2, 3) == 0);
	TEST_ASSERT_VAL("base", folded__add(f, 1, "t", st1, 3, 1) == 0);
	fp = open_memstream(&out, &outlen);
	TEST_ASSERT_VAL("html", flamegraph__write_html(f, &o, fp) == 0);
	fclose(fp);
	TEST_ASSERT_VAL("title escaped", strstr(out, "<title>T&lt;1&gt;</title>"));
	TEST_ASSERT_VAL("name escaped", strstr(out, "\"x\\u003cy\\u003e\\u0026z\""));
	TEST_ASSERT_VAL("no network", !strstr(out, "http://") && !strstr(out, "https://"));
	free(out);
	out = NULL;
	fp = open_memstream(&out, &outlen);
	o.diff = true;
	TEST_ASSERT_VAL("svg", flamegraph__write_svg(f, &o, fp) == 0);
	fclose(fp);
	TEST_ASSERT_VAL("svg frame", strstr(out, "<title>leaf (7 samples, 70.00%, before 100.00%, change -30.00 pts)</title>"));
	free(out);
	flamegraph__color("leaf", FOLDED_KIND_MAIN, c1);
	flamegraph__color("leaf", FOLDED_KIND_MAIN, c2);
	TEST_ASSERT_STREQ("stable color", c1, c2);
	flamegraph__color("leaf", FOLDED_KIND_KERNEL, c2);
	TEST_ASSERT_VAL("kind color", strcmp(c1, c2));
	folded__delete(f);
	return TEST_OK;
}

/* The SVG's height in pixels, or -1 */
static int svg_height(struct folded *f)
{
	struct flamegraph_opts o = { .title = "t" };
	char *out = NULL;
	size_t outlen = 0;
	FILE *fp = open_memstream(&out, &outlen);
	const char *h;
	int height = -1;

	if (!fp)
		return -1;
	if (flamegraph__write_svg(f, &o, fp) == 0 && !fclose(fp)) {
		h = out ? strstr(out, " height=\"") : NULL;
		if (h)
			height = atoi(h + 9);
	} else {
		fclose(fp);
	}
	free(out);
	return height;
}

/*
 * A 60-frame stack of one sample in 20000 is under 0.1 pixel wide in the
 * SVG and is not drawn: it must not make the graph taller (the wide base
 * would sit below empty rows). Once wide enough to draw, it does.
 */
static int test__flamegraph_height(void)
{
	struct folded *f = folded__new(NULL);
	struct folded_frame shallow[] = { { "a", FOLDED_KIND_MAIN }, { "main", FOLDED_KIND_MAIN } };
	struct folded_frame deep[60];
	int base, narrow, wide;

	TEST_ASSERT_VAL("new", f);
	for (int i = 0; i < 60; i++)
		deep[i] = (struct folded_frame){ i ? "self" : "loop", FOLDED_KIND_MAIN };
	deep[59].name = "main";
	TEST_ASSERT_VAL("add", folded__add(f, 0, "t", shallow, 2, 20000) == 0);
	base = svg_height(f);
	TEST_ASSERT_VAL("svg", base > 0);
	TEST_ASSERT_VAL("add deep", folded__add(f, 0, "t", deep, 60, 1) == 0);
	narrow = svg_height(f);
	TEST_ASSERT_EQUAL("undrawn deep stack adds no rows", narrow, base);
	TEST_ASSERT_VAL("add deep", folded__add(f, 0, "t", deep, 60, 200) == 0);
	wide = svg_height(f);
	/* 58 more rows than main;a, 16 pixels each */
	TEST_ASSERT_EQUAL("drawn deep stack's rows", wide, base + 58 * 16);
	folded__delete(f);
	return TEST_OK;
}

DEFINE_SUITE(folded, "script printer, folded stacks, flamegraph writers",
	     TEST_CASE(script_print, "perf script sample/callchain layout and -F syntax"),
	     TEST_CASE(tidy, "stackcollapse-perf name tidying"),
	     TEST_CASE(stacks, "folded stacks from resolved frames"),
	     TEST_CASE(flamegraph_files, "HTML/SVG writers escape and color"),
	     TEST_CASE(flamegraph_height, "SVG as tall as the frames drawn"));
