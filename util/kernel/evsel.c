// SPDX-License-Identifier: GPL-2.0
/* evsel: one perf_event_attr and its fds; see evsel.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "evsel.h"
#include "../lib/util.h"

struct evsel *evsel__new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = zalloc(sizeof(*evsel));

	if (!evsel)
		return NULL;
	if (attr)
		evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->leader = evsel;
	evsel->nr_members = 1;
	INIT_LIST_HEAD(&evsel->node);
	return evsel;
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	free(evsel->name);
	free(evsel->filter);
	free(evsel->pmu_name);
	free(evsel->tp_sys);
	free(evsel->tp_name);
	free(evsel->fds);
	free(evsel->ids);
	free(evsel);
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = n;
	return 0;
}
