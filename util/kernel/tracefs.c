// SPDX-License-Identifier: GPL-2.0
/* tracefs discovery, mounting and tracepoint listing; see tracefs.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include "tracefs.h"
#include "evlist.h"
#include "evsel.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"
#define TRACEFS_DEBUGFS "/sys/kernel/debug/tracing"

static bool has_events(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", dir);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tracefs__mountpoint(int *errp)
{
	/* A cache of a system property, not command state. */
	static const char *found;
	int err = -ENOENT;

	if (found)
		return found;
	if (has_events(TRACEFS_DEFAULT)) {
		found = TRACEFS_DEFAULT;
		return found;
	}
	if (has_events(TRACEFS_DEBUGFS)) {
		found = TRACEFS_DEBUGFS;
		return found;
	}
	if (geteuid() == 0) {
		if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) == 0) {
			pr_debug("mounted tracefs on %s\n", TRACEFS_DEFAULT);
			if (has_events(TRACEFS_DEFAULT)) {
				found = TRACEFS_DEFAULT;
				return found;
			}
		} else {
			err = -errno;
			pr_debug("mounting tracefs on %s: %s\n", TRACEFS_DEFAULT, strerror(errno));
		}
	}
	if (errp)
		*errp = err;
	return NULL;
}

const char *tracefs__mount_hint(void)
{
	return "tracefs is not mounted; as root run: mount -t tracefs nodev " TRACEFS_DEFAULT;
}

int tracefs__event_path(const char *sys, const char *name, const char *file, char *buf, size_t size)
{
	int err = -ENOENT, n;
	const char *mnt = tracefs__mountpoint(&err);

	if (!mnt)
		return err;
	if (file)
		n = snprintf(buf, size, "%s/events/%s/%s/%s", mnt, sys, name, file);
	else
		n = snprintf(buf, size, "%s/events/%s/%s", mnt, sys, name);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int tracefs__event_id(const char *sys, const char *name, uint64_t *id)
{
	char path[PATH_MAX];
	unsigned long long v;
	int err;

	/* Names must not walk out of events/. */
	if (!*sys || !*name || strchr(sys, '/') || strchr(name, '/') ||
	    !strcmp(sys, "..") || !strcmp(name, ".."))
		return -ENOENT;
	err = tracefs__event_path(sys, name, "id", path, sizeof(path));
	if (err)
		return err;
	err = filename__read_ull(path, &v);
	if (err)
		return err;
	*id = v;
	return 0;
}

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

int tracefs__for_each_event(const char *sys_glob, const char *name_glob,
			    tracefs_event_cb cb, void *data)
{
	char dir[PATH_MAX];
	struct dirent **systems = NULL;
	int err = -ENOENT, nsys, ret = 0;
	const char *mnt = tracefs__mountpoint(&err);

	if (!mnt)
		return err;
	snprintf(dir, sizeof(dir), "%s/events", mnt);
	nsys = scandir(dir, &systems, only_dirs, alphasort);
	if (nsys < 0)
		return -errno;
	for (int i = 0; i < nsys; i++) {
		const char *sys = systems[i]->d_name;
		char sdir[PATH_MAX + 512];
		struct dirent **events = NULL;
		int nev;

		if (ret || (sys_glob && fnmatch(sys_glob, sys, 0)))
			continue;
		snprintf(sdir, sizeof(sdir), "%s/%s", dir, sys);
		nev = scandir(sdir, &events, only_dirs, alphasort);
		for (int j = 0; j < nev; j++) {
			const char *ev = events[j]->d_name;
			char idpath[PATH_MAX + 1024];

			if (!ret && (!name_glob || !fnmatch(name_glob, ev, 0))) {
				/* only real events have an id file */
				snprintf(idpath, sizeof(idpath), "%s/%s/id", sdir, ev);
				if (access(idpath, R_OK) == 0)
					ret = cb(sys, ev, data);
			}
			free(events[j]);
		}
		free(events);
	}
	for (int i = 0; i < nsys; i++)
		free(systems[i]);
	free(systems);
	return ret;
}

struct tp_id {
	uint64_t id;
	char *sys, *name;
};

struct tp_table {
	struct tp_id *v;
	size_t n, alloc;
};

static int tp_table__add(const char *sys, const char *name, void *data)
{
	struct tp_table *t = data;
	uint64_t id;

	if (tracefs__event_id(sys, name, &id))
		return 0;
	if (t->n == t->alloc) {
		size_t na = t->alloc ? t->alloc * 2 : 1024;
		struct tp_id *nv = realloc(t->v, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->alloc = na;
	}
	t->v[t->n].id = id;
	t->v[t->n].sys = strdup(sys);
	t->v[t->n].name = strdup(name);
	if (!t->v[t->n].sys || !t->v[t->n].name)
		return -ENOMEM;
	t->n++;
	return 0;
}

int tracefs__id_to_name(uint64_t id, char *sys, size_t sys_size, char *name, size_t name_size)
{
	/* Cache of the id table, built on first use (reading ~2000 id files). */
	static struct tp_table table;
	static bool loaded;

	if (!loaded) {
		loaded = true;
		tracefs__for_each_event(NULL, NULL, tp_table__add, &table);
	}
	for (size_t i = 0; i < table.n; i++) {
		if (table.v[i].id == id) {
			snprintf(sys, sys_size, "%s", table.v[i].sys);
			snprintf(name, name_size, "%s", table.v[i].name);
			return 0;
		}
	}
	return -ENOENT;
}

int tracefs__apply_filters(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		int nr = evsel->nr_cpus * evsel->nr_threads;

		if (!evsel->filter || !evsel->fds)
			continue;
		for (int i = 0; i < nr; i++) {
			int err;

			if (evsel->fds[i] < 0)
				continue;
			if (!ioctl(evsel->fds[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter))
				continue;
			err = errno;
			pr_err("failed to set filter \"%s\" on event %s with %d (%s)\n",
			       evsel->filter, evsel__name(evsel), err, strerror(err));
			return -err;
		}
	}
	return 0;
}

static int probe_events_path(bool uprobe, char *buf, size_t size)
{
	int err = 0;
	const char *mnt = tracefs__mountpoint(&err);

	if (!mnt)	/* not mounted, or not readable by this user */
		return geteuid() ? -EACCES : err ? err : -ENOENT;
	if ((size_t)snprintf(buf, size, "%s/%s", mnt, uprobe ? "uprobe_events" : "kprobe_events") >= size)
		return -ENAMETOOLONG;
	return 0;
}

int tracefs__probe_events_read(bool uprobe, char **bufp)
{
	char path[PATH_MAX];
	size_t size;
	int err = probe_events_path(uprobe, path, sizeof(path));

	*bufp = NULL;
	return err ? err : filename__read_str(path, bufp, &size);
}

int tracefs__probe_events_write(bool uprobe, const char *line)
{
	char path[PATH_MAX];
	size_t len = strlen(line);
	ssize_t n;
	int fd, err = probe_events_path(uprobe, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	close(fd);
	return err;
}
