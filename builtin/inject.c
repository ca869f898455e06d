// SPDX-License-Identifier: GPL-2.0
/*
 * prf inject: copy a perf.data stream (file or pipe) to another, adding
 * build-ids (-b, --buildid-all), turning jitdump files into ELF images
 * and MMAP2 records (--jit) or merging sched_stat into sched_switch
 * samples (-s); the rewriting is util/session/inject*.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/session/inject.h"

static const char *const inject_usage[] = {
	"prf inject [<options>]",
	NULL
};

/* Arguments after the options: 0, or 129 with a message. */
static int inject__check(const struct inject_opts *o, int argc, const char **argv,
			 const struct option *options)
{
	if (argc > 0) {
		fprintf(stderr, "prf inject: unexpected argument '%s'\n", argv[0]);
		usage_with_options(inject_usage, options);
		return 129;
	}
	if (strcmp(o->output, "-") && !strcmp(o->input, o->output)) {
		fprintf(stderr, "prf inject: the input and output files are the same (%s)\n", o->input);
		return 129;
	}
	if (!strcmp(o->output, "-") && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "prf inject: refusing to write perf.data to a terminal; use -o FILE or a pipe\n");
		return 129;
	}
	return 0;
}

int cmd_inject(int argc, const char **argv)
{
	struct inject_opts o = { .input = "-", .output = "-", .argc = argc, .argv = argv };
	bool force = false;
	const char *vmlinux = NULL, **cmdline;
	int err;
	const struct option options[] = {
		OPT_BOOLEAN('b', "build-ids", &o.build_ids, "Inject build-ids into the output stream"),
		OPT_BOOLEAN(0, "buildid-all", &o.buildid_all,
			    "Inject build-ids of all DSOs into the output stream"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_BOOLEAN('s', "sched-stat", &o.sched_stat,
			    "Merge sched-stat and sched-switch for getting events where and how long tasks slept"),
		OPT_BOOLEAN('j', "jit", &o.jit, "merge jitdump files into perf.data file"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname (accepted, not needed)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show build ids, etc)"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_END()
	};

	/* parse_options() reorders argv: keep the command line for CMDLINE */
	cmdline = calloc((size_t)argc + 1, sizeof(*cmdline));
	if (!cmdline)
		return 1;
	memcpy(cmdline, argv, (size_t)argc * sizeof(*argv));
	o.argv = cmdline;
	argc = parse_options(argc, argv, options, inject_usage, 0);
	if (argc < 0) {
		free(cmdline);
		return 129;
	}
	err = inject__check(&o, argc, argv, options);
	if (!err)
		err = inject__run(&o) ? 1 : 0;
	free(cmdline);
	return err;
}
