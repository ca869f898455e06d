// SPDX-License-Identifier: GPL-2.0
/*
 * prf script: print the samples of a perf.data file as `perf script` does,
 * or (--folded) as folded stacks, one line per distinct stack.
 * Orchestration only: the session reads, the model resolves, the printer
 * (util/analysis/script-print.h) and folded (util/analysis/folded.h) print.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "../util/analysis/folded.h"
#include "../util/session/off-cpu.h"
#include "../util/analysis/sample-filter.h"
#include "../util/analysis/script-print.h"
#include "../util/analysis/srccode.h"
#include "../util/analysis/scripting.h"
#include "../util/session/trace-format.h"
#include "../util/session/dump.h"
#include "../util/session/resolve.h"
#include "../util/session/session.h"
#include "../util/kernel/evlist.h"
#include "../util/model/map.h"
#include "../util/model/dso.h"
#include "../util/kernel/evsel.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../ui/progress.h"

struct script_opts {
	struct perf_tool tool;		/* first: container_of */
	const char *input;
	bool nanosecs, header, show_mmap, show_task, show_switch, show_lost, hide_callchain;
	bool show_ns, show_cgroup, show_round;
	bool latency;			/* -L */
	bool reltime, deltatime;
	bool folded, annotate_kernel;
	bool force;			/* -f: a partial result of a damaged file exits 0 */
	bool fields_given;		/* -F was used */
	bool inline_frames;		/* --inline (default on; --no-inline) */
	const char *weight;
	const char *fold_event;		/* --folded --event: evsel name */
	const char *comms, *pids, *tids, *cpus, *time_str;
	const char *dsos, *symbols;	/* --dsos, -S/--symbols: the sample ip's */
	const char *symfs;
	bool header_only;
	bool dump;			/* -D: each record printed as perf does */
	bool per_event_dump;		/* samples into INPUT.EVENT.dump files */
	const char *script;		/* -s: run this script (its args follow) */
	const char *gen_script;		/* -g LANG: write a skeleton */
	bool list_scripts;		/* -l */
	struct script_runner *runner;
	unsigned int max_stack;
	int fields_err;

	/* run state */
	struct script_fields fields;
	struct script_printer printer;
	struct perf_session *session;
	struct resolved_sample rs;	/* the sample being printed */
	struct resolve_opts ropts;
	struct folded *fold;
	struct trace_formatter *tf;	/* tracepoint payloads, made on first use */
	struct off_cpu *oc;		/* --off-cpu recording: offcpu-time spans (the session's) */
	struct evsel *fold_evsel;	/* stackcollapse: first event seen */
	bool weight_period;
	bool setup_done;
	bool stopped;			/* output closed: stop quietly */
	int nr_checked;
	unsigned char *checked;		/* by evsel idx */
	bool slot_checked[SCRIPT_NR_TYPES];	/* perf checks the first evsel of a type */
	struct sample_filter filter;	/* --comms/--pid/--tid/--cpu */
	struct sample_time_filter time;	/* --time */
	struct script_dump *dumps;	/* --per-event-dump: by evsel idx */
	int nr_dumps;
	struct script_dump *cur_dump;	/* the printer writes into this one */
	struct srccode *srccode;	/* -F srccode */
};

/* One --per-event-dump file. */
struct script_dump {
	FILE *fp;
	char *name;
	uint64_t samples;
};

static const char *const script_usage[] = {
	"prf script [<options>]",
	"prf script [<options>] -s <script.py> [<script args>]",
	"prf script record|report <script> [<args>]",
	NULL
};

static int parse_fields_cb(const struct option *opt, const char *arg, int unset)
{
	struct script_opts *so = opt->value;
	char err[256];

	if (unset || !arg)
		return 0;
	if (script_fields__parse(&so->fields, arg, err, sizeof(err))) {
		fprintf(stderr, "prf script: %s\n", err);
		return -1;
	}
	so->fields_given = true;
	return 0;
}

/* Options that mean nothing together: a usage error naming them. 0 or -1. */
static int script__check_conflicts(const struct script_opts *so)
{
	const char *only_folded = so->weight ? "--weight" : so->annotate_kernel ? "--annotate-kernel" :
				  so->fold_event ? "--event" : NULL;
	const char *not_folded = so->fields_given ? "-F/--fields" : so->nanosecs ? "--ns" :
				 so->show_mmap ? "--show-mmap-events" :
				 so->show_task ? "--show-task-events" :
				 so->show_switch ? "--show-switch-events" :
				 so->show_lost ? "--show-lost-events" :
				 so->show_ns ? "--show-namespace-events" :
				 so->show_cgroup ? "--show-cgroup-events" :
				 so->show_round ? "--show-round-events" : so->latency ? "-L/--Latency" :
				 so->reltime ? "--reltime" : so->deltatime ? "--deltatime" :
				 so->hide_callchain ? "-G/--hide-call-graph" : so->header ? "--header" :
				 so->per_event_dump ? "--per-event-dump" : NULL;

	if (!so->folded && only_folded) {
		fprintf(stderr, "prf script: %s applies to --folded output only\n", only_folded);
		return -1;
	}
	if (so->folded && not_folded) {
		fprintf(stderr, "prf script: %s does not apply to --folded output\n", not_folded);
		return -1;
	}
	return 0;
}

/* Grow the array *arr of *nr elements of size elem to n (> *nr), the new
 * ones zeroed. 0 or -ENOMEM (the array unchanged). */
static int grow_zeroed(void **arr, int *nr, int n, size_t elem)
{
	char *a = realloc(*arr, (size_t)n * elem);

	if (!a)
		return -ENOMEM;
	memset(a + (size_t)*nr * elem, 0, (size_t)(n - *nr) * elem);
	*arr = a;
	*nr = n;
	return 0;
}

static struct script_opts *tool2opts(struct perf_tool *tool)
{
	return container_of(tool, struct script_opts, tool);
}

/* Per-evsel field checks, once (pipe input learns its events late). */
static int script__check_evsel(struct script_opts *so, struct evsel *evsel)
{
	char err[256];

	if (evsel->idx < 0)
		return 0;
	if (evsel->idx >= so->nr_checked &&
	    grow_zeroed((void **)&so->checked, &so->nr_checked, evsel->idx + 16, 1))
		return -ENOMEM;
	if (so->checked[evsel->idx])
		return 0;
	so->checked[evsel->idx] = 1;
	if (so->slot_checked[script_fields__slot(evsel->attr.type)])
		return 0;
	so->slot_checked[script_fields__slot(evsel->attr.type)] = true;
	if (script_fields__check(&so->fields, evsel, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* Does any event type print one of the fields? */
static bool script__fields_any(const struct script_opts *so, uint32_t fields)
{
	for (int i = 0; i < SCRIPT_NR_TYPES; i++)
		if (so->fields.fields[i] & fields)
			return true;
	return false;
}

/* A page fault's address resolves to a symbol and DSO (perf: only
 * those software events' addresses are code or data of the task). */
static bool addr_is_fault(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS ||
		evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/*
 * The fields printed off the common path that need the resolver: the
 * symbol/DSO of a page fault's address (-F addr with sym or dso) and the
 * source line of -F srccode.
 */
static void script__resolve_extra(struct script_opts *so, struct evsel *evsel, uint32_t f,
				  bool chain_done)
{
	struct resolved_sample *rs = &so->rs;

	so->printer.addr_dso = NULL;
	so->printer.srccode = NULL;
	if ((f & SF_ADDR) && (f & (SF_SYM | SF_DSO)) && addr_is_fault(evsel)) {
		struct addr_location al;

		memset(&al, 0, sizeof(al));
		resolved_sample__addr_location(rs, &al);
		so->printer.addr_has_sym = al.sym != NULL;
		so->printer.addr_sym = al.sym ? al.sym->name : NULL;
		so->printer.addr_symoff = al.sym ? al.addr - al.sym->start : 0;
		so->printer.addr_dso = al.map && al.map->dso ? al.map->dso->long_name : "[unknown]";
	}
	if (f & SF_SRCCODE) {
		resolved_sample__location(rs, chain_done);
		so->printer.srccode = srccode__line(so->srccode, (pid_t)rs->sample->tid, &rs->al);
	}
}

static int script__setup(struct script_opts *so)
{
	struct evlist *evlist = so->session->data.evlist;
	struct evsel *evsel;
	bool any_callchain = false, any = false;

	if (so->setup_done)
		return 0;
	so->setup_done = true;
	{
		int err;

		/* an off-CPU recording: the session delivers offcpu-time samples */
		so->oc = perf_session__off_cpu(so->session, &err);
		if (err)
			return err;
		/* fold the off-CPU stacks (in ns) unless --event names another */
		if (so->oc && so->folded &&
		    (!so->fold_event || !strcmp(so->fold_event, OFF_CPU_EVENT_NAME)))
			so->fold_evsel = off_cpu__evsel(so->oc);
		/* offcpu-time samples carry their switch-out time but are
		 * known at switch-in: print everything in time order */
		if (so->oc && so->per_event_dump) {
			pr_err("prf script: --per-event-dump does not apply to off-CPU recordings\n");
			return -EINVAL;
		}
		if (so->oc && !so->folded) {
			err = script_printer__set_reorder(&so->printer, true);
			if (err)
				return err;
		}
	}
	if (evlist) {
		evlist__for_each_entry(evlist, evsel) {
			any = true;
			if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				any_callchain = true;
		}
	}
	/* perf keeps the callchain layout on for pipes (events unknown up front) */
	so->printer.use_callchain = !so->hide_callchain && (any_callchain || !any || so->session->data.pipe);
	if (so->printer.use_callchain && evlist)
		script_fields__callchain_defaults(&so->fields, evlist, so->session->data.pipe);
	if (script__fields_any(so, SF_TOD) && !so->script) {
		const struct perf_env *env = &so->session->data.env;

		if (!env->clock_data) {
			pr_err("Can't provide 'tod' time, missing clock data. "
			       "Please record with -k/--clockid option.\n");
			return -EINVAL;
		}
		so->printer.have_tod = true;
		so->printer.tod_ns = env->clock_tod_ns;
		so->printer.tod_clock_ns = env->clock_clockid_ns;
	}
	if (script__fields_any(so, SF_SRCCODE) && !so->srccode && !(so->srccode = srccode__new()))
		return -ENOMEM;
	if (evlist && !so->script) {
		evlist__for_each_entry(evlist, evsel) {
			int err = script__check_evsel(so, evsel);

			if (err)
				return err;
		}
		script_printer__set_evlist(&so->printer, evlist);
	}
	return 0;
}

/*
 * --per-event-dump: the printer's output goes to INPUT.EVENT.dump of the
 * sample's evsel (perf's file name), opened on its first sample; side-band
 * records stay on stdout, as perf prints them.
 */
static int script__dump_switch(struct script_opts *so, struct evsel *evsel)
{
	struct script_dump *d;
	int err;

	if (evsel->idx < 0)
		return -EINVAL;
	if (evsel->idx >= so->nr_dumps &&
	    grow_zeroed((void **)&so->dumps, &so->nr_dumps, evsel->idx + 8, sizeof(*so->dumps)))
		return -ENOMEM;
	d = &so->dumps[evsel->idx];
	if (!d->fp) {
		if (asprintf(&d->name, "%s.%s.dump", so->input, evsel__name(evsel)) < 0) {
			d->name = NULL;
			return -ENOMEM;
		}
		d->fp = fopen(d->name, "w");
		if (!d->fp) {
			err = -errno;
			pr_err("prf script: cannot create %s: %s\n", d->name, strerror(errno));
			return err;
		}
	}
	d->samples++;
	if (d == so->cur_dump)
		return 0;
	so->cur_dump = d;
	return script_printer__set_output(&so->printer, d->fp);
}

/* Side-band records print on stdout also with --per-event-dump. */
static int script__dump_stdout(struct script_opts *so)
{
	if (!so->cur_dump)
		return 0;
	so->cur_dump = NULL;
	return script_printer__set_output(&so->printer, stdout);
}

/*
 * Close the --per-event-dump files, each announced on stdout as perf
 * does: the size is what perf finds on disk before its last flush, the
 * bytes written in whole stdio blocks (st_blksize). 0 or -EIO.
 */
static int script__dump_close(struct script_opts *so)
{
	int err = script__dump_stdout(so);

	for (int i = 0; i < so->nr_dumps; i++) {
		struct script_dump *d = &so->dumps[i];
		struct stat st;
		long size;

		if (!d->fp)
			continue;
		size = ftell(d->fp);
		if (fstat(fileno(d->fp), &st) || st.st_blksize <= 0)
			st.st_blksize = BUFSIZ;
		size -= size % st.st_blksize;
		printf("[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
		       (double)size / 1024.0 / 1024.0, d->name, d->samples);
		if (fclose(d->fp) && !err)
			err = -EIO;
		d->fp = NULL;
	}
	return err;
}

static void script__dump_free(struct script_opts *so)
{
	for (int i = 0; i < so->nr_dumps; i++) {
		if (so->dumps[i].fp)
			fclose(so->dumps[i].fp);
		free(so->dumps[i].name);
	}
	free(so->dumps);
}

static bool script__filtered(struct script_opts *so, struct perf_sample *sample, const char *comm)
{
	if (!sample_time_filter__match(&so->time, sample->time))
		return true;
	return !sample_filter__match(&so->filter, sample->pid, sample->tid, sample->cpu, comm);
}

/* Write the queued output no span still open can precede. */
static int script__drain(struct script_opts *so, int err)
{
	if (!err && so->oc && so->printer.reorder)
		err = script_printer__flush(&so->printer, off_cpu__pending_min(so->oc));
	return err;
}

static int script__stop(struct script_opts *so, int err)
{
	err = script__drain(so, err);
	if (err == -EPIPE) {
		so->stopped = true;
		return -EPIPE;
	}
	return err;
}

static int process_sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct script_opts *so = tool2opts(tool);
	struct resolved_sample *rs = &so->rs;
	const char *comm;
	int err;

	(void)event;
	if (!evsel)
		evsel = sample->evsel;
	if (!evsel)
		return 0;
	err = script__setup(so);
	if (!err && !so->runner)
		err = script__check_evsel(so, evsel);
	if (err)
		return err;
	sample__resolve(so->session, sample, evsel, rs);	/* no thread: comm ":-1" */
	comm = rs->comm;
	if (so->dump) {
		/* -D: the sample's thread and DSO, as perf's script resolves them */
		resolved_sample__location(rs, false);
		session_dump__resolved(comm, rs->thread ? rs->thread->tid : -1,
				       rs->al.map && rs->al.map->dso ? rs->al.map->dso->long_name : NULL);
	}
	if (script__filtered(so, sample, comm))
		return 0;
	if (so->filter.nr_dsos || so->filter.nr_syms) {
		/* as perf: the sample ip's DSO and symbol */
		resolved_sample__location(rs, false);
		if (!sample_filter__match_dso(&so->filter, rs->al.map ? rs->al.map->dso : NULL) ||
		    !sample_filter__match_sym(&so->filter, rs->al.sym ? rs->al.sym->name : NULL))
			return 0;
	}
	if (so->runner)
		return script_runner__sample(so->runner, evsel, sample, rs);

	if (so->folded) {
		if (!so->fold_evsel) {
			if (so->fold_event && strcmp(evsel__name(evsel), so->fold_event))
				return 0;
			so->fold_evsel = evsel;
		}
		if (so->fold_evsel != evsel)
			return 0;
		/* inlined frames as plain frames, as stackcollapse-perf.pl
		 * reads perf script's "sym (inlined)" lines */
		so->ropts.inline_frames = so->inline_frames;
		err = resolved_sample__callchain(so->session, rs, &so->ropts);
		if (err)
			return err;
		return folded__add_cursor(so->fold, 0, comm, &rs->cursor,
					  so->weight_period || (so->oc && evsel == off_cpu__evsel(so->oc)) ?
					  sample->period : 1);
	}

	{
		uint32_t f = so->fields.fields[script_fields__slot(evsel->attr.type)];
		bool chain = so->printer.use_callchain &&
			     (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
		const struct callchain_cursor *cursor = NULL;

		if (f & SF_IP) {
			so->ropts.max_stack = chain ? so->max_stack : 1;
			/* perf 6.1: inlined frames in callchains only; the
			 * sample line names the real function */
			so->ropts.inline_frames = chain && so->inline_frames;
			so->ropts.srcline = (f & SF_SRCLINE) != 0;
			err = resolved_sample__callchain(so->session, rs, &so->ropts);
			if (err)
				return err;
			cursor = &rs->cursor;
		}
		if (so->per_event_dump) {
			err = script__dump_switch(so, evsel);
			if (err)
				return err;
		}
		if (f & (SF_ADDR | SF_SRCCODE))
			script__resolve_extra(so, evsel, f, cursor != NULL);
		so->printer.trace_info = NULL;
		if ((f & SF_TRACE) && evsel->attr.type == PERF_TYPE_TRACEPOINT) {
			if (!so->tf)
				so->tf = trace_formatter__new_session(so->session);
			if (so->tf)
				so->printer.trace_info = trace_formatter__info(so->tf, evsel, sample);
		}
		err = script_printer__sample(&so->printer, evsel, sample, comm, cursor);
	}
	return script__stop(so, err);
}

/*
 * --show-switch-events/--show-lost-events: one record with the prefix of
 * its sample (the thread of sample pid/tid); as perf, only --cpu filters.
 */
static int script__print_record(struct script_opts *so, union perf_event *event,
				struct perf_sample *sample)
{
	struct evsel *evsel;
	int err;

	if (so->folded || so->runner || !sample || !sample_filter__match_cpu(&so->filter, sample->cpu))
		return 0;
	evsel = sample->evsel;
	if (!evsel && so->session->data.evlist && so->session->data.evlist->nr_entries)
		evsel = evlist__first(so->session->data.evlist);
	err = script__dump_stdout(so);
	if (!err)
		err = script_printer__sideband(&so->printer, evsel, event, sample,
				       perf_session__comm(so->session, (pid_t)sample->pid,
							  (pid_t)sample->tid));
	return script__stop(so, err);
}

static int process_lost(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine)
{
	struct script_opts *so = tool2opts(tool);
	int err = script__setup(so);

	(void)machine;
	return err ? err : script__print_record(so, event, sample);
}

/* PERF_RECORD_SWITCH: a switch-in of an off-CPU recording (taken by the
 * session) may have let older output through. */
static int process_switch(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct machine *machine)
{
	struct script_opts *so = tool2opts(tool);
	int err = script__setup(so);

	(void)machine;
	if (!err && so->runner)
		err = script_runner__switch(so->runner, event, sample);
	if (!err && so->show_switch)
		return script__print_record(so, event, sample);
	if (err || !so->oc)
		return err;
	return script__stop(so, 0);
}

static int process_sideband(struct perf_tool *tool, union perf_event *event,
			    struct perf_sample *sample, struct machine *machine)
{
	struct script_opts *so = tool2opts(tool);
	struct evsel *evsel = sample ? sample->evsel : NULL;
	bool show;
	pid_t pid, tid;
	int err;

	err = perf_session__process_sideband(so->session, event, sample);
	if (!err && so->runner)
		err = script_runner__sideband(so->runner, event, sample);
	if (err)
		return err;
	switch (event->header.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		show = so->show_mmap;
		pid = (pid_t)event->mmap.pid;
		tid = (pid_t)event->mmap.tid;
		break;
	case PERF_RECORD_COMM:
		show = so->show_task;
		pid = (pid_t)event->comm.pid;
		tid = (pid_t)event->comm.tid;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		show = so->show_task;
		pid = (pid_t)event->fork.pid;
		tid = (pid_t)event->fork.tid;
		break;
	case PERF_RECORD_NAMESPACES:
		show = so->show_ns;
		pid = (pid_t)event->namespaces.pid;
		tid = (pid_t)event->namespaces.tid;
		break;
	case PERF_RECORD_CGROUP:
		show = so->show_cgroup;
		pid = sample ? (pid_t)sample->pid : -1;
		tid = sample ? (pid_t)sample->tid : -1;
		break;
	default:
		return 0;
	}
	if (!show || so->folded || !sample)
		return 0;
	err = script__setup(so);
	if (err)
		return err;
	if (!evsel && so->session->data.evlist && so->session->data.evlist->nr_entries)
		evsel = evlist__first(so->session->data.evlist);
	if (pid == -1)
		pid = 0;
	err = script__dump_stdout(so);
	if (!err)
		err = script_printer__sideband(&so->printer, evsel, event, sample,
				       perf_session__comm(so->session, pid, tid));
	return script__stop(so, err);
}

/* --show-round-events: PERF_RECORD_FINISHED_ROUND as perf prints it (no
 * sample prefix); records come in file order then (see cmd_script()). */
static int process_round(struct perf_session *s, union perf_event *event)
{
	struct script_opts *so = tool2opts(s->tool);

	(void)event;
	if (so->folded || so->runner)
		return 0;
	return script__stop(so, script_printer__text(&so->printer, "PERF_RECORD_FINISHED_ROUND\n"));
}

/* -g LANG */
static int script__gen(struct script_opts *so)
{
	if (strcmp(so->gen_script, "python") && strcmp(so->gen_script, "py")) {
		fprintf(stderr, "prf script: -g: unknown language '%s' (python)\n", so->gen_script);
		return 129;
	}
	return scripting__generate_python(so->session, "perf-script.py") ? 1 : 0;
}

static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

int cmd_script(int argc, const char **argv)
{
	static char outbuf[1 << 20];
	struct script_opts *so = zalloc(sizeof(*so));
	int err = 0, status = 1;

	if (!so)
		return 1;
	so->max_stack = 127;
	so->inline_frames = true;
	script_fields__init(&so->fields);
	{
		const struct option options[] = {
			OPT_STRING('i', "input", &so->input, "file", "input file name (\"-\": stdin)"),
			OPT_CALLBACK('F', "fields", so, "str",
				     "comma separated output fields; +field/-field add or remove; "
				     "'hw:', 'sw:', 'trace:', 'raw:', 'break:' select an event type. "
				     "Fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,"
				     "srcline,period,callindent,misc,tod,flags,weight,phys_addr,data_src,iregs,uregs,srccode,bpf-output", parse_fields_cb),
			OPT_BOOLEAN(0, "ns", &so->nanosecs, "Use 9 decimal places when displaying time"),
			OPT_BOOLEAN('L', "Latency", &so->latency,
				    "show latency attributes (irqs/preemption disabled, etc)"),
			OPT_BOOLEAN('D', "dump-raw-trace", &so->dump, "dump raw trace in ASCII"),
			OPT_BOOLEAN(0, "header", &so->header, "Show data header"),
			OPT_BOOLEAN(0, "header-only", &so->header_only, "Show only data header"),
			OPT_STRING(0, "symfs", &so->symfs, "directory",
				   "Look for files with symbols relative to this directory"),
			OPT_BOOLEAN(0, "per-event-dump", &so->per_event_dump,
				    "Dump trace output to files named by the monitored events"),
			OPT_BOOLEAN(0, "show-mmap-events", &so->show_mmap, "Show the mmap events"),
			OPT_BOOLEAN(0, "show-task-events", &so->show_task, "Show the fork/comm/exit events"),
			OPT_BOOLEAN(0, "show-switch-events", &so->show_switch, "Show the switch events"),
			OPT_BOOLEAN(0, "show-lost-events", &so->show_lost, "Show lost events (if recorded)"),
			OPT_BOOLEAN(0, "show-namespace-events", &so->show_ns, "Show namespace events (if recorded)"),
			OPT_BOOLEAN(0, "show-cgroup-events", &so->show_cgroup, "Show cgroup events (if recorded)"),
			OPT_BOOLEAN(0, "show-round-events", &so->show_round, "Show round events (if recorded)"),
			OPT_BOOLEAN(0, "reltime", &so->reltime, "Show time stamps relative to start"),
			OPT_BOOLEAN(0, "deltatime", &so->deltatime, "Show time stamps relative to previous event"),
			OPT_STRING('c', "comms", &so->comms, "comm[,comm...]", "only display events for these comms"),
			OPT_STRING(0, "dsos", &so->dsos, "dso[,dso...]", "only consider symbols in these DSOs"),
			OPT_STRING('S', "symbols", &so->symbols, "symbol[,symbol...]", "only consider these symbols"),
			OPT_STRING(0, "pid", &so->pids, "pid[,pid...]", "only consider these pids"),
			OPT_STRING(0, "tid", &so->tids, "tid[,tid...]", "only consider these tids"),
			{ .type = OPTION_STRING, .long_name = "pids", .value = &so->pids, .argh = "pid[,pid...]",
			  .help = "same as --pid", .flags = PARSE_OPT_HIDDEN },
			{ .type = OPTION_STRING, .long_name = "tids", .value = &so->tids, .argh = "tid[,tid...]",
			  .help = "same as --tid", .flags = PARSE_OPT_HIDDEN },
			OPT_STRING('C', "cpu", &so->cpus, "cpu", "list of cpus to profile"),
			OPT_STRING(0, "time", &so->time_str, "str", "Time span of interest: START,STOP in seconds, several ranges separated by spaces, or percent slices (10%/2, 0%-10%, comma separated)"),
			OPT_BOOLEAN('G', "hide-call-graph", &so->hide_callchain, "When printing symbols do not display call chain"),
			OPT_UINTEGER(0, "max-stack", &so->max_stack,
				     "Set the maximum stack depth when parsing the callchain (default 127)"),
			OPT_BOOLEAN(0, "folded", &so->folded,
				    "Print folded stacks (stackcollapse-perf.pl lines) instead of samples"),
			OPT_STRING(0, "weight", &so->weight, "samples|period", "--folded: count samples (default) or sum periods"),
			OPT_BOOLEAN(0, "annotate-kernel", &so->annotate_kernel, "--folded: append _[k] to kernel frames"),
			OPT_STRING(0, "event", &so->fold_event, "name", "--folded: fold this event (default: the first seen)"),
			OPT_BOOLEAN(0, "inline", &so->inline_frames,
				    "Show inline functions in DWARF callchains (default; --no-inline: off)"),
			OPT_BOOLEAN('f', "force", &so->force,
				    "exit 0 with a partial output of a damaged or truncated file"),
			OPT_STRING('s', "script", &so->script, "file",
				   "run a Python script (perf-script-python(1)); its arguments follow"),
			OPT_BOOLEAN('l', "list", &so->list_scripts, "list the installed scripts"),
			OPT_STRING('g', "gen-script", &so->gen_script, "lang",
				   "write a script skeleton for the file's events (lang: python)"),
			OPT_INCR('v', "verbose", &verbose, "be more verbose"),
			OPT_END()
		};

		/* as perf: a script's arguments, or record/report NAME ARGS,
		 * follow the first non-option */
		argc = parse_options(argc, argv, options, script_usage, PARSE_OPT_STOP_AT_NON_OPTION);
		if (argc < 0) {
			status = 129;
			goto out;
		}
		if (so->list_scripts) {
			status = scripting__list(stdout) ? 1 : 0;
			goto out;
		}
		if (argc > 0 && !so->script &&
		    (!strcmp(argv[0], "record") || !strcmp(argv[0], "report"))) {
			if (argc < 2) {
				fprintf(stderr, "prf script %s: which script? (prf script -l lists them)\n", argv[0]);
				status = 129;
				goto out;
			}
			status = scripting__run_installed(argv[1], argv[0], argc - 2, argv + 2);
			goto out;
		}
		if (argc > 0 && !so->script) {
			fprintf(stderr, "prf script: unexpected argument '%s' (a script runs with -s FILE)\n", argv[0]);
			usage_with_options(script_usage, options);
			status = 129;
			goto out;
		}
	}
	if (so->max_stack < 1 || so->max_stack > 1024) {
		fprintf(stderr, "prf script: --max-stack must be between 1 and 1024\n");
		status = 129;
		goto out;
	}
	if (so->reltime && so->deltatime) {
		fprintf(stderr, "prf script: --reltime and --deltatime exclude each other\n");
		status = 129;
		goto out;
	}
	if (script__check_conflicts(so)) {
		status = 129;
		goto out;
	}
	if (so->weight) {
		if (!strcmp(so->weight, "period")) {
			so->weight_period = true;
		} else if (strcmp(so->weight, "samples")) {
			fprintf(stderr, "prf script: --weight takes 'samples' or 'period', not '%s'\n", so->weight);
			status = 129;
			goto out;
		}
	}
	{
		struct sample_filter_args fa = {
			.cmd = "script", .comms = so->comms, .pids = so->pids,
			.dsos = so->dsos, .symbols = so->symbols,
			.tids = so->tids, .cpus = so->cpus,
		};

		if (sample_filter__parse(&so->filter, &fa) || sample_time_filter__parse(&so->time, "script", so->time_str)) {
			status = 129;
			goto out;
		}
	}
	if (!so->input)
		so->input = default_input();

	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* as perf 6.1: showing the rounds delivers every record as it is
	 * read, in file order, not sorted by time */
	perf_tool__init(&so->tool, !so->show_round);
	so->tool.sample = process_sample;
	so->tool.mmap = process_sideband;
	so->tool.mmap2 = process_sideband;
	so->tool.comm = process_sideband;
	so->tool.fork = process_sideband;
	so->tool.exit = process_sideband;
	so->tool.namespaces = process_sideband;
	so->tool.cgroup = process_sideband;
	if (so->show_round)
		so->tool.finished_round = process_round;
	so->tool.context_switch = process_switch;
	if (so->show_lost)
		so->tool.lost = process_lost;
	/* repeated chains are resolved once, and printed from their text
	 * (best effort: without the cache every sample is resolved) */
	resolved_sample__init(&so->rs, true);
	so->ropts.max_stack = so->max_stack;
	if (script_printer__init(&so->printer, stdout, &so->fields))
		goto out;
	so->printer.nanosecs = so->nanosecs;
	so->printer.latency = so->latency;
	so->printer.reltime = so->reltime;
	so->printer.deltatime = so->deltatime;
	so->printer.unbatched = so->dump;
	if (so->folded) {
		struct folded_opts fo = { .annotate_kernel = so->annotate_kernel };

		so->fold = folded__new(&fo);
		if (!so->fold)
			goto out;
	}

	so->session = perf_session__new(so->input, &so->tool, &err);
	if (!so->session)	/* the session said what and where */
		goto out;
	so->session->machine->symfs = so->symfs;
	perf_session__enable_off_cpu(so->session);
	so->session->dump = so->dump;
	so->session->dump_script = true;
	if (so->header_only) {
		perf_data__fprintf_info(&so->session->data, stdout, false);
		status = 0;
		goto out;
	}
	if (sample_time_filter__resolve(&so->time, so->session->data.env.sample_time_start,
					so->session->data.env.sample_time_end)) {
		pr_err("prf script: --time %s: percent ranges need the file's sample times "
		       "(HEADER_SAMPLE_TIME), which %s has not\n", so->time_str, so->input);
		status = 129;
		goto out;
	}
	/* a bar on the terminal while the output goes elsewhere or comes at the end */
	if (so->folded || !isatty(STDOUT_FILENO))
		so->session->progress = ui_progress__reading;
	if (so->gen_script) {
		status = script__gen(so);
		goto out;
	}
	if (so->script) {
		const char **sargv = calloc((size_t)argc + 2, sizeof(*sargv));

		if (!sargv)
			goto out;
		sargv[0] = so->script;
		memcpy(sargv + 1, argv, (size_t)argc * sizeof(*argv));
		so->runner = script_runner__new(so->session, argc + 1, sargv, &status);
		free(sargv);
		if (!so->runner)
			goto out;
	}
	if (so->header && !so->folded) {
		perf_data__fprintf_info(&so->session->data, stdout, false);
	}
	if (!so->session->data.pipe) {
		err = script__setup(so);
		if (err)
			goto out;
	}
	err = perf_session__process_events(so->session);
	if (!so->stopped && err != -EPIPE) {
		/* spans still open at the end are dropped: all queued output,
		 * and the text gathered since the last write */
		int e = script_printer__set_reorder(&so->printer, false);

		if (!e)
			e = script_printer__flush(&so->printer, UINT64_MAX);

		if (e == -EPIPE)
			so->stopped = true;
		else if (e && !err)
			err = e;
	}
	if (so->runner) {
		if (!err)
			err = script_runner__end(so->runner);
		if (err == -ECANCELED) {
			status = script_runner__status(so->runner);
			goto out;
		}
	}
	if (so->stopped || err == -EPIPE) {
		status = 0;
		goto out;
	}
	if (err && !perf_session__input_damage(so->session, err)) {
		fprintf(stderr, "prf script: processing %s failed: %s\n", so->input, strerror(-err));
		goto out;
	}
	if (so->folded) {
		if (so->fold_event && !so->fold_evsel) {
			fprintf(stderr, "prf script: %s has no samples of event '%s'\n", so->input, so->fold_event);
			goto out;
		}
		err = folded__fprintf(so->fold, stdout);
		if (err && err != -EPIPE)
			goto out;
	}
	if (so->per_event_dump && script__dump_close(so))
		goto out;
	fflush(stdout);
	status = perf_session__read_status(so->session, "script", so->force);
out:
	script_runner__delete(so->runner);	/* flushes the script's output */
	if (so->session)
		perf_session__delete(so->session);
	fflush(stdout);
	resolved_sample__exit(&so->rs);
	script_printer__exit(&so->printer);
	folded__delete(so->fold);
	if (so->tf)
		trace_formatter__delete(so->tf);
	sample_filter__exit(&so->filter);
	sample_time_filter__exit(&so->time);
	script__dump_free(so);
	srccode__delete(so->srccode);
	free(so->checked);
	free(so);
	return status;
}
