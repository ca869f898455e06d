// SPDX-License-Identifier: GPL-2.0
/*
 * Parallel DWARF unwinding: a batch of samples is unwound on worker
 * threads into raw frames (struct unwind_entry), which the serial
 * delivery replays through unwind__get_entries(); see unwind.h. When the
 * consumer has registered a whole-sample job (unwind_batch__set_ahead():
 * callchain.c's full resolution with symbols, inline frames and
 * srclines), the workers run that instead and the delivery takes its
 * result (unwind_batch__ahead_take()); a delivering thread that would wait for
 * a worker runs jobs from the batch's end meanwhile. The bare walk was a
 * fifth of a sample's cost, so handing it over could not pay; the whole
 * resolution is most of it.
 *
 * Pipelined: unwind_batch__run() only hands the batch to the workers and
 * returns; the caller starts delivering at once. Each sample of the batch
 * is claimed once (an atomic state per sample): by a worker, which
 * unwinds it and stores its frames, or by the delivering thread itself
 * when it reaches a sample no worker has started (it then walks it
 * directly, as without workers). A sample a worker is still unwinding is
 * waited for a few microseconds, then walked again by the delivering
 * thread (the worker may have lost its CPU). So the delivering thread
 * never waits for a whole batch or for a preempted worker; with no idle
 * CPU it simply unwinds (nearly) everything itself, and after a run where
 * the workers did less than a quarter of the walks the next runs are
 * left to it alone. (The first version ran the whole batch
 * before delivering any of it: with unwinding a small share of the work,
 * that barrier cost more than the parallel part saved.)
 *
 * After unwinding a sample, a worker also fills the per-DSO caches the
 * delivery will look up for its frames: inline chains and srclines
 * (util/model/debuginfo.h), but only the kinds the consumer has asked for
 * so far (debuginfo__usage()), so nothing is computed that would not be
 * used; that also loads DWARF (e.g. inflates a separate debug file) ahead
 * of the delivering thread. Results are the same whoever fills a cache.
 *
 * Why this is safe: the session only batches consecutive samples with no
 * side-band record between them, of threads that already exist, and
 * clears the batch (which waits for the workers) before it delivers any
 * record that may change the model; delivering samples changes no
 * thread or map. What the walk touches: thread__find_symbol() (per-thread
 * resolution cache, maps__find()'s atomic last-map hint, dso__load() under
 * its global lock), and the per-DSO debuginfo state under the DSO's mutex.
 *
 * Why the output is identical: a prepared walk is the same function over
 * the same inputs (stack copy, registers, fixed maps) as the serial walk;
 * it is done to a depth of UNWIND_PREP_DEPTH frames and replayed cut to
 * the caller's max_stack, with the last replayed frame's truncated mark
 * cleared exactly as the serial walk leaves the last frame of a cut walk
 * unstepped. A caller wanting more depth than was prepared gets a fresh
 * walk; so does a second replay of a sample the delivering thread walked
 * itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwind.h"
#include "debuginfo.h"
#include "dso.h"
#include "map.h"
#include "../format/event.h"
#include "../lib/debug.h"
#include "../lib/tunables.h"
#include "../lib/util.h"

#define UNWIND_PREP_DEPTH 127	/* frames prepared per sample (perf's default max) */
#define UNWIND_MAX_THREADS 16
#define SEEN_SIZE 1024		/* per worker: recently prefetched (dso, addr) */

enum prep_state {
	PREP_QUEUED,		/* nobody has it yet */
	PREP_BUSY,		/* a worker is unwinding it */
	PREP_DONE,		/* frames stored: replay them */
	PREP_TAKEN,		/* the delivering thread walked it itself */
};

struct prep {
	const void *key;		/* sample.user_stack.data: unique while queued */
	struct thread *thread;
	struct evsel *evsel;
	void *slot;			/* the ahead job's result (kept across runs) */
	struct perf_sample sample;
	int state;			/* enum prep_state, atomic */
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
	uint64_t nr_taken, nr_waits;		/* delivering thread: walked, waited */
	uint64_t nr_worker, nr_prefetched;	/* workers (atomic) */
	size_t next;			/* next prep to take (atomic) */
	bool stop;			/* workers: take no more (atomic) */
	bool running;			/* handed to the workers, not cleared yet */
	bool prefetch_on;		/* $PRF_UNWIND_WARM != 0 */
	/* whole-sample job of this run, if any, and the one registered for
	 * the next runs (unwind_batch__set_ahead()) */
	struct unwind_ahead ahead, next_ahead;
	bool ahead_on, next_ahead_on;
	void (*free_slot)(void *slot);	/* of the slots filled so far */
	size_t back;			/* delivering thread: preps[back..nr) claimed
					 * from the end */
	uint64_t nr_stolen;		/* jobs the delivering thread ran from the end */
	/* does it pay? samples of the last run walked by workers; runs
	 * left to deliver without waking them */
	uint64_t last_worker, last_nr;
	unsigned int skip;
};

#define SKIP_RUNS 8		/* runs without workers after one where they
				 * did less than a quarter of the walks */

/* Pause iterations a worker polls for the next batch, and the delivering
 * thread for the workers to leave one, before sleeping on the condition:
 * batches follow each other within a millisecond while a file is
 * delivered, and a sleep and wake-up cost a context switch on each side
 * (in a VM, tens of microseconds: hundreds per run were the whole gain
 * of a second thread). */
#define HANDOFF_SPINS 20000

/*
 * The worker threads: one pool per process, started on first use and
 * kept until exit (each keeps per-thread caches, e.g. thread.c's
 * resolution cache, that live as long as the thread). Each generation
 * (unwind_batch__run()) every worker takes samples of the batch until
 * none is left or the batch is cleared.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	pthread_t tids[UNWIND_MAX_THREADS];
	int nr_workers;
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
/* running an ahead job: its walks must not replay (the sample is BUSY) */
static __thread bool in_ahead;

#define AHEAD_SPINS 4096	/* waits for a worker's job before doing it here */

/*
 * CPUs kept busy by other work: the 1-minute load average
 * (/proc/loadavg), rounded. Workers only pay on idle CPUs: on a machine
 * whose CPUs are all taken they cost the delivering thread its share of
 * a CPU and add their own overhead. 0 when unknown.
 */
static long cpus_busy(void)
{
	double load = 0;
	FILE *f = fopen("/proc/loadavg", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%lf", &load) != 1 || load < 0)
		load = 0;
	fclose(f);
	return (long)(load + 0.5);
}

int unwind__parallel_threads(void)
{
	long n = tunable__int(TUNABLE_UNWIND_THREADS);

	if (n)
		return n > UNWIND_MAX_THREADS ? UNWIND_MAX_THREADS : (int)n;
	n = cpus_usable();
	/* two CPUs: a walk costs about what handing it over to a worker
	 * costs, and the delivering thread's own part (parsing, printing,
	 * page faults) stays; even whole samples resolved ahead do not
	 * shorten the run there (scripts/bench/dwarf-speed.sh RESULTS).
	 * Workers are left to machines with more idle CPUs. */
	if (n <= 2)
		return 1;
	n = n - cpus_busy();
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
	/* $PRF_UNWIND_WARM=0: workers only unwind, they fill no DWARF caches */
	b->prefetch_on = tunable__bool(TUNABLE_UNWIND_WARM);
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

/* Stop the workers taking samples of b and wait until none touches it. */
static void batch__quiesce(struct unwind_batch *b)
{
	if (!b->running)
		return;
	__atomic_store_n(&b->stop, true, __ATOMIC_RELEASE);
	pthread_mutex_lock(&pool.lock);
	if (pool.batch == b)
		pool.batch = NULL;
	if (pool.busy) {
		pthread_mutex_unlock(&pool.lock);
		for (unsigned int i = 0; i < HANDOFF_SPINS &&
		     __atomic_load_n(&pool.busy, __ATOMIC_ACQUIRE); i++)
			cpu_relax();
		pthread_mutex_lock(&pool.lock);
	}
	while (pool.busy)
		pthread_cond_wait(&pool.done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	b->running = false;
}

void unwind_batch__clear(struct unwind_batch *b)
{
	size_t i;

	if (!b)
		return;
	batch__quiesce(b);
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

int unwind_batch__add(struct unwind_batch *b, struct thread *thread, struct evsel *evsel,
		      const struct perf_sample *sample)
{
	struct prep *p;
	size_t h;

	if (b->running)
		return -EBUSY;
	if (b->nr >= b->cap)
		return -ENOSPC;
	if (!perf_sample__has_user_stack(sample))
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
	p->evsel = evsel;
	p->sample = *sample;
	p->state = PREP_QUEUED;
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

/* A worker's walk of one prep: the count is kept here, on the worker's
 * stack, and stored in the prep once at the end. The prep's line holds
 * the state the delivering thread polls while it waits for this very
 * walk: a store to it per frame made the two CPUs pass the line back and
 * forth on every frame (collect_cb() was 9.8% of a 2-thread DWARF report's
 * profile, 2.9% without). */
struct collect {
	struct unwind_entry *entries;
	unsigned int nr;
};

static int collect_cb(struct unwind_entry *e, void *arg)
{
	struct collect *c = arg;

	if (c->nr >= UNWIND_PREP_DEPTH)
		return 1;
	c->entries[c->nr++] = *e;
	return 0;
}

struct prefetch {
	struct dso *dso;
	uint64_t addr;
};

struct seen {
	struct dso *dso;
	uint64_t addr;
};

/*
 * Fill the DWARF caches for the frames in pf[0..n) as the delivery will
 * look them up (util/model/callchain.c: frames with a symbol in a user
 * DSO, at the DSO address of the ip). seen skips repeats cheaply.
 */
static size_t prefetch__run(struct unwind_batch *b, const struct prefetch *pf, size_t n,
			    unsigned int usage, struct seen *seen)
{
	unsigned int flags = usage & DEBUGINFO_USED_POSITIONS ? 0 : INLINE_F_NO_POSITIONS;
	size_t i, done = 0;

	for (i = 0; i < n; i++) {
		struct seen *s = &seen[((uintptr_t)pf[i].dso ^ pf[i].addr ^ (pf[i].addr >> 10)) %
				       SEEN_SIZE];
		int nr = 0;

		if (s->dso == pf[i].dso && s->addr == pf[i].addr)
			continue;
		if (__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
			break;
		done++;
		s->dso = pf[i].dso;
		s->addr = pf[i].addr;
		if (usage & DEBUGINFO_USED_INLINE)
			nr = dso__inline_frames_flags(pf[i].dso, pf[i].addr, flags, NULL, NULL);
		if ((usage & DEBUGINFO_USED_SRCLINE) && nr <= 0)
			dso__srcline(pf[i].dso, pf[i].addr);
	}
	return done;
}

/* Run the ahead job on p (claimed: PREP_BUSY) and publish its slot. */
static void prep__job(struct unwind_batch *b, struct prep *p)
{
	in_ahead = true;
	b->ahead.job(b->ahead.key, p->thread, &p->sample, p->evsel, &p->slot);
	in_ahead = false;
	__atomic_store_n(&p->state, PREP_DONE, __ATOMIC_RELEASE);
}

static void batch__work(struct unwind_batch *b)
{
	struct prefetch pf[UNWIND_PREP_DEPTH];
	struct seen *seen = NULL;

	for (;;) {
		unsigned int usage = 0, j;
		size_t i, n = 0;
		struct collect c;
		struct prep *p;

		if (__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
			break;
		i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
		if (i >= b->nr)
			break;
		p = &b->preps[i];
		if (!__atomic_compare_exchange_n(&p->state, &(int){ PREP_QUEUED }, PREP_BUSY, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;	/* the delivering thread took it */
		if (b->ahead_on) {
			prep__job(b, p);
			__atomic_fetch_add(&b->nr_worker, 1, __ATOMIC_RELAXED);
			continue;
		}
		c = (struct collect){ p->entries, 0 };
		p->ret = unwind__walk_sample(collect_cb, &c, p->thread, &p->sample,
					     UNWIND_PREP_DEPTH);
		p->nr = c.nr;
		if (p->ret > 0)	/* collect_cb's stop: cannot happen at this depth */
			p->ret = 0;
		if (b->prefetch_on)
			usage = debuginfo__usage();
		for (j = 0; usage && j < p->nr; j++) {
			const struct unwind_entry *e = &p->entries[j];

			if (!e->map || !e->sym || !e->map->dso || e->map->dso->kind != DSO_USER)
				continue;
			pf[n].dso = e->map->dso;
			pf[n].addr = map__map_ip(e->map, e->ip);
			n++;
		}
		__atomic_store_n(&p->state, PREP_DONE, __ATOMIC_RELEASE);
		__atomic_fetch_add(&b->nr_worker, 1, __ATOMIC_RELAXED);
		if (n && !seen)
			seen = calloc(SEEN_SIZE, sizeof(*seen));
		if (n && seen)
			__atomic_fetch_add(&b->nr_prefetched, prefetch__run(b, pf, n, usage, seen),
					   __ATOMIC_RELAXED);
	}
	free(seen);
}

static void *worker(void *arg)
{
	uint64_t seen = 0;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		struct unwind_batch *b;

		if (pool.gen == seen) {
			pthread_mutex_unlock(&pool.lock);
			for (unsigned int i = 0; i < HANDOFF_SPINS &&
			     __atomic_load_n(&pool.gen, __ATOMIC_ACQUIRE) == seen; i++)
				cpu_relax();
			pthread_mutex_lock(&pool.lock);
		}
		while (pool.gen == seen)
			pthread_cond_wait(&pool.work, &pool.lock);
		seen = pool.gen;
		b = pool.batch;
		if (!b)
			continue;
		__atomic_add_fetch(&pool.busy, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&pool.lock);
		batch__work(b);
		pthread_mutex_lock(&pool.lock);
		if (__atomic_sub_fetch(&pool.busy, 1, __ATOMIC_RELEASE) == 0)
			pthread_cond_broadcast(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	return arg;
}

int unwind_batch__run(struct unwind_batch *b, int nthreads)
{
	uint64_t walked;

	if (!b->nr || b->running)
		return 0;
	b->back = b->nr;
	b->ahead_on = b->next_ahead_on;
	if (b->ahead_on) {
		b->ahead = b->next_ahead;
		b->free_slot = b->next_ahead.free_slot;
	}
	/* the delivering thread walks what no worker has taken: when the
	 * workers got less than a quarter of the last run (no idle CPU for
	 * them), leave the next runs to it alone, then look again */
	walked = __atomic_load_n(&b->nr_worker, __ATOMIC_RELAXED);
	if (b->last_nr && !b->skip && (walked - b->last_worker) * 4 < b->last_nr)
		b->skip = SKIP_RUNS;
	b->last_nr = 0;
	b->last_worker = walked;
	if (b->skip) {
		b->skip--;
		b->nr_prepared += b->nr;
		active_batch = b;	/* replays find every sample queued */
		return 0;
	}
	b->last_nr = b->nr;
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
	b->stop = false;
	b->running = true;
	pool.batch = b;
	__atomic_add_fetch(&pool.gen, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&pool.work);
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
	if (b->nr_prepared)
		pr_debug("unwind: %" PRIu64 " stacks walked by workers, %" PRIu64
			 " by the delivering thread (%" PRIu64 " waits, %" PRIu64
			 " resolved ahead from the batch end), %" PRIu64
			 " frames' DWARF looked up ahead\n", b->nr_worker, b->nr_taken,
			 b->nr_waits, b->nr_stolen, b->nr_prefetched);
	for (size_t i = 0; b->free_slot && i < b->cap; i++)
		if (b->preps[i].slot)
			b->free_slot(b->preps[i].slot);
	free(b->preps);
	free(b->frames);
	free(b->hash);
	free(b);
}

/* Wait a little for a worker to finish unwinding p (a walk takes tens of
 * microseconds); PREP_BUSY still when it takes longer (the worker may
 * have been preempted): the caller then walks the sample itself rather
 * than wait for a CPU to come free. */
static int prep__wait(struct prep *p)
{
	unsigned int spins;
	int st = PREP_BUSY;

	for (spins = 0; spins < 512; spins++) {
		st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
		if (st != PREP_BUSY)
			break;
		cpu_relax();
	}
	return st;
}

/* The queued prep of this sample of thread in b, or NULL. */
static struct prep *batch__find(struct unwind_batch *b, struct thread *thread,
				const struct perf_sample *data)
{
	size_t h;

	if (!b || !b->nr || !data->user_stack.data)
		return NULL;
	h = key_hash(data->user_stack.data, b->hash_mask);
	while (b->hash[h]) {
		struct prep *p = &b->preps[b->hash[h] - 1];

		if (p->key == data->user_stack.data)
			return p->thread == thread ? p : NULL;
		h = (h + 1) & b->hash_mask;
	}
	return NULL;
}

void unwind_batch__set_ahead(struct unwind_batch *b, const struct unwind_ahead *ahead)
{
	b->next_ahead_on = ahead != NULL;
	if (ahead)
		b->next_ahead = *ahead;
}

/* Delivering thread, while a worker runs the job it waits for: run the
 * job of the last sample nobody has started. false: none left. */
static bool batch__steal_back(struct unwind_batch *b)
{
	while (b->back > __atomic_load_n(&b->next, __ATOMIC_RELAXED)) {
		struct prep *p = &b->preps[--b->back];

		if (__atomic_compare_exchange_n(&p->state, &(int){ PREP_QUEUED }, PREP_BUSY, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			prep__job(b, p);
			b->nr_stolen++;
			return true;
		}
	}
	return false;
}

void *unwind_batch__ahead_take(struct unwind_batch *b, struct thread *thread,
			       const struct perf_sample *data, uint64_t key)
{
	struct prep *p = batch__find(b, thread, data);
	unsigned int spins = 0;
	int st;

	if (!p || !b->ahead_on || b->ahead.key != key)
		return NULL;
	st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
	if (st == PREP_QUEUED &&
	    __atomic_compare_exchange_n(&p->state, &st, PREP_TAKEN, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		b->nr_replayed++;	/* resolved by the caller, as without workers */
		b->nr_taken++;
		return NULL;
	}
	if (st == PREP_BUSY) {
		b->nr_waits++;
		/* help instead of spinning; give up on a worker that seems to
		 * have lost its CPU and resolve the sample here */
		while ((st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE)) == PREP_BUSY) {
			if (batch__steal_back(b))
				spins = 0;
			else if (++spins > AHEAD_SPINS)
				break;
			else
				cpu_relax();
		}
	}
	if (st == PREP_TAKEN)
		return NULL;	/* resolved here before: again */
	b->nr_replayed++;
	if (st == PREP_DONE && p->slot)
		return p->slot;
	b->nr_taken++;		/* still busy, or the job had no memory */
	return NULL;
}

bool unwind__replay(unwind_entry_cb_t cb, void *arg, struct thread *thread,
		    const struct perf_sample *data, int max_stack, int *ret)
{
	struct unwind_batch *b = active_batch;
	struct prep *p;
	unsigned int i, n;
	int st;

	/* an ahead job's own walk, or a batch of jobs (no raw frames kept) */
	if (in_ahead || !b || b->ahead_on)
		return false;
	p = batch__find(b, thread, data);
	if (!p)
		return false;
	st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
	if (st == PREP_QUEUED &&
	    __atomic_compare_exchange_n(&p->state, &st, PREP_TAKEN, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		/* no worker got to it: walk it here, as without workers */
		b->nr_replayed++;
		b->nr_taken++;
		*ret = unwind__walk_sample(cb, arg, thread, data, max_stack);
		return true;
	}
	if (st == PREP_BUSY) {
		b->nr_waits++;
		st = prep__wait(p);
		if (st == PREP_BUSY) {
			/* the same walk as the worker's, so the same frames */
			b->nr_replayed++;
			b->nr_taken++;
			*ret = unwind__walk_sample(cb, arg, thread, data, max_stack);
			return true;
		}
	}
	if (st != PREP_DONE)
		return false;	/* walked here before: walk again */
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
