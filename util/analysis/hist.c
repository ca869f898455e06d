// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram entries of prf report (see hist.h).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "../session/resolve.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/psort.h"
#include "../lib/rbtree-idx.h"
#include "../lib/tunables.h"
#include "../lib/util.h"
#include "../model/callchain.h"
#include "../model/dso.h"
#include "../model/machine.h"
#include "../model/map.h"
#include "../lib/helper-thread.h"

#define SLAB_ENTRIES 4096

struct str_intern {
	char **tab;
	uint64_t *hashes;
	size_t mask, nr;
	/* the last strings asked for, by address (direct mapped): samples
	 * come with the few comm strings of the machine over and over */
	struct { const char *in, *out; } memo[16];
};

/* the entries' copies of their hist_mem, in chunks */
#define MEM_CHUNK 1024
struct mem_chunk {
	struct mem_chunk *next;
	size_t used;
	struct hist_mem m[MEM_CHUNK];
};

struct hists_priv {
	struct mem_chunk *mems;		/* newest first */
	struct hist_entry **slabs;	/* slab directory, alloc_slabs slots */
	size_t nr_slabs, slab_used, alloc_slabs;
	/*
	 * For hists__presort() on another thread: the entries whose keys are
	 * set (stored with release after each entry is filled in) and the
	 * directory (published with release before an entry of a new slab
	 * is). A directory outgrown is kept in old_dirs until exit, as the
	 * presorting thread may still read it.
	 */
	size_t published;
	struct hist_entry **pub_slabs;
	struct hist_entry ***old_dirs;
	size_t nr_old_dirs;
	/* perf's input tree built ahead (hists__presort()): node i is entry i
	 * (creation order); pre_n entries in it */
	struct rbi_tree pre;
	size_t pre_n, pre_alloc;
	struct str_intern comms;
	struct str_intern srcfiles;	/* --sort srcfile */
	/* per-sample scratch */
	uint32_t *ids;			/* frame ids, display order */
	struct hist_entry **he_cache;	/* entries already counted */
	unsigned int scratch_alloc;
	/* (ip, map, sym) -> callchain store frame id, direct mapped: the
	 * same return addresses repeat in almost every chain */
	struct frame_memo *fmemo;
	/* (self entry, resolved chain id) -> what that sample did, replayed
	 * for later samples with the same pair (see chain_memo__replay()) */
	struct chain_memo *cmemo;
	/* raw key fields -> entry, direct mapped (see hists__findnew_self) */
	struct self_memo *smemo;
	bool smemo_addr;		/* the keys tell a resolved symbol's
					   addresses apart (symoff, srcline,
					   srcfile, addr): memo by address */
	struct memo_hit *rec;		/* the sample being recorded */
	uint32_t nr_rec, alloc_rec;
	bool rec_failed;
};

#define CHAIN_MEMO_BITS 15
#define SELF_MEMO_BITS 12

/* Every field a sort key can compare (a superset of any sort order's
 * keys): equal fields, equal keys, same entry. */
struct self_memo {
	const struct thread *thread;
	const char *comm;
	const struct dso *dso;		/* not the map: a freed map's address
					   may come back for another DSO */
	const struct symbol *sym;
	uint64_t ip, addr;
	const char *parent, *srcline, *trace, *srcfile;
	uint64_t time, weight, vaddr, cgroup;
	int32_t cpu, socket;
	char level;
	struct hist_entry *he;		/* NULL: empty */
};

/* One entry a sample touched: its accumulated values (unless it is the
 * self entry, already counted) and the trie leaf its chain ended at (0:
 * no callchain trie). */
struct memo_hit {
	struct hist_entry *he;
	uint32_t leaf;
	bool self;
};

struct chain_memo {
	const struct hist_entry *he;
	uint64_t chain_id;		/* 0: empty */
	uint32_t nr, cap;
	struct memo_hit *hits;
};

#define FRAME_MEMO_BITS 14

/* key: the frame's identity in the store: (dso, symbol) when resolved,
 * else (dso, ip); (dso, symbol, ip) for the address and srcline keys */
struct frame_memo {
	const struct dso *dso;
	const struct symbol *sym;
	uint64_t ip;			/* 0 when sym */
	uint32_t id;
};

/* The store's id of frame f (same answer as callchain_store__frame_id,
 * whose identity is (dso, sym, ip when no sym)); 0 on ENOMEM. */
static uint32_t hists__frame_id(struct hists *hists, struct hists_priv *p,
				const struct callchain_frame *f)
{
	const struct dso *dso = f->map ? f->map->dso : NULL;
	/* address/srcline keys: frames of one symbol differ by ip */
	uint64_t ip = f->sym && hists->store.key == CCKEY_FUNCTION ? 0 : f->ip;
	struct frame_memo *m;
	uint64_t h;

	if (unlikely(!p->fmemo)) {
		p->fmemo = zalloc_written(sizeof(*p->fmemo) << FRAME_MEMO_BITS);
		if (!p->fmemo)
			return callchain_store__frame_id(&hists->store, f);
	}
	h = (ip ^ ((uintptr_t)f->sym >> 3) ^ ((uintptr_t)dso << 17)) * 0x9e3779b97f4a7c15ULL;
	m = &p->fmemo[h >> (64 - FRAME_MEMO_BITS)];
	if (m->id && m->sym == f->sym && m->ip == ip && m->dso == dso)
		return m->id;
	m->id = callchain_store__frame_id(&hists->store, f);
	m->dso = dso;
	m->sym = f->sym;
	m->ip = ip;
	return m->id;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static const char *str_intern_slow(struct str_intern *t, const char *s);

/* s interned; s's text must not change while t lives (it is memoized by
 * address) */
static const char *str_intern(struct str_intern *t, const char *s)
{
	size_t k = ((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ULL >> 60;
	const char *out;

	if (s && t->memo[k].in == s)
		return t->memo[k].out;
	out = str_intern_slow(t, s);
	if (out) {
		t->memo[k].in = s;
		t->memo[k].out = out;
	}
	return out;
}

static const char *str_intern_slow(struct str_intern *t, const char *s)
{
	uint64_t h;
	size_t slot;

	if (!s)
		return NULL;
	if ((t->nr + 1) * 2 > t->mask + 1 || !t->tab) {
		size_t nmask = t->tab ? (t->mask + 1) * 2 - 1 : 63;
		char **ntab = calloc(nmask + 1, sizeof(*ntab));
		uint64_t *nh = calloc(nmask + 1, sizeof(*nh));

		if (!ntab || !nh) {
			free(ntab);
			free(nh);
			return NULL;
		}
		for (size_t i = 0; t->tab && i <= t->mask; i++) {
			if (!t->tab[i])
				continue;
			slot = t->hashes[i] & nmask;
			while (ntab[slot])
				slot = (slot + 1) & nmask;
			ntab[slot] = t->tab[i];
			nh[slot] = t->hashes[i];
		}
		free(t->tab);
		free(t->hashes);
		t->tab = ntab;
		t->hashes = nh;
		t->mask = nmask;
	}
	h = str_hash(s);
	slot = h & t->mask;
	while (t->tab[slot]) {
		if (t->hashes[slot] == h && !strcmp(t->tab[slot], s))
			return t->tab[slot];
		slot = (slot + 1) & t->mask;
	}
	t->tab[slot] = strdup(s);
	if (!t->tab[slot])
		return NULL;
	t->hashes[slot] = h;
	t->nr++;
	return t->tab[slot];
}

static void str_intern__exit(struct str_intern *t)
{
	for (size_t i = 0; t->tab && i <= t->mask; i++)
		free(t->tab[i]);
	free(t->tab);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}

int hists__init(struct hists *hists, const struct sort_order *so,
		const struct callchain_param *cc, bool use_callchain)
{
	struct hists_priv *p;

	memset(hists, 0, sizeof(*hists));
	hists->so = so;
	hists->cc = cc;
	hists->use_callchain = use_callchain;
	hists->hmask = 1023;
	hists->htab = calloc(hists->hmask + 1, sizeof(*hists->htab));
	p = zalloc(sizeof(*p));
	hists->priv = p;
	if (!hists->htab || !p || callchain_store__init(&hists->store)) {
		hists__exit(hists);
		return -ENOMEM;
	}
	return 0;
}

/* Call fn for every entry, in creation order. */
static void hists__for_each_slab_entry(struct hists *hists, void (*fn)(struct hist_entry *he))
{
	struct hists_priv *p = hists->priv;
	size_t n = 0;

	for (size_t i = 0; p && i < p->nr_slabs; i++) {
		size_t used = i + 1 == p->nr_slabs ? p->slab_used : SLAB_ENTRIES;

		for (size_t j = 0; j < used && n < hists->nr_entries; j++, n++)
			fn(p->slabs[i] + j);
	}
}

static void entry_put_refs(struct hist_entry *he)
{
	thread__put(he->thread);
	map__put(he->map);
}

void hists__hold_refs(struct hists *hists)
{
	hists->hold_refs = true;
	hists->store.hold_refs = true;
}

void hists__forget_memos(struct hists *hists)
{
	struct hists_priv *p = hists->priv;

	if (p && p->smemo)
		memset(p->smemo, 0, sizeof(*p->smemo) << SELF_MEMO_BITS);
}

void hists__exit(struct hists *hists)
{
	struct hists_priv *p = hists->priv;

	if (hists->hold_refs)
		hists__for_each_slab_entry(hists, entry_put_refs);
	if (p) {
		for (size_t i = 0; i < p->nr_slabs; i++)
			free(p->slabs[i]);
		free(p->slabs);
		for (size_t i = 0; i < p->nr_old_dirs; i++)
			free(p->old_dirs[i]);
		free(p->old_dirs);
		free(p->pre.n);
		str_intern__exit(&p->comms);
		str_intern__exit(&p->srcfiles);
		free(p->ids);
		free(p->he_cache);
		free(p->fmemo);
		free(p->smemo);
		if (p->cmemo) {
			for (size_t i = 0; i < (1u << CHAIN_MEMO_BITS); i++)
				free(p->cmemo[i].hits);
			free(p->cmemo);
		}
		free(p->rec);
		for (struct mem_chunk *c = p->mems, *n; c; c = n) {
			n = c->next;
			free(c);
		}
		free(p);
	}
	free(hists->htab);
	free(hists->sorted);
	callchain_store__exit(&hists->store);
	memset(hists, 0, sizeof(*hists));
}

static struct hist_entry *entry_alloc(struct hists_priv *p)
{
	if (!p->nr_slabs || p->slab_used == SLAB_ENTRIES) {
		struct hist_entry *slab;

		if (p->nr_slabs == p->alloc_slabs) {
			/* a new directory: the old one may be being read */
			size_t na = p->alloc_slabs ? p->alloc_slabs * 2 : 64;
			struct hist_entry **ns = malloc(na * sizeof(*ns));
			struct hist_entry ***od = realloc(p->old_dirs,
							  (p->nr_old_dirs + 1) * sizeof(*od));

			if (!ns || !od) {
				free(ns);
				if (od)
					p->old_dirs = od;
				return NULL;
			}
			p->old_dirs = od;
			if (p->slabs) {
				memcpy(ns, p->slabs, p->nr_slabs * sizeof(*ns));
				p->old_dirs[p->nr_old_dirs++] = p->slabs;
			}
			p->slabs = ns;
			p->alloc_slabs = na;
		}
		slab = malloc(SLAB_ENTRIES * sizeof(struct hist_entry));
		if (!slab)
			return NULL;
		p->slabs[p->nr_slabs++] = slab;
		p->slab_used = 0;
		__atomic_store_n(&p->pub_slabs, p->slabs, __ATOMIC_RELEASE);
	}
	return (struct hist_entry *)p->slabs[p->nr_slabs - 1] + p->slab_used++;
}

static int htab_grow(struct hists *hists)
{
	size_t nmask = (hists->hmask + 1) * 2 - 1;
	struct hist_entry **n = zalloc_written((nmask + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i <= hists->hmask; i++) {
		struct hist_entry *e = hists->htab[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = n[e->hash & nmask];
			n[e->hash & nmask] = e;
		}
	}
	free(hists->htab);
	hists->htab = n;
	hists->hmask = nmask;
	return 0;
}

/* Find or add the entry with tmpl's keys; NULL on ENOMEM. */
static struct hist_entry *hists__findnew(struct hists *hists, struct hist_entry *tmpl)
{
	const struct sort_order *so = hists->so;
	uint64_t h = hist_entry__hash_keys(so, tmpl);
	struct hist_entry *e;

	for (e = hists->htab[h & hists->hmask]; e; e = e->next)
		if (e->hash == h && !hist_entry__cmp_keys(so, e, tmpl))
			return e;
	e = entry_alloc(hists->priv);
	if (!e)
		return NULL;
	*e = *tmpl;
	if (tmpl->mem) {
		struct hists_priv *p = hists->priv;
		struct mem_chunk *c = p->mems;

		if (!c || c->used == MEM_CHUNK) {
			c = malloc(sizeof(*c));
			if (!c)
				return NULL;
			c->next = p->mems;
			c->used = 0;
			p->mems = c;
		}
		c->m[c->used] = *tmpl->mem;
		e->mem = &c->m[c->used++];
	}
	e->hash = h;
	e->period = e->period_acc = 0;
	e->period_sys = e->period_us = 0;
	e->nr_samples = e->nr_samples_acc = 0;
	e->cc_root = 0;
	e->max_depth = 0;
	e->mark = 0;
	e->filtered = tmpl->filtered;
	e->seq = hists->nr_entries;
	if (hists->hold_refs) {
		thread__get(e->thread);
		map__get(e->map);
	}
	if (hists->use_callchain) {
		e->cc_root = callchain_store__new_root(&hists->store);
		if (!e->cc_root)
			return NULL;
	}
	e->next = hists->htab[h & hists->hmask];
	hists->htab[h & hists->hmask] = e;
	++hists->nr_entries;
	__atomic_store_n(&((struct hists_priv *)hists->priv)->published, hists->nr_entries,
			 __ATOMIC_RELEASE);
	if (hists->nr_entries > hists->hmask + 1 && htab_grow(hists))
		return NULL;
	return e;
}

/* hists__findnew() for a sample's self entry, remembering the answer per
 * exact field values (entries are never removed while adding samples). */
static struct hist_entry *hists__findnew_self(struct hists *hists, struct hists_priv *p,
					      struct hist_entry *tmpl)
{
	struct self_memo *m;
	struct hist_entry *he;
	uint64_t h;

	uint64_t ip = tmpl->ip, addr = tmpl->addr;

	if (hists->so->mem_keys)	/* the memo knows no data address */
		return hists__findnew(hists, tmpl);

	if (unlikely(!p->smemo)) {
		p->smemo = calloc(1u << SELF_MEMO_BITS, sizeof(*p->smemo));
		if (!p->smemo)
			return hists__findnew(hists, tmpl);
		p->smemo_addr = sort_order__has_key(hists->so, SORT_SYMOFF) ||
				sort_order__has_key(hists->so, SORT_SRCLINE) ||
				sort_order__has_key(hists->so, SORT_SRCFILE) ||
				sort_order__has_key(hists->so, SORT_ADDR);
	}
	/* unless a key tells the addresses in one resolved symbol apart,
	 * all of them are one memo slot */
	if (tmpl->sym && !p->smemo_addr)
		ip = addr = 0;
	h = (uintptr_t)tmpl->thread ^ ((uintptr_t)tmpl->sym << 7) ^ (ip * 0x9e3779b97f4a7c15ULL) ^
	    ((uintptr_t)tmpl->comm << 13) ^ (uint64_t)(uint32_t)tmpl->cpu;
	h *= 0xff51afd7ed558ccdULL;
	m = &p->smemo[h >> (64 - SELF_MEMO_BITS)];
	if (m->he && m->thread == tmpl->thread && m->comm == tmpl->comm && m->dso == tmpl->dso &&
	    m->sym == tmpl->sym && m->ip == ip && m->addr == addr &&
	    m->cpu == tmpl->cpu && m->level == tmpl->level && m->parent == tmpl->parent &&
	    m->srcline == tmpl->srcline && m->trace == tmpl->trace && m->time == tmpl->time &&
	    m->srcfile == tmpl->srcfile && m->weight == tmpl->weight && m->vaddr == tmpl->vaddr &&
	    m->socket == tmpl->socket && m->cgroup == tmpl->cgroup)
		return m->he;
	he = hists__findnew(hists, tmpl);
	if (!he)
		return NULL;
	*m = (struct self_memo){ .thread = tmpl->thread, .comm = tmpl->comm, .dso = tmpl->dso,
				 .sym = tmpl->sym, .ip = ip, .addr = addr,
				 .parent = tmpl->parent, .srcline = tmpl->srcline,
				 .trace = tmpl->trace, .time = tmpl->time,
				 .srcfile = tmpl->srcfile, .weight = tmpl->weight,
				 .vaddr = tmpl->vaddr, .cpu = tmpl->cpu, .socket = tmpl->socket,
				 .cgroup = tmpl->cgroup,
				 .level = tmpl->level,
				 .he = he };
	return he;
}

/*
 * hists__findnew_self()'s memo asked straight from the sample, for a
 * resolved symbol when neither symoff, parent nor srcfile is a key (the
 * template it would build has ip, addr, parent and srcfile 0): the entry
 * of a hit, else NULL (the caller builds the template).
 */
static struct hist_entry *self_memo__hit(const struct hists_priv *p, const struct hist_sample *s,
					 const char *comm)
{
	const struct dso *dso = s->map ? s->map->dso : NULL;
	const struct self_memo *m;
	uint64_t h;

	h = (uintptr_t)s->thread ^ ((uintptr_t)s->sym << 7) ^ ((uintptr_t)comm << 13) ^
	    (uint64_t)(uint32_t)s->cpu;
	h *= 0xff51afd7ed558ccdULL;
	m = &p->smemo[h >> (64 - SELF_MEMO_BITS)];
	if (m->he && m->thread == s->thread && m->comm == comm && m->dso == dso &&
	    m->sym == s->sym && !m->ip && !m->addr && m->cpu == s->cpu &&
	    m->level == (s->level ? s->level : '.') && !m->parent && m->srcline == s->srcline &&
	    m->trace == s->trace && m->time == s->time && !m->srcfile && m->weight == s->weight &&
	    m->vaddr == s->ip && m->socket == s->socket && m->cgroup == s->cgroup)
		return m->he;
	return NULL;
}

/* The file of a "file:LINE" srcline, interned; NULL (perf's empty
 * srcfile) for "??:0", a "sym+OFF" one or none. */
static const char *hists__srcfile(struct hists_priv *p, const char *srcline)
{
	char buf[4096];
	const char *colon = srcline ? strchr(srcline, ':') : NULL;
	size_t len;

	if (!colon || colon == srcline || !isdigit((unsigned char)colon[1]) ||
	    !strncmp(srcline, "??:", 3))
		return NULL;
	len = (size_t)(colon - srcline);
	if (len >= sizeof(buf))
		return NULL;
	memcpy(buf, srcline, len);
	buf[len] = '\0';
	return str_intern_slow(&p->srcfiles, buf);
}

static int scratch_reserve(struct hists_priv *p, unsigned int n)
{
	if (n <= p->scratch_alloc)
		return 0;
	n = n < 64 ? 64 : n * 2;
	free(p->ids);
	free(p->he_cache);
	p->ids = malloc(n * sizeof(*p->ids));
	p->he_cache = malloc((n + 1) * sizeof(*p->he_cache));
	if (!p->ids || !p->he_cache) {
		p->scratch_alloc = 0;
		return -ENOMEM;
	}
	p->scratch_alloc = n;
	return 0;
}

static struct chain_memo *chain_memo__slot(struct hists_priv *p, const struct hist_entry *he,
					   uint64_t chain_id)
{
	uint64_t h;

	if (unlikely(!p->cmemo)) {
		/* written now: hists__exit() reads every slot (a calloc'd
		 * table's untouched pages would each fault there) */
		p->cmemo = zalloc_written(sizeof(*p->cmemo) << CHAIN_MEMO_BITS);
		if (!p->cmemo)
			return NULL;
	}
	h = ((uintptr_t)he ^ (chain_id * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
	return &p->cmemo[h >> (64 - CHAIN_MEMO_BITS)];
}

static void chain_memo__record(struct hists_priv *p, struct hist_entry *he, uint32_t leaf,
			       bool self)
{
	if (p->rec_failed)
		return;
	if (p->nr_rec == p->alloc_rec) {
		uint32_t na = p->alloc_rec ? p->alloc_rec * 2 : 64;
		struct memo_hit *n = realloc(p->rec, na * sizeof(*n));

		if (!n) {
			p->rec_failed = true;
			return;
		}
		p->rec = n;
		p->alloc_rec = na;
	}
	p->rec[p->nr_rec++] = (struct memo_hit){ .he = he, .leaf = leaf, .self = self };
}

/* Keep the recorded sample in slot m (replacing what was there). */
static void chain_memo__store(struct hists_priv *p, struct chain_memo *m,
			      const struct hist_entry *he, uint64_t chain_id)
{
	m->chain_id = 0;
	if (p->rec_failed)
		return;
	if (m->cap < p->nr_rec) {
		struct memo_hit *n = realloc(m->hits, p->nr_rec * sizeof(*n));

		if (!n)
			return;
		m->hits = n;
		m->cap = p->nr_rec;
	}
	if (p->nr_rec)
		memcpy(m->hits, p->rec, p->nr_rec * sizeof(*m->hits));
	m->nr = p->nr_rec;
	m->he = he;
	m->chain_id = chain_id;
}

/*
 * A sample whose self entry and resolved chain (same chain_id: the very
 * same frames) were seen before touches the same entries and trie leaves
 * as that earlier one did: every other entry of the chain is found from
 * the self entry's keys plus the frame's, and the trie walk is the same.
 * So its effect is replayed without the per-frame work.
 */
static void chain_memo__replay(struct hists *hists, const struct chain_memo *m, uint64_t period)
{
	struct cc_node *nodes = hists->store.nodes;

	for (uint32_t i = 0; i < m->nr; i++) {
		const struct memo_hit *x = &m->hits[i];

		if (!x->self) {
			x->he->period_acc += period;
			x->he->nr_samples_acc++;
		}
		if (x->leaf) {
			nodes[x->leaf].hit += period;
			nodes[x->leaf].count++;
		}
	}
}

static const char *find_parent(const struct sort_order *so, const struct callchain_cursor *c)
{
	for (unsigned int i = 0; c && i < c->nr; i++) {
		const struct symbol *sym = c->frames[i].sym;

		if (sym && !regexec(&so->parent_re, sym->name, 0, NULL, 0))
			return sym->name;
	}
	return NULL;
}

static inline char frame_level(uint8_t cpumode)
{
	return (cpumode == PERF_RECORD_MISC_KERNEL ||
		cpumode == PERF_RECORD_MISC_GUEST_KERNEL) ? 'k' : '.';
}

void hist_sample__from_resolved(struct hist_sample *s, const struct resolved_sample *rs)
{
	const struct perf_sample *sample = rs->sample;

	memzero_call(s, sizeof(*s));
	s->thread = rs->thread;
	s->comm = rs->comm;
	s->period = sample->period;	/* 0 counts 0, as perf (bpf-output samples) */
	s->cpu = (rs->evsel->attr.sample_type & PERF_SAMPLE_CPU) && sample->cpu != (uint32_t)-1 ?
		 (int32_t)sample->cpu : -1;
	s->map = rs->al.map;
	s->sym = rs->al.sym;
	s->addr = rs->al.map ? rs->al.addr : sample->ip;
	s->level = rs->al.level ? rs->al.level : '.';
}

/*
 * The address perf 6.1 shows for a callchain frame under --sort addr: it
 * maps the frame's ip out of the frame's map once more (ip + start -
 * pgoff), except where the map is the identity (kernel, modules, JIT,
 * anonymous memory such as [stack] or //anon).
 */
static uint64_t frame_vaddr(const struct callchain_frame *f)
{
	if (!f->map)
		return f->ip;
	switch (f->map->dso->kind) {
	case DSO_KERNEL:
	case DSO_KMODULE:
	case DSO_JIT:
	case DSO_ANON:
		return f->ip;
	default:
		return f->ip + f->map->start - f->map->pgoff;
	}
}

/* s's period and sample in its self entry he and in hists' totals */
static inline void hist_entry__count(struct hists *hists, struct hist_entry *he,
				     const struct hist_sample *s)
{
	hists__count_self(hists, he, s->period, s->level);
}

/* hists__add_sample(), and when self is not NULL the self entry in it for
 * a sample that touched nothing else (else NULL) */
static inline int hists__add(struct hists *hists, const struct hist_sample *s,
			     struct hist_entry **self)
{
	const struct sort_order *so = hists->so;
	struct hists_priv *p = hists->priv;
	const struct callchain_cursor *c = s->chain;
	unsigned int nr = c ? c->nr : 0;
	uint64_t mark;
	struct hist_entry tmpl, *he;
	bool caller = hists->cc && hists->cc->order == ORDER_CALLER;
	struct chain_memo *memo = NULL;
	uint32_t leaf;
	char level;

	/* no callchain work and a memo hit: no template to build */
	if (!hists->use_callchain && !so->cumulate && p->smemo && s->sym && !p->smemo_addr &&
	    !so->need_parent && !so->need_srcfile && !so->mem_keys) {
		const char *comm = str_intern(&p->comms, s->comm ? s->comm : "");

		he = comm ? self_memo__hit(p, s, comm) : NULL;
		if (he) {
			hist_entry__count(hists, he, s);
			if (self)
				*self = he;
			return 0;
		}
	}
	memzero_call(&tmpl, sizeof(tmpl));
	tmpl.thread = s->thread;
	tmpl.comm = str_intern(&p->comms, s->comm ? s->comm : "");
	if (!tmpl.comm)
		return -ENOMEM;
	tmpl.pid = s->thread ? s->thread->pid : -1;
	tmpl.tid = s->thread ? s->thread->tid : -1;
	tmpl.cpu = s->cpu;
	tmpl.filtered = s->filtered;
	if (so->need_parent)
		tmpl.parent = find_parent(so, c);

	/* the self entry: where the sample ip resolved */
	tmpl.map = s->map;
	tmpl.dso = s->map ? s->map->dso : NULL;
	tmpl.sym = s->sym;
	/* unresolved: perf shows ip - map start + pgoff (no ELF vaddr bias) */
	tmpl.ip = s->addr;
	if (!s->sym && s->map && s->map->dso->kind != DSO_KERNEL &&
	    s->map->dso->kind != DSO_KMODULE && s->map->dso->kind != DSO_JIT)
		tmpl.ip -= s->map->dso->text_offset;
	tmpl.addr = s->addr;
	tmpl.level = s->level ? s->level : '.';
	tmpl.srcline = s->srcline;
	tmpl.trace = s->trace;
	tmpl.time = s->time;
	tmpl.weight = s->weight;
	tmpl.vaddr = s->ip;
	tmpl.socket = s->socket;
	tmpl.cgroup = s->cgroup;
	tmpl.mem = so->mem_keys ? s->mem : NULL;
	if (so->need_srcfile)
		tmpl.srcfile = hists__srcfile(p, s->srcline);
	he = hists__findnew_self(hists, p, &tmpl);
	if (!he)
		return -ENOMEM;
	hist_entry__count(hists, he, s);

	if (!hists->use_callchain && !so->cumulate) {
		if (self)
			*self = he;
		return 0;
	}
	if (c && c->chain_id) {
		memo = chain_memo__slot(p, he, c->chain_id);
		if (memo && memo->chain_id == c->chain_id && memo->he == he) {
			chain_memo__replay(hists, memo, s->period);
			return 0;
		}
		p->nr_rec = 0;
		p->rec_failed = false;
	}
	if (scratch_reserve(p, nr + 1))
		return -ENOMEM;

	/* frame ids in display order */
	if (hists->use_callchain) {
		for (unsigned int i = 0; i < nr; i++) {
			const struct callchain_frame *f = &c->frames[caller ? nr - 1 - i : i];
			uint32_t id = hists__frame_id(hists, p, f);

			if (!id)
				return -ENOMEM;
			p->ids[i] = id;
		}
		leaf = callchain_store__append_leaf(&hists->store, he->cc_root, p->ids, nr,
						    s->period);
		if (!leaf)
			return -ENOMEM;
		if (nr > he->max_depth)
			he->max_depth = nr;
		if (memo)
			chain_memo__record(p, he, leaf, true);
	}
	if (!so->cumulate)
		goto out;

	mark = hists->nr_samples;	/* this sample's number, > 0 */
	he->mark = mark;
	level = he->level;
	for (unsigned int i = 0; i < nr; i++) {
		const struct callchain_frame *f = &c->frames[caller ? nr - 1 - i : i];
		struct hist_entry *ce;

		tmpl.map = f->map;
		tmpl.dso = f->map ? f->map->dso : NULL;
		tmpl.sym = f->sym;
		tmpl.ip = f->ip;
		tmpl.addr = f->addr;
		if (s->ip)	/* --sort addr */
			tmpl.vaddr = frame_vaddr(f);
		/* perf keeps the previous level for frames outside any map */
		if (f->map)
			level = frame_level(f->cpumode);
		tmpl.level = level;
		tmpl.srcline = f->srcline;
		/* perf 6.1 gives the entries of callchain frames no source
		 * file (its empty one), the sampled frame's own included */
		tmpl.srcfile = NULL;
		/* an entry met twice in one chain (recursion) counts once */
		ce = hists__findnew(hists, &tmpl);
		if (!ce)
			return -ENOMEM;
		if (ce->mark == mark && !so->chain_dups && !(so->socket_dups && ce->socket) &&
		    !(so->cgroup_dups && ce->cgroup))
			continue;
		ce->mark = mark;
		ce->period_acc += s->period;
		ce->nr_samples_acc++;
		leaf = 0;
		if (hists->use_callchain) {
			leaf = callchain_store__append_leaf(&hists->store, ce->cc_root, p->ids + i,
							    nr - i, s->period);
			if (!leaf)
				return -ENOMEM;
			if (nr - i > ce->max_depth)
				ce->max_depth = nr - i;
		}
		if (memo)
			chain_memo__record(p, ce, leaf, false);
	}
out:
	if (memo)
		chain_memo__store(p, memo, he, c->chain_id);
	return 0;
}

int hists__add_sample(struct hists *hists, const struct hist_sample *s)
{
	return hists__add(hists, s, NULL);
}

int hists__add_sample_self(struct hists *hists, const struct hist_sample *s,
			   struct hist_entry **self)
{
	*self = NULL;
	return hists__add(hists, s, self);
}

/*
 * Output order. perf inserts the entries, in their collapsed-tree order,
 * one by one into a red-black tree with its output comparison, which is
 * not transitive (the children tie rule compares depths only within one
 * thread); the result therefore depends on the tree's shape. To print the
 * same order we build the same tree: plain red-black insertion (the
 * classic bottom-up fix-up: recolor on a red uncle, else one or two
 * rotations), new entries going left when they compare before the node,
 * right otherwise, then an in-order walk.
 */
struct rb_out {
	struct hist_entry **e;
	struct rbi_tree t;
};

typedef int (*rb_cmp_fn)(const struct sort_order *so, const struct hist_entry *a,
			 const struct hist_entry *b);

/* the tree's order: the compact collapse keys when there are, else cmp */
struct rb_cmp {
	const struct sort_order *so;
	rb_cmp_fn cmp;
	struct collapse_keys *ck;
	bool ck_follow;		/* permute ck's keys along with the entries */
	const struct output_keys *ok;
};

static inline int rb_cmp__call(const struct rb_cmp *c, const struct rb_out *t, int32_t a,
			       int32_t b)
{
	if (c->ck)
		return collapse_keys__cmp(c->ck, (size_t)a, (size_t)b);
	if (c->ok)
		return output_keys__cmp(c->ok, (size_t)a, (size_t)b);
	return c->cmp(c->so, t->e[a], t->e[b]);
}

static void rb_insert(struct rb_out *t, int32_t x, const struct rb_cmp *c)
{
	struct rbi_link *n = t->t.n;
	int32_t cur = t->t.root, p = -1;
	int dir = 1;

	while (cur >= 0) {
		p = cur;
		dir = rb_cmp__call(c, t, x, cur) < 0 ? 0 : 1;
		cur = n[cur].child[dir];
	}
	rbi_insert(&t->t, x, p, dir);
}

int hists__presort(struct hists *hists, unsigned int budget)
{
	struct hists_priv *p = hists->priv;
	size_t avail = __atomic_load_n(&p->published, __ATOMIC_ACQUIRE);
	struct hist_entry **slabs = __atomic_load_n(&p->pub_slabs, __ATOMIC_ACQUIRE);
	unsigned int k;

	if (p->pre_n >= avail)
		return 0;
	if (avail > p->pre_alloc) {
		size_t na = p->pre_alloc ? p->pre_alloc : 4096;
		struct rbi_link *nl;

		while (na < avail)
			na *= 2;
		if (na > INT32_MAX || !(nl = realloc(p->pre.n, na * sizeof(*nl))))
			return 0;	/* the trees are built at the end instead */
		p->pre.n = nl;
		p->pre_alloc = na;
		if (!p->pre_n)
			p->pre.root = -1;
	}
	for (k = 0; k < budget && p->pre_n < avail; k++) {
		int32_t x = (int32_t)p->pre_n, cur = p->pre.root, par = -1;
		const struct hist_entry *e = slabs[x / SLAB_ENTRIES] + x % SLAB_ENTRIES;
		int side = 1;

		while (cur >= 0) {
			const struct hist_entry *c = slabs[cur / SLAB_ENTRIES] + cur % SLAB_ENTRIES;

			par = cur;
			side = hist_entry__cmp_collapse(hists->so, e, c) < 0 ? 0 : 1;
			cur = p->pre.n[cur].child[side];
		}
		rbi_insert(&p->pre, x, par, side);
		p->pre_n++;
	}
	return (int)k;
}

/* Insert e[0..n) in its current order into a red-black tree ordered by
 * c and replace it with the tree's in-order walk. What goes with the
 * entries position by position is permuted along: c->ck's keys (built on
 * e as it is) when c->ck_follow, and order[] when given. c->ok is used
 * as it is (keys of e as it is; only the last tree). *moved (may be
 * NULL): whether the walk differs from the input order. pre (NULL: none)
 * is a tree of e[0..pre_n) built the same way ahead of time
 * (hists__presort()), continued here. 0 or -ENOMEM. */
static int rb_order(struct hist_entry **e, size_t n, const struct rb_cmp *c, uint32_t *order,
		    bool *moved, const struct rbi_tree *pre, size_t pre_n)
{
	size_t k = 0;
	struct rb_out t;
	int32_t *stack, sp = 0, cur, *walk;
	struct hist_entry **out;
	int ret = -ENOMEM;

	t.e = e;
	t.t.n = malloc(n * sizeof(*t.t.n) + 1);
	stack = malloc(n * sizeof(int32_t) + 1);
	walk = malloc(n * sizeof(int32_t) + 1);
	out = malloc(n * sizeof(*out) + 1);
	t.t.root = -1;
	if (!t.t.n || !stack || !walk || !out)
		goto out;
	if (pre && pre_n) {
		memcpy(t.t.n, pre->n, pre_n * sizeof(*t.t.n));
		t.t.root = pre->root;
	} else {
		pre_n = 0;
	}
	for (size_t i = pre_n; i < n; i++)
		rb_insert(&t, (int32_t)i, c);
	cur = t.t.root;
	while (cur >= 0 || sp) {
		while (cur >= 0) {
			stack[sp++] = cur;
			cur = t.t.n[cur].child[0];
		}
		cur = stack[--sp];
		walk[k++] = cur;
		cur = t.t.n[cur].child[1];
	}
	for (size_t i = 0; i < n; i++)
		out[i] = t.e[walk[i]];
	memcpy(e, out, n * sizeof(*out));
	if (moved) {
		*moved = false;
		for (size_t i = 0; i < n && !*moved; i++)
			*moved = walk[i] != (int32_t)i;
	}
	if (order) {
		uint32_t *o = (uint32_t *)stack;	/* n slots, free now */

		for (size_t i = 0; i < n; i++)
			o[i] = order[walk[i]];
		memcpy(order, o, n * sizeof(*o));
	}
	if (c->ck && c->ck_follow &&
	    permute_rows(c->ck->k, sizeof(*c->ck->k), (const uint32_t *)walk, n))
		goto out;
	ret = 0;
out:
	free(t.t.n);
	free(stack);
	free(walk);
	free(out);
	return ret;
}

/*
 * Whether hist_entry__cmp_collapse() is a strict weak order on these
 * entries. Its one non-transitive part is the signed-difference address
 * compare (addr_sdiff_cmp: the sign of perf's "b - a" in 64 bits), which
 * orders values numerically when all of them agree in bit 63. The symbol
 * key applies it to unresolved ips and to symbol starts and ends; with a
 * dso key before it only within one DSO (the dso key compares name and
 * object). Without one, unresolved ips of different DSOs meet too, and a
 * resolved entry orders by DSO against an unresolved one by ip: only the
 * dso-first case is taken. When it is an order, perf's tree yields the
 * entries sorted, and re-inserting that order changes nothing. (Garbage
 * return addresses of frame-pointer chains through code without frame
 * pointers are what typically spreads one DSO's values over both halves.)
 */
#define ADDR_GROUPS 1024

static bool collapse_cmp_is_order(struct hist_entry *const *e, size_t n,
				  const struct sort_order *so)
{
	struct addr_group {
		const struct dso *dso;
		uint8_t bits;	/* bit 63 values seen: 1 clear, 2 set */
	} *tab;
	bool dso_seen = false, sym_key = false, ok = true;
	size_t used = 0;

	for (int i = 0; i < so->nr_keys; i++) {
		if (so->keys[i] == SORT_DSO)
			dso_seen = true;
		if (so->keys[i] == SORT_SYM || so->keys[i] == SORT_SYMOFF) {
			if (!dso_seen)
				return false;
			sym_key = true;
		}
	}
	if (!sym_key)
		return true;
	tab = calloc(ADDR_GROUPS, sizeof(*tab));
	if (!tab)
		return false;
	for (size_t j = 0; j < n && ok; j++) {
		size_t h = ((uintptr_t)e[j]->dso >> 4) * 0x9e3779b97f4a7c15ULL >> 32 &
			   (ADDR_GROUPS - 1);
		uint8_t bits;

		if (e[j]->sym)
			bits = (uint8_t)(1u << (e[j]->sym->start >> 63) | 1u << (e[j]->sym->end >> 63));
		else
			bits = (uint8_t)(1u << (e[j]->ip >> 63));
		while (tab[h].bits && tab[h].dso != e[j]->dso)
			h = (h + 1) & (ADDR_GROUPS - 1);
		if (!tab[h].bits) {
			if ((used + 1) * 2 > ADDR_GROUPS) {
				ok = false;	/* many DSOs: not worth a bigger table */
				break;
			}
			tab[h].dso = e[j]->dso;
			used++;
		}
		tab[h].bits |= bits;
		ok = tab[h].bits != 3;
	}
	free(tab);
	return ok;
}

/* cmp_collapse on the compact keys, then creation order (the keys are in
 * creation order): perf's tree keeps equal entries in insertion order */
static int collapse_key_seq_cmp(const void *a, const void *b, void *arg)
{
	const struct collapse_keys *ck = arg;
	const struct collapse_key *x = *(const struct collapse_key *const *)a;
	const struct collapse_key *y = *(const struct collapse_key *const *)b;
	int r = collapse_keys__cmp(ck, (size_t)(x - ck->k), (size_t)(y - ck->k));

	return r ? r : (x < y ? -1 : x > y);
}

/* When cmp_collapse is an order (collapse_cmp_is_order()), the entries
 * (in creation order) sorted by it, on all CPUs: what the trees give.
 * 0, -ENOTSUP (keys not encodable: use the trees) or -ENOMEM. */
static int collapse_sort(struct hists *hists, const struct sort_order *so)
{
	size_t n = hists->nr_sorted;
	struct collapse_keys ck;
	struct hist_entry **copy;
	void **v;
	int err = collapse_keys__init(&ck, so, hists->sorted, n);

	if (err)
		return err;
	v = malloc((n + 1) * sizeof(*v));
	copy = malloc((n + 1) * sizeof(*copy));
	if (!v || !copy) {
		free(v);
		free(copy);
		collapse_keys__exit(&ck);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = &ck.k[i];
	psort_ptrs(v, n, collapse_key_seq_cmp, &ck, 0);
	memcpy(copy, hists->sorted, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		hists->sorted[i] = copy[(struct collapse_key *)v[i] - ck.k];
	free(v);
	free(copy);
	collapse_keys__exit(&ck);
	return 0;
}

/* output_sort()'s compares: the words from 'from' on, as output_keys__cmp()
 * orders differing words (the tie rule left out), then creation order */
struct osort_arg {
	const struct output_keys *ok;
	unsigned int from;
	bool by_depth;			/* first the children tie rule's depth */
};

static int osort_cmp(const void *a, const void *b, void *arg)
{
	const struct osort_arg *o = arg;
	const struct output_keys *ok = o->ok;
	size_t i = (uintptr_t)*(void *const *)a, j = (uintptr_t)*(void *const *)b;
	const uint64_t *x = &ok->w[i * ok->nw], *y = &ok->w[j * ok->nw];

	if (o->by_depth && ok->tb[2 * i + 1] != ok->tb[2 * j + 1])
		return output_keys__depth_cmp(ok, i, j);
	for (unsigned int k = o->from; k < ok->nw; k++)
		if (x[k] != y[k])
			return output_keys__word_cmp(ok, k, x[k], y[k]);
	return i < j ? -1 : i > j;
}

/*
 * Whether every run of entries equal in the words up to kc (the children
 * value) has one thread or one depth (see output_sort()): the runs are
 * found by hashing those words. false also on ENOMEM.
 */
static bool output_ties_ordered(const struct output_keys *ok, size_t n, unsigned int kc)
{
	struct tie {
		size_t first;		/* entry + 1; 0: empty */
		uint8_t mixed;		/* 1: threads differ, 2: depths differ */
	} *tab;
	size_t mask = 1023;
	bool ordered = true;

	while (mask < 2 * n)
		mask = mask * 2 + 1;
	tab = calloc(mask + 1, sizeof(*tab));
	if (!tab)
		return false;
	for (size_t i = 0; i < n && ordered; i++) {
		const uint64_t *w = &ok->w[i * ok->nw];
		uint64_t h = 0;
		size_t slot;

		for (unsigned int k = 0; k <= kc; k++)
			h = (h ^ w[k]) * 0x9e3779b97f4a7c15ULL;
		for (slot = (h >> 20) & mask; tab[slot].first; slot = (slot + 1) & mask) {
			size_t j = tab[slot].first - 1;

			if (memcmp(&ok->w[j * ok->nw], w, (kc + 1) * sizeof(*w)))
				continue;
			if (ok->tb[2 * i] != ok->tb[2 * j])
				tab[slot].mixed |= 1;
			if (ok->tb[2 * i + 1] != ok->tb[2 * j + 1])
				tab[slot].mixed |= 2;
			if (tab[slot].mixed == 3) {
				pr_debug("output order: entries tie across threads and depths, "
					 "tree used\n");
				ordered = false;
			}
			break;
		}
		if (!tab[slot].first)
			tab[slot].first = i + 1;
	}
	free(tab);
	return ordered;
}

/*
 * perf's output tree gives the stable sort of its input by
 * hist_entry__cmp_output() whenever that compare is a strict weak order.
 * Its one part that may not be: the children tie rule, which orders
 * entries equal up to the children value by depth only when they belong
 * to one thread. Among such entries (a run of equal words up to that
 * one) it is an order when they are all of one thread (then depth, then
 * the other words decide) or all of one depth (the other words decide).
 * So: check that, sort by all words, then sort the runs of one thread
 * and several depths by depth first. Sorts e[0..n) on nthreads threads
 * (0: psort_threads()); ok: the output keys of e. 0, -ENOTSUP (a run
 * with several threads and depths: use the tree, on the same keys) or
 * -ENOMEM.
 */
static int output_sort(struct hist_entry **e, size_t n, const struct output_keys *ok,
		       int nthreads)
{
	struct hist_entry **copy;
	void **idx;	/* entry numbers */
	struct osort_arg arg = { .ok = ok };
	int kc = -1, err;

	for (unsigned int k = 0; k < ok->nw; k++) {
		if (ok->kind[k] != OKEY_CHILDREN)
			continue;
		if (kc >= 0)
			return -ENOTSUP;	/* two tie rules: not worth it */
		kc = (int)k;
	}
	if (kc >= 0 && !output_ties_ordered(ok, n, (unsigned int)kc))
		return -ENOTSUP;
	idx = malloc((n + 1) * sizeof(*idx));
	copy = malloc((n + 1) * sizeof(*copy));
	err = -ENOMEM;
	if (!idx || !copy)
		goto out;
	for (size_t i = 0; i < n; i++)
		idx[i] = (void *)(uintptr_t)i;
	psort_ptrs(idx, n, osort_cmp, &arg, nthreads);
	for (size_t a = 0, b; kc >= 0 && a < n; a = b) {
		bool one_depth = true;

		for (b = a + 1; b < n; b++) {
			size_t i = (uintptr_t)idx[a], j = (uintptr_t)idx[b];

			if (memcmp(&ok->w[i * ok->nw], &ok->w[j * ok->nw], (kc + 1) * sizeof(*ok->w)))
				break;
			one_depth &= ok->tb[2 * i + 1] == ok->tb[2 * j + 1];
		}
		if (one_depth)
			continue;
		arg.from = (unsigned int)kc + 1;
		arg.by_depth = true;
		qsort_r(idx + a, b - a, sizeof(*idx), osort_cmp, &arg);
	}
	memcpy(copy, e, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		e[i] = copy[(uintptr_t)idx[i]];
	err = 0;
out:
	free(idx);
	free(copy);
	return err;
}

/*
 * perf's output order of e[0..n) (its output tree on this input order):
 * a sort where the tree is an order (output_sort()), else the tree;
 * on the output keys ok of e when there are (NULL: the entries' compare).
 * nthreads as output_sort(). 0 or -ENOMEM.
 */
static int output_order(struct hist_entry **e, size_t n, const struct sort_order *so,
			const struct output_keys *ok, int nthreads)
{
	struct rb_cmp c = { .so = so, .cmp = hist_entry__cmp_output, .ok = ok };
	/* $PRF_OUTPUT_TREE=1: always the tree (tests compare the two) */
	int err = ok && !tunable__bool(TUNABLE_OUTPUT_TREE) ? output_sort(e, n, ok, nthreads)
							     : -ENOTSUP;

	return err == -ENOTSUP ? rb_order(e, n, &c, NULL, NULL, NULL, 0) : err;
}

/*
 * Column widths from the data (perf's hists__calc_col_len) of entries
 * e[0..n) (any order) into width[so->nr_cols]; so is only read.
 */
void hist_entries__col_widths(const struct sort_order *so, struct hist_entry *const *e,
			      size_t n, int *width)
{
	char buf[4096];
	bool unresolved = false;	/* a symbol column shows an address */
	bool unresolved_daddr = false;	/* a data address has no map */

	for (int c = 0; c < so->nr_cols; c++) {
		int type = so->cols[c].type, w = sort_column__min_width(so, type);

		if (type >= HPP_OVERHEAD || type == SORT_CPU || type == SORT_TIME ||
		    type == SORT_SOCKET ||
		    type == SORT_WEIGHT || type == SORT_LOCAL_WEIGHT || type == SORT_ADDR ||
		    type == SORT_IPC_NULL || type == SORT_MEM || type == SORT_SNOOP ||
		    type == SORT_TLB || type == SORT_LOCKED || type == SORT_BLOCKED ||
		    type == SORT_LOCAL_INS_LAT) {
			width[c] = w;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			const struct hist_entry *h = e[i];
			int len;

			if (h->filtered || (type == SORT_DSO && !h->dso))
				continue;
			if (type == SORT_COMM && h->thread) {
				/* perf sizes the column by the thread's last comm */
				len = strlen(thread__comm_str(h->thread));
			} else if ((type == SORT_SYM || type == SORT_SYMOFF) && !h->sym) {
				unresolved = true;
				len = 16 + 4 + 2;
			} else if (type == SORT_SYM_DADDR) {
				/* perf: the name, 4 and 16 + 2 for an address */
				len = 16 + 4 + 2;
				if (h->mem && h->mem->dsym)
					len += (int)symbol__name_len(h->mem->dsym);
			} else if (type == SORT_DSO_DADDR && !(h->mem && h->mem->ddso)) {
				unresolved_daddr = true;
				continue;
			} else if (type == SORT_SYM && h->sym->inlined) {
				/* perf sizes by "[.] name": " (inlined)" not counted */
				len = 4 + strlen(h->sym->name);
			} else {
				len = hist_entry__key_snprintf(so, h, type, buf, sizeof(buf));
			}
			if (len > w)
				w = len;
		}
		width[c] = w;
	}
	/* perf widens the DSO column to 16 when symbols are unresolved, the
	 * data DSO's when a data address has no map */
	for (int d = 0; d < so->nr_cols; d++)
		if (((unresolved && so->cols[d].type == SORT_DSO) ||
		     (unresolved_daddr && so->cols[d].type == SORT_DSO_DADDR)) && width[d] < 16)
			width[d] = 16;
}

/* work for a second CPU: the output keys and column widths of e[0..n),
 * then (when order) the output order of e */
struct side_job {
	struct output_keys *ok;
	const struct sort_order *so;
	struct hist_entry **e;
	size_t n;
	int *widths;
	bool order;
	int err;		/* output_keys__init()'s, then output_order()'s */
};

static void *side_thread(void *arg)
{
	struct side_job *j = arg;

	if (j->order) {
		j->err = output_order(j->e, j->n, j->so, j->ok, 1);
	} else {
		j->err = output_keys__init(j->ok, j->so, j->e, j->n);
		hist_entries__col_widths(j->so, j->e, j->n, j->widths);
	}
	return NULL;
}

/* below this many entries the trees take too little for a thread to pay */
#define SIDE_THREAD_MIN 20000

/*
 * The output order when perf's input tree (entries in creation order,
 * hist_entry__cmp_collapse) and, when a key needs collapsing (comm,
 * srcline), its collapsed tree (the same compare on the first tree's
 * order) must be built: those compares are not transitive for addresses
 * (signed differences). The first tree continues what hists__presort()
 * built during the run. The compact collapse keys are built once and
 * follow the entries from tree to tree. With a second CPU:
 *  - the output keys, which depend on nothing but the entries, are built
 *    there during the first tree, on the creation order, then moved to
 *    the first tree's order;
 *  - the collapsed tree, built on the first tree's order, mostly keeps it
 *    (its compare is an order but among unresolved addresses of one DSO
 *    far apart), so the output order is computed there on the first
 *    tree's order meanwhile; it is used when the collapsed tree did keep
 *    it, and computed again otherwise.
 * The column widths go there too (into widths[], *has_widths set).
 * Leaves hists->sorted in output order, the output keys in *ok when
 * built (*has_ok). 0 or -ENOMEM.
 */
static int trees_order(struct hists *hists, const struct sort_order *so, struct output_keys *ok,
		       bool *has_ok, int *widths, bool *has_widths)
{
	struct hists_priv *p = hists->priv;
	size_t n = hists->nr_sorted;
	bool twice = sort_order__has_key(so, SORT_COMM) || sort_order__has_key(so, SORT_SRCLINE);
	struct side_job job = { .ok = ok, .so = so, .n = n, .widths = widths };
	struct collapse_keys ck;
	struct rb_cmp c = { .so = so, .cmp = hist_entry__cmp_collapse };
	uint32_t *order;	/* per position: where the last tree took it from */
	struct helper_thread thr;
	bool side = false, moved = true;
	int err;

	*has_ok = false;
	err = collapse_keys__init(&ck, so, hists->sorted, n);
	if (err == -ENOMEM)
		return err;
	if (!err)
		c.ck = &ck;
	c.ck_follow = twice;	/* the second tree compares them again */
	err = -ENOMEM;
	order = malloc(n * sizeof(*order) + 1);
	if (!order)
		goto out;
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	if (n >= SIDE_THREAD_MIN && psort_threads() >= 2 &&
	    (job.e = malloc(n * sizeof(*job.e) + 1))) {
		memcpy(job.e, hists->sorted, n * sizeof(*job.e));
		side = !helper_thread__start(&thr, side_thread, &job);
	}
	pr_debug("collapse tree: %zu of %zu entries inserted ahead\n", p->pre_n < n ? p->pre_n : n,
		 n);
	err = rb_order(hists->sorted, n, &c, order, NULL, &p->pre, p->pre_n < n ? p->pre_n : n);
	if (side) {
		helper_thread__join(&thr);
		side = false;
		*has_widths = true;
		if (!job.err) {
			*has_ok = true;		/* on the creation order */
			if (!err)
				err = output_keys__permute(ok, order, n);
		} else if (job.err == -ENOMEM) {
			err = -ENOMEM;
		}
		if (!err && twice) {
			memcpy(job.e, hists->sorted, n * sizeof(*job.e));
			job.ok = *has_ok ? ok : NULL;
			job.order = true;
			side = !helper_thread__start(&thr, side_thread, &job);
		}
	}
	if (!err && twice) {
		for (size_t i = 0; i < n; i++)
			order[i] = (uint32_t)i;
		c.ck_follow = false;
		err = rb_order(hists->sorted, n, &c, order, &moved, NULL, 0);
	}
	if (side) {
		helper_thread__join(&thr);
		pr_debug("output order beside the collapsed tree: %s\n",
			 moved ? "not used (the tree moved entries)" : "used");
		if (!err && !moved && !job.err) {
			memcpy(hists->sorted, job.e, n * sizeof(*job.e));
			goto out;	/* the second tree kept the first's order */
		}
	}
	if (!err && *has_ok && twice && moved)
		err = output_keys__permute(ok, order, n);
	if (!err && !*has_ok) {
		int kerr = output_keys__init(ok, so, hists->sorted, n);

		if (kerr == -ENOMEM)
			err = kerr;
		*has_ok = !kerr;
	}
	if (!err)
		err = output_order(hists->sorted, n, so, *has_ok ? ok : NULL, 0);
out:
	free(job.e);
	free(order);
	if (c.ck)
		collapse_keys__exit(&ck);
	if (err && *has_ok) {
		output_keys__exit(ok);
		*has_ok = false;
	}
	return err;
}

int hists__output_resort(struct hists *hists, struct sort_order *so)
{
	struct hists_priv *p = hists->priv;
	struct output_keys ok;
	bool has_ok = false, has_widths = false;
	int widths[SORT_MAX_COLUMNS];
	size_t n = 0;
	int err;

	free(hists->sorted);
	hists->sorted = malloc((hists->nr_entries + 1) * sizeof(*hists->sorted));
	if (!hists->sorted)
		return -ENOMEM;
	/* creation order: entries are carved from the slabs in that order */
	for (size_t i = 0; i < p->nr_slabs; i++) {
		size_t used = i + 1 == p->nr_slabs ? p->slab_used : SLAB_ENTRIES;

		for (size_t j = 0; j < used && n < hists->nr_entries; j++)
			hists->sorted[n++] = p->slabs[i] + j;
	}
	hists->nr_sorted = n;
	/*
	 * Entries created by filtered samples stay in (perf builds its output
	 * tree with them, which matters for ties) and are skipped when printed.
	 * perf's order of insertion into its output tree: entries are created
	 * in sample order into an input tree (sort-key compare), which is then
	 * walked in order into the collapsed tree (when a key needs collapsing:
	 * comm, srcline). When that compare is an order, the trees give the
	 * entries sorted; else they are built (trees_order()).
	 */
	so->depth_tiebreak = so->cumulate && hists->use_callchain;
	so->caller_order = hists->cc && hists->cc->order == ORDER_CALLER;
	err = collapse_cmp_is_order(hists->sorted, n, so) ? collapse_sort(hists, so) : -ENOTSUP;
	if (err == -ENOMEM)
		return err;
	if (err) {
		err = trees_order(hists, so, &ok, &has_ok, widths, &has_widths);
	} else {
		err = output_keys__init(&ok, so, hists->sorted, n);
		has_ok = !err;
		if (err != -ENOMEM)
			err = output_order(hists->sorted, n, so, has_ok ? &ok : NULL, 0);
	}
	if (has_ok)
		output_keys__exit(&ok);
	if (err)
		return -ENOMEM;

	if (!has_widths)
		hist_entries__col_widths(so, hists->sorted, n, widths);
	for (int c = 0; c < so->nr_cols; c++)
		so->cols[c].width = widths[c];
	return 0;
}

int hists__compact(struct hists *dst, struct hists *src,
		   bool (*keep)(const struct hist_entry *he, void *arg), void *arg)
{
	struct hists_priv *sp = src->priv, *dp = dst->priv;
	bool cc = dst->use_callchain;
	size_t n = 0, nr_kept = 0;
	/* the kept entries' copies and their tries' roots in src */
	struct hist_entry **kept = malloc((src->nr_entries + 1) * sizeof(*kept));
	uint32_t *roots = malloc((src->nr_entries + 1) * sizeof(*roots));
	int err = 0;

	if (!kept || !roots) {
		free(kept);
		free(roots);
		return -ENOMEM;
	}
	/* the tries are copied after the entries, their dead nodes left
	 * behind (and the references of frames only those named) */
	dst->hold_refs = src->hold_refs;
	dst->store.key = src->store.key;
	dst->store.hold_refs = src->store.hold_refs;
	dst->use_callchain = false;	/* no new roots for the copies */
	for (size_t i = 0; i < sp->nr_slabs && !err; i++) {
		size_t used = i + 1 == sp->nr_slabs ? sp->slab_used : SLAB_ENTRIES;

		for (size_t j = 0; j < used && n < src->nr_entries; j++, n++) {
			struct hist_entry *e = sp->slabs[i] + j, tmpl = *e, *ne;

			if (!keep(e, arg))
				continue;
			tmpl.comm = str_intern(&dp->comms, e->comm ? e->comm : "");
			ne = tmpl.comm ? hists__findnew(dst, &tmpl) : NULL;
			if (!ne) {
				err = -ENOMEM;
				break;
			}
			ne->period = e->period;
			ne->period_sys = e->period_sys;
			ne->period_us = e->period_us;
			ne->period_acc = e->period_acc;
			ne->nr_samples = e->nr_samples;
			ne->nr_samples_acc = e->nr_samples_acc;
			ne->cc_root = 0;
			ne->max_depth = e->max_depth;
			dst->total_period += e->period;
			kept[nr_kept] = ne;
			roots[nr_kept++] = e->cc_root;
		}
	}
	if (!err)
		err = callchain_store__copy_live(&dst->store, &src->store, roots, nr_kept);
	for (size_t i = 0; !err && i < nr_kept; i++)
		kept[i]->cc_root = roots[i];
	free(kept);
	free(roots);
	dst->use_callchain = cc;
	dst->nr_samples = src->nr_samples;	/* sample numbers go on (marks) */
	return err;
}

void hists__relative_totals(struct hists *hists)
{
	uint64_t period = 0, nr = 0;

	for (size_t i = 0; i <= hists->hmask; i++) {
		for (const struct hist_entry *e = hists->htab[i]; e; e = e->next) {
			if (e->filtered)
				continue;
			period += e->period;
			nr += e->nr_samples;
		}
	}
	hists->abs_total_period = hists->total_period;
	hists->total_period = period;
	hists->nr_samples = nr;
}

double hists__entry_percent(const struct hists *hists, const struct hist_entry *he)
{
	uint64_t v = hists->so->cumulate ? he->period_acc : he->period;

	return hists->total_period ? 100.0 * (double)v / (double)hists->total_period : 0.0;
}
