/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_FLAMEGRAPH_H
#define PRF_ANALYSIS_FLAMEGRAPH_H
/*
 * Flamegraph writers over a folded-stacks trie (folded.h):
 *  - HTML: one self-contained file (inline CSS and JavaScript, no network)
 *    with the tree as data; hover shows name, samples and percent, click
 *    zooms, a search box highlights matches and shows the matched share,
 *    icicle (inverted) layout on request; "#search=RE&zoom=NAME" in the
 *    address starts it searched/zoomed. On a successful render the page
 *    writes "rendered N frames" into #prf-status and sets
 *    body[data-prf-rendered="1"]; a script error writes "prf-error: ...".
 *  - SVG: a static image (one <g> per frame with a <title> tooltip).
 * Colors are deterministic: a hash of the frame name picks the shade
 * within a hue per kind (kernel orange, program red, libraries yellow-green,
 * unknown grey, process names purple); off-CPU views use blues, as
 * FlameGraph draws off-CPU time. Diff mode colors by the change of a
 * frame's share between set 1 (baseline, A) and set 0 (B): red grew, blue
 * shrank, white unchanged; widths are B's.
 */
#include <stdbool.h>
#include <stdio.h>

struct folded;

struct flamegraph_opts {
	const char *title;	/* default "Flame Graph" ("Icicle Graph" inverted) */
	const char *subtitle;	/* optional line under the title (input, event) */
	bool inverted;		/* icicle: root at the top */
	double minwidth_pct;	/* omit frames below this % of all samples */
	bool diff;		/* differential: set 1 is the baseline */
	const char *unit;	/* "samples" (default) or "period" */
	bool off_cpu;		/* single-graph writers: off-CPU palette */
};

/*
 * One graph of a page: several views (on-CPU and off-CPU time of one
 * recording) go into one file, each with its own heading, zoom and
 * matched share; the HTML page shows all of them (one under the other)
 * or, chosen in its "Show" menu (or "#view=N" in the address), one.
 */
struct flamegraph_view {
	struct folded *f;	/* not owned */
	const char *name;	/* heading ("On-CPU: cpu-clock"); NULL: none */
	const char *unit;	/* "samples", "period" or "ns" (shown as ms/s);
				   NULL: flamegraph_opts.unit */
	bool off_cpu;		/* blue palette (off-CPU time) */
};

/* Write the HTML page to fp. 0, -ENOMEM, or -EIO on a write error. */
int flamegraph__write_html(struct folded *f, const struct flamegraph_opts *opts, FILE *fp);
/* Write the SVG image to fp. 0, -ENOMEM, or -EIO. */
int flamegraph__write_svg(struct folded *f, const struct flamegraph_opts *opts, FILE *fp);

/* The same for nr >= 1 views (nr 1: as the writers above). The SVG
 * stacks the views vertically, each under its heading. 0, -EINVAL (nr < 1),
 * -ENOMEM, or -EIO/-EPIPE. */
int flamegraph__write_views_html(const struct flamegraph_view *views, int nr,
				 const struct flamegraph_opts *opts, FILE *fp);
int flamegraph__write_views_svg(const struct flamegraph_view *views, int nr,
				const struct flamegraph_opts *opts, FILE *fp);

/* "#rrggbb" for a frame name of a folded kind; deterministic. out >= 8 bytes. */
void flamegraph__color(const char *name, int kind, char *out);
/* The same in the on-CPU (warm) or off-CPU (blue) palette. */
void flamegraph__color_view(const char *name, int kind, bool off_cpu, char *out);

#endif
