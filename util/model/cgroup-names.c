// SPDX-License-Identifier: GPL-2.0
#include "cgroup-names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../format/event.h"

int cgroup_names__add_event(struct cgroup_names *cn, const union perf_event *event)
{
	const char *rec = (const char *)event, *path = rec + sizeof(event->header) + 8;
	size_t size = event->header.size;
	uint64_t id;

	if (size <= sizeof(event->header) + 8 ||
	    !memchr(path, '\0', size - sizeof(event->header) - 8))
		return -EINVAL;
	memcpy(&id, rec + sizeof(event->header), 8);
	if (cgroup_names__find(cn, id))
		return 0;
	if (cn->nr == cn->alloc) {
		size_t n = cn->alloc ? 2 * cn->alloc : 16;
		struct cgroup_name *v = realloc(cn->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		cn->v = v;
		cn->alloc = n;
	}
	cn->v[cn->nr].path = strdup(path);
	if (!cn->v[cn->nr].path)
		return -ENOMEM;
	cn->v[cn->nr++].id = id;
	return 0;
}

const char *cgroup_names__find(const struct cgroup_names *cn, uint64_t id)
{
	for (size_t i = 0; i < cn->nr; i++)
		if (cn->v[i].id == id)
			return cn->v[i].path;
	return NULL;
}

void cgroup_names__exit(struct cgroup_names *cn)
{
	for (size_t i = 0; i < cn->nr; i++)
		free(cn->v[i].path);
	free(cn->v);
	memset(cn, 0, sizeof(*cn));
}
