// SPDX-License-Identifier: GPL-2.0
/* Events counted per cgroup; see cgroup.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "cpumap.h"
#include "evlist.h"
#include "../lib/debug.h"
#include "../lib/util.h"

/*
 * The mount point of the hierarchy perf counts in: a cgroup v1 mount with
 * the perf_event controller, else the cgroup2 mount. 0 or -ENOENT.
 */
static int cgroup__mountpoint(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[4096], v2[4096] = "";
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		char dev[256], dir[4096], type[64], opts[1024];

		if (sscanf(line, "%255s %4095s %63s %1023s", dev, dir, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup")) {
			/* the controller is one of the comma-separated options */
			char *o, *save = NULL;

			for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
				if (!strcmp(o, "perf_event"))
					break;
			if (o) {
				snprintf(buf, size, "%s", dir);
				found = 1;
			}
		} else if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", dir);
		}
	}
	fclose(f);
	if (!found && v2[0]) {
		snprintf(buf, size, "%s", v2);
		found = 1;
	}
	return found ? 0 : -ENOENT;
}

struct cgroup *cgroup__new(const char *name, char *path, size_t size)
{
	char mnt[4096];
	struct cgroup *cg;
	int err = cgroup__mountpoint(mnt, sizeof(mnt));

	path[0] = '\0';
	if (err) {
		errno = -err;
		return NULL;
	}
	snprintf(path, size, "%s%s%s", mnt, name[0] == '/' ? "" : "/", name);
	cg = zalloc(sizeof(*cg));
	if (!cg)
		return NULL;
	cg->name = strdup(name);
	cg->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!cg->name || cg->fd < 0) {
		err = errno;
		if (cg->fd >= 0)
			close(cg->fd);
		free(cg->name);
		free(cg);
		errno = err;
		return NULL;
	}
	cg->refcnt = 1;
	return cg;
}

struct cgroup *cgroup__get(struct cgroup *cg)
{
	if (cg)
		cg->refcnt++;
	return cg;
}

void cgroup__put(struct cgroup *cg)
{
	if (!cg || --cg->refcnt > 0)
		return;
	close(cg->fd);
	free(cg->name);
	free(cg);
}

/* Open name or say why not (one line). */
static struct cgroup *cgroup__open_or_say(const char *name)
{
	char path[4200];
	struct cgroup *cg = cgroup__new(name, path, sizeof(path));

	if (!cg && !path[0])
		pr_err("no cgroup hierarchy mounted (cgroup v2 or v1 with perf_event) for cgroup '%s'\n",
		       name);
	else if (!cg)
		pr_err("no access to cgroup %s: %s\n", path, strerror(errno));
	return cg;
}

int cgroup__parse_list(struct evlist *evlist, const char *list, int *nr_given)
{
	const char *s = list;
	struct evsel *evsel;

	if (!evlist->nr_entries) {
		pr_err("must define events before cgroups (-G '%s')\n", list);
		return -1;
	}
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		if (len) {	/* an empty name leaves its event without a cgroup */
			char *name = strndup(s, len);
			struct cgroup *cg;
			int n = 0;

			if (!name)
				return -1;
			evlist__for_each_entry(evlist, evsel)
				if (n++ == *nr_given)
					break;
			if (n <= *nr_given || &evsel->node == &evlist->entries) {
				pr_err("too many cgroups in -G '%s': '%s' has no event defined before it\n",
				       list, name);
				free(name);
				return -1;
			}
			cg = cgroup__open_or_say(name);
			free(name);
			if (!cg)
				return -1;
			cgroup__put(evsel->cgrp);
			evsel->cgrp = cg;
		}
		(*nr_given)++;
		if (!comma)
			break;
		s = comma + 1;
	}
	/* one cgroup alone: every event defined so far counts in it */
	if (*nr_given == 1) {
		struct cgroup *cg = evlist__first(evlist)->cgrp;

		evlist__for_each_entry(evlist, evsel) {
			if (evsel->cgrp != cg) {
				cgroup__put(evsel->cgrp);
				evsel->cgrp = cgroup__get(cg);
			}
		}
	}
	return 0;
}

/* A copy of evsel's event (attr, names, tool event, filter) without open state. */
static struct evsel *evsel__clone(const struct evsel *evsel)
{
	struct evsel *c = evsel__new(&evsel->attr);

	if (!c)
		return NULL;
	c->exclude_GH = evsel->exclude_GH;
	c->precise_max = evsel->precise_max;
	c->weak_group = evsel->weak_group;
	c->sample_read = evsel->sample_read;
	c->tracking = evsel->tracking;
	c->tool_event = evsel->tool_event;
	c->own_cpus = perf_cpu_map__get(evsel->own_cpus);
	c->merge_group = evsel->merge_group;
	c->uniquify = evsel->uniquify;
	c->scale = evsel->scale;
	if ((evsel->name && !(c->name = strdup(evsel->name))) ||
	    (evsel->filter && !(c->filter = strdup(evsel->filter))) ||
	    (evsel->pmu_name && !(c->pmu_name = strdup(evsel->pmu_name))) ||
	    (evsel->unit && !(c->unit = strdup(evsel->unit))) ||
	    (evsel->tp_sys && !(c->tp_sys = strdup(evsel->tp_sys))) ||
	    (evsel->tp_name && !(c->tp_name = strdup(evsel->tp_name)))) {
		evsel__delete(c);
		return NULL;
	}
	return c;
}

int evlist__expand_cgroups(struct evlist *evlist, const char *list)
{
	struct list_head orig;
	struct evsel *evsel, *n;
	int nr = evlist->nr_entries, ret = -1;
	struct evsel **copies = calloc((size_t)(nr ? nr : 1), sizeof(*copies));
	const char *s = list;

	if (!copies)
		return -1;
	if (!*list) {
		pr_err("--for-each-cgroup needs a list of cgroups\n");
		free(copies);
		return -1;
	}
	/* the events move aside; the evlist gets their copies */
	INIT_LIST_HEAD(&orig);
	list_for_each_entry_safe(evsel, n, &evlist->entries, node) {
		list_del_init(&evsel->node);
		list_add_tail(&evsel->node, &orig);
	}
	evlist->nr_entries = 0;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		char *name = strndup(s, len);
		struct cgroup *cg;
		int i = 0;

		if (!name)
			goto out;
		if (!len) {
			pr_err("empty cgroup name in --for-each-cgroup '%s'\n", list);
			free(name);
			goto out;
		}
		cg = cgroup__open_or_say(name);
		free(name);
		if (!cg)
			goto out;
		list_for_each_entry(evsel, &orig, node) {
			struct evsel *c = evsel__clone(evsel);

			if (!c) {
				cgroup__put(cg);
				goto out;
			}
			c->cgrp = cgroup__get(cg);
			evsel->idx = i;		/* the leaders' copies by position */
			copies[i++] = c;
			c->leader = evsel->leader == evsel ? c : copies[evsel->leader->idx];
			evlist__add(evlist, c);
		}
		cgroup__put(cg);
		if (!comma)
			break;
		s = comma + 1;
	}
	evlist__update_groups(evlist);
	ret = 0;
out:
	list_for_each_entry_safe(evsel, n, &orig, node) {
		list_del_init(&evsel->node);
		evsel__delete(evsel);
	}
	free(copies);
	return ret;
}

int evlist__has_cgroups(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		if (evsel->cgrp)
			return 1;
	return 0;
}
