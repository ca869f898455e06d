// SPDX-License-Identifier: GPL-2.0
/* Counting aggregation; see stat.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stat.h"
#include "../kernel/cpumap.h"
#include "../kernel/event-names.h"
#include "../kernel/evlist.h"
#include "../lib/util.h"

void init_stats(struct stats *s)
{
	s->n = s->mean = s->M2 = 0;
}

void update_stats(struct stats *s, double v)
{
	double delta;

	s->n++;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * (v - s->mean);
}

double avg_stats(const struct stats *s)
{
	return s->mean;
}

double stddev_stats(const struct stats *s)
{
	double variance;

	if (s->n < 2)
		return 0.0;
	variance = s->M2 / (s->n - 1);
	return sqrt(variance / s->n);
}

double rel_stddev_stats(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}

int stat__nr_aggr(enum aggr_mode mode, int nr_cpus, int nr_threads)
{
	switch (mode) {
	case AGGR_NONE:
	case AGGR_CORE:		/* at most one row per cpu; aggr_map sets it */
	case AGGR_SOCKET:
	case AGGR_DIE:
	case AGGR_NODE:
		return nr_cpus;
	case AGGR_THREAD:
		return nr_threads;
	case AGGR_GLOBAL:
	default:
		return 1;
	}
}

int evsel__stat_alloc(struct evsel *evsel, int nr_cpus, int nr_threads, enum aggr_mode mode)
{
	struct evsel_stat *st = zalloc(sizeof(*st));
	int nr = nr_cpus * nr_threads, i;

	if (!st)
		return -ENOMEM;
	st->nr_cpus = nr_cpus;
	st->nr_threads = nr_threads;
	st->nr_aggr = stat__nr_aggr(mode, nr_cpus, nr_threads);
	st->cur = zalloc(sizeof(*st->cur) * nr);
	st->prev = zalloc(sizeof(*st->prev) * nr);
	st->aggr = zalloc(sizeof(*st->aggr) * st->nr_aggr);
	if (!st->cur || !st->prev || !st->aggr) {
		free(st->cur);
		free(st->prev);
		free(st->aggr);
		free(st);
		return -ENOMEM;
	}
	for (i = 0; i < st->nr_aggr; i++) {
		init_stats(&st->aggr[i].res);
		init_stats(&st->aggr[i].ena_s);
		init_stats(&st->aggr[i].run_s);
	}
	evsel__stat_free(evsel);
	evsel->priv = st;
	return 0;
}

void evsel__stat_free(struct evsel *evsel)
{
	struct evsel_stat *st = evsel->priv;

	if (!st)
		return;
	free(st->cur);
	free(st->prev);
	free(st->aggr);
	free(st);
	evsel->priv = NULL;
}

/* The topology id of cpu reduced to what mode aggregates by. */
static int aggr_id(const char *root, int cpu, enum aggr_mode mode, struct cpu_topology_id *id)
{
	int err = cpu__topology_id(root, cpu, id);

	if (err)
		return err;
	if (mode == AGGR_NODE)
		id->socket = id->die = id->core = -1;
	else
		id->node = -1;
	if (mode == AGGR_SOCKET)
		id->die = -1;
	if (mode != AGGR_CORE)
		id->core = -1;
	return 0;
}

static int aggr_id_cmp(const void *a, const void *b)
{
	const struct cpu_topology_id *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return 0;
}

struct aggr_map *aggr_map__new(struct perf_cpu_map *cpus, enum aggr_mode mode,
			       const char *sysfs_root)
{
	int nr = perf_cpu_map__nr(cpus), i, k, err = -ENOMEM;
	struct aggr_map *map = zalloc(sizeof(*map));
	struct cpu_topology_id *cpu_ids = calloc(nr ? nr : 1, sizeof(*cpu_ids));

	if (!map || !cpu_ids)
		goto out_err;
	map->cpu_aggr = calloc(nr ? nr : 1, sizeof(int));
	map->ids = calloc(nr ? nr : 1, sizeof(*map->ids));
	map->nr_cpus = calloc(nr ? nr : 1, sizeof(int));
	if (!map->cpu_aggr || !map->ids || !map->nr_cpus)
		goto out_err;
	for (i = 0; i < nr; i++) {
		err = aggr_id(sysfs_root, perf_cpu_map__cpu(cpus, i), mode, &cpu_ids[i]);
		if (err)
			goto out_err;
		map->ids[map->nr++] = cpu_ids[i];
	}
	/* the distinct ids, sorted */
	qsort(map->ids, map->nr, sizeof(*map->ids), aggr_id_cmp);
	for (i = k = 0; i < map->nr; i++)
		if (!k || aggr_id_cmp(&map->ids[k - 1], &map->ids[i]))
			map->ids[k++] = map->ids[i];
	map->nr = k;
	for (i = 0; i < nr; i++) {
		for (k = 0; k < map->nr && aggr_id_cmp(&map->ids[k], &cpu_ids[i]); k++)
			;
		map->cpu_aggr[i] = k;
		map->nr_cpus[k]++;
	}
	free(cpu_ids);
	return map;

out_err:
	free(cpu_ids);
	aggr_map__delete(map);
	errno = -err;
	return NULL;
}

void aggr_map__delete(struct aggr_map *map)
{
	if (!map)
		return;
	free(map->cpu_aggr);
	free(map->ids);
	free(map->nr_cpus);
	free(map);
}

void evlist__stat_set_aggr_map(struct evlist *evlist, const struct aggr_map *map)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);

		if (st && map->nr <= st->nr_aggr) {
			st->aggr_map = map;
			st->nr_aggr = map->nr;
		}
	}
}

int evlist__stat_alloc(struct evlist *evlist, int nr_cpus, int nr_threads, enum aggr_mode mode)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		if (evsel__stat_alloc(evsel, nr_cpus, nr_threads, mode))
			return -ENOMEM;
	return 0;
}

void evlist__stat_free(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		evsel__stat_free(evsel);
}

void evlist__stat_reset_prev(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);

		if (!st)
			continue;
		memset(st->prev, 0, sizeof(*st->prev) * st->nr_cpus * st->nr_threads);
		memset(st->cur, 0, sizeof(*st->cur) * st->nr_cpus * st->nr_threads);
	}
}

bool perf_counts_values__scale(struct perf_counts_values *c)
{
	if (!c->run) {
		c->val = 0;
		return false;
	}
	if (c->run < c->ena) {
		c->val = (uint64_t)((double)c->val * c->ena / c->run + 0.5);
		return true;
	}
	return false;
}

/* Read a group leader and its members with one read(2) per fd. */
static int evsel__stat_read_group(struct evlist *evlist, struct evsel *leader)
{
	struct perf_counts_values vals[leader->nr_members];
	int c, t, i, n;

	for (c = 0; c < leader->nr_cpus; c++) {
		for (t = 0; t < leader->nr_threads; t++) {
			struct evsel *pos;

			n = evsel__read_group(leader, c, t, vals, leader->nr_members);
			if (n == -EBADF)	/* not opened: the task was gone */
				continue;
			if (n < 0)
				return n;
			/* a member did not open (unsupported): the group read
			 * holds fewer values; as perf, nothing of it counts */
			if (n != leader->nr_members)
				continue;
			/* Members follow the leader in evlist order. */
			pos = leader;
			for (i = 0; i < n; i++) {
				struct evsel_stat *st = evsel__stat(pos);

				if (st && pos->fds)
					st->cur[c * st->nr_threads + t] = vals[i];
				if (pos->node.next == &evlist->entries)
					break;
				pos = list_entry(pos->node.next, struct evsel, node);
				if (pos->leader != leader)
					break;
			}
		}
	}
	return 0;
}

int evlist__stat_read(struct evlist *evlist)
{
	struct evsel *evsel;
	int err = 0;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);
		int c, t, ret;

		if (!st || !evsel->fds)
			continue;
		if (evsel->leader->tool_event)
			continue;	/* a tool leader's value comes from evlist__stat_set_tool();
					   perf reads no member of its group */
		/* members of a group read come with their leader's read */
		if (evsel->leader->attr.read_format & PERF_FORMAT_GROUP) {
			if (evsel__is_group_leader(evsel)) {
				ret = evsel__stat_read_group(evlist, evsel);
				if (ret && !err)
					err = ret;
			}
			continue;
		}
		for (c = 0; c < evsel->nr_cpus && c < st->nr_cpus; c++) {
			for (t = 0; t < evsel->nr_threads && t < st->nr_threads; t++) {
				ret = evsel__read_counter(evsel, c, t, &st->cur[c * st->nr_threads + t]);
				if (ret == -EBADF)	/* not opened: the task was gone */
					continue;
				if (ret && !err)
					err = ret;
			}
		}
	}
	return err;
}

void evlist__stat_set_tool(struct evlist *evlist, uint64_t elapsed_ns, uint64_t utime_ns,
			   uint64_t stime_ns)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);
		uint64_t v;

		/* a group member keeps its dummy counter's reading (0), as perf */
		if (!st || !evsel->tool_event || !evsel__is_group_leader(evsel))
			continue;
		memset(st->cur, 0, (size_t)st->nr_cpus * st->nr_threads * sizeof(*st->cur));
		v = evsel->tool_event == TOOL_EVENT_DURATION_TIME ? elapsed_ns :
		    evsel->tool_event == TOOL_EVENT_USER_TIME ? utime_ns : stime_ns;
		/* one value for the whole run, in the first row */
		st->cur[0].val = st->cur[0].ena = st->cur[0].run = v;
	}
}

void evlist__stat_process(struct evlist *evlist, enum aggr_mode mode, bool delta, bool add_run)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);
		int c, t, i;

		if (!st)
			continue;
		for (i = 0; i < st->nr_aggr; i++) {
			st->aggr[i].val = 0;
			st->aggr[i].ena = st->aggr[i].run = 0;
		}
		for (c = 0; c < st->nr_cpus; c++) {
			for (t = 0; t < st->nr_threads; t++) {
				int k = c * st->nr_threads + t;
				struct perf_counts_values v = st->cur[k];
				struct stat_aggr *a;

				if (delta) {
					v.val -= st->prev[k].val;
					v.ena -= st->prev[k].ena;
					v.run -= st->prev[k].run;
					st->prev[k] = st->cur[k];
				}
				perf_counts_values__scale(&v);
				i = mode == AGGR_NONE ? c : mode == AGGR_THREAD ? t :
				    st->aggr_map ? st->aggr_map->cpu_aggr[c] : 0;
				a = &st->aggr[i];
				/* a PMU alias's scale (MiB, Joules): the
				 * value perf prints and its metrics take */
				a->val += evsel->scale ? v.val * evsel->scale : (double)v.val;
				a->ena += v.ena;
				a->run += v.run;
			}
		}
	}
	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel), *to;
		int i;

		if (!st || !st->merged_into)
			continue;
		to = evsel__stat(st->merged_into);
		for (i = 0; i < st->nr_aggr && i < to->nr_aggr; i++) {
			to->aggr[i].val += st->aggr[i].val;
			to->aggr[i].ena += st->aggr[i].ena;
			to->aggr[i].run += st->aggr[i].run;
		}
	}
	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);
		int i;

		if (!st)
			continue;
		for (i = 0; i < st->nr_aggr; i++) {
			struct stat_aggr *a = &st->aggr[i];

			a->counted = a->run > 0;
			if (add_run) {
				update_stats(&a->res, a->val);
				update_stats(&a->ena_s, a->ena);
				update_stats(&a->run_s, a->run);
			}
		}
	}
}

void evlist__stat_merge(struct evlist *evlist)
{
	struct evsel *evsel, *first;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel__stat(evsel);

		if (!st || !evsel->merge_group)
			continue;
		evlist__for_each_entry(evlist, first) {
			if (first == evsel)
				break;
			if (first->merge_group == evsel->merge_group && first->cgrp == evsel->cgrp &&
			    evsel__stat(first)) {
				st->merged_into = first;
				break;
			}
		}
	}
}
