// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of prf top's analysis (util/analysis/top.h) on hists built
 * in memory: the ageing of entries between refreshes, resolved and
 * unresolved, and the samples held back while symbols load.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/analysis/callchain-tree.h"
#include "../util/analysis/hist.h"
#include "../util/analysis/sort.h"
#include "../util/analysis/top.h"
#include "../util/format/event.h"
#include "../util/kernel/evsel.h"
#include "../util/model/callchain.h"
#include "../util/model/dso.h"
#include "../util/model/machine.h"
#include "../util/model/map.h"
#include "../util/session/resolve.h"

/* The entry of sym (NULL: the unresolved one at addr) in h, or NULL. */
static struct hist_entry *entry_of(struct hists *h, const struct symbol *sym, uint64_t addr)
{
	for (size_t b = 0; h->htab && b <= h->hmask; b++)
		for (struct hist_entry *he = h->htab[b]; he; he = he->next)
			if (he->sym == sym && (sym || he->addr == addr))
				return he;
	return NULL;
}

/*
 * perf's ageing keeps 7/8 of a period per refresh; an unresolved address
 * no sample hit for a while keeps 4/8: with a period of 250000 (one
 * sample at 4000 Hz) it is gone after about 20 refreshes, a resolved
 * entry of one sample after about 90, and an unresolved address hit at
 * every refresh ages as perf's.
 */
static int test__decay_unresolved(void)
{
	struct dso dso = { .long_name = (char *)"/bin/x", .short_name = (char *)"x" };
	struct map map = { .start = 0x400000, .end = 0x500000, .dso = &dso };
	struct thread thread = { .pid = 7, .tid = 7, .comm = "x", .comm_set = true };
	struct symbol *sym = calloc(1, sizeof(*sym) + 4);
	struct callchain_param cc;
	struct sort_order so;
	struct hists h;
	struct hist_sample hs = {
		.thread = &thread, .comm = "x", .cpu = 0, .period = 250000, .map = &map,
		.level = '.',
	};
	int gone_unres = 0, gone_res = 0;

	TEST_ASSERT_VAL("sym", sym);
	sym->start = 0x1000;
	sym->end = 0x1100;
	strcpy(sym->name, "f");
	callchain_param__init(&cc);
	TEST_ASSERT_VAL("sort", !sort_order__parse(&so, "dso,sym", NULL, false, false, false, NULL));
	TEST_ASSERT_VAL("init", !hists__init(&h, &so, &cc, false));
	hs.sym = sym;
	hs.addr = 0x1010;
	TEST_ASSERT_VAL("add resolved", !hists__add_sample(&h, &hs));
	hs.sym = NULL;
	hs.addr = 0x9000;
	TEST_ASSERT_VAL("add unresolved", !hists__add_sample(&h, &hs));
	for (int r = 1; r <= 120; r++) {
		struct hist_entry *u, *s;

		hs.addr = 0x9100;	/* a hot unresolved address: a sample each time */
		TEST_ASSERT_VAL("add hot", !hists__add_sample(&h, &hs));
		TEST_ASSERT_VAL("decay", !top_hists__decay(&h));
		u = entry_of(&h, NULL, 0x9000);
		s = entry_of(&h, sym, 0);
		if (!gone_unres && u && !u->period)
			gone_unres = r;
		if (!gone_res && s && !s->period)
			gone_res = r;
		/* the hot one: 250000 * 7/8 and a new sample per refresh,
		 * towards 8 * 250000 * 7/8 = 1750000 as perf's */
		if (r == 120)
			TEST_ASSERT_VAL("hot unresolved ages as perf's",
					entry_of(&h, NULL, 0x9100)->period > 1700000);
	}
	pr_debug("one-sample entries gone after %d (unresolved) and %d (resolved) refreshes\n",
		 gone_unres, gone_res);
	TEST_ASSERT_VAL("unresolved gone", gone_unres > 0 && gone_unres <= 25);
	TEST_ASSERT_VAL("resolved ages 7/8", gone_res >= 75);
	hists__exit(&h);
	sort_order__exit(&so);
	free(sym);
	return TEST_OK;
}

/* Records held back come back in order, parsed again, with what they
 * were resolved to when they came: their thread (also once released by
 * the machine), comm (also once changed) and map (also once unmapped),
 * the symbol looked up again in that map; a record held again stays. */
struct replay_arg {
	int seen;
	uint64_t ips[4];
	char comms[4][16];	/* copies: rs->comm lives as long as the call */
	struct thread *threads[4];
	struct symbol *syms[4];
	struct top_held *h;
};

static int replay_cb(void *arg, union perf_event *event, struct resolved_sample *rs,
		     unsigned long deferrals)
{
	struct replay_arg *ra = arg;

	(void)deferrals;
	ra->ips[ra->seen] = rs->sample->ip;
	snprintf(ra->comms[ra->seen], sizeof(ra->comms[0]), "%s", rs->comm);
	ra->threads[ra->seen] = rs->thread;
	ra->syms[ra->seen++] = rs->al.sym;
	/* the second one waits again */
	return rs->sample->ip == 0x2000 ? top_held__add(ra->h, event, rs, true) : 0;
}

static int test__held_replay(void)
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct evsel evsel = { .attr = attr };
	struct machine *m = machine__new_host();
	struct top_held held = { 0 };
	struct replay_arg ra = { .h = &held };
	struct {
		struct perf_event_header header;
		uint64_t ip;
		uint32_t pid, tid;
	} rec = { .header = { .type = PERF_RECORD_SAMPLE, .size = sizeof(rec) } };
	struct dso *dso = dso__new("/nonexistent/held");
	struct map *map = dso ? map__new(dso, 0x1000, 0x3000, 0, 5, 0) : NULL;
	struct resolved_sample rs;
	struct thread *threads[3];

	TEST_ASSERT_VAL("machine, dso, map", m && dso && map);
	TEST_ASSERT_VAL("rs", !resolved_sample__init(&rs, false));
	for (int i = 0; i < 3; i++) {
		struct callchain_frame f = { .ip = 0x1000 * (uint64_t)(i + 1), .map = map };

		rec.ip = f.ip;
		rec.pid = rec.tid = 10 + (uint32_t)i;
		threads[i] = machine__findnew_thread(m, (pid_t)rec.pid, (pid_t)rec.tid);
		TEST_ASSERT_VAL("thread", threads[i]);
		rs.evsel = &evsel;
		rs.thread = threads[i];
		rs.comm = i == 1 ? "then" : "x";
		memset(&rs.al, 0, sizeof(rs.al));
		rs.al.map = map;
		rs.al.addr = f.ip;	/* identity: pgoff 0, no text offset */
		rs.al.level = '.';
		rs.cursor.nr = 0;
		TEST_ASSERT_VAL("frame", !callchain_cursor__append(&rs.cursor, &f));
		TEST_ASSERT_VAL("hold", !top_held__add(&held, (union perf_event *)&rec, &rs, true));
	}
	TEST_ASSERT_EQUAL("held", held.nr, 3);
	TEST_ASSERT_EQUAL("map references", map->refcnt, 1 + 3 * 2);
	/* the symbols come (as the loader installs them), the map goes */
	dso->symbols_loaded = true;
	dso__add_symbol(dso, 0x2000, 0x100, 1, 2, "f2", false);
	dso__symbols_finish(dso);
	map__put(map);
	TEST_ASSERT_VAL("replay", !top_held__replay(&held, &rs, replay_cb, &ra));
	TEST_ASSERT_EQUAL("replayed", ra.seen, 3);
	TEST_ASSERT_EQUAL("first", ra.ips[0], 0x1000);
	TEST_ASSERT_EQUAL("second", ra.ips[1], 0x2000);
	TEST_ASSERT_VAL("its thread", ra.threads[2] == threads[2]);
	TEST_ASSERT_VAL("its comm then", !strcmp(ra.comms[1], "then"));
	TEST_ASSERT_VAL("no symbol at 0x1000", !ra.syms[0]);
	TEST_ASSERT_VAL("symbol found in its map", ra.syms[1] && !strcmp(ra.syms[1]->name, "f2"));
	TEST_ASSERT_EQUAL("held again", held.nr, 1);
	TEST_ASSERT_EQUAL("the one held again holds its map", map->refcnt, 2);
	top_held__exit(&held);
	resolved_sample__exit(&rs);
	machine__delete(m);
	dso__put(dso);
	return TEST_OK;
}

/* The trie under node of s as text: "ip(hit/count)[children...]" with the
 * frames' ips, children in list order. */
static void trie_text(const struct callchain_store *s, uint32_t node, char *buf, size_t size)
{
	size_t len = strlen(buf);

	if (node != 0 && s->nodes[node].frame)
		len += (size_t)snprintf(buf + len, size - len, "%" PRIu64,
					s->frames[s->nodes[node].frame].ip);
	snprintf(buf + len, size - len, "(%" PRIu64 "/%u)[", s->nodes[node].hit,
		 s->nodes[node].count);
	for (uint32_t c = s->nodes[node].child; c; c = s->nodes[c].sibling)
		trie_text(s, c, buf, size);
	len = strlen(buf);
	snprintf(buf + len, size - len, "]");
}

/*
 * A store rebuilt with the live nodes only (what top's compaction does
 * once chains decayed): the chains with a hit keep their nodes, values and
 * children's order, a decayed branch and the frames only it named are
 * gone, a trie with nothing left is an empty root, and chains appended to
 * the copy find its nodes again.
 */
static int test__store_copy_live(void)
{
	static const uint64_t chains[][3] = {
		{ 1, 2, 3 }, { 1, 2, 4 }, { 1, 5, 6 }, { 7, 8, 9 }, { 1, 2, 3 },
	};
	struct callchain_store src, dst;
	uint32_t roots[3], leaf[5], ids[3], nodes;
	char before[512] = "", after[512] = "", want[512] = "";

	TEST_ASSERT_VAL("init", !callchain_store__init(&src) && !callchain_store__init(&dst));
	roots[0] = callchain_store__new_root(&src);
	roots[1] = callchain_store__new_root(&src);
	roots[2] = 0;
	for (int c = 0; c < 5; c++) {
		for (int i = 0; i < 3; i++) {
			struct callchain_frame f = { .ip = chains[c][i] };

			ids[i] = callchain_store__frame_id(&src, &f);
		}
		leaf[c] = callchain_store__append_leaf(&src, roots[c == 3], ids, 3, 10 + c);
		TEST_ASSERT_VAL("append", leaf[c]);
	}
	/* 1-5-6 and all of the second trie decayed to 0 */
	src.nodes[leaf[2]].hit = src.nodes[leaf[2]].count = 0;
	src.nodes[leaf[3]].hit = src.nodes[leaf[3]].count = 0;
	trie_text(&src, roots[0], before, sizeof(before));
	TEST_ASSERT_VAL("copy", !callchain_store__copy_live(&dst, &src, roots, 3));
	trie_text(&dst, roots[0], after, sizeof(after));
	/* the same trie without 5-6 */
	TEST_ASSERT_VAL("dead branch in the source", strstr(before, "5(0/0)[6(0/0)[]]"));
	snprintf(want, sizeof(want), "%.*s%s", (int)(strstr(before, "5(0/0)") - before), before,
		 strstr(before, "5(0/0)[6(0/0)[]]") + strlen("5(0/0)[6(0/0)[]]"));
	TEST_ASSERT_VAL("live trie kept, dead branch gone", !strcmp(after, want));
	TEST_ASSERT_EQUAL("empty trie: its root only", dst.nodes[roots[1]].child, 0);
	TEST_ASSERT_EQUAL("no trie stays none", roots[2], 0);
	/* [0], 2 roots, 1-2-3 and 4 */
	TEST_ASSERT_EQUAL("nodes", dst.nr_nodes, 1 + 2 + 4);
	TEST_ASSERT_EQUAL("copied_nodes", dst.copied_nodes, dst.nr_nodes);
	TEST_ASSERT_EQUAL("frames 1 2 3 4 only", dst.nr_frames, 1 + 4);
	nodes = dst.nr_nodes;
	for (int i = 0; i < 3; i++) {
		struct callchain_frame f = { .ip = chains[0][i] };

		ids[i] = callchain_store__frame_id(&dst, &f);
	}
	TEST_ASSERT_VAL("append to the copy", callchain_store__append_leaf(&dst, roots[0], ids, 3, 1));
	TEST_ASSERT_EQUAL("found again: no new node", dst.nr_nodes, nodes);
	TEST_ASSERT_EQUAL("no new frame", dst.nr_frames, 1 + 4);
	callchain_store__exit(&src);
	callchain_store__exit(&dst);
	return TEST_OK;
}

DEFINE_SUITE(top, "prf top's analysis: entry ageing and held samples",
	     TEST_CASE(decay_unresolved, "an unresolved one-sample entry fades in ~20 refreshes, a hot one and a resolved one age as perf's"),
	     TEST_CASE(held_replay, "held samples come back in order with the thread, comm and maps they came with, their symbols looked up again, held again when asked"),
	     TEST_CASE(store_copy_live, "a callchain store rebuilt keeps the live chains and drops decayed ones"));
