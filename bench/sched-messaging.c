// SPDX-License-Identifier: GPL-2.0
/*
 * sched messaging: in each group, 20 receivers each own one socketpair (or
 * pipe); 20 senders each write LOOPS messages of 100 bytes to every
 * receiver of their group, and each receiver reads all 20 * LOOPS of them.
 * Every task (process or thread) says it is ready on one pipe and then
 * blocks on a second pipe whose write end the parent closes to start them
 * all at once; the time runs from that start until the last task is reaped.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"
#include "../util/lib/util.h"

#define MSG_FDS		20	/* senders and receivers per group */
#define MSG_SIZE	100	/* bytes of one message */

struct msg_task {
	bool sender;
	unsigned int loops;
	int ready_fd, wakeup_fd;
	int wakeup_wr;			/* the parent's end, closed in a child process */
	int fd;				/* receiver: its read end */
	const int *out;			/* sender: the MSG_FDS write ends of its group */
	pthread_t tid;
	pid_t pid;
};

/* Say ready, then wait until the parent closes the wake-up pipe. */
static int msg_start(const struct msg_task *t)
{
	char c = 'R';

	if (writen(t->ready_fd, &c, 1) < 0)
		return -1;
	while (read(t->wakeup_fd, &c, 1) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int msg_run(const struct msg_task *t)
{
	char buf[MSG_SIZE];

	if (msg_start(t) < 0)
		return -1;
	if (t->sender) {
		memset(buf, 'S', sizeof(buf));
		for (unsigned int l = 0; l < t->loops; l++)
			for (int j = 0; j < MSG_FDS; j++)
				if (writen(t->out[j], buf, sizeof(buf)) < 0)
					return -1;
		return 0;
	}
	for (uint64_t left = (uint64_t)t->loops * MSG_FDS; left; left--)
		if (readn(t->fd, buf, sizeof(buf)) != sizeof(buf))
			return -1;
	return 0;
}

static void *msg_thread(void *arg)
{
	return msg_run(arg) ? (void *)1 : NULL;
}

static int msg_spawn(struct msg_task *t, bool thread)
{
	if (thread) {
		pthread_attr_t attr;
		int err;

		/* small stacks: hundreds of threads, each with one message buffer */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 256 * 1024);
		err = pthread_create(&t->tid, &attr, msg_thread, t);
		pthread_attr_destroy(&attr);
		return -err;
	}
	t->pid = fork();
	if (t->pid < 0)
		return -errno;
	if (t->pid == 0) {
		close(t->wakeup_wr);
		_exit(msg_run(t) ? 1 : 0);
	}
	return 0;
}

static int msg_reap(struct msg_task *t, bool thread)
{
	int status;
	void *ret;

	if (thread) {
		if (pthread_join(t->tid, &ret) || ret)
			return -EIO;
		return 0;
	}
	while (waitpid(t->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static int msg_channel(bool use_pipe, int fds[2])
{
	if (use_pipe)
		return pipe(fds) ? -errno : 0;
	return socketpair(AF_UNIX, SOCK_STREAM, 0, fds) ? -errno : 0;
}

int bench_sched_messaging(const struct bench_messaging *p, enum bench_format fmt)
{
	size_t ntasks = (size_t)p->groups * MSG_FDS * 2, started = 0;
	struct msg_task *tasks = calloc(ntasks ? ntasks : 1, sizeof(*tasks));
	int *fds = calloc((size_t)p->groups * MSG_FDS * 2 + 1, sizeof(int));
	int ready[2] = { -1, -1 }, wakeup[2] = { -1, -1 }, err = 0;
	const char *what = p->thread ? "threads" : "processes";
	uint64_t start = 0, stop;
	char c;

	if (!tasks || !fds) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < (size_t)p->groups * MSG_FDS * 2; i++)
		fds[i] = -1;
	if (pipe(ready) || pipe(wakeup)) {
		err = -errno;
		goto out;
	}
	if (fmt == BENCH_FORMAT_DEFAULT) {
		printf("# %d sender and receiver %s per group\n", MSG_FDS, what);
		printf("# %u groups == %zu %s run\n\n", p->groups, ntasks, what);
	}
	fflush(stdout);	/* not repeated by forked children */
	for (unsigned int g = 0; g < p->groups && !err; g++) {
		int *in = fds + (size_t)g * MSG_FDS * 2, *out = in + MSG_FDS;

		for (int j = 0; j < MSG_FDS && !err; j++) {
			int pair[2];

			err = msg_channel(p->pipe, pair);
			if (err)
				break;
			in[j] = pair[0];
			out[j] = pair[1];
		}
		for (int j = 0; j < MSG_FDS * 2 && !err; j++) {
			struct msg_task *t = &tasks[started];

			*t = (struct msg_task){ .sender = j >= MSG_FDS, .loops = p->loops,
						.ready_fd = ready[1], .wakeup_fd = wakeup[0],
						.wakeup_wr = wakeup[1],
						.fd = j < MSG_FDS ? in[j] : -1, .out = out };
			err = msg_spawn(t, p->thread);
			if (!err)
				started++;
		}
	}
	/* processes hold their own copies; the parent's are closed at the end */
	for (size_t i = 0; i < started && !err; i++)
		if (readn(ready[0], &c, 1) != 1)
			err = -EIO;
	/*
	 * A task that could not start leaves its group's others waiting on it:
	 * processes are killed; threads (a failed pthread_create) are not
	 * stoppable, so the run relies on the pipes' buffers as perf does.
	 */
	for (size_t i = 0; i < started && err && !p->thread; i++)
		kill(tasks[i].pid, SIGKILL);
	start = bench_now_ns();
	close(wakeup[1]);	/* every task's read returns 0: go */
	wakeup[1] = -1;
	for (size_t i = 0; i < started; i++) {
		int e = msg_reap(&tasks[i], p->thread);

		if (e && !err)
			err = e;
	}
	stop = bench_now_ns();
	if (!err)
		bench_print_time(stop - start, 0, false, fmt);
out:
	for (size_t i = 0; fds && i < (size_t)p->groups * MSG_FDS * 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	for (int i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
		if (wakeup[i] >= 0)
			close(wakeup[i]);
	}
	free(tasks);
	free(fds);
	return err;
}
