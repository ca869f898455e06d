// SPDX-License-Identifier: GPL-2.0
/* prf help [-a | COMMAND | tunables]. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "builtin.h"
#include "../util/lib/util.h"

static void print_commands(void)
{
	for (unsigned int i = 0; i < prf_ncommands; i++)
		printf("   %-12s %s\n", prf_commands[i].cmd, prf_commands[i].help);
	printf("\n See 'prf help COMMAND' for more information on a specific command.\n\n");
}

static void list_commands(void)
{
	printf("\n usage: prf [--version] [--help] COMMAND [ARGS]\n\n");
	printf(" The most commonly used prf commands are:\n");
	print_commands();
}

/* Print Documentation/prf-CMD.txt, looked up beside the binary, then in
 * the installed doc directory, then in the doc directory beside the
 * binary's prefix. */
static int show_doc(const char *cmd)
{
	char path[4096];
	char staged[4096];
	const char *dirs[] = { prf_exec_dir(), PRF_DOC_DIR, staged };
	FILE *f = NULL;

	/* an install moved as a whole (DESTDIR, a relocated prefix) */
	snprintf(staged, sizeof(staged), "%s/../share/doc/prf", prf_exec_dir());
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs) && !f; i++) {
		snprintf(path, sizeof(path), "%s/Documentation/prf-%s.txt", dirs[i], cmd);
		f = fopen(path, "r");
		if (!f) {
			snprintf(path, sizeof(path), "%s/prf-%s.txt", dirs[i], cmd);
			f = fopen(path, "r");
		}
	}
	if (!f) {
		fprintf(stderr, "prf: no manual page for '%s' (looked for Documentation/prf-%s.txt)\n",
			cmd, cmd);
		return 1;
	}
	char buf[8192];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

/* Whether an executable named name is in $PATH. */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		const char *end = strchrnul(path, ':');

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - path), path, name);
		if (end > path && !access(buf, X_OK))
			return true;
		path = *end ? end + 1 : end;
	}
	return false;
}

/*
 * An installed prf shows its man page through man(1), as perf does: the
 * page installed beside the binary (BINDIR/../share/man/manS/PAGE.S, or
 * .S.gz as packages compress them). 0 when man ran; -1 when there is no
 * such page (a checkout) or no man: the text is shown instead.
 */
static int show_man(const char *cmd)
{
	static const char *const pages[] = { "man1/prf-%s.1", "man1/prf-%s.1.gz",
					     "man7/prf-%s.7", "man7/prf-%s.7.gz" };
	char path[4096], rel[256];
	pid_t pid;
	int status;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		snprintf(rel, sizeof(rel), pages[i], cmd);
		snprintf(path, sizeof(path), "%s/../share/man/%s", prf_exec_dir(), rel);
		if (!access(path, R_OK))
			break;
	}
	if (i == ARRAY_SIZE(pages) || !in_path("man"))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execlp("man", "man", "-l", path, (char *)NULL);
		_exit(127);
	}
	/* man(1) ran: its status is its own (a closed pipe, say) */
	return waitpid(pid, &status, 0) < 0 ? -1 : 0;
}

static void list_all_commands(void)
{
	printf("\n available prf commands:\n\n");
	print_commands();
}

int cmd_help(int argc, const char **argv)
{
	if (argc < 2) {
		list_commands();
		return 0;
	}
	if (!strcmp(argv[1], "-a") || !strcmp(argv[1], "--all")) {
		list_all_commands();
		return 0;
	}
	/* the one page that is not a command's: the PRF_* variables */
	if (!strcmp(argv[1], "tunables"))
		return show_man(argv[1]) ? show_doc(argv[1]) : 0;
	for (unsigned int i = 0; i < prf_ncommands; i++)
		if (!strcmp(prf_commands[i].cmd, argv[1]))
			return show_man(argv[1]) ? show_doc(argv[1]) : 0;
	fprintf(stderr, "prf: '%s' is not a prf command. See 'prf --help'.\n", argv[1]);
	return 1;
}
