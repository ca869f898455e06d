// SPDX-License-Identifier: GPL-2.0
/*
 * stat -M (stat-metric.h): the metric plan's event strings parsed into
 * the evlist, each metric bound to the evsels of its identifiers (by the
 * metric-id the event string gave them, as perf binds them), and the
 * metric's value from their counts.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stat-metric.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../kernel/parse-events.h"
#include "../lib/debug.h"

/* The identifier an evsel of a metric's event string counts: its
 * metric-id term decoded ("!0".."!3" are ",-=@"), or its name. */
static char *evsel_metric_id(const struct evsel *evsel)
{
	const char *m = strstr(evsel->name, "metric-id="), *end;
	char *id, *o;

	if (!m)
		return strdup(evsel->name);
	m += strlen("metric-id=");
	end = m + strcspn(m, ",/");
	id = malloc(end - m + 1);
	if (!id)
		return NULL;
	for (o = id; m < end; m++) {
		if (*m == '!' && m + 1 < end && m[1] >= '0' && m[1] <= '3')
			*o++ = ",-=@"[*++m - '0'];
		else
			*o++ = *m;
	}
	*o = '\0';
	return id;
}

/* perf's display name of a metric's event: the identifier, '@' as '/'. */
static int rename_evsel(struct evsel *evsel, const char *id)
{
	char *name;
	int ret;

	if (!strstr(evsel->name, "metric-id="))
		return 0;
	name = strdup(id);
	if (!name)
		return -ENOMEM;
	for (char *p = name; *p; p++)
		if (*p == '@')
			*p = '/';
	ret = evsel__set_name(evsel, name);
	free(name);
	return ret;
}

/*
 * perf 6.1's event lexer takes these spellings for a kernel PMU event;
 * when no PMU has it, perf's parser stops without a message (prf's says
 * "Cannot find PMU"), so a metric needing one fails silently there.
 */
static bool perf_fails_silently(const struct parse_events_error *err)
{
	static const char *const exact[] = {
		"cycles-ct", "cycles-t", "mem-loads", "mem-loads-aux", "mem-stores",
	};
	static const char *const prefix[] = { "topdown-", "tx-capacity-", "el-capacity-" };
	const char *pre = "Cannot find PMU `", *name, *end;

	if (!err->str || strncmp(err->str, pre, strlen(pre)))
		return false;
	name = err->str + strlen(pre);
	end = strchr(name, '\'');
	if (!end)
		return false;
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if ((size_t)(end - name) == strlen(exact[i]) && !strncmp(name, exact[i], end - name))
			return true;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		size_t n = strlen(prefix[i]);
		const char *p = name + n;

		if (end - name <= (ptrdiff_t)n || strncmp(name, prefix[i], n))
			continue;
		while (p < end && ((*p >= 'a' && *p <= 'z') || *p == '-'))
			p++;
		if (p == end)
			return true;
	}
	return false;
}

struct parsed {
	struct evlist *evlist;
	char **ids;		/* metric id of each evsel, in evlist order */
	size_t nr;
};

static void parsed__exit(struct parsed *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->ids[i]);
	free(p->ids);
	evlist__delete(p->evlist);
}

static int bind_metric(struct stat_metric *s, const struct metric *m, const struct parsed *p)
{
	struct metric_id *n;
	size_t b, k = 0;

	s->metric = m;
	s->nr = m->ids.nr;
	s->events = calloc(s->nr ? s->nr : 1, sizeof(*s->events));
	s->ids = calloc(s->nr ? s->nr : 1, sizeof(*s->ids));
	if (!s->events || !s->ids)
		return -ENOMEM;
	metric_ids__for_each(&m->ids, n, b) {
		struct evsel *e;
		size_t i = 0;

		s->ids[k] = n->key;
		evlist__for_each_entry(p->evlist, e) {
			if (!strcmp(p->ids[i], n->key)) {
				s->events[k] = e;
				break;
			}
			i++;
		}
		if (!s->events[k]) {
			pr_debug("Cannot resolve IDs for %s: %s\n", m->name, m->expr);
			return -EINVAL;
		}
		k++;
	}
	return 0;
}

int stat_metrics__add(struct stat_metrics *sm, struct evlist *evlist, const char *list,
		      bool no_group, bool no_merge, bool system_wide)
{
	struct parsed *parsed;
	size_t i;
	int ret;

	memset(sm, 0, sizeof(*sm));
	sm->system_wide = system_wide;
	ret = metric_plan__build(&sm->plan, list, no_group, no_merge, system_wide);
	if (ret)
		return ret == -ENOMEM ? -ENOMEM : 1;
	parsed = calloc(sm->plan.nr_events ? sm->plan.nr_events : 1, sizeof(*parsed));
	if (!parsed)
		goto nomem;
	for (i = 0; i < sm->plan.nr_events; i++) {
		const char *s = sm->plan.events[i];
		struct parse_events_error err;
		struct evsel *e;
		size_t k = 0;

		pr_debug("Parsing metric events '%s'\n", s);
		parsed[i].evlist = evlist__new();
		if (!parsed[i].evlist)
			goto nomem;
		parse_events_error__init(&err);
		ret = parse_events(parsed[i].evlist, s, &err);
		if (ret) {
			if (!perf_fails_silently(&err))
				parse_events_error__print_bare(&err, s, stderr);
			parse_events_error__exit(&err);
			ret = ret == -ENOMEM ? -ENOMEM : 1;
			goto out;
		}
		parse_events_error__exit(&err);
		parsed[i].ids = calloc(parsed[i].evlist->nr_entries + 1, sizeof(char *));
		if (!parsed[i].ids)
			goto nomem;
		evlist__for_each_entry(parsed[i].evlist, e) {
			parsed[i].ids[k] = evsel_metric_id(e);
			if (!parsed[i].ids[k] || rename_evsel(e, parsed[i].ids[k]))
				goto nomem;
			parsed[i].nr = ++k;
		}
	}
	sm->v = calloc(sm->plan.nr ? sm->plan.nr : 1, sizeof(*sm->v));
	if (!sm->v)
		goto nomem;
	for (i = 0; i < sm->plan.nr; i++) {
		const struct metric *m = &sm->plan.metrics[i];

		sm->nr = i + 1;
		ret = bind_metric(&sm->v[i], m, &parsed[m->events]);
		if (ret) {
			ret = ret == -ENOMEM ? -ENOMEM : 1;
			goto out;
		}
	}
	/* all parsed: the events join the evlist, in the strings' order */
	for (i = 0; i < sm->plan.nr_events; i++) {
		struct evsel *e, *tmp;

		list_for_each_entry_safe(e, tmp, &parsed[i].evlist->entries, node) {
			list_del_init(&e->node);
			parsed[i].evlist->nr_entries--;
			evlist__add(evlist, e);
		}
	}
	evlist__update_groups(evlist);
	ret = 0;
out:
	for (i = 0; i < sm->plan.nr_events; i++)
		parsed__exit(&parsed[i]);
	free(parsed);
	if (ret)
		stat_metrics__exit(sm);
	return ret;
nomem:
	ret = -ENOMEM;
	goto out;
}

void stat_metrics__exit(struct stat_metrics *sm)
{
	for (size_t i = 0; i < sm->nr; i++) {
		free(sm->v[i].events);
		free(sm->v[i].ids);
	}
	free(sm->v);
	metric_plan__exit(&sm->plan);
	memset(sm, 0, sizeof(*sm));
}

struct lookup {
	const struct stat_metric *s;
	stat_metric_count_fn count;
	void *data;
};

static int lookup_id(const char *id, bool source_count, double *val, void *data)
{
	const struct lookup *l = data;

	for (size_t i = 0; i < l->s->nr; i++) {
		struct evsel *e = l->s->events[i];

		if (strcmp(l->s->ids[i], id))
			continue;
		if (source_count) {
			*val = 1;
			return 0;
		}
		if (!l->count(e, val, l->data))
			return -ENOENT;	/* NaN in the expression */
		if (e->tool_event)
			*val *= 1e-9;	/* ns: metrics take seconds */
		return 0;
	}
	return -ENOENT;
}

bool stat_metrics__value(const struct stat_metrics *sm, struct evsel *evsel, int nth,
			 stat_metric_count_fn count, void *data, double *val, const char **fmt,
			 char *unit_buf, size_t unit_len)
{
	for (size_t i = 0; sm && i < sm->nr; i++) {
		const struct stat_metric *s = &sm->v[i];
		const struct metric *m = s->metric;
		struct lookup l = { .s = s, .count = count, .data = data };
		struct metric_env env;
		double v;

		if (!s->nr || s->events[0] != evsel || nth-- > 0)
			continue;
		metric_env__host(&env, sm->system_wide);
		env.runtime = m->runtime;
		/* as perf: no value unless every event of the metric counted */
		for (size_t k = 0; k < s->nr; k++) {
			double c;

			if (!count(s->events[k], &c, data))
				return false;
		}
		if (metric_expr__eval(m->expr, &env, lookup_id, &l, &v))
			return false;
		if (m->unit) {
			/* ScaleUnit "100%": a factor, then the unit */
			char *rest;
			double scale = strtod(m->unit, &rest);

			if (rest != m->unit)
				v *= scale;
			while (*rest == ' ')
				rest++;
			if (strchr(m->expr, '?'))
				snprintf(unit_buf, unit_len, "%s  %s_%d", rest, m->name, m->runtime);
			else
				snprintf(unit_buf, unit_len, "%s  %s", rest, m->name);
			*fmt = "%8.1f";
		} else {
			snprintf(unit_buf, unit_len, "%s", m->name);
			*fmt = "%8.2f";
		}
		*val = v;
		return true;
	}
	return false;
}
