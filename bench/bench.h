/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_BENCH_H
#define PRF_BENCH_H
/*
 * The workloads of `prf bench` (perf bench's collections): each runs on
 * this machine, measures wall-clock time (CLOCK_MONOTONIC) and prints its
 * result to stdout in perf bench's layout for the format asked. The
 * "# Running 'COLL/NAME' benchmark:" header is the caller's (builtin/bench.c).
 * This layer uses util/lib only. Functions return 0, or a negative errno
 * after printing nothing further (the caller reports it); forked children
 * end with _exit() and never return into the caller.
 */
#include <stdbool.h>
#include <stdint.h>

enum bench_format {
	BENCH_FORMAT_DEFAULT,	/* perf's "default": comment lines, Total time, per-op lines */
	BENCH_FORMAT_SIMPLE,	/* perf's "simple": the bare figure ("0.042") */
};

/* sched messaging: groups of senders writing to receivers (hackbench-like). */
struct bench_messaging {
	unsigned int groups;	/* groups of 20 senders + 20 receivers (default 10) */
	unsigned int loops;	/* messages each sender sends each receiver (default 100) */
	bool pipe;		/* pipe() instead of socketpair(AF_UNIX, SOCK_STREAM) */
	bool thread;		/* threads instead of processes */
};

/*
 * Run sched messaging and print "# 20 sender and receiver processes per
 * group", "# N groups == M processes run" and "Total time" (default), or
 * the seconds alone (simple). 0, or -errno (fork, pipe, a child failing: -EIO).
 */
int bench_sched_messaging(const struct bench_messaging *p, enum bench_format fmt);

/*
 * sched pipe: LOOPS round trips of one int over two pipes between two
 * processes (or two threads with THREADED); prints "# Executed N pipe
 * operations between two processes", Total time, usecs/op and ops/sec.
 * 0 or -errno.
 */
int bench_sched_pipe(unsigned int loops, bool threaded, enum bench_format fmt);

/* syscall basic: LOOPS getppid() calls; perf's lines. 0 (cannot fail). */
int bench_syscall_basic(unsigned int loops, enum bench_format fmt);

/* The functions `mem memcpy`/`memset` can measure, for -f and its "help". */
struct bench_mem_fn {
	const char *name;
	const char *desc;
	void (*copy)(void *dst, const void *src, size_t n);	/* memcpy */
	void (*set)(void *dst, int c, size_t n);		/* memset */
};

/* The table for "memcpy" or "memset" (NULL-named end), or NULL if neither. */
const struct bench_mem_fn *bench_mem_functions(const char *bench);

/*
 * Run mem BENCH ("memcpy"/"memset") with FUNCTION ("all" or one name of
 * bench_mem_functions()) over buffers of SIZE bytes (SIZE_STR as the user
 * gave it, echoed in "# Copying SIZE_STR bytes ..."), LOOPS times after
 * one untimed pass that faults the pages in; prints GB/sec (default) or
 * bytes/sec (simple) per function. 0, -ENOENT for an unknown function
 * name, -ENOMEM.
 */
int bench_mem(const char *bench, const char *function, uint64_t size, const char *size_str,
	      unsigned int loops, enum bench_format fmt);

/* futex hash: THREADS threads, each on its own NFUTEXES futexes. */
struct bench_futex_hash {
	unsigned int threads;	/* default: the CPUs this process may use */
	unsigned int nfutexes;	/* per thread (default 1024) */
	unsigned int runtime;	/* seconds (default 10) */
	bool shared, silent, mlockall;
};

/*
 * Run futex hash and print perf's "Run summary", one line per thread
 * (unless SILENT) and "Averaged N operations/sec (+- P%), total secs = S"
 * (P: the standard error of the mean over the threads, in percent of it).
 * 0, -EINVAL (no thread or futex), -ENOMEM, -errno of a failing futex call.
 */
int bench_futex_hash(const struct bench_futex_hash *p, enum bench_format fmt);

/* futex wake: THREADS waiters on one futex, woken NWAKES per call. */
struct bench_futex_wake {
	unsigned int threads;	/* default: the CPUs this process may use */
	unsigned int nwakes;	/* waiters each FUTEX_WAKE wakes (default 1) */
	bool shared, silent, mlockall;
};

/*
 * Run futex wake ten times: perf's "Run summary", "[Run N]: Wokeup ..."
 * per run (unless SILENT) and the mean in ms with its relative standard
 * error. 0, -ENOMEM, -errno of pthread_create.
 */
int bench_futex_wake(const struct bench_futex_wake *p, enum bench_format fmt);

/*
 * Shared by the collections: the monotonic clock in nanoseconds, and perf's
 * result lines for ELAPSED_NS over OPS operations ("Total time: S.mmm
 * [sec]", then usecs/op and ops/sec when OPS is not 0; BLANK puts the empty
 * line before "Total time" as sched prints it).
 */
uint64_t bench_now_ns(void);
void bench_print_time(uint64_t elapsed_ns, uint64_t ops, bool blank, enum bench_format fmt);

/*
 * internals synthesize: the cost of synthesizing side-band records
 * (COMM/FORK/MMAP2 of /proc, util/format/synthesize.h), which this layer
 * does not include: the caller passes the two ways to run it. Each
 * returns 0 and the number of records made, or -errno.
 */
struct bench_synth_ops {
	int (*self)(void *arg, uint64_t *nr_events);	/* this process's records */
	int (*all)(void *arg, unsigned int nr_threads, uint64_t *nr_events);
							/* every process, split over threads */
	void *arg;
};

struct bench_synthesize {
	bool st, mt;			/* run the single / multi-threaded parts */
	unsigned int st_iterations;	/* default 10000 */
	unsigned int mt_iterations;	/* default 10 */
	unsigned int min_threads, max_threads;	/* default 1 .. the CPUs */
};

/*
 * Run internals synthesize and print perf bench's lines: per part the
 * average time of one synthesis in usec with the standard error of the
 * mean, the average number of records, and the time per record. perf's
 * "data synthesis" lines (non-executable maps too) are not printed: prf
 * synthesizes executable maps only. 0 or the first -errno of ops.
 */
int bench_internals_synthesize(const struct bench_synthesize *p, const struct bench_synth_ops *ops,
			       enum bench_format fmt);

#endif
