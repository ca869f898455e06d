/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_DIFF_H
#define PRF_ANALYSIS_DIFF_H
/*
 * `prf diff`: hist entries of several inputs (one struct hists per file for
 * one event, built as report builds them) matched across the files, the
 * columns perf diff computes for them, and its stdio table.
 *
 * Matching follows perf 6.1's diff mode (observed output and its sort
 * rules): an entry is named by its sort keys, symbols by their name (not
 * their address: two builds of a program differ in addresses), DSOs by
 * their short name, an unresolved ip by "no symbol" (all of one DSO's
 * unresolved ips are one entry); within one file entries with one name
 * are summed, the first of them shows. The first file is the baseline;
 * an entry found only in later files joins its table as a "dummy"
 * (no baseline value).
 *
 * Columns (perf diff's text, widths and formats): Baseline, with -p
 * "Base period"; per later file the compute column (Delta, Delta Abs,
 * Ratio, Weighted diff), with -F Formula, with -p Period; then the sort
 * keys. Several later files suffix the headers with "/N".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "hist.h"
#include "sort.h"

enum diff_compute {
	DIFF_DELTA,		/* share points, new - baseline */
	DIFF_DELTA_ABS,		/* the same, sorted by magnitude */
	DIFF_RATIO,		/* new period / baseline period */
	DIFF_WDIFF,		/* new period * w2 - baseline period * w1 */
};

struct diff_opts {
	enum diff_compute compute;
	int64_t w1, w2;			/* wdiff weights */
	bool show_period;		/* -p */
	bool show_formula;		/* -F */
	bool baseline_only;		/* -b: entries the baseline has, paired */
	bool relative;			/* --percentage relative */
	bool quiet;			/* -q: no header lines */
	unsigned int order;		/* -o: file whose column sorts first; 0 none */
	const char *field_sep;		/* -t, NULL: aligned columns */
	double min_percent;		/* --percent-limit (prf): 0 shows all */
	bool verbose;			/* -v: DSO paths, symbols with address
					   and symtab origin, as perf diff -v */
};

/* One input's side of one event. */
struct diff_file {
	const char *path;
	struct hists *hists;		/* NULL: the file has no such event */
	uint64_t total;			/* period of all its samples */
	uint64_t total_nf;		/* of those no filter rejected */
};

/* One entry of one file: NULL he when the file has no such entry. */
struct diff_cell {
	struct hist_entry *he;		/* the first entry of that name */
	uint64_t period;		/* summed over the entries of that name */
	double delta, ratio;		/* computed columns (files after the first) */
	int64_t wdiff;
};

struct diff_row {
	struct hist_entry *rep;		/* shown keys: the baseline's, else the
					   first file's that has it */
	bool dummy;			/* not in the baseline */
	bool paired;			/* in some file after the baseline */
	bool removed;			/* -b dropped it */
};

struct diff_table {
	int nr_files;
	size_t nr_rows;
	struct diff_row *rows;
	struct diff_cell *cells;	/* nr_rows * nr_files, row-major */
	void *priv;			/* name index */
};

static inline struct diff_cell *diff_table__cell(const struct diff_table *t, size_t row, int file)
{
	return &t->cells[row * (size_t)t->nr_files + (size_t)file];
}

/*
 * Match the entries of files[0..nr) by name under so's grouping keys (see
 * the top comment); files[i].hists must be sorted (hists__output_resort())
 * and outlive t. children: a cell's period is the entries' children
 * (self + callees) period, of hists built in children mode. 0, or
 * -ENOMEM. Free with diff_table__exit().
 */
int diff_table__build(struct diff_table *t, const struct sort_order *so,
		      const struct diff_file *files, int nr, bool children);
void diff_table__exit(struct diff_table *t);

/* Share of a cell's period in percent of its file's total (all samples,
 * or with relative those no filter rejected); 0 without samples. */
double diff_file__share(const struct diff_file *f, uint64_t period, bool relative);

/*
 * Print one event's table as perf diff 6.1 does: column headers (unless
 * o->quiet), entries in perf's order (see diff.c). so: the sort keys only
 * (no value fields); its column widths are set here. Returns entries
 * printed, -ENOMEM, or -EPIPE when fp failed.
 */
int diff__fprintf(const struct diff_opts *o, struct sort_order *so,
		  const struct diff_file *files, int nr, FILE *fp);

/*
 * The key columns of an entry as the diff table prints them (sep NULL:
 * two spaces before each column, padded to so's widths; else sep between
 * columns), without a newline; first: no separator before the first.
 */
void diff__put_keys(const struct sort_order *so, const struct hist_entry *he,
		    const char *sep, bool first, FILE *fp);
/* The key columns' header (and, with rulers, their dot line) likewise. */
void diff__put_key_headers(const struct sort_order *so, const char *sep, bool first,
			   bool dots, FILE *fp);

#endif
