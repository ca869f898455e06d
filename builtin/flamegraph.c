// SPDX-License-Identifier: GPL-2.0
/*
 * prf flamegraph: folded stacks of a perf.data file (or two, --diff)
 * written as a self-contained interactive HTML page or an SVG image.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../util/analysis/flamegraph.h"
#include "../util/analysis/flamegraph-stat.h"
#include "../util/analysis/folded.h"
#include "../util/analysis/sample-filter.h"
#include "../util/session/off-cpu.h"
#include "../util/session/session.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../ui/progress.h"

struct flamegraph_cmd_opts {
	const char *input;
	const char *output;
	const char *title;
	const char *event;
	const char *minwidth;
	const char *weight;
	bool inverted;
	bool diff;
	bool annotate_kernel;
	bool inline_frames;	/* --inline (default) / --no-inline */
	bool off_cpu;		/* --off-cpu: only the off-CPU view */
	bool on_cpu;		/* --on-cpu: only the on-CPU view */
	bool force;		/* -f: a graph of a damaged file exits 0 */
	unsigned int max_stack;
	const char *time;	/* --time: perf report's time ranges */
	const char *pids, *tids, *comms;
	unsigned int slices;	/* heatmap rows per second */
	bool heatmap;		/* --heatmap (default) / --no-heatmap: time in the page */
	const char *alpha;	/* --diff over groups: family-wise error rate */
	bool stat_period;	/* --diff over groups: test weights, not shares */
};

static const char *const flamegraph_usage[] = {
	"prf flamegraph [-i perf.data] -o out.html|out.svg [<options>]",
	"prf flamegraph --diff A.data B.data -o out.html|out.svg [<options>]",
	"prf flamegraph --diff A1,A2,... B1,B2,... -o out.html|out.svg [<options>]",
	NULL
};

/*
 * --diff over groups: split the comma lists a and b into *files (A's runs,
 * then B's; the strings point into *buf, which the caller frees).
 * 0, -ENOMEM, or -EINVAL (an empty name).
 */
static int split_groups(const char *a, const char *b, char **buf, const char ***files, int *na,
			int *nb)
{
	size_t la = strlen(a), lb = strlen(b), n = 2;
	char *p;

	for (const char *q = a; *q; q++)
		n += *q == ',';
	for (const char *q = b; *q; q++)
		n += *q == ',';
	*buf = malloc(la + lb + 2);
	*files = calloc(n, sizeof(**files));
	if (!*buf || !*files)
		return -ENOMEM;
	memcpy(*buf, a, la + 1);
	memcpy(*buf + la + 1, b, lb + 1);
	*na = *nb = 0;
	for (int side = 0; side < 2; side++) {
		p = side ? *buf + la + 1 : *buf;
		for (;;) {
			char *comma = strchr(p, ',');

			if (comma)
				*comma = '\0';
			if (!*p)
				return -EINVAL;
			(*files)[(*na)++] = p;
			if (side)
				(*nb)++;
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	*na -= *nb;
	return 0;
}

/*
 * --diff over groups: fold every run of files[0..na) (set 1) and
 * files[na..na+nb) (set 0) into f, B's first event in all, each run's
 * weights observed by stat, then test every frame. infos[] per file.
 * 0 or a negative errno (message printed by the reader).
 */
static int load_groups(struct folded *f, struct flamegraph_stat *stat, const char **files, int na,
		       int nb, struct folded_file_opts *ffo, struct folded_file_info *infos,
		       const struct flamegraph_stat_opts *so)
{
	int err;

	ffo->observe = flamegraph_stat__observe;
	ffo->observe_arg = stat;
	for (int i = 0; i < na + nb; i++) {
		int run = (na + i) % (na + nb);	/* B's first file picks the event */

		flamegraph_stat__set_run(stat, run);
		err = folded__add_file(f, run < na ? 1 : 0, files[run], ffo, &infos[run]);
		if (err)
			return err;
		ffo->event = infos[na].event;
	}
	err = flamegraph_stat__compute(stat, f, so);
	if (err)
		fprintf(stderr, "prf flamegraph: %s\n", strerror(-err));
	return err;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t l = strlen(s), n = strlen(suffix);

	return l >= n && !strcasecmp(s + l - n, suffix);
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct flamegraph_cmd_opts o = { .max_stack = 127, .inline_frames = true, .heatmap = true,
					 .slices = 50 };
	const struct option options[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name (default perf.data)"),
		OPT_STRING('o', "output", &o.output, "file", "output file: .svg for SVG, else HTML"),
		OPT_STRING(0, "title", &o.title, "text", "title of the graph"),
		OPT_STRING('e', "event", &o.event, "event", "event to draw (default: the first event)"),
		OPT_BOOLEAN(0, "inverted", &o.inverted, "icicle graph: callers at the top"),
		OPT_STRING(0, "minwidth", &o.minwidth, "pct", "omit frames narrower than pct percent"),
		OPT_BOOLEAN(0, "diff", &o.diff, "differential graph of two files: --diff A.data B.data, "
			    "or of two groups of runs: --diff A1,A2,... B1,B2,..."),
		OPT_STRING(0, "alpha", &o.alpha, "p",
			   "--diff over groups: family-wise error rate (default 0.05)"),
		OPT_BOOLEAN(0, "stat-period", &o.stat_period,
			    "--diff over groups: test each run's samples (or period) of a frame, not its share"),
		OPT_STRING(0, "weight", &o.weight, "samples|period", "count samples (default) or sum periods"),
		OPT_BOOLEAN(0, "annotate-kernel", &o.annotate_kernel, "append _[k] to kernel frames"),
		OPT_UINTEGER(0, "max-stack", &o.max_stack, "maximum stack depth (default 127)"),
		OPT_BOOLEAN(0, "inline", &o.inline_frames,
			    "show inlined functions of DWARF callchains (default; --no-inline: off)"),
		OPT_BOOLEAN(0, "off-cpu", &o.off_cpu,
			    "draw only the off-CPU time (of a prf record --off-cpu file)"),
		OPT_BOOLEAN(0, "on-cpu", &o.on_cpu,
			    "draw only the on-CPU samples, not the off-CPU view"),
		OPT_BOOLEAN('f', "force", &o.force, "exit 0 with a graph of a damaged file's readable part"),
		OPT_STRING(0, "time", &o.time, "str",
			   "only samples in these time ranges: START,STOP (seconds) or percent slices "
			   "(10%/2, 0%-10%), as perf report --time"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]", "only samples of these processes"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]", "only samples of these threads"),
		OPT_STRING(0, "comm", &o.comms, "comm[,comm...]", "only samples of these commands"),
		OPT_UINTEGER(0, "slices", &o.slices,
			     "heatmap rows: slices per second (default 50, 1..1000)"),
		OPT_BOOLEAN(0, "heatmap", &o.heatmap,
			    "heatmap and thread timeline in the HTML page (default; --no-heatmap: none)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	struct flamegraph_opts fo = { 0 };
	struct sample_filter filter = { 0 };
	struct sample_time_filter time = { 0 };
	struct sample_filter_args fargs = { .cmd = "flamegraph" };
	struct flamegraph_time *ft = NULL;
	struct folded_file_opts ffo = { 0 };
	struct folded_opts fdo = { 0 };
	struct folded *f = NULL, *off = NULL;
	struct folded_file_info info = { .event = "" }, base_info = { .event = "" };
	struct flamegraph_view views[2];
	int nr_views = 0;
	char subtitle[1024], on_name[320], off_name[160];
	const char *a_path = NULL, *b_path = NULL;
	/* --diff over groups */
	char *gbuf = NULL;
	const char **gfiles = NULL;
	int gna = 0, gnb = 0;
	struct folded_file_info *ginfo = NULL;
	struct flamegraph_stat *stat = NULL;
	struct flamegraph_stat_opts gso = { .alpha = 0.05, .floor = 0.5 };
	FILE *fp = NULL;
	int err, status = 1;

	argc = parse_options(argc, argv, options, flamegraph_usage, 0);
	if (argc < 0)
		return 129;
	if (o.diff) {
		if (argc != 2 || o.input) {
			fprintf(stderr, "prf flamegraph: --diff takes two files, --diff A.data B.data, "
				"or two groups of runs, --diff A1,A2,... B1,B2,...\n");
			usage_with_options(flamegraph_usage, options);
			return 129;
		}
		if (strchr(argv[0], ',') || strchr(argv[1], ',')) {
			err = split_groups(argv[0], argv[1], &gbuf, &gfiles, &gna, &gnb);
			if (err == -ENOMEM)
				goto out;
			if (err || gna < 2 || gnb < 2) {
				fprintf(stderr, "prf flamegraph: --diff over groups takes two comma lists of "
					"two or more runs each: --diff A1,A2,... B1,B2,...\n");
				status = 129;
				goto out;
			}
			b_path = gfiles[gna];
		} else {
			a_path = argv[0];
			b_path = argv[1];
		}
	} else {
		if (argc > 0) {
			fprintf(stderr, "prf flamegraph: unexpected argument '%s'\n", argv[0]);
			usage_with_options(flamegraph_usage, options);
			return 129;
		}
		b_path = o.input ? o.input : "perf.data";
	}
	if (!o.output) {
		fprintf(stderr, "prf flamegraph: an output file is needed: -o out.html or -o out.svg\n");
		usage_with_options(flamegraph_usage, options);
		return 129;
	}
	if (o.minwidth) {
		char *end;

		fo.minwidth_pct = strtod(o.minwidth, &end);
		if (*end == '%')
			end++;
		if (*end || end == o.minwidth || fo.minwidth_pct < 0 || fo.minwidth_pct > 100) {
			fprintf(stderr, "prf flamegraph: --minwidth takes a percentage 0..100, not '%s'\n",
				o.minwidth);
			return 129;
		}
	}
	if ((o.alpha || o.stat_period) && !gfiles) {
		fprintf(stderr, "prf flamegraph: --alpha and --stat-period go with --diff over groups "
			"(--diff A1,A2,... B1,B2,...)\n");
		status = 129;
		goto out;
	}
	if (o.alpha) {
		char *end;

		gso.alpha = strtod(o.alpha, &end);
		if (*end || end == o.alpha || !(gso.alpha > 0 && gso.alpha < 1)) {
			fprintf(stderr, "prf flamegraph: --alpha wants a probability between 0 and 1, "
				"not '%s'\n", o.alpha);
			status = 129;
			goto out;
		}
	}
	gso.by_period = o.stat_period;
	if (o.weight && strcmp(o.weight, "samples") && strcmp(o.weight, "period")) {
		fprintf(stderr, "prf flamegraph: --weight takes 'samples' or 'period', not '%s'\n", o.weight);
		return 129;
	}
	if (o.max_stack < 1 || o.max_stack > 1024) {
		fprintf(stderr, "prf flamegraph: --max-stack must be between 1 and 1024\n");
		return 129;
	}

	if (o.slices < 1 || o.slices > 1000) {
		fprintf(stderr, "prf flamegraph: --slices takes 1..1000 slices per second\n");
		return 129;
	}
	if (o.diff && o.time) {
		fprintf(stderr, "prf flamegraph: --diff does not take --time (two recordings, two clocks)\n");
		return 129;
	}
	if (o.off_cpu && o.on_cpu) {
		fprintf(stderr, "prf flamegraph: --off-cpu and --on-cpu exclude each other\n");
		return 129;
	}
	if (o.diff && o.off_cpu) {
		fprintf(stderr, "prf flamegraph: --diff compares on-CPU samples; it does not take --off-cpu\n");
		return 129;
	}
	if (o.off_cpu && o.event && strcmp(o.event, OFF_CPU_EVENT_NAME)) {
		fprintf(stderr, "prf flamegraph: --off-cpu draws the %s time, not event '%s'\n",
			OFF_CPU_EVENT_NAME, o.event);
		return 129;
	}

	fargs.pids = o.pids;
	fargs.tids = o.tids;
	fargs.comms = o.comms;
	if (sample_filter__parse(&filter, &fargs) || sample_time_filter__parse(&time, "flamegraph", o.time)) {
		status = 129;
		goto out;
	}
	/* the page's heatmap and timeline: one file's samples in HTML */
	if (!o.diff && o.heatmap && !ends_with(o.output, ".svg")) {
		ft = flamegraph_time__new(o.slices);
		if (!ft)
			goto out;
		ffo.observe = flamegraph_time__observe;
		ffo.observe_arg = ft;
	}
	ffo.filter = sample_filter__active(&filter) ? &filter : NULL;
	ffo.time = time.nr ? &time : NULL;
	fdo.annotate_kernel = o.annotate_kernel;
	f = folded__new(&fdo);
	if (!f)
		goto out;
	/* off-CPU spans of an off-CPU recording, unless on-CPU only */
	if (!o.diff && !o.on_cpu) {
		off = folded__new(&fdo);
		if (!off)
			goto out;
	}
	ffo.event = o.off_cpu ? OFF_CPU_EVENT_NAME : o.event;
	ffo.weight_period = o.weight && !strcmp(o.weight, "period");
	ffo.max_stack = o.max_stack;
	ffo.no_inline = !o.inline_frames;
	ffo.off_cpu = off;
	ffo.progress = ui_progress__reading;	/* on a terminal only (ui/progress.h) */
	if (gfiles) {
		stat = flamegraph_stat__new(gna, gnb);
		ginfo = calloc((size_t)(gna + gnb), sizeof(*ginfo));
		if (!stat || !ginfo)
			goto out;
		err = load_groups(f, stat, gfiles, gna, gnb, &ffo, ginfo, &gso);
		if (err)
			goto out;
		info = ginfo[gna];
	} else {
		err = folded__add_file(f, 0, b_path, &ffo, &info);
		if (err)
			goto out;
	}
	if (a_path) {
		/* the baseline uses the same event as the new profile */
		ffo.event = info.event;
		err = folded__add_file(f, 1, a_path, &ffo, &base_info);
		if (err)
			goto out;
	}

	fo.title = o.title;
	fo.time = ft;
	fo.subtitle = subtitle;
	fo.inverted = o.inverted;
	fo.diff = o.diff;
	fo.stat = stat;
	fo.unit = ffo.weight_period ? "period" : "samples";
	if (o.off_cpu && !info.nr_off_cpu) {
		fprintf(stderr, "prf flamegraph: %s has no off-CPU time%s\n", b_path,
			info.has_off_cpu ? "" : " (record it with prf record --off-cpu)");
		goto out;
	}
	if (gfiles) {
		snprintf(subtitle, sizeof(subtitle),
			 "%d runs (%s, ...) -> %d runs (%s, ...), event %s; coloured only where the "
			 "change of the %s is significant (Welch's t, Holm, alpha %g): red grew, "
			 "blue shrank, grey noise", gna, gfiles[0], gnb, gfiles[gna], info.event,
			 gso.by_period ? ffo.weight_period ? "period" : "samples" : "share", gso.alpha);
		views[nr_views++] = (struct flamegraph_view){ .f = f };
	} else if (a_path) {
		snprintf(subtitle, sizeof(subtitle), "%s -> %s, event %s (red: grew, blue: shrank)",
			 a_path, b_path, info.event);
		views[nr_views++] = (struct flamegraph_view){ .f = f };
	} else {
		const char *unit = ffo.weight_period ? "period" : "samples";
		size_t n;

		snprintf(subtitle, sizeof(subtitle), "%s", b_path);
		n = strlen(subtitle);

		if (info.nr_samples) {
			snprintf(on_name, sizeof(on_name), "On-CPU: %s, %" PRIu64 " samples", info.event,
				 info.nr_samples);
			snprintf(subtitle + n, sizeof(subtitle) - n, ", event %s", info.event);
			n = strlen(subtitle);
			views[nr_views++] = (struct flamegraph_view){ .f = f, .name = on_name, .unit = unit,
								      .event = info.event };
		}
		if (off && info.nr_off_cpu) {
			snprintf(off_name, sizeof(off_name),
				 "Off-CPU: %.3f ms switched out in %" PRIu64 " spans (blue)",
				 (double)info.off_cpu_ns / 1e6, info.nr_off_cpu);
			snprintf(subtitle + n, sizeof(subtitle) - n, ", %.3f ms off-CPU",
				 (double)info.off_cpu_ns / 1e6);
			views[nr_views++] = (struct flamegraph_view){ .f = off, .name = off_name,
								      .unit = "ns", .off_cpu = true,
								      .event = OFF_CPU_EVENT_NAME };
		}
		if (nr_views == 1)
			views[0].name = NULL;	/* one graph: the subtitle says it */
		if (nr_views == 1 && views[0].off_cpu && !fo.title)
			fo.title = "Off-CPU Time Flame Graph";
		if (!nr_views) {
			fprintf(stderr, "prf flamegraph: %s: nothing to draw\n", b_path);
			goto out;
		}
	}

	fp = fopen(o.output, "w");
	if (!fp) {
		fprintf(stderr, "prf flamegraph: cannot create %s: %s\n", o.output, strerror(errno));
		goto out;
	}
	if (ends_with(o.output, ".svg"))
		err = flamegraph__write_views_svg(views, nr_views, &fo, fp);
	else
		err = flamegraph__write_views_html(views, nr_views, &fo, fp);
	if (fclose(fp) && !err)
		err = -errno;
	fp = NULL;
	if (err) {
		fprintf(stderr, "prf flamegraph: writing %s failed: %s\n", o.output, strerror(-err));
		goto out;
	}
	/* a damaged input: the summary, and its exit status (both files read) */
	status = read_summary__finish(&info.summary, "flamegraph", b_path, o.force);
	if (a_path && read_summary__finish(&base_info.summary, "flamegraph", a_path, o.force))
		status = 1;
	for (int i = 0; gfiles && i < gna + gnb; i++)
		if (i != gna && read_summary__finish(&ginfo[i].summary, "flamegraph", gfiles[i], o.force))
			status = 1;
out:
	if (fp)
		fclose(fp);
	folded__delete(off);
	folded__delete(f);
	flamegraph_time__delete(ft);
	flamegraph_stat__delete(stat);
	free(ginfo);
	free(gfiles);
	free(gbuf);
	sample_filter__exit(&filter);
	sample_time_filter__exit(&time);
	return status;
}
