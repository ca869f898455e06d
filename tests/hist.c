// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the report analysis layer (util/analysis/hist.h, sort.h,
 * callchain-tree.h) and its stdio printer, on threads/maps/DSOs/symbols
 * built in memory: self and children accounting, recursion counted once,
 * sort keys and ordering, the -g parser, and perf's graph text layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../ui/stdio/hist.h"
#include "../util/analysis/callchain-tree.h"
#include "../util/analysis/hist.h"
#include "../util/analysis/hist-feed.h"
#include "../util/analysis/sort.h"
#include "../util/lib/tunables.h"
#include "../util/lib/util.h"
#include "../util/model/callchain.h"
#include "../util/model/dso.h"
#include "../util/model/machine.h"
#include "../util/model/map.h"

struct fake {
	struct dso dso;
	struct map map;
	struct thread thread;
	struct symbol *syms[8];
	int nr_syms;
};

static struct symbol *fake_sym(struct fake *f, const char *name, uint64_t start)
{
	struct symbol *s = calloc(1, sizeof(*s) + strlen(name) + 1);

	s->start = start;
	s->end = start + 0x100;
	strcpy(s->name, name);
	f->syms[f->nr_syms++] = s;
	return s;
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->dso.long_name = (char *)"/usr/bin/tree";
	f->dso.short_name = (char *)"tree";
	f->map.start = 0x400000;
	f->map.end = 0x500000;
	f->map.dso = &f->dso;
	f->thread.pid = f->thread.tid = 42;
	f->thread.comm = "tree";
	f->thread.comm_set = true;
	/* caller order: main -> a -> b -> leaf */
	fake_sym(f, "main", 0x1000);
	fake_sym(f, "a", 0x2000);
	fake_sym(f, "b", 0x3000);
	fake_sym(f, "leaf", 0x4000);
}

static void fake_exit(struct fake *f)
{
	for (int i = 0; i < f->nr_syms; i++)
		free(f->syms[i]);
}

static void free_syms(struct symbol **syms, int n)
{
	for (int i = 0; syms && i < n; i++)
		free(syms[i]);
	free(syms);
}

/* n symbols named PREFIX0.. of 0x40 bytes from 0x1000 (free_syms());
 * NULL on ENOMEM */
static struct symbol **make_syms(int n, const char *prefix)
{
	struct symbol **syms = calloc(n, sizeof(*syms));

	for (int i = 0; syms && i < n; i++) {
		syms[i] = calloc(1, sizeof(struct symbol) + 16);
		if (!syms[i]) {
			free_syms(syms, i);
			return NULL;
		}
		syms[i]->start = 0x1000 + (uint64_t)i * 0x40;
		syms[i]->end = syms[i]->start + 0x40;
		snprintf(syms[i]->name, 16, "%s%d", prefix, i);
	}
	return syms;
}

/* a user frame in f's map at sym */
static void set_frame(struct fake *f, struct callchain_frame *fr, struct symbol *sym)
{
	memset(fr, 0, sizeof(*fr));
	fr->map = &f->map;
	fr->sym = sym;
	fr->addr = sym->start + 4;
	fr->ip = f->map.start + fr->addr;
	fr->cpumode = PERF_RECORD_MISC_USER;
}

/* Chain callee first from symbol indexes, e.g. {3,2,1,0} = leaf b a main. */
static void make_chain(struct fake *f, struct callchain_cursor *c, const int *idx, int n)
{
	c->nr = 0;
	for (int i = 0; i < n; i++)
		set_frame(f, &c->frames[c->nr++], f->syms[idx[i]]);
}

static int add(struct hists *h, struct fake *f, struct callchain_cursor *c, const int *idx, int n,
	       uint64_t period)
{
	struct hist_sample hs = {
		.thread = &f->thread, .comm = "tree", .cpu = 0, .period = period,
		.map = &f->map, .sym = f->syms[idx[0]], .addr = f->syms[idx[0]]->start + 4,
		.level = '.', .chain = c,
	};

	make_chain(f, c, idx, n);
	return hists__add_sample(h, &hs);
}

static struct hist_entry *find(struct hists *h, const char *name)
{
	for (size_t i = 0; i < h->nr_sorted; i++)
		if (h->sorted[i]->sym && !strcmp(h->sorted[i]->sym->name, name))
			return h->sorted[i];
	return NULL;
}

static char *print(struct hists *h, struct sort_order *so, struct callchain_param *cc, bool chains)
{
	struct hists_fprintf_opts o = { .show_header = true, .use_callchain = chains };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	hists__fprintf(h, so, cc, &o, fp);
	fclose(fp);
	return buf;
}

static int test__self_accounting(void)
{
	struct fake f;
	struct callchain_frame frames[16];
	struct callchain_cursor c = { .frames = frames, .alloc = 16 };
	struct callchain_param cc;
	struct sort_order so;
	struct hists h;
	const int s1[] = { 3, 2, 1, 0 }, s2[] = { 2, 1, 0 }, s3[] = { 1, 0 };

	fake_init(&f);
	callchain_param__init(&cc);
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, false, true, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
	for (int i = 0; i < 6; i++)
		TEST_ASSERT_VAL("add", !add(&h, &f, &c, s1, 4, 100));
	for (int i = 0; i < 3; i++)
		TEST_ASSERT_VAL("add", !add(&h, &f, &c, s2, 3, 100));
	TEST_ASSERT_VAL("add", !add(&h, &f, &c, s3, 2, 100));
	TEST_ASSERT_VAL("resort", !hists__output_resort(&h, &so));
	TEST_ASSERT_EQUAL("entries", h.nr_sorted, 3);
	TEST_ASSERT_EQUAL("total", h.total_period, 1000);
	TEST_ASSERT_STREQ("first", h.sorted[0]->sym->name, "leaf");
	TEST_ASSERT_STREQ("second", h.sorted[1]->sym->name, "b");
	TEST_ASSERT_EQUAL("leaf period", h.sorted[0]->period, 600);
	TEST_ASSERT_EQUAL("leaf samples", h.sorted[0]->nr_samples, 6);
	TEST_ASSERT_EQUAL("a period", find(&h, "a")->period, 100);
	{
		char *out = print(&h, &so, &cc, false);

		TEST_ASSERT_VAL("printed", out);
		TEST_ASSERT_VAL("header", strstr(out, "# Overhead       Samples  Command  Shared Object  Symbol"));
		TEST_ASSERT_VAL("dots", strstr(out, "# ........  ............  .......  .............  ......"));
		TEST_ASSERT_VAL("leaf line", strstr(out, "    60.00%             6  tree     tree           [.] leaf\n"));
		free(out);
	}
	hists__exit(&h);
	sort_order__exit(&so);
	fake_exit(&f);
	return TEST_OK;
}

static int test__children_accounting(void)
{
	struct fake f;
	struct callchain_frame frames[16];
	struct callchain_cursor c = { .frames = frames, .alloc = 16 };
	struct callchain_param cc;
	struct sort_order so;
	struct hists h;
	/* leaf b a main; a b a main (recursion: a twice); a main */
	const int s1[] = { 3, 2, 1, 0 }, s2[] = { 1, 2, 1, 0 }, s3[] = { 1, 0 };
	struct hist_entry *e;

	fake_init(&f);
	callchain_param__init(&cc);
	cc.order = ORDER_CALLER;
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, true, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
	TEST_ASSERT_VAL("add", !add(&h, &f, &c, s1, 4, 10));
	TEST_ASSERT_VAL("add", !add(&h, &f, &c, s2, 4, 10));
	TEST_ASSERT_VAL("add", !add(&h, &f, &c, s3, 2, 10));
	TEST_ASSERT_VAL("resort", !hists__output_resort(&h, &so));
	e = find(&h, "main");
	TEST_ASSERT_VAL("main", e);
	TEST_ASSERT_EQUAL("main self", e->period, 0);
	TEST_ASSERT_EQUAL("main children", e->period_acc, 30);
	e = find(&h, "a");
	TEST_ASSERT_EQUAL("a self", e->period, 20);
	TEST_ASSERT_EQUAL("a children counted once per sample", e->period_acc, 30);
	e = find(&h, "b");
	TEST_ASSERT_EQUAL("b self", e->period, 0);
	TEST_ASSERT_EQUAL("b children", e->period_acc, 20);
	e = find(&h, "leaf");
	TEST_ASSERT_EQUAL("leaf", e->period_acc, 10);
	/* equal children (a, main: 30), same thread and chain depth: self decides */
	TEST_ASSERT_STREQ("order 1", h.sorted[0]->sym->name, "a");
	TEST_ASSERT_STREQ("order 2", h.sorted[1]->sym->name, "main");
	{
		char *out = print(&h, &so, &cc, true);

		TEST_ASSERT_VAL("printed", out);
		TEST_ASSERT_VAL("children header", strstr(out, "# Children      Self  Command"));
		TEST_ASSERT_VAL("main line", strstr(out, "   100.00%     0.00%  tree     tree           [.] main\n"));
		/* main's callchain: "---main" then a, then the split */
		TEST_ASSERT_VAL("graph root", strstr(out, "            |\n            ---main\n               a\n"));
		if (!strstr(out, "                --66.67%--b\n"))
			pr_err("children output:\n%s", out);
		TEST_ASSERT_VAL("graph branch", strstr(out, "                --66.67%--b\n"));
		free(out);
	}
	hists__exit(&h);
	sort_order__exit(&so);
	fake_exit(&f);
	return TEST_OK;
}

static int test__callchain_graph_layout(void)
{
	struct fake f;
	struct callchain_frame frames[16];
	struct callchain_cursor c = { .frames = frames, .alloc = 16 };
	struct callchain_param cc;
	struct sort_order so;
	struct hists h;
	const int s1[] = { 3, 2, 1, 0 }, s2[] = { 3, 1, 0 };
	const char *expect =
		"   100.00%  tree     tree           [.] leaf\n"
		"            |\n"
		"            ---leaf\n"
		"               |          \n"
		"               |--75.00%--b\n"
		"               |          a\n"
		"               |          main\n"
		"               |          \n"
		"                --25.00%--a\n"
		"                          main\n"
		"\n";
	char *out;

	fake_init(&f);
	callchain_param__init(&cc);
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, false, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
	for (int i = 0; i < 3; i++)
		TEST_ASSERT_VAL("add", !add(&h, &f, &c, s1, 4, 100));
	TEST_ASSERT_VAL("add", !add(&h, &f, &c, s2, 3, 100));
	TEST_ASSERT_VAL("resort", !hists__output_resort(&h, &so));
	out = print(&h, &so, &cc, true);
	TEST_ASSERT_VAL("printed", out);
	if (!strstr(out, expect)) {
		pr_err("got:\n%s\nwant:\n%s", out, expect);
		free(out);
		return TEST_FAIL;
	}
	free(out);

	/* folded: one line per chain, callee first */
	cc.mode = CHAIN_FOLDED;
	out = print(&h, &so, &cc, true);
	TEST_ASSERT_VAL("folded", out && strstr(out, "75.00% leaf;b;a;main\n25.00% leaf;a;main\n"));
	free(out);

	/* threshold: 30% (of 400: 120) hides the 25% branch (100) */
	cc.mode = CHAIN_GRAPH_ABS;
	cc.min_percent = 30;
	out = print(&h, &so, &cc, true);
	if (!out || strstr(out, "--25.00%") || !strstr(out, "--75.00%--b"))
		pr_err("threshold output:\n%s", out ? out : "(null)");
	TEST_ASSERT_VAL("threshold", out && !strstr(out, "--25.00%") && strstr(out, "--75.00%--b"));
	free(out);
	hists__exit(&h);
	sort_order__exit(&so);
	fake_exit(&f);
	return TEST_OK;
}

static int test__sort_and_params(void)
{
	struct sort_order so;
	struct callchain_param cc;

	TEST_ASSERT_VAL("dso,sym", !sort_order__parse(&so, "dso,sym", NULL, false, false, false, NULL));
	TEST_ASSERT_EQUAL("keys", so.nr_keys, 2);
	TEST_ASSERT_EQUAL("cols", so.nr_cols, 3);
	TEST_ASSERT_EQUAL("first col overhead", so.cols[0].type, HPP_OVERHEAD);
	sort_order__exit(&so);
	TEST_ASSERT_VAL("bad key", sort_order__parse(&so, "dso,bogus", NULL, false, false, false, NULL) == -EINVAL);
	TEST_ASSERT_VAL("fields", !sort_order__parse(&so, NULL, "sym,overhead,sample", true, false, false, NULL));
	TEST_ASSERT_EQUAL("field cols", so.nr_cols, 3);
	TEST_ASSERT_EQUAL("fields sort key", so.keys[0], SORT_SYM);
	TEST_ASSERT_STREQ("overhead header with -F", sort_column__header(&so, HPP_OVERHEAD), "Overhead");
	sort_order__exit(&so);

	callchain_param__init(&cc);
	TEST_ASSERT_VAL("parse", !callchain_param__parse(&cc, "fractal,2,5,caller,count"));
	TEST_ASSERT_EQUAL("mode", cc.mode, CHAIN_GRAPH_REL);
	TEST_ASSERT_VAL("threshold", cc.min_percent == 2.0);
	TEST_ASSERT_EQUAL("limit", cc.print_limit, 5);
	TEST_ASSERT_EQUAL("order", cc.order, ORDER_CALLER);
	TEST_ASSERT_EQUAL("value", cc.value, CCVAL_COUNT);
	TEST_ASSERT_VAL("bad", callchain_param__parse(&cc, "graph,x") == -EINVAL);
	TEST_ASSERT_VAL("none", !callchain_param__parse(&cc, "none") && cc.mode == CHAIN_NONE);
	return TEST_OK;
}

static int test__many_samples(void)
{
	struct fake f;
	struct callchain_frame frames[16];
	struct callchain_cursor c = { .frames = frames, .alloc = 16 };
	struct callchain_param cc;
	struct sort_order so;
	struct hists h;
	const int s1[] = { 3, 2, 1, 0 };
	uint64_t sum = 0;

	fake_init(&f);
	callchain_param__init(&cc);
	cc.order = ORDER_CALLER;
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, true, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
	for (int i = 0; i < 1000000; i++)
		TEST_ASSERT_VAL("add", !add(&h, &f, &c, s1 + (i % 4), 4 - (i % 4), 1));
	TEST_ASSERT_VAL("resort", !hists__output_resort(&h, &so));
	TEST_ASSERT_EQUAL("entries", h.nr_sorted, 4);
	for (size_t i = 0; i < h.nr_sorted; i++)
		sum += h.sorted[i]->period;
	TEST_ASSERT_EQUAL("self sums to total", sum, 1000000);
	TEST_ASSERT_EQUAL("main children", find(&h, "main")->period_acc, 1000000);
	TEST_ASSERT_VAL("trie stays small", h.store.nr_nodes < 64);
	hists__exit(&h);
	sort_order__exit(&so);
	fake_exit(&f);
	return TEST_OK;
}

/*
 * hists__add_sample_self() names the self entry only when the sample
 * touched nothing else (no callchain trie, no children), and counting a
 * sample there with hists__count_self() gives the hists adding it in
 * full gives: the same entries, periods (user and kernel) and totals.
 */
static int test__count_self(void)
{
	struct fake f;
	struct callchain_param cc;
	struct sort_order so;
	struct hists full, memo;
	struct hist_entry *self, *seen[4] = { NULL };
	char levels[4] = { '.', 'k', '.', 'k' };

	fake_init(&f);
	callchain_param__init(&cc);
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, false, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&full, &so, &cc, false));
	TEST_ASSERT_VAL("init", !hists__init(&memo, &so, &cc, false));
	for (int i = 0; i < 1000; i++) {
		int k = (i * 7) % 4;
		struct hist_sample hs = {
			.thread = &f.thread, .comm = "tree", .cpu = 0, .period = 10 + k,
			.map = &f.map, .sym = f.syms[k], .addr = f.syms[k]->start + 4,
			.level = levels[k],
		};

		TEST_ASSERT_VAL("add", !hists__add_sample(&full, &hs));
		if (seen[k]) {
			hists__count_self(&memo, seen[k], hs.period, hs.level);
			continue;
		}
		TEST_ASSERT_VAL("add self", !hists__add_sample_self(&memo, &hs, &self));
		TEST_ASSERT_VAL("self entry named", self && self->sym == f.syms[k]);
		seen[k] = self;
	}
	TEST_ASSERT_VAL("resort", !hists__output_resort(&full, &so));
	TEST_ASSERT_VAL("resort", !hists__output_resort(&memo, &so));
	TEST_ASSERT_EQUAL("entries", memo.nr_sorted, full.nr_sorted);
	TEST_ASSERT_EQUAL("total", memo.total_period, full.total_period);
	TEST_ASSERT_EQUAL("samples", memo.nr_samples, full.nr_samples);
	for (size_t i = 0; i < full.nr_sorted; i++) {
		const struct hist_entry *a = full.sorted[i], *b = memo.sorted[i];

		TEST_ASSERT_VAL("same symbol", a->sym == b->sym);
		TEST_ASSERT_EQUAL("period", b->period, a->period);
		TEST_ASSERT_EQUAL("period_sys", b->period_sys, a->period_sys);
		TEST_ASSERT_EQUAL("period_us", b->period_us, a->period_us);
		TEST_ASSERT_EQUAL("nr_samples", b->nr_samples, a->nr_samples);
		TEST_ASSERT_EQUAL("period_acc", b->period_acc, a->period_acc);
	}
	hists__exit(&full);
	hists__exit(&memo);
	sort_order__exit(&so);
	/* callchain work: no self entry to count on */
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, true, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&memo, &so, &cc, true));
	{
		struct callchain_frame frames[4];
		struct callchain_cursor c = { .frames = frames, .alloc = 4 };
		const int s1[] = { 3, 2, 1, 0 };
		struct hist_sample hs = {
			.thread = &f.thread, .comm = "tree", .period = 1, .map = &f.map,
			.sym = f.syms[3], .addr = f.syms[3]->start + 4, .level = '.', .chain = &c,
		};

		make_chain(&f, &c, s1, 4);
		TEST_ASSERT_VAL("add self", !hists__add_sample_self(&memo, &hs, &self));
		TEST_ASSERT_VAL("no self entry with children", !self);
	}
	hists__exit(&memo);
	sort_order__exit(&so);
	fake_exit(&f);
	return TEST_OK;
}

/*
 * Samples whose chain carries a chain_id (the resolver's cache identity)
 * are replayed from the per-entry memo after the first one: the result
 * must be the same as adding every sample in full (chain_id 0), in
 * children and self mode, caller and callee order, recursion included.
 */
static int test__chain_memo(void)
{
	const int s1[] = { 3, 2, 1, 0 }, s2[] = { 1, 2, 1, 0 }, s3[] = { 1, 0 }, s4[] = { 2, 1, 0 };
	const int *chains[] = { s1, s2, s3, s4 };
	const int lens[] = { 4, 4, 2, 3 };

	for (int mode = 0; mode < 4; mode++) {
		bool cumulate = mode & 1;
		struct fake f;
		struct callchain_frame frames[16];
		struct callchain_cursor c = { .frames = frames, .alloc = 16 };
		struct callchain_param cc;
		struct sort_order so, so2;
		struct hists full, memo;
		char *a, *b;

		fake_init(&f);
		callchain_param__init(&cc);
		cc.order = mode & 2 ? ORDER_CALLER : ORDER_CALLEE;
		TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, cumulate, false, false, NULL));
		TEST_ASSERT_VAL("sort", !sort_order__parse(&so2, NULL, NULL, cumulate, false, false, NULL));
		TEST_ASSERT_VAL("init", !hists__init(&full, &so, &cc, true));
		TEST_ASSERT_VAL("init", !hists__init(&memo, &so2, &cc, true));
		for (int i = 0; i < 4000; i++) {
			int k = (i * 7 + i / 13) % 4;
			uint64_t period = 1 + i % 5;

			c.chain_id = 0;
			TEST_ASSERT_VAL("add full", !add(&full, &f, &c, chains[k], lens[k], period));
			c.chain_id = 100 + k;
			TEST_ASSERT_VAL("add memo", !add(&memo, &f, &c, chains[k], lens[k], period));
		}
		TEST_ASSERT_VAL("resort", !hists__output_resort(&full, &so));
		TEST_ASSERT_VAL("resort", !hists__output_resort(&memo, &so2));
		TEST_ASSERT_EQUAL("entries", memo.nr_sorted, full.nr_sorted);
		TEST_ASSERT_EQUAL("total", memo.total_period, full.total_period);
		TEST_ASSERT_EQUAL("trie nodes", memo.store.nr_nodes, full.store.nr_nodes);
		for (size_t i = 0; i < full.nr_sorted; i++) {
			TEST_ASSERT_VAL("same entry", full.sorted[i]->sym == memo.sorted[i]->sym);
			TEST_ASSERT_EQUAL("self", memo.sorted[i]->period, full.sorted[i]->period);
			TEST_ASSERT_EQUAL("children", memo.sorted[i]->period_acc, full.sorted[i]->period_acc);
			TEST_ASSERT_EQUAL("samples", memo.sorted[i]->nr_samples_acc,
					  full.sorted[i]->nr_samples_acc);
		}
		for (uint32_t n = 1; n < full.store.nr_nodes; n++) {
			TEST_ASSERT_EQUAL("node hits", memo.store.nodes[n].hit, full.store.nodes[n].hit);
			TEST_ASSERT_EQUAL("node count", memo.store.nodes[n].count, full.store.nodes[n].count);
		}
		a = print(&full, &so, &cc, true);
		b = print(&memo, &so2, &cc, true);
		TEST_ASSERT_VAL("printed", a && b);
		if (strcmp(a, b))
			pr_err("without memo:\n%s\nwith memo:\n%s", a, b);
		TEST_ASSERT_VAL("same text", !strcmp(a, b));
		free(a);
		free(b);
		hists__exit(&full);
		hists__exit(&memo);
		sort_order__exit(&so);
		sort_order__exit(&so2);
		fake_exit(&f);
	}
	return TEST_OK;
}

static uint64_t rnd_state = 0x243f6a8885a308d3ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/*
 * The compact collapse keys give hist_entry__cmp_collapse()'s sign for
 * every pair of entries, for each sort order they encode: comms that are
 * equal strings at different addresses and NULL, DSOs with equal and
 * missing names and none at all, threads sharing a tid, cpus below zero,
 * symbols in both halves of the address space and aliases (same range,
 * another symbol), unresolved ips anywhere in 64 bits.
 */
static int test__collapse_keys(void)
{
	static char comm_a1[] = "python3", comm_a2[] = "python3", comm_b[] = "xz";
	const char *comms[] = { comm_a1, comm_a2, comm_b, NULL };
	struct dso dsos[4];
	struct thread threads[3];
	struct symbol *syms[12];
	struct hist_entry e[400], *ep[400];
	const char *orders[] = { "comm,dso,sym", "pid,sym", "dso,symoff", "cpu,comm,dso,sym",
				 "comm", "dso,cpu", "sym", "dso,sym,comm" };
	size_t n = ARRAY_SIZE(e);
	int encoded = 0;

	memset(dsos, 0, sizeof(dsos));
	dsos[0].short_name = (char *)"libc.so.6";
	dsos[1].short_name = (char *)"libc.so.6";
	dsos[2].short_name = (char *)"[kernel.kallsyms]";
	memset(threads, 0, sizeof(threads));
	threads[0].tid = 7;
	threads[1].tid = 7;
	threads[2].tid = 3;
	for (size_t i = 0; i < ARRAY_SIZE(syms); i++) {
		syms[i] = calloc(1, sizeof(struct symbol) + 2);
		TEST_ASSERT_VAL("sym", syms[i]);
		syms[i]->start = (i & 1 ? 0xffffffff81000000ULL : 0x1000) + (i / 2 % 3) * 0x100;
		syms[i]->end = syms[i]->start + 0x80;	/* i and i + 6: aliases */
	}
	for (size_t i = 0; i < n; i++) {
		struct hist_entry *h = &e[i];
		uint64_t r = rnd();

		memset(h, 0, sizeof(*h));
		h->comm = comms[r % 4];
		h->dso = r >> 4 & 4 ? NULL : &dsos[r >> 8 & 3];
		h->thread = r >> 12 & 3 ? &threads[r >> 14 & 1 ? 2 : r >> 15 & 1] : NULL;
		h->tid = h->thread ? h->thread->tid : -1;
		h->cpu = (int32_t)(r >> 16 & 3) - 1;
		h->sym = r >> 20 & 3 ? syms[(r >> 24) % ARRAY_SIZE(syms)] : NULL;
		h->ip = r >> 28 & 1 ? rnd() : rnd() >> 40;
		h->addr = r >> 32 & 7;
		h->seq = i;
		ep[i] = h;
	}
	for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
		struct sort_order so;
		struct collapse_keys ck;
		int err;

		TEST_ASSERT_VAL("sort", !sort_order__parse(&so, orders[o], NULL, false, false, false, NULL));
		err = collapse_keys__init(&ck, &so, ep, n);
		if (!strcmp(orders[o], "dso,sym,comm")) {
			TEST_ASSERT_EQUAL("a key after sym is not encoded", err, -ENOTSUP);
		} else {
			TEST_ASSERT_EQUAL(orders[o], err, 0);
			encoded++;
			for (size_t a = 0; a < n; a++)
				for (size_t b = 0; b < n; b++)
					if (sign(collapse_keys__cmp(&ck, a, b)) !=
					    sign(hist_entry__cmp_collapse(&so, ep[a], ep[b]))) {
						pr_err("%s: entries %zu and %zu compare apart\n",
						       orders[o], a, b);
						TEST_ASSERT_VAL("same sign", false);
					}
			collapse_keys__exit(&ck);
		}
		sort_order__exit(&so);
	}
	TEST_ASSERT_EQUAL("orders encoded", encoded, 7);
	/* output keys: values with many ties, the children tie rule in both
	 * orders, names equal at different addresses, elided columns */
	for (size_t i = 0; i < n; i++) {
		uint64_t r = rnd();

		e[i].period = r % 3 * 1000;
		e[i].period_acc = e[i].period + (r >> 8) % 3 * 1000;
		e[i].nr_samples = (r >> 16) % 3;
		e[i].max_depth = (uint32_t)((r >> 24) % 4);
	}
	snprintf(syms[1]->name, 2, "%s", "f");
	snprintf(syms[2]->name, 2, "%s", "f");
	snprintf(syms[3]->name, 2, "%s", "g");
	for (size_t o = 0; o < 8; o++) {
		const char *sorts[] = { NULL, "dso,symoff", "pid,cpu", "sym,comm" };
		struct sort_order so;
		struct output_keys ok;

		TEST_ASSERT_VAL("sort", !sort_order__parse(&so, sorts[o % 4], o & 4 ? "sample,dso,sym" : NULL,
							   !(o & 4), false, false, NULL));
		so.depth_tiebreak = !(o & 4);
		so.caller_order = o & 1;
		if (o == 2)
			sort_order__elide(&so, SORT_PID);
		TEST_ASSERT_EQUAL("output keys", output_keys__init(&ok, &so, ep, n), 0);
		for (size_t a = 0; a < n; a++)
			for (size_t b = 0; b < n; b++)
				if (sign(output_keys__cmp(&ok, a, b)) !=
				    sign(hist_entry__cmp_output(&so, ep[a], ep[b]))) {
					pr_err("output order %zu: entries %zu and %zu compare apart\n",
					       o, a, b);
					TEST_ASSERT_VAL("same output sign", false);
				}
		output_keys__exit(&ok);
		sort_order__exit(&so);
	}
	/* entries with no comm, DSO or symbol at all (a stripped binary) */
	for (size_t i = 0; i < 3; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].ip = 0x1000 * (i + 1);
		e[i].period = e[i].period_acc = 5;
	}
	for (size_t o = 0; o < 2; o++) {
		struct sort_order so;
		struct collapse_keys ck;
		struct output_keys ok;

		TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, o, false, false, NULL));
		TEST_ASSERT_EQUAL("collapse keys, no names", collapse_keys__init(&ck, &so, ep, 3), 0);
		TEST_ASSERT_EQUAL("output keys, no names", output_keys__init(&ok, &so, ep, 3), 0);
		for (size_t a = 0; a < 3; a++)
			for (size_t b = 0; b < 3; b++) {
				TEST_ASSERT_VAL("collapse", sign(collapse_keys__cmp(&ck, a, b)) ==
					sign(hist_entry__cmp_collapse(&so, ep[a], ep[b])));
				TEST_ASSERT_VAL("output", sign(output_keys__cmp(&ok, a, b)) ==
					sign(hist_entry__cmp_output(&so, ep[a], ep[b])));
			}
		collapse_keys__exit(&ck);
		output_keys__exit(&ok);
		sort_order__exit(&so);
	}
	for (size_t i = 0; i < ARRAY_SIZE(syms); i++)
		free(syms[i]);
	return TEST_OK;
}

/*
 * Symbols over one range (an inlined frame's symbol has its function's
 * range) order by name, whatever their addresses: kept symbol tables are
 * mapped and inlined symbols on the heap, and with ASLR the order of their
 * addresses changed from run to run, and with it report's order of equal
 * entries (a 74 K-sample recording printed 4 orders in 4 runs). Both
 * address orders, in the compare and in the compact keys.
 */
static int test__same_range_syms(void)
{
	struct dso dso = { .short_name = (char *)"prog" };
	struct hist_entry e[2], *ep[2] = { &e[0], &e[1] };
	struct sort_order so;
	char *block = calloc(2, 64);
	struct symbol *lo = (struct symbol *)block, *hi = (struct symbol *)(block + 64);

	TEST_ASSERT_VAL("symbols", block);
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, "comm,dso,sym", NULL, true, false, false, NULL));
	for (int swap = 0; swap < 2; swap++) {
		struct symbol *fn = swap ? hi : lo, *inl = swap ? lo : hi;
		struct collapse_keys ck;

		*fn = (struct symbol){ .start = 0x1130, .end = 0x1180 };
		*inl = (struct symbol){ .start = 0x1130, .end = 0x1180, .inlined = true };
		strcpy(fn->name, "z_fn");
		strcpy(inl->name, "a_inl");
		memset(e, 0, sizeof(e));
		e[0] = (struct hist_entry){ .comm = "prog", .dso = &dso, .sym = fn, .seq = 0 };
		e[1] = (struct hist_entry){ .comm = "prog", .dso = &dso, .sym = inl, .seq = 1 };
		TEST_ASSERT_VAL("a_inl (inlined) before z_fn, by name",
				hist_entry__cmp_collapse(&so, &e[1], &e[0]) < 0 &&
				hist_entry__cmp_collapse(&so, &e[0], &e[1]) > 0);
		TEST_ASSERT_EQUAL("collapse keys", collapse_keys__init(&ck, &so, ep, 2), 0);
		TEST_ASSERT_VAL("the compact keys too",
				collapse_keys__cmp(&ck, 1, 0) < 0 && collapse_keys__cmp(&ck, 0, 1) > 0);
		collapse_keys__exit(&ck);
	}
	sort_order__exit(&so);
	free(block);
	return TEST_OK;
}

/*
 * Report text formatted on helper threads (PRF_THREADS > 1, entries in
 * chunks) is the text of the one-thread loop: children mode with
 * callchain graphs, enough entries for many chunks.
 */
static int test__parallel_print(void)
{
	enum { NSYMS = 1500, DEPTH = 6 };
	struct fake f;
	struct symbol **syms = make_syms(NSYMS, "fn");
	struct callchain_frame frames[DEPTH];
	struct callchain_cursor c = { .frames = frames, .alloc = DEPTH };
	struct callchain_param cc;
	struct sort_order so;
	struct hists h;
	char *one, *many, *two;
	const char *old = getenv("PRF_THREADS");

	TEST_ASSERT_VAL("syms", syms);
	fake_init(&f);
	callchain_param__init(&cc);
	cc.min_percent = 0;	/* every chain printed */
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, true, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
	for (int i = 0; i < 30000; i++) {
		struct hist_sample hs = {
			.thread = &f.thread, .comm = "tree", .cpu = 0, .period = 1 + rnd() % 7,
			.map = &f.map, .level = '.', .chain = &c,
		};

		c.nr = DEPTH;
		c.chain_id = 0;
		for (int d = 0; d < DEPTH; d++) {
			/* callers from a small set, leaves from all symbols */
			set_frame(&f, &frames[d],
				  syms[d ? rnd() % (NSYMS / (d * 40)) : rnd() % NSYMS]);
		}
		hs.sym = frames[0].sym;
		hs.addr = frames[0].addr;
		TEST_ASSERT_VAL("add", !hists__add_sample(&h, &hs));
	}
	TEST_ASSERT_VAL("resort", !hists__output_resort(&h, &so));
	TEST_ASSERT_VAL("many chunks of entries", h.nr_sorted > 4 * 256);
	tunable__set(TUNABLE_THREADS, "1");
	one = print(&h, &so, &cc, true);
	tunable__set(TUNABLE_THREADS, "3");
	many = print(&h, &so, &cc, true);
	/* one helper: the writer formats chunks ahead too */
	tunable__set(TUNABLE_THREADS, "2");
	two = print(&h, &so, &cc, true);
	tunable__set(TUNABLE_THREADS, old);
	TEST_ASSERT_VAL("printed", one && many && two);
	pr_debug("parallel print: %zu entries, %zu bytes\n", h.nr_sorted, strlen(one));
	TEST_ASSERT_VAL("long text", strlen(one) > 1000000);
	TEST_ASSERT_VAL("same text", !strcmp(one, many));
	TEST_ASSERT_VAL("same text, one helper", !strcmp(one, two));
	free(one);
	free(many);
	free(two);
	hists__exit(&h);
	sort_order__exit(&so);
	free_syms(syms, NSYMS);
	fake_exit(&f);
	return TEST_OK;
}

static int collapse_trees_case(struct symbol **syms, int nsyms, unsigned int unresolved_in)
{
	enum { DEPTH = 5 };
	struct fake f;
	struct callchain_frame frames[DEPTH];
	struct callchain_cursor c = { .frames = frames, .alloc = DEPTH };
	struct callchain_param cc;
	struct sort_order so;
	struct hists h, ahead;
	struct hist_entry **one;
	const char *old = getenv("PRF_THREADS");
	int halves = 0;

	fake_init(&f);
	callchain_param__init(&cc);
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, true, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
	TEST_ASSERT_VAL("init", !hists__init(&ahead, &so, &cc, true));
	for (int i = 0; i < 40000; i++) {
		struct hist_sample hs = {
			.thread = &f.thread, .comm = i % 3 ? "tree" : "grove", .cpu = 0,
			.period = 1 + rnd() % 3, .map = &f.map, .level = '.', .chain = &c,
		};

		c.nr = 1 + rnd() % DEPTH;
		c.chain_id = 0;
		for (unsigned int d = 0; d < c.nr; d++) {
			if (rnd() % unresolved_in) {
				set_frame(&f, &frames[d], syms[rnd() % nsyms]);
				continue;
			}
			memset(&frames[d], 0, sizeof(frames[d]));
			frames[d].map = &f.map;
			frames[d].addr = frames[d].ip = rnd();	/* both halves */
			frames[d].cpumode = PERF_RECORD_MISC_USER;
		}
		hs.sym = frames[0].sym;
		hs.addr = frames[0].addr;
		TEST_ASSERT_VAL("add", !hists__add_sample(&h, &hs));
		TEST_ASSERT_VAL("add", !hists__add_sample(&ahead, &hs));
		/* part of the input tree built ahead, as report's feed does */
		if (i % 200 == 199)
			hists__presort(&ahead, 64);
	}
	tunable__set(TUNABLE_THREADS, "1");
	TEST_ASSERT_VAL("resort, one thread", !hists__output_resort(&h, &so));
	one = malloc(h.nr_sorted * sizeof(*one));
	TEST_ASSERT_VAL("copy", one);
	memcpy(one, h.sorted, h.nr_sorted * sizeof(*one));
	tunable__set(TUNABLE_THREADS, "2");
	TEST_ASSERT_VAL("resort, second CPU", !hists__output_resort(&h, &so));
	TEST_ASSERT_VAL("resort, tree built ahead", !hists__output_resort(&ahead, &so));
	tunable__set(TUNABLE_THREADS, old);
	for (size_t i = 0; i < h.nr_sorted; i++)
		if (!h.sorted[i]->sym)
			halves |= 1 << (h.sorted[i]->ip >> 63);
	pr_debug("collapse trees: %zu entries, 1 frame in %u unresolved\n", h.nr_sorted,
		 unresolved_in);
	TEST_ASSERT_VAL("unresolved in both halves", halves == 3);
	TEST_ASSERT_VAL("enough entries for the second CPU", h.nr_sorted >= 20000);
	for (size_t i = 0; i < h.nr_sorted; i++)
		TEST_ASSERT_VAL("same order", one[i] == h.sorted[i]);
	TEST_ASSERT_EQUAL("entries, tree built ahead", ahead.nr_sorted, h.nr_sorted);
	for (size_t i = 0; i < h.nr_sorted; i++)
		TEST_ASSERT_VAL("same order, tree built ahead", one[i]->seq == ahead.sorted[i]->seq);
	free(one);
	hists__exit(&h);
	hists__exit(&ahead);
	sort_order__exit(&so);
	fake_exit(&f);
	return TEST_OK;
}

/*
 * perf's collapse trees (cmp_collapse not an order: unresolved addresses
 * of one DSO in both halves of the address space, and a comm key, so two
 * trees) give the same output order on one thread as with a second CPU,
 * which builds the output keys during the first tree and the output order
 * during the second (enough entries for that: at least 20000). With many
 * unresolved frames the second tree moves entries and the order is
 * computed again; with few it keeps the first tree's order and the one
 * computed beside it is used (-v shows which). The same with part of the
 * first tree built ahead while samples were added (hists__presort()).
 */
static int test__collapse_trees(void)
{
	enum { NSYMS = 30000 };
	struct symbol **syms = make_syms(NSYMS, "t");
	int ret;

	TEST_ASSERT_VAL("syms", syms);
	ret = collapse_trees_case(syms, 800, 2);
	if (ret == TEST_OK)
		ret = collapse_trees_case(syms, NSYMS, 20000);
	free_syms(syms, NSYMS);
	return ret;
}

/*
 * Samples handed to a threaded hists feed end up as when added in line:
 * same entries, periods, trie and text, in both children modes, with
 * chain ids (memo replays) and without, for two events' hists sharing
 * chain ids (and so the feed's table of chains). The caller's
 * frames are overwritten right after each hand-over, as a resolver
 * reusing its cursor does, so a feed that kept pointers to them would add
 * garbage.
 */
static int test__feed(void)
{
	enum { NSYMS = 300, DEPTH = 8, NR = 20000 };
	struct symbol **syms = make_syms(NSYMS, "fn");
	const char *old = getenv("PRF_THREADS");

	TEST_ASSERT_VAL("syms", syms);
	tunable__set(TUNABLE_THREADS, "2");	/* a second thread even on one CPU */
	for (int mode = 0; mode < 2; mode++) {
		bool cumulate = mode;
		struct fake f;
		struct callchain_frame frames[DEPTH];
		struct callchain_cursor c = { .frames = frames, .alloc = DEPTH };
		struct callchain_param cc;
		/* [0], [1]: two events' hists in line; [2], [3]: through the feed */
		struct sort_order so[4];
		struct hists h[4];
		struct hists_feed *feed = hists_feed__new(true);

		TEST_ASSERT_VAL("feed", feed);
		TEST_ASSERT_VAL("threaded", hists_feed__threaded(feed));
		fake_init(&f);
		callchain_param__init(&cc);
		cc.min_percent = 0;
		for (int k = 0; k < 4; k++) {
			TEST_ASSERT_VAL("sort", !sort_order__parse(&so[k], NULL, NULL, cumulate, false,
								   false, NULL));
			TEST_ASSERT_VAL("init", !hists__init(&h[k], &so[k], &cc, true));
		}
		rnd_state = 0x243f6a8885a308d3ULL;
		for (int i = 0; i < NR; i++) {
			struct hist_sample hs = {
				.thread = &f.thread, .comm = "tree", .cpu = 0, .period = 1 + rnd() % 7,
				.map = &f.map, .level = '.', .chain = &c,
			};
			unsigned int depth = 1 + rnd() % DEPTH;
			uint64_t shape = rnd() % 64;
			int ev = i % 4 == 3;	/* the second event: its own frame ids */

			/* a few chain shapes repeat (with ids: memo replays) */
			c.chain_id = i % 3 ? 0 : 1000 + shape;
			if (c.chain_id)
				depth = DEPTH;	/* one chain per id */
			c.nr = depth;
			for (unsigned int d = 0; d < depth; d++)
				set_frame(&f, &frames[d], c.chain_id ? syms[(shape * 7 + d * 13) % NSYMS]
								     : syms[rnd() % NSYMS]);
			hs.sym = frames[0].sym;
			hs.addr = frames[0].addr;
			TEST_ASSERT_VAL("add in line", !hists__add_sample(&h[ev], &hs));
			TEST_ASSERT_VAL("add fed", !hists_feed__add(feed, &h[2 + ev], &hs));
			memset(frames, 0xa5, sizeof(frames));	/* the cursor is reused */
			if (i == NR / 2)
				TEST_ASSERT_VAL("sync", !hists_feed__sync(feed));
		}
		TEST_ASSERT_VAL("sync", !hists_feed__sync(feed));
		hists_feed__delete(feed);
		for (int ev = 0; ev < 2; ev++) {
			struct hists *in = &h[ev], *fed = &h[2 + ev];
			char *a, *b;

			TEST_ASSERT_EQUAL("samples", fed->nr_samples, in->nr_samples);
			TEST_ASSERT_VAL("resort", !hists__output_resort(in, &so[ev]));
			TEST_ASSERT_VAL("resort", !hists__output_resort(fed, &so[2 + ev]));
			TEST_ASSERT_EQUAL("entries", fed->nr_sorted, in->nr_sorted);
			TEST_ASSERT_EQUAL("total", fed->total_period, in->total_period);
			TEST_ASSERT_EQUAL("trie nodes", fed->store.nr_nodes, in->store.nr_nodes);
			a = print(in, &so[ev], &cc, true);
			b = print(fed, &so[2 + ev], &cc, true);
			TEST_ASSERT_VAL("printed", a && b);
			TEST_ASSERT_VAL("long text", strlen(a) > 10000);
			TEST_ASSERT_VAL("same text", !strcmp(a, b));
			free(a);
			free(b);
		}
		for (int k = 0; k < 4; k++) {
			hists__exit(&h[k]);
			sort_order__exit(&so[k]);
		}
		fake_exit(&f);
	}
	tunable__set(TUNABLE_THREADS, old);
	free_syms(syms, NSYMS);
	return TEST_OK;
}

/*
 * The output order by sorting (one thread: the children tie rule is an
 * order) equals perf's tree ($PRF_OUTPUT_TREE=1), with many entries tied
 * on their children value at different depths, caller and callee order.
 */
static int test__output_sort(void)
{
	enum { NSYMS = 2000, DEPTH = 6 };
	struct symbol **syms = make_syms(NSYMS, "s");

	TEST_ASSERT_VAL("syms", syms);
	for (int mode = 0; mode < 2; mode++) {
		struct fake f;
		struct callchain_frame frames[DEPTH];
		struct callchain_cursor c = { .frames = frames, .alloc = DEPTH };
		struct callchain_param cc;
		struct sort_order so;
		struct hists h;
		struct hist_entry **tree;
		size_t ties = 0;

		fake_init(&f);
		callchain_param__init(&cc);
		cc.order = mode ? ORDER_CALLER : ORDER_CALLEE;
		TEST_ASSERT_VAL("sort", !sort_order__parse(&so, NULL, NULL, true, false, false, NULL));
		TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, true));
		for (int i = 0; i < 3000; i++) {
			struct hist_sample hs = {
				.thread = &f.thread, .comm = "tree", .cpu = 0, .period = 1 + rnd() % 2,
				.map = &f.map, .level = '.', .chain = &c,
			};

			c.nr = 1 + rnd() % DEPTH;
			c.chain_id = 0;
			for (unsigned int d = 0; d < c.nr; d++)
				set_frame(&f, &frames[d], syms[rnd() % NSYMS]);
			hs.sym = frames[0].sym;
			hs.addr = frames[0].addr;
			TEST_ASSERT_VAL("add", !hists__add_sample(&h, &hs));
		}
		tunable__set(TUNABLE_OUTPUT_TREE, "1");
		TEST_ASSERT_VAL("resort (tree)", !hists__output_resort(&h, &so));
		tunable__set(TUNABLE_OUTPUT_TREE, NULL);
		tree = malloc(h.nr_sorted * sizeof(*tree));
		TEST_ASSERT_VAL("copy", tree);
		memcpy(tree, h.sorted, h.nr_sorted * sizeof(*tree));
		TEST_ASSERT_VAL("resort (sort)", !hists__output_resort(&h, &so));
		for (size_t i = 0; i + 1 < h.nr_sorted; i++)
			if (tree[i]->period_acc == tree[i + 1]->period_acc &&
			    tree[i]->max_depth != tree[i + 1]->max_depth)
				ties++;
		pr_debug("output sort: %zu entries, %zu ties at different depths\n", h.nr_sorted,
			 ties);
		TEST_ASSERT_VAL("depth ties", ties >= 5);
		for (size_t i = 0; i < h.nr_sorted; i++)
			TEST_ASSERT_VAL("same order", tree[i] == h.sorted[i]);
		free(tree);
		hists__exit(&h);
		sort_order__exit(&so);
		fake_exit(&f);
	}
	free_syms(syms, NSYMS);
	return TEST_OK;
}

/*
 * Trie children: short lists are scanned, long ones indexed once they
 * grow long (callchain-tree.c). Chains under one root with 600 distinct
 * first frames, appended in three different orders, interleaved with
 * chains under a second root that stays short, must find their nodes
 * again every time: no node twice, every leaf the same, hits summed.
 */
static int test__store_children(void)
{
	enum { NR = 600 };
	struct callchain_store st;
	uint32_t *leaf = calloc(NR, sizeof(*leaf)), wide, narrow, nodes;

	TEST_ASSERT_VAL("alloc", leaf);
	TEST_ASSERT_VAL("init", !callchain_store__init(&st));
	wide = callchain_store__new_root(&st);
	narrow = callchain_store__new_root(&st);
	TEST_ASSERT_VAL("roots", wide && narrow);
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < NR; i++) {
			/* forward, backward, then a stride through all */
			uint32_t k = 1 + (pass == 0 ? i : pass == 1 ? NR - 1 - i : (i * 7) % NR);
			uint32_t ids[2] = { k, 1000 + k % 3 }, sids[2] = { 1 + k % 3, 2000 };
			uint32_t l = callchain_store__append_leaf(&st, wide, ids, 2, k);

			TEST_ASSERT_VAL("append", l);
			if (!pass)
				leaf[k - 1] = l;
			TEST_ASSERT_EQUAL("same leaf", l, leaf[k - 1]);
			TEST_ASSERT_VAL("append short",
					callchain_store__append_leaf(&st, narrow, sids, 2, 1));
		}
		if (!pass)
			nodes = st.nr_nodes;
		TEST_ASSERT_EQUAL("no new nodes", st.nr_nodes, nodes);
	}
	/* [0] unused, 2 roots, 2 nodes per wide chain, 3 + 3 narrow nodes */
	TEST_ASSERT_EQUAL("nodes", nodes, 1 + 2 + 2 * NR + 6);
	for (int k = 1; k <= NR; k++) {
		TEST_ASSERT_EQUAL("hit", st.nodes[leaf[k - 1]].hit, 3 * (uint64_t)k);
		TEST_ASSERT_EQUAL("count", st.nodes[leaf[k - 1]].count, 3);
	}
	callchain_store__exit(&st);
	free(leaf);
	return TEST_OK;
}

DEFINE_SUITE(hist, "report histograms, sort keys and callchain trees",
	     TEST_CASE(self_accounting, "self overhead, samples column, entry order"),
	     TEST_CASE(children_accounting, "children overhead, recursion counted once"),
	     TEST_CASE(callchain_graph_layout, "callchain graph/folded text as perf prints it"),
	     TEST_CASE(sort_and_params, "-s/-F parsing and -g parsing"),
	     TEST_CASE(many_samples, "1M samples accumulate correctly"),
	     TEST_CASE(chain_memo, "samples replayed per chain id equal samples added in full"),
	     TEST_CASE(count_self, "a sample counted in its self entry equals the sample added in full"),
	     TEST_CASE(collapse_keys, "compact collapse and output keys order as the compares"),
	     TEST_CASE(parallel_print, "text formatted on helper threads equals one thread's"),
	     TEST_CASE(feed, "samples added on a second thread (report's pipeline) equal in line"),
	     TEST_CASE(output_sort, "output order by sorting equals perf's tree (children ties)"),
	     TEST_CASE(store_children, "trie children found again through lists and the index"),
	     TEST_CASE(collapse_trees, "collapse trees with the output keys built meanwhile"),
	     TEST_CASE(same_range_syms, "symbols over one range (inlined frames) order by name, not address"));
