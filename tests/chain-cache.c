// SPDX-License-Identifier: GPL-2.0
/*
 * The callchain (chain) cache, util/model/chain-cache.h: a chain is
 * stored the second time it is resolved, found again by its key only,
 * and the table is made again bigger (and empty) as it fills.
 */
#include <linux/perf_event.h>
#include "tests.h"
#include "../util/model/chain-cache.h"
#include "../util/model/machine.h"

/* Key k of ips[0..3) for thread t, sampled in user mode with opts_key. */
static struct chain_key *key(struct chain_key *k, struct callchain_cache *cache,
			     const uint64_t *ips, struct thread *t, uint8_t cpumode,
			     uint32_t opts_key)
{
	chain_key__init(k, cache, ips, 3, t, cpumode, opts_key);
	return k;
}

static int test__store_find(void)
{
	struct machine *m = machine__new_host();
	struct callchain_cache *cache = callchain_cache__new(1 << 20);
	struct callchain_frame f = { .ip = 0x1234, .cpumode = PERF_RECORD_MISC_USER };
	const uint8_t user = PERF_RECORD_MISC_USER;
	uint64_t ips[3] = { 1, 2, 3 }, other[3] = { 1, 2, 4 };
	struct callchain_cursor c;
	struct chain_cache_entry *e;
	struct chain_key k, k2;
	struct thread *t;

	TEST_ASSERT_VAL("machine and cache", m && cache);
	t = machine__findnew_thread(m, 100, 100);
	TEST_ASSERT_VAL("thread", t);
	TEST_ASSERT_VAL("table made", callchain_cache__slots(cache) &&
				      cache->nr_slots == 1u << CHAIN_CACHE_MIN_BITS);
	callchain_cursor__init(&c);
	TEST_ASSERT_VAL("frame", !callchain_cursor__append(&c, &f));
	key(&k, cache, ips, t, user, 127);
	TEST_ASSERT_VAL("empty", !chain_cache__find(cache, &k));
	TEST_ASSERT_VAL("first time: not stored",
			!chain_cache__resolved(cache, &k, &c, false) && !c.chain_id &&
			!chain_cache__find(cache, &k));
	e = chain_cache__resolved(cache, &k, &c, false);
	TEST_ASSERT_VAL("second time: stored", e && e->id && c.chain_id == e->id);
	TEST_ASSERT_VAL("frames kept", e->nr_frames == 1 && e->frames[0].ip == 0x1234);
	TEST_ASSERT_VAL("found", chain_cache__find(cache, &k) == e);
	TEST_ASSERT_VAL("other addresses", !chain_cache__find(cache, key(&k2, cache, other, t,
									 user, 127)));
	TEST_ASSERT_VAL("other cpumode",
			!chain_cache__find(cache, key(&k2, cache, ips, t,
						      PERF_RECORD_MISC_KERNEL, 127)));
	TEST_ASSERT_VAL("other options", !chain_cache__find(cache, key(&k2, cache, ips, t,
								       user, 128)));
	/* chains met once fill it: made again 4 times bigger, empty */
	for (uint64_t i = 0; i < 2u << CHAIN_CACHE_MIN_BITS; i++) {
		uint64_t many[3] = { 7, 8, i };

		chain_cache__resolved(cache, key(&k2, cache, many, t, user, 127), &c, false);
	}
	TEST_ASSERT_VAL("made again", callchain_cache__slots(cache) &&
				      cache->nr_slots == 4u << CHAIN_CACHE_MIN_BITS);
	TEST_ASSERT_VAL("empty again", !chain_cache__find(cache, key(&k, cache, ips, t, user, 127)));
	callchain_cursor__exit(&c);
	callchain_cache__free(cache);
	machine__delete(m);
	return TEST_OK;
}

DEFINE_SUITE(chain_cache, "Chain cache: resolved callchains kept per raw chain",
	     TEST_CASE(store_find, "a chain is stored when met again, found by its whole key, dropped when the table grows"));
