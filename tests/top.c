// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of prf top's analysis (util/analysis/top.h) on hists built
 * in memory: the ageing of entries between refreshes, resolved and
 * unresolved, and the samples held back while symbols load.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/analysis/hist.h"
#include "../util/analysis/sort.h"
#include "../util/analysis/top.h"
#include "../util/format/event.h"
#include "../util/kernel/evsel.h"
#include "../util/model/callchain.h"
#include "../util/model/dso.h"
#include "../util/model/machine.h"
#include "../util/model/map.h"

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

/* Records held back come back in order, parsed again; those of a thread
 * the machine no longer has are dropped; a record held again stays. */
struct replay_arg {
	int seen;
	uint64_t ips[4];
	struct top_held *h;
};

static int replay_cb(void *arg, union perf_event *event, struct perf_sample *sample,
		     struct evsel *evsel)
{
	struct replay_arg *ra = arg;

	ra->ips[ra->seen++] = sample->ip;
	/* the second one waits again */
	return sample->ip == 0x2000 ? top_held__add(ra->h, event, evsel) : 0;
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
	const uint32_t tids[3] = { 10, 11, 12 };

	TEST_ASSERT_VAL("machine", m);
	TEST_ASSERT_VAL("threads", machine__findnew_thread(m, 10, 10) &&
				   machine__findnew_thread(m, 11, 11));
	for (int i = 0; i < 3; i++) {	/* 12: no such thread (released) */
		rec.ip = 0x1000 * (uint64_t)(i + 1);
		rec.pid = rec.tid = tids[i];
		TEST_ASSERT_VAL("hold", !top_held__add(&held, (union perf_event *)&rec, &evsel));
	}
	TEST_ASSERT_EQUAL("held", held.nr, 3);
	TEST_ASSERT_VAL("replay", !top_held__replay(&held, m, replay_cb, &ra));
	TEST_ASSERT_EQUAL("replayed", ra.seen, 2);
	TEST_ASSERT_EQUAL("first", ra.ips[0], 0x1000);
	TEST_ASSERT_EQUAL("second", ra.ips[1], 0x2000);
	TEST_ASSERT_EQUAL("held again", held.nr, 1);
	top_held__exit(&held);
	machine__delete(m);
	return TEST_OK;
}

DEFINE_SUITE(top, "prf top's analysis: entry ageing and held samples",
	     TEST_CASE(decay_unresolved, "an unresolved one-sample entry fades in ~20 refreshes, a hot one and a resolved one age as perf's"),
	     TEST_CASE(held_replay, "held samples come back in order, not for released threads, held again when asked"));
