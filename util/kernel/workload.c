// SPDX-License-Identifier: GPL-2.0
/* Corked workload fork/exec; see workload.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "workload.h"
#include "../lib/util.h"

int workload__prepare(struct workload *w, const char *const argv[])
{
	int go[2], err[2];
	pid_t pid;

	w->pid = -1;
	w->cork_fd = w->err_fd = -1;
	w->exec_errno = 0;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		return e;
	}
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(go[0]); close(go[1]); close(err[0]); close(err[1]);
		return e;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		/* the parent writes perf.data to stdout: the command's
		 * output must not mix into it */
		if (w->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		/* Block until the parent has the counters ready. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->pid = pid;
	w->cork_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload__start(struct workload *w)
{
	char c = 0;
	int e = 0;
	ssize_t n;

	if (w->cork_fd < 0)
		return -EINVAL;
	n = write(w->cork_fd, &c, 1);
	close(w->cork_fd);
	w->cork_fd = -1;
	if (n != 1) {
		workload__abort(w);
		return -EPIPE;
	}
	/* EOF (0 bytes) means exec closed the CLOEXEC pipe: success. */
	n = readn(w->err_fd, &e, sizeof(e));
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e) && e) {
		w->exec_errno = e;
		waitpid(w->pid, NULL, 0);
		w->pid = -1;
		return -e;
	}
	return 0;
}

void workload__abort(struct workload *w)
{
	if (w->cork_fd >= 0) {
		close(w->cork_fd);
		w->cork_fd = -1;
	}
	if (w->err_fd >= 0) {
		close(w->err_fd);
		w->err_fd = -1;
	}
	if (w->pid > 0) {
		waitpid(w->pid, NULL, 0);
		w->pid = -1;
	}
}

int workload__exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
