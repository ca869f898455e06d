// SPDX-License-Identifier: GPL-2.0
/*
 * The resolver: a sample's PERF_SAMPLE_CALLCHAIN (perf_event_open(2):
 * "an array of instruction pointers", PERF_CONTEXT_* values >= 
 * PERF_CONTEXT_MAX mark where kernel/user/hypervisor/guest parts start) or
 * the DWARF-unwound user stack, each frame resolved to map + symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "callchain.h"
#include "chain-cache.h"
#include "unwind.h"
#include "unwind-memo.h"
#include "thread.h"
#include "map.h"
#include "dso.h"
#include "debuginfo.h"
#include "inline-sym.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/tunables.h"

#define DEFAULT_MAX_STACK 127

void callchain_cursor__init(struct callchain_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

/* Give the cursor its own frame array back, with the borrowed frames
 * copied when keep. 0 or -ENOMEM (the cursor is then emptied). */
/* room for n frames in c->frames (grown to exactly n); 0 or -ENOMEM */
static int cursor__reserve(struct callchain_cursor *c, unsigned int n)
{
	struct callchain_frame *f;

	if (n <= c->alloc)
		return 0;
	f = realloc(c->frames, n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	c->frames = f;
	c->alloc = n;
	return 0;
}

static int cursor__unborrow(struct callchain_cursor *c, bool keep)
{
	struct callchain_cache *cache = c->cache;
	const struct callchain_frame *b = c->frames;

	cache->borrowed = false;
	c->frames = cache->own;
	c->alloc = cache->own_alloc;
	cache->own = NULL;
	cache->own_alloc = 0;
	if (!keep || !c->nr)
		return 0;
	if (cursor__reserve(c, c->nr)) {
		c->nr = 0;
		return -ENOMEM;
	}
	memcpy(c->frames, b, c->nr * sizeof(*b));
	return 0;
}

int callchain_cursor__enable_cache(struct callchain_cursor *c)
{
	if (c->cache || tunable__bool(TUNABLE_NO_CHAIN_CACHE))
		return 0;
	c->cache = callchain_cache__new(CHAIN_CACHE_MAX_BYTES);
	return c->cache ? 0 : -ENOMEM;
}

/* samples resolved ahead, and hits among them, of the caches of all
 * threads running jobs (ahead_job(); atomic): -v */
static uint64_t ahead_jobs, ahead_hits;

/* Free a cursor's cache, saying (-v) how it and the unwinding threads'
 * caches did. */
static void cursor__free_cache(struct callchain_cache *cache)
{
	if (!cache)
		return;
	callchain_cache__free(cache);
	walk_memo__stats();	/* the walks that made the keys, on this thread */
	if (__atomic_load_n(&ahead_jobs, __ATOMIC_RELAXED))
		pr_debug("callchain caches of the unwinding threads: %" PRIu64 " hits in %" PRIu64
			 " samples resolved ahead\n", __atomic_load_n(&ahead_hits, __ATOMIC_RELAXED),
			 __atomic_load_n(&ahead_jobs, __ATOMIC_RELAXED));
}

static uint32_t resolve_opts__key(const struct resolve_opts *o, unsigned int max)
{
	if (!o)
		return max;
	return max | (uint32_t)o->hide_unresolved << 16 | (uint32_t)o->srcline << 17 |
	       (uint32_t)o->inline_frames << 18;
}

/* resolve_opts__key() of opts, with the default max_stack */
static uint32_t resolve_opts__key_max(const struct resolve_opts *opts)
{
	return resolve_opts__key(opts, opts && opts->max_stack ? opts->max_stack : DEFAULT_MAX_STACK);
}

void callchain_cursor__exit(struct callchain_cursor *c)
{
	if (c->cache && c->cache->borrowed)
		cursor__unborrow(c, false);
	zfree(&c->frames);
	c->nr = c->alloc = 0;
	cursor__free_cache(c->cache);
	c->cache = NULL;
	c->chain_id = 0;
}

int callchain_cursor__append(struct callchain_cursor *c, const struct callchain_frame *f)
{
	if (unlikely(c->cache && c->cache->borrowed) && cursor__unborrow(c, true))
		return -ENOMEM;
	if (unlikely(c->nr == c->alloc) && cursor__reserve(c, c->alloc ? c->alloc * 2 : 64))
		return -ENOMEM;
	c->frames[c->nr++] = *f;
	return 0;
}

int callchain_cursor__copy(struct callchain_cursor *dst, const struct callchain_cursor *src)
{
	if (cursor__reserve(dst, src->nr))
		return -ENOMEM;
	if (src->nr)
		memcpy(dst->frames, src->frames, src->nr * sizeof(*dst->frames));
	dst->nr = src->nr;
	dst->truncated = src->truncated;
	dst->discarded = src->discarded;
	dst->chain_id = src->chain_id;
	return 0;
}

static int cursor__add_ip(struct callchain_cursor *c, struct thread *thread, uint8_t cpumode,
			  uint64_t ip, const struct resolve_opts *opts)
{
	struct addr_location al;
	struct callchain_frame f;

	thread__find_symbol(thread, cpumode, ip, &al);
	if (opts && opts->hide_unresolved && !al.sym)
		return 0;
	if (likely(c->nr < c->alloc && !(opts && opts->srcline))) {
		/* hot path (perftune): fill the cursor's next frame in place */
		struct callchain_frame *d = &c->frames[c->nr++];

		*d = (struct callchain_frame){ .ip = ip, .map = al.map, .sym = al.sym,
					       .addr = al.addr, .cpumode = cpumode };
		return 0;
	}
	memset(&f, 0, sizeof(f));
	f.ip = ip;
	f.map = al.map;
	f.sym = al.sym;
	f.addr = al.addr;
	f.cpumode = cpumode;
	if (opts && opts->srcline && al.map && al.map->dso)
		f.srcline = dso__srcline(al.map->dso, al.addr);
	return callchain_cursor__append(c, &f);
}

/* 1: a known context marker (cpumode set), 0: an address, -1: an unknown marker */
static int context_cpumode(uint64_t ip, uint8_t *cpumode)
{
	switch (ip) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		return true;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		return true;
	case PERF_CONTEXT_USER:
		*cpumode = PERF_RECORD_MISC_USER;
		return true;
	case PERF_CONTEXT_GUEST_KERNEL:
		*cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
		return true;
	case PERF_CONTEXT_GUEST_USER:
		*cpumode = PERF_RECORD_MISC_GUEST_USER;
		return true;
	default:
		return ip >= (uint64_t)PERF_CONTEXT_MAX ? -1 : 0;
	}
}

/* The marker frame's symbol: one static "[truncated]" symbol (no DSO), so
 * that every consumer names the marker without knowing about it. */
static union {
	struct symbol sym;
	char bytes[sizeof(struct symbol) + sizeof("[truncated]")];
} truncated_sym_storage;
static pthread_once_t truncated_sym_once = PTHREAD_ONCE_INIT;

static void truncated_sym__init(void)
{
	struct symbol *s = &truncated_sym_storage.sym;

	s->start = s->end = 0;
	s->type = 2;	/* STT_FUNC */
	s->idx = UINT32_MAX;
	memcpy(s->name, "[truncated]", sizeof("[truncated]"));
	symbol__set_name_len(s, sizeof("[truncated]") - 1);
}

struct symbol *callchain__truncated_sym(void)
{
	pthread_once(&truncated_sym_once, truncated_sym__init);
	return &truncated_sym_storage.sym;
}

struct unwind_arg {
	struct callchain_cursor *cursor;
	struct thread *thread;
	const struct resolve_opts *opts;
	unsigned int max;	/* unwound frames to keep */
	unsigned int nr;	/* unwound frames seen (inline frames not counted) */
	int err;
};

struct inline_arg {
	struct callchain_cursor *cursor;
	const struct callchain_frame *real;
	bool srcline;
};

/* One level of dso__inline_frames(): inlined levels become frames with an
 * interned inlined symbol, the outermost is the real frame itself. */
static int inline_cb(const struct inline_frame *fr, void *arg)
{
	struct inline_arg *ia = arg;
	struct callchain_frame f = *ia->real;

	f.srcline = ia->srcline ? fr->srcline : NULL;
	/* the outermost level is the real function: its ELF symbol, as perf
	 * 6.1 shows it when the address has inlined levels */
	if (fr->inlined) {
		struct symbol *sym = ia->real->sym;

		f.sym = fr->sym && fr->sym->start == sym->start && fr->sym->end == sym->end ?
			fr->sym : dso__inline_sym(ia->real->map->dso, fr->func ? fr->func : "??",
						  sym->start, sym->end);
		if (!f.sym)
			return -ENOMEM;
		f.inlined = true;
	}
	return callchain_cursor__append(ia->cursor, &f);
}

/* Append a resolved user frame, expanded with its inlined calls when asked
 * and the DSO has them. */
static int unwind__append(struct unwind_arg *ua, struct callchain_frame *f)
{
	const struct resolve_opts *o = ua->opts;
	struct dso *dso = f->map ? f->map->dso : NULL;

	if (o && o->inline_frames && dso && f->sym && dso->kind == DSO_USER) {
		struct inline_arg ia = { ua->cursor, f, o->srcline };
		unsigned int before = ua->cursor->nr;
		int n = dso__inline_frames_flags(dso, f->addr,
						 o->srcline ? 0 : INLINE_F_NO_POSITIONS,
						 inline_cb, &ia);

		if (n > 0)
			return 0;
		ua->cursor->nr = before;	/* nothing inlined: the frame alone */
		if (n == -ENOMEM)
			return n;
	}
	if (o && o->srcline && dso) {
		f->srcline = dso__srcline(dso, f->addr);
		/* perf 6.1 takes an unwound frame's line from the inline list
		 * addr2line gave for it, which it prints whatever it says:
		 * where no line table covers the frame, also its "??:0" */
		if (!f->srcline && o->inline_frames && f->sym && dso->kind == DSO_USER)
			f->srcline = dso__symtab_srcline(dso, f->addr);
	}
	return callchain_cursor__append(ua->cursor, f);
}

static int unwind_cb(struct unwind_entry *e, void *arg)
{
	struct unwind_arg *ua = arg;
	struct callchain_frame f;
	struct addr_location al;

	if (ua->nr >= ua->max)
		return 1;
	ua->nr++;
	memset(&f, 0, sizeof(f));
	f.ip = e->ip;
	f.cpumode = PERF_RECORD_MISC_USER;
	if (e->map) {
		f.map = e->map;
		f.addr = map__map_ip(e->map, e->ip);
		f.sym = e->sym || e->sym_known ? e->sym : dso__find_symbol(e->map->dso, f.addr);
	} else {
		thread__find_symbol(ua->thread, PERF_RECORD_MISC_USER, e->ip, &al);
		f.map = al.map;
		f.sym = al.sym;
		f.addr = al.addr;
		/* a pc in no map at all (exec not yet mapped): perf 6.1 shows
		 * no user part for such a sample */
		if (!f.map && ua->nr == 1)
			return 1;
	}
	if (!(ua->opts && ua->opts->hide_unresolved && !f.sym)) {
		ua->err = unwind__append(ua, &f);
		if (ua->err)
			return ua->err;
	}
	if (e->truncated) {
		/* a real frame whose caller could not be read: mark the end */
		ua->cursor->truncated = true;
		memset(&f, 0, sizeof(f));
		f.truncated = true;
		f.ip = UINT64_MAX;	/* where perf 6.1 prints an unknown frame */
		f.sym = callchain__truncated_sym();
		f.cpumode = PERF_RECORD_MISC_USER;
		ua->err = callchain_cursor__append(ua->cursor, &f);
	}
	return ua->err;
}

static int raw_walk__add(struct unwind_entry *e, void *arg)
{
	struct raw_walk *w = arg;

	if (w->nr >= w->max)
		return 1;
	if (w->nr == w->alloc) {
		unsigned int na = w->alloc ? 2 * w->alloc : 64;
		struct unwind_entry *ne = realloc(w->e, na * sizeof(*ne));

		if (!ne) {
			w->no_memory = true;
			return -ENOMEM;
		}
		w->e = ne;
		w->alloc = na;
	}
	w->e[w->nr++] = *e;
	return 0;
}

static int raw_walk__replay(const struct raw_walk *w, struct unwind_arg *ua)
{
	for (unsigned int i = 0; i < w->nr; i++) {
		struct unwind_entry e = w->e[i];
		int ret = unwind_cb(&e, ua);

		if (ret)
			return ret;
	}
	return w->err;
}

/* Resolve sample into cursor; raw: its DWARF walk done already (NULL:
 * walk here). */
static int resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			     struct thread *thread, const struct resolve_opts *opts,
			     struct callchain_cursor *cursor, const struct raw_walk *raw)
{
	unsigned int max = opts && opts->max_stack ? opts->max_stack : DEFAULT_MAX_STACK;
	const struct ip_callchain *cc = sample->callchain;
	bool dwarf = evsel__has_dwarf_stack(evsel) && perf_sample__has_user_stack(sample);
	uint8_t cpumode = sample->cpumode;
	int err;

	cursor->nr = 0;
	cursor->truncated = false;
	cursor->discarded = false;
	if (!cc || !cc->nr) {
		/* an empty chain (both parts excluded, as perf trace's dwarf
		 * sys_exit samples) with a stack copy: the user frames alone */
		if (dwarf)
			goto unwind;
		if (evsel__has_dwarf_stack(evsel) && cpumode == PERF_RECORD_MISC_USER)
			return 0;	/* no stack copied: no user frames, as in perf */
		if (cc)
			return 0;	/* the part with the ip excluded: no frames, as in perf */
		return cursor__add_ip(cursor, thread, cpumode, sample->ip, opts);
	}
	for (uint64_t i = 0; i < cc->nr && cursor->nr < max; i++) {
		uint64_t ip = cc->ips[i];
		int ctx = context_cpumode(ip, &cpumode);

		if (ctx < 0) {
			cursor->nr = 0;
			cursor->discarded = true;
			return 0;
		}
		if (ctx) {
			if (dwarf && ip == PERF_CONTEXT_USER)
				goto unwind;
			continue;
		}
		err = cursor__add_ip(cursor, thread, cpumode, ip, opts);
		if (err)
			return err;
	}
	if (!dwarf || cursor->nr >= max)
		return 0;
	/* callchain had no user part (kernel only, exclude_callchain_user) */
unwind:
	{
		struct unwind_arg ua = { cursor, thread, opts, max - cursor->nr, 0, 0 };
		unsigned int before = cursor->nr;

		err = raw && raw->max == ua.max ?
		      raw_walk__replay(raw, &ua) :
		      unwind__get_entries(unwind_cb, &ua, thread, sample, (int)(max - cursor->nr));
		if (ua.err)
			return ua.err;
		if (cursor->nr > before) {
			cursor->nr_unwound++;
			if (cursor->truncated)
				cursor->nr_truncated++;
		}
		if (err < 0 && cursor->nr == before) {
			/* no unwinder (or it failed at once): the sample ip alone */
			if (sample->cpumode == PERF_RECORD_MISC_USER || before == 0)
				return cursor__add_ip(cursor, thread, PERF_RECORD_MISC_USER,
						      sample->ip, opts);
		}
	}
	return 0;
}

/* Lend the entry's frames to the cursor (valid until the next resolve). */
static void cursor__lend(struct callchain_cursor *cursor, struct callchain_cache *cache,
			 const struct chain_cache_entry *e)
{
	cache->own = cursor->frames;
	cache->own_alloc = cursor->alloc;
	cache->borrowed = true;
	cursor->frames = e->frames;
	cursor->alloc = 0;
	cursor->nr = e->nr_frames;
	cursor->truncated = e->truncated;
	cursor->discarded = e->discarded;
	cursor->chain_id = e->id;
	cache->nr_hits++;
}

/*
 * Resolution ahead on the unwinding workers (unwind.h, unwind_batch__set_ahead()):
 * a DWARF sample's whole resolution, done into a slot cursor of the batch,
 * is what the delivering thread's sample__resolve_callchain() then copies.
 * The key carries the options (resolve_opts__key() is one-to-one for
 * max_stack < 65536), so the job needs no pointer into the caller's.
 *
 * Each thread running jobs has a chain cache of its own (ahead_cache,
 * the delivering thread's keys: dwarf_chain_key()), so a chain met
 * again is copied rather than resolved again, as on the delivering
 * thread; per thread, so no locks. Its frames are copied into the slot,
 * never lent: the delivering thread reads the slot later. Each holds at
 * most AHEAD_CACHE_MAX_BYTES, as every worker keeps its own.
 */
struct ahead_slot {
	struct callchain_cursor c;	/* the frames; nr_unwound/nr_truncated: this sample's */
	int err;
};

static __thread struct callchain_cache *ahead_cache;
static __thread bool ahead_cache_tried;

static int resolve_dwarf_cached(struct callchain_cache *cache, struct perf_sample *sample,
				struct evsel *evsel, struct thread *thread,
				const struct resolve_opts *opts, struct callchain_cursor *cursor);

/* This thread's cache for jobs; NULL with PRF_NO_CHAIN_CACHE or no memory.
 * Kept until the process exits (the workers live as long). */
static struct callchain_cache *ahead_cache__get(void)
{
	if (unlikely(!ahead_cache_tried)) {
		ahead_cache_tried = true;
		if (!tunable__bool(TUNABLE_NO_CHAIN_CACHE))
			ahead_cache = callchain_cache__new(AHEAD_CACHE_MAX_BYTES);
	}
	return ahead_cache;
}

static void ahead_job(uint64_t key, struct thread *thread, struct perf_sample *sample,
		      struct evsel *evsel, void **slotp)
{
	struct resolve_opts o = {
		.max_stack = key & 0xffff,
		.hide_unresolved = key >> 16 & 1,
		.srcline = key >> 17 & 1,
		.inline_frames = key >> 18 & 1,
	};
	struct callchain_cache *cache = ahead_cache__get();
	struct ahead_slot *s = *slotp;

	if (!s && !(s = *slotp = calloc(1, sizeof(*s))))
		return;
	s->c.nr_unwound = s->c.nr_truncated = 0;
	if (!cache) {
		s->err = resolve_callchain(sample, evsel, thread, &o, &s->c, NULL);
		return;
	}
	s->c.cache = cache;
	s->err = resolve_dwarf_cached(cache, sample, evsel, thread, &o, &s->c);
	__atomic_fetch_add(&ahead_jobs, 1, __ATOMIC_RELAXED);
	/* a hit lends the entry's frames: copy them into the slot's own */
	if (cache->borrowed) {
		__atomic_fetch_add(&ahead_hits, 1, __ATOMIC_RELAXED);
		if (cursor__unborrow(&s->c, true) && !s->err)
			s->err = -ENOMEM;
	}
	s->c.cache = NULL;
}

static void ahead_slot__free(void *slot)
{
	struct ahead_slot *s = slot;

	callchain_cursor__exit(&s->c);
	free(s);
}

/* The DWARF sample's resolution from the workers, or 1: resolve it here. */
static int resolve_ahead(struct unwind_batch *batch, struct perf_sample *sample,
			 struct thread *thread, uint32_t opts_key, struct callchain_cursor *cursor)
{
	struct unwind_ahead a = { ahead_job, ahead_slot__free, opts_key };
	struct ahead_slot *s;

	if (!batch)
		return 1;
	unwind_batch__set_ahead(batch, &a);
	s = unwind_batch__ahead_take(batch, thread, sample, opts_key);
	if (!s)
		return 1;
	if (s->err)
		return s->err;
	if (callchain_cursor__copy(cursor, &s->c))
		return -ENOMEM;
	cursor->chain_id = 0;
	cursor->nr_unwound += s->c.nr_unwound;
	cursor->nr_truncated += s->c.nr_truncated;
	return 0;
}

/*
 * The key of a DWARF sample's chain: its resolution is a function of
 * the sample ip, the PERF_SAMPLE_CALLCHAIN entries (kernel part, and the
 * user part FP mixing may take frames from), the unwound addresses and
 * which of them ended truncated, and what the walk returned; all of it
 * goes into cache->key. Before the walk, the kernel part's frame count
 * is worked out as resolve_callchain() counts it, for the walk's limit.
 * Returns 1 with *w filled and the key made; 0 when the sample does not
 * unwind (resolve it plainly); -ENOMEM.
 */
static int dwarf_chain_key(struct callchain_cache *cache, struct perf_sample *sample,
			   struct thread *thread, unsigned int max, struct raw_walk *w)
{
	const struct ip_callchain *cc = sample->callchain;
	uint64_t ncc = cc ? cc->nr : 0, i;
	unsigned int k = 0, n, t;
	bool walk = false;
	uint8_t cpumode;

	if (!ncc) {
		walk = sample->cpumode == PERF_RECORD_MISC_USER;
	} else {
		for (i = 0; i < ncc && k < max; i++) {
			int ctx = context_cpumode(cc->ips[i], &cpumode);

			if (ctx < 0)
				return 0;	/* discarded whole */
			if (ctx && cc->ips[i] == PERF_CONTEXT_USER) {
				walk = true;
				break;
			}
			k += !ctx;
		}
		walk = walk || k < max;
	}
	if (!walk || ncc > CHAIN_CACHE_MAX_IPS)
		return 0;
	w->nr = 0;
	w->max = max - k;
	w->no_memory = false;
	/* symbols are looked up on a miss only (unwind_cb()) */
	w->err = unwind__get_entries_nosym(raw_walk__add, w, thread, sample, (int)w->max);
	if (w->no_memory)
		return -ENOMEM;
	for (i = 0, t = 0; i < w->nr; i++)
		t += w->e[i].truncated;
	n = (unsigned int)ncc + w->nr + t + 3;
	if (n > cache->key_alloc) {
		uint64_t *nk = realloc(cache->key, n * sizeof(*nk));

		if (!nk)
			return -ENOMEM;
		cache->key = nk;
		cache->key_alloc = n;
	}
	cache->key[0] = sample->ip;
	cache->key[1] = (uint64_t)(int64_t)w->err;
	cache->key[2] = ncc;
	if (ncc)
		memcpy(cache->key + 3, cc->ips, ncc * sizeof(*cc->ips));
	n = 3 + (unsigned int)ncc;
	for (i = 0; i < w->nr; i++)
		cache->key[n++] = w->e[i].ip;
	for (i = 0; i < w->nr; i++)
		if (w->e[i].truncated)
			cache->key[n++] = i | 1ULL << 63;
	cache->key_nr = n;
	return 1;
}

/* Resolve a DWARF sample through the cache (see dwarf_chain_key()). */
static int resolve_dwarf_cached(struct callchain_cache *cache, struct perf_sample *sample,
				struct evsel *evsel, struct thread *thread,
				const struct resolve_opts *opts, struct callchain_cursor *cursor)
{
	unsigned int max = opts && opts->max_stack ? opts->max_stack : DEFAULT_MAX_STACK;
	struct raw_walk *w = &cache->walk;
	struct chain_cache_entry *e;
	struct chain_key k;
	uint64_t unwound = cursor->nr_unwound;
	int err;

	/* dropped frames would change the walk's limit; no memory for the
	 * key: resolved in full (walking again) */
	if ((opts && opts->hide_unresolved) || !callchain_cache__slots(cache) ||
	    dwarf_chain_key(cache, sample, thread, max, w) <= 0)
		return resolve_callchain(sample, evsel, thread, opts, cursor, NULL);
	chain_key__init(&k, cache, cache->key, cache->key_nr, thread, sample->cpumode,
			resolve_opts__key_max(opts));
	e = chain_cache__find(cache, &k);
	if (e) {
		cursor__lend(cursor, cache, e);
		if (e->unwound) {
			cursor->nr_unwound++;
			cursor->nr_truncated += e->truncated;
		}
		return 0;
	}
	cache->nr_misses++;
	err = resolve_callchain(sample, evsel, thread, opts, cursor, w);
	if (!err && (e = chain_cache__resolved(cache, &k, cursor, true)))
		e->unwound = cursor->nr_unwound != unwound;
	return err;
}

int sample__resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			      struct thread *thread, const struct resolve_opts *opts,
			      struct unwind_batch *ahead, struct callchain_cursor *cursor)
{
	struct callchain_cache *cache = cursor->cache;
	const struct ip_callchain *cc = sample->callchain;
	struct chain_cache_entry *e;
	struct chain_key k;
	int err;

	cursor->chain_id = 0;
	if (cache && cache->borrowed)
		cursor__unborrow(cursor, false);
	if (evsel__has_dwarf_stack(evsel)) {
		if (thread && perf_sample__has_user_stack(sample) &&
		    (!opts || opts->max_stack <= 0xffff) &&
		    (err = resolve_ahead(ahead, sample, thread,
					 resolve_opts__key(opts, opts && opts->max_stack ?
							   opts->max_stack : DEFAULT_MAX_STACK),
					 cursor)) <= 0)
			return err;
		if (cache && thread && perf_sample__has_user_stack(sample))
			return resolve_dwarf_cached(cache, sample, evsel, thread, opts, cursor);
		return resolve_callchain(sample, evsel, thread, opts, cursor, NULL);
	}
	if (!cache || !cc || !cc->nr || cc->nr > CHAIN_CACHE_MAX_IPS ||
	    !thread || !callchain_cache__slots(cache))
		return resolve_callchain(sample, evsel, thread, opts, cursor, NULL);
	chain_key__init(&k, cache, cc->ips, cc->nr, thread, sample->cpumode,
			resolve_opts__key_max(opts));
	e = chain_cache__find(cache, &k);
	if (e) {
		cursor__lend(cursor, cache, e);
		return 0;
	}
	cache->nr_misses++;
	err = resolve_callchain(sample, evsel, thread, opts, cursor, NULL);
	if (!err)
		chain_cache__resolved(cache, &k, cursor, false);
	return err;
}

bool callchain_cursor__sample_location(const struct callchain_cursor *c,
				       const struct perf_sample *sample, struct thread *thread,
				       struct addr_location *al)
{
	const struct callchain_frame *f;

	if (!c->nr || (sample->cpumode != PERF_RECORD_MISC_USER &&
		       sample->cpumode != PERF_RECORD_MISC_KERNEL))
		return false;
	f = &c->frames[0];
	if (f->ip != sample->ip || f->cpumode != sample->cpumode || f->inlined || f->truncated)
		return false;
	*al = (struct addr_location){
		.thread = thread, .map = f->map, .sym = f->sym, .addr = f->addr,
		.cpumode = sample->cpumode,
		.level = sample->cpumode == PERF_RECORD_MISC_KERNEL ? 'k' : '.',
		.cpu = (int32_t)sample->cpu,
	};
	return true;
}

const char *callchain_frame__srcline(const struct callchain_frame *f, bool with_sym)
{
	struct dso *dso = f->map ? f->map->dso : NULL;
	char buf[512];

	if (f->srcline)
		return f->srcline;
	if (!dso || f->truncated)
		return "??:0";
	if (dso->kind == DSO_USER) {
		/* no line in the DWARF, or no DWARF: what addr2line finds in
		 * the symbol table */
		const char *s = dso__symtab_srcline(dso, f->addr);

		if (s)
			return s;
		if (dso__debug_file(dso))
			return "??:0";
	}
	if (with_sym && f->sym && !f->sym->inlined)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym->name, f->addr - f->sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name,
			 dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE ? f->ip : f->addr);
	return dso__intern_str(dso, buf) ?: "??:0";
}
