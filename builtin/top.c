// SPDX-License-Identifier: GPL-2.0
/*
 * prf top: live profile, refreshed every -d seconds, as `perf top` shows
 * it. Orchestration only: the live session (util/session/live.h) opens
 * the events and delivers each ring-buffer record, the resolver
 * (util/session/resolve.h) makes a sample its thread, symbol and
 * callchain, report's hists (util/analysis/hist.h) accumulate them,
 * util/analysis/top.h ages them between refreshes and picks the rows,
 * ui/stdio/hist.h prints them.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "builtin.h"
#include "../arch/x86/perf_regs.h"
#include "../ui/stdio/hist.h"
#include "../ui/tui/annotate.h"
#include "../ui/tui/tui.h"
#include "../util/analysis/annotate.h"
#include "../util/analysis/callchain-tree.h"
#include "../util/analysis/hist.h"
#include "../util/analysis/sample-filter.h"
#include "../util/analysis/sort.h"
#include "../util/analysis/top.h"
#include "../util/session/live.h"
#include "../util/session/resolve.h"
#include "../util/session/session.h"
#include "../util/kernel/callchain-record.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/evsel.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/record-loop.h"
#include "../util/lib/config.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/model/dso.h"
#include "../util/model/dso-loader.h"
#include "../util/model/map.h"

#define TOP_DEFAULT_FREQ 4000		/* perf top's -F default, Hz */

struct top_cmd {
	struct perf_tool tool;		/* first: container_of */
	/* options */
	const char *events, *pid_str, *tid_str, *cpu_list;
	const char *delay_str, *freq_str, *sort, *fields, *mmap_str;
	const char *comms, *dsos, *symbols;
	const char *record_path;	/* --record */
	int argc;			/* the command line, for --record's header */
	const char **argv;
	bool system_wide, no_inherit, use_stdio, use_tui, zero;
	bool hide_kernel, hide_user, show_nr_samples, show_period;
	int children;			/* -1 default, 0 --no-children, 1 --children */
	bool callchain;			/* -g */
	const char *cg_arg;		/* --call-graph */
	uint64_t count;			/* -c */
	int entries;			/* -E, 0: the terminal's rows */
	int realtime;			/* -r */
	unsigned int max_stack;
	double min_percent;
	/* derived */
	double delay;
	uint64_t freq;
	bool use_callchain;
	struct callchain_record cg;	/* fp or dwarf[,size] of --call-graph */
	unsigned int mmap_pages;
	struct callchain_param cc;
	struct sort_order so;
	struct resolve_opts ropts;
	struct sample_filter filter;
	/* run state */
	struct perf_session *session;
	struct evsel *evsel;		/* the event whose entries are shown */
	struct hists hists[2];		/* [fill] takes the samples; with -z in
					 * the TUI the other one is shown */
	bool hists_ok[2];
	int fill;
	struct hists *shown;		/* what the screen shows */
	pthread_mutex_t lock;		/* TUI: the browser vs the live thread */
	bool locking;
	bool refreshed;			/* TUI: a refresh was shown */
	bool ended;			/* TUI: the live session is over */
	bool user_quit;			/* TUI: 'q' before it was */
	struct live *live;
	char title[512];		/* TUI: the title of the last refresh */
	struct annotation_set *ann;	/* TUI: per-address counts for 'a' */
	struct resolved_sample rs;
	struct top_counts counts;
	struct top_header hdr;
	uint64_t nr_lost_records, lost_warned;	/* PERF_RECORD_LOST records */
	size_t nr_released;		/* exited threads the model let go */
	size_t nr_dsos_released;	/* and unused DSOs */
	struct dso_loader *loader;	/* symbols loaded off the live thread */
	struct top_held held;		/* samples waiting for their symbols */
	int err;
	int rows, cols;
};

static volatile sig_atomic_t done;

static const char *const top_usage[] = {
	"prf top [<options>]",
	"prf top [<options>] -- <command> [<options>]",
	NULL
};

static struct top_cmd *tool2top(struct perf_tool *tool)
{
	return container_of(tool, struct top_cmd, tool);
}

/* hists[i] empty (again). 0 or -ENOMEM. */
static int top__hists_init(struct top_cmd *t, int i)
{
	if (t->hists_ok[i])
		hists__exit(&t->hists[i]);
	t->hists_ok[i] = false;
	if (hists__init(&t->hists[i], &t->so, &t->cc, t->use_callchain))
		return -ENOMEM;
	t->hists[i].store.key = t->cc.key;	/* before any frame is interned */
	/* the model lets exited threads go (top__release_exited()) */
	hists__hold_refs(&t->hists[i]);
	t->hists_ok[i] = true;
	return 0;
}

static void top__lock(void *arg)
{
	struct top_cmd *t = arg;

	if (t->locking)
		pthread_mutex_lock(&t->lock);
}

static void top__unlock(void *arg)
{
	struct top_cmd *t = arg;

	if (t->locking)
		pthread_mutex_unlock(&t->lock);
}

static bool top__filtered(struct top_cmd *t, struct perf_sample *sample, const char *comm,
			  struct addr_location *al)
{
	return sample_filter__active(&t->filter) &&
	       (!sample_filter__match_task(&t->filter, sample->pid, sample->tid, comm) ||
		!sample_filter__match_dso(&t->filter, al->map ? al->map->dso : NULL) ||
		!sample_filter__match_sym(&t->filter, al->sym ? al->sym->name : NULL));
}

/* Held samples beyond this many bytes: the live thread waits for the
 * loader instead of holding more. */
#define TOP_HELD_MAX_BYTES (32u << 20)

/*
 * Add a resolved sample to the hists, or hold it back (a copy of event and
 * of what rs found) when resolving it deferred a DSO's symbols (the
 * loader's count went past deferrals): perf top shows a sample once its
 * symbols are known, and the screen does not wait for them. 0 or -errno.
 */
static int top__account(void *arg, union perf_event *event, struct resolved_sample *rs,
			unsigned long deferrals)
{
	struct top_cmd *t = arg;
	struct hist_sample hs;
	int err;

	if (dso__load_deferrals() != deferrals && event)
		return top_held__add(&t->held, event, rs, t->use_callchain);
	hist_sample__from_resolved(&hs, rs);
	hs.filtered = rs->al.filtered || top__filtered(t, rs->sample, rs->comm, &rs->al);
	if (t->use_callchain)
		hs.chain = &rs->cursor;
	top__lock(t);
	err = hists__add_sample(&t->hists[t->fill], &hs);
	if (!err && t->ann && rs->al.sym && rs->al.map)
		err = annotation_set__add(t->ann, rs->evsel, rs->al.map->dso, rs->al.sym,
					  rs->al.addr, hs.period);
	top__unlock(t);
	return err;
}

/* Resolve a sample, then top__account() it. 0 or -errno. */
static int top__add(struct top_cmd *t, union perf_event *event, struct perf_sample *sample,
		    struct evsel *evsel)
{
	struct resolved_sample *rs = &t->rs;
	unsigned long deferrals = dso__load_deferrals();
	int err;

	err = sample__resolve(t->session, sample, evsel, rs);
	if (!err && t->use_callchain)
		err = resolved_sample__callchain(t->session, rs, &t->ropts);
	if (err)
		return err;
	resolved_sample__location(rs, t->use_callchain);
	return top__account(t, event, rs, deferrals);
}

/*
 * On the live thread: the symbol tables the loader finished go into the
 * model (under the lock: the browser reads the DSOs), and the samples
 * held for them are counted, against the maps they came with; with wait,
 * first wait for one (too much held). 0 or -errno.
 */
static int top__install(struct top_cmd *t, bool wait)
{
	size_t n;

	if (!t->loader)
		return 0;
	if (wait)
		dso_loader__wait(t->loader);
	top__lock(t);
	n = dso_loader__install(t->loader);
	top__unlock(t);
	return n && t->held.nr ? top_held__replay(&t->held, &t->rs, top__account, t) : 0;
}

static int top__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		       struct evsel *evsel, struct machine *machine)
{
	struct top_cmd *t = tool2top(tool);
	uint8_t cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	int err;

	(void)machine;
	if (!evsel)
		evsel = sample->evsel;
	if (evsel != t->evsel)
		return 0;
	err = top__install(t, t->held.len > TOP_HELD_MAX_BYTES);
	if (err)
		return err;
	top__lock(t);
	t->counts.samples++;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		t->counts.kernel++;
	if (event->header.misc & PERF_RECORD_MISC_EXACT_IP)
		t->counts.exact++;
	/* -K / -U: samples of the hidden side make no entries */
	top__unlock(t);
	if ((t->hide_kernel && cpumode == PERF_RECORD_MISC_KERNEL) ||
	    (t->hide_user && cpumode == PERF_RECORD_MISC_USER))
		return 0;
	return top__add(t, event, sample, evsel);
}

static int top__lost(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		     struct machine *machine)
{
	struct top_cmd *t = tool2top(tool);

	(void)sample;
	(void)machine;
	top__lock(t);
	t->nr_lost_records++;
	t->counts.lost += event->lost.lost;
	t->counts.lost_total += event->lost.lost;
	top__unlock(t);
	return 0;
}

static int top__throttle(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct machine *machine)
{
	struct top_cmd *t = tool2top(tool);

	(void)event;
	(void)sample;
	(void)machine;
	top__lock(t);
	t->counts.throttles++;
	t->counts.throttles_total++;
	top__unlock(t);
	return 0;
}

/* The terminal's size (stdout), else $LINES/$COLUMNS, else 25x80 as perf. */
static void top__winsize(struct top_cmd *t)
{
	struct winsize ws;
	const char *s;

	t->rows = 25;
	t->cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		t->rows = ws.ws_row;
		t->cols = ws.ws_col;
		return;
	}
	if ((s = getenv("LINES")) && atoi(s) > 0)
		t->rows = atoi(s);
	if ((s = getenv("COLUMNS")) && atoi(s) > 0)
		t->cols = atoi(s);
}

/* Copy the lines of buf to fp, each cut at width columns (perf top cuts
 * its rows at the terminal's width). */
static void top__put_cut(const char *buf, size_t len, int width, FILE *fp)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		fwrite(p, 1, n < (size_t)width ? n : (size_t)width, fp);
		if (nl)
			fputc('\n', fp);
		p += n + (nl ? 1 : 0);
	}
}

/* One screen of perf top --stdio: clear, header line, ruler, entries. */
static void top__print_stdio(struct top_cmd *t)
{
	char line[512];
	int width, printed = 0;
	struct top_view v = {
		.min_percent = t->min_percent,
		.hide_kernel = t->hide_kernel,
		.hide_user = t->hide_user,
	};
	struct hists_fprintf_opts fo = {
		.min_percent = t->min_percent,
		.use_callchain = t->use_callchain,
		.skip_first_sym = !t->fields && t->sort && !strncmp(t->sort, "sym", 3),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	top__winsize(t);
	width = t->cols - 1;
	top__header(line, sizeof(line), &t->counts, &t->hdr);
	printf("\033[H\033[2J\n%s\n", line);
	for (int i = 0; i < width; i++)
		putchar('-');
	putchar('\n');
	if (t->nr_lost_records != t->lost_warned) {
		t->lost_warned = t->nr_lost_records;
		printf("WARNING: LOST %llu chunks, Check IO/CPU overload",
		       (unsigned long long)t->nr_lost_records);
		printed++;
	}
	putchar('\n');
	v.max_entries = (size_t)(t->entries ? t->entries : t->rows - 5 > 1 ? t->rows - 5 : 1);
	v.max_entries = v.max_entries > (size_t)printed ? v.max_entries - (size_t)printed : 1;
	if (hists__output_resort(t->shown, &t->so)) {
		t->err = -ENOMEM;
		record_loop__set_stop(&done);
		return;
	}
	top_hists__narrow(t->shown, &t->so, &v);
	mem = open_memstream(&buf, &len);
	if (mem) {
		hists__fprintf(t->shown, &t->so, &t->cc, &fo, mem);
		fclose(mem);
		top__put_cut(buf, len, width, stdout);
		free(buf);
	}
	fflush(stdout);
}

/* Let the model drop the threads that exited (on the live thread, which
 * alone changes the model; the lock keeps the browser off the hists). */
static void top__release(struct top_cmd *t)
{
	if (!t->err)
		t->err = top__install(t, false);
	pr_debug2("top: %zu samples held (%zu bytes), %zu DSOs loading\n", t->held.nr,
		  t->held.cap, t->loader ? dso_loader__pending(t->loader) : 0);
	top__lock(t);
	t->nr_released += top__release_exited(t->session->machine, t->hists, 2,
					      &t->nr_dsos_released);
	top__unlock(t);
}

/* TUI: the live thread's tick. */
static void top__tui_tick(void *arg)
{
	top__release(arg);
}

static void top__reset_counts(struct top_cmd *t)
{
	t->counts.samples = t->counts.kernel = t->counts.exact = 0;
	t->counts.lost = t->counts.throttles = 0;
}

/* Every -d seconds (--stdio): show, then age the entries (or start
 * again, -z). */
static void top__refresh(void *arg)
{
	struct top_cmd *t = arg;

	if (!t->err)
		t->err = top__install(t, false);
	top__print_stdio(t);
	top__reset_counts(t);
	if (t->zero) {
		if (top__hists_init(t, t->fill)) {
			t->err = -ENOMEM;
			record_loop__set_stop(&done);
		}
	} else if (top_hists__decay(t->shown)) {
		t->err = -ENOMEM;
		record_loop__set_stop(&done);
	}
	top__release(t);
}

/*
 * TUI refresh (struct tui_live, lock held): the entries of the interval
 * and those before it, aged, sorted for the browser; with -z the hists
 * that took the interval's samples are shown and the other one takes the
 * next interval's. 0, 1 when the live session is over, -ENOMEM.
 */
static int top__tui_refresh(void *arg)
{
	struct top_cmd *t = arg;
	struct top_view v = { .hide_kernel = t->hide_kernel, .hide_user = t->hide_user };

	if (t->ended)
		return 1;
	if (t->zero) {
		t->shown = &t->hists[t->fill];
		t->fill = !t->fill;
		if (top__hists_init(t, t->fill))
			return -ENOMEM;
	} else if (t->refreshed && top_hists__decay(t->shown)) {
		return -ENOMEM;
	}
	t->refreshed = true;
	/* what 'a' shows ages with the entries (also with -z, so that an
	 * entry shown has its counts) */
	if (t->ann)
		annotation_set__decay(t->ann, 7);
	if (hists__output_resort(t->shown, &t->so))
		return -ENOMEM;
	top_hists__narrow(t->shown, &t->so, &v);
	top__title(t->title, sizeof(t->title), t->shown, &t->counts, &t->hdr, t->zero);
	top__reset_counts(t);
	return 0;
}

/* 'z' in the TUI: the entries start again. */
static void top__tui_zero(void *arg)
{
	struct top_cmd *t = arg;

	if (top__hists_init(t, t->fill))
		t->err = -ENOMEM;
	t->refreshed = false;
}

static void top__tui_title(void *arg, char *buf, size_t size)
{
	struct top_cmd *t = arg;

	snprintf(buf, size, "%s", t->title);
}

/* 'a' in the TUI (lock held): the entry's symbol in the annotate
 * browser, with the samples counted at its addresses so far. */
static int top__tui_annotate(void *arg, struct hist_entry *he)
{
	struct top_cmd *t = arg;
	struct annotate_opts ao = { .percent_type = PERCENT_LOCAL_PERIOD };
	struct annotated_sym **all, *as = NULL;
	size_t nr = 0;

	all = t->ann ? annotation_set__sorted(t->ann, &nr) : NULL;
	for (size_t i = 0; i < nr && !as; i++)
		if (all[i]->sym == he->sym && all[i]->dso == he->dso)
			as = all[i];
	if (!as)
		return -ENOENT;
	annotate_opts__config(&ao, NULL);	/* a bad value: named, default kept */
	return tui__browse_annotate(t->ann, &as, 1, &ao, NULL);
}

static void *top__live_thread(void *arg)
{
	struct top_cmd *t = arg;
	int err;

	dso_loader__attach(t->loader);	/* this thread resolves */
	err = live__run(t->live, &done);
	dso_loader__attach(NULL);

	top__lock(t);
	t->ended = true;	/* the browser's next refresh ends it */
	top__unlock(t);
	return (void *)(intptr_t)err;
}

/*
 * The report browser over the live hists: the session runs on a second
 * thread, the browser refreshes every -d seconds. Returns live__run()'s
 * result, or -ENOMEM/-EIO of the browser.
 */
static int top__browse(struct top_cmd *t, struct live *live)
{
	struct tui_live lv = {
		.refresh_ms = (unsigned int)(t->delay * 1000),
		.refresh = top__tui_refresh,
		.zero = top__tui_zero,
		.title = top__tui_title,
		.lock = top__lock,
		.unlock = top__unlock,
		.shown = &t->shown,
		.annotate = top__tui_annotate,
		.arg = t,
	};
	struct tui_report_opts o = {
		.so = &t->so,
		.cc = &t->cc,
		.use_callchain = t->use_callchain,
		.min_percent = t->min_percent,
		.live = &lv,
	};
	struct tui_event ev = { .name = evsel__name(t->evsel) };
	pthread_t tid;
	void *ret = NULL;
	int err;

	t->ann = annotation_set__new();
	if (!t->ann)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	t->locking = true;
	t->live = live;
	live__set_tick(live, lv.refresh_ms, top__tui_tick, t);
	if (pthread_create(&tid, NULL, top__live_thread, t)) {
		t->locking = false;
		return -errno;
	}
	top__lock(t);
	err = top__tui_refresh(t);
	ev.hists = t->shown;
	if (!err)
		err = tui__browse_report(&ev, 1, &o);
	t->user_quit = !t->ended;
	record_loop__set_stop(&done);
	top__unlock(t);
	pthread_join(tid, &ret);
	tui__exit();
	t->locking = false;
	pthread_mutex_destroy(&t->lock);
	if (err > 0)
		err = 0;
	return err ? err : (int)(intptr_t)ret;
}

/* Does s start with an item of report's -g display syntax (a mode,
 * order, key, value or a threshold number)? */
static bool top__display_word(const char *s)
{
	static const char *const words[] = {
		"graph", "flat", "fractal", "folded", "none", "caller", "callee",
		"function", "address", "srcline", "percent", "period", "count",
	};
	size_t len = strcspn(s, ",");

	if ((s[0] >= '0' && s[0] <= '9') || s[0] == '.')
		return true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && !strncmp(words[i], s, len))
			return true;
	return false;
}

/* -g / --call-graph: "fp", "dwarf[,size]" first, then report's display
 * items (graph,0.5,caller,...). 0 or -1 after a message. */
static int top__parse_callgraph(struct top_cmd *t, const char *arg)
{
	const char *rest = arg;
	char *end;

	t->callchain = true;
	t->cg = (struct callchain_record){ .mode = CALLCHAIN_RECORD_FP };
	/* perf-config(1): -g alone unwinds as top.call-graph says, else as
	 * call-graph.record-mode */
	if (!arg)
		arg = config__get("top.call-graph");
	if (!arg)
		arg = config__get("call-graph.record-mode");
	if (!arg)
		return 0;
	if (!strncmp(arg, "fp", 2) && (!arg[2] || arg[2] == ',')) {
		rest = arg + 2;
	} else if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		t->cg.mode = CALLCHAIN_RECORD_DWARF;
		t->cg.dwarf_size = CALLCHAIN_RECORD_DWARF_SIZE;
		rest = arg + 5;
		if (*rest == ',' && rest[1] >= '0' && rest[1] <= '9') {
			unsigned long v = strtoul(rest + 1, &end, 0);

			if ((*end && *end != ',') || !v || v > CALLCHAIN_RECORD_DWARF_MAX) {
				fprintf(stderr, "prf top: bad --call-graph dwarf stack size '%s'\n", rest + 1);
				return -1;
			}
			t->cg.dwarf_size = (unsigned int)((v + 7) & ~7UL);
			rest = end;
		}
	} else if (!strncmp(arg, "lbr", 3)) {
		fprintf(stderr, "prf top: --call-graph lbr needs a PMU with LBR, which prf does not drive\n");
		return -1;
	} else if (!top__display_word(arg)) {
		fprintf(stderr, "callchain: Unknown --call-graph option value: %s\n", arg);
		return -1;
	}
	if (*rest == ',')
		rest++;
	if (*rest && callchain_param__parse(&t->cc, rest))
		return -1;
	return 0;
}

static int callgraph_cb(const struct option *opt, const char *arg, int unset)
{
	struct top_cmd *t = opt->value;

	if (unset) {
		t->callchain = false;
		return 0;
	}
	return top__parse_callgraph(t, arg);
}

static int children_cb(const struct option *opt, const char *arg, int unset)
{
	struct top_cmd *t = opt->value;

	(void)arg;
	t->children = unset ? 0 : 1;
	return 0;
}

static int percent_limit_cb(const struct option *opt, const char *arg, int unset)
{
	struct top_cmd *t = opt->value;
	char *end;
	double v;

	if (unset || !arg)
		return 0;
	v = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%")) || v < 0 || v > 100) {
		fprintf(stderr, "prf top: invalid --percent-limit '%s'\n", arg);
		return -1;
	}
	t->min_percent = v;
	t->cc.min_percent = v;
	return 0;
}

/* Check and derive what the options say. 0, or 129 after a message. */
static int top__check_options(struct top_cmd *t)
{
	char *end;
	bool children;

	/* perf-config(1) top.children, under --children/--no-children */
	if (t->children < 0) {
		int r = config__get_bool("top.children", &children);

		if (r < 0)
			return 129;
		if (r)
			t->children = children;
	}
	t->delay = 2;	/* perf top's default refresh, seconds */
	if (t->delay_str) {
		t->delay = strtod(t->delay_str, &end);
		if (end == t->delay_str || *end || !(t->delay > 0) || t->delay > 3600) {
			fprintf(stderr, "prf top: bad -d/--delay '%s' (seconds, > 0)\n", t->delay_str);
			return 129;
		}
	}
	t->freq = TOP_DEFAULT_FREQ;
	if (t->freq_str) {
		t->freq = strtoull(t->freq_str, &end, 0);
		if (end == t->freq_str || *end || !t->freq) {
			fprintf(stderr, "prf top: bad -F/--freq '%s' (Hz, > 0)\n", t->freq_str);
			return 129;
		}
	}
	if (t->mmap_str) {
		unsigned long v = strtoul(t->mmap_str, &end, 0);

		if (end == t->mmap_str || *end || !v || (v & (v - 1)) || v > (1UL << 20)) {
			fprintf(stderr, "prf top: bad -m/--mmap-pages '%s' (a power of 2)\n", t->mmap_str);
			return 129;
		}
		t->mmap_pages = (unsigned int)v;
	}
	if (t->max_stack < 1 || t->max_stack > 1024) {
		fprintf(stderr, "prf top: --max-stack must be between 1 and 1024\n");
		return 129;
	}
	if (t->entries < 0) {
		fprintf(stderr, "prf top: bad -E/--entries %d\n", t->entries);
		return 129;
	}
	if (t->realtime < 0 || t->realtime > 99) {
		fprintf(stderr, "prf top: bad -r/--realtime %d (1..99)\n", t->realtime);
		return 129;
	}
	if ((t->pid_str || t->tid_str) && t->system_wide)
		t->system_wide = false;	/* as perf: the task target wins */
	{
		struct sample_filter_args fa = {
			.cmd = "top", .comms = t->comms, .dsos = t->dsos, .symbols = t->symbols,
		};

		if (sample_filter__parse(&t->filter, &fa))
			return 129;
	}
	if (!t->cc.order_set)
		t->cc.order = t->callchain && t->children != 0 ? ORDER_CALLER : ORDER_CALLEE;
	if (sort_order__parse(&t->so, t->sort ? t->sort : "dso,sym", t->fields,
			      t->callchain && t->children != 0, t->show_nr_samples, t->show_period,
			      NULL))
		return 129;
	t->use_callchain = t->callchain;
	t->ropts.max_stack = t->max_stack;
	t->ropts.inline_frames = false;
	return 0;
}

/* The events: -e, else cycles:P (cpu-clock where there is no PMU),
 * sampled at -F Hz or every -c events, with callchains for -g. NULL
 * after a message. */
static struct evlist *top__evlist(struct top_cmd *t)
{
	struct evlist *evlist = evlist__new();
	struct evsel *evsel;
	bool cpu_wide = t->system_wide || t->cpu_list;

	if (!evlist)
		return NULL;
	if (t->events) {
		struct parse_events_error perr;

		parse_events_error__init(&perr);
		if (parse_events(evlist, t->events, &perr)) {
			/* one line: the event and the parser's reason */
			if (perr.str)
				fprintf(stderr, "prf top: %s (see 'prf list')\n", perr.str);
			else
				fprintf(stderr, "prf top: bad event '%s' (see 'prf list')\n", t->events);
			parse_events_error__exit(&perr);
			evlist__delete(evlist);
			return NULL;
		}
		parse_events_error__exit(&perr);
	} else {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_CPU_CYCLES,
			.precise_ip = 3,
		};
		struct evsel *def = evsel__new(&attr);

		if (!def) {
			evlist__delete(evlist);
			return NULL;
		}
		evsel__set_name(def, "cycles:P");
		evlist__add(evlist, def);
	}
	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *a = &evsel->attr;

		a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
				  PERF_SAMPLE_TIME;
		if (cpu_wide)
			a->sample_type |= PERF_SAMPLE_CPU;
		if (t->callchain)
			callchain_record__config(&t->cg, a, PERF_REGS_X86_64_USER_MASK);
		if (a->type == PERF_TYPE_TRACEPOINT) {
			a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
			if (!a->sample_period && !a->freq)
				a->sample_period = 1;
		}
		if (t->count) {
			a->freq = 0;
			a->sample_period = t->count;
		} else if (!a->sample_period) {
			a->freq = 1;
			a->sample_freq = t->freq;
		}
	}
	return evlist;
}

/* What the header line names: the event, its rate, the target (a
 * command: its pid, as -p would). */
static void top__set_header(struct top_cmd *t, struct evlist *evlist, struct live *live)
{
	static char pid_buf[32];
	struct perf_event_attr *a = &t->evsel->attr;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	t->hdr.evname = evsel__name(t->evsel);
	t->hdr.freq = a->freq;
	t->hdr.period = a->freq ? a->sample_freq : a->sample_period;
	t->hdr.one_event = evlist->nr_entries == 1;
	t->hdr.pid_str = t->pid_str;
	t->hdr.tid_str = t->tid_str;
	t->hdr.cpu_list = t->cpu_list;
	t->hdr.delay_secs = t->delay;
	t->hdr.nr_cpus = (int)(n > 0 ? n : 1);
	/* as perf: "CPU" or "CPUs" by how many -C names */
	if (t->cpu_list)
		t->hdr.nr_cpus = strpbrk(t->cpu_list, ",-") ? 2 : 1;
	if (live__workload_pid(live) > 0 && !t->pid_str && !t->tid_str && !t->system_wide &&
	    !t->cpu_list) {
		snprintf(pid_buf, sizeof(pid_buf), "%d", (int)live__workload_pid(live));
		t->hdr.pid_str = pid_buf;
	}
}

/* Has this process CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in effect? */
static bool top__has_perfmon(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long caps = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7))
			caps = strtoull(line + 7, NULL, 16);
	fclose(f);
	return caps & ((1ULL << 38) | (1ULL << 21));
}

/*
 * Cpu-wide sampling (-a, -C) that perf_event_paranoid refuses this user:
 * perf top's message and hint, word for word, so that the user learns
 * the setting and its levels. true when printed.
 */
static bool top__paranoid_refused(const struct top_cmd *t)
{
	int paranoid = 2;
	FILE *f;

	if (!t->system_wide && !t->cpu_list)
		return false;
	if (!geteuid() || top__has_perfmon())
		return false;
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	if (paranoid < 1)
		return false;
	fprintf(stderr,
		"Error:\n"
		"Access to performance monitoring and observability operations is limited.\n"
		"Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n"
		"access to performance monitoring and observability operations for processes\n"
		"without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.\n"
		"More information can be found at 'Perf events and tool security' document:\n"
		"https://www.kernel.org/doc/html/latest/admin-guide/perf-security.html\n"
		"perf_event_paranoid setting is %d:\n"
		"  -1: Allow use of (almost) all events by all users\n"
		"      Ignore mlock limit after perf_event_mlock_kb without CAP_IPC_LOCK\n"
		">= 0: Disallow raw and ftrace function tracepoint access\n"
		">= 1: Disallow CPU event access\n"
		">= 2: Disallow kernel profiling\n"
		"To make the adjusted perf_event_paranoid setting permanent preserve it\n"
		"in /etc/sysctl.conf (e.g. kernel.perf_event_paranoid = <setting>)\n", paranoid);
	return true;
}

static int top__run(struct top_cmd *t, const char **argv)
{
	struct live_target lt = {
		.pid_str = t->pid_str, .tid_str = t->tid_str, .cpu_list = t->cpu_list,
		.system_wide = t->system_wide, .no_inherit = t->no_inherit,
		.synth_kernel = true, .mmap_pages = t->mmap_pages,
	};
	struct evlist *evlist = top__evlist(t);
	struct live_record rec = {
		.path = t->record_path, .version = PRF_VERSION, .argc = t->argc, .argv = t->argv,
	};
	struct live *live;
	int err = 0, status;
	bool has_cmd = argv && argv[0];

	if (t->record_path)
		lt.record = &rec;
	if (!evlist)
		return t->events ? 129 : 1;
	if (top__paranoid_refused(t)) {
		evlist__delete(evlist);
		return 1;
	}
	perf_tool__init(&t->tool, false);
	t->tool.sample = top__sample;
	t->tool.lost = top__lost;
	t->tool.throttle = top__throttle;
	t->shown = &t->hists[0];
	if (resolved_sample__init(&t->rs, true) || top__hists_init(t, 0)) {
		evlist__delete(evlist);
		return 1;
	}
	live__stop_on_signals(&done);
	live = live__new(evlist, &lt, argv, &t->tool, &err);
	if (!live)
		return 1;	/* after live__new()'s message */
	t->session = live__session(live);
	t->evsel = evlist__first(t->session->data.evlist);
	/* symbols load on a thread of their own (none: in place) */
	t->loader = dso_loader__new();
	top__set_header(t, t->session->data.evlist, live);
	if (t->use_tui && !tui__init()) {
		err = top__browse(t, live);
	} else {
		live__set_tick(live, (unsigned int)(t->delay * 1000), top__refresh, t);
		dso_loader__attach(t->loader);
		err = live__run(live, &done);
		dso_loader__attach(NULL);
	}
	if (live__exec_error(live)) {
		fprintf(stderr, "Workload failed: %s\n", strerror(-err));
		dso_loader__delete(t->loader);
		t->loader = NULL;
		live__delete(live);
		return 255;
	}
	if (!err && t->err)
		err = t->err;
	if (verbose > 0)
		top__fprintf_model(stderr, t->session->machine, t->nr_released,
				   t->nr_dsos_released);
	if (t->record_path)
		fprintf(stderr, "[ prf top: wrote %.3f MB to %s (%llu samples) ]\n",
			(double)live__record_bytes(live) / (1024 * 1024), t->record_path,
			(unsigned long long)live__record_samples(live));
	if (err) {
		fprintf(stderr, "prf top: %s\n", strerror(-err));
		status = 1;
	} else if (t->user_quit) {
		status = 0;
	} else if ((!done || t->use_tui) && !has_cmd && (t->pid_str || t->tid_str)) {
		fprintf(stderr, "prf top: the profiled %s %s exited\n",
			t->pid_str ? "process" : "thread", t->pid_str ? t->pid_str : t->tid_str);
		status = 0;
	} else {
		status = has_cmd ? live__exit_status(live) : 0;
	}
	dso_loader__delete(t->loader);
	t->loader = NULL;
	top_held__exit(&t->held);
	live__delete(live);
	t->session = NULL;
	return status;
}

int cmd_top(int argc, const char **argv)
{
	static char outbuf[1 << 16];
	struct top_cmd *t = zalloc(sizeof(*t));
	int status = 1;

	if (!t)
		return 1;
	t->children = -1;
	t->max_stack = 127;
	/* the command line as given, for --record's HEADER_CMDLINE (the
	 * option parser reorders argv) */
	t->argc = argc;
	t->argv = calloc((size_t)argc + 1, sizeof(*t->argv));
	if (!t->argv) {
		free(t);
		return 1;
	}
	memcpy(t->argv, argv, (size_t)argc * sizeof(*argv));
	callchain_param__init(&t->cc);
	{
		const struct option options[] = {
			OPT_STRING('e', "event", &t->events, "event",
				   "event selector. use 'prf list' to list available events"),
			OPT_U64('c', "count", &t->count, "event period to sample"),
			OPT_STRING('p', "pid", &t->pid_str, "pid", "profile events on existing process id"),
			OPT_STRING('t', "tid", &t->tid_str, "tid", "profile events on existing thread id"),
			OPT_BOOLEAN('a', "all-cpus", &t->system_wide,
				    "system-wide collection from all CPUs (the default)"),
			OPT_STRING('C', "cpu", &t->cpu_list, "cpu", "list of cpus to monitor"),
			OPT_BOOLEAN(0, "no-inherit", &t->no_inherit, "child tasks do not inherit counters"),
			OPT_BOOLEAN('K', "hide_kernel_symbols", &t->hide_kernel, "hide kernel symbols"),
			OPT_BOOLEAN('U', "hide_user_symbols", &t->hide_user, "hide user symbols"),
			OPT_STRING('m', "mmap-pages", &t->mmap_str, "pages", "number of mmap data pages"),
			OPT_INTEGER('r', "realtime", &t->realtime, "collect data with this RT SCHED_FIFO priority"),
			OPT_STRING('d', "delay", &t->delay_str, "seconds",
				   "number of seconds to delay between refreshes"),
			OPT_INTEGER('E', "entries", &t->entries, "display this many functions"),
			OPT_BOOLEAN('z', "zero", &t->zero, "zero history across updates"),
			OPT_STRING('F', "freq", &t->freq_str, "freq", "profile at this frequency"),
			OPT_BOOLEAN(0, "stdio", &t->use_stdio, "Use the stdio interface"),
			OPT_BOOLEAN(0, "tui", &t->use_tui, "Use the TUI interface"),
			OPT_BOOLEAN('n', "show-nr-samples", &t->show_nr_samples,
				    "Show a column with the number of samples"),
			OPT_BOOLEAN(0, "show-total-period", &t->show_period,
				    "Show a column with the sum of periods"),
			OPT_STRING('s', "sort", &t->sort, "key[,key2...]",
				   "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, ..."),
			OPT_STRING(0, "fields", &t->fields, "key[,keys...]",
				   "output field(s): overhead, period, sample plus all of sort keys"),
			OPT_CALLBACK_NOOPT('g', NULL, t, "Enables call-graph recording and display",
					   callgraph_cb),
			OPT_CALLBACK(0, "call-graph", t, "record_mode[,record_size],print_type,threshold[,print_limit],order,sort_key[,branch]",
				     "setup and enables call-graph (stack chain/backtrace) recording: fp, dwarf",
				     callgraph_cb),
			OPT_CALLBACK_NOOPT(0, "children", t,
					   "Accumulate callchains of children and show total overhead as well",
					   children_cb),
			OPT_UINTEGER(0, "max-stack", &t->max_stack,
				     "Set the maximum stack depth when parsing the callchain (default 127)"),
			OPT_CALLBACK(0, "percent-limit", t, "percent",
				     "Don't show entries under that percent", percent_limit_cb),
			OPT_STRING(0, "comms", &t->comms, "comm[,comm...]",
				   "only consider symbols in these comms"),
			OPT_STRING(0, "dsos", &t->dsos, "dso[,dso...]", "only consider symbols in these dsos"),
			OPT_STRING(0, "symbols", &t->symbols, "symbol[,symbol...]",
				   "only consider these symbols"),
			OPT_STRING(0, "record", &t->record_path, "file",
				   "also write the session to this perf.data file (beyond perf)"),
			OPT_INCR('v', "verbose", &verbose, "be more verbose (show counter open errors, etc)"),
			OPT_END()
		};

		argc = parse_options(argc, argv, options, top_usage, PARSE_OPT_STOP_AT_NON_OPTION);
		if (argc < 0) {
			status = 129;
			goto out;
		}
	}
	status = top__check_options(t);
	if (status)
		goto out;
	/* as perf: no target profiles the whole system */
	if (argc == 0 && !t->pid_str && !t->tid_str && !t->cpu_list)
		t->system_wide = true;
	if (t->realtime) {
		struct sched_param param = { .sched_priority = t->realtime };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			fprintf(stderr, "Could not set realtime priority: %s\n", strerror(errno));
			status = 1;
			goto out;
		}
	}
	/* as perf: the browser when stdout is a terminal and slang loads */
	t->use_tui = !t->use_stdio && tui__usable() == 0;
	if (!t->use_tui)
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	status = top__run(t, argv);
out:
	fflush(stdout);
	for (int i = 0; i < 2; i++)
		if (t->hists_ok[i])
			hists__exit(&t->hists[i]);
	sort_order__exit(&t->so);
	resolved_sample__exit(&t->rs);
	sample_filter__exit(&t->filter);
	annotation_set__delete(t->ann);
	free(t->argv);
	free(t);
	return status;
}
