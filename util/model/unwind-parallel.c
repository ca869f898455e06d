// SPDX-License-Identifier: GPL-2.0
/*
 * Parallel DWARF unwinding: a batch of samples is unwound on worker
 * threads into raw frames (struct unwind_entry), which the serial
 * delivery replays through unwind__get_entries(); see unwind.h.
 *
 * Why this is safe: the session only batches consecutive samples with no
 * side-band record between them, and runs the batch to completion before
 * delivering any of them, so while workers run nothing modifies the model
 * (threads, maps). What the walk touches: thread__find_symbol() (per-thread
 * resolution cache, maps__find()'s atomic last-map hint, dso__load() under
 * its global lock), and the per-DSO debuginfo state under the DSO's mutex.
 *
 * Why the output is identical: a prepared walk is the same function over
 * the same inputs (stack copy, registers, fixed maps) as the serial walk;
 * it is done to a depth of UNWIND_PREP_DEPTH frames and replayed cut to
 * the caller's max_stack, with the last replayed frame's truncated mark
 * cleared exactly as the serial walk leaves the last frame of a cut walk
 * unstepped. A caller wanting more depth than was prepared gets a fresh
 * walk.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwind.h"
#include "debuginfo.h"
#include "dso.h"
#include "map.h"
#include "../format/event.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define UNWIND_PREP_DEPTH 127	/* frames prepared per sample (perf's default max) */
#define UNWIND_MAX_THREADS 16
#define WARM_MAX 64		/* DSOs remembered for warming */

struct prep {
	const void *key;		/* sample.user_stack.data: unique while queued */
	struct thread *thread;
	struct perf_sample sample;
	int ret;			/* the walk's return value */
	unsigned int nr;		/* frames in entries */
	struct unwind_entry *entries;	/* UNWIND_PREP_DEPTH slots in b->frames */
};

struct unwind_batch {
	struct prep *preps;
	size_t nr, cap;
	struct unwind_entry *frames;
	uint32_t *hash;			/* index + 1 into preps, 0: empty */
	size_t hash_mask;
	uint64_t nr_prepared, nr_replayed;
	size_t next;			/* next prep to take (atomic) */
	bool dying;			/* being deleted: workers let go of it */
	/* DSOs met in unwound stacks whose DWARF the workers load once
	 * they are done unwinding, while the caller delivers (under lock) */
	struct dso *warm[WARM_MAX];
	size_t nr_warm, warm_next;	/* under pool.lock */
	bool warm_on;
};

/*
 * The worker threads: one pool per process, started on first use and
 * kept until exit (each keeps per-thread caches, e.g. thread.c's
 * resolution cache, that live as long as the thread). Each generation
 * (unwind_batch__run()) every worker helps with the batch, reports done,
 * then warms the batch's DSOs until the next generation or the batch's
 * deletion.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	pthread_t tids[UNWIND_MAX_THREADS];
	int nr_workers;
	int finished;			/* workers done with this generation */
	int busy;			/* workers holding a batch pointer */
	uint64_t gen;
	struct unwind_batch *batch;	/* of the current generation */
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
};

/* the batch whose results this thread's unwind__get_entries() replays */
static __thread struct unwind_batch *active_batch;

int unwind__parallel_threads(void)
{
	const char *env = getenv("PRF_UNWIND_THREADS");
	long n;

	if (env && *env) {
		n = strtol(env, NULL, 10);
		return n < 1 ? 1 : n > UNWIND_MAX_THREADS ? UNWIND_MAX_THREADS : (int)n;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > UNWIND_MAX_THREADS ? UNWIND_MAX_THREADS : (int)n;
}

struct unwind_batch *unwind_batch__new(size_t cap)
{
	struct unwind_batch *b = zalloc(sizeof(*b));
	size_t hs = 16;

	if (!b)
		return NULL;
	while (hs < 2 * cap)
		hs <<= 1;
	b->cap = cap;
	/* $PRF_UNWIND_WARM=0: no DWARF loading ahead on the workers */
	b->warm_on = !getenv("PRF_UNWIND_WARM") || strcmp(getenv("PRF_UNWIND_WARM"), "0");
	b->preps = calloc(cap, sizeof(*b->preps));
	b->frames = malloc(cap * UNWIND_PREP_DEPTH * sizeof(*b->frames));
	b->hash = calloc(hs, sizeof(*b->hash));
	b->hash_mask = hs - 1;
	if (!b->preps || !b->frames || !b->hash) {
		free(b->preps);
		free(b->frames);
		free(b->hash);
		free(b);
		return NULL;
	}
	return b;
}

static size_t key_hash(const void *key, size_t mask)
{
	uint64_t h = (uintptr_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & mask;
}

void unwind_batch__clear(struct unwind_batch *b)
{
	size_t i;

	if (!b)
		return;
	if (active_batch == b)
		active_batch = NULL;
	for (i = 0; i < b->nr; i++) {
		size_t h = key_hash(b->preps[i].key, b->hash_mask);

		/* clear the probe sequence the key used */
		while (b->hash[h]) {
			b->hash[h] = 0;
			h = (h + 1) & b->hash_mask;
		}
	}
	b->nr = 0;
}

int unwind_batch__add(struct unwind_batch *b, struct thread *thread,
		      const struct perf_sample *sample)
{
	struct prep *p;
	size_t h;

	if (b->nr >= b->cap)
		return -ENOSPC;
	if (!sample->user_stack.data || !sample->user_stack.size || !sample->user_regs.abi)
		return -ENOENT;
	h = key_hash(sample->user_stack.data, b->hash_mask);
	while (b->hash[h]) {
		if (b->preps[b->hash[h] - 1].key == sample->user_stack.data)
			return -EEXIST;
		h = (h + 1) & b->hash_mask;
	}
	p = &b->preps[b->nr];
	p->key = sample->user_stack.data;
	p->thread = thread;
	p->sample = *sample;
	p->ret = 0;
	p->nr = 0;
	p->entries = &b->frames[b->nr * UNWIND_PREP_DEPTH];
	b->nr++;
	b->hash[h] = (uint32_t)b->nr;
	return 0;
}

size_t unwind_batch__nr(const struct unwind_batch *b)
{
	return b ? b->nr : 0;
}

static int collect_cb(struct unwind_entry *e, void *arg)
{
	struct prep *p = arg;

	if (p->nr >= UNWIND_PREP_DEPTH)
		return 1;
	p->entries[p->nr++] = *e;
	return 0;
}

/* Remember the DSOs of p's frames for warming (first sight only). */
static void batch__note_dsos(struct unwind_batch *b, const struct prep *p)
{
	struct dso *last = NULL;
	unsigned int i;
	size_t j;

	for (i = 0; i < p->nr; i++) {
		struct map *map = p->entries[i].map;
		struct dso *dso = map ? map->dso : NULL;

		if (!dso || dso == last || dso->kind != DSO_USER)
			continue;
		last = dso;
		pthread_mutex_lock(&pool.lock);
		for (j = 0; j < b->nr_warm && b->warm[j] != dso; j++)
			;
		if (j == b->nr_warm && b->nr_warm < WARM_MAX) {
			b->warm[b->nr_warm] = dso;
			__atomic_store_n(&b->nr_warm, b->nr_warm + 1, __ATOMIC_RELAXED);
		}
		pthread_mutex_unlock(&pool.lock);
	}
}

static void batch__work(struct unwind_batch *b)
{
	for (;;) {
		size_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
		struct prep *p;

		if (i >= b->nr)
			break;
		p = &b->preps[i];
		p->ret = unwind__walk_sample(collect_cb, p, p->thread, &p->sample,
					     UNWIND_PREP_DEPTH);
		if (p->ret > 0)	/* collect_cb's stop: cannot happen at this depth */
			p->ret = 0;
		if (b->warm_on && __atomic_load_n(&b->nr_warm, __ATOMIC_RELAXED) < WARM_MAX)
			batch__note_dsos(b, p);
	}
}

static void *worker(void *arg)
{
	uint64_t seen = 0;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		struct unwind_batch *b;

		while (pool.gen == seen)
			pthread_cond_wait(&pool.work, &pool.lock);
		seen = pool.gen;
		b = pool.batch;
		if (!b)
			continue;
		pool.busy++;
		pthread_mutex_unlock(&pool.lock);
		batch__work(b);
		pthread_mutex_lock(&pool.lock);
		if (++pool.finished == pool.nr_workers)
			pthread_cond_broadcast(&pool.done);
		/* then, while the caller delivers: load the DWARF of the DSOs
		 * seen so far (srclines and inline frames will need it) */
		while (pool.gen == seen && !b->dying && b->warm_next < b->nr_warm) {
			struct dso *dso = b->warm[b->warm_next++];

			pthread_mutex_unlock(&pool.lock);
			dso__debuginfo_warm(dso);
			pthread_mutex_lock(&pool.lock);
		}
		if (--pool.busy == 0)
			pthread_cond_broadcast(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	return arg;
}

int unwind_batch__run(struct unwind_batch *b, int nthreads)
{
	if (!b->nr)
		return 0;
	if (nthreads > UNWIND_MAX_THREADS)
		nthreads = UNWIND_MAX_THREADS;
	pthread_mutex_lock(&pool.lock);
	while (pool.nr_workers < nthreads - 1) {
		pthread_attr_t attr;
		int err;

		/* detached: the pool lives until the process exits */
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		err = pthread_create(&pool.tids[pool.nr_workers], &attr, worker, NULL);
		pthread_attr_destroy(&attr);
		if (err) {
			pr_debug("unwind: cannot start a worker thread, %d in use\n", pool.nr_workers + 1);
			break;
		}
		pool.nr_workers++;
	}
	b->next = 0;
	pool.batch = b;
	pool.finished = 0;
	pool.gen++;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.lock);

	batch__work(b);

	pthread_mutex_lock(&pool.lock);
	while (pool.finished < pool.nr_workers)
		pthread_cond_wait(&pool.done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	b->nr_prepared += b->nr;
	active_batch = b;
	return 0;
}

void unwind_batch__stats(const struct unwind_batch *b, uint64_t *prepared, uint64_t *replayed)
{
	*prepared = b ? b->nr_prepared : 0;
	*replayed = b ? b->nr_replayed : 0;
}

void unwind_batch__delete(struct unwind_batch *b)
{
	if (!b)
		return;
	unwind_batch__clear(b);
	pthread_mutex_lock(&pool.lock);
	b->dying = true;
	if (pool.batch == b)
		pool.batch = NULL;
	/* a worker may still be warming one of its DSOs */
	while (pool.busy)
		pthread_cond_wait(&pool.done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	free(b->preps);
	free(b->frames);
	free(b->hash);
	free(b);
}

bool unwind__replay(unwind_entry_cb_t cb, void *arg, struct thread *thread,
		    const struct perf_sample *data, int max_stack, int *ret)
{
	struct unwind_batch *b = active_batch;
	const struct prep *p = NULL;
	unsigned int i, n;
	size_t h;

	if (!b || !b->nr || !data->user_stack.data)
		return false;
	h = key_hash(data->user_stack.data, b->hash_mask);
	while (b->hash[h]) {
		if (b->preps[b->hash[h] - 1].key == data->user_stack.data) {
			p = &b->preps[b->hash[h] - 1];
			break;
		}
		h = (h + 1) & b->hash_mask;
	}
	if (!p || p->thread != thread)
		return false;
	if (max_stack <= 0)
		max_stack = 127;
	/* prepared to UNWIND_PREP_DEPTH: deeper asks need a walk of their own
	 * unless the prepared walk ended before that depth */
	if (max_stack > UNWIND_PREP_DEPTH && p->nr >= UNWIND_PREP_DEPTH)
		return false;
	b->nr_replayed++;
	*ret = p->ret;
	if (p->ret)
		return true;
	n = p->nr < (unsigned int)max_stack ? p->nr : (unsigned int)max_stack;
	for (i = 0; i < n; i++) {
		struct unwind_entry e = p->entries[i];

		/* the serial walk does not step its last allowed frame */
		if (i + 1 == (unsigned int)max_stack)
			e.truncated = false;
		*ret = cb(&e, arg);
		if (*ret)
			return true;
	}
	return true;
}
