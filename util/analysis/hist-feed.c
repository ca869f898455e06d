// SPDX-License-Identifier: GPL-2.0
/*
 * Report's two-stage pipeline (see hist-feed.h): a single-producer,
 * single-consumer ring of resolved samples between the delivering thread
 * (A) and the thread that adds them to hists (B).
 *
 * Each side keeps its own index (head: written by A, tail: written by B)
 * on a cache line of its own, publishes it every PUB_BATCH samples (and
 * whenever the other side may wait for it), and reads the other's only
 * when its cached copy says the ring is full (A) or empty (B). A side
 * with nothing to do spins a little (a sample takes well under a
 * microsecond to resolve or to add), then sleeps on a condition variable;
 * the other side signals it only when it sees the sleeper's flag. Flag
 * and index are stored and read with sequentially consistent atomics, so
 * of "B: set b_waiting, then look at head" and "A: publish head, then
 * look at b_waiting" at least one side sees the other's store: a sleeper is never left with work (and the
 * same for A waiting on tail). A wakes B only once WAKE_BATCH samples are
 * queued, or when it needs B (ring full, sync): one wake-up per batch,
 * not per sample, when B keeps up.
 *
 * Chains are the bulk of a sample (30 frames of 48 bytes are common), and
 * resolved chains repeat: a chain with an id (callchain.h: same id, same
 * frames) travels once. B keeps the frames of the last chain per slot of
 * a direct-mapped table (by id); A keeps which id it last sent per slot
 * and sends the frames only when the slot holds another id. B processes
 * samples in A's order, so its table is always what A's says it is.
 *
 * Whether handing over pays depends on the profile: when most chains
 * repeat, adding one is a short memo replay, about what handing it over
 * costs A. So A measures: every PROBE_EVERY windows of PROBE_WINDOW
 * samples, one window handed over and one added in line are timed, and
 * the faster way is used until the next probe. Only speed depends on it;
 * the hists are the same either way.
 *
 * A waiting for B is A's idle time: while B has 3/4 of a ring of
 * samples queued (so it never runs dry meanwhile), A builds ahead what
 * the end of report will need, perf's input tree of each hists it fed
 * (hists__presort(), PRESORT_BATCH entries at a time).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hist-feed.h"
#include "../lib/handoff.h"
#include "../lib/debug.h"
#include "../lib/psort.h"
#include "../lib/util.h"
#include "../model/callchain.h"

#define FEED_SLOTS 512		/* power of two */
#define WAKE_BATCH 32		/* queued samples worth waking B for */
#define PUB_BATCH 16		/* samples per store of head or tail */
#define SPIN_LOOPS 2048		/* cpu_relax() rounds before sleeping */
#define CHAIN_BITS 10		/* table of chains by id, 1024 kept (16384 cost
				 * the mix benchmark 10 MB of peak RSS) */
#define PROBE_WINDOW 8192	/* samples per timed window */
#define PROBE_EVERY 16		/* windows per probe: feed, then in line */
#define PRESORT_BATCH 8	/* entries per hists__presort() while waiting */
#define FEED_HISTS 8		/* hists presorted (one per event, usually) */

enum chain_how {
	SLOT_NO_CHAIN,	/* hs.chain is NULL */
	SLOT_COPY,		/* the frames in chain (no id) */
	SLOT_STORE,		/* the frames in chain, to keep in B's table */
	SLOT_TABLE,		/* the frames B keeps for chain.chain_id */
};

struct feed_slot {
	struct hists *hists;
	struct hist_sample hs;
	enum chain_how how;
	struct callchain_cursor chain;	/* frames owned; for SLOT_TABLE
					   only chain_id is set */
};

struct hists_feed {
	struct feed_slot *slots;	/* NULL: in line */
	struct helper_thread thr;
	struct handoff h;		/* lock, wake_a, wake_b */
	int err;			/* first error of B (atomic) */
	int stop;			/* B exits once the ring is empty */
	uint64_t *sent;			/* A: id last sent per table slot */
	struct callchain_cursor *chains;	/* B: frames per table slot */
	/* A's line: what A writes or reads often (b_waiting) */
	uint64_t pub_head __attribute__((aligned(64)));	/* what B may read */
	int b_waiting;			/* B sleeps on wake_b */
	/* A's private line */
	uint64_t head __attribute__((aligned(64)));	/* slots filled */
	uint64_t a_tail;		/* A's copy of tail */
	bool in_line;			/* this window: A adds itself */
	bool prefer_in_line;		/* the last probe's verdict */
	unsigned int win_n;		/* samples in this window */
	uint64_t window;		/* windows so far */
	uint64_t win_start;		/* ns */
	uint64_t probe_ns;		/* the probe's handed-over window */
	uint64_t nr_in_line;		/* windows added in line */
	struct hists *fed[FEED_HISTS];	/* hists handed samples, to presort */
	unsigned int nr_fed, presort_next;
	/* B's line, likewise */
	uint64_t tail __attribute__((aligned(64)));	/* published by B */
	int a_waiting;			/* A sleeps on wake_a */
};

static inline uint64_t ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static inline void st(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static inline int ldi(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static inline void sti(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static void feed__signal(struct hists_feed *f, pthread_cond_t *c)
{
	pthread_mutex_lock(&f->h.lock);
	pthread_cond_signal(c);
	pthread_mutex_unlock(&f->h.lock);
}

/* B: wait until head moves past tail; false when stopped with nothing left */
static bool feed__wait_work(struct hists_feed *f, uint64_t tail)
{
	for (int i = 0; i < SPIN_LOOPS; i++) {
		if (ld(&f->pub_head) != tail)
			return true;
		cpu_relax();
	}
	sti(&f->b_waiting, 1);
	pthread_mutex_lock(&f->h.lock);
	while (ld(&f->pub_head) == tail && !f->stop)
		pthread_cond_wait(&f->h.wake_b, &f->h.lock);
	pthread_mutex_unlock(&f->h.lock);
	sti(&f->b_waiting, 0);
	return ld(&f->pub_head) != tail;
}

/* B: publish how far it got; wake A if it waits for that */
static void feed__publish_tail(struct hists_feed *f, uint64_t tail)
{
	st(&f->tail, tail);
	if (ldi(&f->a_waiting))
		feed__signal(f, &f->h.wake_a);
}

static inline size_t chain_slot(uint64_t id)
{
	return (id * 0x9e3779b97f4a7c15ULL) >> (64 - CHAIN_BITS);
}

/* B: point the slot's sample at its chain (see the top comment) */
static void slot__resolve_chain(struct hists_feed *f, struct feed_slot *sl)
{
	struct callchain_cursor *t, tmp;

	switch (sl->how) {
	case SLOT_NO_CHAIN:
		return;
	case SLOT_COPY:
		sl->hs.chain = &sl->chain;
		return;
	case SLOT_STORE:
		/* the slot's buffer becomes the table's and vice versa */
		t = &f->chains[chain_slot(sl->chain.chain_id)];
		tmp = *t;
		*t = sl->chain;
		sl->chain = tmp;
		break;
	default:	/* SLOT_TABLE */
		t = &f->chains[chain_slot(sl->chain.chain_id)];
		break;
	}
	sl->hs.chain = t;
}

static void *feed__thread(void *arg)
{
	struct hists_feed *f = arg;
	uint64_t tail = 0, head = 0;

	for (;;) {
		if (tail == head) {
			head = ld(&f->pub_head);
			if (tail == head) {
				feed__publish_tail(f, tail);
				if (!feed__wait_work(f, tail))
					break;
				continue;
			}
		}
		{
			struct feed_slot *sl = &f->slots[tail & (FEED_SLOTS - 1)];

			slot__resolve_chain(f, sl);
			if (!ldi(&f->err)) {
				int err = hists__add_sample(sl->hists, &sl->hs);

				if (err)
					sti(&f->err, err);
			}
		}
		if (!(++tail % PUB_BATCH))
			feed__publish_tail(f, tail);
	}
	return NULL;
}

/* the ring and chain tables (slots NULL after: adds in line) */
static void feed__free_ring(struct hists_feed *f)
{
	for (size_t i = 0; f->slots && i < FEED_SLOTS; i++)
		free(f->slots[i].chain.frames);
	for (size_t i = 0; f->chains && i < (1u << CHAIN_BITS); i++)
		free(f->chains[i].frames);
	zfree(&f->slots);
	zfree(&f->sent);
	zfree(&f->chains);
}

struct hists_feed *hists_feed__new(bool threaded)
{
	struct hists_feed *f;

	if (posix_memalign((void **)&f, 64, sizeof(*f)))
		return NULL;
	memset(f, 0, sizeof(*f));
	if (!threaded || psort_threads() < 2)
		return f;
	f->slots = calloc(FEED_SLOTS, sizeof(*f->slots));
	f->sent = calloc(1u << CHAIN_BITS, sizeof(*f->sent));
	f->chains = calloc(1u << CHAIN_BITS, sizeof(*f->chains));
	if (!f->slots || !f->sent || !f->chains) {
		feed__free_ring(f);
		return f;	/* in line */
	}
	if (handoff__start(&f->h, &f->thr, feed__thread, f))
		feed__free_ring(f);
	return f;
}

/* A: let B see the filled slots; wake it when it sleeps and enough wait
 * (any: force) */
static void feed__publish_head(struct hists_feed *f, bool force)
{
	st(&f->pub_head, f->head);
	if (ldi(&f->b_waiting) && (force || f->head - (f->a_tail = ld(&f->tail)) >= WAKE_BATCH))
		feed__signal(f, &f->h.wake_b);
}

/* A: presort one batch of some hists fed (round robin); whether any
 * had entries to insert */
static bool feed__presort(struct hists_feed *f)
{
	for (unsigned int i = 0; i < f->nr_fed; i++) {
		struct hists *h = f->fed[f->presort_next];

		f->presort_next = (f->presort_next + 1) % f->nr_fed;
		if (hists__presort(h, PRESORT_BATCH) > 0)
			return true;
	}
	return false;
}

/* A: wait until tail reaches target (B has added everything before it) */
static void feed__wait_tail(struct hists_feed *f, uint64_t target)
{
	feed__publish_head(f, true);
	while (f->nr_fed && (f->a_tail = ld(&f->tail)) < target &&
	       f->head - f->a_tail > FEED_SLOTS * 3 / 4 && feed__presort(f))
		;
	for (int i = 0; i < SPIN_LOOPS; i++) {
		if ((f->a_tail = ld(&f->tail)) >= target)
			return;
		cpu_relax();
	}
	sti(&f->a_waiting, 1);
	pthread_mutex_lock(&f->h.lock);
	while ((f->a_tail = ld(&f->tail)) < target) {
		/* B may have gone to sleep after the check above */
		pthread_cond_signal(&f->h.wake_b);
		pthread_cond_wait(&f->h.wake_a, &f->h.lock);
	}
	pthread_mutex_unlock(&f->h.lock);
	sti(&f->a_waiting, 0);
}

/*
 * A: end of a window of PROBE_WINDOW samples: pick the next one's way.
 * Window 1 of every PROBE_EVERY is handed over and window 2 added in line,
 * both timed (window 0 warms up: first DSO loads and the like); the others
 * go the faster way. Switching to in line waits for B to finish.
 */
static int feed__next_window(struct hists_feed *f)
{
	uint64_t ns = now_ns() - f->win_start;
	unsigned int phase;

	if (f->window % PROBE_EVERY == 1)
		f->probe_ns = ns;
	else if (f->window % PROBE_EVERY == 2)
		f->prefer_in_line = ns < f->probe_ns;
	f->window++;
	f->win_n = 0;
	f->nr_in_line += f->in_line;
	phase = f->window % PROBE_EVERY;
	if (phase == 1)
		f->in_line = false;
	else if (phase == 2)
		f->in_line = true;
	else
		f->in_line = f->prefer_in_line;
	if (f->in_line) {
		int err = hists_feed__sync(f);

		if (err)
			return err;
	}
	f->win_start = now_ns();	/* after the sync: B's backlog is not this window's */
	return 0;
}

int hists_feed__add(struct hists_feed *f, struct hists *hists, const struct hist_sample *s)
{
	struct feed_slot *sl;
	uint64_t head;
	int err;

	if (!f->slots) {
		if (!f->err)
			f->err = hists__add_sample(hists, s);
		return f->err;
	}
	err = ldi(&f->err);
	if (err)
		return err;
	if (++f->win_n >= PROBE_WINDOW) {
		err = feed__next_window(f);
		if (err)
			return err;
	}
	if (f->in_line) {
		err = hists__add_sample(hists, s);
		if (err)
			sti(&f->err, err);
		return err;
	}
	if (!f->nr_fed || f->fed[f->nr_fed - 1] != hists) {
		unsigned int i;

		for (i = 0; i < f->nr_fed && f->fed[i] != hists; i++)
			;
		if (i == f->nr_fed && i < FEED_HISTS)
			f->fed[f->nr_fed++] = hists;
	}
	head = f->head;
	if (head - f->a_tail >= FEED_SLOTS && head - (f->a_tail = ld(&f->tail)) >= FEED_SLOTS)
		feed__wait_tail(f, head - FEED_SLOTS + 1);
	sl = &f->slots[head & (FEED_SLOTS - 1)];
	sl->hists = hists;
	sl->hs = *s;
	sl->hs.chain = NULL;	/* B points it at the frames */
	sl->how = SLOT_NO_CHAIN;
	if (s->chain) {
		uint64_t id = s->chain->chain_id;
		uint64_t *sent = id ? &f->sent[chain_slot(id)] : NULL;

		sl->how = !id ? SLOT_COPY : *sent == id ? SLOT_TABLE : SLOT_STORE;
		sl->chain.chain_id = id;
		if (sl->how != SLOT_TABLE) {
			/* the resolver's frames may be lent from its cache,
			 * which the next resolution reuses */
			if (callchain_cursor__copy(&sl->chain, s->chain)) {
				/* no room for the copy: add it in line, in order */
				err = hists_feed__sync(f);
				if (!err && (err = hists__add_sample(hists, s)))
					sti(&f->err, err);
				return err;
			}
			if (sent)
				*sent = id;
		}
	}
	f->head = head + 1;
	if (!(f->head % PUB_BATCH))
		feed__publish_head(f, false);
	return 0;
}

int hists_feed__sync(struct hists_feed *f)
{
	if (!f)
		return 0;
	if (f->slots && f->a_tail != f->head)
		feed__wait_tail(f, f->head);
	return ldi(&f->err);
}

bool hists_feed__threaded(const struct hists_feed *f)
{
	return f && f->slots;
}

void hists_feed__delete(struct hists_feed *f)
{
	if (!f)
		return;
	if (f->slots) {
		hists_feed__sync(f);
		pr_debug("hists feed: %" PRIu64 " of %" PRIu64 " windows of %d samples added "
			 "in line\n", f->nr_in_line, f->window, PROBE_WINDOW);
		pthread_mutex_lock(&f->h.lock);
		f->stop = 1;
		pthread_cond_signal(&f->h.wake_b);
		pthread_mutex_unlock(&f->h.lock);
		handoff__join(&f->h, &f->thr);
		feed__free_ring(f);
	}
	free(f);
}
