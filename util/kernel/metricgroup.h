/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_METRICGROUP_H
#define PRF_KERNEL_METRICGROUP_H
/*
 * `stat -M LIST`: which metrics a list of metric and group names selects
 * in this CPU's tables (pmu-events.h), and the event strings perf 6.1
 * builds for them, in perf's order: the metrics sorted by how many events
 * they need (most first), a metric whose events are all in an earlier
 * metric's reusing them, each event string "{ev/metric-id=ev/,...}:W"
 * with the identifiers in perf's hash order (metric-expr.h), the tool
 * events (duration_time, user_time, system_time) outside the group.
 */
#include <stdbool.h>
#include <stddef.h>
#include "metric-expr.h"

struct metric_ref {
	const char *name;		/* a metric the expression names */
	const char *expr;
};

struct metric {
	const char *name;		/* MetricName (table string) */
	const char *expr;		/* MetricExpr */
	const char *unit;		/* ScaleUnit or NULL */
	char *modifier;			/* "u" of "NAME:u", or NULL */
	int runtime;			/* the "?" parameter */
	bool has_constraint;		/* no group: --metric-no-group or a
					   NO_NMI_WATCHDOG metric with the
					   watchdog on */
	struct metric_ids ids;		/* events (and tool events) it needs */
	struct metric_ref *refs;	/* metrics it refers to */
	size_t nr_refs;
	int events;			/* index in metric_plan.events of the
					   string whose events it reads */
};

struct metric_plan {
	struct metric *metrics;		/* perf's order */
	size_t nr;
	char **events;			/* event strings, to parse in order */
	size_t nr_events;
};

/*
 * Select the metrics of `list` ("NAME[:MOD],..." metric or group names,
 * case-insensitive; "all" for every metric) and build the event strings.
 * no_group/no_merge: --metric-no-group, --metric-no-merge. Prints perf's
 * messages: "Cannot find metric or group `NAME'" for a name that selects
 * nothing (or a metric whose expression does not parse; every name when
 * prf was built without tables; nothing at all, as perf, when the tables
 * have no model for this CPU), "failed:
 * recursion detected for NAME", the NMI watchdog notes. Returns 0,
 * -EINVAL (message printed; plan empty) or -ENOMEM. Release the plan with
 * metric_plan__exit().
 */
int metric_plan__build(struct metric_plan *plan, const char *list, bool no_group, bool no_merge,
		       bool system_wide);
void metric_plan__exit(struct metric_plan *plan);

#endif
