// SPDX-License-Identifier: GPL-2.0
/* evlist: the ordered evsels of a command or file; see evlist.h. */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include "evlist.h"
#include "cpumap.h"
#include "thread_map.h"
#include "../lib/util.h"

struct evlist *evlist__new(void)
{
	struct evlist *evlist = zalloc(sizeof(*evlist));

	if (!evlist)
		return NULL;
	INIT_LIST_HEAD(&evlist->entries);
	evlist->workload_pid = -1;
	evlist->workload_cork_fd = -1;
	return evlist;
}

void evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	evsel->idx = evlist->nr_entries++;
	list_add_tail(&evsel->node, &evlist->entries);
}

void evlist__delete(struct evlist *evlist)
{
	struct evsel *pos, *n;

	if (!evlist)
		return;
	list_for_each_entry_safe(pos, n, &evlist->entries, node) {
		list_del_init(&pos->node);
		evsel__delete(pos);
	}
	perf_cpu_map__put(evlist->cpus);
	perf_thread_map__put(evlist->threads);
	free(evlist->pollfd);
	free(evlist);
}

struct evsel *evlist__id2evsel(struct evlist *evlist, uint64_t id)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		int i;

		for (i = 0; evsel->ids && i < evsel->nr_cpus * evsel->nr_threads; i++)
			if (evsel->ids[i] == id)
				return evsel;
	}
	/* A single-event file without ids maps everything to that event. */
	if (evlist->nr_entries == 1)
		return evlist__first(evlist);
	return NULL;
}

void evlist__set_maps(struct evlist *evlist, struct perf_cpu_map *cpus,
		      struct perf_thread_map *threads)
{
	if (cpus) {
		perf_cpu_map__get(cpus);
		perf_cpu_map__put(evlist->cpus);
		evlist->cpus = cpus;
	}
	if (threads) {
		perf_thread_map__get(threads);
		perf_thread_map__put(evlist->threads);
		evlist->threads = threads;
	}
}

int evlist__add_attrs(struct evlist *evlist, const struct perf_event_attr *attrs, int nr)
{
	struct evsel *evsels[nr > 0 ? nr : 1];
	int i;

	for (i = 0; i < nr; i++) {
		evsels[i] = evsel__new(&attrs[i]);
		if (!evsels[i]) {
			while (i--)
				evsel__delete(evsels[i]);
			return -ENOMEM;
		}
	}
	for (i = 0; i < nr; i++)
		evlist__add(evlist, evsels[i]);
	return 0;
}

void evlist__update_groups(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist->nr_groups = 0;
	evlist__for_each_entry(evlist, evsel)
		if (evsel__is_group_leader(evsel))
			evsel->nr_members = 0;
	evlist__for_each_entry(evlist, evsel) {
		evsel->leader->nr_members++;
		if (evsel__is_group_leader(evsel) && evsel != evlist__last(evlist) &&
		    list_entry(evsel->node.next, struct evsel, node)->leader == evsel)
			evlist->nr_groups++;
	}
}

int evlist__open(struct evlist *evlist, struct evsel **failed)
{
	struct evsel *evsel;
	int err;

	evlist__for_each_entry(evlist, evsel) {
		err = evsel__open(evsel, evlist->cpus, evlist->threads);
		if (err) {
			if (failed)
				*failed = evsel;
			return err;
		}
	}
	return 0;
}

void evlist__close(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		evsel__close(evsel);
}

void evlist__enable(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		evsel__ioctl(evsel, PERF_EVENT_IOC_ENABLE, 0);
}

void evlist__disable(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		evsel__ioctl(evsel, PERF_EVENT_IOC_DISABLE, 0);
}

bool evlist__own_cpus_only(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		if (!evsel->own_cpus && !evsel->tool_event)
			return false;
	return evlist->nr_entries > 0;
}
