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
#include <stdint.h>
#include <stdio.h>

struct folded;
struct folded_node;
struct perf_sample;
struct flamegraph_time;
struct flamegraph_stat;

struct flamegraph_opts {
	const char *title;	/* default "Flame Graph" ("Icicle Graph" inverted) */
	const char *subtitle;	/* optional line under the title (input, event) */
	bool inverted;		/* icicle: root at the top */
	double minwidth_pct;	/* omit frames below this % of all samples */
	bool diff;		/* differential: set 1 is the baseline */
	const char *unit;	/* "samples" (default) or "period" */
	bool off_cpu;		/* single-graph writers: off-CPU palette */
	struct flamegraph_time *time;	/* NULL, or the samples' times: the
				   HTML page gets the heatmap and timeline
				   (not in diff mode or SVG) */
	const struct flamegraph_stat *stat;	/* diff mode over groups of runs
				   (flamegraph-stat.h), or NULL: only frames
				   whose change is significant are coloured
				   (red grew, blue shrank), the others neutral
				   grey; tooltips give the mean shares (or
				   weights), the change and the Holm-adjusted
				   p; each HTML frame carries its statistics
				   (see flamegraph__write_views_html) */
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
	const char *event;	/* NULL, or its event's name (the heatmap's
				   event menu) */
};

/*
 * Write the HTML page to fp. 0, -ENOMEM, or -EIO on a write error.
 * The data (window.PRF_FG) has per view a "tree" of frames
 * [name index, value, [callees], (diff:) baseline value, colour,
 * (with opts->stat:) {"a": mean A, "b": mean B, "d": B - A, "p": Holm-
 * adjusted p (tested frames only), "sig": true when significant}], and
 * with opts->stat a top-level "stat": {"metric": "share"|"period",
 * "runsA", "runsB", "alpha", "test": "welch-t", "correction": "holm"}.
 */
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

/*
 * Time in the HTML page. While the recording is folded, every sample is
 * handed to flamegraph_time__observe() (as folded_file_opts.observe, the
 * flamegraph_time as its arg) and kept as (time, thread, leaf node,
 * weight). The writer turns them into slices of 1/slices_per_sec second
 * from the first sample's time, each with its per-thread weights by
 * stack (as the node ids of the graph written), so the page holds
 * aggregated stacks rather than samples. The page then shows:
 *  - #heatmap: a canvas, a column per second, a row per slice, colour by
 *    weight of the chosen event (view) and thread or process; hover shows the time
 *    and weight; a drag, or a click on a start and then an end cell,
 *    selects a range whose stacks make the flame graph(s);
 *  - #timeline: a lane (.lane, data-tid) per thread with its comm and tid,
 *    on-CPU density and off-CPU spans (of an off-CPU view); a click on a
 *    lane narrows the graphs to that thread (again: all threads), a drag
 *    selects a time range like the heatmap;
 *  - #range-cmd: the `prf flamegraph --time START,STOP [--tid N|--pid N]` giving
 *    the same graph from the command line (ends in ns, inclusive);
 *  - "#range=A-B&tid=N&pid=N&event=V" (slice indices, tid, pid, view) in the
 *    address keeps the selection.
 * body[data-prf-layout] gives the heatmap, timeline and first chart
 * rectangles ("id:x,y,w,h;...", CSS pixels) after each render.
 */
/* New collector; slices_per_sec 1..1000 (0: 50). NULL on ENOMEM. */
struct flamegraph_time *flamegraph_time__new(unsigned int slices_per_sec);
/* Free the collector and its samples; NULL is ignored. */
void flamegraph_time__delete(struct flamegraph_time *t);
/* folded_file_opts.observe: keep one folded sample (arg: the
 * flamegraph_time; leaf: the node its stack ended at, in the folded the
 * page draws). 0 or -ENOMEM. */
int flamegraph_time__observe(void *arg, const struct perf_sample *sample, const char *comm,
			     bool off_cpu, const struct folded_node *leaf, uint64_t weight);

/* "#rrggbb" for a frame name of a folded kind; deterministic. out >= 8 bytes. */
void flamegraph__color(const char *name, int kind, char *out);
/* The same in the on-CPU (warm) or off-CPU (blue) palette. */
void flamegraph__color_view(const char *name, int kind, bool off_cpu, char *out);

#endif
