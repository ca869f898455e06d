// SPDX-License-Identifier: GPL-2.0
/*
 * The exporters' pipeline (see export-feed.h): the delivering thread (A)
 * fills batches of resolved samples, the encoding thread (B) empties
 * them, in order.
 *
 * A ring of FEED_BATCHES batches: A fills batch head % FEED_BATCHES while
 * fewer than FEED_BATCHES are queued, B encodes batch tail %
 * FEED_BATCHES. head and tail change under the lock only, once per batch,
 * and each side sleeps on its condition variable when it has to wait for
 * the other: a few thousand lock round trips for millions of samples.
 *
 * Chains: each batch carries the frames of the chains it sends in an
 * arena of its own; an item names its frames by offset (the arena may
 * move as it grows). A chain with an id is sent once per table slot
 * (chain_slot()): B copies the frames into its table, later items with
 * that id name the slot only. A records the id it sent per slot; B
 * encodes in A's order, so its table is what A's record says.
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "export-feed.h"
#include "../lib/handoff.h"
#include "../lib/psort.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "../session/resolve.h"

#define FEED_BATCH 256		/* samples per batch */
#define FEED_BATCHES 8		/* batches in the ring */
#define CHAIN_BITS 10		/* B keeps 1024 chains by id */

enum feed_how {
	FEED_COPY,		/* the frames in the batch's arena (no id) */
	FEED_STORE,		/* the same, to keep in B's table */
	FEED_TABLE,		/* the frames B keeps for chain_id */
};

struct feed_item {
	struct perf_sample sample;	/* numbers only: pointers NULL */
	struct evsel *evsel;
	struct thread *thread;
	const char *comm;
	uint64_t chain_id;
	uint32_t frame_off, nr_frames;	/* in the batch's arena */
	enum feed_how how;
	bool truncated, discarded;
};

struct feed_batch {
	struct feed_item items[FEED_BATCH];
	unsigned int nr;
	struct callchain_frame *frames;	/* arena */
	uint32_t nr_frames, alloc_frames;
};

/* B: the frames of the last chain sent per table slot */
struct feed_chain {
	struct callchain_frame *frames;
	unsigned int nr, alloc;
	bool truncated, discarded;
};

struct export_feed {
	const struct export_format *fmt;
	void *priv;
	struct perf_session *s;
	struct feed_batch *batches;	/* NULL: encode in line */
	struct helper_thread thr;
	struct handoff h;		/* lock, wake_a, wake_b */
	uint64_t head, tail;		/* batches queued, batches encoded (lock) */
	bool stop;			/* B ends once the ring is empty (lock) */
	int err;			/* the first encoder error (atomic) */
	uint64_t *sent;			/* A: id last sent per table slot */
	struct feed_chain *chains;	/* B: frames per table slot */
	struct resolved_sample rs;	/* B: what the encoder gets */
};

static inline size_t chain_slot(uint64_t id)
{
	return (id * 0x9e3779b97f4a7c15ULL) >> (64 - CHAIN_BITS);
}

static int feed__err(struct export_feed *f)
{
	return __atomic_load_n(&f->err, __ATOMIC_ACQUIRE);
}

static void feed__set_err(struct export_feed *f, int err)
{
	int none = 0;

	__atomic_compare_exchange_n(&f->err, &none, err, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* B: the frames of item it of batch b into f->rs.cursor; 0 or -ENOMEM */
static int feed__chain(struct export_feed *f, struct feed_batch *b, const struct feed_item *it)
{
	struct callchain_cursor *c = &f->rs.cursor;
	struct feed_chain *t;

	c->chain_id = it->chain_id;
	if (it->how == FEED_COPY) {
		c->frames = it->nr_frames ? b->frames + it->frame_off : NULL;
		c->nr = it->nr_frames;
		c->truncated = it->truncated;
		c->discarded = it->discarded;
		return 0;
	}
	t = &f->chains[chain_slot(it->chain_id)];
	if (it->how == FEED_STORE) {
		if (it->nr_frames > t->alloc) {
			struct callchain_frame *n = realloc(t->frames, it->nr_frames * sizeof(*n));

			if (!n)
				return -ENOMEM;
			t->frames = n;
			t->alloc = it->nr_frames;
		}
		if (it->nr_frames)
			memcpy(t->frames, b->frames + it->frame_off,
			       it->nr_frames * sizeof(*t->frames));
		t->nr = it->nr_frames;
		t->truncated = it->truncated;
		t->discarded = it->discarded;
	}
	c->frames = t->frames;
	c->nr = t->nr;
	c->truncated = t->truncated;
	c->discarded = t->discarded;
	return 0;
}

/* B: encode the items of batch b, unless an error stopped encoding */
static void feed__encode(struct export_feed *f, struct feed_batch *b)
{
	for (unsigned int i = 0; i < b->nr && !feed__err(f); i++) {
		struct feed_item *it = &b->items[i];
		int err = feed__chain(f, b, it);

		f->rs.sample = &it->sample;
		f->rs.evsel = it->evsel;
		f->rs.thread = it->thread;
		f->rs.comm = it->comm;
		if (!err)
			err = f->fmt->sample(f->priv, f->s, &f->rs);
		if (err)
			feed__set_err(f, err);
	}
}

static void *feed__thread(void *arg)
{
	struct export_feed *f = arg;
	uint64_t tail;

	pthread_mutex_lock(&f->h.lock);
	for (;;) {
		while (f->tail == f->head && !f->stop)
			pthread_cond_wait(&f->h.wake_b, &f->h.lock);
		if (f->tail == f->head)
			break;
		tail = f->tail;
		pthread_mutex_unlock(&f->h.lock);
		feed__encode(f, &f->batches[tail % FEED_BATCHES]);
		pthread_mutex_lock(&f->h.lock);
		f->tail = tail + 1;
		pthread_cond_signal(&f->h.wake_a);
	}
	pthread_mutex_unlock(&f->h.lock);
	return NULL;
}

static void feed__free_ring(struct export_feed *f)
{
	for (size_t i = 0; f->batches && i < FEED_BATCHES; i++)
		free(f->batches[i].frames);
	for (size_t i = 0; f->chains && i < (1u << CHAIN_BITS); i++)
		free(f->chains[i].frames);
	zfree(&f->batches);
	zfree(&f->sent);
	zfree(&f->chains);
}

struct export_feed *export_feed__new(const struct export_format *fmt, void *priv,
				     struct perf_session *s, bool threaded)
{
	struct export_feed *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->fmt = fmt;
	f->priv = priv;
	f->s = s;
	if (!threaded || psort_threads() < 2)
		return f;
	f->batches = calloc(FEED_BATCHES, sizeof(*f->batches));
	f->sent = calloc(1u << CHAIN_BITS, sizeof(*f->sent));
	f->chains = calloc(1u << CHAIN_BITS, sizeof(*f->chains));
	if (!f->batches || !f->sent || !f->chains) {
		feed__free_ring(f);
		return f;	/* in line */
	}
	if (handoff__start(&f->h, &f->thr, feed__thread, f))
		feed__free_ring(f);
	return f;
}

/* A: queue the batch being filled (if it holds anything), then wait
 * until the next one is free (all: until B has encoded everything) */
static void feed__submit(struct export_feed *f, bool all)
{
	struct feed_batch *b = &f->batches[f->head % FEED_BATCHES];

	pthread_mutex_lock(&f->h.lock);
	if (b->nr) {
		f->head++;
		pthread_cond_signal(&f->h.wake_b);
	}
	while (all ? f->tail != f->head : f->head - f->tail >= FEED_BATCHES)
		pthread_cond_wait(&f->h.wake_a, &f->h.lock);
	pthread_mutex_unlock(&f->h.lock);
	b = &f->batches[f->head % FEED_BATCHES];
	b->nr = 0;
	b->nr_frames = 0;
}

/* A: the frames of c into b's arena; 0 or -ENOMEM */
static int feed__copy_frames(struct feed_batch *b, struct feed_item *it, const struct callchain_cursor *c)
{
	if (b->nr_frames + c->nr > b->alloc_frames) {
		uint32_t n = b->alloc_frames ? b->alloc_frames : 4096;
		struct callchain_frame *p;

		while (n < b->nr_frames + c->nr)
			n *= 2;
		p = realloc(b->frames, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		b->frames = p;
		b->alloc_frames = n;
	}
	if (c->nr)	/* an empty chain: no arena yet, maybe */
		memcpy(b->frames + b->nr_frames, c->frames, c->nr * sizeof(*c->frames));
	it->frame_off = b->nr_frames;
	it->nr_frames = c->nr;
	b->nr_frames += c->nr;
	return 0;
}

int export_feed__add(struct export_feed *f, struct resolved_sample *rs)
{
	const struct callchain_cursor *c = &rs->cursor;
	struct feed_batch *b;
	struct feed_item *it;
	uint64_t *sent;
	int err = feed__err(f);

	if (err)
		return err;
	if (!f->batches) {
		err = f->fmt->sample(f->priv, f->s, rs);
		if (err)
			feed__set_err(f, err);
		return err;
	}
	/* its name is made at the first call: not on B while A reads it */
	evsel__name(rs->evsel);
	b = &f->batches[f->head % FEED_BATCHES];
	it = &b->items[b->nr];
	/* the numbers, which come first; the pointers stay NULL (calloc) */
	memcpy(&it->sample, rs->sample, offsetof(struct perf_sample, raw_data));
	it->sample.read_size = rs->sample->read_size;
	it->sample.evsel = rs->sample->evsel;
	it->evsel = rs->evsel;
	it->thread = rs->thread;
	it->comm = rs->comm;
	it->chain_id = c->chain_id;
	it->truncated = c->truncated;
	it->discarded = c->discarded;
	sent = c->chain_id ? &f->sent[chain_slot(c->chain_id)] : NULL;
	it->how = !sent ? FEED_COPY : *sent == c->chain_id ? FEED_TABLE : FEED_STORE;
	if (it->how != FEED_TABLE) {
		err = feed__copy_frames(b, it, c);
		if (err) {
			feed__set_err(f, err);
			return err;
		}
		if (sent)
			*sent = c->chain_id;
	}
	if (++b->nr == FEED_BATCH)
		feed__submit(f, false);
	return 0;
}

int export_feed__sync(struct export_feed *f)
{
	if (!f)
		return 0;
	if (f->batches)
		feed__submit(f, true);
	return feed__err(f);
}

bool export_feed__threaded(const struct export_feed *f)
{
	return f && f->batches;
}

void export_feed__delete(struct export_feed *f)
{
	if (!f)
		return;
	if (f->batches) {
		export_feed__sync(f);
		pthread_mutex_lock(&f->h.lock);
		f->stop = true;
		pthread_cond_signal(&f->h.wake_b);
		pthread_mutex_unlock(&f->h.lock);
		handoff__join(&f->h, &f->thr);
		feed__free_ring(f);
	}
	free(f);
}
