// SPDX-License-Identifier: GPL-2.0
/*
 * Callchain tries per hist entry and their display trees (see the header).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "callchain-tree.h"
#include "../lib/config.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../model/callchain.h"
#include "../model/debuginfo.h"
#include "../model/inline-sym.h"
#include "../model/dso.h"
#include "../model/map.h"

void callchain_param__init(struct callchain_param *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = CHAIN_GRAPH_ABS;
	p->order = ORDER_CALLEE;
	p->min_percent = 0.5;
	p->value = CCVAL_PERCENT;
}

int callchain_param__parse(struct callchain_param *p, const char *arg)
{
	char *copy, *tok, *save = NULL;
	int nr_numbers = 0, ret = 0;

	p->enabled = true;
	if (!arg || !*arg)
		return 0;
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (!strcmp(tok, "graph")) {
			p->mode = CHAIN_GRAPH_ABS; p->mode_set = true;
		} else if (!strcmp(tok, "flat")) {
			p->mode = CHAIN_FLAT; p->mode_set = true;
		} else if (!strcmp(tok, "fractal")) {
			p->mode = CHAIN_GRAPH_REL; p->mode_set = true;
		} else if (!strcmp(tok, "folded")) {
			p->mode = CHAIN_FOLDED; p->mode_set = true;
		} else if (!strcmp(tok, "none")) {
			p->mode = CHAIN_NONE; p->mode_set = true;
			p->enabled = false;
		} else if (!strcmp(tok, "caller")) {
			p->order = ORDER_CALLER; p->order_set = true;
		} else if (!strcmp(tok, "callee")) {
			p->order = ORDER_CALLEE; p->order_set = true;
		} else if (!strcmp(tok, "function")) {
			p->key = CCKEY_FUNCTION;
		} else if (!strcmp(tok, "address")) {
			p->key = CCKEY_ADDRESS;
		} else if (!strcmp(tok, "srcline")) {
			p->key = CCKEY_SRCLINE;
		} else if (!strcmp(tok, "percent")) {
			p->value = CCVAL_PERCENT;
		} else if (!strcmp(tok, "period")) {
			p->value = CCVAL_PERIOD;
		} else if (!strcmp(tok, "count")) {
			p->value = CCVAL_COUNT;
		} else if (!strcmp(tok, "fp") || !strcmp(tok, "dwarf") || !strcmp(tok, "lbr")) {
			/* record modes: accepted, nothing to do in report */
		} else if (nr_numbers == 0) {
			double v = strtod(tok, &end);

			if (end == tok || *end || v < 0) {
				pr_err("Invalid callchain threshold: '%s' in '-g %s'\n", tok, arg);
				ret = -EINVAL;
				break;
			}
			p->min_percent = v;
			nr_numbers++;
		} else if (nr_numbers == 1) {
			unsigned long v = strtoul(tok, &end, 0);

			if (end == tok || *end) {
				pr_err("Invalid callchain print limit: '%s' in '-g %s'\n", tok, arg);
				ret = -EINVAL;
				break;
			}
			p->print_limit = v;
			nr_numbers++;
		} else {
			pr_err("Invalid callchain option: '%s' in '-g %s'\n", tok, arg);
			ret = -EINVAL;
			break;
		}
	}
	free(copy);
	return ret;
}

int callchain_param__config(struct callchain_param *p)
{
	/* each key takes the words -g takes in its place */
	static const char *const keys[] = {
		"call-graph.print-type", "call-graph.order", "call-graph.sort-key",
	};
	bool enabled = p->enabled;
	const char *v;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		v = config__get(keys[i]);
		if (v && (strchr(v, ',') || callchain_param__parse(p, v))) {
			pr_err("bad config value '%s' for '%s'\n", v, keys[i]);
			return -EINVAL;
		}
	}
	p->enabled = enabled;
	v = config__get("call-graph.threshold");
	if (v) {
		double d = strtod(v, &end);

		if (end == v || *end || d < 0) {
			pr_err("bad config value '%s' for 'call-graph.threshold'\n", v);
			return -EINVAL;
		}
		p->min_percent = d;
	}
	v = config__get("call-graph.print-limit");
	if (v) {
		unsigned long n = strtoul(v, &end, 0);

		if (end == v || *end) {
			pr_err("bad config value '%s' for 'call-graph.print-limit'\n", v);
			return -EINVAL;
		}
		p->print_limit = n;
	}
	return 0;
}

/* ---- store ---- */

int callchain_store__init(struct callchain_store *s)
{
	memset(s, 0, sizeof(*s));
	s->alloc_frames = 1024;
	s->frames = calloc(s->alloc_frames, sizeof(*s->frames));
	s->fhash_mask = 2048 - 1;
	s->fhash = calloc(s->fhash_mask + 1, sizeof(*s->fhash));
	s->alloc_nodes = 4096;
	s->nodes = malloc(s->alloc_nodes * sizeof(*s->nodes));
	if (!s->frames || !s->fhash || !s->nodes) {
		callchain_store__exit(s);
		return -ENOMEM;
	}
	s->nr_frames = 1;
	s->nr_nodes = 1;
	memset(&s->nodes[0], 0, sizeof(s->nodes[0]));
	return 0;
}

void callchain_store__exit(struct callchain_store *s)
{
	if (s->hold_refs)
		for (uint32_t i = 1; s->frames && i < s->nr_frames; i++)
			map__put(s->frames[i].map);
	free(s->mhash);
	free(s->show);
	free(s->ckeys);
	free(s->cvals);
	free(s->frames);
	free(s->fhash);
	free(s->nodes);
	memset(s, 0, sizeof(*s));
}

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t str_hash(const char *str);

/*
 * Function-key frame identity: (DSO, symbol), or (DSO, ip) without a
 * symbol. Inlined symbols are one frame per name across DSOs and
 * containing functions, as perf 6.1's match_chain() compares them by
 * name alone (an inlined and a real symbol of the same name stay two).
 */
static inline uint64_t frame_hash(const struct dso *dso, const struct symbol *sym, uint64_t ip)
{
	uint64_t h;

	if (sym && sym->inlined)
		return str_hash(sym->name);
	h = mix64((uintptr_t)dso);

	return mix64(h ^ (sym ? (uintptr_t)sym : ip * 0x9e3779b97f4a7c15ULL));
}

static inline bool frame_eq(const struct cc_frame *f, const struct dso *dso,
			    const struct symbol *sym, uint64_t ip)
{
	if (sym && sym->inlined)
		return f->sym && f->sym->inlined &&
		       (f->sym == sym || !strcmp(f->sym->name, sym->name));
	if (f->dso != dso || f->sym != sym)
		return false;
	return sym ? true : f->ip == ip;
}

/*
 * The label perf 6.1 shows after a frame's symbol for the address and
 * srcline keys (its callchain_srcline(): get_srcline() with show_sym off,
 * addr2line on the DSO's file): "file:line" when the address has a line;
 * for any other ELF file DSO what addr2line finds in its symbol table
 * (dso__symtab_srcline(): "t.c:0" in a local function, else "??:0");
 * for DSOs perf cannot hand to
 * addr2line ("[kernel.kallsyms]" without vmlinux, [vdso], JIT maps,
 * anonymous memory) "+OFFSET" (decimal, from the symbol start) or
 * "DSO[hexaddr]" without a symbol with the address key, nothing (NULL)
 * with the srcline key; nothing for frames outside any map.
 */
static const char *frame_label(const struct callchain_frame *f, enum chain_key key)
{
	struct dso *dso = f->map ? f->map->dso : NULL;
	char buf[64];

	if (!dso || f->truncated)
		return NULL;
	if (f->srcline)
		return f->srcline;
	if (dso->kind == DSO_USER)
		return dso__symtab_srcline(dso, f->addr) ?: "??:0";
	if (key == CCKEY_SRCLINE)
		return NULL;
	if (!f->sym)
		return callchain_frame__srcline(f, false);
	snprintf(buf, sizeof(buf), "+%" PRIu64, f->addr - f->sym->start);
	return dso__intern_str(dso, buf);
}

static uint64_t str_hash(const char *str)
{
	uint64_t h = 1469598103934665603ULL;

	while (*str)
		h = (h ^ (unsigned char)*str++) * 1099511628211ULL;
	return mix64(h);
}

/* Hash of a frame identity under the store's key (see the header). */
static uint64_t keyed_hash(enum chain_key key, const struct dso *dso, const struct symbol *sym,
			   uint64_t ip, const char *label)
{
	if (key == CCKEY_ADDRESS)
		return mix64(mix64((uintptr_t)dso ^ (uintptr_t)sym) ^ ip * 0x9e3779b97f4a7c15ULL);
	if (key == CCKEY_SRCLINE && label)
		return str_hash(label);
	return frame_hash(dso, sym, ip);
}

static bool keyed_eq(enum chain_key key, const struct cc_frame *f, const struct dso *dso,
		     const struct symbol *sym, uint64_t ip, const char *label)
{
	if (key == CCKEY_ADDRESS)
		return f->dso == dso && f->sym == sym && f->ip == ip;
	if (key == CCKEY_SRCLINE && (label || f->label))
		return label && f->label && (label == f->label || !strcmp(label, f->label));
	return frame_eq(f, dso, sym, ip);
}

static int fhash_grow(struct callchain_store *s)
{
	uint32_t nmask = (s->fhash_mask + 1) * 2 - 1;
	uint32_t *n = zalloc_written((nmask + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (uint32_t id = 1; id < s->nr_frames; id++) {
		const struct cc_frame *f = &s->frames[id];
		uint64_t h = (s->key == CCKEY_FUNCTION ? frame_hash(f->dso, f->sym, f->ip) :
			      keyed_hash(CCKEY_ADDRESS, f->dso, f->sym, f->ip, NULL)) & nmask;

		while (n[h])
			h = (h + 1) & nmask;
		n[h] = id;
	}
	free(s->fhash);
	s->fhash = n;
	s->fhash_mask = nmask;
	return 0;
}

/* Room for one more frame in s. 0 or -ENOMEM. */
static int frames_reserve(struct callchain_store *s)
{
	uint32_t na = s->alloc_frames * 2;
	struct cc_frame *nf;

	if (s->nr_frames < s->alloc_frames)
		return 0;
	nf = realloc(s->frames, na * sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	s->frames = nf;
	s->alloc_frames = na;
	return 0;
}

static uint32_t frame_insert(struct callchain_store *s, uint32_t slot,
			     const struct callchain_frame *cf, struct dso *dso, const char *label)
{
	struct cc_frame *f;
	uint32_t id;

	if (frames_reserve(s))
		return 0;
	id = s->nr_frames++;
	f = &s->frames[id];
	f->map = s->hold_refs ? map__get(cf->map) : cf->map;
	f->dso = dso;
	f->sym = cf->sym;
	f->ip = cf->ip;
	f->srcline = cf->srcline;
	f->label = label;
	f->match = id;
	f->cpumode = cf->cpumode;
	s->fhash[slot] = id;
	if ((uint64_t)s->nr_frames * 2 > s->fhash_mask && fhash_grow(s))
		return 0;
	return id;
}

static int mhash_grow(struct callchain_store *s)
{
	uint32_t nmask = s->mhash ? (s->mhash_mask + 1) * 2 - 1 : 1024 - 1;
	uint32_t *n = zalloc_written((nmask + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (uint32_t i = 0; s->mhash && i <= s->mhash_mask; i++) {
		const struct cc_frame *f;
		uint64_t h;

		if (!s->mhash[i])
			continue;
		f = &s->frames[s->mhash[i]];
		h = keyed_hash(CCKEY_SRCLINE, f->dso, f->sym, f->ip, f->label) & nmask;
		while (n[h])
			h = (h + 1) & nmask;
		n[h] = s->mhash[i];
	}
	free(s->mhash);
	s->mhash = n;
	s->mhash_mask = nmask;
	return 0;
}

/* The srcline class of new frame id: the first frame with an equal label
 * (or, without labels, of the same function); 0 on ENOMEM. */
static uint32_t match_id(struct callchain_store *s, uint32_t id)
{
	const struct cc_frame *f = &s->frames[id];
	uint32_t slot, m;

	if ((!s->mhash || (s->nr_match + 1) * 2 > s->mhash_mask) && mhash_grow(s))
		return 0;
	slot = keyed_hash(CCKEY_SRCLINE, f->dso, f->sym, f->ip, f->label) & s->mhash_mask;
	while ((m = s->mhash[slot]) != 0) {
		if (keyed_eq(CCKEY_SRCLINE, &s->frames[m], f->dso, f->sym, f->ip, f->label))
			return m;
		slot = (slot + 1) & s->mhash_mask;
	}
	s->mhash[slot] = id;
	s->nr_match++;
	return id;
}

/* callchain_store__frame_id() for the address and srcline keys: frames
 * are (dso, sym, ip) */
static uint32_t frame_id_keyed(struct callchain_store *s, const struct callchain_frame *cf)
{
	struct dso *dso = cf->map ? cf->map->dso : NULL;
	uint64_t h = keyed_hash(CCKEY_ADDRESS, dso, cf->sym, cf->ip, NULL);
	uint32_t slot = h & s->fhash_mask, id;

	while ((id = s->fhash[slot]) != 0) {
		if (keyed_eq(CCKEY_ADDRESS, &s->frames[id], dso, cf->sym, cf->ip, NULL))
			return id;
		slot = (slot + 1) & s->fhash_mask;
	}
	id = frame_insert(s, slot, cf, dso, frame_label(cf, s->key));
	if (id && s->key == CCKEY_SRCLINE) {
		uint32_t m = match_id(s, id);

		if (!m)
			return 0;
		s->frames[id].match = m;
	}
	return id;
}

uint32_t callchain_store__frame_id(struct callchain_store *s, const struct callchain_frame *cf)
{
	struct dso *dso = cf->map ? cf->map->dso : NULL;
	uint64_t h;
	uint32_t slot, id;

	if (s->key != CCKEY_FUNCTION)
		return frame_id_keyed(s, cf);
	h = frame_hash(dso, cf->sym, cf->ip);
	slot = h & s->fhash_mask;
	while ((id = s->fhash[slot]) != 0) {
		if (frame_eq(&s->frames[id], dso, cf->sym, cf->ip))
			return id;
		slot = (slot + 1) & s->fhash_mask;
	}
	return frame_insert(s, slot, cf, dso, NULL);
}

/* CCKEY_SRCLINE: s->show as large as s->nodes; 0 or -ENOMEM */
static int show_reserve(struct callchain_store *s)
{
	uint32_t *n = realloc(s->show, (size_t)s->alloc_nodes * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->show = n;
	return 0;
}

/* show: the frame printed for the node (CCKEY_SRCLINE; else unused) */
static uint32_t node_new(struct callchain_store *s, uint32_t frame, uint32_t show,
			 uint32_t parent)
{
	struct cc_node *n;

	if (s->nr_nodes == s->alloc_nodes) {
		uint32_t na = s->alloc_nodes * 2;
		struct cc_node *nn;

		if (na < s->alloc_nodes)
			return 0;
		nn = realloc(s->nodes, (size_t)na * sizeof(*nn));
		if (!nn)
			return 0;
		s->nodes = nn;
		s->alloc_nodes = na;
		if (s->show && show_reserve(s))
			return 0;
	}
	if (s->key == CCKEY_SRCLINE) {
		if (!s->show && show_reserve(s))
			return 0;
		s->show[s->nr_nodes] = show;
	}
	n = &s->nodes[s->nr_nodes];
	n->frame = frame;
	n->parent = parent;
	n->child = 0;
	n->sibling = 0;
	n->hit = 0;
	n->count = 0;
	n->aux = 0;
	return s->nr_nodes++;
}

#define CC_SCAN_MAX 4

static inline uint64_t child_hash(uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ULL;
	key ^= key >> 29;
	return key;
}

static int child_hash_grow(struct callchain_store *s)
{
	uint64_t nmask = s->ckeys ? (s->cmask + 1) * 2 - 1 : (1 << 16) - 1;
	uint64_t *nk = zalloc_written((nmask + 1) * sizeof(*nk));
	uint32_t *nv = malloc((nmask + 1) * sizeof(*nv));

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -ENOMEM;
	}
	for (uint64_t i = 0; s->ckeys && i <= s->cmask; i++) {
		uint64_t k = s->ckeys[i], h;

		if (!k)
			continue;
		h = child_hash(k) & nmask;
		while (nk[h])
			h = (h + 1) & nmask;
		nk[h] = k;
		nv[h] = s->cvals[i];
	}
	free(s->ckeys);
	free(s->cvals);
	s->ckeys = nk;
	s->cvals = nv;
	s->cmask = nmask;
	return 0;
}

/* Remember child for (parent, frame). */
static int child_hash_add(struct callchain_store *s, uint32_t parent, uint32_t frame, uint32_t child)
{
	uint64_t key = ((uint64_t)parent << 32) | frame, h;

	if ((!s->ckeys || (s->nr_ckeys + 1) * 2 > s->cmask + 1) && child_hash_grow(s))
		return -ENOMEM;
	h = child_hash(key) & s->cmask;
	while (s->ckeys[h])
		h = (h + 1) & s->cmask;
	s->ckeys[h] = key;
	s->cvals[h] = child;
	s->nr_ckeys++;
	return 0;
}

static uint32_t child_hash_find(const struct callchain_store *s, uint32_t parent, uint32_t frame)
{
	uint64_t key = ((uint64_t)parent << 32) | frame, h;

	if (!s->ckeys)
		return 0;
	h = child_hash(key) & s->cmask;
	while (s->ckeys[h]) {
		if (s->ckeys[h] == key)
			return s->cvals[h];
		h = (h + 1) & s->cmask;
	}
	return 0;
}

/*
 * Children lists longer than CC_SCAN_MAX are indexed by (parent, frame) in
 * the child hash, the others are not: most nodes have a sibling or two,
 * and hashing every node cost more than the lists it saves scanning. A
 * parent is indexed when a walk first finds its list too long to scan:
 * then all its children go in, with (parent, 0) as the mark (frame id 0
 * is never a child's), and so does every later child. Lists only grow,
 * so a list that a scan ends is short and its parent not indexed.
 */
static bool child_hash_indexed(const struct callchain_store *s, uint32_t parent)
{
	return child_hash_find(s, parent, 0) != 0;
}

static int child_hash_index(struct callchain_store *s, uint32_t parent)
{
	for (uint32_t c = s->nodes[parent].child; c; c = s->nodes[c].sibling)
		if (child_hash_add(s, parent, s->nodes[c].frame, c))
			return -ENOMEM;
	return child_hash_add(s, parent, 0, parent);
}

uint32_t callchain_store__new_root(struct callchain_store *s)
{
	return node_new(s, 0, 0, 0);
}

int callchain_store__append(struct callchain_store *s, uint32_t root,
			    const uint32_t *ids, unsigned int nr, uint64_t period)
{
	return callchain_store__append_leaf(s, root, ids, nr, period) ? 0 : -ENOMEM;
}

/* srcline (a constant per call site): nodes match on the frames' match
 * ids and remember the frame that created them */
static inline __attribute__((always_inline))
uint32_t append_walk(struct callchain_store *s, uint32_t root, const uint32_t *ids,
		     unsigned int nr, uint64_t period, const bool srcline)
{
	uint32_t cur = root;

	for (unsigned int i = 0; i < nr; i++) {
		uint32_t fid = srcline ? s->frames[ids[i]].match : ids[i];
		uint32_t prev = 0, c = s->nodes[cur].child, scanned = 0;
		bool indexed = false;	/* cur's children are in the hash */

		/* the first few children by list (move-to-front keeps hot ones
		 * first), then the (parent, frame) index: nodes under garbage
		 * frames can have thousands of children */
		while (c && s->nodes[c].frame != fid && scanned < CC_SCAN_MAX) {
			prev = c;
			c = s->nodes[c].sibling;
			scanned++;
		}
		if (c && s->nodes[c].frame != fid) {
			/* a long list: through the index */
			c = child_hash_find(s, cur, fid);
			if (!c && !child_hash_indexed(s, cur)) {
				if (child_hash_index(s, cur))
					return 0;
				c = child_hash_find(s, cur, fid);
			}
			indexed = true;
			prev = 0;	/* deep in the list: leave it in place */
			if (c && s->nodes[cur].child != c) {
				/* no move-to-front: we do not know its predecessor */
				cur = c;
				continue;
			}
		}
		if (!c) {
			/* a new child: of a long list, indexed, or of one the scan
			 * ended within CC_SCAN_MAX, short and not indexed */
			c = node_new(s, fid, ids[i], cur);
			if (!c || (indexed && child_hash_add(s, cur, fid, c)))
				return 0;
			s->nodes[c].sibling = s->nodes[cur].child;
			s->nodes[cur].child = c;
		} else if (prev) {
			/* move to front: hot paths are found first next time */
			s->nodes[prev].sibling = s->nodes[c].sibling;
			s->nodes[c].sibling = s->nodes[cur].child;
			s->nodes[cur].child = c;
		}
		cur = c;
	}
	s->nodes[cur].hit += period;
	s->nodes[cur].count++;
	return cur;
}

uint32_t callchain_store__append_leaf(struct callchain_store *s, uint32_t root,
				      const uint32_t *ids, unsigned int nr, uint64_t period)
{
	if (unlikely(s->key == CCKEY_SRCLINE))
		return append_walk(s, root, ids, nr, period, true);
	return append_walk(s, root, ids, nr, period, false);
}

/* ---- copying the live part of tries ---- */

/* Append a copy of src frame f to s (its identity is unique in src, so
 * unique in s: no lookup); match is s's id of f's srcline class (0: the
 * copy is its own). Returns the new id, 0 on ENOMEM. */
static uint32_t frame_copy(struct callchain_store *s, const struct cc_frame *f, uint32_t match)
{
	uint64_t h;
	uint32_t id, slot;

	if (frames_reserve(s))
		return 0;
	id = s->nr_frames++;
	s->frames[id] = *f;
	s->frames[id].map = s->hold_refs ? map__get(f->map) : f->map;
	s->frames[id].match = match ? match : id;
	h = s->key == CCKEY_FUNCTION ? frame_hash(f->dso, f->sym, f->ip) :
		keyed_hash(CCKEY_ADDRESS, f->dso, f->sym, f->ip, NULL);
	for (slot = h & s->fhash_mask; s->fhash[slot]; slot = (slot + 1) & s->fhash_mask)
		;
	s->fhash[slot] = id;
	if ((uint64_t)s->nr_frames * 2 > s->fhash_mask && fhash_grow(s))
		return 0;
	if (s->key == CCKEY_SRCLINE && !match) {
		/* a class of its own: in the class hash as match_id() puts it */
		if ((!s->mhash || (s->nr_match + 1) * 2 > s->mhash_mask) && mhash_grow(s))
			return 0;
		h = keyed_hash(CCKEY_SRCLINE, f->dso, f->sym, f->ip, f->label);
		for (slot = h & s->mhash_mask; s->mhash[slot]; slot = (slot + 1) & s->mhash_mask)
			;
		s->mhash[slot] = id;
		s->nr_match++;
	}
	return id;
}

/* dst's id of src frame id, copied on first use (with its srcline class
 * first); 0 on ENOMEM. */
static uint32_t frame_remap(struct callchain_store *dst, const struct callchain_store *src,
			    uint32_t *remap, uint32_t id)
{
	uint32_t m = 0, cls = src->frames[id].match;

	if (remap[id])
		return remap[id];
	if (src->key == CCKEY_SRCLINE && cls != id) {
		m = remap[cls] ? remap[cls] : (remap[cls] = frame_copy(dst, &src->frames[cls], 0));
		if (!m)
			return 0;
	}
	return remap[id] = frame_copy(dst, &src->frames[id], m);
}

int callchain_store__copy_live(struct callchain_store *dst, const struct callchain_store *src,
			       uint32_t *roots, size_t nr)
{
	uint8_t *live = zalloc_written(src->nr_nodes ? src->nr_nodes : 1);
	uint32_t *remap = zalloc_written((size_t)src->nr_frames * sizeof(*remap));
	/* pending copies: (src node, dst parent), depth first */
	uint32_t (*stack)[2] = NULL;
	size_t depth = 0, alloc = 0;
	int err = -ENOMEM;

	if (!live || !remap)
		goto out;
	/* a child's index is above its parent's: one pass from the end
	 * marks every node with a hit or count below it */
	for (uint32_t i = src->nr_nodes; i-- > 1;) {
		const struct cc_node *n = &src->nodes[i];

		if (n->hit || n->count)
			live[i] = 1;
		if (live[i] && n->parent)
			live[n->parent] = 1;
	}
	for (size_t r = 0; r < nr; r++) {
		uint32_t root;

		if (!roots[r])
			continue;
		root = callchain_store__new_root(dst);
		if (!root)
			goto out;
		dst->nodes[root].hit = src->nodes[roots[r]].hit;
		dst->nodes[root].count = src->nodes[roots[r]].count;
		depth = 0;
		if (live[roots[r]]) {
			if (!alloc && !(stack = malloc((alloc = 256) * sizeof(*stack))))
				goto out;
			stack[depth][0] = roots[r];
			stack[depth++][1] = root;
		}
		while (depth) {
			uint32_t from = stack[depth - 1][0], to = stack[depth - 1][1], tail = 0;

			depth--;
			/* the children in their order (display ties keep it) */
			for (uint32_t c = src->nodes[from].child; c; c = src->nodes[c].sibling) {
				const struct cc_node *sn = &src->nodes[c];
				uint32_t show = 0, frame, n;

				if (!live[c])
					continue;
				frame = frame_remap(dst, src, remap, sn->frame);
				if (src->key == CCKEY_SRCLINE &&
				    !(show = frame_remap(dst, src, remap, src->show[c])))
					goto out;
				if (!frame || !(n = node_new(dst, frame, show, to)))
					goto out;
				dst->nodes[n].hit = sn->hit;
				dst->nodes[n].count = sn->count;
				if (tail)
					dst->nodes[tail].sibling = n;
				else
					dst->nodes[to].child = n;
				tail = n;
				if (depth == alloc) {
					void *ns = realloc(stack, (alloc *= 2) * sizeof(*stack));

					if (!ns)
						goto out;
					stack = ns;
				}
				stack[depth][0] = c;
				stack[depth++][1] = n;
			}
		}
		roots[r] = root;
	}
	dst->copied_nodes = dst->nr_nodes;
	err = 0;
out:
	free(stack);
	free(remap);
	free(live);
	return err;
}

/* ---- display ---- */

struct arena {
	void **ptrs;
	size_t nr, alloc;
};

static void *arena_alloc(struct arena *a, size_t size)
{
	void *p;

	if (a->nr == a->alloc) {
		size_t na = a->alloc ? a->alloc * 2 : 64;
		void **np = realloc(a->ptrs, na * sizeof(*np));

		if (!np)
			return NULL;
		a->ptrs = np;
		a->alloc = na;
	}
	p = calloc(1, size ? size : 1);
	if (p)
		a->ptrs[a->nr++] = p;
	return p;
}

struct display_ctx {
	struct callchain_store *s;
	struct arena *arena;
	uint32_t *pre;		/* preorder list of trie nodes */
	uint64_t *cumul;	/* by preorder position */
	uint64_t *cumul_count;
	uint32_t nr;
	const struct callchain_param *param;
	uint64_t min_hit;
	struct cc_chain **all;	/* every chain, postorder (flat) */
	uint32_t nr_all, alloc_all;
};

/* perf's order for unequal function-key frames (its match_chain()
 * function case): inlined symbols by name, then (DSO, symbol start),
 * unresolved frames by ip; descending. */
static int cmp_function(const struct cc_frame *x, const struct cc_frame *y)
{
	uint64_t kx, ky;

	if (x->sym && y->sym && (x->sym->inlined || y->sym->inlined)) {
		int r = strcmp(x->sym->name, y->sym->name);

		return r < 0 ? 1 : r > 0 ? -1 : 0;	/* by name alone, as perf */
	}
	if (x->dso != y->dso)
		return (uintptr_t)x->dso < (uintptr_t)y->dso ? 1 : -1;
	kx = x->sym && y->sym ? x->sym->start : x->ip;
	ky = x->sym && y->sym ? y->sym->start : y->ip;
	if (kx != ky)
		return kx < ky ? 1 : -1;
	return 0;
}

/*
 * Children of a trie node in perf's callchain-tree order (its rb_root_in,
 * where a new node goes left of a smaller one: descending) under the
 * store's key: function as cmp_function(); address by (DSO object, ip);
 * srcline by label string, a frame without one before a frame with one,
 * two without by function. perf compares DSO objects by address; so do we.
 */
static int cmp_kids(const void *a, const void *b, void *arg)
{
	const struct callchain_store *s = arg;
	const struct cc_frame *x = &s->frames[s->nodes[*(const uint32_t *)a].frame];
	const struct cc_frame *y = &s->frames[s->nodes[*(const uint32_t *)b].frame];

	if (s->key == CCKEY_ADDRESS) {
		if (x->dso != y->dso)
			return (uintptr_t)x->dso < (uintptr_t)y->dso ? 1 : -1;
		if (x->ip != y->ip)
			return x->ip < y->ip ? 1 : -1;
		return 0;
	}
	if (s->key == CCKEY_SRCLINE && (x->label || y->label)) {
		int r;

		if (!x->label || !y->label)
			return x->label ? 1 : -1;
		r = strcmp(x->label, y->label);
		if (r)
			return r < 0 ? 1 : -1;
		return 0;
	}
	return cmp_function(x, y);
}

struct chain_idx {
	struct cc_chain *c;
	uint32_t i;
};

struct kid_key {
	uint32_t node;
	uint32_t i;
	uint64_t cumul;
};

static int cmp_kid_keys(const void *a, const void *b, void *arg)
{
	const struct kid_key *x = a, *y = b;
	int r;

	if (x->cumul != y->cumul)
		return x->cumul > y->cumul ? -1 : 1;
	r = cmp_kids(&x->node, &y->node, arg);
	if (r)
		return r;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int add_all(struct display_ctx *c, struct cc_chain *ch)
{
	if (c->nr_all == c->alloc_all) {
		uint32_t na = c->alloc_all ? c->alloc_all * 2 : 64;
		struct cc_chain **n = realloc(c->all, na * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->all = n;
		c->alloc_all = na;
	}
	c->all[c->nr_all++] = ch;
	return 0;
}

/* Build the chain starting at trie node t (or the root chain when t is
 * the root: no vals). */
static struct cc_chain *build_chain(struct display_ctx *c, uint32_t t, bool is_root,
				    struct cc_chain *parent)
{
	struct callchain_store *s = c->s;
	struct cc_chain *ch = arena_alloc(c->arena, sizeof(*ch));
	uint32_t last = t, nvals = 0, nkids = 0, k, *kids;
	bool all_kids;
	double min_hit;

	if (!ch)
		return NULL;
	ch->parent = parent;
	if (!is_root) {
		/* merge down while the node has no own hits and one child */
		for (;;) {
			struct cc_node *n = &s->nodes[last];

			nvals++;
			if (n->count || !n->child || s->nodes[n->child].sibling)
				break;
			last = n->child;
		}
		ch->vals = arena_alloc(c->arena, nvals * sizeof(uint32_t));
		if (!ch->vals)
			return NULL;
		k = 0;
		for (uint32_t x = t;; x = s->nodes[x].child) {
			ch->vals[k++] = s->show ? s->show[x] : s->nodes[x].frame;
			if (x == last)
				break;
		}
		ch->nr_vals = nvals;
	}
	ch->hit = s->nodes[last].hit;
	ch->count = s->nodes[last].count;
	ch->cumul = c->cumul[s->nodes[t].aux];
	ch->cumul_count = c->cumul_count[s->nodes[t].aux];
	ch->children_hit = ch->cumul - ch->hit;

	all_kids = c->param->mode == CHAIN_FLAT || c->param->mode == CHAIN_FOLDED;
	if (c->param->mode == CHAIN_GRAPH_REL)
		min_hit = ceil((double)ch->children_hit * (c->param->min_percent / 100.0));
	else
		min_hit = (double)c->min_hit;
	/* graph modes: children under the threshold are never shown, so they
	 * are neither built nor sorted (a kid chain's cumulative hits are its
	 * first trie node's) */
	for (uint32_t x = s->nodes[last].child; x; x = s->nodes[x].sibling)
		if (all_kids || (double)c->cumul[s->nodes[x].aux] >= min_hit)
			nkids++;
	if (!nkids)
		goto out;
	kids = malloc(nkids * sizeof(*kids));
	ch->children = arena_alloc(c->arena, nkids * sizeof(*ch->children));
	if (!kids || !ch->children) {
		free(kids);
		return NULL;
	}
	k = 0;
	for (uint32_t x = s->nodes[last].child; x; x = s->nodes[x].sibling)
		if (all_kids || (double)c->cumul[s->nodes[x].aux] >= min_hit)
			kids[k++] = x;
	if (all_kids) {
		qsort_r(kids, nkids, sizeof(*kids), cmp_kids, s);
	} else if (nkids > 1) {
		/* one sort: descending cumulative hits, then perf's tree order,
		 * then sibling order (what a stable sort by cmp_kids followed
		 * by a stable sort by hits gives) */
		struct kid_key *v = malloc(nkids * sizeof(*v));

		if (!v) {
			free(kids);
			return NULL;
		}
		for (k = 0; k < nkids; k++) {
			v[k].node = kids[k];
			v[k].cumul = c->cumul[s->nodes[kids[k]].aux];
			v[k].i = k;
		}
		qsort_r(v, nkids, sizeof(*v), cmp_kid_keys, s);
		for (k = 0; k < nkids; k++)
			kids[k] = v[k].node;
		free(v);
	}
	for (k = 0; k < nkids; k++) {
		struct cc_chain *kid = build_chain(c, kids[k], false, ch);

		if (!kid) {
			free(kids);
			return NULL;
		}
		ch->children[ch->nr_children++] = kid;
	}
	free(kids);
out:
	if (!is_root && add_all(c, ch))
		return NULL;
	return ch;
}

static int chain_cmp_hit_stable(const void *a, const void *b)
{
	const struct chain_idx *x = a, *y = b;

	if (x->c->hit != y->c->hit)
		return x->c->hit > y->c->hit ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int callchain_store__display(struct callchain_store *s, uint32_t root,
			     const struct callchain_param *param, uint64_t total,
			     struct cc_display *d)
{
	struct display_ctx c = { .s = s, .param = param };
	uint32_t alloc = 256, sp;
	uint32_t *stack = NULL;
	int ret = -ENOMEM;

	memset(d, 0, sizeof(*d));
	c.arena = calloc(1, sizeof(*c.arena));
	if (!c.arena)
		return -ENOMEM;
	d->arena = c.arena;
	c.min_hit = (uint64_t)((double)total * (param->min_percent / 100.0));

	/* preorder listing of the trie */
	c.pre = malloc(alloc * sizeof(*c.pre));
	stack = malloc(alloc * sizeof(*stack));
	if (!c.pre || !stack)
		goto out;
	sp = 0;
	stack[sp++] = root;
	while (sp) {
		uint32_t n = stack[--sp];

		if (c.nr == alloc || sp + 1 >= alloc) {
			uint32_t na = alloc * 2;
			uint32_t *np = realloc(c.pre, na * sizeof(*np));

			if (!np)
				goto out;
			c.pre = np;
			np = realloc(stack, na * sizeof(*np));
			if (!np)
				goto out;
			stack = np;
			alloc = na;
		}
		s->nodes[n].aux = c.nr;
		c.pre[c.nr++] = n;
		for (uint32_t x = s->nodes[n].child; x; x = s->nodes[x].sibling) {
			if (sp + 1 >= alloc) {
				uint32_t na = alloc * 2;
				uint32_t *np = realloc(stack, na * sizeof(*np));

				if (!np)
					goto out;
				stack = np;
				np = realloc(c.pre, na * sizeof(*np));
				if (!np)
					goto out;
				c.pre = np;
				alloc = na;
			}
			stack[sp++] = x;
		}
	}
	c.cumul = malloc(c.nr * sizeof(*c.cumul));
	c.cumul_count = malloc(c.nr * sizeof(*c.cumul_count));
	if (!c.cumul || !c.cumul_count)
		goto out;
	for (uint32_t i = 0; i < c.nr; i++) {
		c.cumul[i] = s->nodes[c.pre[i]].hit;
		c.cumul_count[i] = s->nodes[c.pre[i]].count;
	}
	for (uint32_t i = c.nr; i-- > 1;) {
		uint32_t p = s->nodes[s->nodes[c.pre[i]].parent].aux;

		c.cumul[p] += c.cumul[i];
		c.cumul_count[p] += c.cumul_count[i];
	}
	d->root = build_chain(&c, root, true, NULL);
	if (!d->root)
		goto out;
	if (param->mode == CHAIN_FLAT || param->mode == CHAIN_FOLDED) {
		struct chain_idx *v;
		uint32_t n = 0;

		v = malloc((c.nr_all + 1) * sizeof(*v));
		if (!v)
			goto out;
		for (uint32_t i = 0; i < c.nr_all; i++) {
			if (c.all[i]->hit && c.all[i]->hit >= c.min_hit) {
				v[n].c = c.all[i];
				v[n].i = n;
				n++;
			}
		}
		qsort(v, n, sizeof(*v), chain_cmp_hit_stable);
		d->flat = arena_alloc(c.arena, (n + 1) * sizeof(*d->flat));
		if (!d->flat) {
			free(v);
			goto out;
		}
		for (uint32_t i = 0; i < n; i++)
			d->flat[i] = v[i].c;
		d->nr_flat = n;
		free(v);
	}
	ret = 0;
out:
	free(stack);
	free(c.pre);
	free(c.cumul);
	free(c.cumul_count);
	free(c.all);
	if (ret)
		cc_display__exit(d);
	return ret;
}

void cc_display__exit(struct cc_display *d)
{
	struct arena *a = d->arena;

	if (a) {
		for (size_t i = 0; i < a->nr; i++)
			free(a->ptrs[i]);
		free(a->ptrs);
		free(a);
	}
	memset(d, 0, sizeof(*d));
}

const char *cc_frame__name(const struct cc_frame *f, char *buf, size_t size)
{
	if (f->sym)
		snprintf(buf, size, "%s%s%s%s", f->sym->name, f->label ? " " : "",
			 f->label ? f->label : "", f->sym->inlined ? " (inlined)" : "");
	else if (f->ip)
		snprintf(buf, size, "%#" PRIx64, f->ip);
	else
		snprintf(buf, size, "0");
	return buf;
}
