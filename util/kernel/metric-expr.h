/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_METRIC_EXPR_H
#define PRF_KERNEL_METRIC_EXPR_H
/*
 * Metric expressions of the kernel's pmu-events JSON ("MetricExpr"), in
 * perf 6.1's grammar: numbers, identifiers (events, other metrics; "\\"
 * escapes one of "-,=", "@" stands for "/", "?" is the runtime
 * parameter), #literals (#smt_on, #num_cpus, #num_packages, #num_dies,
 * #num_cores, #core_wide, #system_tsc_freq), source_count(ID), unary -,
 * the binary operators (binding from loosest to tightest: "|", "^",
 * "&", "<" ">", "+" "-", "*" "/" "%"; all left-associative; "&", "^",
 * "|" and "%" on integers),
 * d_ratio(a, b) (0 when b is 0), min(a, b), max(a, b), and
 * "A if COND else B" (right-nested, at the top or in parentheses).
 */
#include <stdbool.h>
#include <stddef.h>

/*
 * A set of identifiers kept in perf 6.1's hash order (libbpf's hashmap:
 * the key's hash, h = h * 31 + c, spread by the golden-ratio multiply
 * into 2^bits chains, a new key first in its chain, the table doubled
 * from 4 chains when it would be more than 3/4 full). The order of
 * iteration decides the order of the events perf builds for a metric, so
 * it is kept exactly. Zero-initialised = empty.
 */
struct metric_id {
	struct metric_id *next;
	char *key;
};

struct metric_ids {
	struct metric_id **chains;
	size_t cap, nr;
	int bits;
};

/* Add a copy of key (a key already there keeps its place). 0 or -ENOMEM. */
int metric_ids__add(struct metric_ids *s, const char *key);
bool metric_ids__has(const struct metric_ids *s, const char *key);
/* Remove key when present. */
void metric_ids__del(struct metric_ids *s, const char *key);
/* Free every key and chain; s is empty afterwards. */
void metric_ids__release(struct metric_ids *s);
/* Move b's keys into a (perf's ids__union: the larger set receives the
 * smaller one, in its order); b is emptied. 0 or -ENOMEM. */
int metric_ids__union(struct metric_ids *a, struct metric_ids *b);
/* Whether every key of `needles` is in `hay`. */
bool metric_ids__subset(const struct metric_ids *hay, const struct metric_ids *needles);

/* Iterate in perf's order: chain 0 to cap-1, each chain from its head. */
#define metric_ids__for_each(s, pos, i) \
	for ((i) = 0; (i) < (s)->cap; (i)++) \
		for ((pos) = (s)->chains[(i)]; (pos); (pos) = (pos)->next)

/* Values of the #literals and the "?" parameter. */
struct metric_env {
	double smt_on, core_wide, num_cpus, num_packages, num_dies, num_cores;
	double system_tsc_freq;		/* Hz, 0 when unknown */
	int runtime;			/* replaces "?" in identifiers */
};

/* The host's values from sysfs (/sys/devices/system/cpu: smt/active,
 * present, topology/ *_cpus_list) and cpuid (x86 TSC frequency);
 * core_wide when system-wide, as perf's without a -C list. */
void metric_env__host(struct metric_env *env, bool system_wide);

/*
 * perf's expr__find_ids: add to ids the identifiers whose values
 * `expr` needs, folding constants as perf does (an if/else on a constant
 * condition keeps one branch; "X if #smt_on else Y" on a machine without
 * SMT needs only Y). 0, or -EINVAL for a syntax error or a division by a
 * constant 0 (ids unchanged).
 */
int metric_expr__find_ids(const char *expr, const struct metric_env *env, struct metric_ids *ids);

/*
 * Value of identifier `id` (source_count: the number of counters merged
 * into it, 1 for one). Returns 0 with *val set, or -ENOENT when unknown
 * (the identifier then counts as NaN).
 */
typedef int (*metric_lookup_fn)(const char *id, bool source_count, double *val, void *data);

/*
 * Evaluate `expr` as perf's expr__parse: *val is the value (NaN when an
 * identifier is unknown). -EINVAL for a syntax error or a division (/, %)
 * by zero, as perf gives no value then.
 */
int metric_expr__eval(const char *expr, const struct metric_env *env, metric_lookup_fn lookup,
		      void *data, double *val);

#endif
