// SPDX-License-Identifier: GPL-2.0
/*
 * prf flamegraph: folded stacks of a perf.data file (or two, --diff)
 * written as a self-contained interactive HTML page or an SVG image.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../util/analysis/flamegraph.h"
#include "../util/analysis/folded.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"

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
	unsigned int max_stack;
};

static const char *const flamegraph_usage[] = {
	"prf flamegraph [-i perf.data] -o out.html|out.svg [<options>]",
	"prf flamegraph --diff A.data B.data -o out.html|out.svg [<options>]",
	NULL
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t l = strlen(s), n = strlen(suffix);

	return l >= n && !strcasecmp(s + l - n, suffix);
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct flamegraph_cmd_opts o = { .max_stack = 127 };
	const struct option options[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name (default perf.data)"),
		OPT_STRING('o', "output", &o.output, "file", "output file: .svg for SVG, else HTML"),
		OPT_STRING(0, "title", &o.title, "text", "title of the graph"),
		OPT_STRING('e', "event", &o.event, "event", "event to draw (default: the first event)"),
		OPT_BOOLEAN(0, "inverted", &o.inverted, "icicle graph: callers at the top"),
		OPT_STRING(0, "minwidth", &o.minwidth, "pct", "omit frames narrower than pct percent"),
		OPT_BOOLEAN(0, "diff", &o.diff, "differential graph of two files: --diff A.data B.data"),
		OPT_STRING(0, "weight", &o.weight, "samples|period", "count samples (default) or sum periods"),
		OPT_BOOLEAN(0, "annotate-kernel", &o.annotate_kernel, "append _[k] to kernel frames"),
		OPT_UINTEGER(0, "max-stack", &o.max_stack, "maximum stack depth (default 127)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	struct flamegraph_opts fo = { 0 };
	struct folded_file_opts ffo = { 0 };
	struct folded_opts fdo = { 0 };
	struct folded *f = NULL;
	char event[256] = "", subtitle[1024];
	const char *a_path = NULL, *b_path = NULL;
	FILE *fp = NULL;
	int err, status = 1;

	argc = parse_options(argc, argv, options, flamegraph_usage, 0);
	if (argc < 0)
		return 129;
	if (o.diff) {
		if (argc != 2 || o.input) {
			fprintf(stderr, "prf flamegraph: --diff takes two files: --diff A.data B.data\n");
			usage_with_options(flamegraph_usage, options);
			return 129;
		}
		a_path = argv[0];
		b_path = argv[1];
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
	if (o.weight && strcmp(o.weight, "samples") && strcmp(o.weight, "period")) {
		fprintf(stderr, "prf flamegraph: --weight takes 'samples' or 'period', not '%s'\n", o.weight);
		return 129;
	}
	if (o.max_stack < 1 || o.max_stack > 1024) {
		fprintf(stderr, "prf flamegraph: --max-stack must be between 1 and 1024\n");
		return 129;
	}

	fdo.annotate_kernel = o.annotate_kernel;
	f = folded__new(&fdo);
	if (!f)
		goto out;
	ffo.event = o.event;
	ffo.weight_period = o.weight && !strcmp(o.weight, "period");
	ffo.max_stack = o.max_stack;
	err = folded__add_file(f, 0, b_path, &ffo, event, sizeof(event));
	if (err)
		goto out;
	if (a_path) {
		/* the baseline uses the same event as the new profile */
		ffo.event = event;
		err = folded__add_file(f, 1, a_path, &ffo, NULL, 0);
		if (err)
			goto out;
	}

	if (a_path)
		snprintf(subtitle, sizeof(subtitle), "%s -> %s, event %s (red: grew, blue: shrank)",
			 a_path, b_path, event);
	else
		snprintf(subtitle, sizeof(subtitle), "%s, event %s", b_path, event);
	fo.title = o.title;
	fo.subtitle = subtitle;
	fo.inverted = o.inverted;
	fo.diff = o.diff;
	fo.unit = ffo.weight_period ? "period" : "samples";

	fp = fopen(o.output, "w");
	if (!fp) {
		fprintf(stderr, "prf flamegraph: cannot create %s: %s\n", o.output, strerror(errno));
		goto out;
	}
	if (ends_with(o.output, ".svg"))
		err = flamegraph__write_svg(f, &fo, fp);
	else
		err = flamegraph__write_html(f, &fo, fp);
	if (fclose(fp) && !err)
		err = -errno;
	fp = NULL;
	if (err) {
		fprintf(stderr, "prf flamegraph: writing %s failed: %s\n", o.output, strerror(-err));
		goto out;
	}
	status = 0;
out:
	if (fp)
		fclose(fp);
	folded__delete(f);
	return status;
}
