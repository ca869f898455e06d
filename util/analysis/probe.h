/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_PROBE_H
#define PRF_ANALYSIS_PROBE_H
/*
 * `prf probe`: dynamic probe events as perf 6.1's probe makes them. A
 * probe spec in perf's syntax
 *
 *   [[GROUP:]EVENT=]FUNC[@SRC][:RLN|+OFF|%return|;PTN] [ARG ...]
 *   [[GROUP:]EVENT=]SRC:ALN | SRC;PTN [ARG ...]
 *   ARG: [NAME=]VAR[->FIELD|.FIELD|[N]]...[:TYPE] | $retval | $params |
 *        $vars | a raw fetch argument (%REG, @SYM, +OFF(...))
 *
 * is resolved in a binary (util/model/probe-info.h: symbols, DWARF) to
 * definitions of the kernel's uprobe_events/kprobe_events
 * (Documentation/trace/uprobetracer.rst, kprobetrace.rst) named as perf
 * names them (probe_BINARY:FUNC, probe:FUNC for the kernel, __return,
 * _L<line>), so perf and prf see the same events. Messages go to stderr
 * and listings to stdout in perf's words and layout.
 *
 * Every function returns 0 or a negative errno (after printing perf's
 * message for it): -ENOENT (no such function, event or file), -EINVAL (a
 * bad spec or argument expression), -EEXIST (the event exists, no -f),
 * -EACCES (tracefs not writable or readable: not root), -EOPNOTSUPP (the
 * request needs DWARF the binary lacks, or kprobes the kernel lacks).
 */
#include <stdbool.h>
#include <stddef.h>

struct probe_opts {
	const char *target;	/* -x BINARY; NULL: the kernel */
	bool force;		/* -f: suffix a new name instead of failing */
	bool quiet;		/* -q */
	bool dry_run;		/* -n */
	bool no_inlines;	/* --no-inlines */
	unsigned int max_probes;	/* --max-probes (0: perf's 128) */
	bool externs;		/* --externs (-V) */
	bool range;		/* --range (-V): where each location is known */
	const char *var_filter;	/* --filter (-V): variable names; NULL: perf's
				 * default "!__k???tab_* & !__crc_*" */
};

/* Add the events of specs (each a whole spec, its arguments after
 * blanks); with show_def only print the definitions (-D) on stdout. */
int probe__add(const struct probe_opts *o, const char *const *specs, size_t n, bool show_def);

/* List the probe events matching filter ([GROUP:]EVENT globs; NULL all). */
int probe__list(const struct probe_opts *o, const char *filter);

/* Delete the events matching each [GROUP:]EVENT glob. */
int probe__del(const struct probe_opts *o, const char *const *globs, size_t n);

/* -V: the variables available at each site of spec. */
int probe__show_vars(const struct probe_opts *o, const char *spec);

/* -L: the lines of function spec, the probe-able ones numbered relative
 * to its declaration line. */
int probe__show_lines(const struct probe_opts *o, const char *spec);

/* -F/--funcs: the binary's symbols matching filter (NULL: perf's default
 * "!_* & !*@plt"; '!' negates, '&' and '|' combine globs). */
int probe__show_funcs(const struct probe_opts *o, const char *filter);

#endif
