// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pager.h"
#include "../util/lib/tunables.h"

static bool pager_disabled;
static pid_t pager_pid;

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
