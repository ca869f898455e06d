// SPDX-License-Identifier: GPL-2.0
/*
 * prf: git-style multiplexer. main() finds the command in one table and
 * runs it through run_builtin(), which handles --help, the pager, and the
 * final stdout flush check.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../builtin/builtin.h"
#include "../util/lib/util.h"
#include "../ui/pager.h"

const struct cmd_struct prf_commands[] = {
	{ "config",  cmd_config,  0,         "Get and set variables in a configuration file." },
	{ "data",    cmd_data,    0,         "Dump perf.data records" },
	{ "list",    cmd_list,    USE_PAGER, "List all symbolic event types" },
	{ "stat",    cmd_stat,    0,         "Run a command and gather performance counter statistics" },
	{ "record",  cmd_record,  0,         "Run a command and record its profile into perf.data" },
	{ "script",  cmd_script,  0,         "Read perf.data (created by perf record) and display trace output" },
	{ "flamegraph", cmd_flamegraph, 0,   "Write an interactive flame graph (HTML or SVG) from perf.data" },
	{ "diff",    cmd_diff,    0,         "Compare perf.data files: perf diff's deltas, or runs with a significance test" },
	{ "report",  cmd_report,  0,         "Read perf.data (created by prf record) and display the profile" },
	{ "sched",   cmd_sched,   0,         "Tool to trace/measure scheduler properties (latencies)" },
	{ "annotate", cmd_annotate, 0,    "Read perf.data (created by perf record) and display annotated code" },
	{ "inject",  cmd_inject,  0,         "Filter to augment the events stream with additional information" },
	{ "trace",   cmd_trace,   0,         "strace inspired tool" },
	{ "top",     cmd_top,     0,         "System profiling tool." },
	{ "bench",   cmd_bench,   0,         "General framework for benchmark suites" },
	{ "probe",   cmd_probe,   0,         "Define new dynamic tracepoints" },
	{ "evlist",  cmd_evlist,  0,         "List the event names in a perf.data file" },
	{ "buildid-list", cmd_buildid_list, 0, "List the buildids in a perf.data file" },
	{ "buildid-cache", cmd_buildid_cache, 0, "Manage build-id cache." },
	{ "archive", cmd_archive, 0,         "Create archive with object files with build-ids found in perf.data file" },
	{ "test",    cmd_test,    0,         "Run sanity tests" },
	{ "help",    cmd_help,    0,         "Display help information about prf" },
	{ "version", cmd_version, 0,         "Display the version of prf binary" },
};
const unsigned int prf_ncommands = ARRAY_SIZE(prf_commands);

static const struct cmd_struct *find_command(const char *name)
{
	for (unsigned int i = 0; i < prf_ncommands; i++)
		if (!strcmp(prf_commands[i].cmd, name))
			return &prf_commands[i];
	return NULL;
}

static int run_builtin(const struct cmd_struct *p, int argc, const char **argv)
{
	int status;

	bool list_opts = false;

	/* `prf CMD --help` is `prf help CMD`, as in git and perf. */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help")) {
			const char *hargv[] = { "help", p->cmd, NULL };

			return cmd_help(2, hargv);
		}
		/* parse_options() lists the options and ends the command */
		list_opts |= !strcmp(argv[i], "--list-opts");
	}
	if (p->option & USE_PAGER)
		setup_pager();

	status = p->fn(argc, argv);
	if (status < 0)
		status = 1;
	if (list_opts && status == 129)
		status = 0;

	/* Somebody closed stdout, or a write failed: that's an error. */
	if (fflush(stdout) && errno != EPIPE) {
		fprintf(stderr, "prf: write failure on standard output: %s\n", strerror(errno));
		status = 1;
	}
	pager_finish();
	return status;
}

static int unknown_command(const char *cmd)
{
	const struct cmd_struct *best = NULL;
	int best_d = 1 << 30;

	for (unsigned int i = 0; i < prf_ncommands; i++) {
		int d = levenshtein(cmd, prf_commands[i].cmd);

		if (d < best_d) {
			best_d = d;
			best = &prf_commands[i];
		}
	}
	fprintf(stderr, "prf: '%s' is not a prf command.", cmd);
	if (best && best_d <= 2)
		fprintf(stderr, " Did you mean '%s'?", best->cmd);
	fprintf(stderr, " See 'prf --help'.\n");
	return 1;
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *p;
	const char *cmd;

	/* A closed pipe (prf script | head) must end us quietly: writes then
	 * fail with EPIPE, which the printers treat as "stop, status 0". */
	signal(SIGPIPE, SIG_IGN);

	argv++;
	argc--;
	/* Global options before the command. */
	while (argc > 0 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--version") || !strcmp(argv[0], "-v")) {
			argv[0] = "version";
			break;
		}
		if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
			argv[0] = "help";
			argc = 1;
			break;
		}
		if (!strcmp(argv[0], "--list-cmds")) {	/* for shell completion */
			for (unsigned int i = 0; i < prf_ncommands; i++)
				printf("%s\n", prf_commands[i].cmd);
			return 0;
		}
		if (!strcmp(argv[0], "--no-pager")) {
			pager_disable();
			argv++;
			argc--;
			continue;
		}
		fprintf(stderr, "prf: unknown option: %s\n", argv[0]);
		cmd_help(0, NULL);
		return 129;
	}
	if (argc == 0) {
		const char *hargv[] = { "help", NULL };

		cmd_help(1, hargv);
		return 1;
	}
	cmd = argv[0];
	p = find_command(cmd);
	if (!p)
		return unknown_command(cmd);
	return run_builtin(p, argc, argv);
}
