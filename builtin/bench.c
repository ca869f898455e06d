// SPDX-License-Identifier: GPL-2.0
/*
 * prf bench [-f default|simple] COLLECTION BENCHMARK [<options>]
 *
 * perf bench's micro-benchmarks (sched messaging/pipe, syscall basic, mem
 * memcpy/memset, futex hash/wake) run on this machine, with perf bench's output. This file
 * holds the collections, each benchmark's option table and the dispatch
 * (a collection, "all" in it, or "all" collections); the workloads live in
 * bench/ (bench/bench.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "../bench/bench.h"
#include "../util/format/synthesize.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"

static enum bench_format bench_format = BENCH_FORMAT_DEFAULT;

/* One benchmark's entry: argv[0] is its name; returns the exit status. */
typedef int bench_fn(int argc, const char **argv);

static int bench_args_done(int argc, const char *const usage[], const struct option *opts)
{
	if (argc < 0)
		return 129;
	if (argc > 0) {
		fprintf(stderr, "prf bench: unexpected argument '%s'\n", usage[0]);
		usage_with_options(usage, opts);
		return 129;
	}
	return 0;
}

static int bench_status(int err, const char *what)
{
	if (!err)
		return 0;
	fprintf(stderr, "prf bench %s: %s\n", what, strerror(-err));
	return 1;
}

static int run_sched_messaging(int argc, const char **argv)
{
	struct bench_messaging p = { .groups = 10, .loops = 100 };
	const struct option opts[] = {
		OPT_BOOLEAN('p', "pipe", &p.pipe, "Use pipe() instead of socketpair()"),
		OPT_BOOLEAN('t', "thread", &p.thread, "Be multi thread instead of multi process"),
		OPT_UINTEGER('g', "group", &p.groups, "Specify number of groups"),
		OPT_UINTEGER('l', "nr_loops", &p.loops, "Specify the number of loops to run (default: 100)"),
		OPT_END()
	};
	const char *const usage[] = { "prf bench sched messaging <options>", NULL };
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts);

	return st ? st : bench_status(bench_sched_messaging(&p, bench_format), "sched messaging");
}

static int run_sched_pipe(int argc, const char **argv)
{
	unsigned int loops = 1000000;
	bool threaded = false;
	const struct option opts[] = {
		OPT_UINTEGER('l', "loop", &loops, "Specify number of loops"),
		OPT_BOOLEAN('T', "threaded", &threaded, "Specify threads/process based task setup"),
		OPT_END()
	};
	const char *const usage[] = { "prf bench sched pipe <options>", NULL };
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts);

	return st ? st : bench_status(bench_sched_pipe(loops, threaded, bench_format), "sched pipe");
}

static int run_syscall_basic(int argc, const char **argv)
{
	unsigned int loops = 10000000;
	const struct option opts[] = {
		OPT_UINTEGER('l', "loop", &loops, "Specify number of loops"),
		OPT_END()
	};
	const char *const usage[] = { "prf bench syscall <options>", NULL };
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts);

	return st ? st : bench_status(bench_syscall_basic(loops, bench_format), "syscall basic");
}

/* internals synthesize: the records util/format/synthesize.c makes,
 * counted (from several threads at once in the multi-threaded part). */
static int synth_count(void *arg, const union perf_event *event)
{
	atomic_fetch_add((_Atomic uint64_t *)arg, 1);
	return 0;
}

static int synth_self(void *arg, uint64_t *nr_events)
{
	_Atomic uint64_t n = 0;
	int err = synthesize__process(synth_count, (void *)&n, 0, getpid());

	*nr_events = n;
	return err;
}

static int synth_all(void *arg, unsigned int nr_threads, uint64_t *nr_events)
{
	_Atomic uint64_t n = 0;
	int err = synthesize__all_processes_threaded(synth_count, (void *)&n, 0, nr_threads);

	*nr_events = n;
	return err;
}

static int run_internals_synthesize(int argc, const char **argv)
{
	unsigned int cpus = (unsigned int)cpus_usable();
	struct bench_synthesize p = { .st_iterations = 10000, .mt_iterations = 10,
				      .min_threads = 1, .max_threads = cpus ? cpus : 1 };
	const struct bench_synth_ops ops = { synth_self, synth_all, NULL };
	const struct option opts[] = {
		OPT_BOOLEAN('s', "st", &p.st, "Run single threaded benchmark"),
		OPT_BOOLEAN('t', "mt", &p.mt, "Run multi-threaded benchmark"),
		OPT_UINTEGER('I', "multi-iterations", &p.mt_iterations,
			     "Number of iterations used to compute multi-threaded average"),
		OPT_UINTEGER('i', "single-iterations", &p.st_iterations,
			     "Number of iterations used to compute single-threaded average"),
		OPT_UINTEGER('m', "min-threads", &p.min_threads,
			     "Minimum number of threads in multithreaded bench"),
		OPT_UINTEGER('M', "max-threads", &p.max_threads,
			     "Maximum number of threads in multithreaded bench"),
		OPT_END()
	};
	const char *const usage[] = { "prf bench internals synthesize <options>", NULL };
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts);

	if (st)
		return st;
	if (!p.st && !p.mt)
		p.st = p.mt = true;	/* as perf: neither named runs both */
	if (!p.st_iterations || !p.mt_iterations || !p.min_threads ||
	    p.min_threads > p.max_threads) {
		fprintf(stderr, "prf bench internals synthesize: iterations must be at least 1 "
			"and 1 <= min-threads <= max-threads\n");
		return 129;
	}
	return bench_status(bench_internals_synthesize(&p, &ops, bench_format),
			    "internals synthesize");
}

/* The options futex hash and wake share (P: a struct with these flags). */
#define FUTEX_COMMON_OPTS(P) \
	OPT_BOOLEAN('s', "silent", &(P)->silent, "Silent mode: do not display data/details"), \
	OPT_BOOLEAN('S', "shared", &(P)->shared, "Use shared futexes instead of private ones"), \
	OPT_BOOLEAN('m', "mlockall", &(P)->mlockall, "Lock all current and future memory")

static int run_futex_hash(int argc, const char **argv)
{
	struct bench_futex_hash p = { .threads = (unsigned int)cpus_usable(), .nfutexes = 1024,
				      .runtime = 10 };
	const struct option opts[] = {
		OPT_UINTEGER('r', "runtime", &p.runtime, "Specify runtime (in seconds)"),
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_UINTEGER('f', "futexes", &p.nfutexes, "Specify amount of futexes per threads"),
		FUTEX_COMMON_OPTS(&p),
		OPT_END()
	};
	const char *const usage[] = { "prf bench futex hash <options>", NULL };
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts);

	if (st)
		return st;
	if (!p.threads || !p.nfutexes) {
		fprintf(stderr, "prf bench futex hash: -t and -f must be at least 1\n");
		return 129;
	}
	return bench_status(bench_futex_hash(&p, bench_format), "futex hash");
}

static int run_futex_wake(int argc, const char **argv)
{
	struct bench_futex_wake p = { .threads = (unsigned int)cpus_usable(), .nwakes = 1 };
	const struct option opts[] = {
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_UINTEGER('w', "nwakes", &p.nwakes, "Specify amount of threads to wake at once"),
		FUTEX_COMMON_OPTS(&p),
		OPT_END()
	};
	const char *const usage[] = { "prf bench futex wake <options>", NULL };
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts);

	if (st)
		return st;
	if (!p.threads || !p.nwakes) {
		fprintf(stderr, "prf bench futex wake: -t and -w must be at least 1\n");
		return 129;
	}
	return bench_status(bench_futex_wake(&p, bench_format), "futex wake");
}

/* "1MB", "4kb", "512": a number of bytes with an optional B/KB/MB/GB/TB unit. */
static int parse_mem_size(const char *s, uint64_t *size)
{
	static const char *const units[] = { "b", "kb", "mb", "gb", "tb" };
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -EINVAL;
	if (*end) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (!strcasecmp(end, units[i]))
				break;
		if (i == ARRAY_SIZE(units))
			return -EINVAL;
		for (; i; i--)
			v *= 1024;
	}
	if (v >= 18446744073709551616.0)
		return -EINVAL;
	*size = (uint64_t)v;
	return 0;
}

static void mem_list_functions(const char *bench)
{
	printf("Available functions:\n");
	for (const struct bench_mem_fn *f = bench_mem_functions(bench); f->name; f++)
		printf("\t%s ... %s\n", f->name, f->desc);
}

static int run_mem(int argc, const char **argv)
{
	const char *bench = argv[0], *size_str = "1MB", *function = "all";
	unsigned int loops = 1;
	uint64_t size;
	const struct option opts[] = {
		OPT_STRING('f', "function", &function, "all",
			   "Specify the function to run, \"all\" runs all available functions, \"help\" lists them"),
		OPT_UINTEGER('l', "nr_loops", &loops, "Specify the number of loops to run. (default: 1)"),
		OPT_STRING('s', "size", &size_str, "1MB",
			   "Specify the size of the memory buffers. Available units: B, KB, MB, GB and TB (case insensitive)"),
		OPT_END()
	};
	const char *const usage_cpy[] = { "prf bench mem memcpy <options>", NULL };
	const char *const usage_set[] = { "prf bench mem memset <options>", NULL };
	const char *const *usage = strcmp(bench, "memcpy") ? usage_set : usage_cpy;
	int st = bench_args_done(parse_options(argc, argv, opts, usage, 0), usage, opts), err;

	if (st)
		return st;
	if (!strcmp(function, "help")) {
		mem_list_functions(bench);
		return 0;
	}
	if (parse_mem_size(size_str, &size)) {
		fprintf(stderr, "prf bench mem %s: invalid size '%s' (a number with B, KB, MB, GB or TB)\n",
			bench, size_str);
		return 129;
	}
	err = bench_mem(bench, function, size, size_str, loops, bench_format);
	if (err == -ENOENT) {
		fprintf(stderr, "Unknown function: %s\n", function);
		mem_list_functions(bench);
		return 129;
	}
	return bench_status(err, bench);
}

struct bench_entry {
	const char *name, *summary;
	bench_fn *fn;
};

struct bench_collection {
	const char *name, *summary;
	const struct bench_entry *benches;
};

static const struct bench_entry sched_benches[] = {
	{ "messaging", "Benchmark for scheduling and IPC", run_sched_messaging },
	{ "pipe", "Benchmark for pipe() between two processes", run_sched_pipe },
	{ "all", "Run all scheduler benchmarks", NULL },
	{ NULL, NULL, NULL },
};

static const struct bench_entry syscall_benches[] = {
	{ "basic", "Benchmark for basic getppid(2) calls", run_syscall_basic },
	{ "all", "Run all syscall benchmarks", NULL },
	{ NULL, NULL, NULL },
};

static const struct bench_entry mem_benches[] = {
	{ "memcpy", "Benchmark for memcpy() functions", run_mem },
	{ "memset", "Benchmark for memset() functions", run_mem },
	{ "all", "Run all memory access benchmarks", NULL },
	{ NULL, NULL, NULL },
};

static const struct bench_entry futex_benches[] = {
	{ "hash", "Benchmark for futex hash table", run_futex_hash },
	{ "wake", "Benchmark for futex wake calls", run_futex_wake },
	{ "all", "Run all futex benchmarks", NULL },
	{ NULL, NULL, NULL },
};

static const struct bench_entry internals_benches[] = {
	{ "synthesize", "Benchmark perf event synthesis", run_internals_synthesize },
	{ "all", "Run all internals benchmarks", NULL },
	{ NULL, NULL, NULL },
};

static const struct bench_collection collections[] = {
	{ "sched", "Scheduler and IPC benchmarks", sched_benches },
	{ "syscall", "System call benchmarks", syscall_benches },
	{ "mem", "Memory access benchmarks", mem_benches },
	{ "futex", "Futex stressing benchmarks", futex_benches },
	{ "internals", "Perf-internals benchmarks", internals_benches },
	{ "all", "All benchmarks", NULL },
	{ NULL, NULL, NULL },
};

static const char *const bench_usage[] = {
	"prf bench [<common options>] <collection> <benchmark> [<options>]",
	NULL
};

static void print_collections(void)
{
	printf("Usage: \n\t%s\n\n", bench_usage[0]);
	printf("        # List of all available benchmark collections:\n\n");
	for (const struct bench_collection *c = collections; c->name; c++)
		printf("%14s: %s\n", c->name, c->summary);
	printf("\n");
}

static void print_benchmarks(const struct bench_collection *c)
{
	printf("\n        # List of available benchmarks for collection '%s':\n\n", c->name);
	for (const struct bench_entry *b = c->benches; b->name; b++)
		printf("%14s: %s\n", b->name, b->summary);
	printf("\n");
}

/* One benchmark with its options (argv[0] its name), under perf's header. */
static int run_one(const struct bench_collection *c, const struct bench_entry *b,
		   int argc, const char **argv)
{
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Running '%s/%s' benchmark:\n", c->name, b->name);
	fflush(stdout);
	return b->fn(argc, argv);
}

/* Every benchmark of C with its defaults, as "all" runs them. */
static int run_collection(const struct bench_collection *c)
{
	int status = 0;

	for (const struct bench_entry *b = c->benches; b->name; b++) {
		const char *argv[] = { b->name, NULL };
		int st;

		if (!b->fn)
			continue;
		printf("# Running %s/%s benchmark...\n", c->name, b->name);
		fflush(stdout);
		st = b->fn(1, argv);
		printf("\n");
		if (st && !status)
			status = st;
	}
	return status;
}

static int format_cb(const struct option *opt, const char *arg, int unset)
{
	enum bench_format *f = opt->value;

	if (unset || !arg)
		return -1;
	if (!strcmp(arg, "default")) {
		*f = BENCH_FORMAT_DEFAULT;
	} else if (!strcmp(arg, "simple")) {
		*f = BENCH_FORMAT_SIMPLE;
	} else {
		fprintf(stderr, "Unknown format descriptor: '%s' (default or simple)\n", arg);
		return -1;
	}
	return 0;
}

int cmd_bench(int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_CALLBACK('f', "format", &bench_format, "default|simple",
			     "Specify the output formatting style", format_cb),
		OPT_END()
	};
	const struct bench_collection *c;
	const struct bench_entry *b;
	int status = 0;

	argc = parse_options(argc, argv, opts, bench_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return 129;
	if (argc == 0) {
		print_collections();
		return 0;
	}
	if (!strcmp(argv[0], "all")) {
		for (c = collections; c->name; c++)
			if (c->benches) {
				int st = run_collection(c);

				if (st && !status)
					status = st;
			}
		return status;
	}
	for (c = collections; c->name && strcmp(c->name, argv[0]); c++)
		;
	if (!c->name || !c->benches) {
		fprintf(stderr, "Unknown collection: '%s'\n", argv[0]);
		print_collections();
		return 129;
	}
	if (argc == 1) {
		print_benchmarks(c);
		return 0;
	}
	if (!strcmp(argv[1], "all"))
		return run_collection(c);
	for (b = c->benches; b->name && strcmp(b->name, argv[1]); b++)
		;
	if (!b->name || !b->fn) {
		fprintf(stderr, "Unknown benchmark: '%s' for collection '%s'\n", argv[1], c->name);
		print_benchmarks(c);
		return 129;
	}
	return run_one(c, b, argc - 1, argv + 1);
}
