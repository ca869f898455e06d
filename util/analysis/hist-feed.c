// SPDX-License-Identifier: GPL-2.0
/*
 * Report's two-stage pipeline (see hist-feed.h): a single-producer,
 * single-consumer ring of resolved samples between the delivering thread
 * (A) and the thread that adds them to hists (B).
 *
 * Each side keeps its own index (head: written by A, tail: written by B)
 * on a cache line of its own and reads the other's only when its cached
 * copy says the ring is full (A) or empty (B). A side with nothing to do
 * spins a little (a sample takes well under a microsecond to resolve or
 * to add), then sleeps on a condition variable; the other side signals it
 * only when it sees the sleeper's flag. Flag and index are stored and read
 * with sequentially consistent atomics, so of "B: set b_waiting, then look
 * at head" and "A: publish head, then look at b_waiting" at least one
 * side sees the other's store: a sleeper is never left with work (and the
 * same for A waiting on tail). A wakes B only once WAKE_BATCH samples are
 * queued, or when it needs B (ring full, sync): one wake-up per batch,
 * not per sample, when B keeps up.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hist-feed.h"
#include "../lib/psort.h"
#include "../lib/util.h"
#include "../model/callchain.h"

#define FEED_SLOTS 512		/* power of two */
#define WAKE_BATCH 32		/* queued samples worth waking B for */
#define PUB_BATCH 16		/* samples per store of head or tail */
#define SPIN_LOOPS 2048		/* cpu_relax() rounds before sleeping */

struct feed_slot {
	struct hists *hists;
	struct hist_sample hs;
	struct callchain_cursor chain;	/* copy of hs.chain; frames owned */
};

struct hists_feed {
	struct feed_slot *slots;	/* NULL: in line */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t wake_b, wake_a;
	int err;			/* first error of B (atomic) */
	int stop;			/* B exits once the ring is empty */
	/* A's line: what A writes or reads often (b_waiting) */
	uint64_t pub_head __attribute__((aligned(64)));	/* what B may read */
	int b_waiting;			/* B sleeps on wake_b */
	/* A's private line */
	uint64_t head __attribute__((aligned(64)));	/* slots filled */
	uint64_t a_tail;		/* A's copy of tail */
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
	pthread_mutex_lock(&f->lock);
	pthread_cond_signal(c);
	pthread_mutex_unlock(&f->lock);
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
	pthread_mutex_lock(&f->lock);
	while (ld(&f->pub_head) == tail && !f->stop)
		pthread_cond_wait(&f->wake_b, &f->lock);
	pthread_mutex_unlock(&f->lock);
	sti(&f->b_waiting, 0);
	return ld(&f->pub_head) != tail;
}

/* B: publish how far it got; wake A if it waits for that */
static void feed__publish_tail(struct hists_feed *f, uint64_t tail)
{
	st(&f->tail, tail);
	if (ldi(&f->a_waiting))
		feed__signal(f, &f->wake_a);
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

struct hists_feed *hists_feed__new(bool threaded)
{
	struct hists_feed *f;

	if (posix_memalign((void **)&f, 64, sizeof(*f)))
		return NULL;
	memset(f, 0, sizeof(*f));
	if (!threaded || psort_threads() < 2)
		return f;
	f->slots = calloc(FEED_SLOTS, sizeof(*f->slots));
	if (!f->slots)
		return f;	/* in line */
	for (int i = 0; i < FEED_SLOTS; i++)
		callchain_cursor__init(&f->slots[i].chain);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->wake_a, NULL);
	pthread_cond_init(&f->wake_b, NULL);
	if (pthread_create(&f->tid, NULL, feed__thread, f)) {
		pthread_mutex_destroy(&f->lock);
		pthread_cond_destroy(&f->wake_a);
		pthread_cond_destroy(&f->wake_b);
		for (int i = 0; i < FEED_SLOTS; i++)
			callchain_cursor__exit(&f->slots[i].chain);
		zfree(&f->slots);
	}
	return f;
}

/* A: let B see the filled slots; wake it when it sleeps and enough wait
 * (any: force) */
static void feed__publish_head(struct hists_feed *f, bool force)
{
	st(&f->pub_head, f->head);
	if (ldi(&f->b_waiting) && (force || f->head - (f->a_tail = ld(&f->tail)) >= WAKE_BATCH))
		feed__signal(f, &f->wake_b);
}

/* A: wait until tail reaches target (B has added everything before it) */
static void feed__wait_tail(struct hists_feed *f, uint64_t target)
{
	feed__publish_head(f, true);
	for (int i = 0; i < SPIN_LOOPS; i++) {
		if ((f->a_tail = ld(&f->tail)) >= target)
			return;
		cpu_relax();
	}
	sti(&f->a_waiting, 1);
	pthread_mutex_lock(&f->lock);
	while ((f->a_tail = ld(&f->tail)) < target) {
		/* B may have gone to sleep after the check above */
		pthread_cond_signal(&f->wake_b);
		pthread_cond_wait(&f->wake_a, &f->lock);
	}
	pthread_mutex_unlock(&f->lock);
	sti(&f->a_waiting, 0);
}

/* copy s's chain into the slot's own cursor (its frames may be borrowed
 * from the resolver's cache, which the next resolution reuses) */
static int slot__copy_chain(struct feed_slot *sl, const struct callchain_cursor *c)
{
	struct callchain_cursor *d = &sl->chain;

	if (c->nr > d->alloc) {
		unsigned int na = c->nr < 32 ? 32 : c->nr;
		struct callchain_frame *n = realloc(d->frames, na * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->frames = n;
		d->alloc = na;
	}
	if (c->nr)
		memcpy(d->frames, c->frames, c->nr * sizeof(*d->frames));
	d->nr = c->nr;
	d->truncated = c->truncated;
	d->discarded = c->discarded;
	d->chain_id = c->chain_id;
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
	head = f->head;
	if (head - f->a_tail >= FEED_SLOTS && head - (f->a_tail = ld(&f->tail)) >= FEED_SLOTS)
		feed__wait_tail(f, head - FEED_SLOTS + 1);
	sl = &f->slots[head & (FEED_SLOTS - 1)];
	sl->hists = hists;
	sl->hs = *s;
	if (s->chain) {
		if (slot__copy_chain(sl, s->chain)) {
			/* no room for the copy: add it in line, in order */
			err = hists_feed__sync(f);
			return err ? err : hists__add_sample(hists, s);
		}
		sl->hs.chain = &sl->chain;
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
		pthread_mutex_lock(&f->lock);
		f->stop = 1;
		pthread_cond_signal(&f->wake_b);
		pthread_mutex_unlock(&f->lock);
		pthread_join(f->tid, NULL);
		pthread_mutex_destroy(&f->lock);
		pthread_cond_destroy(&f->wake_a);
		pthread_cond_destroy(&f->wake_b);
		for (int i = 0; i < FEED_SLOTS; i++)
			callchain_cursor__exit(&f->slots[i].chain);
		free(f->slots);
	}
	free(f);
}
