// SPDX-License-Identifier: GPL-2.0
/*
 * prf probe [-x BINARY] [-a] SPEC [ARG...] | -d GLOB | -l [GLOB] | -V SPEC |
 *           -L FUNC | -F [FILTER] | -D SPEC
 *
 * perf probe: define, list and delete dynamic probe events (uprobes, and
 * kprobes where the kernel has them). The option table and the choice of
 * action; the work is util/analysis/probe.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../util/analysis/probe.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"

#define MAX_EVENTS 64

struct probe_cmd {
	const char *add[MAX_EVENTS], *del[MAX_EVENTS], *def[MAX_EVENTS];
	size_t nadd, ndel, ndef;
	const char *list_filter, *vars, *lines, *funcs_filter;
	bool list, funcs;
	int actions;
};

static struct probe_cmd cmd;

static int push(const char **v, size_t *n, const char *arg)
{
	if (*n == MAX_EVENTS) {
		fprintf(stderr, "Too many probe events (at most %d at once).\n", MAX_EVENTS);
		return -1;
	}
	v[(*n)++] = arg;
	return 0;
}

static int opt_add(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	return push(cmd.add, &cmd.nadd, arg);
}

static int opt_del(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	return push(cmd.del, &cmd.ndel, arg);
}

static int opt_def(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	return push(cmd.def, &cmd.ndef, arg);
}

static int opt_list(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	cmd.list = true;
	cmd.list_filter = arg;
	return 0;
}

static int opt_funcs(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	cmd.funcs = true;
	if (arg)
		cmd.funcs_filter = arg;
	return 0;
}

/* The positional words as one spec (perf joins them with blanks). */
static char *join(int argc, const char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_opts o = { 0 };
	char *joined = NULL, target[PATH_MAX];
	int err, actions;
	const char *const usage[] = {
		"prf probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
		"prf probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
		"prf probe [<options>] --del '[GROUP:]EVENT' ...",
		"prf probe --list [GROUP:]EVENT ...",
		"prf probe [<options>] --line 'LINEDESC'",
		"prf probe [<options>] --vars 'PROBEPOINT'",
		"prf probe [<options>] --funcs",
		NULL
	};
	const struct option opts[] = {
		OPT_BOOLEAN('q', "quiet", &o.quiet, "be quiet (do not show any warnings or messages)"),
		OPT_CALLBACK('a', "add", NULL, "[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]",
			     "probe point definition", opt_add),
		OPT_CALLBACK('d', "del", NULL, "[GROUP:]EVENT", "delete a probe event.", opt_del),
		OPT_CALLBACK_OPTARG('l', "list", NULL, "[GROUP:]EVENT", "list up probe events", opt_list),
		OPT_STRING('L', "line", &cmd.lines, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			   "Show source code lines."),
		OPT_STRING('V', "vars", &cmd.vars, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
			   "Show accessible variables on PROBEDEF"),
		OPT_BOOLEAN(0, "externs", &o.externs, "Show external variables too (with --vars only)"),
		OPT_BOOLEAN(0, "range", &o.range,
			    "Show variables location range in scope (with --vars only)"),
		OPT_BOOLEAN(0, "no-inlines", &o.no_inlines, "Don't search inlined functions"),
		OPT_STRING(0, "filter", &o.var_filter, "[!]FILTER",
			   "Set a filter (with --vars only; default: \"!__k???tab_* & !__crc_*\")"),
		OPT_UINTEGER(0, "max-probes", &o.max_probes,
			     "Set how many probe points can be found for a probe."),
		OPT_BOOLEAN('f', "force", &o.force, "forcibly add events with existing name"),
		OPT_BOOLEAN('n', "dry-run", &o.dry_run, "dry run"),
		OPT_CALLBACK_OPTARG('F', "funcs", NULL, "[FILTER]",
				    "Show potential probe-able functions.", opt_funcs),
		OPT_CALLBACK('D', "definition", NULL, "PROBEDEF", "Show trace event definition of given "
			     "traceevent for k/uprobe_events.", opt_def),
		OPT_STRING('x', "exec", &o.target, "executable|path",
			   "target executable name or path"),
		OPT_END()
	};

	memset(&cmd, 0, sizeof(cmd));
	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 0)
		return 129;
	if (argc > 0 && (cmd.funcs || cmd.list)) {	/* the filter, as perf takes it */
		joined = join(argc, argv);
		if (!joined)
			return 1;
		if (cmd.funcs && !cmd.funcs_filter)
			cmd.funcs_filter = joined;
		if (cmd.list && !cmd.list_filter)
			cmd.list_filter = joined;
	} else if (argc > 0) {
		joined = join(argc, argv);
		if (!joined || push(cmd.add, &cmd.nadd, joined)) {
			free(joined);
			return 1;
		}
	}
	actions = (cmd.nadd > 0) + (cmd.ndel > 0) + cmd.list + (cmd.lines != NULL) +
		  (cmd.vars != NULL) + cmd.funcs + (cmd.ndef > 0);
	if (actions != 1) {
		fprintf(stderr, actions ? "  Error: Give only one of -a, -d, -l, -L, -V, -F, -D.\n"
					: "  Error: No probe point or action is given.\n");
		usage_with_options(usage, opts);
		free(joined);
		return 129;
	}
	if (o.target) {
		if (!realpath(o.target, target)) {
			fprintf(stderr, "Failed to get the absolute path of %s: %s\n", o.target,
				strerror(errno));
			free(joined);
			return 129;
		}
		o.target = target;
	}
	if (cmd.list)
		err = probe__list(&o, cmd.list_filter);
	else if (cmd.ndel)
		err = probe__del(&o, cmd.del, cmd.ndel);
	else if (cmd.lines)
		err = probe__show_lines(&o, cmd.lines);
	else if (cmd.vars)
		err = probe__show_vars(&o, cmd.vars);
	else if (cmd.funcs)
		err = probe__show_funcs(&o, cmd.funcs_filter);
	else if (cmd.ndef)
		err = probe__add(&o, cmd.def, cmd.ndef, true);
	else
		err = probe__add(&o, cmd.add, cmd.nadd, false);
	free(joined);
	return err ? 1 : 0;
}
