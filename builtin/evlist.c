// SPDX-License-Identifier: GPL-2.0
/*
 * prf evlist: the events of a perf.data file, one line each, as perf
 * evlist prints them: the name; -v every non-zero perf_event_attr field;
 * -F the sample frequency or period; --trace-fields a tracepoint's
 * payload fields; -g one line per group ("{a,b}"). The evlist comes from
 * the header (a pipe's attr records: the stream is read to its end).
 */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/session/session.h"
#include "../util/session/trace-format.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"

struct evlist_opts {
	const char *input;
	bool force, verbose, group, freq, trace_fields;
};

/* perf's separator rule: ':' before the first detail, ',' before the others */
static void detail(bool *first, const char *text)
{
	fputs(*first ? ":" : ",", stdout);
	*first = false;
	fputs(text, stdout);
}

/* Tracepoint field names: " trace_fields: a,b,c" as one more detail. */
struct field_names {
	bool *first;		/* the line's detail separator state */
	bool started;		/* " trace_fields: " printed */
};

static void print_field_name(const char *name, void *arg)
{
	struct field_names *fn = arg;

	if (!fn->started) {
		detail(fn->first, " trace_fields: ");
		fn->started = true;
		fputs(name, stdout);
	} else {
		detail(fn->first, name);
	}
}

static void print_group(struct evlist *evlist, struct evsel *leader)
{
	struct evsel *pos;

	if (leader->nr_members > 1)
		putchar('{');
	fputs(evsel__name(leader), stdout);
	evlist__for_each_entry(evlist, pos)
		if (pos != leader && pos->leader == leader)
			printf(",%s", evsel__name(pos));
	if (leader->nr_members > 1)
		putchar('}');
}

static void print_evsel(struct evlist_opts *o, struct perf_session *s,
			struct trace_formatter **tf, struct evsel *evsel)
{
	bool first = true;
	char buf[64];

	if (o->group) {
		if (!evsel__is_group_leader(evsel))
			return;
		print_group(s->data.evlist, evsel);
		putchar('\n');
		return;
	}
	fputs(evsel__name(evsel), stdout);
	if (o->verbose) {
		perf_event_attr__fprintf_evlist(stdout, &evsel->attr, &first);
	} else if (o->freq) {
		snprintf(buf, sizeof(buf), " %s=%llu",
			 evsel->attr.freq ? "sample_freq" : "sample_period",
			 (unsigned long long)evsel->attr.sample_freq);
		detail(&first, buf);
	}
	if (o->trace_fields) {
		if (evsel->attr.type != PERF_TYPE_TRACEPOINT) {
			detail(&first, " (not a tracepoint)");
		} else {
			struct field_names fn = { .first = &first };

			if (!*tf)
				*tf = trace_formatter__new_session(s);
			if (trace_formatter__field_names(*tf, evsel, print_field_name, &fn) <= 0)
				detail(&first, " (no trace field)");
		}
	}
	putchar('\n');
}

int cmd_evlist(int argc, const char **argv)
{
	struct evlist_opts o = { .input = "perf.data" };
	const struct option options[] = {
		OPT_BOOLEAN('F', "freq", &o.freq, "Show the sample frequency"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOLEAN('g', "group", &o.group, "Show event group information"),
		OPT_STRING('i', "input", &o.input, "file", "Input file name"),
		OPT_BOOLEAN('v', "verbose", &o.verbose, "Show all event attr details"),
		OPT_BOOLEAN(0, "trace-fields", &o.trace_fields, "Show tracepoint fields"),
		OPT_END()
	};
	const char *const usage[] = { "prf evlist [<options>]", NULL };
	struct trace_formatter *tf = NULL;
	struct perf_session *s;
	struct perf_tool tool;
	struct evsel *evsel;
	bool has_tp = false;
	int err = 0, status;

	status = parse_options_only(argc, argv, options, usage);
	if (status)
		return status;
	if (o.group && (o.verbose || o.freq)) {
		fprintf(stderr, "  Error: --group option is not compatible with other options\n");
		usage_with_options(usage, options);
		return 129;
	}
	perf_tool__init(&tool, false);
	s = perf_session__new(o.input, &tool, &err);
	if (!s)
		return 1;
	/* a pipe's events arrive as attr records in the stream */
	if (s->data.pipe)
		err = perf_session__process_events(s);
	evlist__for_each_entry(s->data.evlist, evsel) {
		print_evsel(&o, s, &tf, evsel);
		has_tp |= evsel->attr.type == PERF_TYPE_TRACEPOINT;
	}
	if (has_tp && !o.trace_fields)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
	trace_formatter__delete(tf);
	status = perf_session__read_status(s, "evlist", o.force);
	perf_session__delete(s);
	return status;
}
