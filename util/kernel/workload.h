/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_WORKLOAD_H
#define PRF_KERNEL_WORKLOAD_H
/*
 * The command stat and record measure, forked "corked": the child blocks
 * reading a pipe until the parent has opened the counters on its pid
 * (with attr.enable_on_exec so counting starts at exec), then the parent
 * writes one byte and the child execs. If exec fails, the child writes its
 * errno to a close-on-exec pipe, so the parent can say
 * "Workload failed: No such file or directory" (perf's text) instead of
 * counting a dead child.
 */
#include <stdbool.h>
#include <sys/types.h>

struct workload {
	pid_t pid;		/* child pid, -1 when none */
	int cork_fd;		/* write end of the go-pipe, -1 after start */
	int err_fd;		/* read end of the exec-error pipe, -1 after start */
	int exec_errno;		/* errno of the failed execvp, 0 if it ran */
	bool stdout_to_stderr;	/* set before workload__prepare(): the child's
				   stdout is its stderr (record -o -: the
				   parent's stdout carries perf.data), as perf
				   does */
};

/*
 * Fork argv[0] (searched in PATH like execvp(3)) with argv (NULL
 * terminated); the child waits for workload__start(). The child inherits
 * stdin/stdout/stderr (stdout: stderr with w->stdout_to_stderr). Returns 0 or -errno of pipe()/fork(); w->pid is
 * the child's pid.
 */
int workload__prepare(struct workload *w, const char *const argv[]);
/*
 * Let the child exec. Returns 0 once exec succeeded (the error pipe closed
 * empty), or -errno of the failed exec (w->exec_errno set; the child has
 * exited with 127 and is reaped here).
 */
int workload__start(struct workload *w);
/* Abort a prepared child that was never started: close the cork (the
 * child sees EOF and exits 127 without exec) and reap it. */
void workload__abort(struct workload *w);
/*
 * Convert a wait status to a shell-like exit status: the exit code, or
 * 128 + signal number for a killed child.
 */
int workload__exit_status(int wstatus);

#endif
