/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_HIST_H
#define PRF_ANALYSIS_HIST_H
/*
 * Histograms of `prf report`: one struct hists per event (evsel), holding
 * hist entries keyed by the sort keys (util/analysis/sort.h), each with
 * self period/sample count and, in children mode, cumulative ("Children")
 * period/sample count, plus a callchain trie (util/analysis/callchain-tree.h).
 *
 * Accounting follows perf report (tools/perf/Documentation/perf-report.txt,
 * "--children"): a sample adds its period to the self and children values
 * of the entry its ip resolved to, and to the children value of every other
 * distinct entry along its callchain (an entry appearing twice in one chain,
 * i.e. recursion, is counted once). The self entry gets the whole chain;
 * each other entry gets the part of the chain from its own frame on, in
 * display order (caller order: its callees; callee order: its callers).
 *
 * Entries live in a hash table (lookup O(1) per frame), allocated from
 * slabs; nothing is sorted until hists__output_resort().
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "callchain-tree.h"
#include "../model/dso.h"
#include "sort.h"

struct thread;
struct map;
struct dso;
struct symbol;
struct addr_location;
struct callchain_cursor;

/*
 * What --mem-mode's keys read of a sample (perf's mem_info): its data
 * address resolved as perf resolves it (resolved_sample__data_location())
 * and its data source. Entries keep their own copy in the hists.
 */
struct hist_mem {
	uint64_t daddr;			/* PERF_SAMPLE_ADDR */
	uint64_t daddr_dso;		/* daddr in the DSO's space (offset into dsym) */
	struct dso *ddso;		/* the DSO of the map holding daddr, NULL: no map */
	struct symbol *dsym;		/* its data symbol, NULL: none */
	uint64_t data_src;		/* PERF_SAMPLE_DATA_SRC */
	uint64_t ins_lat;		/* PERF_SAMPLE_WEIGHT_STRUCT's instruction latency */
};

struct hist_entry {
	struct hist_entry *next;	/* hash chain */
	uint64_t hash;
	/* keys */
	struct thread *thread;
	const char *comm;		/* interned in the hists */
	pid_t pid, tid;
	struct map *map;
	struct dso *dso;
	struct symbol *sym;
	uint64_t ip;			/* shown when sym is NULL */
	uint64_t addr;			/* DSO address space (symoff) */
	char level;			/* '.', 'k' as in [.] [k] */
	int32_t cpu;
	const char *parent;		/* parent symbol name, NULL: "[other]" */
	const char *srcline;		/* NULL: unknown */
	const char *trace;		/* tracepoint text (--sort trace), not owned */
	uint64_t time;			/* sample time cut to the quantum (--sort time), ns */
	const char *srcfile;		/* --sort srcfile: file name, NULL unknown */
	uint64_t weight;		/* --sort weight/local_weight: the sample weight */
	uint64_t vaddr;			/* --sort addr: the sampled virtual address */
	int32_t socket;			/* --sort socket: the cpu's socket id, -1 unknown */
	uint64_t cgroup;		/* --sort cgroup: PERF_SAMPLE_CGROUP id, 0 none */
	const struct hist_mem *mem;	/* --mem-mode keys; NULL unless one is used */
	/* values */
	uint64_t period_sys, period_us;	/* self period in kernel / user mode */
	uint64_t period;		/* self */
	uint64_t period_acc;		/* self + callees (children mode) */
	uint64_t nr_samples, nr_samples_acc;
	uint32_t cc_root;		/* trie root in hists->store, 0 none */
	uint32_t max_depth;		/* longest chain appended (frames) */
	uint64_t seq;			/* creation order */
	uint64_t mark;			/* last sample that counted it (children) */
	bool filtered;			/* created by a filtered sample: not shown */
};

/* hist_entry__cmp_collapse(so, e[a], e[b]) on the compact keys of
 * collapse_keys__init() (sort.h): same sign for every pair. */
static inline int collapse_keys__cmp(const struct collapse_keys *ck, size_t a, size_t b)
{
	const struct collapse_key *x = &ck->k[a], *y = &ck->k[b];
	bool xn, yn;
	int r;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (!ck->sym_key)
		return 0;
	xn = x->dso & COLLAPSE_NO_SYM;
	yn = y->dso & COLLAPSE_NO_SYM;
	if (xn && yn)
		return addr_sdiff_cmp(x->v1, y->v1);
	if ((x->dso & ~COLLAPSE_NO_SYM) != (y->dso & ~COLLAPSE_NO_SYM))
		return (x->dso & ~COLLAPSE_NO_SYM) < (y->dso & ~COLLAPSE_NO_SYM) ? -1 : 1;
	if (xn || yn)
		return xn ? 1 : -1;
	r = addr_sdiff_cmp(x->v1, y->v1);
	if (!r)
		r = addr_sdiff_cmp(x->v2, y->v2);
	if (!r && ck->e[a]->sym != ck->e[b]->sym)
		r = symbol__same_range_cmp(ck->e[a]->sym, ck->e[b]->sym);
	if (!r && ck->symoff && ck->e[a]->addr != ck->e[b]->addr)
		r = ck->e[a]->addr < ck->e[b]->addr ? -1 : 1;
	return r;
}

/* One sample as report hands it to the hists. */
struct hist_sample {
	struct thread *thread;
	const char *comm;		/* comm at sample time; its text must not
					   change while the hists live (interned
					   by address, as machine comms are) */
	int32_t cpu;			/* -1 unknown */
	uint64_t period;
	/* where the sample ip resolved (machine__resolve) */
	struct map *map;
	struct symbol *sym;
	uint64_t addr;			/* DSO address space, or ip if no map */
	char level;
	const char *srcline;
	const char *trace;		/* --sort trace: interned payload text */
	uint64_t time;			/* --sort time: sample time cut to the quantum, ns */
	uint64_t weight;		/* --sort weight/local_weight: PERF_SAMPLE_WEIGHT(_STRUCT) */
	uint64_t ip;			/* --sort addr: the sample's virtual address */
	int32_t socket;			/* --sort socket: the cpu's socket id, -1 unknown */
	uint64_t cgroup;		/* --sort cgroup: PERF_SAMPLE_CGROUP id, 0 none */
	const struct hist_mem *mem;	/* --mem-mode keys (copied by the hists); NULL: none */
	bool filtered;			/* rejected by a filter (--comms, --pid...) */
	/* resolved chain, callee (leaf) first; NULL or empty: none */
	const struct callchain_cursor *chain;
};

struct resolved_sample;

/*
 * *s set from a resolved sample (util/session/resolve.h) whose location
 * was filled: its thread, comm, map, symbol, DSO address (the ip without
 * a map) and level, the period (1 when the sample has none) and the cpu
 * (-1 when the evsel does not sample it); everything else zero, for the
 * caller to add (filtered, chain, srcline, ...).
 */
void hist_sample__from_resolved(struct hist_sample *s, const struct resolved_sample *rs);

struct hists {
	const struct sort_order *so;
	const struct callchain_param *cc;
	bool use_callchain;		/* build callchain tries */
	/* entries */
	struct hist_entry **htab;
	size_t hmask;
	size_t nr_entries;
	struct hist_entry **sorted;	/* after hists__output_resort() */
	size_t nr_sorted;
	/* stats of the accepted samples */
	uint64_t total_period;
	uint64_t nr_samples;
	/* hists__relative_totals(): the total of all samples, which perf
	 * still prints callchain percentages of; 0 otherwise (use
	 * total_period) */
	uint64_t abs_total_period;
	struct callchain_store store;
	/* entries hold references to their thread and map, the store's
	 * frames to their map (hists__hold_refs()) */
	bool hold_refs;
	void *priv;			/* private: slabs, comm strings, scratch */
};

/* Set up empty hists; so and cc must outlive it. 0 or -ENOMEM. */
int hists__init(struct hists *hists, const struct sort_order *so,
		const struct callchain_param *cc, bool use_callchain);
void hists__exit(struct hists *hists);
/*
 * For hists that outlive parts of the model (prf top, whose machine
 * releases exited threads: machine__release_exited()): from now on each
 * new entry takes a reference to its thread (thread__get()) and map
 * (map__get(), which keeps its DSO and the symbol), each new callchain
 * frame to its map; hists__exit() drops them, and hists__compact() hands
 * the setting on to its copy. Call right after hists__init(), before any
 * sample. Report and script never call it (no reference is taken).
 */
void hists__hold_refs(struct hists *hists);
/*
 * Forget the lookups hists keeps by thread pointer (the last entries
 * found per thread, comm, DSO and symbol) so that the address of a freed
 * thread, reused for a new one, finds nothing: call
 * after the model released anything (machine__release_exited() > 0).
 * Entries and their values are kept.
 */
void hists__forget_memos(struct hists *hists);
/* Account one sample (see the top comment). 0 or -ENOMEM. */
int hists__add_sample(struct hists *hists, const struct hist_sample *s);
/*
 * hists__add_sample(), also telling a caller that memoizes samples which
 * entry took it: *self is the sample's self entry when that is all the
 * sample touched (no callchain trie, no children: then an identical later
 * sample may be counted with hists__count_self() instead), else NULL.
 * 0 or -ENOMEM (*self NULL).
 */
int hists__add_sample_self(struct hists *hists, const struct hist_sample *s,
			   struct hist_entry **self);
/*
 * Count a sample of period (its unit: the event's) and level ('k'
 * kernel, '.' user, ...; hist_sample.level) in he, an entry of hists that
 * hists__add_sample_self() returned, and in the hists' totals: what
 * adding an identical sample again would do (inline: once per sample).
 */
static inline void hists__count_self(struct hists *hists, struct hist_entry *he, uint64_t period,
				     char level)
{
	he->period += period;
	if (level == 'k')
		he->period_sys += period;
	else if (level == '.')
		he->period_us += period;
	he->nr_samples++;
	he->period_acc += period;
	he->nr_samples_acc++;
	hists->total_period += period;
	hists->nr_samples++;
}
/*
 * Build ahead part of what hists__output_resort() may need: insert up to
 * budget more entries, in creation order, into perf's input tree (its
 * first collapse tree: hist_entry__cmp_collapse, not transitive, so it is
 * built as perf builds it). May run on a thread other than the one adding
 * samples (report's delivering thread, while its hists feed waits for the
 * adding thread), as long as one thread at a time calls it and not during
 * hists__output_resort() or hists__exit(); sees the entries created so
 * far. Entries inserted, 0 when none is new (or on ENOMEM: the tree is
 * then built at the end).
 */
int hists__presort(struct hists *hists, unsigned int budget);
/* Sort entries for output into hists->sorted (hist_entry__cmp_output) and
 * compute the column widths into so->cols (so is updated: widths only).
 * 0 or -ENOMEM. */
int hists__output_resort(struct hists *hists, struct sort_order *so);
/*
 * Column widths of so's columns from the data (perf's hists__calc_col_len)
 * of entries e[0..n) (any order, entries of any hists) into
 * width[so->nr_cols]: key columns by their longest text among entries not
 * filtered, value columns by their header. so is only read.
 */
void hist_entries__col_widths(const struct sort_order *so, struct hist_entry *const *e,
			      size_t n, int *width);
/*
 * For hists that live long (prf top): copy into dst, empty and set up
 * with src's so, cc and use_callchain, the entries of src that keep()
 * accepts, in creation order, with their values and callchain tries
 * (copied into dst's store without the nodes whose subtree has no hit or
 * count left: callchain_store__copy_live()).
 * dst's total period is the sum of the kept entries' self periods; its
 * sample count goes on from src's. src is not touched; free it with
 * hists__exit(). 0 or -ENOMEM (dst
 * partly filled then: exit both).
 */
int hists__compact(struct hists *dst, struct hists *src,
		   bool (*keep)(const struct hist_entry *he, void *arg), void *arg);
/*
 * perf report --percentage relative: replace total_period and nr_samples
 * by the sums of the self period and sample count of the entries that no
 * filter hid (perf's total_non_filtered_period and
 * nr_non_filtered_samples), so that the shown entries add up to 100%, in
 * the header, the columns, the callchains and --percent-limit alike. Call
 * once all samples are added.
 */
void hists__relative_totals(struct hists *hists);
/* Percent of an entry used by --percent-limit: children when cumulating. */
double hists__entry_percent(const struct hists *hists, const struct hist_entry *he);

#endif
