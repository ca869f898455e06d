// SPDX-License-Identifier: GPL-2.0
/*
 * prf stat printers; see stat-display.h. Column widths follow perf 6.1's
 * output as observed (value %18s, unit %-4s, event %-32s, "# " metric
 * %8.3f + unit %-23s), not its code.
 */
#include <ctype.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "stat-display.h"
#include "../kernel/evlist.h"
#include "../kernel/cgroup.h"
#include "../kernel/cpumap.h"
#include "../kernel/thread_map.h"

#define VALUE_WIDTH	18
#define EVENT_WIDTH	32
#define METRIC_UNIT_WIDTH 23
#define METRIC_LEN	35	/* " # ", the value and the unit of a metric */
#define EXTRA_METRIC_INDENT 49	/* spaces before an extra metric line's " # " */
#define ROW_METRIC_LEN	91	/* length of a human row up to the metric's end */
#define ROW_NOVAL_LEN	84	/* length of a <not counted>/<not supported> row */
#define NOVAL_EVENT_WIDTH 25	/* its event column (a row without a value) */

static bool evsel__is_clock(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_TASK_CLOCK || e->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static bool evsel__is_hw(const struct evsel *e, uint64_t config)
{
	return e->attr.type == PERF_TYPE_HARDWARE && e->attr.config == config;
}

static double row_val(const struct stat_display *d, const struct stat_aggr *a)
{
	return d->interval ? a->val : avg_stats(&a->res);
}

static double row_ena(const struct stat_display *d, const struct stat_aggr *a)
{
	return d->interval ? (double)a->ena : avg_stats(&a->ena_s);
}

static double row_run(const struct stat_display *d, const struct stat_aggr *a)
{
	return d->interval ? (double)a->run : avg_stats(&a->run_s);
}

/* The row of the first counted evsel matching pred at aggr_idx, counting
 * in the same cgroup as `like` (perf keeps metric inputs per cgroup). */
static struct stat_aggr *find_row(struct evlist *evlist, const struct evsel *like, int aggr_idx,
				  bool (*pred)(const struct evsel *, uint64_t), uint64_t arg)
{
	struct evsel *pos;

	evlist__for_each_entry(evlist, pos) {
		struct evsel_stat *st = evsel__row_stat(pos);

		if (!st || aggr_idx >= st->nr_aggr || pos->cgrp != like->cgrp || !pred(pos, arg))
			continue;
		/* counted now, or in some of the -r runs */
		if (st->aggr[aggr_idx].counted || st->aggr[aggr_idx].run_s.mean > 0)
			return &st->aggr[aggr_idx];
	}
	return NULL;
}

static bool pred_clock(const struct evsel *e, uint64_t unused __attribute__((unused)))
{
	return evsel__is_clock(e);
}

static bool pred_hw(const struct evsel *e, uint64_t config)
{
	return evsel__is_hw(e, config);
}

static bool pred_cache(const struct evsel *e, uint64_t config)
{
	return e->attr.type == PERF_TYPE_HW_CACHE && e->attr.config == config;
}

/*
 * A cache read-miss event's share of the reads of the same cache (the -d
 * sets), in perf's words; false for other cache events or when the reads
 * were not counted (the rate per second applies then).
 */
static bool cache_miss_ratio(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
			     int aggr_idx, double v, double *val, const char **unit)
{
	static const struct { unsigned int id; const char *unit; } caches[] = {
		{ PERF_COUNT_HW_CACHE_L1D, "of all L1-dcache accesses" },
		{ PERF_COUNT_HW_CACHE_L1I, "of all L1-icache accesses" },
		{ PERF_COUNT_HW_CACHE_LL, "of all LL-cache accesses" },
		{ PERF_COUNT_HW_CACHE_DTLB, "of all dTLB cache accesses" },
		{ PERF_COUNT_HW_CACHE_ITLB, "of all iTLB cache accesses" },
	};
	uint64_t read_miss = (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	uint64_t read_access = (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			       (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);

	for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
		struct stat_aggr *reads;

		if (evsel->attr.config != (caches[i].id | read_miss))
			continue;
		reads = find_row(evlist, evsel, aggr_idx, pred_cache, caches[i].id | read_access);
		if (!reads || row_val(d, reads) <= 0)
			return false;
		*val = 100.0 * v / row_val(d, reads);
		*unit = caches[i].unit;
		return true;
	}
	return false;
}

struct row_count {
	struct stat_display *d;
	int aggr_idx;
};

static bool row_count(struct evsel *evsel, double *val, void *data)
{
	const struct row_count *rc = data;
	struct evsel_stat *st = evsel__stat(evsel);

	if (!st || rc->aggr_idx >= st->nr_aggr || st->open_err)
		return false;
	/* an event that never counted gives the metric no value */
	if (!st->aggr[rc->aggr_idx].counted && st->aggr[rc->aggr_idx].run_s.mean <= 0 &&
	    !evsel->tool_event)
		return false;
	*val = row_val(rc->d, &st->aggr[rc->aggr_idx]);
	/* a -M metric takes the count before the alias's scale (MiB), as
	 * perf 6.1 reverses it; the usual metrics take the scaled value */
	if (evsel->scale)
		*val /= evsel->scale;
	return true;
}

/* The nth stat -M metric whose first event is this row's (stat-metric.h). */
static bool metric_of_row(struct stat_display *d, struct evsel *evsel, int aggr_idx, int nth,
			  double *val, const char **unit, const char **fmt)
{
	static char unit_buf[128];
	struct row_count rc = { .d = d, .aggr_idx = aggr_idx };

	if (!d->metrics || !stat_metrics__value(d->metrics, evsel, nth, row_count, &rc, val, fmt,
						 unit_buf, sizeof(unit_buf)))
		return false;
	*unit = unit_buf;
	return true;
}

/* The row's usual metric (perf's shadow metrics): CPUs utilized, GHz,
 * insn per cycle, miss ratios, a rate per second. */
static bool shadow_metric(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
			  int aggr_idx, double *val, const char **unit, const char **fmt)
{
	struct evsel_stat *st = evsel__stat(evsel);
	struct stat_aggr *clock, *other;
	double v, clock_ns = 0;

	if (!st || aggr_idx >= st->nr_aggr)
		return false;
	v = row_val(d, &st->aggr[aggr_idx]);
	clock = find_row(evlist, evsel, aggr_idx, pred_clock, 0);
	if (clock)
		clock_ns = row_val(d, clock);
	*fmt = "%8.3f";

	if (evsel__is_clock(evsel)) {
		double wall = !d->interval ? avg_stats(&d->walltime) :
			      d->interval_no_wall ? 0 : (double)d->interval_len;

		if (wall <= 0)
			return false;
		*val = v / wall;
		*unit = "CPUs utilized";
		return true;
	}
	if (evsel__is_hw(evsel, PERF_COUNT_HW_CPU_CYCLES) && clock_ns > 0) {
		*val = v / clock_ns;
		*unit = "GHz";
		return true;
	}
	if (evsel__is_hw(evsel, PERF_COUNT_HW_INSTRUCTIONS)) {
		other = find_row(evlist, evsel, aggr_idx, pred_hw, PERF_COUNT_HW_CPU_CYCLES);
		if (other && row_val(d, other) > 0) {
			*val = v / row_val(d, other);
			*unit = "insn per cycle";
			*fmt = "%7.2f ";
			return true;
		}
	}
	if (evsel->attr.type == PERF_TYPE_HW_CACHE && cache_miss_ratio(d, evlist, evsel, aggr_idx, v,
									val, unit)) {
		*fmt = "%7.2f%%";
		return true;
	}
	if (evsel__is_hw(evsel, PERF_COUNT_HW_BRANCH_MISSES)) {
		other = find_row(evlist, evsel, aggr_idx, pred_hw, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
		if (other && row_val(d, other) > 0) {
			*val = 100.0 * v / row_val(d, other);
			*unit = "of all branches";
			*fmt = "%7.2f%%";
			return true;
		}
	}
	if (clock_ns > 0) {
		double rate = v * 1e9 / clock_ns;

		if (rate >= 1e9) {
			*val = rate / 1e9;
			*unit = "G/sec";
		} else if (rate >= 1e6) {
			*val = rate / 1e6;
			*unit = "M/sec";
		} else if (rate >= 1e3) {
			*val = rate / 1e3;
			*unit = "K/sec";
		} else {
			*val = rate;
			*unit = "/sec";
		}
		return true;
	}
	return false;
}

bool stat_display__metric(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
			  int aggr_idx, double *val, const char **unit, const char **fmt)
{
	return shadow_metric(d, evlist, evsel, aggr_idx, val, unit, fmt) ||
	       metric_of_row(d, evsel, aggr_idx, 0, val, unit, fmt);
}

/*
 * The k-th (0: first) metric perf prints on a line of its own below the
 * row: the row's -M metrics after the one on the row itself (the first,
 * unless a usual metric took the row).
 */
static bool extra_metric(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
			 int aggr_idx, int k, double *val, const char **unit, const char **fmt)
{
	double v;
	const char *u, *f;
	int first = shadow_metric(d, evlist, evsel, aggr_idx, &v, &u, &f) ? 0 : 1;

	return metric_of_row(d, evsel, aggr_idx, k + first, val, unit, fmt);
}

static int cmp_thread_count(const void *a, const void *b, void *arg)
{
	const struct evsel_stat *st = arg;
	double x = st->aggr[*(const int *)a].res.mean;
	double y = st->aggr[*(const int *)b].res.mean;

	if (x != y)
		return x < y ? 1 : -1;
	return *(const int *)a - *(const int *)b;	/* ties: map order */
}

/* The thread rows of st by count, highest first (perf's order); NULL on
 * ENOMEM (map order then). Caller frees. */
static int *thread_order(const struct evsel_stat *st)
{
	int *order = malloc((size_t)st->nr_aggr * sizeof(*order));

	if (!order)
		return NULL;
	for (int k = 0; k < st->nr_aggr; k++)
		order[k] = k;
	qsort_r(order, (size_t)st->nr_aggr, sizeof(*order), cmp_thread_count, (void *)st);
	return order;
}

static bool aggr_by_topology(enum aggr_mode mode)
{
	return mode == AGGR_CORE || mode == AGGR_SOCKET || mode == AGGR_DIE || mode == AGGR_NODE;
}

/* Name of a topology row: "S0-D0-C1", "S0-D0", "S0", "N0"; human: padded
 * as perf ("C%-8d", "D%-8d", "S%-5d", "N%-5d"). */
static void topology_label(const struct stat_display *d, int aggr_idx, bool human, char *buf,
			   size_t size)
{
	const struct cpu_topology_id *id = &d->aggr_map->ids[aggr_idx];

	switch (d->aggr_mode) {
	case AGGR_CORE:
		snprintf(buf, size, human ? "S%d-D%d-C%-8d" : "S%d-D%d-C%d", id->socket, id->die, id->core);
		break;
	case AGGR_DIE:
		snprintf(buf, size, human ? "S%d-D%-8d" : "S%d-D%d", id->socket, id->die);
		break;
	case AGGR_SOCKET:
		snprintf(buf, size, human ? "S%-5d" : "S%d", id->socket);
		break;
	default:
		snprintf(buf, size, human ? "N%-5d" : "N%d", id->node);
		break;
	}
}

/* Cpus a topology row of evsel sums: a tool event counts on the first
 * cpu only (its other rows are <not counted>, with 0 cpus, as perf). */
static int topology_nr_cpus(const struct stat_display *d, const struct evsel *evsel, int aggr_idx)
{
	if (evsel->tool_event)
		return aggr_idx == d->aggr_map->cpu_aggr[0];
	if (evsel->unsupported)		/* perf counts 1 for an event it could not open */
		return 1;
	return d->aggr_map->nr_cpus[aggr_idx];
}

/* Row label for -A / --per-thread / --per-core.., human or machine form
 * (the machine form of a topology row is its name only). */
static void row_label(struct stat_display *d, const struct evsel *evsel, int aggr_idx, bool human,
		      char *buf, size_t size)
{
	buf[0] = '\0';
	if (aggr_by_topology(d->aggr_mode) && d->aggr_map) {
		char name[64];

		topology_label(d, aggr_idx, human, name, sizeof(name));
		if (human)
			snprintf(buf, size, "%s %4d ", name, topology_nr_cpus(d, evsel, aggr_idx));
		else
			snprintf(buf, size, "%s", name);
	} else if (d->aggr_mode == AGGR_NONE) {
		int cpu = perf_cpu_map__cpu(d->cpus, aggr_idx);

		if (human)
			snprintf(buf, size, "CPU%-8d", cpu);
		else
			snprintf(buf, size, "CPU%d", cpu);
	} else if (d->aggr_mode == AGGR_THREAD) {
		const char *comm = perf_thread_map__comm(d->threads, aggr_idx);
		int pid = perf_thread_map__pid(d->threads, aggr_idx);

		if (human)
			snprintf(buf, size, "%16s-%-8d ", comm, pid);
		else
			snprintf(buf, size, "%s-%d", comm, pid);
	}
}


/* The fields before a CSV/JSON record's counter: the interval (or -x's
 * summary), the aggregation's label and size. */
static void row_fields_prefix(struct stat_display *d, struct out *w, struct evsel *evsel,
			      int aggr_idx, const char *ts)
{
	char label[128];

	if (d->interval) {
		if (d->mode == OUT_JSON)
			out__field_double(w, "interval", "%.9f", d->interval_ts / 1e9);
		else
			out__field_str(w, "interval", ts);
	} else if (d->csv_summary && d->mode == OUT_CSV) {
		out__field_str(w, "interval", "         summary");	/* a timestamp's width */
	}
	if (aggr_by_topology(d->aggr_mode) && d->aggr_map) {
		static const char *const keys[] = {
			[AGGR_CORE] = "core", [AGGR_SOCKET] = "socket",
			[AGGR_DIE] = "die", [AGGR_NODE] = "node",
		};

		row_label(d, evsel, aggr_idx, false, label, sizeof(label));
		out__field_str(w, keys[d->aggr_mode], label);
		out__field_u64(w, "aggregate-number", (uint64_t)topology_nr_cpus(d, evsel, aggr_idx));
	} else if (d->aggr_mode != AGGR_GLOBAL) {
		row_label(d, evsel, aggr_idx, false, label, sizeof(label));
		if (d->mode == OUT_JSON && d->aggr_mode == AGGR_NONE)
			snprintf(label, sizeof(label), "%d", perf_cpu_map__cpu(d->cpus, aggr_idx));
		out__field_str(w, d->aggr_mode == AGGR_NONE ? "cpu" : "thread", label);
	}
}

/* The cgroup column: the event's cgroup as named, empty for none. */
static const char *row_cgroup(const struct evsel *evsel)
{
	return evsel->cgrp ? evsel->cgrp->name : "";
}

static const char *trim(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* perf's unit column: as wide as the longest unit of an event (a PMU
 * alias's "halves"), at least 4 ("msec"); wider rows end that much later. */
static int unit_width(struct evlist *evlist)
{
	struct evsel *evsel;
	int w = 4;

	evlist__for_each_entry(evlist, evsel)
		if (evsel->unit && (int)strlen(evsel->unit) > w)
			w = (int)strlen(evsel->unit);
	return w;
}

static void print_row(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
		      int aggr_idx)
{
	struct evsel_stat *st = evsel__stat(evsel);
	struct stat_aggr *a = &st->aggr[aggr_idx];
	bool clock = evsel__is_clock(evsel);
	const char *unit = clock ? "msec" : evsel->tool_event ? "ns" : evsel->unit ? evsel->unit : "";
	const char *name = evsel__name(evsel);
	const char *bad = NULL, *munit = "", *mfmt = "%8.3f";
	double v = row_val(d, a), ena = row_ena(d, a), run = row_run(d, a), mval = 0;
	/* a PMU alias's scale (MiB of cas_count_read): two decimals when it
	 * is fractional, as perf */
	bool decimals = clock || (evsel->scale && floor(evsel->scale) != evsel->scale);
	double shown = clock ? v / 1e6 : v;	/* v is scaled already */
	double pcnt = ena > 0 ? 100.0 * run / ena : 100.0;
	double noise = 0;
	bool has_metric = false;
	char label[128], buf[128], ts[64];
	FILE *fp = d->fp;

	if (evsel->unsupported || (st->open_err && !evsel->fds && a->res.n == 0))
		bad = "<not supported>";
	else if (!(d->interval ? a->counted : (row_run(d, a) > 0)))
		bad = "<not counted>";
	if (bad)
		pcnt = 100.0;
	else
		has_metric = stat_display__metric(d, evlist, evsel, aggr_idx, &mval, &munit, &mfmt);
	if (d->run_count > 1 && !d->interval)
		noise = rel_stddev_stats(stddev_stats(&a->res), avg_stats(&a->res));
	ts[0] = '\0';
	if (d->interval)
		snprintf(ts, sizeof(ts), "%6llu.%09llu",
			 (unsigned long long)(d->interval_ts / 1000000000ULL),
			 (unsigned long long)(d->interval_ts % 1000000000ULL));

	if (d->mode == OUT_HUMAN) {
		int len, uw = unit_width(evlist);

		row_label(d, evsel, aggr_idx, true, label, sizeof(label));
		if (d->interval)
			fprintf(fp, "%s ", ts);
		fputs(label, fp);
		if (bad)
			len = fprintf(fp, "%*s", VALUE_WIDTH, bad);
		else if (decimals)
			len = fprintf(fp, d->big_num ? "%'*.2f" : "%*.2f", VALUE_WIDTH, shown);
		else
			len = fprintf(fp, d->big_num ? "%'*.0f" : "%*.0f", VALUE_WIDTH, shown);
		if (bad) {
			/* perf's narrower event column of a row without a value
			 * (a longer name pushes the rest right), then the cgroup
			 * and a blank metric */
			fprintf(fp, " %-*s %-*s", uw, unit, NOVAL_EVENT_WIDTH, name);
			if (d->cgroups)
				fprintf(fp, " %s", row_cgroup(evsel));
			fprintf(fp, "%*s\n", ROW_NOVAL_LEN - VALUE_WIDTH - 6 - NOVAL_EVENT_WIDTH, "");
			return;
		}
		len += fprintf(fp, " %-*s %-*s", uw, unit, EVENT_WIDTH, name);
		if (d->cgroups)		/* not part of the padded width, as perf */
			fprintf(fp, " %s", row_cgroup(evsel));
		if (has_metric) {
			snprintf(buf, sizeof(buf), mfmt, mval);
			len += fprintf(fp, " # %s %-*s", buf, METRIC_UNIT_WIDTH, munit);
		}
		if (len < ROW_METRIC_LEN + uw - 4)
			fprintf(fp, "%*s", ROW_METRIC_LEN + uw - 4 - len, "");
		/* -M metrics that did not fit in the row: a line each, under
		 * the metric column, as perf 6.1 (the noise then ends the last) */
		for (int k = 0; !bad && extra_metric(d, evlist, evsel, aggr_idx, k, &mval, &munit,
						     &mfmt); k++) {
			int n = snprintf(buf, sizeof(buf), mfmt, mval);

			fputc('\n', fp);
			if (d->interval)
				fprintf(fp, "%s ", ts);
			fputs(label, fp);
			if (d->aggr_mode == AGGR_NONE)
				fputs("        ", fp);
			fprintf(fp, "%*s # %s %-*s", EXTRA_METRIC_INDENT, "", buf,
				METRIC_LEN - 3 - n - 1, munit);
		}
		if (!bad && noise)
			fprintf(fp, "  ( +-%6.2f%% )", noise);
		if (!bad && run > 0 && run < ena)
			fprintf(fp, "  (%.2f%%)", pcnt);
		fputc('\n', fp);
		return;
	}

	{
		struct out w;

		out__init(&w, fp, d->mode, d->sep);
		out__begin_record(&w);
		row_fields_prefix(d, &w, evsel, aggr_idx, ts);
		if (bad)
			snprintf(buf, sizeof(buf), "%s", bad);
		else if (d->mode == OUT_JSON)
			snprintf(buf, sizeof(buf), "%f", shown);
		else
			snprintf(buf, sizeof(buf), decimals ? "%.2f" : "%.0f", shown);
		out__field_str(&w, "counter-value", buf);
		out__field_str(&w, "unit", unit);
		out__field_str(&w, "event", name);
		if (d->cgroups)
			out__field_str(&w, "cgroup", row_cgroup(evsel));
		if (d->run_count > 1 && !d->interval) {
			if (d->mode == OUT_JSON) {
				out__field_double(&w, "variance", "%.2f", noise);
			} else {
				snprintf(buf, sizeof(buf), "%.2f%%", noise);
				out__field_str(&w, "variance", buf);
			}
		}
		out__field_u64(&w, "event-runtime", bad ? 0 : (uint64_t)(run + 0.5));
		out__field_double(&w, "pcnt-running", "%.2f", pcnt);
		if (d->mode == OUT_JSON) {
			out__field_double(&w, "metric-value", "%f", has_metric ? mval : 0.0);
			/* perf prints a NULL unit of a counted row without one */
			out__field_str(&w, "metric-unit", has_metric ? munit : bad ? "" : "(null)");
		} else if (has_metric) {
			snprintf(buf, sizeof(buf), mfmt, mval);
			out__field_str(&w, "metric-value", trim(buf));
			out__field_str(&w, "metric-unit", munit);
		} else {
			out__field_str(&w, "metric-value", "");
			out__field_str(&w, "metric-unit", "");
		}
		out__end_record(&w);
		/* the -M metrics that did not fit in the row, a record each:
		 * the row's prefix, empty CSV fields, the metric */
		for (int k = 0; !bad && extra_metric(d, evlist, evsel, aggr_idx, k, &mval, &munit,
						     &mfmt); k++) {
			out__begin_record(&w);
			row_fields_prefix(d, &w, evsel, aggr_idx, ts);
			if (d->mode == OUT_JSON) {
				out__field_double(&w, "metric-value", "%f", mval);
			} else {
				for (int f = 0; f < 4; f++)
					out__field_str(&w, "", "");
				snprintf(buf, sizeof(buf), mfmt, mval);
				out__field_str(&w, "metric-value", trim(buf));
			}
			out__field_str(&w, "metric-unit", munit);
			out__end_record(&w);
		}
	}
}

/* Print every row; returns how many. */
static int print_rows(struct stat_display *d, struct evlist *evlist)
{
	struct evsel *evsel;
	int i, n = 0;

	if (d->aggr_mode == AGGR_GLOBAL) {
		evlist__for_each_entry(evlist, evsel) {
			if (evsel__row_stat(evsel)) {
				print_row(d, evlist, evsel, 0);
				n++;
			}
		}
		return n;
	}
	if (aggr_by_topology(d->aggr_mode)) {
		/* perf prints topology rows grouped by socket/die/core/node,
		 * then event */
		int nr = d->aggr_map ? d->aggr_map->nr : 0;

		for (i = 0; i < nr; i++) {
			evlist__for_each_entry(evlist, evsel) {
				struct evsel_stat *st = evsel__row_stat(evsel);

				if (!st || i >= st->nr_aggr)
					continue;
				print_row(d, evlist, evsel, i);
				n++;
			}
		}
		return n;
	}
	/* perf prints -A/--per-thread rows grouped by event, then cpu/thread;
	 * threads by their count, highest first */
	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__row_stat(evsel);
		int *order = NULL;

		if (st && d->aggr_mode == AGGR_THREAD && st->nr_aggr > 1)
			order = thread_order(st);
		for (int k = 0; st && k < st->nr_aggr; k++) {
			i = order ? order[k] : k;
			if (evsel->tool_event && i > 0)
				break;	/* one value for the run: the first row, as perf */
			/* -A: an uncore event has rows for its PMU's cpus only */
			if (d->aggr_mode == AGGR_NONE && evsel->own_cpus_only && evsel->own_cpus &&
			    perf_cpu_map__idx(evsel->own_cpus, perf_cpu_map__cpu(d->cpus, i)) < 0)
				continue;
			/* --per-thread hides threads that never counted, as perf. */
			if (d->aggr_mode == AGGR_THREAD && st->nr_aggr > 1 &&
			    ((!st->aggr[i].counted && st->aggr[i].res.mean == 0) ||
			     (d->hide_zero_threads && st->aggr[i].res.mean == 0)))
				continue;
			print_row(d, evlist, evsel, i);
			n++;
		}
		free(order);
	}
	return n;
}

#define METRIC_ONLY_WIDTH 20

/* The evsel's k-th --metric-only cell (0: the row's metric, then the -M
 * metrics perf would print below the row): 1 when it is one, 0 when it is
 * left out, -1 when there are no more. *bad: a cell without a value (not
 * counted/supported). */
static int metric_only_cell(struct stat_display *d, struct evlist *evlist, struct evsel *evsel,
			    int k, bool *bad, double *val, const char **unit, const char **fmt)
{
	struct evsel_stat *st = evsel__stat(evsel);
	struct stat_aggr *a = &st->aggr[0];

	*bad = evsel->unsupported || (st->open_err && !evsel->fds && a->res.n == 0) ||
	       !(d->interval ? a->counted : (row_run(d, a) > 0));
	*unit = "";
	if (*bad)
		return k ? -1 : 1;
	if (k)	/* the -M metrics perf prints below the row otherwise */
		return extra_metric(d, evlist, evsel, 0, k - 1, val, unit, fmt) ? 1 : -1;
	if (!stat_display__metric(d, evlist, evsel, 0, val, unit, fmt))
		return 0;
	/* perf leaves rates and CPU utilisation out of --metric-only */
	return !strstr(*unit, "/sec") && !strstr(*unit, "CPUs utilized");
}

/*
 * --metric-only per row (-A, --per-core/-die/-socket/-node), as perf 6.1
 * prints it: a cell per event of a metric kind (cycles, instructions,
 * branch-misses, the cache read misses), empty when it has no value; the
 * header names the cells only for -A (perf's forced header: "GHz" when a
 * clock counted on the first cpu, else "Ghz"; "of all" units after the
 * event's name), and for the topology modes it is the indent alone.
 */
static bool metric_only_kind(const struct evsel *evsel)
{
	uint64_t read_miss = (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);

	if (evsel->attr.type == PERF_TYPE_HW_CACHE)
		return (evsel->attr.config & ~0xffULL) == read_miss &&
		       (evsel->attr.config & 0xff) != PERF_COUNT_HW_CACHE_BPU &&
		       (evsel->attr.config & 0xff) != PERF_COUNT_HW_CACHE_NODE;
	return evsel__is_hw(evsel, PERF_COUNT_HW_CPU_CYCLES) ||
	       evsel__is_hw(evsel, PERF_COUNT_HW_INSTRUCTIONS) ||
	       evsel__is_hw(evsel, PERF_COUNT_HW_BRANCH_MISSES);
}

/* The -A header cell of a metric-kind event. */
static void metric_only_header_unit(struct evlist *evlist, struct evsel *evsel, char *buf,
				    size_t size)
{
	static const char *const caches[] = {
		[PERF_COUNT_HW_CACHE_L1D] = "of all L1-dcache accesses",
		[PERF_COUNT_HW_CACHE_L1I] = "of all L1-icache accesses",
		[PERF_COUNT_HW_CACHE_LL] = "of all LL-cache accesses",
		[PERF_COUNT_HW_CACHE_DTLB] = "of all dTLB cache accesses",
		[PERF_COUNT_HW_CACHE_ITLB] = "of all iTLB cache accesses",
	};

	if (evsel__is_hw(evsel, PERF_COUNT_HW_CPU_CYCLES))
		snprintf(buf, size, "%s", find_row(evlist, evsel, 0, pred_clock, 0) ? "GHz" : "Ghz");
	else if (evsel__is_hw(evsel, PERF_COUNT_HW_INSTRUCTIONS))
		snprintf(buf, size, "insn per cycle");
	else if (evsel__is_hw(evsel, PERF_COUNT_HW_BRANCH_MISSES))
		snprintf(buf, size, "%s of all branches", evsel__name(evsel));
	else
		snprintf(buf, size, "%s %s", evsel__name(evsel), caches[evsel->attr.config & 0xff]);
}

static void print_metric_only_rows(struct stat_display *d, struct evlist *evlist, bool header)
{
	static const char *const human_head[] = {
		[AGGR_NONE] = "CPU     ", [AGGR_CORE] = "core            cpus ",
		[AGGR_SOCKET] = "socket cpus ", [AGGR_DIE] = "die          cpus ",
		[AGGR_NODE] = "node   cpus ",
	};
	static const int indent[] = {
		[AGGR_NONE] = 6, [AGGR_CORE] = 24, [AGGR_SOCKET] = 12, [AGGR_DIE] = 18,
		[AGGR_NODE] = 6,
	};
	static const char *const csv_head[] = {
		[AGGR_NONE] = "cpu,", [AGGR_CORE] = "core,cpus,", [AGGR_SOCKET] = "socket,cpus",
		[AGGR_DIE] = "die,cpus", [AGGR_NODE] = "node,",
	};
	bool csv = d->mode == OUT_CSV;
	struct evsel *first = evlist__first(evlist), *evsel;
	char label[128], buf[1100], ts[64];
	FILE *fp = d->fp;
	int nr = evsel__stat(first) ? evsel__stat(first)->nr_aggr : 0;

	snprintf(ts, sizeof(ts), "%6llu.%09llu", (unsigned long long)(d->interval_ts / 1000000000ULL),
		 (unsigned long long)(d->interval_ts % 1000000000ULL));
	if (header) {
		if (csv)
			fprintf(fp, "%s%s", d->interval ? " time," : "", csv_head[d->aggr_mode]);
		else if (d->interval)
			fprintf(fp, "#           time %s", human_head[d->aggr_mode]);
		else
			fprintf(fp, "%*s", indent[d->aggr_mode], "");
		evlist__for_each_entry(evlist, evsel) {
			if (d->aggr_mode != AGGR_NONE || !evsel__row_stat(evsel) || !metric_only_kind(evsel))
				continue;
			metric_only_header_unit(evlist, evsel, buf, sizeof(buf));
			if (csv)
				fprintf(fp, "%s%s", buf, d->sep);
			else
				fprintf(fp, "%*s ", METRIC_ONLY_WIDTH, buf);
		}
		fputc('\n', fp);
		return;
	}
	for (int i = 0; i < nr; i++) {
		if (d->interval)
			fprintf(fp, "%s%s", ts, csv ? d->sep : " ");
		row_label(d, first, i, !csv, label, sizeof(label));
		if (!csv)
			fputs(label, fp);
		else if (aggr_by_topology(d->aggr_mode))
			fprintf(fp, "%s%s%d%s", label, d->sep, topology_nr_cpus(d, first, i), d->sep);
		else
			fprintf(fp, "%s%s", label, d->sep);
		evlist__for_each_entry(evlist, evsel) {
			struct evsel_stat *st = evsel__row_stat(evsel);
			const char *unit = "", *fmt = "%8.3f";
			double val = 0;

			if (!st || i >= st->nr_aggr || !metric_only_kind(evsel))
				continue;
			buf[0] = '\0';
			if (!evsel->unsupported && row_run(d, &st->aggr[i]) > 0 &&
			    stat_display__metric(d, evlist, evsel, i, &val, &unit, &fmt))
				snprintf(buf, sizeof(buf), fmt, val);
			if (csv)
				fprintf(fp, "%s%s", trim(buf), d->sep);
			else
				fprintf(fp, "%*s ", METRIC_ONLY_WIDTH, buf);
		}
		fputc('\n', fp);
	}
}

void stat_display__print_metric_only(struct stat_display *d, struct evlist *evlist, bool header)
{
	if (d->aggr_mode != AGGR_GLOBAL) {
		print_metric_only_rows(d, evlist, header);
		return;
	}
	struct evsel *evsel;
	struct out hw;
	char buf[64];
	FILE *fp = d->fp;

	if (d->interval && header) {
		if (d->mode == OUT_HUMAN)
			fputs("#           time ", fp);
		else if (d->mode == OUT_CSV)
			fprintf(fp, " time%s", d->sep);
	} else if (d->interval) {
		if (d->mode == OUT_JSON) {
			out__init(&hw, fp, OUT_JSON, d->sep);
			out__begin_object(&hw, NULL);
			out__field_double(&hw, "interval", "%.9f", d->interval_ts / 1e9);
			out__end_object(&hw);
		} else {
			fprintf(fp, "%6llu.%09llu%s",
				(unsigned long long)(d->interval_ts / 1000000000ULL),
				(unsigned long long)(d->interval_ts % 1000000000ULL),
				d->mode == OUT_CSV ? d->sep : " ");
		}
	}
	out__init(&hw, fp, OUT_JSON, d->sep);
	if (header && d->mode == OUT_JSON)
		out__begin_object(&hw, NULL);	/* the names as keys of one object */
	evlist__for_each_entry(evlist, evsel) {
		for (int k = 0; evsel__row_stat(evsel); k++) {
			const char *unit, *fmt = "%8.3f";
			double val = 0;
			bool bad;
			int cell = metric_only_cell(d, evlist, evsel, k, &bad, &val, &unit, &fmt);

			if (cell < 0)
				break;
			if (!cell)
				continue;
			if (header) {
				if (bad)
					continue;
				if (d->mode == OUT_HUMAN)
					fprintf(fp, "%*s ", METRIC_ONLY_WIDTH, unit);
				else if (d->mode == OUT_CSV)
					fprintf(fp, "%s%s", unit, d->sep);
				else
					out__field_str(&hw, unit, "");
				continue;
			}
			buf[0] = '\0';
			if (!bad)
				snprintf(buf, sizeof(buf), fmt, val);
			if (d->mode == OUT_HUMAN) {
				/* perf widens a value's cell under a longer name */
				int w = strlen(unit) > METRIC_ONLY_WIDTH ? (int)strlen(unit) + 1
									 : METRIC_ONLY_WIDTH;

				fprintf(fp, "%*s ", w, buf);
			} else if (d->mode == OUT_CSV) {
				fprintf(fp, "%s%s", trim(buf), d->sep);
			} else {
				struct out w;

				out__init(&w, fp, OUT_JSON, d->sep);
				out__begin_object(&w, NULL);
				out__field_str(&w, "metric-value", trim(buf));
				out__end_object(&w);
			}
		}
	}
	if (header && d->mode == OUT_JSON)
		out__end_object(&hw);
	fputc('\n', fp);
}

void stat_display__print_interval(struct stat_display *d, struct evlist *evlist)
{
	if (d->metric_only) {
		if (d->interval_lines++ == 0)
			stat_display__print_metric_only(d, evlist, true);
		stat_display__print_metric_only(d, evlist, false);
		fflush(d->fp);
		return;
	}
	bool header = d->mode == OUT_HUMAN && d->interval_lines++ % 25 == 0;

	if (d->interval_clear) {
		/* perf's sequence goes to stdout even when counts go elsewhere */
		fputs("\033[H\033[2J\n", stdout);
		header = true;
	}
	if (header) {
		static const char *const aggr_head[] = {
			[AGGR_CORE] = "core            cpus", [AGGR_SOCKET] = "socket cpus",
			[AGGR_DIE] = "die          cpus", [AGGR_NODE] = "node   cpus",
		};

		if (aggr_by_topology(d->aggr_mode))
			fprintf(d->fp, "#           time %s             counts unit events\n",
				aggr_head[d->aggr_mode]);
		else if (d->aggr_mode == AGGR_NONE)
			fprintf(d->fp, "#           time CPU                    counts unit events\n");
		else if (d->aggr_mode == AGGR_THREAD)
			fprintf(d->fp, "#           time             comm-pid                  counts unit events\n");
		else
			fprintf(d->fp, "#           time             counts unit events\n");
	}
	print_rows(d, evlist);
	fflush(d->fp);
}

/*
 * --table: each run's elapsed seconds, its difference from the mean and a
 * bar of one '#' plus one per whole 5% of that difference relative to the
 * run (perf's layout), indented as the mean is.
 */
static void print_run_table(struct stat_display *d, double avg, int prec)
{
	char num[64];
	int indent = 0;

	snprintf(num, sizeof(num), "%*.*f", VALUE_WIDTH, prec, avg);
	while (num[indent] == ' ')
		indent++;
	fprintf(d->fp, "%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < d->run_count; i++) {
		double run = d->walltime_run[i] / 1e9;
		int pct = run > 0 ? abs((int)(100.0 * (run - avg) / run)) : 0;

		fprintf(d->fp, "%*.*f (%+.*f) ", VALUE_WIDTH, prec, run, prec, run - avg);
		for (int h = 0; h <= pct / 5; h++)
			fputc('#', d->fp);
		fputc('\n', d->fp);
	}
	fprintf(d->fp, "\n%*s# Final result:\n", indent, "");
}

void stat_display__print(struct stat_display *d, struct evlist *evlist)
{
	FILE *fp = d->fp;

	if (d->mode == OUT_HUMAN) {
		fprintf(fp, "\n Performance counter stats for %s", d->target);
		if (d->run_count > 1)
			fprintf(fp, " (%d runs)", d->run_count);
		fprintf(fp, ":\n\n");
	}
	if (d->metric_only) {
		if (!d->after_intervals)	/* the names were printed with the intervals */
			stat_display__print_metric_only(d, evlist, true);
		stat_display__print_metric_only(d, evlist, false);
		if (d->mode == OUT_HUMAN)
			fputc('\n', fp);
	} else if (print_rows(d, evlist) && d->mode == OUT_HUMAN) {
		/* -n/--null: no rows, and no blank line for them either (as perf) */
		fputc('\n', fp);
	}
	if (d->mode != OUT_HUMAN) {
		fflush(fp);
		return;
	}
	if (d->run_count > 1) {
		double avg = avg_stats(&d->walltime) / 1e9;
		double sd = stddev_stats(&d->walltime) / 1e9;
		int prec = 9;

		if (sd > 0) {
			prec = (int)-floor(log10(sd)) + 2;
			if (prec < 1)
				prec = 1;
			if (prec > 9)
				prec = 9;
		}
		if (d->walltime_run)
			print_run_table(d, avg, prec);
		fprintf(fp, "%*.*f +- %.*f seconds time elapsed", VALUE_WIDTH, prec, avg, prec, sd);
		fprintf(fp, "  ( +-%6.2f%% )\n", rel_stddev_stats(sd, avg));
	} else {
		fprintf(fp, "%*.9f seconds time elapsed\n", VALUE_WIDTH, avg_stats(&d->walltime) / 1e9);
	}
	if (d->print_rusage && d->run_count == 1) {
		fprintf(fp, "\n%*.9f seconds user\n", VALUE_WIDTH,
			d->ru_utime.tv_sec + d->ru_utime.tv_usec / 1e6);
		fprintf(fp, "%*.9f seconds sys\n\n", VALUE_WIDTH,
			d->ru_stime.tv_sec + d->ru_stime.tv_usec / 1e6);
	}
	fputc('\n', fp);
	fflush(fp);
}
