/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SAMPLE_FILTER_H
#define PRF_ANALYSIS_SAMPLE_FILTER_H
/*
 * Sample filters shared by `prf report` and `prf script`: the perf 6.1
 * options --comms, --dsos, --symbols (comma separated names, exact match),
 * --pid/--tid (comma separated numbers) and --cpu/-C (a cpu list such as
 * "0-2,5"). An option left NULL or given as "" does not filter.
 *
 * The cpu list is kept as a bitmap of SAMPLE_FILTER_MAX_CPUS cpus rather
 * than a perf_cpu_map: perf_cpu_map__new() reads "" as "all online cpus",
 * while the report/script options treat every listed cpu literally.
 */
#include <stdbool.h>
#include <stdint.h>

struct dso;

#define SAMPLE_FILTER_MAX_CPUS 4096

/* Option strings as the user gave them (borrowed, may be NULL). */
struct sample_filter_args {
	const char *cmd;	/* command name for error messages ("report") */
	const char *comms, *dsos, *symbols, *pids, *tids, *cpus;
};

/* Parsed filters; owns its lists. Zero-initialise before __parse(). */
struct sample_filter {
	char **comm_list, **dso_list, **sym_list;
	int nr_comms, nr_dsos, nr_syms;		/* 0: no filter */
	long *pid_list, *tid_list;
	int nr_pids, nr_tids;			/* 0: no filter */
	unsigned char *cpu_set;			/* by cpu number; NULL: all cpus */
};

/*
 * Parse args into f, in the order comms, dsos, symbols, pids, tids, cpus,
 * stopping at the first error (and at the first bad item of a list:
 * one error line). A bad number or cpu list prints
 * "prf <cmd>: invalid pid '<item>'" / "prf <cmd>: invalid cpu list '<s>'"
 * to stderr and returns -EINVAL; -ENOMEM on allocation failure; else 0.
 * Whatever was parsed before an error is freed by sample_filter__exit().
 */
int sample_filter__parse(struct sample_filter *f, const struct sample_filter_args *args);
/* Free the lists; f may be parsed again afterwards. */
void sample_filter__exit(struct sample_filter *f);

/* Does any option filter? (false: every sample passes, no need to ask) */
static inline bool sample_filter__active(const struct sample_filter *f)
{
	return f->nr_comms || f->nr_dsos || f->nr_syms || f->nr_pids || f->nr_tids || f->cpu_set;
}

/* True when cpu (perf_sample.cpu) passes --cpu (in line: asked per sample). */
static inline bool sample_filter__match_cpu(const struct sample_filter *f, uint32_t cpu)
{
	return !f->cpu_set || (cpu < SAMPLE_FILTER_MAX_CPUS && f->cpu_set[cpu]);
}
/* True when the sample's pid/tid (as perf_sample, compared as int32) and
 * its thread's comm pass --pid, --tid and --comms (a NULL comm fails an
 * active --comms). */
bool sample_filter__match_task(const struct sample_filter *f, uint32_t pid, uint32_t tid,
			       const char *comm);
/* True when dso (NULL: unresolved, fails) passes --dsos by its short
 * (basename) or long (as mapped) name. */
bool sample_filter__match_dso(const struct sample_filter *f, const struct dso *dso);
/* True when sym_name (NULL: unresolved, fails) passes --symbols. */
bool sample_filter__match_sym(const struct sample_filter *f, const char *sym_name);
/* match_cpu && match_task: the filters `prf script` applies. */
bool sample_filter__match(const struct sample_filter *f, uint32_t pid, uint32_t tid,
			  uint32_t cpu, const char *comm);

/*
 * Time ranges: the argument of perf 6.1's `report --time` (perf-report(1)):
 *  - "START,STOP" in seconds with up to 9 decimals ("1234.5678,1235"),
 *    either side empty for an open end (",1235" / "1234.5,"); several such
 *    ranges separated by spaces ("1.0,2.0 3.0,4.0");
 *  - percent slices of the recording's sample time span: "P%/N" is the
 *    N-th slice P percent wide (N counts from 1), "A%-B%" the span from A
 *    to B percent; several separated by commas ("10%/1,10%/3",
 *    "0%-10%,30%-40%").
 * A sample passes when its time (perf_sample.time, ns) lies in any range,
 * both ends included. Percent ranges need the span (the file's
 * HEADER_SAMPLE_TIME): they are parsed first and resolved against it with
 * sample_time_filter__resolve(). One parser and one predicate, for every
 * command that takes --time.
 */
struct sample_time_range {
	uint64_t start, end;		/* ns, inclusive; end 0: open */
	double pct_start, pct_end;	/* percent slices (0..100), before resolving */
};

struct sample_time_filter {
	struct sample_time_range *ranges;	/* owned */
	int nr;					/* 0: no filter */
	bool percent;				/* percent ranges, see __resolve() */
	bool resolved;				/* absolute times known */
};

/*
 * Parse str (NULL or "": no filter) into tf (zero-initialised). A bad
 * string prints "prf <cmd>: invalid time '<str>'" to stderr and returns
 * -EINVAL; -ENOMEM on allocation failure; else 0.
 */
int sample_time_filter__parse(struct sample_time_filter *tf, const char *cmd, const char *str);
/*
 * Turn percent slices into absolute ns against the sample time span
 * [first, last] (ns); a no-op for absolute ranges. -EINVAL when percent
 * ranges are asked for and the span is unknown (first == last == 0);
 * 0 without ranges.
 */
int sample_time_filter__resolve(struct sample_time_filter *tf, uint64_t first, uint64_t last);
/* True when time (ns) passes (always without ranges). Resolve first. */
bool sample_time_filter__match(const struct sample_time_filter *tf, uint64_t time);
/* Free the ranges; tf may be parsed again afterwards. */
void sample_time_filter__exit(struct sample_time_filter *tf);

#endif /* PRF_ANALYSIS_SAMPLE_FILTER_H */
