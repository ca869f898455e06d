// SPDX-License-Identifier: GPL-2.0
/* prf help [COMMAND | tunables]. */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "../util/lib/util.h"

static void list_commands(void)
{
	printf("\n usage: prf [--version] [--help] COMMAND [ARGS]\n\n");
	printf(" The most commonly used prf commands are:\n");
	for (unsigned int i = 0; i < prf_ncommands; i++)
		printf("   %-12s %s\n", prf_commands[i].cmd, prf_commands[i].help);
	printf("\n See 'prf help COMMAND' for more information on a specific command.\n\n");
}

/* Print Documentation/prf-CMD.txt, looked up beside the binary, then in
 * the installed doc directory. */
static int show_doc(const char *cmd)
{
	char path[4096];
	const char *dirs[] = { prf_exec_dir(), PRF_DOC_DIR };
	FILE *f = NULL;

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

int cmd_help(int argc, const char **argv)
{
	if (argc < 2) {
		list_commands();
		return 0;
	}
	/* the one page that is not a command's: the PRF_* variables */
	if (!strcmp(argv[1], "tunables"))
		return show_doc(argv[1]);
	for (unsigned int i = 0; i < prf_ncommands; i++)
		if (!strcmp(prf_commands[i].cmd, argv[1]))
			return show_doc(argv[1]);
	fprintf(stderr, "prf: '%s' is not a prf command. See 'prf --help'.\n", argv[1]);
	return 1;
}
