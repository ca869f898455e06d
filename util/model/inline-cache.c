// SPDX-License-Identifier: GPL-2.0
/*
 * Inline chains kept between runs; see inline-cache.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "inline-cache.h"
#include "debug-cache.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define IC_NONE UINT32_MAX
#define IC_POSITIONS 1u
#define IC_HAS_NAME0 2u
#define IC_HAS_LINKAGE0 4u

struct ic_header {
	uint32_t nr, pad;
	uint64_t strings_off, strings_len;
};

struct ic_entry {
	uint64_t addr, rec_off;
};

struct ic_rec {
	uint32_t n, flags, file, line;
};

struct ic_level {
	uint32_t name, call_file, call_line;
};

struct inline_cache {
	const unsigned char *base;
	size_t size;
	const struct ic_entry *entries;	/* in the mapping, sorted by addr */
	uint32_t nr;
	const char *strings;
	uint64_t strings_len;
	char *path;			/* for messages */
};

struct inline_cache *inline_cache__open(const char *path, const struct stat *st)
{
	struct inline_cache *ic;
	struct ic_header h;
	void *base;
	size_t size;

	if (debug_cache__map(DEBUG_CACHE_INLINE, path, st, &base, &size))
		return NULL;
	if (size >= sizeof(h))
		memcpy(&h, base, sizeof(h));
	if (size < sizeof(h) || h.nr > (size - sizeof(h)) / sizeof(struct ic_entry) ||
	    h.strings_off > size || h.strings_len > size - h.strings_off ||
	    (h.strings_len && ((const char *)base)[h.strings_off + h.strings_len - 1])) {
		pr_debug("debuginfo: %s: kept inline chains have a bad header: not used\n", path);
		munmap(base, size);
		return NULL;
	}
	ic = zalloc(sizeof(*ic));
	if (!ic || !(ic->path = strdup(path))) {
		free(ic);
		munmap(base, size);
		return NULL;
	}
	ic->base = base;
	ic->size = size;
	ic->entries = (const struct ic_entry *)(ic->base + sizeof(h));
	ic->nr = h.nr;
	ic->strings = (const char *)ic->base + h.strings_off;
	ic->strings_len = h.strings_len;
	return ic;
}

void inline_cache__close(struct inline_cache *ic)
{
	if (!ic)
		return;
	munmap((void *)ic->base, ic->size);
	free(ic->path);
	free(ic);
}

/* The string at offset off of the pool, NULL for IC_NONE; false when off
 * lies outside it (the pool ends in a NUL: checked at open). */
static bool ic__string(const struct inline_cache *ic, uint32_t off, const char **s)
{
	if (off == IC_NONE) {
		*s = NULL;
		return true;
	}
	if (off >= ic->strings_len)
		return false;
	*s = ic->strings + off;
	return true;
}

int inline_cache__get(struct inline_cache *ic, uint64_t addr, struct inline_facts *f,
		      struct inline_fact_level *levels)
{
	size_t lo = 0, hi = ic->nr;
	const struct ic_level *lv;
	struct ic_rec r;
	uint64_t off;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ic->entries[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ic->nr || ic->entries[lo].addr != addr)
		return -ENOENT;
	off = ic->entries[lo].rec_off;
	if (off % 4 || off > ic->size || ic->size - off < sizeof(r))
		goto bad;
	memcpy(&r, ic->base + off, sizeof(r));
	if (r.n > INLINE_CACHE_MAX_LEVELS || r.flags & ~(IC_POSITIONS | IC_HAS_NAME0 | IC_HAS_LINKAGE0) ||
	    (ic->size - off - sizeof(r)) / sizeof(*lv) < r.n)
		goto bad;
	*f = (struct inline_facts){
		.addr = addr, .n = r.n, .line = r.line, .levels = levels,
		.positions = r.flags & IC_POSITIONS,
		.has_name0 = r.flags & IC_HAS_NAME0,
		.has_linkage0 = r.flags & IC_HAS_LINKAGE0,
	};
	if (!ic__string(ic, r.file, &f->file))
		goto bad;
	lv = (const struct ic_level *)(ic->base + off + sizeof(r));
	for (unsigned int i = 0; i < r.n; i++) {
		struct ic_level l;

		memcpy(&l, &lv[i], sizeof(l));
		if (l.name == IC_NONE || !ic__string(ic, l.name, &levels[i].name) ||
		    !ic__string(ic, l.call_file, &levels[i].call_file))
			goto bad;
		levels[i].call_line = l.call_line;
	}
	return 0;
bad:
	pr_debug("debuginfo: %s: kept inline chain at %#" PRIx64
		 " is damaged: worked out from the DWARF again\n", ic->path, addr);
	return -EINVAL;
}

/* ---- writing ---- */

struct ic_out {
	char *strings;
	size_t len, alloc;
	bool no_memory;
};

/* Offset of s in the pool being written (appended), IC_NONE for NULL. */
static uint32_t ic_out__string(struct ic_out *o, const char *s)
{
	size_t l, off;

	if (!s)
		return IC_NONE;
	l = strlen(s) + 1;
	if (o->len + l > IC_NONE - 1) {
		o->no_memory = true;
		return IC_NONE;
	}
	if (o->len + l > o->alloc) {
		size_t na = o->alloc ? 2 * o->alloc : 4096;
		char *n;

		while (na < o->len + l)
			na *= 2;
		n = realloc(o->strings, na);
		if (!n) {
			o->no_memory = true;
			return IC_NONE;
		}
		o->strings = n;
		o->alloc = na;
	}
	off = o->len;
	memcpy(o->strings + off, s, l);
	o->len += l;
	return (uint32_t)off;
}

static int facts_ptr__cmp(const void *pa, const void *pb)
{
	const struct inline_facts *a = *(const struct inline_facts *const *)pa;
	const struct inline_facts *b = *(const struct inline_facts *const *)pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void inline_cache__store(const char *path, const struct stat *st, struct inline_cache *old,
			 const struct inline_facts *facts, size_t n)
{
	size_t nold = old ? old->nr : 0, nall = 0, i, recs_len = 0;
	struct inline_facts *olds = calloc(nold + 1, sizeof(*olds)), **all = NULL, key, *kp = &key;
	struct inline_fact_level *old_levels = NULL;
	struct ic_out o = { 0 };
	struct ic_entry *ents = NULL;
	uint32_t *recs = NULL;
	struct ic_header h = { 0 };
	struct iovec iov[4];
	uint64_t off;

	all = calloc(n + nold + 1, sizeof(*all));
	old_levels = calloc((nold ? nold : 1) * INLINE_CACHE_MAX_LEVELS, sizeof(*old_levels));
	if (!olds || !all || !old_levels)
		goto done;
	for (i = 0; i < n; i++)
		all[nall++] = (struct inline_facts *)&facts[i];
	qsort(all, nall, sizeof(*all), facts_ptr__cmp);
	/* an address worked out twice (its in-memory slot was reused): once,
	 * with positions if either has them */
	for (i = 0, n = 0; i < nall; i++) {
		if (n && all[n - 1]->addr == all[i]->addr) {
			if (all[i]->positions && !all[n - 1]->positions)
				all[n - 1] = all[i];
			continue;
		}
		all[n++] = all[i];
	}
	nall = n;
	for (i = 0; i < nold; i++) {	/* the old chains not made anew */
		key.addr = old->entries[i].addr;
		if (bsearch(&kp, all, n, sizeof(*all), facts_ptr__cmp) ||
		    inline_cache__get(old, key.addr, &olds[i],
				      &old_levels[i * INLINE_CACHE_MAX_LEVELS]))
			continue;
		all[nall++] = &olds[i];
	}
	qsort(all, nall, sizeof(*all), facts_ptr__cmp);
	ents = calloc(nall + 1, sizeof(*ents));
	for (i = 0; i < nall; i++)
		recs_len += 4 + 3 * (all[i]->n < INLINE_CACHE_MAX_LEVELS ? all[i]->n :
				     INLINE_CACHE_MAX_LEVELS);
	recs = malloc((recs_len ? recs_len : 1) * sizeof(*recs));
	if (!ents || !recs)
		goto done;
	off = sizeof(h) + nall * sizeof(*ents);
	recs_len = 0;
	for (i = 0; i < nall; i++) {
		const struct inline_facts *f = all[i];
		unsigned int nl = f->n < INLINE_CACHE_MAX_LEVELS ? f->n : INLINE_CACHE_MAX_LEVELS;
		uint32_t *r = &recs[recs_len];

		ents[i].addr = f->addr;
		ents[i].rec_off = off + recs_len * sizeof(*recs);
		r[0] = nl;
		r[1] = (f->positions ? IC_POSITIONS : 0) | (f->has_name0 ? IC_HAS_NAME0 : 0) |
		       (f->has_linkage0 ? IC_HAS_LINKAGE0 : 0);
		r[2] = ic_out__string(&o, f->file);
		r[3] = f->line;
		for (unsigned int l = 0; l < nl; l++) {
			r[4 + 3 * l] = ic_out__string(&o, f->levels[l].name ? f->levels[l].name : "??");
			r[5 + 3 * l] = ic_out__string(&o, f->levels[l].call_file);
			r[6 + 3 * l] = f->levels[l].call_line;
		}
		recs_len += 4 + 3 * nl;
	}
	if (o.no_memory)
		goto done;
	h.nr = (uint32_t)nall;
	h.strings_off = off + recs_len * sizeof(*recs);
	h.strings_len = o.len;
	iov[0] = (struct iovec){ &h, sizeof(h) };
	iov[1] = (struct iovec){ ents, nall * sizeof(*ents) };
	iov[2] = (struct iovec){ recs, recs_len * sizeof(*recs) };
	iov[3] = (struct iovec){ o.strings, o.len };
	debug_cache__store(DEBUG_CACHE_INLINE, path, st, iov, 4);
done:
	free(o.strings);
	free(ents);
	free(recs);
	free(all);
	free(olds);
	free(old_levels);
}
