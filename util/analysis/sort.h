/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SORT_H
#define PRF_ANALYSIS_SORT_H
/*
 * Sort keys and output fields of `prf report` (perf report's -s/--sort and
 * -F/--fields). A sort key both groups samples into hist entries (two
 * samples with equal keys land in one entry) and orders entries with equal
 * overhead; an output field is one column of the stdio table.
 *
 * Keys (perf 6.1 spelling): comm, pid (alias tid: "Pid:Command"), dso,
 * sym (alias symbol), symoff, cpu, parent, srcline, trace (the
 * formatted tracepoint payload; "N/A" for other events), time (the
 * sample time rounded down to the time quantum, seconds with 6 or, with
 * nanosecs, 9 decimals in a 12 or 16 wide column, as perf), weight and
 * local_weight (sum and value of the samples' weight, 12 wide), addr (the
 * sampled virtual address, 18 wide), socket (the sample cpu's socket,
 * as cpu but 6 wide and higher ids first), cgroup (the path of the
 * sample's cgroup, "N/A" without one, "unknown" when no record names it),
 * local_ins_lat; with --mem-mode mem, symbol_daddr, dso_daddr, snoop,
 * tlb, locked, blocked (sort_order__parse_mode()). Value fields: overhead
 * (alias self), children (alias overhead_children), sample, period.
 *
 * Column layout and tie order follow perf report --stdio: comm/dso/pid
 * left-aligned and padded, sym not padded when it is the last column,
 * names compared ascending, tid ascending, entries without a symbol last.
 */
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

struct hist_entry;

struct cgroup_names;

enum sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_DSO,
	SORT_SYM,
	SORT_SYMOFF,
	SORT_CPU,
	SORT_PARENT,
	SORT_SRCLINE,
	SORT_TRACE,		/* tracepoint payload text ("Trace output") */
	SORT_TIME,		/* sample time cut to the time quantum ("Time") */
	SORT_DSO_SIZE,		/* size of the sample's map ("DSO size") */
	SORT_SYM_SIZE,		/* size of the symbol ("Symbol size") */
	SORT_SRCFILE,		/* source file name of the ip ("Source File") */
	SORT_IPC_NULL,		/* perf's IPC column without branch data: "-" */
	SORT_WEIGHT,		/* sum of the samples' weights ("Weight") */
	SORT_LOCAL_WEIGHT,	/* the samples' weight ("Local Weight") */
	SORT_ADDR,		/* the sampled virtual address ("Address") */
	SORT_SOCKET,		/* the sample cpu's socket id ("Socket") */
	SORT_CGROUP,		/* the sample's cgroup path ("Cgroup") */
	/* --mem-mode keys (perf's memory sort dimensions), on the sample's
	 * data address and data source (struct hist_mem) */
	SORT_MEM,		/* memory level of the data source ("Memory access") */
	SORT_SYM_DADDR,		/* the data address's symbol ("Data Symbol") */
	SORT_DSO_DADDR,		/* the data address's DSO ("Data Object") */
	SORT_SNOOP,		/* snoop of the data source ("Snoop") */
	SORT_TLB,		/* TLB access of the data source ("TLB access") */
	SORT_LOCKED,		/* lock of the data source ("Locked") */
	SORT_BLOCKED,		/* block of the data source ("Blocked") */
	SORT_LOCAL_INS_LAT,	/* the sample's instruction latency ("Local INSTR Latency") */
	SORT_KEY__MAX,
	/* value (overhead) fields, for -F */
	HPP_OVERHEAD = 32,	/* self period percent ("Overhead" or "Self") */
	HPP_CHILDREN,		/* cumulative period percent ("Children") */
	HPP_SAMPLE,		/* number of samples ("Samples") */
	HPP_PERIOD,		/* sum of periods ("Period") */
	HPP_OVERHEAD_SYS,	/* percent of kernel-mode period ("sys") */
	HPP_OVERHEAD_US,	/* percent of user-mode period ("usr") */
};

#define SORT_MAX_COLUMNS 16

struct sort_column {
	int type;		/* enum sort_key */
	int width;		/* chars; computed from the data for keys */
	bool elide;		/* not printed (perf: a filter leaves one value) */
};

struct sort_order {
	/* grouping/tie keys, in order */
	int keys[SORT_MAX_COLUMNS];
	int nr_keys;
	/* output columns, left to right */
	struct sort_column cols[SORT_MAX_COLUMNS];
	int nr_cols;
	/* entries ordered by these (value fields and keys), in order */
	int sort[SORT_MAX_COLUMNS * 2];
	int nr_sort;
	bool cumulate;		/* children (cumulative) accounting */
	bool user_fields;	/* -F given */
	bool sort_starts_with_sym;	/* -s sym...: graph skips the first frame */
	bool need_parent;	/* parent key in use: resolve the parent regex */
	bool nanosecs;		/* --ns: the time key in nanoseconds */
	bool mem_mode;		/* --mem-mode: the memory keys are valid */
	bool mem_keys;		/* a key or column reads the entries' hist_mem */
	bool need_srcfile;	/* the srcfile key: entries get their file */
	bool chain_dups;	/* the time key: in children mode every frame
				   of a chain adds to its entry, repeated ones
				   too (perf 6.1's duplicate check compares
				   against a template without the time) */
	bool socket_dups;	/* the socket key: the same for entries whose
				   socket is not 0 (the template's socket) */
	bool cgroup_dups;	/* the cgroup key: the same, cgroup id not 0 */
	const struct cgroup_names *cgroups;	/* cgroup key: paths by id, not owned */
	regex_t parent_re;
	bool parent_re_set;
	/* set by hists__output_resort(): perf's children tie rule */
	bool depth_tiebreak;	/* equal children, same thread: by chain depth */
	bool caller_order;	/* deeper first (caller) / shallower first */
	uint32_t elided_keys;	/* bit per key type (< HPP_OVERHEAD) whose
				   column sort_order__elide() hid */
};

/*
 * Parse -s/--sort (sort, may be NULL: "comm,dso,sym") and -F/--fields
 * (fields, may be NULL) into so, the way perf report does: without -F the
 * columns are [Children] [Overhead/Self] [Samples] [Period] then the keys,
 * and entries sort by children, self, then the keys; with -F the columns
 * are exactly the fields given (keys of -F are the sort keys when -s is
 * absent) and entries sort by the -F fields in order, then the -s keys.
 * show_nr_samples/show_period add the Samples/Period columns (-n,
 * --show-total-period). parent_pattern: regex for the parent key (NULL:
 * perf's default "^sys_|^do_page_fault").
 * Returns 0, or -EINVAL after pr_err() naming the unknown key.
 */
int sort_order__parse(struct sort_order *so, const char *sort, const char *fields,
		      bool cumulate, bool show_nr_samples, bool show_period,
		      const char *parent_pattern);
/*
 * sort_order__parse() for perf report --mem-mode when mem_mode: the
 * memory keys (mem, symbol_daddr, dso_daddr, snoop, tlb, locked,
 * blocked) are valid, which otherwise are refused as perf refuses them
 * ("Invalid --sort key"), and without -s/-F the sort order is perf 6.1's
 * MEM_SORT_ORDER. local_p_stage_cyc and p_stage_cyc (perf: powerpc only)
 * are accepted and left out, as perf does on x86.
 */
#define MEM_SORT_ORDER "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked," \
		       "blocked,local_ins_lat,local_p_stage_cyc"
int sort_order__parse_mode(struct sort_order *so, const char *sort, const char *fields,
			   bool cumulate, bool show_nr_samples, bool show_period,
			   const char *parent_pattern, bool mem_mode);
void sort_order__exit(struct sort_order *so);
/*
 * --show-cpu-utilization: "sys" and "usr" columns (kernel and user mode
 * share of the period) right after the Overhead/Self column, as perf
 * 6.1 adds them; nothing with -F. 0, or -EINVAL when the columns do
 * not fit.
 */
int sort_order__add_cpu_utilization(struct sort_order *so);
/*
 * Hide the column of key when a filter leaves it a single value (perf:
 * --comms/--dsos/--symbols with one item); unless then every key column
 * would be hidden, in which case all stay.
 */
void sort_order__elide(struct sort_order *so, int key);
/* Whether key's column is elided (sort_order__elide()); perf's output
 * order skips elided keys (hist_entry__sort skips elided formats). */
bool sort_order__key_elided(const struct sort_order *so, int key);
/* Whether key (enum sort_key) is one of the grouping keys. */
bool sort_order__has_key(const struct sort_order *so, int key);

/* Column header text ("Overhead", "Command", ...) of a column type. */
const char *sort_column__header(const struct sort_order *so, int type);
/* Minimum width of a column: its header's length (values widen it). */
int sort_column__min_width(const struct sort_order *so, int type);

/*
 * Compare two entries on the grouping keys (collapse identity): 0 when the
 * two belong to one entry. Order is arbitrary but total.
 */
int hist_entry__cmp_keys(const struct sort_order *so, const struct hist_entry *a,
			 const struct hist_entry *b);
/* Hash of the grouping keys, consistent with hist_entry__cmp_keys(). */
uint64_t hist_entry__hash_keys(const struct sort_order *so, const struct hist_entry *e);
/*
 * perf's collapsed-tree order of entries (the order it feeds its output
 * sort): each key ascending, names compared as strings, symbols by start
 * address, addresses by signed difference, missing DSO/symbol last.
 */
int hist_entry__cmp_collapse(const struct sort_order *so, const struct hist_entry *a,
			     const struct hist_entry *b);
/*
 * hist_entry__cmp_collapse() over compact per-entry keys, for the many
 * compares of building perf's collapsed tree: the grouping keys before
 * the symbol key become ranks packed into one integer (comm, dso, pid and
 * cpu keys), the DSO and symbol addresses sit next to it, and the
 * entries themselves are read only on rare ties. Same results as
 * hist_entry__cmp_collapse(so, e[a], e[b]) for every pair.
 */
struct collapse_key {
	uint64_t group;		/* ranks of the keys before the symbol key */
	uint64_t v1, v2;	/* symbol start and end; v1 the ip when no symbol */
	uint32_t dso;		/* rank of (DSO name, DSO); COLLAPSE_NO_SYM */
};
#define COLLAPSE_NO_SYM (1u << 31)

struct collapse_keys {
	struct collapse_key *k;		/* one per entry, in the order given */
	struct hist_entry *const *e;
	bool sym_key;			/* the last key is sym or symoff */
	bool symoff;
};

/*
 * Keys of the n entries e[0..n) (e must stay as it is while they are
 * used). 0, -ENOTSUP when the sort keys are not ones this encodes (keys
 * other than comm, pid, dso, cpu, then at most one sym/symoff key, last)
 * or the ranks do not fit, or -ENOMEM. Free with collapse_keys__exit().
 */
int collapse_keys__init(struct collapse_keys *ck, const struct sort_order *so,
			struct hist_entry *const *e, size_t n);
void collapse_keys__exit(struct collapse_keys *ck);

/* The sign of perf's signed address difference b - a (its address
 * compares when collapsing; not transitive over more than 2^63). */
static inline int addr_sdiff_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(b - a);

	return d > 0 ? -1 : d < 0;
}

/*
 * hist_entry__cmp_output() over compact per-entry keys (the output tree's
 * compares): each sort field one word, values as they are (descending),
 * names as ranks of their order (ascending), the children tie rule's
 * thread and depth beside them. Reads no entry when comparing. Build it
 * after so->depth_tiebreak/caller_order are set.
 */
#define OUTPUT_KEYS_MAX (SORT_MAX_COLUMNS * 2 + 2)
enum { OKEY_DESC, OKEY_ASC, OKEY_CHILDREN };

struct output_keys {
	uint64_t *w;			/* nw words per entry */
	uint64_t *tb;			/* per entry: thread, max_depth */
	unsigned int nw;
	uint8_t kind[OUTPUT_KEYS_MAX];	/* OKEY_* per word */
	bool caller_order;
};

/* 0, -ENOTSUP (a field this does not encode) or -ENOMEM; free with
 * output_keys__exit(). */
int output_keys__init(struct output_keys *ok, const struct sort_order *so,
		      struct hist_entry *const *e, size_t n);
/* Reorder the keys of n entries in place: entry i's keys become those
 * entry from[i] had (from: a permutation of 0..n-1). 0, or -ENOMEM with
 * ok freed (output_keys__exit(); a second exit is harmless). */
int output_keys__permute(struct output_keys *ok, const uint32_t *from, size_t n);
void output_keys__exit(struct output_keys *ok);

/* The order of two different values x, y of word k. */
static inline int output_keys__word_cmp(const struct output_keys *ok, unsigned int k, uint64_t x,
					uint64_t y)
{
	if (ok->kind[k] == OKEY_ASC)
		return x < y ? -1 : 1;
	return x > y ? -1 : 1;
}

/* The children tie rule's order of entries a and b of one thread with
 * different depths: caller above callee. */
static inline int output_keys__depth_cmp(const struct output_keys *ok, size_t a, size_t b)
{
	int r = ok->tb[2 * a + 1] < ok->tb[2 * b + 1] ? -1 : 1;

	return ok->caller_order ? -r : r;
}

/* hist_entry__cmp_output(so, e[a], e[b]) on the keys: same sign. */
static inline int output_keys__cmp(const struct output_keys *ok, size_t a, size_t b)
{
	const uint64_t *x = &ok->w[a * ok->nw], *y = &ok->w[b * ok->nw];

	for (unsigned int k = 0; k < ok->nw; k++) {
		if (x[k] == y[k]) {
			/* perf: caller above callee on equal children, same
			 * thread only */
			if (ok->kind[k] == OKEY_CHILDREN && ok->tb[2 * a] == ok->tb[2 * b] &&
			    ok->tb[2 * a + 1] != ok->tb[2 * b + 1])
				return output_keys__depth_cmp(ok, a, b);
			continue;
		}
		return output_keys__word_cmp(ok, k, x[k], y[k]);
	}
	return 0;
}

/*
 * Output order: <0 when a prints before b (bigger overhead first, then
 * the keys ascending as perf orders them).
 */
int hist_entry__cmp_output(const struct sort_order *so, const struct hist_entry *a,
			   const struct hist_entry *b);

/* The text of a key that is a plain string (comm, dso, parent, srcline,
 * trace) as hist_entry__key_snprintf() prints it, not copied; NULL for
 * the other keys. */
const char *hist_entry__key_text(const struct hist_entry *e, int type);
/*
 * Text of one key column of an entry into buf (size bytes), unpadded
 * ("tree", "[.] main", "  1234:bash", "000"); returns the length.
 */
int hist_entry__key_snprintf(const struct sort_order *so, const struct hist_entry *e,
			     int type, char *buf, int size);

#endif
