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
#include "../util/analysis/sort.h"
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

/* Chain callee first from symbol indexes, e.g. {3,2,1,0} = leaf b a main. */
static void make_chain(struct fake *f, struct callchain_cursor *c, const int *idx, int n)
{
	c->nr = 0;
	for (int i = 0; i < n; i++) {
		struct callchain_frame *fr = &c->frames[c->nr++];

		memset(fr, 0, sizeof(*fr));
		fr->map = &f->map;
		fr->sym = f->syms[idx[i]];
		fr->addr = fr->sym->start + 4;
		fr->ip = f->map.start + fr->addr;
		fr->cpumode = PERF_RECORD_MISC_USER;
	}
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

DEFINE_SUITE(hist, "report histograms, sort keys and callchain trees",
	     TEST_CASE(self_accounting, "self overhead, samples column, entry order"),
	     TEST_CASE(children_accounting, "children overhead, recursion counted once"),
	     TEST_CASE(callchain_graph_layout, "callchain graph/folded text as perf prints it"),
	     TEST_CASE(sort_and_params, "-s/-F parsing and -g parsing"),
	     TEST_CASE(many_samples, "1M samples accumulate correctly"),
	     TEST_CASE(chain_memo, "samples replayed per chain id equal samples added in full"));
