// SPDX-License-Identifier: GPL-2.0
/*
 * prf sched: scheduler analysis, as perf 6.1's `perf sched`.
 *   record  prf record with the sched tracepoints perf sched records
 *   latency per-task switches, runtime and wakeup delays
 *   timehist per-switch wait/delay/run times
 *   map     one line per context switch, one column per CPU
 *   replay  re-run the recorded tasks' run/sleep/wakeup pattern
 *   script  prf script
 * Options and orchestration only: the session reads, the analysis
 * (util/analysis/sched.h) keeps the per-task state and prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../util/analysis/sample-filter.h"
#include "../util/analysis/sched.h"
#include "../util/kernel/tracefs.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/session/resolve.h"
#include "../util/session/session.h"

struct sched_run {
	struct perf_tool tool;		/* first: container_of */
	const char *input;
	const char *time_str;
	bool force;			/* -f: a damaged input's partial result is a success */
	struct sched_opts o;
	struct perf_session *session;
	struct sched *sc;
};

static const char *const sched_usage[] = {
	"prf sched [<options>] {record|latency|map|replay|script|timehist}",
	NULL
};

static struct sched_run *tool2cmd(struct perf_tool *tool)
{
	return container_of(tool, struct sched_run, tool);
}

static int process_sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	(void)event;
	(void)machine;
	return sched__sample(tool2cmd(tool)->sc, sample, evsel);
}

static bool sample_wanted(struct perf_tool *tool, struct evsel *evsel, u32 cpu)
{
	return sched__sample_wanted(tool2cmd(tool)->sc, evsel, cpu);
}

static int process_comm(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine)
{
	struct sched_run *c = tool2cmd(tool);
	int err = perf_session__process_sideband(c->session, event, sample);

	(void)machine;
	if (!err)
		sched__comm(c->sc, (pid_t)sample->tid);
	return err;
}

static int process_fork(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine)
{
	struct sched_run *c = tool2cmd(tool);
	int err = sched__fork_begin(c->sc, (pid_t)event->fork.ppid, (pid_t)event->fork.ptid,
				    (pid_t)event->fork.pid, (pid_t)event->fork.tid);

	(void)machine;
	if (!err)
		err = perf_session__process_sideband(c->session, event, sample);
	if (!err)
		err = sched__fork(c->sc, (pid_t)event->fork.ppid, (pid_t)event->fork.ptid,
				  (pid_t)event->fork.pid, (pid_t)event->fork.tid);
	return err;
}

static int process_lost(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine)
{
	struct sched_run *c = tool2cmd(tool);

	(void)machine;
	sched__lost(c->sc, event->lost.lost, sample);
	return 0;
}

/*
 * --time: "START,STOP" in seconds, either side may be empty, read by the
 * one parser of sample-filter.h; sched takes a single absolute range (as
 * perf 6.1's timehist).
 */
static int parse_time(struct sched_run *c)
{
	struct sample_time_filter tf = { 0 };
	int err = sample_time_filter__parse(&tf, "sched", c->time_str);

	if (!err && (tf.percent || tf.nr != 1)) {
		fprintf(stderr, "prf sched: --time takes one START,STOP range in seconds, not '%s'\n",
			c->time_str);
		err = -EINVAL;
	}
	if (!err) {
		c->o.time_start = tf.ranges[0].start;
		c->o.time_end = tf.ranges[0].end;
	}
	sample_time_filter__exit(&tf);
	return err;
}

/* Read the input through the analysis. The exit status. */
static int sched__run(struct sched_run *c)
{
	static char outbuf[1 << 16];
	int err = 0, status = 1;

	if (c->time_str && parse_time(c))
		return 129;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	perf_tool__init(&c->tool, true);
	c->tool.sample = process_sample;
	c->tool.sample_wanted = sample_wanted;
	c->tool.comm = process_comm;
	c->tool.lost = process_lost;
	c->tool.fork = process_fork;
	c->session = perf_session__new(c->input ? c->input : "perf.data", &c->tool, &err);
	if (!c->session)
		return 1;
	c->sc = sched__new(c->session, &c->o, &err);
	if (!c->sc) {
		status = err == -EINVAL ? 129 : 1;
		goto out;
	}
	err = sched__start(c->sc);
	if (err)
		goto out;
	err = perf_session__process_events(c->session);
	if (err == -EPIPE) {
		status = 0;
		goto out;
	}
	if (err && !perf_session__input_damage(c->session, err)) {
		fprintf(stderr, "prf sched: processing %s failed: %s\n",
			c->input ? c->input : "perf.data", strerror(-err));
		goto out;
	}
	err = sched__finish(c->sc);
	if (err && err != -EPIPE)
		goto out;
	fflush(stdout);
	/* what was read of a damaged input is printed; the session says how
	 * much was not (status 1 unless -f) */
	status = perf_session__read_status(c->session, "sched", c->force);
out:
	fflush(stdout);
	sched__delete(c->sc);
	perf_session__delete(c->session);
	return status;
}

/*
 * perf sched record: prf record system wide, one sample per event, with
 * the sched tracepoints perf 6.1 enables (sched_waking where the kernel
 * has it, else sched_wakeup; the schedstat ones where they exist).
 */
static int sched__record(int argc, const char **argv)
{
	static const char *const base[] = {
		"record", "-a", "-m", "1024", "-c", "1",
		"-e", "sched:sched_switch",
		"-e", "sched:sched_stat_runtime",
		"-e", "sched:sched_process_fork",
		"-e", "sched:sched_wakeup_new",
		"-e", "sched:sched_migrate_task",
	};
	static const char *const schedstat[] = {
		"sched:sched_stat_wait", "sched:sched_stat_sleep", "sched:sched_stat_iowait",
	};
	const char **rargv = calloc(ARRAY_SIZE(base) + 8 + (size_t)argc + 1, sizeof(*rargv));
	int n = 0, status;
	uint64_t id;

	if (!rargv)
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(base); i++)
		rargv[n++] = base[i];
	if (tracefs__event_id("sched", "sched_stat_wait", &id) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(schedstat); i++) {
			rargv[n++] = "-e";
			rargv[n++] = schedstat[i];
		}
	}
	rargv[n++] = "-e";
	rargv[n++] = tracefs__event_id("sched", "sched_waking", &id) == 0 ? "sched:sched_waking"
									   : "sched:sched_wakeup";
	for (int i = 1; i < argc; i++)
		rargv[n++] = argv[i];
	rargv[n] = NULL;
	status = cmd_record(n, rargv);
	free(rargv);
	return status;
}

/* Options of every subcommand (perf's parent options). */
#define SCHED_COMMON_OPTS(a)							\
	OPT_STRING('i', "input", &(a)->c->input, "file", "input file name"),	\
	OPT_INCR('v', "verbose", &verbose, "be more verbose (show symbol address, etc)"), \
	OPT_BOOLEAN('D', "dump-raw-trace", &(a)->dump, "dump raw trace in ASCII"), \
	OPT_BOOLEAN('f', "force", &(a)->c->force, "don't complain, do it (a partial result of a damaged file)")

struct sched_args {
	struct sched_run *c;
	bool dump;
};

static int parse_sub(int argc, const char **argv, const struct option *opts,
		     const char *const usage[])
{
	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 0)
		return -1;
	if (argc > 0) {
		fprintf(stderr, "prf sched: unexpected argument '%s'\n", argv[0]);
		usage_with_options(usage, opts);
		return -1;
	}
	return 0;
}

static int sched__latency(struct sched_run *c, struct sched_args *a, int argc, const char **argv)
{
	static const char *const usage[] = { "prf sched latency [<options>]", NULL };
	const struct option opts[] = {
		SCHED_COMMON_OPTS(a),
		OPT_STRING('s', "sort", &c->o.sort, "key[,key2...]",
			   "sort by key(s): runtime, switch, avg, max"),
		OPT_INTEGER('C', "CPU", &c->o.profile_cpu, "CPU to profile on"),
		OPT_BOOLEAN('p', "pids", &c->o.per_pid, "latency stats per pid instead of per comm"),
		OPT_BOOLEAN(0, "callchain", &c->o.callchain,
			    "show the stack where each task's worst delay began (recorded with -g)"),
		OPT_END()
	};

	if (parse_sub(argc, argv, opts, usage))
		return 129;
	c->o.cmd = SCHED_LATENCY;
	return sched__run(c);
}

static int sched__map(struct sched_run *c, struct sched_args *a, int argc, const char **argv)
{
	static const char *const usage[] = { "prf sched map [<options>]", NULL };
	const struct option opts[] = {
		SCHED_COMMON_OPTS(a),
		OPT_BOOLEAN(0, "compact", &c->o.compact, "map output in compact mode"),
		OPT_STRING(0, "color-pids", &c->o.color_pids, "pids", "highlight given pids in map"),
		OPT_STRING(0, "color-cpus", &c->o.color_cpus, "cpus", "highlight given CPUs in map"),
		OPT_STRING(0, "cpus", &c->o.map_cpus, "cpus", "display given CPUs in map"),
		OPT_END()
	};

	if (parse_sub(argc, argv, opts, usage))
		return 129;
	c->o.cmd = SCHED_MAP;
	return sched__run(c);
}

static int sched__timehist(struct sched_run *c, struct sched_args *a, int argc, const char **argv)
{
	static const char *const usage[] = { "prf sched timehist [<options>]", NULL };
	const char *vmlinux = NULL, *kallsyms = NULL, *symfs = NULL;
	const struct option opts[] = {
		SCHED_COMMON_OPTS(a),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('g', "call-graph", &c->o.show_callchain, "Display call chains if present (default on)"),
		OPT_UINTEGER(0, "max-stack", &c->o.max_stack, "Maximum number of functions to display backtrace."),
		OPT_STRING(0, "symfs", &symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN('s', "summary", &c->o.summary_only, "Show only syscall summary with statistics"),
		OPT_BOOLEAN('S', "with-summary", &c->o.summary, "Show all syscalls and summary with statistics"),
		OPT_BOOLEAN('w', "wakeups", &c->o.wakeups, "Show wakeup events"),
		OPT_BOOLEAN('n', "next", &c->o.next, "Show next task"),
		OPT_BOOLEAN('M', "migrations", &c->o.migrations, "Show migration events"),
		OPT_BOOLEAN('V', "cpu-visual", &c->o.cpu_visual, "Add CPU visual"),
		OPT_BOOLEAN('I', "idle-hist", &c->o.idle_hist, "Show idle events only"),
		OPT_STRING(0, "time", &c->time_str, "str", "Time span for analysis (start,stop)"),
		OPT_BOOLEAN(0, "state", &c->o.state, "Show task state when sched-out"),
		OPT_STRING('p', "pid", &c->o.pids, "pid[,pid...]", "analyze events only for given process id(s)"),
		OPT_STRING('t', "tid", &c->o.tids, "tid[,tid...]", "analyze events only for given thread id(s)"),
		OPT_STRING('C', "cpu", &c->o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_END()
	};

	c->o.show_callchain = true;
	c->o.max_stack = 5;
	if (parse_sub(argc, argv, opts, usage))
		return 129;
	if (c->o.summary_only && (c->o.wakeups || c->o.next)) {
		fprintf(stderr, " Error: -s and -[n|w] are mutually exclusive.\n");
		usage_with_options(usage, opts);
		return 129;
	}
	c->o.cmd = SCHED_TIMEHIST;
	return sched__run(c);
}

static int sched__replay(struct sched_run *c, struct sched_args *a, int argc, const char **argv)
{
	static const char *const usage[] = { "prf sched replay [<options>]", NULL };
	const struct option opts[] = {
		SCHED_COMMON_OPTS(a),
		OPT_UINTEGER('r', "repeat", &c->o.repeat, "repeat the workload replay N times (0: for ever)"),
		OPT_END()
	};

	c->o.repeat = 10;
	if (parse_sub(argc, argv, opts, usage))
		return 129;
	c->o.cmd = SCHED_REPLAY;
	return sched__run(c);
}

/* perf accepts a subcommand by a prefix of at least three letters for
 * record, latency and replay */
static bool is_sub(const char *arg, const char *name)
{
	size_t n = strlen(arg);

	return n > 2 && !strncmp(name, arg, n);
}

int cmd_sched(int argc, const char **argv)
{
	struct sched_run *c = calloc(1, sizeof(*c));
	struct sched_args a = { .c = c };
	const struct option opts[] = {
		SCHED_COMMON_OPTS(&a),
		OPT_END()
	};
	const char *sub;
	int status = 129;

	if (!c)
		return 1;
	c->o.profile_cpu = -1;
	argc = parse_options(argc, argv, opts, sched_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		goto out;
	if (argc == 0) {
		usage_with_options(sched_usage, opts);
		goto out;
	}
	sub = argv[0];
	c->o.verbose = verbose;
	if (is_sub(sub, "record")) {
		status = sched__record(argc, argv);
	} else if (is_sub(sub, "latency")) {
		status = sched__latency(c, &a, argc, argv);
	} else if (!strcmp(sub, "map")) {
		status = sched__map(c, &a, argc, argv);
	} else if (!strcmp(sub, "timehist")) {
		status = sched__timehist(c, &a, argc, argv);
	} else if (is_sub(sub, "replay")) {
		status = sched__replay(c, &a, argc, argv);
	} else if (!strcmp(sub, "script")) {
		argv[0] = "script";
		status = cmd_script(argc, argv);
	} else {
		fprintf(stderr, "prf sched: unknown command '%s'\n", sub);
		usage_with_options(sched_usage, opts);
	}
out:
	free(c);
	return status;
}
