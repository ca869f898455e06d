/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_CALLCHAIN_TREE_H
#define PRF_ANALYSIS_CALLCHAIN_TREE_H
/*
 * Per hist entry callchain trees for `prf report -g`.
 *
 * Frames of resolved callchains (util/model/callchain.h) are interned once
 * per hists into small integer ids, keyed like perf's callchain sort key
 * (-g ...,function|address|srcline, store->key): by default "function",
 * (DSO, symbol) when the frame resolved to a symbol, else (DSO, ip).
 * Each hist entry owns a trie of frame ids (root first in the order the
 * chain was appended), all tries living in one node arena of the store, so
 * adding a sample is a walk down the trie without allocation in the common
 * case. Hits are sample periods.
 *
 * For display the trie is compressed the way perf's radix callchain tree
 * is (a node with no hits of its own and exactly one child is merged with
 * that child) and sorted/filtered by mode:
 *  graph   (CHAIN_GRAPH_ABS) children by cumulative hits, kept when
 *          hits >= total * min_percent / 100, percents of the total;
 *  fractal (CHAIN_GRAPH_REL) thresholds and percents relative to the parent;
 *  flat / folded: every chain with own hits >= the threshold, by hits.
 * Modes, thresholds and print limits follow perf 6.1's -g option
 * (tools/perf/Documentation/perf-report.txt, "-g").
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct callchain_frame;
struct map;
struct dso;
struct symbol;

enum chain_mode {
	CHAIN_NONE,
	CHAIN_GRAPH_ABS,	/* "graph" */
	CHAIN_GRAPH_REL,	/* "fractal" */
	CHAIN_FLAT,		/* "flat" */
	CHAIN_FOLDED,		/* "folded" */
};

enum chain_order {
	ORDER_CALLEE,		/* leaf first */
	ORDER_CALLER,		/* root (main) first */
};

/* What identifies a callchain node (perf 6.1's -g sort_key item). */
enum chain_key {
	CCKEY_FUNCTION,		/* "function": (DSO, symbol); the default */
	CCKEY_ADDRESS,		/* "address": (DSO, ip); printed "sym file:line" */
	CCKEY_SRCLINE,		/* "srcline": source file:line, else function */
};

enum chain_value {
	CCVAL_PERCENT,
	CCVAL_PERIOD,
	CCVAL_COUNT,
};

struct callchain_param {
	bool enabled;		/* -g given or callchains recorded */
	enum chain_mode mode;
	enum chain_order order;
	bool order_set;		/* caller/callee given explicitly */
	double min_percent;	/* threshold, percent (default 0.5) */
	uint32_t print_limit;	/* max children printed per node, 0 = all */
	enum chain_value value;
	enum chain_key key;	/* default CCKEY_FUNCTION */
	bool mode_set;
};

/* perf's defaults: graph, 0.5%, no limit, callee order, percent. */
void callchain_param__init(struct callchain_param *p);
/*
 * Parse a -g/--call-graph argument (perf syntax:
 * "graph|flat|folded|fractal|none[,threshold[,print_limit]][,caller|callee]
 * [,function|address|srcline][,percent|period|count]"; items may come in
 * any order as perf accepts them). Returns 0 or -EINVAL after pr_err().
 */
int callchain_param__parse(struct callchain_param *p, const char *arg);
/*
 * Apply the call-graph.* display keys of perf's configuration files
 * (perf-config(1): print-type, order, sort-key, threshold, print-limit)
 * to p as -g would set them, without turning callchains on. Call before
 * parsing -g, which overrides them. 0, or -EINVAL after pr_err() naming
 * the key and its bad value.
 */
int callchain_param__config(struct callchain_param *p);

/* One interned frame. */
struct cc_frame {
	struct map *map;
	struct dso *dso;
	struct symbol *sym;
	uint64_t ip;		/* virtual address as sampled */
	const char *srcline;	/* not owned, may be NULL */
	/* CCKEY_ADDRESS/SRCLINE: what perf prints after the symbol name
	 * ("t.c:12", "??:0", "+22" for DSOs without line info); NULL: none.
	 * Interned per DSO (not owned). */
	const char *label;
	/* id of the first frame with the same CCKEY_SRCLINE identity (the
	 * id trie nodes match on); the frame's own id for other keys */
	uint32_t match;
	uint8_t cpumode;
};

/* One trie node (index into store->nodes; 0 is "none"). */
struct cc_node {
	uint32_t frame;		/* frame id (CCKEY_SRCLINE: its match id);
				   0 for a root */
	uint32_t parent, child, sibling;
	uint32_t count;		/* number of chains ending here */
	uint32_t aux;		/* scratch for callchain_store__display() */
	uint64_t hit;		/* period of chains ending here */
};

struct callchain_store {
	struct cc_frame *frames;	/* [0] unused */
	uint32_t nr_frames, alloc_frames;
	uint32_t *fhash;		/* open addressing, frame ids */
	uint32_t fhash_mask;
	struct cc_node *nodes;		/* [0] unused */
	uint32_t nr_nodes, alloc_nodes;
	/* (parent, frame) -> child, for nodes with many children */
	uint64_t *ckeys;
	uint32_t *cvals;
	uint64_t cmask, nr_ckeys;
	/* CCKEY_SRCLINE only: srcline classes (match ids, open addressing),
	 * and per node the frame that created it (what perf prints for a
	 * node: the first chain's frame); NULL for other keys */
	uint32_t *mhash;
	uint32_t mhash_mask, nr_match;
	uint32_t *show;
	/* Frame identity; set once right after callchain_store__init(),
	 * before the first frame is interned (init leaves CCKEY_FUNCTION):
	 *  function: (DSO, symbol), unresolved frames (DSO, ip);
	 *  address:  (DSO, ip, symbol) (the symbol only splits inlined
	 *            frames, which share their real frame's ip);
	 *  srcline:  frames interned as with address; trie nodes match on
	 *            the label string when there is one (perf compares
	 *            srclines only, across DSOs too), else as function,
	 *            and show the frame that created them.
	 * Non-function keys need callchain_frame srclines resolved
	 * (resolve_opts.srcline) to find file:line labels. */
	enum chain_key key;
	/* Frames hold a reference to their map (map__get(), dropped by
	 * callchain_store__exit()), so the model may release it: set with
	 * hists->hold_refs (prf top), before the first frame is interned. */
	bool hold_refs;
	/* nodes right after the last callchain_store__copy_live() into
	 * this store (0: none), to tell how much it grew since */
	uint32_t copied_nodes;
};

/* Empty store; 0 or -ENOMEM. callchain_store__exit() frees everything. */
int callchain_store__init(struct callchain_store *s);
void callchain_store__exit(struct callchain_store *s);
/* Intern a resolved frame; returns its id (>0) or 0 on ENOMEM. The
 * frame memo of util/analysis/hist.c relies on the identity (dso, sym,
 * and ip for unresolved frames or non-function keys) giving one id. */
uint32_t callchain_store__frame_id(struct callchain_store *s, const struct callchain_frame *f);
/* A new empty trie; returns its root node index or 0 on ENOMEM. */
uint32_t callchain_store__new_root(struct callchain_store *s);
/* Add one chain (frame ids, first = nearest the root of the trie) with
 * period; 0 or -ENOMEM. */
int callchain_store__append(struct callchain_store *s, uint32_t root,
			    const uint32_t *ids, unsigned int nr, uint64_t period);
/* The same, returning the node the chain ended at (the leaf whose hit and
 * count were bumped; node indexes stay valid for the store's life), or 0
 * on ENOMEM. Adding period to that node's hit and 1 to its count later is
 * the same as appending the same chain again. */
uint32_t callchain_store__append_leaf(struct callchain_store *s, uint32_t root,
				      const uint32_t *ids, unsigned int nr, uint64_t period);

/*
 * For stores that live long (prf top, whose tries decay): copy into dst
 * (empty: callchain_store__init(), with src's key and hold_refs set) the
 * tries of src rooted at roots[0..nr) (0: no trie, kept 0), keeping only
 * the nodes with a hit or count left in their subtree, with their values
 * and their children's order, and the frames those nodes name (a map
 * reference each when dst holds them). roots[i] becomes the index of its
 * copy in dst, whose copied_nodes is set to its node count. src is only
 * read (free it with callchain_store__exit(): the references of frames
 * no live node names go with it). 0 or -ENOMEM (dst partly filled: exit
 * it; roots partly rewritten).
 */
int callchain_store__copy_live(struct callchain_store *dst, const struct callchain_store *src,
			       uint32_t *roots, size_t nr);

/* Display tree: a compressed, sorted and filtered view of one trie. */
struct cc_chain {
	uint32_t *vals;		/* frame ids, in print order */
	uint32_t nr_vals;
	uint64_t hit;		/* own hits (of the last val) */
	uint64_t cumul;		/* hits including all descendants */
	uint64_t count, cumul_count;
	uint64_t children_hit;	/* cumul - hit */
	struct cc_chain *parent;
	struct cc_chain **children;	/* kept children, sorted */
	uint32_t nr_children;
};

struct cc_display {
	struct cc_chain *root;	/* vals empty */
	struct cc_chain **flat;	/* CHAIN_FLAT/FOLDED: chains by hits */
	uint32_t nr_flat;
	void *arena;		/* private */
};

/*
 * Build the display tree of the trie at root for param->mode. total is
 * the hists' total period (graph threshold base). Returns 0 or -ENOMEM;
 * free with cc_display__exit().
 */
int callchain_store__display(struct callchain_store *s, uint32_t root,
			     const struct callchain_param *param, uint64_t total,
			     struct cc_display *d);
void cc_display__exit(struct cc_display *d);

/* Name of a frame as perf 6.1 prints it in callchains: symbol name (plus
 * " " and the label when the store's key gave it one, as perf's
 * callchain_list__sym_name() does for the address and srcline keys),
 * " (inlined)" for inlined frames, or the ip as "0x7f..." when
 * unresolved. Returns buf. */
const char *cc_frame__name(const struct cc_frame *f, char *buf, size_t size);

#endif
