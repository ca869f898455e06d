// SPDX-License-Identifier: GPL-2.0
/* evlist: the ordered evsels of a command or file; see evlist.h. */
#include <stdlib.h>
#include "evlist.h"
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
	free(evlist->pollfd);
	free(evlist);
}
