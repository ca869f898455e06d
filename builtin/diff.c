// SPDX-License-Identifier: GPL-2.0
/*
 * prf diff: compare the profiles of perf.data files as `perf diff` 6.1
 * prints them (baseline and one computed column per later file), or, with
 * --stat, two groups of repeated runs with a significance test per entry.
 * Orchestration only: each file is read through its own session, each
 * sample resolved there (util/session/resolve.h) into one hists per event
 * (util/analysis/hist.h); util/analysis/diff.h matches and prints them,
 * util/analysis/diff-stat.h tests them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../ui/pager.h"
#include "../util/analysis/diff.h"
#include "../util/analysis/diff-stat.h"
#include "../util/analysis/hist.h"
#include "../util/analysis/hist-feed.h"
#include "../util/analysis/sample-memo.h"
#include "../util/analysis/sample-filter.h"
#include "../util/analysis/sort.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/psort.h"
#include "../util/lib/util.h"
#include "../util/model/map.h"
#include "../util/session/resolve.h"
#include "../util/session/session.h"
#include "../util/lib/helper-thread.h"

struct diff_cmd;

/* One event of one input file. */
struct diff_event {
	struct hists hists;
	bool used;
	uint64_t total, total_nf;
};

/* One input file. */
struct diff_input {
	struct perf_tool tool;		/* first: container_of */
	struct diff_cmd *cmd;
	const char *path;
	struct perf_session *session;
	struct resolved_sample rs;
	struct hists_feed *feed;	/* adds the resolved samples to the hists */
	struct sample_memo memo;	/* sample -> its entry; empty slots: none */
	struct diff_event *ev;		/* by evsel idx */
	int nr_ev;
	uint64_t t_start, t_end;	/* --time, ns; 0: open */
	struct sample_time_filter pct;	/* --time in percent of this file's span */
};

struct diff_cmd {
	struct diff_opts o;
	const char *sort, *compute, *percentage;
	const char *comms, *dsos, *symbols, *pids, *tids, *cpus;
	const char *symfs, *kallsyms, *time_str;
	bool stdio, force, stat, json, stat_period, children;
	double alpha;
	double fail_above;
	bool fail_above_set;
	struct sort_order so;
	struct callchain_param cc;
	struct sample_filter filter;
	bool need_chain, srcline_sort;
	struct diff_input *in;
	int nr_in;
	char **copies;			/* the option strings the paths point into */
	int nr_copies;
};

static const char *const diff_usage[] = {
	"prf diff [<options>] [old_file] [new_file...]",
	"prf diff --stat [<options>] A1,A2,... B1,B2,...",
	NULL
};

/*
 * A sample the memo does not know: resolved and added (sl: its memo slot,
 * NULL without a memo), remembered when it may be.
 */
static __attribute__((noinline)) int diff__add(struct diff_input *in, struct perf_sample *sample,
					       struct evsel *evsel, int idx,
					       struct sample_memo_slot *sl)
{
	struct diff_cmd *cmd = in->cmd;
	struct resolved_sample *rs = &in->rs;
	struct sample_filter *f = &cmd->filter;
	struct resolve_opts ropts = { .max_stack = 127 };
	struct hist_sample hs;		/* hist_sample__from_resolved() sets it all */
	struct hist_entry *self = NULL;
	struct diff_event *ev;
	int err;

	err = sample__resolve(in->session, sample, evsel, rs);
	if (!err && cmd->need_chain)
		err = resolved_sample__callchain(in->session, rs, &ropts);
	if (err)
		return err;
	resolved_sample__location(rs, cmd->need_chain);
	if (idx >= in->nr_ev) {
		int n = idx + 4;
		struct diff_event *e = realloc(in->ev, (size_t)n * sizeof(*e));

		if (!e)
			return -ENOMEM;
		memset(e + in->nr_ev, 0, (size_t)(n - in->nr_ev) * sizeof(*e));
		in->ev = e;
		in->nr_ev = n;
	}
	ev = &in->ev[idx];
	if (!ev->used) {
		if (hists__init(&ev->hists, &cmd->so, &cmd->cc, false))
			return -ENOMEM;
		ev->used = true;
	}
	hist_sample__from_resolved(&hs, rs);
	/* as report: a rejected sample counts in the totals and hides the
	 * entry it creates */
	hs.filtered = rs->al.filtered ||
		      (sample_filter__active(f) &&
		       (!sample_filter__match_task(f, sample->pid, sample->tid, hs.comm) ||
			!sample_filter__match_dso(f, rs->al.map ? rs->al.map->dso : NULL) ||
			!sample_filter__match_sym(f, rs->al.sym ? rs->al.sym->name : NULL)));
	if (cmd->need_chain)
		hs.chain = &rs->cursor;
	if (cmd->srcline_sort)
		hs.srcline = resolved_sample__srcline(rs);
	ev->total += hs.period;
	if (!hs.filtered)
		ev->total_nf += hs.period;
	if (rs->thread->pid == -1) {
		/* as report: the entry takes the pid the thread has when
		 * the sample is added, so add it now, after the queued ones */
		err = hists_feed__sync(in->feed);
		return err ? err : hists__add_sample(&ev->hists, &hs);
	}
	if (!sl)
		return hists_feed__add(in->feed, &ev->hists, &hs);
	/* in line (no feed thread with a memo) */
	err = hists__add_sample_self(&ev->hists, &hs, &self);
	if (!err && self && sample_memo__may_keep(rs->al.map))
		sample_memo__store(&in->memo, sl, idx, sample, self, hs.level, hs.filtered);
	return err;
}

static int diff__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			struct evsel *evsel, struct machine *machine)
{
	struct diff_input *in = container_of(tool, struct diff_input, tool);
	struct sample_memo_slot *sl = NULL;
	int idx;

	(void)event;
	(void)machine;
	if (!evsel)
		evsel = sample->evsel;
	if (!evsel || !sample_filter__match_cpu(&in->cmd->filter, sample->cpu))
		return 0;
	/* --time: samples outside count nowhere, not even in the totals */
	if ((in->t_start && sample->time < in->t_start) || (in->t_end && sample->time > in->t_end) ||
	    (in->pct.nr && !sample_time_filter__match(&in->pct, sample->time)))
		return 0;
	idx = evsel->idx < 0 ? 0 : evsel->idx;
	if (in->memo.slots && sample_memo__fits(idx, sample)) {
		/* seen since the model last changed: same entry, same verdict */
		sl = sample_memo__slot(&in->memo, idx, sample);
		if (sample_memo__hit(&in->memo, sl, idx, sample)) {
			uint64_t period = sample->period ? sample->period : 1;
			struct diff_event *ev = &in->ev[idx];

			ev->total += period;
			if (!sl->filtered)
				ev->total_nf += period;
			hists__count_self(&ev->hists, sl->he, period, sl->level);
			return 0;
		}
	}
	return diff__add(in, sample, evsel, idx, sl);
}

/* Before the model changes (a side-band record): the queued samples
 * point into it. */
static int diff__model_barrier(struct perf_tool *tool)
{
	struct diff_input *in = container_of(tool, struct diff_input, tool);

	sample_memo__forget(&in->memo);
	return hists_feed__sync(in->feed);
}

/* Read one input into its hists (not sorted yet). 0, or 1 after a
 * message. */
static int diff__read(struct diff_cmd *cmd, struct diff_input *in)
{
	int err = 0;

	in->cmd = cmd;
	perf_tool__init(&in->tool, true);
	in->tool.sample = diff__sample;
	in->tool.model_barrier = diff__model_barrier;
	if (resolved_sample__init(&in->rs, true))
		return 1;
	/*
	 * With callchain work (a parent key, --children) resolving on this
	 * thread and adding to the hists on a second one, as report does (in
	 * line on one CPU, or where that measures faster). Without, as
	 * report without -g: in line, each sample's entry memoized (the
	 * files are read side by side already).
	 */
	in->feed = hists_feed__new(cmd->need_chain);
	if (!in->feed)
		return 1;
	if (!cmd->need_chain && !hists_feed__threaded(in->feed) && sample_memo__init(&in->memo))
		return 1;
	in->session = perf_session__new(in->path, &in->tool, &err);
	if (!in->session) {
		fprintf(stderr, "prf diff: cannot open %s%s%s\n", in->path,
			err == -ENOMEM ? ": " : "", err == -ENOMEM ? strerror(-err) : "");
		return 1;
	}
	/* percent slices: of this file's own sample time span */
	if (sample_time_filter__resolve(&in->pct, in->session->data.env.sample_time_start,
					in->session->data.env.sample_time_end)) {
		fprintf(stderr, "prf diff: --time %s: percent ranges need the file's sample times "
			"(HEADER_SAMPLE_TIME), which %s has not\n", cmd->time_str, in->path);
		return 1;
	}
	if (in->session->machine) {
		in->session->machine->symfs = cmd->symfs;
		in->session->machine->kallsyms = cmd->kallsyms;
	}
	err = perf_session__process_events(in->session);
	if (!err)
		err = hists_feed__sync(in->feed);
	else
		hists_feed__sync(in->feed);
	if (err && perf_session__input_damage(in->session, err))
		err = 0;	/* what was read is used; its summary comes at the end */
	if (err) {
		fprintf(stderr, "prf diff: processing %s failed: %s\n", in->path, strerror(-err));
		return 1;
	}
	return 0;
}

struct read_pool {
	struct diff_cmd *cmd;
	int next;			/* next input to read (atomic) */
	int failed;			/* an input failed (atomic) */
};

static void *read_worker(void *arg)
{
	struct read_pool *rp = arg;
	int i;

	while ((i = __atomic_fetch_add(&rp->next, 1, __ATOMIC_RELAXED)) < rp->cmd->nr_in)
		if (diff__read(rp->cmd, &rp->cmd->in[i]))
			__atomic_store_n(&rp->failed, 1, __ATOMIC_RELAXED);
	return NULL;
}

/*
 * Read every input: each into its own session, model and hists, so the
 * files are read side by side on up to psort_threads() threads (the
 * caller's one of them). 0, or 1 after a message.
 */
static int diff__read_all(struct diff_cmd *cmd)
{
	struct read_pool rp = { .cmd = cmd };
	int nthreads = psort_threads();
	struct helper_thread thr[16];
	int started = 0;

	if (nthreads > cmd->nr_in)
		nthreads = cmd->nr_in;
	if (nthreads > (int)ARRAY_SIZE(thr) + 1)
		nthreads = (int)ARRAY_SIZE(thr) + 1;
	for (int t = 1; t < nthreads; t++)
		if (!helper_thread__start(&thr[started], read_worker, &rp))
			started++;
	read_worker(&rp);
	for (int t = 0; t < started; t++)
		helper_thread__join(&thr[t]);
	if (rp.failed)
		return 1;
	/* the entries in order, one hists at a time: the sort order they
	 * share takes each one's column widths */
	for (int i = 0; i < cmd->nr_in; i++) {
		struct diff_input *in = &cmd->in[i];

		for (int e = 0; e < in->nr_ev; e++)
			if (in->ev[e].used && hists__output_resort(&in->ev[e].hists, &cmd->so)) {
				fprintf(stderr, "prf diff: %s\n", strerror(ENOMEM));
				return 1;
			}
	}
	return 0;
}

/* The event of input in matching base (perf: same type and config). */
static struct diff_event *diff__match(struct diff_input *in, struct evsel *base, struct evsel **out)
{
	struct evsel *evsel;

	if (!in->session->data.evlist)
		return NULL;
	evlist__for_each_entry(in->session->data.evlist, evsel) {
		if (evsel->attr.type != base->attr.type || evsel->attr.config != base->attr.config)
			continue;
		if (out)
			*out = evsel;
		return evsel->idx >= 0 && evsel->idx < in->nr_ev && in->ev[evsel->idx].used ?
		       &in->ev[evsel->idx] : NULL;
	}
	return NULL;
}

static void diff__file_of(struct diff_file *df, struct diff_input *in, struct diff_event *ev)
{
	df->path = in->path;
	df->hists = ev ? &ev->hists : NULL;
	df->total = ev ? ev->total : 0;
	df->total_nf = ev ? ev->total_nf : 0;
}

/* perf diff's output: per event of the baseline, its table. */
static int diff__print(struct diff_cmd *cmd)
{
	struct evlist *evlist = cmd->in[0].session->data.evlist;
	struct diff_file *files = calloc((size_t)cmd->nr_in, sizeof(*files));
	struct evsel *evsel;
	bool first = true;
	int err = 0;

	if (!files)
		return -ENOMEM;
	if (!evlist)
		goto out;
	evlist__for_each_entry(evlist, evsel) {
		for (int i = 0; i < cmd->nr_in; i++) {
			struct diff_event *ev = diff__match(&cmd->in[i], evsel, NULL);

			if (!ev && i && diff__match(&cmd->in[0], evsel, NULL))
				pr_warning("prf diff: %s has no samples of event '%s'\n",
					   cmd->in[i].path, evsel__name(evsel));
			diff__file_of(&files[i], &cmd->in[i], ev);
		}
		if (!cmd->o.quiet)
			printf("%s# Event '%s'\n#\n", first ? "" : "\n", evsel__name(evsel));
		first = false;
		if ((verbose > 0 || cmd->nr_in > 2) && !cmd->o.quiet) {
			printf("# Data files:\n");
			for (int i = 0; i < cmd->nr_in; i++)
				printf("#  [%d] %s %s\n", i, cmd->in[i].path, i ? "" : "(Baseline)");
			printf("#\n");
		}
		err = diff__fprintf(&cmd->o, &cmd->so, files, cmd->nr_in, stdout);
		if (err < 0)
			break;
		err = 0;
	}
out:
	free(files);
	return err;
}

/* --stat: the first event of the first file, in every file. */
static int diff__stat(struct diff_cmd *cmd, int nr_a)
{
	struct evlist *evlist = cmd->in[0].session->data.evlist;
	struct diff_file *files = calloc((size_t)cmd->nr_in, sizeof(*files));
	struct diff_stat_opts so = {
		.alpha = cmd->alpha, .json = cmd->json, .by_period = cmd->stat_period, .fail_above = cmd->fail_above,
		.fail_above_set = cmd->fail_above_set,
		.floor = cmd->o.min_percent > 0 ? cmd->o.min_percent : 0.5,
		.children = cmd->children,
	};
	struct evsel *evsel = NULL, *base = NULL;
	int ret;

	if (!files)
		return -ENOMEM;
	if (evlist) {
		evlist__for_each_entry(evlist, evsel) {
			if (diff__match(&cmd->in[0], evsel, NULL)) {
				base = evsel;
				break;
			}
		}
	}
	if (!base) {
		fprintf(stderr, "prf diff: %s has no samples\n", cmd->in[0].path);
		free(files);
		return -EINVAL;
	}
	for (int i = 0; i < cmd->nr_in; i++) {
		struct evsel *match = NULL;
		struct diff_event *ev = diff__match(&cmd->in[i], base, &match);

		if (ev && cmd->children && !(match->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			fprintf(stderr, "prf diff: --children needs callchains; %s has none "
				"(record with -g)\n", cmd->in[i].path);
			free(files);
			return -EINVAL;
		}
		if (!ev) {
			fprintf(stderr, "prf diff: %s has no samples of event '%s'\n",
				cmd->in[i].path, evsel__name(base));
			free(files);
			return -EINVAL;
		}
		diff__file_of(&files[i], &cmd->in[i], ev);
	}
	so.event = evsel__name(base);
	ret = diff_stat__run(&so, &cmd->so, files, nr_a, cmd->nr_in - nr_a, stdout);
	free(files);
	return ret;
}

static int compute_cb(const struct option *opt, const char *arg, int unset)
{
	struct diff_cmd *cmd = opt->value;
	const char *colon = arg ? strchr(arg, ':') : NULL;
	size_t len = colon ? (size_t)(colon - arg) : (arg ? strlen(arg) : 0);
	static const char *const names[] = {
		[DIFF_DELTA] = "delta", [DIFF_DELTA_ABS] = "delta-abs",
		[DIFF_RATIO] = "ratio", [DIFF_WDIFF] = "wdiff",
	};

	if (unset || !arg)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (strlen(names[i]) != len || strncmp(names[i], arg, len))
			continue;
		cmd->o.compute = (enum diff_compute)i;
		if (i == DIFF_WDIFF) {
			char *end;

			if (colon) {
				cmd->o.w1 = strtoll(colon + 1, &end, 10);
				cmd->o.w2 = *end == ',' && end[1] ? strtoll(end + 1, NULL, 10) : 0;
			}
			if (!colon || !cmd->o.w1 || !cmd->o.w2) {
				fprintf(stderr, "Failed: wrong weight data, use 'wdiff:w1,w2'\n");
				return -1;
			}
		} else if (colon) {
			fprintf(stderr, "Failed: extra option specified '%s'\n", colon + 1);
			return -1;
		}
		return 0;
	}
	fprintf(stderr, "Failed: '%s' is not computation method "
		"(use 'delta','delta-abs','ratio' or 'wdiff')\n", arg);
	return -1;
}

static int percentage_cb(const struct option *opt, const char *arg, int unset)
{
	struct diff_cmd *cmd = opt->value;

	if (unset || !arg)
		return -1;
	if (!strcmp(arg, "relative") || !strcmp(arg, "absolute")) {
		cmd->o.relative = arg[0] == 'r';
		return 0;
	}
	fprintf(stderr, "Invalid percentage: %s\n", arg);
	return -1;
}

static int percent_limit_cb(const struct option *opt, const char *arg, int unset)
{
	double *v = opt->value;
	char *end;

	if (unset || !arg)
		return -1;
	*v = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%")) || *v < 0 || *v > 100) {
		fprintf(stderr, "prf diff: invalid percent '%s'\n", arg);
		return -1;
	}
	return 0;
}

static int alpha_cb(const struct option *opt, const char *arg, int unset)
{
	double *v = opt->value;
	char *end;

	if (unset || !arg)
		return -1;
	*v = strtod(arg, &end);
	if (end == arg || *end || !(*v > 0 && *v < 1)) {
		fprintf(stderr, "prf diff: --alpha wants a probability between 0 and 1, not '%s'\n", arg);
		return -1;
	}
	return 0;
}

static int fail_above_cb(const struct option *opt, const char *arg, int unset)
{
	struct diff_cmd *cmd = opt->value;

	cmd->fail_above_set = true;
	return percent_limit_cb(&(struct option){ .value = &cmd->fail_above }, arg, unset);
}

/* A time "SEC[.FRACTION]" into ns at *ns; the end of what was read, or
 * NULL when there is no number. */
static const char *parse_ns(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				digits++;
			}
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return p;
}

/*
 * --time in percent as perf diff 6.1 takes it: perf report's percent
 * slices ("10%/2", "0%-10%,30%-40%", sample-filter.h), each file's of its
 * own sample time span; one list for every file, or lists separated by
 * ':' for the files in order (later files: none). 0, or -EINVAL after a
 * message.
 */
static int parse_time_percent(struct diff_cmd *cmd)
{
	char *copy = strdup(cmd->time_str), *part = copy, *colon;
	bool per_file = strchr(copy ? copy : "", ':') != NULL;
	int err = copy ? 0 : -ENOMEM;

	for (int i = 0; i < cmd->nr_in && part && !err; i++) {
		colon = per_file ? strchr(part, ':') : NULL;
		if (colon)
			*colon = 0;
		err = sample_time_filter__parse(&cmd->in[i].pct, "diff", part);
		if (!err && cmd->in[i].pct.nr && !cmd->in[i].pct.percent) {
			fprintf(stderr, "prf diff: invalid --time '%s': percent and absolute "
				"ranges do not mix\n", cmd->time_str);
			err = -EINVAL;
		}
		part = !per_file ? part : colon ? colon + 1 : NULL;
	}
	free(copy);
	return err;
}

/*
 * --time as perf diff takes it: "START,STOP" (seconds, as perf script
 * prints sample times; either side may be empty) for every file, or
 * ranges separated by ':' for the files in order (later files: none);
 * percent slices: parse_time_percent(). 0, or -EINVAL after a message.
 */
static int parse_time(struct diff_cmd *cmd)
{
	const char *p = cmd->time_str;
	bool per_file = strchr(p, ':') != NULL;

	if (strchr(p, '%'))
		return parse_time_percent(cmd);
	for (int i = 0; i < cmd->nr_in; i++) {
		struct diff_input *in = &cmd->in[i];

		if (*p != ',' && !(p = parse_ns(p, &in->t_start)))
			goto bad;
		if (*p++ != ',')
			goto bad;
		if (*p && *p != ':' && !(p = parse_ns(p, &in->t_end)))
			goto bad;
		if (in->t_end && in->t_start > in->t_end)
			goto bad;
		if (!per_file) {
			if (*p)
				goto bad;
			for (int j = i + 1; j < cmd->nr_in; j++) {
				cmd->in[j].t_start = in->t_start;
				cmd->in[j].t_end = in->t_end;
			}
			return 0;
		}
		if (!*p)
			return 0;
		if (*p++ != ':' || !*p)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "prf diff: invalid --time '%s' (want START,STOP in seconds, or one such "
		"range per file separated by ':')\n", cmd->time_str);
	return -EINVAL;
}

/* Add the paths of list (comma-separated when split) to cmd->in. */
static int add_inputs(struct diff_cmd *cmd, const char *list, bool split)
{
	char *copy = strdup(list), *tok, *save = NULL;
	char **c = realloc(cmd->copies, (size_t)(cmd->nr_copies + 1) * sizeof(*c));

	if (c)
		cmd->copies = c;
	if (!copy || !c) {
		free(copy);
		return -ENOMEM;
	}
	c[cmd->nr_copies++] = copy;
	for (tok = split ? strtok_r(copy, ",", &save) : copy; tok;
	     tok = split ? strtok_r(NULL, ",", &save) : NULL) {
		struct diff_input *in = realloc(cmd->in, (size_t)(cmd->nr_in + 1) * sizeof(*in));

		if (!in)
			return -ENOMEM;
		cmd->in = in;
		memset(&in[cmd->nr_in], 0, sizeof(*in));
		in[cmd->nr_in++].path = tok;
	}
	return 0;
}

/* Parse options and files into cmd; 0, or the exit status. */
static int diff__options(struct diff_cmd *cmd, int argc, const char **argv, int *nr_a)
{
	const struct option options[] = {
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &cmd->o.quiet, "Do not show any warnings or messages"),
		OPT_BOOLEAN('b', "baseline-only", &cmd->o.baseline_only,
			    "Show only items with match in baseline"),
		OPT_CALLBACK('c', "compute", cmd, "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs)",
			     "Entries differential computation selection", compute_cb),
		OPT_BOOLEAN('p', "period", &cmd->o.show_period, "Show period values."),
		OPT_BOOLEAN('F', "formula", &cmd->o.show_formula, "Show formula."),
		OPT_BOOLEAN('f', "force", &cmd->force, "don't complain, do it"),
		OPT_BOOLEAN(0, "stdio", &cmd->stdio, "Use the stdio interface (the only one)"),
		OPT_STRING(0, "kallsyms", &cmd->kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "symfs", &cmd->symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING('d', "dsos", &cmd->dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('C', "comms", &cmd->comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('S', "symbols", &cmd->symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('s', "sort", &cmd->sort, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline"),
		OPT_STRING('t', "field-separator", &cmd->o.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns"),
		OPT_UINTEGER('o', "order", &cmd->o.order, "Specify compute sorting."),
		OPT_CALLBACK(0, "percentage", cmd, "relative|absolute",
			     "How to display percentage of filtered entries", percentage_cb),
		OPT_CALLBACK(0, "percent-limit", &cmd->o.min_percent, "percent",
			     "Hide entries below that percent in every file (prf)", percent_limit_cb),
		OPT_STRING(0, "time", &cmd->time_str, "str",
			   "Time span: START,STOP in seconds or percent slices (10%/2, 0%-10%), "
			   "for every file or one per file separated by ':'"),
		OPT_STRING(0, "cpu", &cmd->cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "pid", &cmd->pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &cmd->tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_BOOLEAN(0, "stat", &cmd->stat,
			    "Compare two groups of runs (A1,A2,.. B1,B2,..) with a significance test"),
		OPT_CALLBACK(0, "fail-above", cmd, "points",
			     "--stat: exit 1 when a share rose significantly by more than this", fail_above_cb),
		OPT_BOOLEAN('j', "json", &cmd->json, "--stat: JSON output"),
		OPT_BOOLEAN(0, "children", &cmd->children,
			    "--stat: compare children (self + callees) periods; needs callchains"),
		OPT_BOOLEAN(0, "stat-period", &cmd->stat_period,
			    "--stat: test each run's period of an entry instead of its share"),
		OPT_CALLBACK(0, "alpha", &cmd->alpha, "p",
			     "--stat: family-wise error rate (default 0.05)", alpha_cb),
		OPT_END()
	};
	struct sample_filter_args fa;

	argc = parse_options(argc, argv, options, diff_usage, 0);
	if (argc < 0)
		return 129;
	if (cmd->o.field_sep && !*cmd->o.field_sep) {
		fprintf(stderr, "prf diff: empty field separator\n");
		return 129;
	}
	if (cmd->stat) {
		if (argc != 2) {
			fprintf(stderr, "prf diff --stat: give two groups, A1,A2,... B1,B2,...\n");
			usage_with_options(diff_usage, options);
			return 129;
		}
		if (add_inputs(cmd, argv[0], true))
			return 1;
		*nr_a = cmd->nr_in;
		if (add_inputs(cmd, argv[1], true))
			return 1;
		if (*nr_a < 2 || cmd->nr_in - *nr_a < 2) {
			fprintf(stderr, "prf diff --stat: each group needs two or more recordings\n");
			return 129;
		}
	} else {
		if (cmd->json || cmd->fail_above_set || cmd->stat_period || cmd->alpha != 0.05 ||
		    cmd->children) {
			fprintf(stderr, "prf diff: -j, --fail-above, --stat-period, --alpha and "
				"--children go with --stat\n");
			return 129;
		}
		if (argc <= 1 && add_inputs(cmd, "perf.data.old", false))
			return 1;
		if (!argc && add_inputs(cmd, "perf.data", false))
			return 1;
		for (int i = 0; i < argc; i++)
			if (add_inputs(cmd, argv[i], false))
				return 1;
		if (cmd->o.order >= (unsigned int)cmd->nr_in) {
			fprintf(stderr, "Order option out of limit.\n");
			return 129;
		}
	}
	if (cmd->time_str && parse_time(cmd))
		return 129;
	fa = (struct sample_filter_args){
		.cmd = "diff", .comms = cmd->comms, .dsos = cmd->dsos, .symbols = cmd->symbols,
		.pids = cmd->pids, .tids = cmd->tids, .cpus = cmd->cpus,
	};
	if (sample_filter__parse(&cmd->filter, &fa))
		return 129;
	if (sort_order__parse(&cmd->so, cmd->sort ? cmd->sort : "dso,sym", NULL, cmd->children,
			      false, false, NULL))
		return 129;
	return 0;
}

/* The sort keys only: perf diff's value columns are its own. */
static void diff__keys_only(struct sort_order *so)
{
	int n = 0;

	for (int c = 0; c < so->nr_cols; c++)
		if (so->cols[c].type < HPP_OVERHEAD)
			so->cols[n++] = so->cols[c];
	so->nr_cols = n;
	n = 0;
	for (int i = 0; i < so->nr_sort; i++)
		if (so->sort[i] < HPP_OVERHEAD)
			so->sort[n++] = so->sort[i];
	so->nr_sort = n;
}

int cmd_diff(int argc, const char **argv)
{
	static char outbuf[1 << 20];
	struct diff_cmd *cmd = zalloc(sizeof(*cmd));
	int status = 1, nr_a = 0, err;

	if (!cmd)
		return 1;
	cmd->o.compute = DIFF_DELTA_ABS;
	cmd->o.order = 1;
	cmd->alpha = 0.05;
	callchain_param__init(&cmd->cc);
	status = diff__options(cmd, argc, argv, &nr_a);
	if (status)
		goto out;
	status = 1;
	if (cmd->o.quiet)
		verbose = -1;
	cmd->o.verbose = verbose > 0;
	diff__keys_only(&cmd->so);
	if (cmd->filter.nr_comms == 1)
		sort_order__elide(&cmd->so, SORT_COMM);
	if (cmd->filter.nr_dsos == 1)
		sort_order__elide(&cmd->so, SORT_DSO);
	if (cmd->filter.nr_syms == 1)
		sort_order__elide(&cmd->so, SORT_SYM);
	cmd->need_chain = cmd->so.need_parent || cmd->children;
	cmd->srcline_sort = sort_order__has_key(&cmd->so, SORT_SRCLINE);
	if (sort_order__has_key(&cmd->so, SORT_TRACE)) {
		fprintf(stderr, "prf diff: the trace sort key is not supported\n");
		status = 129;
		goto out;
	}
	if (diff__read_all(cmd))
		goto out;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (!cmd->stat)
		setup_pager();
	err = cmd->stat ? diff__stat(cmd, nr_a) : diff__print(cmd);
	if (err == -EPIPE || err == 0)
		status = 0;
	else if (err == 1)
		status = 1;	/* --fail-above tripped */
	else if (err != -EINVAL)
		fprintf(stderr, "prf diff: %s\n", strerror(-err));
	fflush(stdout);
	/* the read-side rule for damaged input, for each file (session.h) */
	for (int i = 0; i < cmd->nr_in; i++) {
		if (cmd->in[i].session &&
		    perf_session__read_status(cmd->in[i].session, "diff", cmd->force) && !status)
			status = 1;
	}
out:
	fflush(stdout);
	for (int i = 0; i < cmd->nr_in; i++) {
		struct diff_input *in = &cmd->in[i];

		hists_feed__delete(in->feed);	/* before the hists it adds to */
		sample_memo__exit(&in->memo);
		for (int e = 0; e < in->nr_ev; e++)
			if (in->ev[e].used)
				hists__exit(&in->ev[e].hists);
		free(in->ev);
		sample_time_filter__exit(&in->pct);
		if (in->session)
			perf_session__delete(in->session);
		resolved_sample__exit(&in->rs);
	}
	for (int i = 0; i < cmd->nr_copies; i++)
		free(cmd->copies[i]);
	free(cmd->copies);
	free(cmd->in);
	sort_order__exit(&cmd->so);
	sample_filter__exit(&cmd->filter);
	free(cmd);
	return status;
}
