// SPDX-License-Identifier: GPL-2.0
/*
 * prf trace: syscalls as `perf trace` prints them, live (-- cmd, -p, -a)
 * or from a recording of the syscall tracepoints (-i perf.data; `prf trace
 * record` makes one). Orchestration only: the session (file) or the live
 * session (ring buffers) delivers the samples, util/analysis/trace.h
 * prints them, util/analysis/syscall-fmt.h decodes the syscalls.
 */
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "../util/analysis/syscall-fmt.h"
#include "../util/analysis/trace.h"
#include "../util/session/live.h"
#include "../util/session/session.h"
#include "../arch/x86/perf_regs.h"
#include "../util/kernel/callchain-record.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/tracefs.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/util.h"

struct trace_cmd {
	struct perf_tool tool;		/* first: container_of */
	const char *input, *output, *expr, *duration_str;
	const char *pid_str, *tid_str, *cpu_list;
	bool system_wide, no_inherit, syscalls;
	const char *pf;			/* -F: all, maj, min */
	bool summary_only, with_summary, errno_summary, failure, full_time, show_comm;
	bool force;			/* -f: a damaged -i file's partial result exits 0 */
	bool sched;			/* --sched: runtime per thread in the summary */
	bool kernel_syscall_graph;	/* --kernel-syscall-graph */
	const char *call_graph;		/* --call-graph MODE[,SIZE] */
	struct callchain_record cg;
	uint64_t max_events;		/* --max-events; 0: no limit */
	int max_stack, min_stack;	/* --max-stack (-1: not given), --min-stack */
	unsigned int mmap_pages;
	FILE *out;
	struct perf_session *session;	/* the file's or the live one */
	struct live *live;		/* live tracing */
	struct syscall_tbl *tbl;
	struct syscall_trace *st;
	int *nrs;			/* -e syscalls */
	int nr_nrs;
	bool negate;
};

static volatile sig_atomic_t done;

static const char *const trace_usage[] = {
	"prf trace [<options>] [<command>]",
	"prf trace [<options>] -- <command> [<options>]",
	"prf trace -i <file> [<options>]",
	"prf trace record [<options>] [<command>]",
	NULL
};

static int trace__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			 struct evsel *evsel, struct machine *machine)
{
	struct trace_cmd *tc = container_of(tool, struct trace_cmd, tool);
	int err = syscall_trace__sample(tc->st, tc->session, evsel, sample);

	/* --max-events: stop tracing, the workload going on as with perf */
	if (syscall_trace__done(tc->st) && !done) {
		if (tc->live)
			live__release_workload(tc->live);
		done = 1;
	}
	return err;
}

/* Live, as perf: the ring buffer overflowed. */
static int trace__lost(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		       struct machine *machine)
{
	struct trace_cmd *tc = container_of(tool, struct trace_cmd, tool);

	fprintf(tc->out, "LOST %llu events!\n", (unsigned long long)event->lost.lost);
	return 0;
}

static int add_nr(struct trace_cmd *tc, int nr)
{
	int *n = realloc(tc->nrs, (tc->nr_nrs + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	tc->nrs = n;
	tc->nrs[tc->nr_nrs++] = nr;
	return 0;
}

/* -e/--expr: syscall names or globs, comma separated, '!' first to
 * exclude them. 0, or -1 after a message. */
static int trace__parse_expr(struct trace_cmd *tc)
{
	char *copy, *tok, *save = NULL;
	const char *s = tc->expr;
	int err = 0;

	if (!s)
		return 0;
	if (*s == '!') {
		tc->negate = true;
		s++;
	}
	copy = strdup(s);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		int nr = syscall_tbl__nr(tc->tbl, tok), found = 0;

		if (nr >= 0) {
			err = add_nr(tc, nr);
			continue;
		}
		for (nr = 0; nr < 1024 && !err; nr++) {
			const char *name = syscall_tbl__name(tc->tbl, nr);

			if (name && !fnmatch(tok, name, 0)) {
				err = add_nr(tc, nr);
				found++;
			}
		}
		if (!found && !err) {
			fprintf(stderr, "prf trace: no syscall matches '%s'\n", tok);
			err = -1;
		}
	}
	free(copy);
	return err ? -1 : 0;
}

static int trace__open_output(struct trace_cmd *tc)
{
	struct stat st;

	if (!tc->output) {
		tc->out = stderr;
		return 0;
	}
	/* as perf: a non-empty old file is kept as FILE.old */
	if (!stat(tc->output, &st) && st.st_size) {
		char old[4096];

		snprintf(old, sizeof(old), "%s.old", tc->output);
		unlink(old);
		rename(tc->output, old);
	}
	tc->out = fopen(tc->output, "w");
	if (!tc->out) {
		fprintf(stderr, "prf trace: cannot open %s: %s\n", tc->output, strerror(errno));
		return -1;
	}
	return 0;
}

static int trace__make_view(struct trace_cmd *tc, bool live)
{
	struct syscall_trace_opts o = {
		.out = tc->out,
		.summary = tc->summary_only || tc->with_summary,
		.summary_only = tc->summary_only,
		.errno_summary = tc->errno_summary,
		.failure_only = tc->failure,
		.full_time = tc->full_time,
		.show_comm = tc->show_comm,
		.live = live,
		.duration_ms = tc->duration_str ? atof(tc->duration_str) : 0,
		/* perf trace -i reads all the file, --max-events or not */
		.max_events = live ? tc->max_events : 0,
		.max_stack = tc->max_stack > 0 ? (unsigned int)tc->max_stack : 0,
		.min_stack = (unsigned int)tc->min_stack,
		.sched = tc->sched,
	};

	tc->st = syscall_trace__new(&o, tc->tbl);
	if (!tc->st || syscall_trace__set_filter(tc->st, tc->nrs, tc->nr_nrs, tc->negate)) {
		fprintf(stderr, "prf trace: out of memory\n");
		return -1;
	}
	return 0;
}

static int trace__make_tbl(struct trace_cmd *tc, const char *arch)
{
	int err = 0;

	tc->tbl = syscall_tbl__new(arch, &err);
	if (!tc->tbl) {
		fprintf(stderr, "prf trace: no syscall table for %s: %s\n",
			arch ? arch : "this machine", strerror(-err));
		return -1;
	}
	return trace__parse_expr(tc) ? 129 : 0;
}

/* -i: replay a recording of the syscall tracepoints. */
static int trace__replay(struct trace_cmd *tc)
{
	struct evsel *evsel;
	bool any = false;
	int err = 0, status = 1;

	perf_tool__init(&tc->tool, true);
	tc->tool.sample = trace__sample;
	tc->session = perf_session__new(tc->input, &tc->tool, &err);
	if (!tc->session)
		return 1;
	status = trace__make_tbl(tc, tc->session->data.env.arch);
	if (status)
		goto out;
	status = 1;
	if (trace__make_view(tc, false))
		goto out;
	evlist__for_each_entry(tc->session->data.evlist, evsel)
		any |= syscall_trace__handles(tc->st, tc->session, evsel);
	if (!any && !tc->session->data.pipe) {
		fprintf(stderr, "prf trace: %s has no raw_syscalls:sys_enter/sys_exit or "
			"syscalls:sys_enter_*/sys_exit_* events (record them with 'prf trace record')\n",
			tc->input);
		goto out;
	}
	err = perf_session__process_events(tc->session);
	if (err && !perf_session__input_damage(tc->session, err)) {
		fprintf(stderr, "prf trace: processing %s failed: %s\n", tc->input, strerror(-err));
		goto out;
	}
	if (tc->summary_only || tc->with_summary)
		syscall_trace__print_summary(tc->st, tc->session);
	fflush(stdout);
	status = perf_session__read_status(tc->session, "trace", tc->force);
out:
	return status;
}

/* evsel's tracepoint filter: "(ids) && own", either part may be empty.
 * 0 or -ENOMEM. */
static int evsel__set_trace_filter(struct evsel *evsel, const struct strbuf *ids,
				   const struct strbuf *own)
{
	bool has_ids = ids && ids->len;
	struct strbuf f;

	if (!has_ids && !own->len)
		return 0;
	strbuf_init(&f, 64);
	if (has_ids && own->len)
		strbuf_addf(&f, "(%s) && %s", ids->buf, own->buf);
	else
		strbuf_addstr(&f, has_ids ? ids->buf : own->buf);
	free(evsel->filter);
	evsel->filter = strbuf_detach(&f, NULL);
	return evsel->filter ? 0 : -ENOMEM;
}

/* The live events: raw_syscalls:sys_enter/sys_exit, every hit, with the
 * kernel filtering -e's syscalls and, system wide, prf's own. */
static struct evlist *trace__live_evlist(struct trace_cmd *tc)
{
	struct evlist *evlist = evlist__new();
	bool syscalls = tc->syscalls || tc->expr || !tc->pf;
	struct strbuf f, own;
	struct evsel *evsel;

	if (!evlist)
		return NULL;
	if (syscalls && parse_events(evlist, "raw_syscalls:sys_enter,raw_syscalls:sys_exit", NULL))
		goto fail;
	if (tc->sched && parse_events(evlist, "sched:sched_stat_runtime", NULL))
		goto fail;
	/* -F: every page fault, with its data address */
	if (tc->pf && strcmp(tc->pf, "min") && parse_events(evlist, "major-faults", NULL))
		goto fail;
	if (tc->pf && strcmp(tc->pf, "maj") && parse_events(evlist, "minor-faults", NULL))
		goto fail;
	/* the kernel filters -e's syscalls on the syscall tracepoints and,
	 * system wide, prf's own events on all of them */
	strbuf_init(&f, 64);
	for (int i = 0; i < tc->nr_nrs; i++)
		strbuf_addf(&f, "%s%s %s %d", i ? (tc->negate ? " && " : " || ") : "", "id",
			    tc->negate ? "!=" : "==", tc->nrs[i]);
	strbuf_init(&own, 32);
	if (tc->system_wide || tc->cpu_list)
		strbuf_addf(&own, "common_pid != %d", (int)getpid());
	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *a = &evsel->attr;
		bool sys = !strncmp(evsel->name ? evsel->name : "", "raw_syscalls:", 13);
		bool sys_exit = sys && !strcmp(evsel->name + 13, "sys_exit");

		a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
		a->sample_period = 1;
		a->freq = 0;
		/* as perf: callchains on the syscall exits and page faults,
		 * user frames only unless --kernel-syscall-graph */
		if (a->type != PERF_TYPE_TRACEPOINT || sys_exit) {
			callchain_record__config(&tc->cg, a, PERF_REGS_X86_64_USER_MASK);
			if (tc->max_stack > 0)
				a->sample_max_stack = (uint16_t)tc->max_stack;
			if (sys_exit && !tc->kernel_syscall_graph)
				a->exclude_callchain_kernel = 1;
		}
		if (a->type != PERF_TYPE_TRACEPOINT) {
			a->sample_type |= PERF_SAMPLE_ADDR;
			a->mmap_data = 1;
			continue;
		}
		a->sample_type |= PERF_SAMPLE_RAW;
		if (evsel__set_trace_filter(evsel, sys ? &f : NULL, &own))
			goto fail_bufs;
	}
	strbuf_release(&f);
	strbuf_release(&own);
	return evlist;
fail_bufs:
	strbuf_release(&f);
	strbuf_release(&own);
fail:
	evlist__delete(evlist);
	return NULL;
}

/* perf's words when the syscall tracepoints cannot be read (unprivileged
 * user, tracefs not mounted). 0 when they can. */
static int trace__check_tracefs(struct trace_cmd *tc)
{
	char path[512];
	int err = 0;
	const char *mnt;

	if (tc->pf && !tc->syscalls && !tc->expr)
		return 0;
	mnt = tracefs__mountpoint(&err);
	if (!mnt && access("/sys/kernel/tracing", R_OK | X_OK) && errno == EACCES)
		mnt = "/sys/kernel/tracing";	/* mounted, but not for us */
	if (!mnt) {
		fprintf(stderr, "Error:\tUnable to find tracefs\nHint:\t%s\n", tracefs__mount_hint());
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/raw_syscalls", mnt);
	if (access(path, R_OK | X_OK) && errno == EACCES) {
		fprintf(stderr, "Error:\tNo permissions to read %s/sys_(enter|exit)\n"
			"Hint:\tTry 'sudo mount -o remount,mode=755 %s/'\n", path, mnt);
		return -1;
	}
	return 0;
}

/* Live: the command, -p/-t tasks or the system, until it ends or ^C. */
static int trace__live(struct trace_cmd *tc, const char **argv)
{
	struct live_target t = {
		.pid_str = tc->pid_str, .tid_str = tc->tid_str, .cpu_list = tc->cpu_list,
		.system_wide = tc->system_wide,
		/* perf trace follows no children of -p/-t tasks */
		.no_inherit = tc->no_inherit || tc->pid_str || tc->tid_str,
		.mmap_pages = tc->mmap_pages,
		.synth_kernel = tc->pf != NULL,	/* fault ips in the kernel */
	};
	struct evlist *evlist;
	struct live *live;
	int err = 0, status;

	status = trace__make_tbl(tc, NULL);
	if (status)
		return status;
	if (trace__make_view(tc, true))
		return 1;
	if (trace__check_tracefs(tc))
		return 1;
	evlist = trace__live_evlist(tc);
	if (!evlist) {
		fprintf(stderr, "prf trace: cannot set up raw_syscalls:sys_enter/sys_exit%s\n",
			tc->pf ? " or the page fault events" : "");
		return 1;
	}
	perf_tool__init(&tc->tool, false);
	tc->tool.sample = trace__sample;
	tc->tool.lost = trace__lost;
	/* room for bursts of syscalls: 4 MB per cpu when root may lock it
	 * (perf trace's size with callchains too) */
	if (!t.mmap_pages)
		t.mmap_pages = geteuid() == 0 ? 1024 : 128;
	live__stop_on_signals(&done);
	live = live__new(evlist, &t, argv, &tc->tool, &err);
	if (!live)
		return 1;
	tc->session = live__session(live);
	tc->live = live;
	/* as perf: comm/tid only when more than one thread can show up */
	syscall_trace__set_single_thread(tc->st, live__nr_threads(live) == 1 &&
					 (t.no_inherit || tc->pid_str || tc->tid_str) &&
					 !tc->system_wide && !tc->cpu_list);
	err = live__run(live, &done);
	if (live__exec_error(live)) {
		fprintf(stderr, "Workload failed: %s\n", strerror(-err));
		live__delete(live);
		return 255;
	}
	for (uint64_t i = 0; i < live__nr_records(live); i++)
		syscall_trace__count_record(tc->st);
	if (!err && (tc->summary_only || tc->with_summary))
		syscall_trace__print_summary(tc->st, tc->session);
	fflush(tc->out);
	if (err)
		fprintf(stderr, "prf trace: %s\n", strerror(-err));
	status = err ? 1 : live__exit_status(live);
	live__delete(live);
	tc->session = NULL;
	tc->live = NULL;
	return status;
}

/* trace record: prf record of the syscall tracepoints (as perf trace
 * record: every hit, 1024-page buffers), the rest of argv passed on. */
static int trace__record(int argc, const char **argv)
{
	const char *pre[] = { "record", "-m", "1024", "-c", "1", "-e",
			      "raw_syscalls:sys_enter,raw_syscalls:sys_exit" };
	const char **rargv = calloc(ARRAY_SIZE(pre) + argc + 1, sizeof(*rargv));
	int n = 0, status;

	if (!rargv)
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(pre); i++)
		rargv[n++] = pre[i];
	for (int i = 1; i < argc; i++)
		rargv[n++] = argv[i];
	status = cmd_record(n, rargv);
	free(rargv);
	return status;
}

int cmd_trace(int argc, const char **argv)
{
	static char outbuf[1 << 16];
	struct trace_cmd tc = { .show_comm = true, .max_stack = -1 };
	const struct option options[] = {
		OPT_STRING('i', "input", &tc.input, "file", "Analyze events in file"),
		OPT_STRING('o', "output", &tc.output, "file", "output file name"),
		OPT_STRING('e', "expr", &tc.expr, "expr", "list of syscalls to trace ('!' first: all but these)"),
		OPT_STRING('p', "pid", &tc.pid_str, "pid", "trace events on existing process id"),
		OPT_STRING('t', "tid", &tc.tid_str, "tid", "trace events on existing thread id"),
		OPT_BOOLEAN('a', "all-cpus", &tc.system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &tc.cpu_list, "cpu", "list of cpus to monitor"),
		OPT_BOOLEAN(0, "no-inherit", &tc.no_inherit, "child tasks do not inherit counters"),
		OPT_UINTEGER('m', "mmap-pages", &tc.mmap_pages, "number of mmap data pages"),
		OPT_STRING(0, "duration", &tc.duration_str, "float", "show only events with duration > N.M ms"),
		OPT_BOOLEAN('T', "time", &tc.full_time, "Show full timestamp, not time relative to first start"),
		OPT_BOOLEAN(0, "failure", &tc.failure, "Show only syscalls that failed"),
		OPT_BOOLEAN('s', "summary", &tc.summary_only, "Show only syscall summary with statistics"),
		OPT_BOOLEAN('S', "with-summary", &tc.with_summary, "Show all syscalls and summary with statistics"),
		OPT_BOOLEAN(0, "errno-summary", &tc.errno_summary, "Show errno stats per syscall, use with -s or -S"),
		OPT_STRING_OPTARG('F', "pf", &tc.pf, "all|maj|min", "Trace pagefaults", "maj"),
		OPT_BOOLEAN(0, "syscalls", &tc.syscalls, "Trace syscalls"),
		OPT_BOOLEAN(0, "comm", &tc.show_comm, "show the thread COMM next to its id"),
		OPT_BOOLEAN('f', "force", &tc.force, "with -i: exit 0 on a damaged file's partial result"),
		OPT_STRING(0, "call-graph", &tc.call_graph, "record_mode[,record_size]",
			   "setup and enables call-graph (stack chain/backtrace): fp, dwarf[,size], lbr"),
		OPT_BOOLEAN(0, "kernel-syscall-graph", &tc.kernel_syscall_graph,
			    "Show the kernel callchains on the syscall exit path"),
		OPT_INTEGER(0, "max-stack", &tc.max_stack,
			    "Set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_INTEGER(0, "min-stack", &tc.min_stack,
			    "Set the minimum stack depth when parsing the callchain"),
		OPT_U64(0, "max-events", &tc.max_events,
			  "Set the maximum number of events to print, exit after that is reached"),
		OPT_BOOLEAN(0, "sched", &tc.sched, "show blocking scheduler events"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	int status;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return trace__record(argc - 1, argv + 1);
	/* perf takes "-F all" as well as "-Fall"/"--pf=all" (and -F alone: maj) */
	for (int i = 1; i + 1 < argc && strcmp(argv[i], "--"); i++) {
		if ((!strcmp(argv[i], "-F") || !strcmp(argv[i], "--pf")) &&
		    (!strcmp(argv[i + 1], "all") || !strcmp(argv[i + 1], "maj") ||
		     !strcmp(argv[i + 1], "min"))) {
			tc.pf = argv[i + 1];
			memmove(&argv[i], &argv[i + 2], (argc - i - 1) * sizeof(*argv));
			argc -= 2;
			i--;
		}
	}
	argc = parse_options(argc, argv, options, trace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return 129;
	if (tc.duration_str) {
		char *end;

		strtod(tc.duration_str, &end);
		if (end == tc.duration_str || *end) {
			fprintf(stderr, "prf trace: bad --duration '%s' (milliseconds)\n", tc.duration_str);
			return 129;
		}
	}
	if (tc.pf && strcmp(tc.pf, "all") && strcmp(tc.pf, "maj") && strcmp(tc.pf, "min")) {
		fprintf(stderr, "prf trace: bad -F/--pf '%s' (all, maj or min)\n", tc.pf);
		return 129;
	}
	if (tc.max_stack == 0 || tc.max_stack < -1 || tc.max_stack > 65535 || tc.min_stack < 0) {
		fprintf(stderr, "prf trace: bad --max-stack/--min-stack (1..65535 frames)\n");
		return 129;
	}
	if (tc.call_graph && callchain_record__parse(&tc.cg, tc.call_graph))
		return 129;
	/* as perf: a stack depth without --call-graph asks for dwarf chains */
	if (!tc.call_graph && (tc.min_stack || tc.max_stack > 0))
		callchain_record__parse(&tc.cg, "dwarf");
	if (tc.input && argc > 0) {
		fprintf(stderr, "prf trace: a command cannot be traced while reading %s (-i)\n", tc.input);
		return 129;
	}
	/* as perf: no command and no target traces the whole system */
	if (!tc.input && argc == 0 && !tc.pid_str && !tc.tid_str && !tc.cpu_list)
		tc.system_wide = true;
	if (trace__open_output(&tc))
		return 1;
	if (tc.input) {
		setvbuf(tc.out, outbuf, _IOFBF, sizeof(outbuf));
		status = trace__replay(&tc);
	} else {
		setvbuf(tc.out, NULL, _IOLBF, 0);
		status = trace__live(&tc, argv);
	}
	fflush(tc.out);
	if (tc.input && tc.session)
		perf_session__delete(tc.session);
	syscall_trace__delete(tc.st);
	syscall_tbl__delete(tc.tbl);
	free(tc.nrs);
	if (tc.out && tc.out != stderr)
		fclose(tc.out);
	return status;
}
