// SPDX-License-Identifier: GPL-2.0
/*
 * Interned synthetic symbols of inlined functions, per DSO (see
 * inline-sym.h). A small chained hash table on dso->priv.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "inline-sym.h"
#include "dso.h"
#include "machine.h"
#include "../lib/util.h"

#define INLINE_SYM_MAGIC 0x696e6c73u	/* "inls": dso->priv is ours */

struct inline_sym_node {
	struct inline_sym_node *next;
	uint64_t hash;
	struct symbol sym;	/* flexible name last */
};

struct interned_str {
	struct interned_str *next;
	uint64_t hash;
	char str[];
};

#define STR_BUCKETS 256

struct inline_syms {
	uint32_t magic;
	unsigned int nr, nr_buckets;
	struct inline_sym_node **buckets;
	struct interned_str **strs;	/* STR_BUCKETS chains, lazily */
};

static pthread_mutex_t inline_syms_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Per-thread memo in front of the table: the unwinder asks for the same
 * few hundred (DSO, name, range) keys over and over, with the same name
 * pointers (libdw's strings), so a hit costs a pointer hash and a
 * strcmp instead of hashing the name under the global mutex. Entries of
 * an older generation (bumped whenever a DSO's table is freed) are void.
 */
#define MEMO_BITS 9	/* 2^9 entries */

struct memo_ent {
	const struct dso *dso;
	const char *name;
	uint64_t start, end;
	unsigned int gen;
	struct symbol *sym;
};

static __thread struct thread_memo memo = THREAD_MEMO_INIT(MEMO_BITS, MEMO_BITS);
static __thread struct memo_ent memo_one;	/* the memo when there is no memory for it */
static unsigned int inline_syms_gen = 1;	/* atomic */

static struct memo_ent *memo_slot(const struct dso *dso, const char *name, uint64_t start)
{
	uintptr_t h = (uintptr_t)dso ^ ((uintptr_t)name >> 3) ^ (uintptr_t)(start >> 4);

	h ^= h >> 17;
	return thread_memo__slot(&memo, sizeof(struct memo_ent), h * 0x9e3779b97f4a7c15ULL,
				 &memo_one);
}

static uint64_t key_hash(const char *name, uint64_t start, uint64_t end)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	h ^= start * 0x9e3779b97f4a7c15ULL;
	h ^= end * 0xc2b2ae3d27d4eb4fULL;
	return h ^ (h >> 29);
}

static struct inline_syms *dso__inline_table(struct dso *dso, bool create)
{
	struct inline_syms *t = dso->priv;

	if (t && t->magic == INLINE_SYM_MAGIC)
		return t;
	if (t || !create)	/* priv used by someone else: no table */
		return NULL;
	t = zalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->magic = INLINE_SYM_MAGIC;
	t->nr_buckets = 64;
	t->buckets = calloc(t->nr_buckets, sizeof(*t->buckets));
	if (!t->buckets) {
		free(t);
		return NULL;
	}
	dso->priv = t;
	return t;
}

static void table__grow(struct inline_syms *t)
{
	unsigned int nb = t->nr_buckets * 2;
	struct inline_sym_node **b = calloc(nb, sizeof(*b));

	if (!b)
		return;		/* keep the longer chains */
	for (unsigned int i = 0; i < t->nr_buckets; i++) {
		struct inline_sym_node *n = t->buckets[i], *next;

		for (; n; n = next) {
			next = n->next;
			n->next = b[n->hash & (nb - 1)];
			b[n->hash & (nb - 1)] = n;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nr_buckets = nb;
}

struct symbol *dso__inline_sym(struct dso *dso, const char *name, uint64_t start, uint64_t end)
{
	struct inline_sym_node *n;
	struct inline_syms *t;
	struct memo_ent *m;
	unsigned int gen;
	uint64_t h;
	size_t len;

	if (!dso || !name || !*name)
		return NULL;
	m = memo_slot(dso, name, start);
	gen = __atomic_load_n(&inline_syms_gen, __ATOMIC_ACQUIRE);
	if (m->gen == gen && m->dso == dso && m->name == name && m->start == start &&
	    m->end == end && !strcmp(m->sym->name, name))
		return m->sym;
	h = key_hash(name, start, end);
	pthread_mutex_lock(&inline_syms_lock);
	t = dso__inline_table(dso, true);
	if (!t)
		goto fail;
	for (n = t->buckets[h & (t->nr_buckets - 1)]; n; n = n->next)
		if (n->hash == h && n->sym.start == start && n->sym.end == end &&
		    !strcmp(n->sym.name, name))
			goto out;
	len = strlen(name);
	n = zalloc(sizeof(*n) + len + 1);
	if (!n)
		goto fail;
	n->hash = h;
	n->sym.start = start;
	n->sym.end = end;
	n->sym.binding = 0;
	n->sym.type = 2;	/* STT_FUNC */
	n->sym.inlined = true;
	symbol__set_name_len(&n->sym, len);
	n->sym.idx = UINT32_MAX;
	memcpy(n->sym.name, name, len + 1);
	n->next = t->buckets[h & (t->nr_buckets - 1)];
	t->buckets[h & (t->nr_buckets - 1)] = n;
	if (++t->nr > t->nr_buckets * 2)
		table__grow(t);
out:
	pthread_mutex_unlock(&inline_syms_lock);
	*m = (struct memo_ent){ dso, name, start, end, gen, &n->sym };
	return &n->sym;
fail:
	pthread_mutex_unlock(&inline_syms_lock);
	return NULL;
}

unsigned int dso__nr_inline_syms(struct dso *dso)
{
	struct inline_syms *t;
	unsigned int nr;

	pthread_mutex_lock(&inline_syms_lock);
	t = dso__inline_table(dso, false);
	nr = t ? t->nr : 0;
	pthread_mutex_unlock(&inline_syms_lock);
	return nr;
}

void dso__inline_syms_delete(struct dso *dso)
{
	struct inline_syms *t;

	pthread_mutex_lock(&inline_syms_lock);
	t = dso__inline_table(dso, false);
	if (t) {
		__atomic_fetch_add(&inline_syms_gen, 1, __ATOMIC_ACQ_REL);
		for (unsigned int i = 0; i < t->nr_buckets; i++) {
			struct inline_sym_node *n = t->buckets[i], *next;

			for (; n; n = next) {
				next = n->next;
				free(n);
			}
		}
		for (unsigned int i = 0; t->strs && i < STR_BUCKETS; i++) {
			struct interned_str *e = t->strs[i], *next;

			for (; e; e = next) {
				next = e->next;
				free(e);
			}
		}
		free(t->strs);
		free(t->buckets);
		free(t);
		dso->priv = NULL;
	}
	pthread_mutex_unlock(&inline_syms_lock);
}

const char *dso__intern_str(struct dso *dso, const char *str)
{
	struct interned_str *e = NULL;
	struct inline_syms *t;
	uint64_t h;
	size_t len;

	if (!dso || !str)
		return NULL;
	h = key_hash(str, 0, 0);
	pthread_mutex_lock(&inline_syms_lock);
	t = dso__inline_table(dso, true);
	if (!t)
		goto out;
	if (!t->strs) {
		t->strs = calloc(STR_BUCKETS, sizeof(*t->strs));
		if (!t->strs)
			goto out;
	}
	for (e = t->strs[h % STR_BUCKETS]; e; e = e->next)
		if (e->hash == h && !strcmp(e->str, str))
			goto out;
	len = strlen(str);
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		goto out;
	e->hash = h;
	memcpy(e->str, str, len + 1);
	e->next = t->strs[h % STR_BUCKETS];
	t->strs[h % STR_BUCKETS] = e;
out:
	pthread_mutex_unlock(&inline_syms_lock);
	return e ? e->str : NULL;
}

const char *dso__inline_name(struct dso *dso, const char *name)
{
	const struct machine *m = dso ? dso->machine : NULL;
	const char *shown = NULL;
	char *dem;

	if (!dso || (m && !m->demangle) || !name__mangled(name))
		return name;
	dem = demangle_sym(name, m && m->demangle_params);
	if (dem)
		shown = dso__intern_str(dso, dem);
	free(dem);
	return shown ? shown : name;
}
