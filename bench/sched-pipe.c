// SPDX-License-Identifier: GPL-2.0
/*
 * sched pipe: two tasks bounce one int over a pair of pipes LOOPS times,
 * each round trip forcing a wake-up and a context switch on each side.
 * The time covers both tasks from their start to the last one's end.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"
#include "../util/lib/util.h"

struct pipe_side {
	int rd, wr;
	unsigned int loops;
	bool first;		/* writes before it reads */
};

static int pipe_bounce(const struct pipe_side *s)
{
	int v = 0;

	for (unsigned int i = 0; i < s->loops; i++) {
		if (s->first && writen(s->wr, &v, sizeof(v)) < 0)
			return -1;
		if (readn(s->rd, &v, sizeof(v)) != sizeof(v))
			return -1;
		if (!s->first && writen(s->wr, &v, sizeof(v)) < 0)
			return -1;
	}
	return 0;
}

static void *pipe_thread(void *arg)
{
	return pipe_bounce(arg) ? (void *)1 : NULL;
}

int bench_sched_pipe(unsigned int loops, bool threaded, enum bench_format fmt)
{
	int a[2] = { -1, -1 }, b[2] = { -1, -1 }, err = 0, status;
	struct pipe_side one, two;
	uint64_t start, stop;

	if (pipe(a) || pipe(b)) {
		err = -errno;
		goto out;
	}
	one = (struct pipe_side){ .rd = b[0], .wr = a[1], .loops = loops, .first = true };
	two = (struct pipe_side){ .rd = a[0], .wr = b[1], .loops = loops, .first = false };
	fflush(stdout);
	start = bench_now_ns();
	if (threaded) {
		pthread_t t1, t2;
		void *r1 = NULL, *r2 = NULL;

		err = -pthread_create(&t1, NULL, pipe_thread, &one);
		if (err)
			goto out;
		err = -pthread_create(&t2, NULL, pipe_thread, &two);
		if (err) {
			close(a[1]);	/* the first side's read sees EOF */
			close(b[1]);
			a[1] = b[1] = -1;
			pthread_join(t1, NULL);
			goto out;
		}
		pthread_join(t1, &r1);
		pthread_join(t2, &r2);
		if (r1 || r2)
			err = -EIO;
	} else {
		pid_t pid = fork();

		if (pid < 0) {
			err = -errno;
			goto out;
		}
		if (pid == 0)
			_exit(pipe_bounce(&two) ? 1 : 0);
		if (pipe_bounce(&one))
			err = -EIO;
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				break;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			err = -EIO;
	}
	stop = bench_now_ns();
	if (err)
		goto out;
	if (fmt == BENCH_FORMAT_DEFAULT)
		printf("# Executed %u pipe operations between two %s\n", loops,
		       threaded ? "threads" : "processes");
	bench_print_time(stop - start, loops, true, fmt);
out:
	for (int i = 0; i < 2; i++) {
		if (a[i] >= 0)
			close(a[i]);
		if (b[i] >= 0)
			close(b[i]);
	}
	return err;
}
