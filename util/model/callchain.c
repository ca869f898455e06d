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
#include "unwind.h"
#include "thread.h"
#include "map.h"
#include "dso.h"
#include "debuginfo.h"
#include "inline-sym.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define DEFAULT_MAX_STACK 127

void callchain_cursor__init(struct callchain_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

/* ---- resolution cache (see callchain_cursor__enable_cache()) ---- */

#define CHAIN_CACHE_BITS 14
#define CHAIN_CACHE_MAX_IPS 512		/* longer raw chains are not cached */

struct chain_cache_entry {
	uint64_t hash;
	uint64_t id;			/* 0: empty */
	uint64_t gen;			/* maps__generation when made */
	const void *maps, *machine;
	uint32_t opts_key;
	uint8_t cpumode;
	bool discarded;
	uint32_t nr_ips, nr_frames;
	size_t cap;			/* bytes at ips */
	/* one block: the raw addresses, then the frames (one cache miss
	 * plus sequential lines to compare a chain) */
	uint64_t *ips;
	struct callchain_frame *frames;
};

struct callchain_cache {
	struct chain_cache_entry *slots;
	/* per slot, the hash of the last chain resolved there without being
	 * stored: a chain is stored the second time it is met, so chains
	 * met once (most of them in a big profile) cost no copy and evict
	 * no entry that repeats */
	uint64_t *seen;
	uint64_t next_id;
	uint64_t nr_hits, nr_misses;	/* statistics */
	bool no_memory;			/* the table could not be made */
	/* on a hit the cursor's frames point into the entry (alloc 0, so any
	 * append goes through callchain_cursor__append(), which takes the
	 * cursor's own array back first); its own array is kept here */
	bool borrowed;
	struct callchain_frame *own;
	unsigned int own_alloc;
};

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
	struct callchain_cache *cache;

	if (c->cache)
		return 0;
	cache = zalloc(sizeof(*cache));
	if (!cache)
		return -ENOMEM;
	cache->next_id = 1;
	c->cache = cache;
	return 0;
}

/* The table, made at the first chain that may use it (DWARF-unwound ones
 * never do: 1.5 MB not allocated, nor walked at exit, for them). false
 * when there is no memory for it: chains are then resolved in full. */
static bool callchain_cache__slots(struct callchain_cache *cache)
{
	if (likely(cache->slots))
		return true;
	if (cache->no_memory)
		return false;
	cache->slots = calloc(1u << CHAIN_CACHE_BITS, sizeof(*cache->slots));
	cache->seen = calloc(1u << CHAIN_CACHE_BITS, sizeof(*cache->seen));
	if (cache->slots && cache->seen)
		return true;
	zfree(&cache->slots);
	zfree(&cache->seen);
	cache->no_memory = true;
	return false;
}

static void callchain_cache__free(struct callchain_cache *cache)
{
	if (!cache)
		return;
	pr_debug("callchain cache: %" PRIu64 " hits, %" PRIu64 " misses\n",
		 cache->nr_hits, cache->nr_misses);
	/* a slot holds memory only once a chain was stored */
	for (size_t i = 0; cache->slots && cache->next_id > 1 && i < (1u << CHAIN_CACHE_BITS); i++)
		free(cache->slots[i].ips);
	free(cache->slots);
	free(cache->seen);
	free(cache);
}

static uint32_t resolve_opts__key(const struct resolve_opts *o, unsigned int max)
{
	if (!o)
		return max;
	return max | (uint32_t)o->hide_unresolved << 16 | (uint32_t)o->srcline << 17 |
	       (uint32_t)o->inline_frames << 18;
}

static uint64_t chain_hash(const uint64_t *ips, uint64_t nr, const void *maps, uint8_t cpumode,
			   uint32_t opts_key)
{
	uint64_t h = ((uintptr_t)maps ^ ((uint64_t)cpumode << 56) ^ opts_key) * 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 0xff51afd7ed558ccdULL + (h >> 29);
	return h ^ (h >> 31) ^ nr;
}

/* Frames whose answer stays valid while the maps generation does. */
static bool frames__cacheable(const struct callchain_frame *f, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		const struct dso *dso = f[i].map ? f[i].map->dso : NULL;

		if (f[i].inlined || f[i].truncated)
			return false;
		if (dso && dso->kind != DSO_USER && dso->kind != DSO_KERNEL)
			return false;
		if (dso && !__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE))
			return false;
	}
	return true;
}

void callchain_cursor__exit(struct callchain_cursor *c)
{
	if (c->cache && c->cache->borrowed)
		cursor__unborrow(c, false);
	zfree(&c->frames);
	c->nr = c->alloc = 0;
	callchain_cache__free(c->cache);
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
	if (o && o->srcline && dso)
		f->srcline = dso__srcline(dso, f->addr);
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

static int resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			     struct thread *thread, const struct resolve_opts *opts,
			     struct callchain_cursor *cursor)
{
	unsigned int max = opts && opts->max_stack ? opts->max_stack : DEFAULT_MAX_STACK;
	const struct ip_callchain *cc = sample->callchain;
	bool dwarf = evsel__has_dwarf_stack(evsel) && sample->user_regs.regs &&
		     sample->user_stack.size;
	uint8_t cpumode = sample->cpumode;
	int err;

	cursor->nr = 0;
	cursor->truncated = false;
	cursor->discarded = false;
	if (!cc || !cc->nr) {
		if (dwarf && cpumode == PERF_RECORD_MISC_USER)
			goto unwind;
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

		err = unwind__get_entries(unwind_cb, &ua, thread, sample, (int)(max - cursor->nr));
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

/* Remember the cursor's frames for the raw chain in slot e. */
static void chain_cache__store(struct callchain_cache *cache, struct chain_cache_entry *e,
			       uint64_t hash, const struct ip_callchain *cc, const void *maps,
			       const void *machine, uint8_t cpumode, uint32_t opts_key, uint64_t gen,
			       struct callchain_cursor *cursor)
{
	size_t need;

	e->id = 0;
	need = cc->nr * sizeof(*e->ips) + (cursor->nr ? cursor->nr : 1) * sizeof(*e->frames);
	if (e->cap < need) {
		free(e->ips);
		e->cap = 0;
		e->ips = malloc(need);
		if (!e->ips)
			return;
		e->cap = need;
	}
	e->frames = (struct callchain_frame *)(e->ips + cc->nr);
	memcpy(e->ips, cc->ips, cc->nr * sizeof(*e->ips));
	memcpy(e->frames, cursor->frames, cursor->nr * sizeof(*e->frames));
	e->hash = hash;
	e->gen = gen;
	e->maps = maps;
	e->machine = machine;
	e->opts_key = opts_key;
	e->cpumode = cpumode;
	e->discarded = cursor->discarded;
	e->nr_ips = (uint32_t)cc->nr;
	e->nr_frames = cursor->nr;
	e->id = cache->next_id++;
	cursor->chain_id = e->id;
}

/*
 * Resolution ahead on the unwinding workers (unwind.h, unwind__set_ahead()):
 * a DWARF sample's whole resolution, done into a slot cursor of the batch,
 * is what the delivering thread's sample__resolve_callchain() then copies.
 * The key carries the options (resolve_opts__key() is one-to-one for
 * max_stack < 65536), so the job needs no pointer into the caller's.
 */
struct ahead_slot {
	struct callchain_cursor c;	/* the frames; nr_unwound/nr_truncated: this sample's */
	int err;
};

static void ahead_job(uint64_t key, struct thread *thread, struct perf_sample *sample,
		      struct evsel *evsel, void **slotp)
{
	struct resolve_opts o = {
		.max_stack = key & 0xffff,
		.hide_unresolved = key >> 16 & 1,
		.srcline = key >> 17 & 1,
		.inline_frames = key >> 18 & 1,
	};
	struct ahead_slot *s = *slotp;

	if (!s && !(s = *slotp = calloc(1, sizeof(*s))))
		return;
	s->c.nr_unwound = s->c.nr_truncated = 0;
	s->err = resolve_callchain(sample, evsel, thread, &o, &s->c);
}

static void ahead_slot__free(void *slot)
{
	struct ahead_slot *s = slot;

	callchain_cursor__exit(&s->c);
	free(s);
}

/* The DWARF sample's resolution from the workers, or 1: resolve it here. */
static int resolve_ahead(struct perf_sample *sample, struct thread *thread, uint32_t opts_key,
			 struct callchain_cursor *cursor)
{
	struct unwind_ahead a = { ahead_job, ahead_slot__free, opts_key };
	struct ahead_slot *s;

	unwind__set_ahead(&a);
	s = unwind__ahead_take(thread, sample, opts_key);
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

int sample__resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			      struct thread *thread, const struct resolve_opts *opts,
			      struct callchain_cursor *cursor)
{
	struct callchain_cache *cache = cursor->cache;
	const struct ip_callchain *cc = sample->callchain;
	struct chain_cache_entry *e;
	const void *maps, *machine;
	uint64_t hash, gen, slot;
	uint32_t opts_key;
	int err;

	cursor->chain_id = 0;
	if (cache && cache->borrowed)
		cursor__unborrow(cursor, false);
	if (evsel__has_dwarf_stack(evsel)) {
		if (thread && sample->user_stack.size && (!opts || opts->max_stack <= 0xffff) &&
		    (err = resolve_ahead(sample, thread,
					 resolve_opts__key(opts, opts && opts->max_stack ?
							   opts->max_stack : DEFAULT_MAX_STACK),
					 cursor)) <= 0)
			return err;
		return resolve_callchain(sample, evsel, thread, opts, cursor);
	}
	if (!cache || !cc || !cc->nr || cc->nr > CHAIN_CACHE_MAX_IPS ||
	    !thread || !callchain_cache__slots(cache))
		return resolve_callchain(sample, evsel, thread, opts, cursor);
	maps = thread->maps;
	machine = thread__machine(thread);
	opts_key = resolve_opts__key(opts, opts && opts->max_stack ? opts->max_stack
								   : DEFAULT_MAX_STACK);
	gen = maps__current_generation();
	hash = chain_hash(cc->ips, cc->nr, maps, sample->cpumode, opts_key);
	slot = hash >> (64 - CHAIN_CACHE_BITS);
	e = &cache->slots[slot];
	if (e->id && e->hash == hash && e->gen == gen && e->maps == maps &&
	    e->machine == machine && e->cpumode == sample->cpumode && e->opts_key == opts_key &&
	    e->nr_ips == cc->nr && !memcmp(e->ips, cc->ips, cc->nr * sizeof(*e->ips))) {
		/* lend the entry's frames (valid until the next resolve) */
		cache->own = cursor->frames;
		cache->own_alloc = cursor->alloc;
		cache->borrowed = true;
		cursor->frames = e->frames;
		cursor->alloc = 0;
		cursor->nr = e->nr_frames;
		cursor->truncated = false;
		cursor->discarded = e->discarded;
		cursor->chain_id = e->id;
		cache->nr_hits++;
		return 0;
	}
	cache->nr_misses++;
	err = resolve_callchain(sample, evsel, thread, opts, cursor);
	if (err || maps__current_generation() != gen ||
	    !frames__cacheable(cursor->frames, cursor->nr))
		return err;
	if (cache->seen[slot] != hash) {
		cache->seen[slot] = hash;	/* first time: stored if met again */
		return 0;
	}
	chain_cache__store(cache, e, hash, cc, maps, machine, sample->cpumode, opts_key, gen,
			   cursor);
	return 0;
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
	if (dso->kind == DSO_USER && dso__debug_file(dso))
		return "??:0";	/* DWARF, but no line for this address */
	if (with_sym && f->sym && !f->sym->inlined)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym->name, f->addr - f->sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name,
			 dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE ? f->ip : f->addr);
	return dso__intern_str(dso, buf) ?: "??:0";
}
