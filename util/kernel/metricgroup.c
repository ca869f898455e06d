// SPDX-License-Identifier: GPL-2.0
/*
 * Metric selection and event strings for `stat -M` (metricgroup.h),
 * following the order of perf 6.1's steps, on which its output depends:
 * the table is walked once per name of the list; a metric's identifiers
 * that name other metrics are replaced by those metrics' identifiers
 * (recursively, each referenced metric once); the metrics found for all
 * names come out last-found first; then they are sorted, stably, by their
 * number of events (tool events not counted), most first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "metricgroup.h"
#include "event-names.h"
#include "pmu-events.h"
#include "../lib/debug.h"
#include "../lib/strbuf.h"

#define NR_TOOL 3	/* duration_time, user_time, system_time */

/* perf's match of a list item against a ";"-separated name list: the
 * first case-insensitive occurrence must be a whole item */
static bool name_matches(const char *names, const char *item)
{
	const char *m;
	size_t len;

	if (!item)
		return false;
	if (!strcmp(item, "all"))
		return true;
	if (!names)
		return !strcasecmp(item, "No_group");
	len = strlen(item);
	m = strcasestr(names, item);
	if (!m)
		return false;
	return (m == names || m[-1] == ';' || m[-1] == ' ') && (m[len] == '\0' || m[len] == ';');
}

static bool watchdog_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v != 0;
}

struct builder {
	struct metric_plan *plan;
	const struct pmu_events_model *model;
	struct metric_env env;
	bool no_group;
	bool watchdog_note;		/* a metric was split for the watchdog */
	const char *name;		/* the list item being looked up */
	const char *modifier;
	bool matched;
	int err;
};

struct visited {
	const char *name;
	const struct visited *parent;
};

struct find_metric {
	const char *name;
	struct pmu_event pe;
	bool found;
};

static int find_metric_cb(const struct pmu_event *pe, void *data)
{
	struct find_metric *f = data;

	if (!name_matches(pe->metric_name, f->name))
		return 0;
	f->pe = *pe;
	f->found = true;
	return 1;
}

static int add_one(struct builder *b, const struct pmu_event *pe, struct metric *root,
		   const struct visited *visited, int runtime);

/* Replace the identifiers of `root` that name metrics by theirs. */
static int resolve_refs(struct builder *b, struct metric *root, const struct visited *visited)
{
	struct find_metric *pending = NULL;
	size_t nr = 0, i;
	struct metric_id *n;
	int ret = 0;

	metric_ids__for_each(&root->ids, n, i) {
		struct find_metric f = { .name = n->key };

		pmu_events__for_each(b->model, find_metric_cb, &f);
		if (!f.found)
			continue;
		{
			struct find_metric *np = realloc(pending, (nr + 1) * sizeof(*np));

			if (!np) {
				free(pending);
				return -ENOMEM;
			}
			pending = np;
		}
		f.name = n->key;
		pending[nr++] = f;
	}
	/* keys are deleted below: keep the pending names alive */
	for (i = 0; i < nr; i++) {
		pending[i].name = strdup(pending[i].name);
		if (!pending[i].name)
			ret = -ENOMEM;
	}
	for (i = 0; i < nr && !ret; i++)
		metric_ids__del(&root->ids, pending[i].name);
	for (i = 0; i < nr && !ret; i++) {
		int count = 1;	/* perf's arch_get_runtimeparam(): 1 but on powerpc */

		for (int j = 0; j < (strchr(pending[i].pe.metric_expr, '?') ? count : 1) && !ret; j++)
			ret = add_one(b, &pending[i].pe, root, visited, j);
	}
	for (i = 0; i < nr; i++)
		free((char *)pending[i].name);
	free(pending);
	return ret;
}

static int metric_plan__push(struct metric_plan *plan, struct metric *m)
{
	struct metric *nv = realloc(plan->metrics, (plan->nr + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	plan->metrics = nv;
	plan->metrics[plan->nr++] = *m;
	return 0;
}

static void metric__exit(struct metric *m)
{
	free(m->modifier);
	free(m->refs);
	metric_ids__release(&m->ids);
}

/* perf's __add_metric: a root metric (root NULL) or one referenced by root. */
static int add_one(struct builder *b, const struct pmu_event *pe, struct metric *root,
		   const struct visited *visited, int runtime)
{
	struct visited here = { .name = pe->metric_name, .parent = visited };
	struct metric m = { 0 };
	struct metric *r = root;
	int ret;

	for (const struct visited *v = visited; v; v = v->parent) {
		if (!strcmp(pe->metric_name, v->name)) {
			pr_err("failed: recursion detected for %s\n", pe->metric_name);
			return -1;
		}
	}
	if (!root) {
		m.name = pe->metric_name;
		m.expr = pe->metric_expr;
		m.unit = pe->unit;
		m.runtime = runtime;
		if (b->modifier && !(m.modifier = strdup(b->modifier)))
			return -ENOMEM;
		m.has_constraint = b->no_group;
		if (!m.has_constraint && pe->metric_constraint &&
		    !strcmp(pe->metric_constraint, "NO_NMI_WATCHDOG") && watchdog_on()) {
			pr_warning("Splitting metric group %s into standalone metrics.\n",
				   pe->metric_name);
			b->watchdog_note = true;
			m.has_constraint = true;
		}
		r = &m;
	} else {
		struct metric_ref *nr;

		for (size_t i = 0; i < root->nr_refs; i++)
			if (!strcmp(pe->metric_name, root->refs[i].name))
				return 0;
		nr = realloc(root->refs, (root->nr_refs + 1) * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		root->refs = nr;
		root->refs[root->nr_refs++] = (struct metric_ref){ pe->metric_name, pe->metric_expr };
	}
	{
		struct metric_env env = b->env;

		env.runtime = r->runtime;
		ret = metric_expr__find_ids(pe->metric_expr, &env, &r->ids);
	}
	if (!ret)
		ret = resolve_refs(b, r, &here);
	if (!root) {
		if (!ret)
			ret = metric_plan__push(b->plan, &m);
		if (ret)
			metric__exit(&m);
	}
	return ret;
}

static int add_matching(const struct pmu_event *pe, void *data)
{
	struct builder *b = data;
	int ret = 0;

	if (!pe->metric_expr || (!name_matches(pe->metric_group, b->name) &&
				 !name_matches(pe->metric_name, b->name)))
		return 0;
	b->matched = true;
	/* perf's arch_get_runtimeparam(): one run but on powerpc */
	ret = add_one(b, pe, NULL, NULL, 0);
	b->err = ret;
	return ret;
}

static size_t event_count(const struct metric *m)
{
	size_t n = m->ids.nr;

	for (int t = 0; t < NR_TOOL; t++)
		if (metric_ids__has(&m->ids, event_symbols_tool[t].symbol))
			n--;
	return n;
}

/* Stable: insertion sort, most events first. */
static void sort_metrics(struct metric_plan *plan)
{
	for (size_t i = 1; i < plan->nr; i++) {
		struct metric m = plan->metrics[i];
		size_t j = i, c = event_count(&m);

		while (j > 0 && event_count(&plan->metrics[j - 1]) < c) {
			plan->metrics[j] = plan->metrics[j - 1];
			j--;
		}
		plan->metrics[j] = m;
	}
}

/* '!' codes of the characters parse-events cannot take in a metric-id */
static void add_metric_id(struct strbuf *sb, const char *id)
{
	static const char codes[] = ",-=@";

	for (; *id; id++) {
		const char *c = strchr(codes, *id);

		if (c && *id)
			strbuf_addf(sb, "!%c", (char)('0' + (c - codes)));
		else
			strbuf_addch(sb, *id);
	}
}

/* perf's metricgroup__build_event_string. */
static char *event_string(const struct metric_ids *ids, const char *modifier, bool has_constraint)
{
	struct strbuf sb = STRBUF_INIT;
	bool tool[NR_TOOL] = { false }, any_tool = false, none = true;
	struct metric_id *n;
	size_t i;

	metric_ids__for_each(ids, n, i) {
		const char *id = n->key, *sep;
		enum tool_event t = tool_event__find(id);

		if (t != TOOL_EVENT_NONE) {
			tool[t - 1] = any_tool = true;
			continue;
		}
		if (none) {
			if (!has_constraint)
				strbuf_addch(&sb, '{');
			none = false;
		} else {
			strbuf_addch(&sb, ',');
		}
		sep = strchr(id, '@');
		if (sep) {
			/* "pmu@terms@" is written pmu/terms,metric-id=.../ */
			const char *last = strrchr(sep, '@');

			strbuf_add(&sb, id, sep - id);
			strbuf_addch(&sb, '/');
			strbuf_add(&sb, sep + 1, last - sep - 1);
			strbuf_addstr(&sb, ",metric-id=");
			sep = last;
		} else {
			sep = strchr(id, ':');
			strbuf_add(&sb, id, sep ? (size_t)(sep - id) : strlen(id));
			strbuf_addstr(&sb, "/metric-id=");
		}
		add_metric_id(&sb, id);
		strbuf_addch(&sb, '/');
		if (sep)
			strbuf_addstr(&sb, sep + 1);
		if (modifier)
			strbuf_addstr(&sb, modifier);
	}
	if (!none && !has_constraint)
		strbuf_addstr(&sb, "}:W");
	for (int t = 0; any_tool && t < NR_TOOL; t++) {
		if (!tool[t])
			continue;
		if (!none)
			strbuf_addch(&sb, ',');
		none = false;
		strbuf_addstr(&sb, event_symbols_tool[t].symbol);
	}
	return strbuf_detach(&sb, NULL);
}

static int plan_events(struct metric_plan *plan, struct metric_ids *ids, const char *modifier,
		       bool has_constraint, bool no_merge, const bool tool[NR_TOOL])
{
	char **nv, *s;

	if (!no_merge || !ids->nr) {
		bool added = false;

		for (int t = 0; t < NR_TOOL; t++) {
			if (tool[t]) {
				if (metric_ids__add(ids, event_symbols_tool[t].symbol))
					return -ENOMEM;
				added = true;
			}
		}
		if (!added && !ids->nr && metric_ids__add(ids, "duration_time"))
			return -ENOMEM;
	}
	s = event_string(ids, modifier, has_constraint);
	nv = s ? realloc(plan->events, (plan->nr_events + 1) * sizeof(*nv)) : NULL;
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	plan->events = nv;
	plan->events[plan->nr_events++] = s;
	return 0;
}

static bool same_modifier(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* perf's parse_groups: which event string each metric reads. */
static int plan_all(struct metric_plan *plan, bool no_merge)
{
	bool tool[NR_TOOL] = { false };
	int combined = -1, ret;

	sort_metrics(plan);
	if (!no_merge) {
		struct metric_ids all = { 0 };

		for (size_t i = 0; i < plan->nr; i++)
			for (int t = 0; t < NR_TOOL; t++)
				if (metric_ids__has(&plan->metrics[i].ids, event_symbols_tool[t].symbol))
					tool[t] = true;
		for (size_t i = 0; i < plan->nr; i++) {
			struct metric *m = &plan->metrics[i];
			struct metric_id *n;
			size_t b;

			if (!m->has_constraint || m->modifier)
				continue;
			metric_ids__for_each(&m->ids, n, b)
				if (metric_ids__add(&all, n->key)) {
					metric_ids__release(&all);
					return -ENOMEM;
				}
		}
		if (all.nr) {
			ret = plan_events(plan, &all, NULL, true, no_merge, tool);
			combined = plan->nr_events - 1;
		} else {
			ret = 0;
		}
		metric_ids__release(&all);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < plan->nr; i++) {
		struct metric *m = &plan->metrics[i];

		m->events = -1;
		if (combined >= 0 && m->has_constraint) {
			m->events = combined;
			continue;
		}
		/* an earlier metric (with events of its own) may hold all of these */
		for (size_t j = 0; !no_merge && j < i; j++) {
			struct metric *n = &plan->metrics[j];

			if (n->events < 0 || n->events == combined ||
			    !same_modifier(m->modifier, n->modifier))
				continue;
			if (metric_ids__subset(&n->ids, &m->ids)) {
				m->events = n->events;
				break;
			}
		}
		if (m->events >= 0)
			continue;
		ret = plan_events(plan, &m->ids, m->modifier, m->has_constraint, no_merge, tool);
		if (ret)
			return ret;
		m->events = plan->nr_events - 1;
	}
	return 0;
}

int metric_plan__build(struct metric_plan *plan, const char *list, bool no_group, bool no_merge,
		       bool system_wide)
{
	struct builder b = { .plan = plan, .no_group = no_group };
	char *copy = strdup(list), *it = copy, *item;
	size_t count = 0;
	int ret = 0;

	memset(plan, 0, sizeof(*plan));
	if (!copy)
		return -ENOMEM;
	b.model = pmu_events__model();
	metric_env__host(&b.env, system_wide);
	while ((item = strsep(&it, ","))) {
		char *mod = strchr(item, ':');

		if (mod)
			*mod++ = '\0';
		b.name = item;
		b.modifier = mod;
		b.matched = false;
		b.err = 0;
		if (!b.model && pmu_events__available()) {
			/* perf without a table for this CPU fails before any
			 * lookup, silently */
			ret = -EINVAL;
			break;
		}
		pmu_events__for_each(b.model, add_matching, &b);
		ret = b.err;
		if (!ret && !b.matched)
			ret = -EINVAL;
		if (ret == -EINVAL)
			pr_err("Cannot find metric or group `%s'\n", item);
		if (ret)
			break;
		count++;
	}
	free(copy);
	if (!ret) {
		if (b.watchdog_note)
			pr_warning("Try disabling the NMI watchdog to comply NO_NMI_WATCHDOG metric constraint:\n"
				   "    echo 0 > /proc/sys/kernel/nmi_watchdog\n"
				   "    perf stat ...\n"
				   "    echo 1 > /proc/sys/kernel/nmi_watchdog\n");
		if (!count)
			ret = -EINVAL;
	}
	if (!ret) {
		/* perf adds each metric at its list's head: the last found first */
		for (size_t i = 0, j = plan->nr; i + 1 < j; i++, j--) {
			struct metric t = plan->metrics[i];

			plan->metrics[i] = plan->metrics[j - 1];
			plan->metrics[j - 1] = t;
		}
		ret = plan_all(plan, no_merge);
	}
	if (ret)
		metric_plan__exit(plan);
	return ret;
}

void metric_plan__exit(struct metric_plan *plan)
{
	for (size_t i = 0; i < plan->nr; i++)
		metric__exit(&plan->metrics[i]);
	free(plan->metrics);
	for (size_t i = 0; i < plan->nr_events; i++)
		free(plan->events[i]);
	free(plan->events);
	memset(plan, 0, sizeof(*plan));
}
