/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_STAT_METRIC_H
#define PRF_ANALYSIS_STAT_METRIC_H
/*
 * `stat -M`: the selected metrics' events added to the evlist as perf 6.1
 * adds them (util/kernel/metricgroup.h), and each metric's value from the
 * counts, shown in the "#" column of the row of its first event.
 */
#include <stdbool.h>
#include <stddef.h>
#include "../kernel/metricgroup.h"

struct evlist;
struct evsel;

/* One metric with the evsels that count its identifiers. */
struct stat_metric {
	const struct metric *metric;	/* in stat_metrics.plan */
	struct evsel **events;		/* nr of them, in the metric's id order */
	const char **ids;		/* the identifiers (keys of metric->ids) */
	size_t nr;
};

struct stat_metrics {
	struct metric_plan plan;
	struct stat_metric *v;
	size_t nr;
	bool system_wide;
};

/*
 * Add the events of the metrics of `list` to evlist, after its events.
 * When a name selects nothing or an event string does not parse, perf's
 * message (for a parse error the event string cut as perf cuts it and the
 * reason under it) is printed and nothing is added: perf's stat goes on
 * then with its default events. Returns 0 (events added), 1 (message
 * printed, none added) or -ENOMEM. Release with stat_metrics__exit().
 */
int stat_metrics__add(struct stat_metrics *sm, struct evlist *evlist, const char *list,
		      bool no_group, bool no_merge, bool system_wide);
void stat_metrics__exit(struct stat_metrics *sm);

/* The value of an evsel's count for one output row; tool events (ns or
 * us) included. Returns false when there is none. */
typedef bool (*stat_metric_count_fn)(struct evsel *evsel, double *val, void *data);

/*
 * The nth (0: the first) of sm's metrics whose first event is evsel, as
 * shown with evsel's row: its value computed from count(), printed with *fmt
 * ("%8.2f", or "%8.1f" with a ScaleUnit) and *unit (the metric's name, or
 * "UNIT  NAME" with a ScaleUnit; written into unit_buf). Tool events count
 * in seconds, as perf's duration_time in metrics. Returns false when no
 * such metric or its expression has no value.
 */
bool stat_metrics__value(const struct stat_metrics *sm, struct evsel *evsel, int nth,
			 stat_metric_count_fn count, void *data, double *val, const char **fmt,
			 char *unit_buf, size_t unit_len);

#endif
