/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_FOLDED_H
#define PRF_ANALYSIS_FOLDED_H
/*
 * Folded stacks: samples aggregated by their stack, root first, the
 * process name as the root frame, as FlameGraph's stackcollapse-perf.pl
 * makes them from `perf script` output (its documented rules: comm root
 * with spaces turned into '_', frames caller first joined by ';', the
 * "+0x.." offset dropped, an unknown symbol named after its DSO's basename
 * in brackets ("[libc.so.6]") or "[unknown]", names tidied (';' -> ':',
 * everything from the first '(' dropped unless Go-style ".(...)." or
 * "(anonymous namespace)", quotes removed), "_[k]" appended to kernel
 * frames (DSO name containing "kernel." or ending in "vmlinux", a
 * symbol-less one named "[unknown]_[k]") with annotate_kernel, lines
 * sorted bytewise). Inlined frames (perf script's "sym (inlined)" lines)
 * are plain frames named after the inlined function, as
 * stackcollapse-perf.pl reads them. Stored as a trie that `prf flamegraph` renders; two value
 * sets per node serve the differential flamegraph.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../format/data.h"

struct callchain_cursor;
struct perf_sample;
struct sample_filter;
struct sample_time_filter;
struct callchain_frame;

enum folded_kind {
	FOLDED_KIND_ROOT,	/* the all-samples root and process (comm) frames */
	FOLDED_KIND_KERNEL,	/* kernel and modules */
	FOLDED_KIND_MAIN,	/* the program's own binary (non-.so user DSO, JIT) */
	FOLDED_KIND_LIB,	/* shared libraries, [vdso] */
	FOLDED_KIND_UNKNOWN,	/* unmapped or anonymous */
	FOLDED_NR_KINDS,
};

struct folded_node {
	const char *name;		/* interned; owned by the folded */
	uint8_t kind;			/* enum folded_kind */
	uint64_t self[2];		/* samples (or period) ending here, per set */
	uint64_t total[2];		/* self + children, per set */
	struct folded_node **children;	/* in first-seen order */
	unsigned int nr_children, alloc_children;
};

struct folded_opts {
	bool annotate_kernel;	/* "_[k]" suffix on kernel frames */
	bool no_comm;		/* no process-name root frame */
};

struct folded;

/* New empty aggregate; NULL on ENOMEM. Free with folded__delete(). */
struct folded *folded__new(const struct folded_opts *opts);
void folded__delete(struct folded *f);

/* One frame given by name (for callers that have no resolved cursor,
 * and unit tests). name is copied (interned). */
struct folded_frame {
	const char *name;
	enum folded_kind kind;
};

/*
 * Add weight (1 per sample, or its period) to the stack comm + frames
 * into value set `set` (0, or 1 for the baseline of a diff). frames are
 * callee first, as the resolver gives them. 0 or -ENOMEM.
 */
int folded__add(struct folded *f, int set, const char *comm,
		const struct folded_frame *frames, unsigned int nr, uint64_t weight);
/* Same from a resolved callchain (frame names tidied and cached per
 * symbol). 0 or -ENOMEM. */
int folded__add_cursor(struct folded *f, int set, const char *comm,
		       const struct callchain_cursor *cursor, uint64_t weight);

/* The node the last folded__add*() call ended at (its stack's leaf, or
 * the process frame of an empty stack); NULL before any. Owned by f. */
struct folded_node *folded__last_leaf(struct folded *f);

/* The trie: an unnamed root whose children are the process frames. */
struct folded_node *folded__root(struct folded *f);

/* Print "stack count\n" lines of set 0, sorted bytewise by stack, as
 * stackcollapse-perf.pl does. 0, or -EPIPE/-EIO on a write error. */
int folded__fprintf(struct folded *f, FILE *fp);

/*
 * Tidy one raw symbol name by stackcollapse-perf.pl's rules (see top).
 * Writes at most size bytes (NUL included) to out; returns out.
 */
char *folded__tidy_name(const char *raw, char *out, size_t size);

/*
 * The folded name(s) of one perf script frame line "addr SYM (MOD)", by
 * stackcollapse-perf.pl's rules: "_[k]" appended to SYM when
 * annotate_kernel and MOD contains "kernel." or ends in "vmlinux"; SYM
 * split at "->" into frames joined by ';', the inner ones suffixed "_[i]";
 * a part "[unknown]" named "[MOD basename]" unless MOD is "[unknown]";
 * each part tidied (folded__tidy_name()). Writes at most size bytes
 * (NUL included) to out; returns out.
 */
char *folded__line_name(const char *sym, const char *mod, bool annotate_kernel,
			char *out, size_t size);

/* Name and kind for one resolved frame: folded__line_name() of what perf
 * script prints for it (symbol or "[unknown]"; DSO long name, "(inlined)"
 * for inlined frames, "[unknown]" without a map). Writes into out. */
enum folded_kind folded__frame_name(const struct callchain_frame *frame, bool annotate_kernel,
				    char *out, size_t size);

/* Options of folded__add_file(). */
struct folded_file_opts {
	const char *event;	/* evsel name to take; NULL: the first event seen
				   (stackcollapse-perf.pl's default);
				   OFF_CPU_EVENT_NAME ("offcpu-time"): no on-CPU
				   samples, only the off-CPU spans */
	bool weight_period;	/* sum sample periods instead of counting */
	unsigned int max_stack;	/* frames per sample (0: 127) */
	bool no_inline;		/* do not expand inlined frames of DWARF-unwound
				   stacks (default: expanded where debug info
				   exists, as perf script prints them) */
	void (*progress)(uint64_t done, uint64_t total, bool end);
				/* the session's progress callback (session.h), NULL none */
	struct folded *off_cpu;	/* when non-NULL and the file is an off-CPU
				   recording (prf record --off-cpu,
				   util/analysis/off-cpu.h): every off-CPU span
				   is added here, weight = its off-CPU time in
				   ns, into the same value set */
	const struct sample_filter *filter;	/* NULL, or only samples passing its
				   --pid/--tid/--comms (sample_filter__match_task) */
	struct sample_time_filter *time;	/* NULL, or only samples in its ranges
				   (off-CPU spans by their end); percent ranges are
				   resolved against the file's HEADER_SAMPLE_TIME
				   (-EINVAL without it) */
	/* NULL, or called for every sample (off_cpu: off-CPU span) after it
	 * is folded, with its comm, the leaf node it went to (owned by the
	 * folded) and its weight; a non-zero return stops the read. */
	int (*observe)(void *arg, const struct perf_sample *sample, const char *comm,
		       bool off_cpu, const struct folded_node *leaf, uint64_t weight);
	void *observe_arg;
};

/* What folded__add_file() found. */
struct folded_file_info {
	char event[256];	/* on-CPU event folded ("" when none) */
	uint64_t nr_samples;	/* on-CPU samples folded */
	bool has_off_cpu;	/* the file is an off-CPU recording */
	uint64_t nr_off_cpu;	/* off-CPU spans folded into opts->off_cpu */
	uint64_t off_cpu_ns;	/* their summed off-CPU time (ns) */
	struct read_summary summary;	/* how reading the file went: for
					   read_summary__finish() (session.h) */
};

/*
 * Read every sample of the perf.data at path ("-": stdin) through the
 * shared session and resolver and add its stack into value set `set` of
 * f (and the off-CPU spans into opts->off_cpu, see above). info, when
 * non-NULL, is filled. A damaged file adds what was read before the damage
 * (0 returned; info->summary says so). Returns 0, -ENOENT when the file holds no sample
 * of the event asked for and no off-CPU span was asked for and found
 * (message printed), or the session's negative errno.
 */
int folded__add_file(struct folded *f, int set, const char *path,
		     const struct folded_file_opts *opts, struct folded_file_info *info);

#endif
