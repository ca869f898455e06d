// SPDX-License-Identifier: GPL-2.0
/*
 * prf report: read a perf.data file (prf record or Linux perf) and print
 * the profile as `perf report --stdio` does. Orchestration only: the
 * session reads and resolves each sample (util/session/resolve.h: thread,
 * callchain, the sample ip's location), util/analysis/hist.h accumulates
 * and ui/stdio/hist.h prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "../ui/pager.h"
#include "../ui/progress.h"
#include "../ui/stdio/hist.h"
#include "../ui/tui/annotate.h"
#include "../ui/tui/tui.h"
#include "../util/analysis/annotate.h"
#include "../util/analysis/callchain-tree.h"
#include "../util/analysis/hist.h"
#include "../util/analysis/hist-feed.h"
#include "../util/analysis/hist-group.h"
#include "../util/analysis/read-values.h"
#include "../util/analysis/report-tasks.h"
#include "../util/analysis/sample-filter.h"
#include "../util/analysis/sort.h"
#include "../util/session/dump.h"
#include "../util/session/resolve.h"
#include "../util/session/session.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/session/trace-format.h"
#include "../util/lib/debug.h"
#include "../util/lib/config.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/model/cgroup-names.h"
#include "../util/model/debuginfo.h"
#include "../util/model/map.h"

struct report_annotate;

struct report_opts {
	struct perf_tool tool;		/* first: container_of */
	struct report_annotate *annotate;	/* the TUI's 'a' counts, read on demand */
	/* options */
	const char *input;
	bool use_stdio, use_tui;
	bool show_nr_samples, show_period;
	bool stats_mode, header, header_only, quiet, inverted;
	bool force;			/* -f: a partial result of a damaged file exits 0 */
	int children;			/* -1 default, 0 --no-children, 1 --children */
	const char *sort, *fields, *parent_pattern;
	const char *comms, *dsos, *symbols, *pids, *tids, *cpus;
	const char *symfs, *kallsyms, *vmlinux;
	double min_percent;
	unsigned int max_stack;
	struct callchain_param cc;
	bool cc_given;

	/* run state */
	struct perf_session *session;
	struct sort_order so;
	struct resolve_opts ropts;
	struct resolved_sample rs;	/* the sample being added */
	struct hist_mem mem;		/* --mem-mode: its data address and source */
	struct hists **hists;		/* by evsel idx */
	struct hists_feed *feed;	/* adds resolved samples to the hists */
	struct trace_formatter *tf;	/* --sort trace: payload texts (interned) */
	int nr_hists;
	bool use_callchain, cumulate, need_chain;
	bool need_trace;		/* the trace sort key is used */
	bool weight_sort;		/* weight or local_weight sort key */
	bool addr_sort;			/* the addr sort key */
	bool socket_sort;		/* the socket sort key */
	bool cgroup_sort;		/* the cgroup sort key */
	bool mem_mode;			/* --mem-mode: samples' data addresses and sources */
	struct cgroup_names cgroups;	/* --sort cgroup: paths by id */
	bool srcline_sort;		/* the srcline sort key is used */
	bool inline_frames;		/* --inline (default on; --no-inline) */
	bool setup_done;
	int setup_err;
	struct sample_filter filter;	/* --comms/--dsos/--symbols/--pid/--tid/--cpu */
	struct sample_time_filter time;	/* --time */
	const char *time_str;
	bool hide_unresolved;		/* -U */
	bool relative;			/* --percentage relative */
	const char *field_sep;		/* -t */
	bool nanosecs;			/* --ns */
	bool tasks, mmaps;		/* --tasks, --mmaps: the task tree only */
	bool cpu_utilization;		/* --show-cpu-utilization */
	bool show_threads;		/* -T */
	bool show_info;			/* -I: the header's full feature info */
	struct read_values read_values;	/* -T: PERF_RECORD_READ counts */
	bool demangle;			/* --demangle (default) / --no-demangle */
	bool hierarchy;			/* --hierarchy: key columns as levels (stdio) */
	bool dump;			/* -D: the records printed, then the stats */
	bool group;			/* --group: a group's events as columns */
	bool group_set;			/* --group/--no-group given; else on when
					 * the file has groups, as perf */
	bool full_paths;		/* --full-source-path */
	/* taken for perf's command lines; they change only its TUI and
	 * annotate, not the stdio report */
	int samples;			/* --samples */
	const char *prefix, *prefix_strip;	/* --prefix, --prefix-strip */
	bool time_sort;			/* the time sort key is used */
	uint64_t time_quantum;		/* --time-quantum, ns (default 100ms) */
	struct callchain_cursor resolved;	/* -U: the chain's frames with a symbol */
	uint64_t nr_stats_samples;
};

static const char *const report_usage[] = {
	"prf report [<options>]",
	NULL
};

static struct report_opts *tool2rep(struct perf_tool *tool)
{
	return container_of(tool, struct report_opts, tool);
}

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Decide children/callchain settings once the events are known. */
static int report__setup(struct report_opts *rep)
{
	struct evlist *evlist = rep->session->data.evlist;
	struct evsel *evsel;
	bool any_callchain = false, any_dwarf = false;
	int err;

	if (rep->setup_done)
		return rep->setup_err;
	rep->setup_done = true;
	/* an off-CPU recording: the offcpu-time pseudo event joins the
	 * evlist, and its samples come from the session */
	perf_session__off_cpu(rep->session, &err);
	if (err) {
		rep->setup_err = err;
		return err;
	}
	if (evlist) {
		evlist__for_each_entry(evlist, evsel) {
			if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				any_callchain = true;
			if (evsel__has_dwarf_stack(evsel))
				any_dwarf = true;
		}
	}
	if (rep->cc_given && rep->cc.enabled && !any_callchain && !rep->session->data.pipe) {
		pr_err("Selected -g but no callchain data. Did you call 'perf record' without -g?\n");
		rep->setup_err = -EINVAL;
		return rep->setup_err;
	}
	if (rep->mem_mode && !rep->session->data.pipe) {
		bool any_src = false;

		evlist__for_each_entry(evlist, evsel)
			any_src |= !!(evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC);
		if (!any_src) {
			pr_err("Error:\nSelected --mem-mode but no mem data. "
			       "Did you call perf record without -d?\n");
			rep->setup_err = -EINVAL;
			return rep->setup_err;
		}
	}
	rep->use_callchain = any_callchain && rep->cc.mode != CHAIN_NONE &&
			     !(rep->cc_given && !rep->cc.enabled);
	rep->cumulate = rep->children < 0 ? any_callchain : (rep->children && any_callchain);
	if (!rep->cc.order_set)
		rep->cc.order = rep->cumulate ? ORDER_CALLER : ORDER_CALLEE;
	if (rep->session->data.pipe) {
		/* perf 6.1 decides on children before a pipe's events are
		 * known, finds no callchains and shows none (even with
		 * --children); the callchain order stays the one children
		 * would have had */
		rep->cumulate = false;
		if (!rep->cc.order_set)
			rep->cc.order = rep->children ? ORDER_CALLER : ORDER_CALLEE;
	}
	if (rep->inverted)
		rep->cc.order = ORDER_CALLER;
	/* perf 6.1: --hierarchy turns children off once the callchain order
	 * was chosen by it */
	if (rep->hierarchy || rep->mem_mode)	/* perf: no children in mem mode */
		rep->cumulate = false;

	err = sort_order__parse_mode(&rep->so, rep->sort, rep->fields, rep->cumulate,
				     rep->show_nr_samples, rep->show_period, rep->parent_pattern,
				     rep->mem_mode);
	if (!err && rep->cpu_utilization)
		err = sort_order__add_cpu_utilization(&rep->so);
	if (err) {
		rep->setup_err = err;
		return err;
	}
	if (rep->filter.cpu_set && evlist) {
		bool has_cpu = false;

		evlist__for_each_entry(evlist, evsel)
			if (evsel->attr.sample_type & PERF_SAMPLE_CPU)
				has_cpu = true;
		if (!has_cpu) {
			pr_err("File does not contain CPU events. Remove -C option to proceed.\n");
			rep->setup_err = -EINVAL;
			return rep->setup_err;
		}
	}
	/* perf hides a key column that a one-item filter leaves single-valued
	 * (not a level of --hierarchy) */
	if (rep->hierarchy)
		;
	else if (rep->filter.nr_comms == 1)
		sort_order__elide(&rep->so, SORT_COMM);
	if (rep->filter.nr_dsos == 1)
		sort_order__elide(&rep->so, SORT_DSO);
	if (rep->filter.nr_syms == 1)
		sort_order__elide(&rep->so, SORT_SYM);
	rep->need_chain = rep->use_callchain || rep->cumulate || rep->so.need_parent;
	rep->ropts.max_stack = rep->max_stack;
	rep->srcline_sort = sort_order__has_key(&rep->so, SORT_SRCLINE) ||
			    sort_order__has_key(&rep->so, SORT_SRCFILE);
	/* -g ...,address|srcline print frames with their source lines */
	rep->ropts.srcline = rep->srcline_sort ||
			     (rep->use_callchain && rep->cc.key != CCKEY_FUNCTION);
	rep->ropts.inline_frames = rep->inline_frames;
	rep->need_trace = sort_order__has_key(&rep->so, SORT_TRACE);
	rep->time_sort = sort_order__has_key(&rep->so, SORT_TIME);
	rep->weight_sort = sort_order__has_key(&rep->so, SORT_WEIGHT) ||
			   sort_order__has_key(&rep->so, SORT_LOCAL_WEIGHT);
	rep->addr_sort = sort_order__has_key(&rep->so, SORT_ADDR);
	rep->socket_sort = sort_order__has_key(&rep->so, SORT_SOCKET);
	rep->cgroup_sort = sort_order__has_key(&rep->so, SORT_CGROUP);
	rep->so.cgroups = &rep->cgroups;
	rep->so.nanosecs = rep->nanosecs;
	/*
	 * Adding samples to the hists on a second CPU pays for frame-pointer
	 * callchains (resolving and adding cost about the same). DWARF
	 * samples are dominated by unwinding, which has workers of its own.
	 */
	rep->feed = hists_feed__new(rep->need_chain && !any_dwarf);
	if (!rep->feed) {
		rep->setup_err = -ENOMEM;
		return rep->setup_err;
	}
	return 0;
}

static struct hists *report__hists(struct report_opts *rep, struct evsel *evsel)
{
	int idx = evsel->idx < 0 ? 0 : evsel->idx;

	if (idx >= rep->nr_hists) {
		int n = idx + 8;
		struct hists **h = realloc(rep->hists, (size_t)n * sizeof(*h));

		if (!h)
			return NULL;
		memset(h + rep->nr_hists, 0, (size_t)(n - rep->nr_hists) * sizeof(*h));
		rep->hists = h;
		rep->nr_hists = n;
	}
	if (!rep->hists[idx]) {
		struct hists *h = zalloc(sizeof(*h));

		if (!h || hists__init(h, &rep->so, &rep->cc, rep->use_callchain)) {
			free(h);
			return NULL;
		}
		h->store.key = rep->cc.key;	/* before any frame is interned */
		rep->hists[idx] = h;
	}
	return rep->hists[idx];
}

static bool report__filtered(struct report_opts *rep, struct perf_sample *sample,
			     struct hist_sample *hs, struct addr_location *al)
{
	return sample_filter__active(&rep->filter) &&
	       (!sample_filter__match_task(&rep->filter, sample->pid, sample->tid, hs->comm) ||
	       !sample_filter__match_dso(&rep->filter, al->map ? al->map->dso : NULL) ||
	       !sample_filter__match_sym(&rep->filter, al->sym ? al->sym->name : NULL));
}

/* Progress: file offset of the record being delivered, past the header. */
/*
 * perf names the single value of a one-item --comms/--dsos/--symbols filter
 * whose column it hides, one line per such column, in column order (-F
 * fields, else the sort keys), and only for keys that are columns.
 */
static void report__print_elided(const struct report_opts *rep)
{
	const char *spec = rep->fields ? rep->fields : rep->sort ? rep->sort : "comm,dso,sym";
	bool done_comm = false, done_dso = false, done_sym = false;
	char *copy = strdup(spec), *tok, *save = NULL;

	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		if (!strcmp(tok, "comm") && !done_comm) {
			done_comm = true;
			if (rep->filter.nr_comms == 1)
				printf("# comm: %s\n", rep->filter.comm_list[0]);
		} else if (!strcmp(tok, "dso") && !done_dso) {
			done_dso = true;
			if (rep->filter.nr_dsos == 1)
				printf("# dso: %s\n", rep->filter.dso_list[0]);
		} else if ((!strcmp(tok, "sym") || !strcmp(tok, "symbol")) && !done_sym) {
			done_sym = true;
			if (rep->filter.nr_syms == 1)
				printf("# symbol: %s\n", rep->filter.sym_list[0]);
		}
	}
	free(copy);
}

static void report__progress(struct report_opts *rep)
{
	uint64_t off = perf_data__cur_offset(&rep->session->data);

	ui_progress__update(off > rep->session->data.data_offset ? off - rep->session->data.data_offset : 0);
}

/*
 * -U: the frames of cursor that have a symbol, in rep->resolved (as perf
 * skips unresolved callchain entries); the copy has no chain identity.
 * NULL on allocation failure.
 */
static const struct callchain_cursor *report__resolved_frames(struct report_opts *rep,
							      const struct callchain_cursor *cursor)
{
	struct callchain_cursor *r = &rep->resolved;

	if (r->alloc < cursor->nr) {
		struct callchain_frame *f = realloc(r->frames, cursor->nr * sizeof(*f));

		if (!f)
			return NULL;
		r->frames = f;
		r->alloc = cursor->nr;
	}
	r->nr = 0;
	for (unsigned int i = 0; i < cursor->nr; i++) {
		if (cursor->frames[i].sym)
			r->frames[r->nr++] = cursor->frames[i];
	}
	r->truncated = cursor->truncated;
	r->discarded = cursor->discarded;
	r->chain_id = 0;
	return r;
}

static int process_sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct report_opts *rep = tool2rep(tool);
	struct resolved_sample *rs = &rep->rs;
	struct hist_sample hs;
	struct hists *hists;
	int err;

	(void)event;
	report__progress(rep);
	if (!evsel)
		evsel = sample->evsel;
	if (!evsel)
		return 0;
	if (unlikely(!rep->setup_done || rep->setup_err)) {
		err = report__setup(rep);
		if (err)
			return err;
	}
	/* as perf: samples outside --time and --cpu count nowhere */
	if (!sample_filter__match_cpu(&rep->filter, sample->cpu) ||
	    !sample_time_filter__match(&rep->time, sample->time))
		return 0;
	err = sample__resolve(rep->session, sample, evsel, rs);
	if (err)
		return err;
	if (rep->need_chain) {
		err = resolved_sample__callchain(rep->session, rs, &rep->ropts);
		if (err)
			return err;
	}
	resolved_sample__location(rs, rep->need_chain);
	/* -U, as perf: a sample without a symbol counts nowhere */
	if (rep->hide_unresolved && !rs->al.sym)
		return 0;
	hists = report__hists(rep, evsel);
	if (!hists)
		return -ENOMEM;
	hist_sample__from_resolved(&hs, rs);
	/*
	 * As perf: a sample a filter rejects still counts in the totals and in
	 * the entries it lands in; an entry is hidden when the sample that
	 * created it was rejected.
	 */
	hs.filtered = rs->al.filtered || report__filtered(rep, sample, &hs, &rs->al);
	if (rep->time_sort)
		hs.time = sample->time / rep->time_quantum * rep->time_quantum;
	if (rep->weight_sort)
		hs.weight = sample->weight;
	if (rep->addr_sort)
		hs.ip = sample->ip;
	if (rep->cgroup_sort)
		hs.cgroup = sample->cgroup;
	if (rep->mem_mode) {
		/* perf's mem mode: the weight is the period (1 without one) */
		hs.period = sample->weight ? sample->weight : 1;
		if (rep->so.mem_keys) {
			struct addr_location dal;

			memset(&dal, 0, sizeof(dal));
			resolved_sample__data_location(rs, &dal);
			rep->mem = (struct hist_mem){
				.daddr = sample->addr, .daddr_dso = dal.addr, .ddso = dal.map ? dal.map->dso : NULL,
				.dsym = dal.sym, .data_src = sample->data_src,
				.ins_lat = sample->ins_lat,
			};
			hs.mem = &rep->mem;
		}
	}
	if (rep->socket_sort)
		hs.socket = perf_env__cpu_socket(&rep->session->data.env, hs.cpu);
	if (rep->need_trace) {
		if (!rep->tf && !(rep->tf = trace_formatter__new_session(rep->session)))
			return -ENOMEM;
		hs.trace = trace_formatter__info_intern(rep->tf, evsel, sample);
		if (!hs.trace)
			return -ENOMEM;
	}
	if (rep->need_chain)
		hs.chain = rep->hide_unresolved ? report__resolved_frames(rep, &rs->cursor) : &rs->cursor;
	if (!hs.chain && rep->need_chain)
		return -ENOMEM;
	if (rep->srcline_sort)
		hs.srcline = resolved_sample__srcline(rs);
	if (rs->thread->pid == -1 || hs.mem) {
		/* the process may be learnt from a later sample, and the entry
		 * takes the pid the thread has when the sample is added: add
		 * now, after the queued ones (also a sample whose hist_mem
		 * lives in rep->mem) */
		err = hists_feed__sync(rep->feed);
		return err ? err : hists__add_sample(hists, &hs);
	}
	return hists_feed__add(rep->feed, hists, &hs);
}

/* Before the model changes (a side-band record): the queued samples
 * point into it. */
static int report__model_barrier(struct perf_tool *tool)
{
	return hists_feed__sync(tool2rep(tool)->feed);
}

/* PERF_RECORD_SWITCH (the session took the switch-ins of an off-CPU
 * recording already): the events are known by now. */
static int process_switch(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct machine *machine)
{
	struct report_opts *rep = tool2rep(tool);

	(void)event;
	(void)sample;
	(void)machine;
	return rep->stats_mode || rep->tasks ? 0 : report__setup(rep);
}

/* PERF_RECORD_CGROUP: the path of a cgroup id, for the cgroup key */
static int process_cgroup(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct machine *machine)
{
	int err = cgroup_names__add_event(&tool2rep(tool)->cgroups, event);

	(void)sample;
	(void)machine;
	return err == -EINVAL ? 0 : err;	/* a bad record names nothing */
}

static int count_sample(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct report_opts *rep = tool2rep(tool);

	(void)event;
	rep->nr_stats_samples++;
	report__progress(rep);
	if (!evsel)
		evsel = sample->evsel;
	/* unwind DWARF samples to count truncated stacks */
	if (evsel__has_dwarf_stack(evsel) && machine &&
	    !sample__resolve(rep->session, sample, evsel, &rep->rs))
		resolved_sample__callchain(rep->session, &rep->rs, &rep->ropts);
	return 0;
}

/* -D: a sample's thread and DSO, as perf's report resolves them */
static int dump_sample(struct perf_tool *tool, union perf_event *event,
		       struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct report_opts *rep = tool2rep(tool);
	struct resolved_sample *rs = &rep->rs;
	int err;

	(void)event;
	(void)machine;
	err = sample__resolve(rep->session, sample, evsel, rs);
	if (err)
		return err;
	resolved_sample__location(rs, false);
	session_dump__resolved(rs->comm, rs->thread ? rs->thread->tid : -1,
			       rs->al.map && rs->al.map->dso ? rs->al.map->dso->long_name : NULL);
	return 0;
}

/* -T: a PERF_RECORD_READ adds its value to its thread's count */
static int process_read(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine)
{
	struct report_opts *rep = tool2rep(tool);
	struct evsel *evsel = perf_data__event_evsel(&rep->session->data, event);

	(void)sample;
	(void)machine;
	if (!evsel && rep->session->data.evlist && !list_empty(&rep->session->data.evlist->entries))
		evsel = evlist__first(rep->session->data.evlist);
	if (!evsel)
		return 0;
	return read_values__add(&rep->read_values, (pid_t)event->read.pid, (pid_t)event->read.tid,
				evsel->idx, evsel__name(evsel), event->read.value);
}

/* --tasks/--mmaps: a sample only makes its thread known, as perf's
 * resolving does */
static int tasks_sample(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	(void)tool;
	(void)event;
	(void)evsel;
	if (machine && !machine__findnew_thread(machine, (pid_t)sample->pid, (pid_t)sample->tid))
		return -ENOMEM;
	return 0;
}

static int parse_callchain_cb(const struct option *opt, const char *arg, int unset)
{
	struct report_opts *rep = opt->value;

	rep->cc_given = true;
	if (unset) {
		rep->cc.enabled = false;
		rep->cc.mode = CHAIN_NONE;
		return 0;
	}
	return callchain_param__parse(&rep->cc, arg) ? -1 : 0;
}

/* --percent-limit or report.percent-limit (what names it in the message). */
static int report__set_percent_limit(struct report_opts *rep, const char *arg, const char *what)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || (*end && strcmp(end, "%")) || v < 0 || v > 100) {
		fprintf(stderr, "prf report: invalid %s '%s'\n", what, arg);
		return -1;
	}
	rep->min_percent = v;
	rep->cc.min_percent = v;	/* as perf: the callchain threshold too */
	return 0;
}

/* --percentage or report.percentage: relative or absolute (perf's words). */
static int report__set_percentage(struct report_opts *rep, const char *arg)
{
	if (!strcmp(arg, "relative")) {
		rep->relative = true;
	} else if (!strcmp(arg, "absolute")) {
		rep->relative = false;
	} else {
		fprintf(stderr, "prf report: invalid --percentage '%s' (relative or absolute)\n", arg);
		return -1;
	}
	return 0;
}

static int parse_percentage_cb(const struct option *opt, const char *arg, int unset)
{
	if (unset || !arg)
		return 0;
	return report__set_percentage(opt->value, arg);
}

/* --time-quantum: a number with ns (the default unit), us, ms or s. */
static int parse_time_quantum_cb(const struct option *opt, const char *arg, int unset)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	struct report_opts *rep = opt->value;
	char *end;
	unsigned long long v;

	if (unset || !arg)
		return 0;
	v = strtoull(arg, &end, 10);
	for (size_t i = 0; end != arg && *arg != '-' && i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (!v) {
			fprintf(stderr, "prf report: time quantum cannot be 0\n");
			return -1;
		}
		rep->time_quantum = v * units[i].ns;
		return 0;
	}
	fprintf(stderr, "prf report: cannot parse time quantum '%s' (a number with ns, us, ms or s)\n",
		arg);
	return -1;
}

static int parse_percent_limit_cb(const struct option *opt, const char *arg, int unset)
{
	if (unset || !arg)
		return 0;
	return report__set_percent_limit(opt->value, arg, "--percent-limit");
}

/*
 * The configuration keys report honours (perf-config(1)), as defaults the
 * command line overrides: report.children, report.percent-limit,
 * report.percentage,
 * report.sort_order and the call-graph.* display keys. 0 or -1 after a
 * message about a bad value.
 */
static int report__config(struct report_opts *rep)
{
	const char *v;
	bool b;
	int err = config__get_bool("report.children", &b);

	if (err > 0)
		rep->children = b;
	v = config__get("report.percent-limit");
	if (err < 0 || (v && report__set_percent_limit(rep, v, "report.percent-limit")))
		return -1;
	v = config__get("report.percentage");
	if (v && report__set_percentage(rep, v))
		return -1;
	v = config__get("report.sort_order");
	if (v)
		rep->sort = v;
	return callchain_param__config(&rep->cc) ? -1 : 0;
}

static int children_cb(const struct option *opt, const char *arg, int unset)
{
	struct report_opts *rep = opt->value;

	(void)arg;
	rep->children = unset ? 0 : 1;
	return 0;
}

/* Whether s looks like a -g argument (perf accepts "-g folded" with the
 * value as a separate word; our option parser takes optional values only
 * attached, so such pairs are joined before parsing). */
static bool is_callchain_arg(const char *s)
{
	static const char *const words[] = {
		"graph", "flat", "fractal", "folded", "none", "caller", "callee",
		"function", "address", "srcline", "percent", "period", "count", "fp", "dwarf", "lbr",
	};
	size_t len = strcspn(s, ",");

	if (!len)
		return false;
	if ((s[0] >= '0' && s[0] <= '9') || s[0] == '.')
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == len && !strncmp(words[i], s, len))
			return true;
	return false;
}

/* Join "-g ARG" / "--call-graph ARG" into one word. Returns the new argc;
 * the joined strings are kept in *keep (freed by the caller). */
static int join_callchain_args(int argc, const char **argv, char ***keep, int *nr_keep)
{
	int out = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if ((!strcmp(argv[i], "-g") || !strcmp(argv[i], "--call-graph")) &&
		    i + 1 < argc && is_callchain_arg(argv[i + 1])) {
			char *j = malloc(strlen(argv[i + 1]) + 16);
			char **k = realloc(*keep, (size_t)(*nr_keep + 1) * sizeof(*k));

			if (!j || !k) {
				free(j);
				if (k)
					*keep = k;
				argv[out++] = argv[i];
				continue;
			}
			*keep = k;
			sprintf(j, "--call-graph=%s", argv[i + 1]);
			k[(*nr_keep)++] = j;
			argv[out++] = j;
			i++;
			continue;
		}
		argv[out++] = argv[i];
	}
	return out;
}

static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

/* "Truncated DWARF stacks: N of M samples (X%)": user stacks whose copy
 * ended before the outermost frame (util/model/callchain.h). */
static const char *report__truncated_line(struct report_opts *rep)
{
	static char buf[128];
	uint64_t n = rep->rs.cursor.nr_truncated, m = rep->rs.cursor.nr_unwound;

	snprintf(buf, sizeof(buf), "Truncated DWARF stacks: %llu of %llu samples (%.2f%%)",
		 (unsigned long long)n, (unsigned long long)m, m ? 100.0 * (double)n / (double)m : 0.0);
	return buf;
}

/*
 * --group: the section of the group led by leader, its members' hists
 * side by side (util/analysis/hist-group.h), headed as perf 6.1 heads it.
 * 0 or -errno.
 */
static int report__print_group(struct report_opts *rep, struct evsel *leader, bool forced,
			       const struct hists_fprintf_opts *fo)
{
	struct hists *hs[HIST_GROUP_MAX];
	struct hist_group g;
	struct evsel *evsel, *members[HIST_GROUP_MAX];
	uint64_t nr_samples = 0, total = 0;
	unsigned long nr;
	char unit;
	int n = 0, err;

	evlist__for_each_entry(rep->session->data.evlist, evsel) {
		if ((!forced && evsel->leader != leader) || n == HIST_GROUP_MAX)
			continue;
		hs[n] = report__hists(rep, evsel);
		if (!hs[n] || hists__output_resort(hs[n], &rep->so))
			return -ENOMEM;
		nr_samples += hs[n]->nr_samples;
		total += hs[n]->total_period;
		members[n++] = evsel;
	}
	/* the key widths and order come from the leader's resort */
	if (hists__output_resort(hs[0], &rep->so))
		return -ENOMEM;
	err = hist_group__build(&g, hs, n, &rep->so);
	if (err)
		return err;
	if (!rep->quiet) {
		nr = convert_unit(nr_samples, &unit);
		/* perf names a group it made of all events (the file has
		 * none) without the "anon group { }" */
		printf("# Samples: %lu%c of events '%s", nr, unit, forced ? "" : "anon group { ");
		for (int i = 0; i < n; i++)
			printf("%s%s", i ? ", " : "", evsel__name(members[i]));
		printf("%s'\n# Event count (approx.): %" PRIu64 "\n#\n", forced ? "" : " }", total);
	}
	err = hists__fprintf_group(&g, &rep->so, &rep->cc, fo, stdout);
	hist_group__exit(&g);
	if (err < 0)
		return err;
	printf("\n\n");
	return 0;
}

/* perf's "Sort order" line of --mem-mode: -s as given (with the
 * ipc_null key perf appends to one naming "symbol"), else its default */
static const char *report__mem_sort_order(struct report_opts *rep)
{
	static char buf[1024];

	if (!rep->sort)
		return MEM_SORT_ORDER;
	snprintf(buf, sizeof(buf), "%s%s", rep->sort,
		 strstr(rep->sort, "symbol") && !strstr(rep->sort, "ipc_null") ? ",ipc_null" : "");
	return buf;
}

static int report__print(struct report_opts *rep)
{
	struct evlist *evlist = rep->session->data.evlist;
	struct evsel *evsel;
	bool any = false, group, forced;

	if (evlist) {
		evlist__for_each_entry(evlist, evsel)
			if (evsel->idx >= 0 && evsel->idx < rep->nr_hists && rep->hists[evsel->idx] &&
			    rep->hists[evsel->idx]->nr_samples)
				any = true;
	}
	if (!any) {
		/* as perf: no lost-samples block when nothing is left to show
		 * (--time, -U or --cpu kept no sample) */
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", rep->input);
		return 0;
	}
	/* --group: perf makes one group of all events when the file has none;
	 * a file's own groups are shown so unless --no-group */
	group = (rep->group_set ? rep->group : evlist->nr_groups > 0) && !rep->hierarchy &&
		!rep->field_sep;
	forced = group && !evlist->nr_groups && evlist->nr_entries > 1;
	if (!rep->quiet)
		printf("#\n# Total Lost Samples: %llu\n#\n",
		       (unsigned long long)rep->session->data.stats.total_lost_samples);
	if (!rep->quiet && rep->rs.cursor.nr_unwound)
		printf("# %s\n#\n", report__truncated_line(rep));
	evlist__for_each_entry(evlist, evsel) {
		struct hists *hists = evsel->idx >= 0 && evsel->idx < rep->nr_hists ?
				      rep->hists[evsel->idx] : NULL;
		struct hists_fprintf_opts fo = {
			.show_header = !rep->quiet,
			.min_percent = rep->min_percent,
			.use_callchain = rep->use_callchain,
			.skip_first_sym = !rep->fields && rep->sort && !strncmp(rep->sort, "sym", 3),
			.field_sep = rep->field_sep,
		};
		int ret;

		if (group && (forced ? evsel != evlist__first(evlist) : evsel->leader != evsel))
			continue;	/* shown in its leader's table */
		if (group && (forced || evsel->nr_members > 1)) {
			ret = report__print_group(rep, evsel, forced, &fo);
			if (ret < 0)
				return ret;
			continue;
		}
		if (!hists || !hists->nr_samples)
			continue;	/* perf's --skip-empty default */
		if (rep->relative)
			hists__relative_totals(hists);
		if (hists__output_resort(hists, &rep->so))
			return -ENOMEM;
		if (!rep->quiet) {
			hists__fprintf_nr_sample_events(hists, evsel__name(evsel),
							evsel->leader == evsel && evsel->nr_members > 1,
							rep->time_str,
							rep->mem_mode ? report__mem_sort_order(rep) :
							NULL, stdout);
			printf("#\n");
		}
		if (rep->hierarchy)
			ret = hists__fprintf_hierarchy(hists, &rep->so, &rep->cc, &fo, stdout);
		else
			ret = hists__fprintf(hists, &rep->so, &rep->cc, &fo, stdout);
		if (ret < 0)
			return ret;
		printf("\n\n");
	}
	if (!rep->quiet)
		printf("#\n# (Tip: prf report --no-children shows self overhead only)\n#\n");
	if (rep->show_threads)
		read_values__fprintf(&rep->read_values, stdout);
	return 0;
}

/*
 * perf's choice of interface: the TUI unless --stdio, when stdout (and the
 * keyboard) is a terminal; --tui without a terminal falls back to stdio.
 */
static bool report__want_tui(const struct report_opts *rep)
{
	if (rep->use_stdio || rep->header || rep->header_only || rep->stats_mode || rep->field_sep ||
	    rep->tasks || rep->hierarchy || rep->dump)
		return false;
	return tui__usable() == 0;	/* terminals, TERM, libslang there */
}

/* 'a' in the browser: the file read once more, every sample counted at
 * its address (prf annotate's way), kept for later 'a's. */
struct report_annotate {
	struct perf_tool tool;		/* first: container_of */
	struct perf_session *session;
	struct resolved_sample rs;
	struct annotation_set *set;
};

static int report_annotate__sample(struct perf_tool *tool, union perf_event *event,
				   struct perf_sample *sample, struct evsel *evsel,
				   struct machine *machine)
{
	struct report_annotate *ra = (struct report_annotate *)tool;
	struct dso *dso;

	if (!evsel || sample__resolve(ra->session, sample, evsel, &ra->rs))
		return evsel ? -ENOMEM : 0;
	resolved_sample__location(&ra->rs, false);
	dso = ra->rs.al.map ? ra->rs.al.map->dso : NULL;
	if (!dso || !ra->rs.al.sym)
		return 0;
	return annotation_set__add(ra->set, evsel, dso, ra->rs.al.sym, ra->rs.al.addr,
				   sample->period);
}

static void report_annotate__delete(struct report_annotate *ra)
{
	if (!ra)
		return;
	annotation_set__delete(ra->set);
	if (ra->session)
		perf_session__delete(ra->session);
	resolved_sample__exit(&ra->rs);
	free(ra);
}

/* The counts of the whole file, read on the first 'a' (its messages
 * kept off the screen). NULL with *err = -errno. */
static struct report_annotate *report_annotate__new(const char *input, int *err)
{
	struct report_annotate *ra = zalloc(sizeof(*ra));
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

	*err = -ENOMEM;
	if (ra && !resolved_sample__init(&ra->rs, false) && (ra->set = annotation_set__new())) {
		perf_tool__init(&ra->tool, true);
		ra->tool.sample = report_annotate__sample;
		if (saved >= 0 && null >= 0)
			dup2(null, STDERR_FILENO);
		ra->session = perf_session__new(input, &ra->tool, err);
		if (ra->session) {
			*err = perf_session__process_events(ra->session);
			if (*err && perf_session__input_damage(ra->session, *err))
				*err = 0;
		}
		if (saved >= 0 && null >= 0)
			dup2(saved, STDERR_FILENO);
	}
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	if (*err) {
		report_annotate__delete(ra);
		return NULL;
	}
	return ra;
}

/* 'a' on an entry: its symbol (same DSO path, name and start) in the
 * annotate browser. 0, -ENOENT (no samples there), -ESPIPE (a pipe
 * cannot be read again) or -errno. */
static int report__tui_annotate(void *arg, struct hist_entry *he)
{
	struct report_opts *rep = arg;
	struct annotate_opts ao = { .percent_type = PERCENT_LOCAL_PERIOD };
	struct annotated_sym **all, *as = NULL;
	size_t nr = 0;
	int err;

	if (!he->sym || !he->map || !he->map->dso)
		return -ENOENT;
	if (rep->session->data.pipe)
		return -ESPIPE;
	if (!rep->annotate) {
		rep->annotate = report_annotate__new(rep->input, &err);
		if (!rep->annotate)
			return err;
	}
	all = annotation_set__sorted(rep->annotate->set, &nr);
	for (size_t i = 0; i < nr && !as; i++)
		if (!strcmp(all[i]->sym->name, he->sym->name) &&
		    all[i]->sym->start == he->sym->start &&
		    !strcmp(all[i]->dso->long_name, he->map->dso->long_name))
			as = all[i];
	if (!as)
		return -ENOENT;
	annotate_opts__config(&ao, NULL);	/* a bad value: named, default kept */
	return tui__browse_annotate(rep->annotate->set, &as, 1, &ao,
				    rep->annotate->session->data.env.cpuid);
}

/* Hand the hists of every event with samples to the TUI browser. */
static int report__browse(struct report_opts *rep)
{
	struct evlist *evlist = rep->session->data.evlist;
	struct tui_report_opts o = {
		.so = &rep->so,
		.cc = &rep->cc,
		.use_callchain = rep->use_callchain,
		.min_percent = rep->min_percent,
		.annotate = report__tui_annotate,
		.annotate_arg = rep,
	};
	struct tui_event *ev;
	struct evsel *evsel;
	int n = 0, err;

	ev = calloc((size_t)rep->nr_hists + 1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	if (evlist) {
		evlist__for_each_entry(evlist, evsel) {
			struct hists *hists = evsel->idx >= 0 && evsel->idx < rep->nr_hists ?
					      rep->hists[evsel->idx] : NULL;

			if (!hists || !hists->nr_samples)
				continue;
			if (hists__output_resort(hists, &rep->so)) {
				free(ev);
				return -ENOMEM;
			}
			ev[n].hists = hists;
			ev[n].name = evsel__name(evsel);
			n++;
		}
	}
	if (!n) {
		tui__exit();
		fprintf(stderr, "The %s data has no samples!\n", rep->input);
		free(ev);
		return 0;
	}
	err = tui__browse_report(ev, n, &o);
	tui__exit();
	free(ev);
	report_annotate__delete(rep->annotate);
	rep->annotate = NULL;
	return err;
}

static bool report__no_sample(struct perf_tool *tool, struct evsel *evsel, u32 cpu)
{
	(void)tool; (void)evsel; (void)cpu;
	return false;
}

int cmd_report(int argc, const char **argv)
{
	static char outbuf[1 << 20];
	struct report_opts *rep = zalloc(sizeof(*rep));
	char **joined = NULL;
	int err = 0, status = 1, nr_joined = 0;
	bool pipe_header;

	if (!rep)
		return 1;
	rep->children = -1;
	rep->max_stack = 127;
	rep->inline_frames = true;
	rep->time_quantum = 100000000;	/* perf's default: 100ms */
	rep->demangle = true;
	callchain_param__init(&rep->cc);
	if (report__config(rep))
		goto out;
	{
		const struct option options[] = {
			OPT_STRING('i', "input", &rep->input, "file", "input file name (\"-\": stdin)"),
			OPT_INCR('v', "verbose", &verbose, "be more verbose"),
			OPT_BOOLEAN('q', "quiet", &rep->quiet, "Do not show any message"),
			OPT_BOOLEAN('f', "force", &rep->force,
				    "exit 0 with a partial report of a damaged or truncated file"),
			OPT_BOOLEAN(0, "stats", &rep->stats_mode, "Display event stats"),
			OPT_BOOLEAN('D', "dump-raw-trace", &rep->dump, "dump raw trace in ASCII"),
			OPT_STRING('k', "vmlinux", &rep->vmlinux, "file", "vmlinux pathname"),
			OPT_STRING(0, "kallsyms", &rep->kallsyms, "file", "kallsyms pathname"),
			OPT_STRING(0, "symfs", &rep->symfs, "directory",
				   "Look for files with symbols relative to this directory"),
			OPT_BOOLEAN('n', "show-nr-samples", &rep->show_nr_samples,
				    "Show a column with the number of samples"),
			OPT_BOOLEAN(0, "show-total-period", &rep->show_period,
				    "Show a column with the sum of periods"),
			OPT_BOOLEAN(0, "show-cpu-utilization", &rep->cpu_utilization,
				    "Show sample percentage for different cpu modes"),
			OPT_BOOLEAN(0, "stdio", &rep->use_stdio, "Use the stdio interface"),
			OPT_BOOLEAN(0, "tui", &rep->use_tui, "Use the TUI interface (the default on a terminal)"),
			OPT_BOOLEAN(0, "header", &rep->header, "Show data header."),
			OPT_BOOLEAN(0, "header-only", &rep->header_only, "Show only data header."),
			OPT_BOOLEAN('I', "show-info", &rep->show_info,
				    "Display extended information about perf.data file"),
			OPT_BOOLEAN(0, "mem-mode", &rep->mem_mode, "mem access profile"),
			OPT_STRING('s', "sort", &rep->sort, "key[,key2...]",
				   "sort by key(s): comm, pid, tid, dso, sym, symoff, cpu, parent, srcline, "
				   "trace, time, weight, local_weight, addr, socket, cgroup"),
			OPT_STRING('F', "fields", &rep->fields, "key[,keys...]",
				   "output field(s): overhead, children, sample, period and the sort keys"),
			OPT_STRING('t', "field-separator", &rep->field_sep, "separator",
				   "separate columns with this string (no alignment rulers; the stdio output)"),
			OPT_BOOLEAN_SET(0, "group", &rep->group, &rep->group_set,
					"Show event group information together"),
			OPT_BOOLEAN(0, "full-source-path", &rep->full_paths,
				    "Show full source file name path for source lines"),
			OPT_BOOLEAN(0, "hierarchy", &rep->hierarchy,
				    "Show entries in a hierarchy (the sort keys as levels; stdio only)"),
			OPT_BOOLEAN(0, "demangle", &rep->demangle,
				    "Demangle C++ symbol names (default; --no-demangle: as in the ELF)"),
			OPT_INTEGER(0, "samples", &rep->samples,
				    "Number of samples to save per histogram entry for individual browsing "
				    "(perf's TUI; no effect on the stdio report)"),
			OPT_STRING(0, "prefix", &rep->prefix, "prefix",
				   "Add prefix to source file path names in programs (with --prefix-strip; "
				   "perf's annotate, no effect on the report)"),
			OPT_STRING(0, "prefix-strip", &rep->prefix_strip, "N",
				   "Strip first N entries of source file path name in programs (with --prefix)"),
			OPT_BOOLEAN('T', "threads", &rep->show_threads,
				    "Show per-thread event counters (PERF_RECORD_READ, record -s)"),
			OPT_BOOLEAN(0, "tasks", &rep->tasks, "Display recorded tasks"),
			OPT_BOOLEAN(0, "mmaps", &rep->mmaps, "Display recorded tasks memory maps"),
			OPT_BOOLEAN(0, "ns", &rep->nanosecs, "Show times in nanosecs (the time sort key)"),
			OPT_CALLBACK(0, "time-quantum", rep, "time (ms|us|ns|s)",
				     "Set time quantum for time sort key (default 100ms)",
				     parse_time_quantum_cb),
			OPT_STRING('p', "parent", &rep->parent_pattern, "regex",
				   "regex filter to identify parent (with -s parent)"),
			OPT_CALLBACK_NOOPT(0, "children", rep,
					   "Accumulate callchains of children and show total overhead as well",
					   children_cb),
			OPT_CALLBACK_OPTARG('g', "call-graph", rep,
					    "print_type,threshold[,print_limit],order,sort_key[,branch],value",
					    "Display call graph: graph|flat|fractal|folded|none, threshold "
					    "(percent, default 0.5), print limit, caller|callee, "
					    "function|address|srcline, percent|period|count",
					    parse_callchain_cb),
			OPT_UINTEGER(0, "max-stack", &rep->max_stack,
				     "Set the maximum stack depth when parsing the callchain (default 127)"),
			OPT_BOOLEAN('G', "inverted", &rep->inverted, "alias for inverted call graph"),
			OPT_BOOLEAN(0, "inline", &rep->inline_frames,
				    "Show inline functions in DWARF callchains (default; --no-inline: off)"),
			OPT_STRING('c', "comms", &rep->comms, "comm[,comm...]",
				   "only consider symbols in these comms"),
			OPT_STRING('d', "dsos", &rep->dsos, "dso[,dso...]",
				   "only consider symbols in these dsos"),
			OPT_STRING('S', "symbols", &rep->symbols, "symbol[,symbol...]",
				   "only consider these symbols"),
			OPT_STRING(0, "pid", &rep->pids, "pid[,pid...]", "only consider symbols in these pids"),
			OPT_STRING(0, "tid", &rep->tids, "tid[,tid...]", "only consider symbols in these tids"),
			OPT_STRING('C', "cpu", &rep->cpus, "cpu", "list of cpus to profile"),
			OPT_CALLBACK(0, "percent-limit", rep, "percent",
				     "Don't show entries under that percent", parse_percent_limit_cb),
			OPT_CALLBACK(0, "percentage", rep, "relative|absolute",
				     "how to show the percentages of filtered entries: of the entries "
				     "shown (relative) or of all samples (absolute, the default)",
				     parse_percentage_cb),
			OPT_BOOLEAN('U', "hide-unresolved", &rep->hide_unresolved,
				    "Only display entries resolved to a symbol"),
			OPT_STRING(0, "time", &rep->time_str, "str",
				   "Time span of interest: START,STOP in seconds, several ranges separated by spaces, "
				   "or percent slices (10%/2, 0%-10%, comma separated)"),
			OPT_END()
		};

		argc = join_callchain_args(argc, argv, &joined, &nr_joined);
		argc = parse_options(argc, argv, options, report_usage, 0);
		if (argc < 0) {
			status = 129;
			goto out;
		}
		if (argc > 0) {
			fprintf(stderr, "prf report: unexpected argument '%s'\n", argv[0]);
			usage_with_options(report_usage, options);
			status = 129;
			goto out;
		}
	}
	if (rep->max_stack < 1 || rep->max_stack > 1024) {
		fprintf(stderr, "prf report: --max-stack must be between 1 and 1024\n");
		status = 129;
		goto out;
	}
	if (rep->field_sep && (!*rep->field_sep || *rep->field_sep == '.')) {
		/* '.' replaces the separator inside the columns */
		fprintf(stderr, "prf report: '.' is the only non valid --field-separator argument\n");
		status = 129;
		goto out;
	}
	if (rep->hierarchy && rep->fields) {
		fprintf(stderr, "Error: --hierarchy and --fields options cannot be used together\n");
		status = 129;
		goto out;
	}
	if (rep->mmaps)
		rep->tasks = true;
	debuginfo__set_full_paths(rep->full_paths);
	if (rep->quiet)
		verbose = -1;
	{
		struct sample_filter_args fa = {
			.cmd = "report", .comms = rep->comms, .dsos = rep->dsos,
			.symbols = rep->symbols, .pids = rep->pids, .tids = rep->tids,
			.cpus = rep->cpus,
		};

		if (sample_filter__parse(&rep->filter, &fa) ||
		    sample_time_filter__parse(&rep->time, "report", rep->time_str)) {
			status = 129;
			goto out;
		}
	}
	{
		/* validate -s/-F early: a typo is a usage error before any I/O */
		struct sort_order tmp;

		if (sort_order__parse_mode(&tmp, rep->sort, rep->fields, false, false, false,
					   rep->parent_pattern, rep->mem_mode)) {
			status = 129;
			goto out;
		}
		sort_order__exit(&tmp);
	}
	if (!rep->input)
		rep->input = default_input();
	rep->use_tui = report__want_tui(rep);
	if (!rep->use_tui)
		setup_pager();	/* stdio output on a terminal is paged */

	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	perf_tool__init(&rep->tool, true);
	if (rep->dump)
		rep->stats_mode = true;	/* the records, then the --stats block */
	rep->tool.sample = rep->dump ? dump_sample : rep->stats_mode ? count_sample :
			   rep->tasks ? tasks_sample : process_sample;
	rep->tool.context_switch = process_switch;
	rep->tool.cgroup = process_cgroup;
	rep->tool.model_barrier = report__model_barrier;
	if (rep->show_threads)
		rep->tool.read = process_read;
	/* repeated raw callchains are resolved once (best effort: without
	 * the cache every sample is resolved in full) */
	resolved_sample__init(&rep->rs, true);

	rep->session = perf_session__new(rep->input, &rep->tool, &err);
	if (!rep->session) {
		/* the reader already said what and where, except on ENOMEM */
		if (err == -ENOMEM)
			fprintf(stderr, "prf report: cannot open %s: %s\n", rep->input, strerror(-err));
		goto out;
	}
	if (!rep->stats_mode)
		perf_session__enable_off_cpu(rep->session);
	rep->session->dump = rep->dump;
	if (sample_time_filter__resolve(&rep->time, rep->session->data.env.sample_time_start,
					rep->session->data.env.sample_time_end)) {
		pr_err("prf report: --time %s: percent ranges need the file's sample times "
		       "(HEADER_SAMPLE_TIME), which %s has not\n", rep->time_str, rep->input);
		status = 129;
		goto out;
	}
	if (rep->session->machine) {
		rep->session->machine->symfs = rep->symfs;
		rep->session->machine->kallsyms = rep->kallsyms;
		rep->session->machine->vmlinux = rep->vmlinux;
		rep->session->machine->demangle = rep->demangle;
	}
	/* a pipe's features are records among its events: its header is
	 * printed once they are read (--header-only reads no samples) */
	pipe_header = rep->session->data.pipe && (rep->header || rep->header_only);
	if (pipe_header && rep->header_only)
		rep->tool.sample_wanted = report__no_sample;
	if (pipe_header) {
		/* printed after the events */
	} else if (rep->header || rep->header_only) {
		perf_data__fprintf_info(&rep->session->data, stdout, rep->show_info);
		if (rep->header_only) {
			status = 0;
			goto out;
		}
	} else if (!rep->quiet && (!rep->stats_mode || rep->dump) && !rep->use_tui && !rep->tasks) {
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	}
	/* perf names the single value of a one-item filter (its column is hidden) */
	if (!pipe_header && !rep->stats_mode && !rep->use_tui && !rep->tasks)
		report__print_elided(rep);
	if (!rep->session->data.pipe && !rep->stats_mode && !rep->tasks) {
		err = report__setup(rep);
		if (err) {
			status = err == -EINVAL ? 1 : 1;
			goto out;
		}
	}
	if (rep->use_tui && tui__init())
		rep->use_tui = false;	/* no usable terminal: stdio */
	if (!rep->session->data.pipe)
		ui_progress__init(rep->session->data.data_size, "Processing time ordered events...");
	err = perf_session__process_events(rep->session);
	{
		int ferr = hists_feed__sync(rep->feed);

		if (ferr && (!err || err == -EIO || err == -EINVAL))
			err = ferr;
	}
	hists_feed__delete(rep->feed);
	rep->feed = NULL;
	ui_progress__finish();
	if (rep->use_tui && (rep->setup_err || (err && err != -EIO && err != -EINVAL)))
		tui__exit();	/* the error goes to the normal screen */
	if (rep->setup_err)
		goto out;
	if (err && !perf_session__input_damage(rep->session, err)) {
		fprintf(stderr, "prf report: processing %s failed: %s\n", rep->input, strerror(-err));
		goto out;
	}
	if (pipe_header) {
		perf_data__fprintf_info(&rep->session->data, stdout, rep->show_info);
		if (rep->header_only) {
			fflush(stdout);
			status = perf_session__read_status(rep->session, "report", rep->force);
			goto out;
		}
		if (!rep->stats_mode && !rep->use_tui && !rep->tasks)
			report__print_elided(rep);
	}
	if (rep->tasks) {
		err = report_tasks__fprintf(rep->session->machine, rep->mmaps, stdout);
		if (err) {
			if (err == -ENOMEM)
				fprintf(stderr, "prf report: %s\n", strerror(-err));
			goto out;
		}
		fflush(stdout);
		status = perf_session__read_status(rep->session, "report", rep->force);
		goto out;
	}
	if (rep->stats_mode) {
		perf_data__fprintf_stats(&rep->session->data, stdout);
		if (rep->rs.cursor.nr_unwound)
			printf("%s\n", report__truncated_line(rep));
		fflush(stdout);
		status = perf_session__read_status(rep->session, "report", rep->force);
		goto out;
	}
	err = rep->use_tui ? report__browse(rep) : report__print(rep);
	if (err == -EPIPE) {
		status = 0;
		goto out;
	}
	if (err) {
		fprintf(stderr, "prf report: %s\n", strerror(-err));
		goto out;
	}
	/* the summary of a damaged input goes to the normal screen, after the report */
	tui__exit();
	fflush(stdout);
	status = perf_session__read_status(rep->session, "report", rep->force);
out:
	hists_feed__delete(rep->feed);	/* before the hists it adds to */
	tui__exit();
	fflush(stdout);
	if (rep->session)
		perf_session__delete(rep->session);
	for (int i = 0; i < rep->nr_hists; i++) {
		if (rep->hists[i]) {
			hists__exit(rep->hists[i]);
			free(rep->hists[i]);
		}
	}
	free(rep->hists);
	trace_formatter__delete(rep->tf);	/* after the hists: they point into it */
	sort_order__exit(&rep->so);
	resolved_sample__exit(&rep->rs);
	cgroup_names__exit(&rep->cgroups);
	sample_filter__exit(&rep->filter);
	sample_time_filter__exit(&rep->time);
	read_values__exit(&rep->read_values);
	free(rep->resolved.frames);
	free(rep);
	free_list(joined, nr_joined);
	return status;
}
