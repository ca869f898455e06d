// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pager.h"
#include "../util/lib/tunables.h"

static bool pager_disabled;
static pid_t pager_pid;
static int pager_columns;	/* the terminal's, when a pager was started */

void pager_disable(void)
{
	pager_disabled = true;
}

int pager_in_use(void)
{
	return pager_pid != 0;
}

void setup_pager(void)
{
	const char *pager = tunable__str(TUNABLE_PAGER);
	int fd[2];

	if (pager_disabled || !isatty(STDOUT_FILENO))
		return;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	{
		struct winsize ws;

		if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
			pager_columns = ws.ws_col;
	}
	if (pipe(fd) < 0)
		return;
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fd[0]);
		close(fd[1]);
		pager_pid = 0;
		return;
	}
	if (pager_pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", "FRX", 0);
		execlp("sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	fflush(stdout);
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
}

int pager_get_columns(void)
{
	const char *c = getenv("COLUMNS");

	if (c)
		return atoi(c);
	return (pager_columns ? pager_columns : 80) - 2;
}

void pager_finish(void)
{
	if (!pager_pid)
		return;
	fflush(stdout);
	fclose(stdout);
	close(STDOUT_FILENO);
	waitpid(pager_pid, NULL, 0);
	pager_pid = 0;
}
