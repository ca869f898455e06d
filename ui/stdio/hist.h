/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_STDIO_HIST_H
#define PRF_UI_STDIO_HIST_H
/*
 * Text output of `prf report --stdio`, laid out as Linux perf 6.1's
 * `perf report --stdio` prints it (tools/perf/ui/stdio/hist.c behaviour,
 * observed output): '#' header lines, column headers with dot rulers,
 * entry lines with two-space separators, and callchains as graph
 * ("---", "|--NN.NN%--"), flat, folded or fractal text under each entry.
 */
#include <stdbool.h>
#include <stdio.h>

struct hists;
struct sort_order;
struct callchain_param;

struct hists_fprintf_opts {
	bool show_header;		/* column header lines (not with -q) */
	double min_percent;		/* --percent-limit: entries below are skipped */
	bool use_callchain;		/* print callchains under entries */
	bool skip_first_sym;		/* -s sym...: graph omits the entry's own frame */
	const char *field_sep;		/* -t: columns joined by this, no rulers;
					   NULL: perf's aligned table */
};

/*
 * Print the entries of hists (after hists__output_resort(), widths in so)
 * to fp. Returns the number of entries printed, or -EPIPE when fp failed.
 */
int hists__fprintf(struct hists *hists, const struct sort_order *so,
		   const struct callchain_param *cc, const struct hists_fprintf_opts *opts,
		   FILE *fp);

/*
 * perf report --stdio --hierarchy: the entries of hists (after
 * hists__output_resort()) as a tree, one level per key column of so
 * (util/analysis/hist-hierarchy.h), laid out as perf 6.1 prints it: the
 * value columns (the first widened by 3 per level past the first) with
 * the key of the line's level after them, both indented by 3 per level,
 * the headers joined by " / "; callchains under the last level's
 * entries. Returns the lines printed, -ENOMEM or -EPIPE.
 */
int hists__fprintf_hierarchy(struct hists *hists, const struct sort_order *so,
			     const struct callchain_param *cc,
			     const struct hists_fprintf_opts *opts, FILE *fp);

struct hist_group;

/*
 * perf report --group: the rows of an event group (util/analysis/
 * hist-group.h) as one table, each value column holding the members'
 * values side by side (each as wide as the column alone would be, the
 * percentages of each member's total), key columns as wide as the rows'
 * keys; callchains of the leader's entries. Returns the entries printed,
 * -ENOMEM or -EPIPE.
 */
int hists__fprintf_group(const struct hist_group *g, const struct sort_order *so,
			 const struct callchain_param *cc, const struct hists_fprintf_opts *opts,
			 FILE *fp);

/*
 * "# Samples: 582  of event 'cpu-clock'" and "# Event count (approx.): N";
 * leader: evname leads a group shown without its members (report
 * --no-group), which perf 6.1 heads "of events"; time_str (report --time
 * as given, NULL: none) is named after the event as perf 6.1 does:
 * " (time slices: 10%/1)". mem_sort (NULL: none): the sort order of
 * report --mem-mode, which perf 6.1 prints as "# Total weight : N" and
 * "# Sort order   : KEYS" instead of the event count.
 */
void hists__fprintf_nr_sample_events(const struct hists *hists, const char *evname,
				     bool leader, const char *time_str, const char *mem_sort,
				     FILE *fp);

/* Number with perf's unit: 1234 -> 1 and 'K' (values > 1000 divided). */
unsigned long convert_unit(unsigned long value, char *unit);

#endif
