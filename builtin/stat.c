// SPDX-License-Identifier: GPL-2.0
/*
 * prf stat: count events for a command, processes/threads (-p/-t) or the
 * whole system (-a/-C) and print them as perf 6.1 does (human, -x CSV or
 * -j JSON), optionally repeated (-r) or at intervals (-I).
 *
 * Flow: parse options -> evlist (parse-events or the default set) ->
 * cpu/thread maps -> per run: fork corked workload, open counters
 * (enable_on_exec for the workload), uncork, wait, read, aggregate
 * (util/analysis/stat.c) -> print (util/analysis/stat-display.c).
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "../util/analysis/stat.h"
#include "../util/analysis/stat-display.h"
#include "../util/analysis/stat-report.h"
#include "../util/format/features-write.h"
#include "../util/format/stat-event.h"
#include "../util/format/writer.h"
#include "../util/kernel/cgroup.h"
#include "../util/kernel/cpumap.h"
#include "../util/kernel/evlist.h"
#include "../util/kernel/parse-events.h"
#include "../util/kernel/thread_map.h"
#include "../util/kernel/tracefs.h"
#include "../util/kernel/workload.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/strbuf.h"
#include "../util/lib/util.h"

struct stat_opts {
	struct evlist *evlist;
	bool system_wide;
	bool no_aggr;
	bool per_thread;
	bool no_inherit;
	bool json;
	bool big_num;
	bool quiet;
	bool null_run;
	const char *cpu_list;
	const char *pid;
	const char *tid;
	const char *output_name;
	bool append;			/* --append: -o/--log-fd file appended to */
	int log_fd;			/* --log-fd N: output to fd N; 0: stderr */
	const char *pre_cmd;		/* --pre: shell command before each run */
	const char *post_cmd;		/* --post: shell command after each run */
	int delay;			/* -D ms after the start; < 0: never enable */
	bool interval_clear;		/* --interval-clear */
	bool no_merge;			/* --no-merge: a row per PMU of an event
					   (stat__uniquify_names()) */
	bool summary;			/* --summary: the total block after -I */
	bool no_csv_summary;		/* --no-csv-summary: no "summary" field */
	bool table;			/* --table: each run's elapsed time (-r) */
	bool metric_only;		/* --metric-only */
	int detailed;			/* -d, -dd, -ddd: cache events added */
	int per_topology;		/* --per-core/socket/die/node: AGGR_*, 0: none */
	const char *csv_sep;
	int run_count;
	unsigned int interval;		/* ms */
	unsigned int interval_count;
	unsigned int timeout;		/* ms */
	int verbose;
	bool record;			/* stat record: -o is the perf.data file */
	int nr_cgroups;			/* -G names given so far (empty ones too) */
	struct strbuf metrics;		/* -M lists, comma-joined */
	bool metric_no_group, metric_no_merge;	/* --metric-no-group/-merge */
	struct stat_metrics sm;		/* -M's metrics and their events */
	bool topdown;			/* --topdown */
	unsigned int td_level;		/* --td-level */
	const char *for_each_cgroup;	/* --for-each-cgroup LIST */
};

/* -M LIST: kept; the metrics are added once the target is known
 * (stat__add_metrics). */
static int stat__parse_metrics(const struct option *opt, const char *arg, int unset)
{
	struct stat_opts *o = opt->value;

	if (unset || !arg)
		return 0;
	if (o->metrics.len)
		strbuf_addch(&o->metrics, ',');
	return strbuf_addstr(&o->metrics, arg) ? -1 : 0;
}

/*
 * --topdown needs the PMU's topdown events in sysfs: without them perf's
 * messages and a failure, with them a failure too (not implemented). 0 to
 * go on, else the exit status (message printed).
 */
static int stat__check_metrics(const struct stat_opts *o, bool cpu_wide)
{
	if (o->topdown) {
		if (o->td_level > 1) {
			pr_err("Invalid top-down metrics level. The max level is 1.\n");
			return 129;
		}
		if (!cpu_wide) {
			pr_err("top down event configuration requires system-wide mode (-a)\n");
			return 129;
		}
		if (access("/sys/bus/event_source/devices/cpu/events/topdown-retiring", F_OK) &&
		    access("/sys/bus/event_source/devices/cpu/events/topdown-total-slots", F_OK))
			pr_err("System does not support topdown\n");
		else
			pr_err("prf stat: --topdown is not implemented (no metric tables)\n");
		return 1;
	}
	return 0;
}

/*
 * -M: the metrics' events join the evlist (util/analysis/stat-metric.h).
 * When a name is unknown or the events do not parse here (a CPU without
 * the PMU they need), perf's message is printed and the run goes on
 * without metrics, with the default events, as perf's does: a metric gets
 * a value only from events that counted. 0, or 1 when out of memory.
 */
static int stat__add_metrics(struct stat_opts *o, bool cpu_wide)
{
	if (!o->metrics.len)
		return 0;
	return stat_metrics__add(&o->sm, o->evlist, o->metrics.buf, o->metric_no_group,
				 o->metric_no_merge, cpu_wide) < 0;
}

/* -G LIST: cgroups for the events defined so far (cgroup.h). */
static int stat__parse_cgroups(const struct option *opt, const char *arg, int unset)
{
	struct stat_opts *o = opt->value;

	if (unset || !arg)
		return 0;
	if (o->for_each_cgroup) {
		pr_err("--cgroup and --for-each-cgroup cannot be used together\n");
		return -1;
	}
	return cgroup__parse_list(o->evlist, arg, &o->nr_cgroups);
}

/*
 * stat record: the counters' attrs and ids go into a perf.data header (file
 * or pipe), then the slots (THREAD_MAP, CPU_MAP), STAT_CONFIG, and for each
 * interval or at the end one PERF_RECORD_STAT per counter slot with its raw
 * reading and a STAT_ROUND with the time, as perf 6.1 writes them.
 */
struct stat_rec {
	struct perf_data_writer w;
	bool open;			/* header written */
	struct writer_attr *attrs;
	const char **names;
	uint64_t **ids;			/* copies: the counters close before the
					   header is rewritten at the end */
	int nr;
	int argc;			/* the command line, for HEADER_CMDLINE */
	const char **argv;
	int err;			/* first error, -errno */
};

/* Set from signal handlers, read by the wait loops. */
static volatile sig_atomic_t stat_done;
static volatile sig_atomic_t stat_signr;

static void stat_sig_handler(int sig)
{
	stat_done = 1;
	stat_signr = sig;
}

static void stat_sigchld_handler(int sig __maybe_unused)
{
}

static void stat_setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stat_sig_handler;	/* no SA_RESTART: wait4 returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = stat_sigchld_handler;
	sigaction(SIGCHLD, &sa, NULL);
}

/* perf's default event set (cpu-clock instead of task-clock for -a/-C). */
static int stat__add_default_events(struct evlist *evlist, bool cpu_wide)
{
	static const struct { uint32_t type; uint64_t config; } defs[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	};
	struct perf_event_attr attrs[ARRAY_SIZE(defs)];
	size_t i;

	memset(attrs, 0, sizeof(attrs));
	for (i = 0; i < ARRAY_SIZE(defs); i++) {
		attrs[i].size = sizeof(attrs[i]);
		attrs[i].type = defs[i].type;
		attrs[i].config = defs[i].config;
		attrs[i].exclude_guest = 1;	/* as perf's tool defaults: host only */
	}
	if (cpu_wide)
		attrs[0].config = PERF_COUNT_SW_CPU_CLOCK;
	return evlist__add_attrs(evlist, attrs, ARRAY_SIZE(defs));
}

/*
 * -d/-dd/-ddd: perf's detailed sets of generic cache events, added after
 * the other events; level 1: L1-dcache and LLC loads and load misses,
 * 2: also L1-icache, dTLB and iTLB, 3: also L1-dcache prefetches.
 */
static int stat__add_detailed_events(struct evlist *evlist, int level)
{
#define CACHE(id, op, res) ((id) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
			    (PERF_COUNT_HW_CACHE_RESULT_##res << 16))
	static const struct { int level; uint64_t config; } defs[] = {
		{ 1, CACHE(PERF_COUNT_HW_CACHE_L1D, READ, ACCESS) },
		{ 1, CACHE(PERF_COUNT_HW_CACHE_L1D, READ, MISS) },
		{ 1, CACHE(PERF_COUNT_HW_CACHE_LL, READ, ACCESS) },
		{ 1, CACHE(PERF_COUNT_HW_CACHE_LL, READ, MISS) },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_L1I, READ, ACCESS) },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_L1I, READ, MISS) },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, ACCESS) },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, MISS) },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_ITLB, READ, ACCESS) },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_ITLB, READ, MISS) },
		{ 3, CACHE(PERF_COUNT_HW_CACHE_L1D, PREFETCH, ACCESS) },
		{ 3, CACHE(PERF_COUNT_HW_CACHE_L1D, PREFETCH, MISS) },
	};
#undef CACHE
	struct perf_event_attr attrs[ARRAY_SIZE(defs)];
	size_t i, n = 0;

	memset(attrs, 0, sizeof(attrs));
	for (i = 0; i < ARRAY_SIZE(defs); i++) {
		if (defs[i].level > level)
			continue;
		attrs[n].size = sizeof(attrs[n]);
		attrs[n].type = PERF_TYPE_HW_CACHE;
		attrs[n].config = defs[i].config;
		attrs[n].exclude_guest = 1;
		n++;
	}
	return n ? evlist__add_attrs(evlist, attrs, n) : 0;
}

/* attr bits stat needs, per evsel. */
static void stat__config_attrs(struct evlist *evlist, const struct stat_opts *o, bool workload_target)
{
	struct evsel *evsel;

	evlist__update_groups(evlist);
	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *attr = &evsel->attr;
		bool leader = evsel__is_group_leader(evsel);

		attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (leader && evsel->nr_members > 1)
			attr->read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		else if (!leader)
			attr->read_format |= PERF_FORMAT_ID;
		attr->inherit = !o->no_inherit;
		attr->sample_period = 0;
		/* a stat record file maps its STAT records to events by id */
		attr->sample_type = o->record ? PERF_SAMPLE_IDENTIFIER : 0;
		attr->freq = 0;
		attr->disabled = leader;
		/* -D: enabled by hand after the delay, not at exec */
		attr->enable_on_exec = leader && workload_target && !o->delay;
	}
}

/* Open errors perf 6.1's stat takes for "not supported" (the event is
 * skipped, not fatal): the PMU lacks it or rejects its attributes. */
static bool stat__err_unsupported(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -EINVAL ||
	       err == -ENOSYS || err == -ENXIO;
}

/*
 * Open every evsel; events the machine lacks are remembered as
 * unsupported (printed "<not supported>"), members of a group whose
 * leader failed as not counted. Returns 0 or -errno after printing why.
 */
static int stat__open_counters(struct evlist *evlist, struct perf_cpu_map *cpus,
			       struct perf_thread_map *threads)
{
	struct evsel *evsel;
	char msg[512];

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);
		int err;

		if (!evsel__is_group_leader(evsel) && !evsel->leader->fds) {
			st->open_err = -EBADF;
			if (evsel->leader->unsupported)
				evsel->unsupported = true;
			continue;
		}
		err = evsel__open(evsel, cpus, threads);
		if (err == -EINVAL && (evsel->attr.read_format & PERF_FORMAT_GROUP)) {
			/* Older kernels refuse inherit with PERF_FORMAT_GROUP: read members one by one. */
			struct evsel *pos;

			evsel->attr.read_format &= ~PERF_FORMAT_GROUP;
			evlist__for_each_entry(evlist, pos)
				if (pos->leader == evsel)
					pos->attr.read_format &= ~PERF_FORMAT_GROUP;
			err = evsel__open(evsel, cpus, threads);
		}
		if (evsel__fallback_exclude_kernel(evsel, err))
			err = evsel__open(evsel, cpus, threads);
		st->open_err = err;
		if (!err)
			continue;
		/* an unsupported leader of a real group (weak or not) stops the
		 * run, as perf 6.1: its members could not count without it */
		if (stat__err_unsupported(err) &&
		    !(evsel__is_group_leader(evsel) && evsel->nr_members > 1)) {
			evsel->unsupported = true;
			if (verbose > 0) {
				evsel__open_strerror(evsel, err, msg, sizeof(msg));
				pr_warning("%s\n", msg);
			}
			continue;
		}
		evsel__open_strerror(evsel, err, msg, sizeof(msg));
		pr_err("Error:\n%s\n", msg);
		return err;
	}
	return tracefs__apply_filters(evlist);
}

static void stat__print_verbose_counts(struct evlist *evlist, FILE *fp)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);
		uint64_t v = 0, e = 0, r = 0;
		int i;

		if (!st || !evsel->fds)
			continue;
		for (i = 0; i < st->nr_cpus * st->nr_threads; i++) {
			v += st->cur[i].val;
			e += st->cur[i].ena;
			r += st->cur[i].run;
		}
		fprintf(fp, "%s: %llu %llu %llu\n", evsel__name(evsel), (unsigned long long)v,
			(unsigned long long)e, (unsigned long long)r);
	}
}

static uint64_t timespec_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

/* Sleep ms milliseconds through signals (SIGCHLD), unless SIGINT/SIGTERM. */
static void stat__sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (!stat_done && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

#define TASK_POLL_NS 100000000ULL	/* -p/-t liveness check every 100 ms */

/* True while at least one task of the map still exists. */
static bool stat__tasks_alive(const struct perf_thread_map *threads)
{
	int i;

	for (i = 0; i < perf_thread_map__nr(threads); i++) {
		char path[64], *buf = NULL, *paren;
		bool alive;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)perf_thread_map__pid(threads, i));
		if (filename__read_str(path, &buf, NULL))
			continue;
		/* "pid (comm) S ...": zombies (Z) and dead (X) tasks count no more */
		paren = strrchr(buf, ')');
		alive = !paren || (paren[1] && paren[2] != 'Z' && paren[2] != 'X');
		free(buf);
		if (alive)
			return true;
	}
	return false;
}

struct stat_run {
	struct stat_opts *o;
	struct stat_display *d;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;	/* NULL: the workload's, per run */
	const char **argv;			/* workload or NULL */
	enum aggr_mode aggr;
	double walltime_run[100];		/* elapsed ns of each -r run */
	struct stat_rec *rec;			/* stat record, else NULL */
	int status;				/* workload wait status */
	struct rusage ru;
};

/* ---------------- stat record ---------------- */

/* Write sb's records to the output and empty it; the first error is kept. */
static void stat_rec__flush(struct stat_rec *rec, struct strbuf *sb)
{
	if (!rec->err && sb->len)
		rec->err = writer__write(&rec->w, sb->buf, sb->len);
	strbuf_reset(sb);
}

static bool evsel__counts_time(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		evsel->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/*
 * Once the counters are open: the header with every event's attr and ids
 * (an event that did not open has none: "<not supported>" when reported),
 * in a pipe the events' names, the units and scales perf records (clocks:
 * msec at 1e-6, tool events: ns), the slots and the configuration.
 */
static int stat_rec__start(struct stat_run *r, struct perf_thread_map *threads)
{
	static const uint64_t no_ids[1];
	struct stat_rec *rec = r->rec;
	struct evlist *evlist = r->o->evlist;
	struct strbuf sb = STRBUF_INIT;
	struct stat_event_config cfg = {
		.aggr_mode = stat_report__aggr_to_perf(r->aggr),
		.interval = r->o->interval, .scale = true,
	};
	struct evsel *evsel;
	int i = 0, err;

	rec->nr = evlist->nr_entries;
	rec->attrs = calloc((size_t)rec->nr, sizeof(*rec->attrs));
	rec->names = calloc((size_t)rec->nr, sizeof(*rec->names));
	rec->ids = calloc((size_t)rec->nr, sizeof(*rec->ids));
	if (!rec->attrs || !rec->names || !rec->ids)
		return rec->err = -ENOMEM;
	evlist__for_each_entry(evlist, evsel) {
		/* a tool event counts on the first cpu only: the ids of its slots */
		size_t nr_ids = !evsel->fds ? 0 : evsel->tool_event ? (size_t)evsel->nr_threads :
				(size_t)evsel->nr_cpus * evsel->nr_threads;

		if (nr_ids) {
			rec->ids[i] = malloc(nr_ids * sizeof(uint64_t));
			if (!rec->ids[i])
				return rec->err = -ENOMEM;
			memcpy(rec->ids[i], evsel->ids, nr_ids * sizeof(uint64_t));
		}
		rec->attrs[i].attr = &evsel->attr;
		rec->attrs[i].ids = rec->ids[i] ? rec->ids[i] : no_ids;	/* never NULL: memcpy'd */
		rec->attrs[i].nr_ids = nr_ids;
		rec->names[i++] = evsel__name(evsel);
	}
	err = writer__write_header(&rec->w, rec->attrs, rec->nr);
	if (err)
		return rec->err = err;
	rec->open = true;
	err = 0;
	evlist__for_each_entry(evlist, evsel) {
		uint64_t id;

		if (!evsel->fds || !evsel->ids)
			continue;
		id = evsel->ids[0];
		if (evsel__counts_time(evsel))
			err = err ?: stat_event__update_str(&sb, EVENT_UPDATE_UNIT, id, "msec") ?:
			      stat_event__update_scale(&sb, id, 1e-6);
		else if (evsel->tool_event)
			err = err ?: stat_event__update_str(&sb, EVENT_UPDATE_UNIT, id, "ns");
		if (evsel->tool_event && perf_cpu_map__cpu(r->cpus, 0) >= 0) {
			int cpu0 = perf_cpu_map__cpu(r->cpus, 0);

			err = err ?: stat_event__update_cpus(&sb, id, &cpu0, 1);
		}
		if (rec->w.is_pipe)	/* a file has them in EVENT_DESC */
			err = err ?: stat_event__update_str(&sb, EVENT_UPDATE_NAME, id, evsel__name(evsel));
	}
	/* -p/-t tasks carry their comm, as perf's (a workload's is not known yet) */
	if (threads == r->threads && perf_thread_map__pid(threads, 0) != -1 && !threads->map[0].comm)
		thread_map__read_comms(threads);
	err = err ?: stat_event__thread_map(&sb, threads) ?: stat_event__cpu_map(&sb, r->cpus) ?:
	      stat_event__config(&sb, &cfg);
	if (err)
		rec->err = err;
	stat_rec__flush(rec, &sb);
	strbuf_release(&sb);
	return rec->err;
}

/* Every open counter slot's raw reading, then the round (ns since the start). */
static void stat_rec__counts(struct stat_run *r, uint64_t round_type, uint64_t time)
{
	struct stat_rec *rec = r->rec;
	struct strbuf sb = STRBUF_INIT;
	struct evsel *evsel;
	int err = 0;

	if (!rec || !rec->open)
		return;
	evlist__for_each_entry(r->o->evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);

		if (!st || !evsel->fds)
			continue;
		/* a tool event's value is in its first cpu's slots only */
		int nr_cpus = evsel->tool_event ? 1 : evsel->nr_cpus;

		for (int c = 0; c < nr_cpus && c < st->nr_cpus && !err; c++) {
			for (int t = 0; t < evsel->nr_threads && t < st->nr_threads && !err; t++) {
				int k = c * evsel->nr_threads + t;
				const struct perf_counts_values *v = &st->cur[c * st->nr_threads + t];

				if (evsel->fds[k] < 0)
					continue;
				err = stat_event__stat(&sb, evsel->ids[k], perf_cpu_map__cpu(r->cpus, c), t,
						       v->val, v->ena, v->run);
			}
		}
	}
	err = err ?: stat_event__round(&sb, round_type, time);
	if (err && !rec->err)
		rec->err = err;
	stat_rec__flush(rec, &sb);
	strbuf_release(&sb);
}

/* A file gets its feature sections (HEADER_STAT among them) and its final header. */
static int stat_rec__finish(struct stat_rec *rec)
{
	struct writer_feat *feats = NULL;
	struct features_ctx ctx;
	int nr_feats = 0, err;

	if (!rec->open || rec->w.is_pipe)
		return rec->err;
	memset(&ctx, 0, sizeof(ctx));
	ctx.attrs = rec->attrs;
	ctx.names = rec->names;
	ctx.nr_attrs = rec->nr;
	ctx.version = PRF_VERSION;
	ctx.argc = rec->argc;
	ctx.argv = rec->argv;
	ctx.stat = true;
	ctx.numa_topology = true;	/* perf stat report --per-node reads it */
	writer__sync_data_size(&rec->w);
	err = features__build(&ctx, &feats, &nr_feats);
	if (!err)
		err = writer__finish(&rec->w, rec->attrs, rec->nr, feats, nr_feats);
	features__free(feats, nr_feats);
	return rec->err ?: err;
}

/* Read, print one interval; ts is ns since the run started. */
static void stat__interval_tick(struct stat_run *r, uint64_t ts, uint64_t len)
{
	evlist__stat_read(r->o->evlist);
	evlist__stat_set_tool(r->o->evlist, ts, 0, 0);	/* rusage: known at the end */
	stat_rec__counts(r, STAT_ROUND_INTERVAL, ts);
	evlist__stat_process(r->o->evlist, r->aggr, true, false);
	r->d->interval_ts = ts;
	r->d->interval_len = len;
	if (!r->o->quiet)
		stat_display__print_interval(r->d, r->o->evlist);
}

/*
 * One measured run. Returns 0, 1 when the run was cut short by a signal
 * or the interval count, or -errno (message printed). r->status gets the
 * workload's wait status.
 */
static int stat__run_once(struct stat_run *r, bool *workload_failed)
{
	struct stat_opts *o = r->o;
	struct evlist *evlist = o->evlist;
	struct workload w = { .pid = -1, .cork_fd = -1, .err_fd = -1 };
	struct perf_thread_map *threads = r->threads, *own_threads = NULL;
	bool workload_target = r->argv && !r->threads;
	struct timespec t0, t1, now;
	uint64_t last_tick, end_ns = 0;
	unsigned int ticks = 0;
	int err, child_done = 0;
	bool watch_tasks = r->threads && perf_thread_map__pid(r->threads, 0) != -1;

	r->status = 0;
	memset(&r->ru, 0, sizeof(r->ru));
	if (r->argv) {
		/* perf.data goes to stdout: the command's output goes to stderr */
		w.stdout_to_stderr = r->rec && r->rec->w.is_pipe;
		err = workload__prepare(&w, r->argv);
		if (err) {
			pr_err("Failed to start the workload: %s\n", strerror(-err));
			return err;
		}
	}
	if (workload_target) {
		own_threads = thread_map__new_by_tid(w.pid);
		if (!own_threads) {
			workload__abort(&w);
			return -ENOMEM;
		}
		threads = own_threads;
	}
	evlist__stat_reset_prev(evlist);
	if (!o->null_run) {
		err = stat__open_counters(evlist, r->cpus, threads);
		if (err) {
			workload__abort(&w);
			evlist__close(evlist);
			perf_thread_map__put(own_threads);
			return err;
		}
	}
	if (r->rec && stat_rec__start(r, threads)) {
		pr_err("prf stat record: cannot write %s: %s\n",
		       r->rec->w.is_pipe ? "stdout" : r->rec->w.path, strerror(-r->rec->err));
		workload__abort(&w);
		evlist__close(evlist);
		perf_thread_map__put(own_threads);
		return r->rec->err;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (r->argv) {
		err = workload__start(&w);
		if (err) {
			fprintf(stderr, "Workload failed: %s\n", strerror(-err));
			*workload_failed = true;
			evlist__close(evlist);
			perf_thread_map__put(own_threads);
			return err;
		}
	}
	if (o->delay) {
		pr_info("Events disabled\n");
		if (o->delay > 0) {
			stat__sleep_ms((unsigned int)o->delay);
			clock_gettime(CLOCK_MONOTONIC, &t0);	/* counting starts now */
		}
	}
	if (o->delay > 0 || (!workload_target && !o->delay))
		evlist__enable(evlist);
	if (o->delay > 0)
		pr_info("Events enabled\n");

	last_tick = 0;
	if (o->timeout)
		end_ns = (uint64_t)o->timeout * 1000000ULL;
	while (!child_done && !stat_done) {
		uint64_t elapsed, next = UINT64_MAX;

		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed = timespec_ns(&now) - timespec_ns(&t0);
		if (o->interval && (!o->interval_count || ticks < o->interval_count)) {
			uint64_t iv = (uint64_t)o->interval * 1000000ULL;

			if (elapsed >= last_tick + iv) {
				stat__interval_tick(r, elapsed, elapsed - last_tick);
				last_tick = elapsed;
				/* the count reached: as perf, the command still runs to its end */
				if (o->interval_count && ++ticks >= o->interval_count && !r->argv)
					break;
				continue;
			}
			next = last_tick + iv;
		}
		if (end_ns) {
			if (elapsed >= end_ns)
				break;
			if (end_ns < next)
				next = end_ns;
		}
		if (!r->argv && watch_tasks) {
			/* -p/-t without a command: stop when every task has exited. */
			if (!stat__tasks_alive(r->threads))
				break;
			if (elapsed + TASK_POLL_NS < next)
				next = elapsed + TASK_POLL_NS;
		}
		if (r->argv) {
			pid_t p = wait4(w.pid, &r->status, next == UINT64_MAX ? 0 : WNOHANG, &r->ru);

			if (p == w.pid) {
				child_done = 1;
				break;
			}
			if (p < 0 && errno != EINTR) {
				child_done = 1;
				break;
			}
			if (next == UINT64_MAX)
				continue;
		}
		if (next == UINT64_MAX) {
			pause();
		} else {
			struct timespec ts;
			uint64_t left = next - elapsed;

			ts.tv_sec = left / 1000000000ULL;
			ts.tv_nsec = left % 1000000000ULL;
			nanosleep(&ts, NULL);	/* EINTR on SIGCHLD/SIGINT */
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!workload_target)
		evlist__disable(evlist);

	err = evlist__stat_read(evlist);
	if (err)
		pr_debug("reading counters: %s\n", strerror(-err));
	evlist__stat_set_tool(evlist, timespec_ns(&t1) - timespec_ns(&t0), timeval_ns(&r->ru.ru_utime),
			      timeval_ns(&r->ru.ru_stime));
	if (!o->interval)
		stat_rec__counts(r, STAT_ROUND_FINAL, timespec_ns(&t1) - timespec_ns(&t0));
	if (o->interval) {
		uint64_t elapsed = timespec_ns(&t1) - timespec_ns(&t0);

		if (elapsed > last_tick && (!o->interval_count || ticks < o->interval_count))
			stat__interval_tick(r, elapsed, elapsed - last_tick);
	}
	if (!o->interval || o->summary) {
		/* the whole run: cur holds the counts since the start */
		evlist__stat_process(evlist, r->aggr, false, true);
		r->walltime_run[(int)r->d->walltime.n % 100] = (double)(timespec_ns(&t1) - timespec_ns(&t0));
		update_stats(&r->d->walltime, (double)(timespec_ns(&t1) - timespec_ns(&t0)));
		if (verbose > 0)
			stat__print_verbose_counts(evlist, r->d->fp);
	}
	evlist__close(evlist);

	if (r->argv && !child_done) {
		/* Interrupted, timed out or interval count reached: stop the workload. */
		kill(w.pid, SIGTERM);
		while (wait4(w.pid, &r->status, 0, &r->ru) < 0 && errno == EINTR)
			;
		/* Stopped by --timeout/--interval-count on purpose: not a failure. */
		if (!stat_done && WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGTERM)
			r->status = 0;
	}
	if (own_threads && r->aggr == AGGR_THREAD)
		thread_map__read_comms(own_threads);
	perf_thread_map__put(own_threads);
	return (stat_done || (o->interval_count && ticks >= o->interval_count)) ? 1 : 0;
}

static char *stat__target_desc(const struct stat_opts *o, const char **argv, int argc)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	if (o->pid)
		strbuf_addf(&sb, "process id '%s'", o->pid);
	else if (o->tid)
		strbuf_addf(&sb, "thread id '%s'", o->tid);
	else if (o->system_wide)	/* also with -C, as perf */
		strbuf_addstr(&sb, "'system wide'");
	else if (o->cpu_list)
		strbuf_addf(&sb, "'CPU(s) %s'", o->cpu_list);
	else {
		strbuf_addch(&sb, '\'');
		for (i = 0; i < argc; i++)
			strbuf_addf(&sb, "%s%s", i ? " " : "", argv[i]);
		strbuf_addch(&sb, '\'');
	}
	return strbuf_detach(&sb, NULL);
}

/* Option checks perf makes before counting: 0 or 129 (message printed). */
static int stat__check_opts(struct stat_opts *o, bool cpu_wide)
{
	const char *why = NULL;

	if (o->run_count < 1 || o->run_count > 100) {
		pr_err("prf stat: -r/--repeat must be between 1 and 100 (got %d)\n", o->run_count);
		return 129;
	}
	if (o->csv_sep && o->json)
		why = "-x/--field-separator and -j/--json-output cannot be used together";
	else if ((o->pid || o->tid) && cpu_wide)
		why = "-p/-t and -a/-C are mutually exclusive";
	else if (o->per_thread && !o->pid && !o->tid && !cpu_wide)
		why = "--per-thread is only available with -p, -t or -a";
	else if ((o->nr_cgroups || o->for_each_cgroup) && !cpu_wide)
		why = "-G/--cgroup and --for-each-cgroup are only available in system-wide mode "
		      "(-a or -C)";
	else if (o->nr_cgroups && o->for_each_cgroup)
		why = "--cgroup and --for-each-cgroup cannot be used together";
	else if (o->no_aggr && !cpu_wide)
		why = "-A/--no-aggr is only available in system-wide mode (-a or -C)";
	else if (o->per_topology && !cpu_wide)
		why = "--per-core/--per-die/--per-node/--per-socket are only available "
		      "in system-wide mode (-a or -C)";
	else if (o->interval && o->run_count > 1)
		why = "-I/--interval-print cannot be used with -r/--repeat";
	else if (o->output_name && o->log_fd)
		why = "cannot use both --output and --log-fd";
	else if (o->table && o->run_count <= 1)
		why = "--table is only supported with -r";
	else if (o->metric_only && o->run_count > 1)
		why = "--metric-only is not supported with -r";
	else if (o->metric_only && o->per_thread)
		why = "--metric-only is not supported with --per-thread";
	else if (o->metric_only && o->json && (o->no_aggr || o->per_topology))
		why = "--metric-only -j with -A or --per-core/--per-die/--per-socket/--per-node "
		      "is not supported by prf yet";
	if (why) {
		pr_err("prf stat: %s\n", why);
		return 129;
	}
	if (o->log_fd < 0) {
		pr_err("prf stat: argument to --log-fd must be a file descriptor >= 0 (got %d)\n",
		       o->log_fd);
		return 129;
	}
	if (o->csv_sep && !strcmp(o->csv_sep, "\\t"))
		o->csv_sep = "\t";
	return 0;
}

/*
 * Where the counts go: stderr, -o FILE (written or --append'ed, starting
 * with perf's "# started on" date line) or --log-fd N. 0 or 1 (message
 * printed); *out is left at stderr on failure.
 */
static int stat__open_output(const struct stat_opts *o, FILE **out)
{
	const char *mode = o->append ? "a" : "w";
	time_t now;

	if (o->log_fd) {
		*out = fdopen(o->log_fd, mode);
		if (!*out) {
			pr_err("prf stat: failed opening --log-fd %d: %s\n", o->log_fd, strerror(errno));
			*out = stderr;
			return 1;
		}
		return 0;
	}
	if (!o->output_name)
		return 0;
	*out = fopen(o->output_name, mode);
	if (!*out) {
		pr_err("prf stat: failed to create output file '%s': %s\n", o->output_name,
		       strerror(errno));
		*out = stderr;
		return 1;
	}
	now = time(NULL);
	fprintf(*out, "# started on %s\n", ctime(&now));	/* ctime ends in a newline */
	return 0;
}

/*
 * --no-merge: each PMU event named as written gets its PMU in its name,
 * as perf 6.1 prints them: "uncore_imc_0/cas_count_read/" for
 * "uncore_imc/cas_count_read/" or "imc/...", "unc_m_cas_count.rd
 * [uncore_imc_0]" for an alias; a name that starts with the PMU's stays.
 * 0 or 1 (out of memory, printed).
 */
static int stat__uniquify_names(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		const char *name = evsel__name(evsel), *slash = strchr(name, '/');
		struct strbuf sb = STRBUF_INIT;
		int err;

		if (!evsel->uniquify || !evsel->pmu_name ||
		    !strncmp(name, evsel->pmu_name, strlen(evsel->pmu_name)))
			continue;
		if (slash)
			err = strbuf_addf(&sb, "%s%s", evsel->pmu_name, slash);
		else
			err = strbuf_addf(&sb, "%s [%s]", name, evsel->pmu_name);
		if (!err)
			err = evsel__set_name(evsel, sb.buf);
		strbuf_release(&sb);
		if (err) {
			pr_err("prf stat: out of memory\n");
			return 1;
		}
	}
	return 0;
}

/*
 * The cpus x threads the counters are opened on: every task (-a
 * --per-thread), the -a/-C cpus, the -p/-t tasks, or the workload's (NULL
 * threads: made per run). 0, 1 or 129 (message printed).
 */
static int stat__new_maps(const struct stat_opts *o, bool cpu_wide, struct perf_cpu_map **cpusp,
			  struct perf_thread_map **threadsp)
{
	struct perf_cpu_map *cpus = NULL;
	struct perf_thread_map *threads = NULL;

	if (cpu_wide && o->per_thread) {
		/* as perf: every task that exists now, counted wherever it
		 * runs (tasks made later are not counted) */
		cpus = perf_cpu_map__dummy_new();
		threads = thread_map__new_all();
		if (!threads) {
			pr_err("prf stat: cannot list the tasks in /proc: %s\n", strerror(errno));
			perf_cpu_map__put(cpus);
			return 1;
		}
		thread_map__read_comms(threads);	/* now, before some exit */
	} else if (cpu_wide) {
		cpus = perf_cpu_map__new(o->cpu_list);
		if (!cpus) {
			pr_err("prf stat: invalid cpu list '%s'\n", o->cpu_list ? o->cpu_list : "");
			return 129;
		}
		*cpusp = cpus;
		if (o->cpu_list) {
			struct perf_cpu_map *online = perf_cpu_map__new_online();
			int cpu, idx;

			perf_cpu_map__for_each_cpu(cpu, idx, cpus) {
				if (online && perf_cpu_map__idx(online, cpu) < 0) {
					pr_err("prf stat: cpu %d in '%s' is not online\n", cpu, o->cpu_list);
					perf_cpu_map__put(online);
					return 129;
				}
			}
			perf_cpu_map__put(online);
		}
		threads = perf_thread_map__new_dummy();
	} else {
		cpus = perf_cpu_map__dummy_new();
		if (o->pid || o->tid) {
			const char *list = o->pid ? o->pid : o->tid;

			threads = o->pid ? thread_map__new_by_pid_str(list) :
					   thread_map__new_by_tid_str(list);
			if (!threads) {
				pr_err("prf stat: %s '%s': %s\n", o->pid ? "no such process" : "no such thread",
				       list, errno == EINVAL ? "invalid list" : strerror(errno));
				perf_cpu_map__put(cpus);
				return 1;
			}
		}
	}
	*cpusp = cpus;
	*threadsp = threads;
	if (!cpus || (cpu_wide && !threads)) {
		pr_err("prf stat: out of memory\n");
		return 1;
	}
	return 0;
}

/*
 * The output rows: r->aggr from -A, --per-thread or --per-core..; the
 * counts of every evsel; for --per-core.. the topology rows (*mapp,
 * caller frees). 0 or 1 (message printed).
 */
static int stat__setup_rows(struct stat_run *r, bool cpu_wide, struct aggr_map **mapp)
{
	const struct stat_opts *o = r->o;
	struct perf_thread_map *threads = r->threads;

	r->aggr = AGGR_GLOBAL;
	if (o->no_aggr && cpu_wide)
		r->aggr = AGGR_NONE;
	else if (o->per_thread && threads && perf_thread_map__pid(threads, 0) != -1)
		r->aggr = AGGR_THREAD;
	else if (o->per_topology)	/* -A takes precedence, as perf */
		r->aggr = o->per_topology;
	if (evlist__stat_alloc(o->evlist, perf_cpu_map__nr(r->cpus),
			       threads ? perf_thread_map__nr(threads) : 1, r->aggr)) {
		pr_err("prf stat: out of memory\n");
		return 1;
	}
	if (r->aggr < AGGR_CORE)
		return 0;
	*mapp = aggr_map__new(r->cpus, r->aggr, NULL);
	if (!*mapp) {
		pr_err("prf stat: cannot read the cpu topology from /sys/devices/system/cpu: %s\n",
		       strerror(errno));
		return 1;
	}
	evlist__stat_set_aggr_map(o->evlist, *mapp);
	return 0;
}

/* --pre/--post: run cmd with the shell; its exit status (0: success). */
static int stat__run_hook(const char *cmd)
{
	int status;

	fflush(stdout);
	status = system(cmd);
	if (status == -1)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* "rec", "reco".. "record": perf's abbreviations of the subcommands (3+ letters). */
static bool stat__is_subcmd(const char *arg, const char *name)
{
	return strlen(arg) > 2 && !strncmp(name, arg, strlen(arg));
}

/*
 * prf stat report: print the counts of a stat record file (or pipe) as
 * stat printed them, aggregated as recorded or as -A/--per-* say.
 */
static int cmd_stat_report(int argc, const char **argv)
{
	const char *input = NULL;
	bool no_aggr = false;
	int per_topology = 0, err = 0, ret;
	const char *const usage[] = { "prf stat report [<options>]", NULL };
	const struct option options[] = {
		OPT_BOOLEAN('A', "no-aggr", &no_aggr, "disable CPU count aggregation"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_SET_INT(0, "per-core", &per_topology,
			    "aggregate counts per physical processor core", AGGR_CORE),
		OPT_SET_INT(0, "per-die", &per_topology, "aggregate counts per processor die", AGGR_DIE),
		OPT_SET_INT(0, "per-node", &per_topology, "aggregate counts per numa node", AGGR_NODE),
		OPT_SET_INT(0, "per-socket", &per_topology,
			    "aggregate counts per processor socket", AGGR_SOCKET),
		OPT_END()
	};
	struct perf_session *session;
	struct stat_report sr;
	struct stat_display d;
	struct strbuf target = STRBUF_INIT;
	struct stat st;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc < 0)
		return 129;
	if (argc) {
		pr_err("prf stat report: unexpected argument '%s'\n", argv[0]);
		usage_with_options(usage, options);
		return 129;
	}
	if (!input || !*input)	/* as perf: a pipe on stdin is read, else perf.data */
		input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";

	memset(&d, 0, sizeof(d));
	d.fp = stderr;
	d.mode = OUT_HUMAN;
	d.sep = ",";
	d.run_count = 1;
	d.big_num = true;
	init_stats(&d.walltime);
	stat_report__init(&sr, &d, no_aggr ? AGGR_NONE : per_topology ? per_topology : -1);
	session = perf_session__new(input, &sr.tool, &err);
	if (!session)
		return 1;
	if (session->data.pipe) {
		strbuf_addstr(&target, "'pipe'");
	} else {
		strbuf_addch(&target, '\'');
		for (int i = 0; i < session->data.env.nr_cmdline; i++)
			strbuf_addf(&target, "%s%s", i ? " " : "", session->data.env.cmdline[i]);
		strbuf_addch(&target, '\'');
	}
	d.target = target.buf;
	err = perf_session__process_events(session);
	ret = perf_session__read_status(session, "stat report", false);
	if (err && !perf_session__input_damage(session, err))
		ret = 1;
	else if (!sr.nr_rounds)
		pr_warning("prf stat report: %s holds no counts (not a stat record file?)\n", input);
	stat_report__exit(&sr);
	perf_session__delete(session);
	strbuf_release(&target);
	return ret;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_opts o = { .run_count = 1, .big_num = true, .evlist = evlist__new(),
			       .metrics = STRBUF_INIT };
	const char *const usage_stat[] = {
		"prf stat [<options>] [<command>]",
		"prf stat [<options>] -- <command> [<options>]",
		"prf stat record [<options>] [<command>]",
		"prf stat report [<options>]",
		NULL
	};
	const char *const usage_record[] = {
		"prf stat record [<options>] [<command>]",
		NULL
	};
	const char *const *usage = usage_stat;
	struct stat_rec rec;
	const struct option options[] = {
		OPT_CALLBACK('e', "event", o.evlist, "event",
			     "event selector. use 'prf list' to list available events",
			     parse_events_option),
		OPT_CALLBACK(0, "filter", o.evlist, "filter",
			     "event filter (tracepoints: PERF_EVENT_IOC_SET_FILTER)", parse_filter_option),
		OPT_CALLBACK('G', "cgroup", &o, "name", "monitor event in cgroup name only",
			     stat__parse_cgroups),
		OPT_STRING(0, "for-each-cgroup", &o.for_each_cgroup, "name",
			   "expand events for each cgroup"),
		OPT_BOOLEAN('a', "all-cpus", &o.system_wide, "system-wide collection from all CPUs"),
		OPT_BOOLEAN('A', "no-aggr", &o.no_aggr, "disable CPU count aggregation"),
		OPT_BOOLEAN('B', "big-num", &o.big_num, "print large numbers with thousands' separators"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to monitor in system-wide"),
		OPT_INCR('d', "detailed", &o.detailed,
			 "detailed run - start a lot of events"),
		OPT_INTEGER('D', "delay", &o.delay,
			    "ms to wait before starting measurement after program start "
			    "(-1: start with events disabled)"),
		OPT_BOOLEAN('i', "no-inherit", &o.no_inherit, "child tasks do not inherit counters"),
		OPT_UINTEGER('I', "interval-print", &o.interval,
			     "print counts at regular interval in ms"),
		OPT_UINTEGER(0, "interval-count", &o.interval_count,
			     "print counts for fixed number of times"),
		OPT_BOOLEAN(0, "interval-clear", &o.interval_clear,
			    "clear screen in between new interval"),
		OPT_BOOLEAN(0, "summary", &o.summary, "print summary for interval mode"),
		OPT_BOOLEAN(0, "no-csv-summary", &o.no_csv_summary,
			    "don't print 'summary' for CSV summary output"),
		OPT_BOOLEAN(0, "table", &o.table,
			    "display details about each run (only with -r option)"),
		OPT_BOOLEAN(0, "metric-only", &o.metric_only, "Only print computed metrics. No raw values"),
		OPT_CALLBACK('M', "metrics", &o, "metric/metric group list",
			     "monitor specified metrics or metric groups (separated by ,)",
			     stat__parse_metrics),
		OPT_BOOLEAN(0, "metric-no-group", &o.metric_no_group,
			    "don't group metric events, impacts multiplexing"),
		OPT_BOOLEAN(0, "metric-no-merge", &o.metric_no_merge,
			    "don't try to share events between metrics in a group"),
		OPT_BOOLEAN(0, "topdown", &o.topdown, "measure top-down statistics"),
		OPT_UINTEGER(0, "td-level", &o.td_level,
			     "Set the metrics level for the top-down statistics (0: max level)"),
		OPT_BOOLEAN('j', "json-output", &o.json, "print counts in JSON format"),
		OPT_BOOLEAN('n', "null", &o.null_run, "null run - dont start any counters"),
		OPT_STRING('o', "output", &o.output_name, "file", "output file name"),
		OPT_BOOLEAN(0, "append", &o.append, "append to the output file"),
		OPT_INTEGER(0, "log-fd", &o.log_fd, "log output to fd, instead of stderr"),
		OPT_BOOLEAN(0, "no-merge", &o.no_merge, "Do not merge identical named events"),
		OPT_STRING('p', "pid", &o.pid, "pid", "stat events on existing process id"),
		OPT_BOOLEAN(0, "per-thread", &o.per_thread, "aggregate counts per thread"),
		OPT_SET_INT(0, "per-core", &o.per_topology,
			    "aggregate counts per physical processor core", AGGR_CORE),
		OPT_SET_INT(0, "per-die", &o.per_topology, "aggregate counts per processor die", AGGR_DIE),
		OPT_SET_INT(0, "per-node", &o.per_topology, "aggregate counts per numa node", AGGR_NODE),
		OPT_SET_INT(0, "per-socket", &o.per_topology,
			    "aggregate counts per processor socket", AGGR_SOCKET),
		OPT_STRING(0, "pre", &o.pre_cmd, "command",
			   "command to run prior to the measured command"),
		OPT_STRING(0, "post", &o.post_cmd, "command",
			   "command to run after to the measured command"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "don't print any output, messages or warnings"),
		OPT_INTEGER('r', "repeat", &o.run_count,
			    "repeat command and print average + stddev (max: 100)"),
		OPT_STRING('t', "tid", &o.tid, "tid", "stat events on existing thread id"),
		OPT_UINTEGER(0, "timeout", &o.timeout,
			     "stop workload and print counts after a timeout period in ms"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose (show counter open errors, etc)"),
		OPT_STRING('x', "field-separator", &o.csv_sep, "separator",
			   "print counts with custom separator"),
		OPT_END()
	};
	struct stat_display d;
	struct stat_run r;
	struct perf_cpu_map *cpus = NULL;
	struct perf_thread_map *threads = NULL;
	struct aggr_map *aggr_map = NULL;
	char *target = NULL;
	FILE *out = stderr;
	bool workload_failed = false, cpu_wide;
	int ret = 1, i, err;

	setlocale(LC_NUMERIC, "");
	if (!o.evlist)
		return 1;
	memset(&rec, 0, sizeof(rec));
	rec.w.fd = -1;
	if (argc > 1 && stat__is_subcmd(argv[1], "report")) {
		evlist__delete(o.evlist);
		return cmd_stat_report(argc - 1, argv + 1);
	}
	if (argc > 1 && stat__is_subcmd(argv[1], "record")) {
		o.record = true;
		usage = usage_record;
		/* parse_options() reorders argv: keep the command line for CMDLINE */
		rec.argv = calloc((size_t)argc + 1, sizeof(*rec.argv));
		if (!rec.argv) {
			evlist__delete(o.evlist);
			return 1;
		}
		for (i = 0; i < argc; i++)
			rec.argv[i] = argv[i];
		rec.argc = argc;
		argc--;
		argv++;
	}
	argc = parse_options(argc, argv, options, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0) {
		evlist__delete(o.evlist);
		strbuf_release(&o.metrics);
		free(rec.argv);
		return 129;
	}
	verbose = o.quiet ? -1 : o.verbose;
	/* as perf 6.1: -e events that all count on cpus of their own (an
	 * uncore PMU's cpumask, tool events) and no target: system-wide */
	if (!o.pid && !o.tid && !o.cpu_list && evlist__own_cpus_only(o.evlist))
		o.system_wide = true;
	cpu_wide = o.system_wide || o.cpu_list;

	if (!argc && !o.pid && !o.tid && !cpu_wide) {
		usage_with_options(usage, options);
		ret = 129;
		goto out;
	}
	ret = stat__check_opts(&o, cpu_wide);
	if (!ret)
		ret = stat__check_metrics(&o, cpu_wide);
	if (ret)
		goto out;
	if (o.record) {
		if (o.run_count > 1) {
			pr_err("prf stat record: cannot use -r/--repeat with stat record\n");
			ret = 129;
			goto out;
		}
		/* -o names the perf.data file; the counts still go to stderr */
		ret = writer__open(&rec.w, o.output_name ? o.output_name : "perf.data", 0) ? 1 : 0;
		o.output_name = NULL;
		if (ret)
			goto out;
	}
	ret = stat__open_output(&o, &out);
	if (!ret && o.interval_clear && !isatty(fileno(out))) {
		/* as perf 6.1.192 (Debian's linux-perf): it clears only a terminal's screen */
		fprintf(stderr, "--interval-clear does not work with output\n\n");
		fprintf(stderr, " Usage: %s\n\n", usage_stat[0]);
		parse_options_usage_opt(options, "output");
		parse_options_usage_opt(options, "log-fd");
		parse_options_usage_opt(options, "interval-clear");
		ret = 255;
	}
	if (!ret)
		ret = stat__add_metrics(&o, cpu_wide);
	if (ret)
		goto out;
	ret = 1;
	if ((!o.evlist->nr_entries && stat__add_default_events(o.evlist, cpu_wide)) ||
	    stat__add_detailed_events(o.evlist, o.detailed)) {
		pr_err("prf stat: out of memory\n");
		goto out;
	}
	if (o.for_each_cgroup && evlist__expand_cgroups(o.evlist, o.for_each_cgroup)) {
		ret = 129;
		goto out;
	}
	ret = stat__new_maps(&o, cpu_wide, &cpus, &threads);
	if (ret)
		goto out;
	/* system-wide, an uncore event counts on its PMU's cpumask, unless -C
	 * names the cpus (per task it counts where the task runs) */
	if (cpu_wide && !o.cpu_list && !o.per_thread) {
		struct evsel *evsel;

		evlist__for_each_entry(o.evlist, evsel)
			evsel->own_cpus_only = true;
	}
	ret = 1;

	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.d = &d;
	r.cpus = cpus;
	r.threads = threads;
	r.argv = argc ? argv : NULL;
	r.rec = o.record ? &rec : NULL;
	stat__config_attrs(o.evlist, &o, r.argv && !threads);
	if (stat__setup_rows(&r, cpu_wide, &aggr_map))
		goto out;
	if (!o.no_merge)
		evlist__stat_merge(o.evlist);
	else if (stat__uniquify_names(o.evlist))
		goto out;

	target = stat__target_desc(&o, argv, argc);
	memset(&d, 0, sizeof(d));
	d.fp = out;
	d.mode = o.json ? OUT_JSON : o.csv_sep ? OUT_CSV : OUT_HUMAN;
	d.sep = o.csv_sep ? o.csv_sep : ",";
	d.aggr_mode = r.aggr;
	d.hide_zero_threads = cpu_wide;	/* perf: too many zero rows otherwise */
	d.run_count = o.run_count;
	d.target = target;
	d.cpus = cpus;
	d.threads = threads;
	d.aggr_map = aggr_map;
	d.interval = o.interval > 0;
	d.interval_clear = o.interval_clear;
	d.csv_summary = o.summary && !o.no_csv_summary;
	d.metric_only = o.metric_only;
	d.metrics = &o.sm;
	d.cgroups = evlist__has_cgroups(o.evlist);
	if (o.table)
		d.walltime_run = r.walltime_run;
	d.big_num = o.big_num;
	init_stats(&d.walltime);

	stat_setup_signals();
	ret = 0;
	for (i = 0; i < o.run_count; i++) {
		if (o.pre_cmd && (err = stat__run_hook(o.pre_cmd)) != 0) {
			/* perf makes no run after a failing --pre */
			pr_err("prf stat: --pre command '%s' failed (exit status %d)\n", o.pre_cmd, err);
			ret = 1;
			goto out;
		}
		err = stat__run_once(&r, &workload_failed);
		if (err < 0) {
			ret = workload_failed ? 127 : 1;
			goto out;
		}
		if (r.argv)
			ret = workload__exit_status(r.status);
		if (o.post_cmd)
			stat__run_hook(o.post_cmd);	/* its status is ignored, as perf */
		if (err > 0)
			break;
	}
	if (o.null_run)
		evlist__stat_free(o.evlist);	/* nothing counted: print no rows */
	if ((!o.interval || o.summary) && !o.quiet) {
		d.after_intervals = d.interval;
		d.interval = false;	/* the totals of the whole run */
		d.print_rusage = r.argv && !threads && !cpu_wide && o.run_count == 1;
		d.ru_utime = r.ru.ru_utime;
		d.ru_stime = r.ru.ru_stime;
		if (d.walltime.n > 0 && d.walltime.n < o.run_count)
			d.run_count = (int)d.walltime.n;
		stat_display__print(&d, o.evlist);
	}
	if (!r.argv && stat_signr)
		ret = 0;
	if (o.record && (err = stat_rec__finish(&rec)) != 0) {
		pr_err("prf stat record: writing %s failed: %s\n",
		       rec.w.is_pipe ? "stdout" : rec.w.path, strerror(-err));
		ret = 1;
	}
out:
	if (o.record && !rec.open)
		writer__abort(&rec.w);	/* nothing recorded: leave no file */
	else if (o.record)
		writer__close(&rec.w);
	strbuf_release(&o.metrics);
	stat_metrics__exit(&o.sm);
	for (i = 0; rec.ids && i < rec.nr; i++)
		free(rec.ids[i]);
	free(rec.ids);
	free(rec.attrs);
	free(rec.names);
	free(rec.argv);
	if (out != stderr)
		fclose(out);
	evlist__stat_free(o.evlist);
	evlist__delete(o.evlist);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	aggr_map__delete(aggr_map);
	free(target);
	return ret;
}
