// SPDX-License-Identifier: GPL-2.0
/* thread maps; see thread_map.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "thread_map.h"
#include "../lib/util.h"

static struct perf_thread_map *thread_map__alloc(int nr)
{
	struct perf_thread_map *m;

	m = zalloc(sizeof(*m) + sizeof(struct thread_map_entry) * (nr ? nr : 1));
	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->refcnt = 1;
	m->nr = nr;
	return m;
}

/* Append tid, growing the map; returns the (maybe moved) map or NULL. */
static struct perf_thread_map *thread_map__append(struct perf_thread_map *m, pid_t tid)
{
	struct perf_thread_map *n;
	int i, nr = m ? m->nr : 0;

	for (i = 0; i < nr; i++)
		if (m->map[i].pid == tid)
			return m;
	n = realloc(m, sizeof(*n) + sizeof(struct thread_map_entry) * (nr + 1));
	if (!n) {
		perf_thread_map__put(m);
		errno = ENOMEM;
		return NULL;
	}
	if (!m) {
		n->refcnt = 1;
		n->nr = 0;
	}
	n->map[nr].pid = tid;
	n->map[nr].comm = NULL;
	n->nr = nr + 1;
	return n;
}

static char *read_comm(pid_t tid)
{
	char path[64], *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	if (filename__read_str(path, &buf, &len))
		return NULL;
	while (len && (buf[len - 1] == '\n'))
		buf[--len] = '\0';
	return buf;
}

/* Parse "1,2,3" calling add(tid) for each; -EINVAL or add's error. */
static struct perf_thread_map *thread_map__parse(const char *list, bool all_tasks)
{
	struct perf_thread_map *m = NULL;
	const char *p = list;

	if (!list) {
		errno = EINVAL;
		return NULL;
	}
	while (*p) {
		char *end, path[64];
		long pid;

		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			goto out_inval;
		pid = strtol(p, &end, 10);
		p = end;
		if (*p && *p != ',' && !isspace((unsigned char)*p))
			goto out_inval;
		if (pid <= 0)
			goto out_inval;
		if (all_tasks) {
			struct dirent *de;
			DIR *dir;

			snprintf(path, sizeof(path), "/proc/%ld/task", pid);
			dir = opendir(path);
			if (!dir)
				goto out_srch;
			while ((de = readdir(dir))) {
				if (!isdigit((unsigned char)de->d_name[0]))
					continue;
				m = thread_map__append(m, atoi(de->d_name));
				if (!m) {
					closedir(dir);
					return NULL;
				}
			}
			closedir(dir);
		} else {
			snprintf(path, sizeof(path), "/proc/%ld", pid);
			if (access(path, F_OK))
				goto out_srch;
			m = thread_map__append(m, pid);
			if (!m)
				return NULL;
		}
	}
	if (!m)
		goto out_inval;
	return m;
out_srch:
	perf_thread_map__put(m);
	errno = ESRCH;
	return NULL;
out_inval:
	perf_thread_map__put(m);
	errno = EINVAL;
	return NULL;
}

struct perf_thread_map *thread_map__new_by_pid_str(const char *pid_list)
{
	return thread_map__parse(pid_list, true);
}

struct perf_thread_map *thread_map__new_by_tid_str(const char *tid_list)
{
	return thread_map__parse(tid_list, false);
}

struct perf_thread_map *thread_map__new_all(void)
{
	struct perf_thread_map *m = NULL;
	DIR *proc = opendir("/proc");
	struct dirent *de;

	if (!proc)
		return NULL;
	while ((de = readdir(proc))) {
		char path[sizeof("/proc//task") + sizeof(de->d_name)];
		struct dirent *te;
		DIR *task;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", de->d_name);
		task = opendir(path);
		if (!task)
			continue;	/* exited meanwhile */
		while ((te = readdir(task))) {
			if (!isdigit((unsigned char)te->d_name[0]))
				continue;
			m = thread_map__append(m, atoi(te->d_name));
			if (!m)
				break;
		}
		closedir(task);
		if (!m)
			break;
	}
	closedir(proc);
	if (!m && !errno)
		errno = ENOENT;
	return m;
}

struct perf_thread_map *thread_map__new_by_tid(pid_t tid)
{
	struct perf_thread_map *m = thread_map__alloc(1);

	if (m)
		m->map[0].pid = tid;
	return m;
}

struct perf_thread_map *perf_thread_map__new_dummy(void)
{
	return thread_map__new_by_tid(-1);
}

struct perf_thread_map *perf_thread_map__get(struct perf_thread_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void perf_thread_map__put(struct perf_thread_map *map)
{
	int i;

	if (!map || --map->refcnt > 0)
		return;
	for (i = 0; i < map->nr; i++)
		free(map->map[i].comm);
	free(map);
}

int perf_thread_map__nr(const struct perf_thread_map *map)
{
	return map ? map->nr : 0;
}

pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->map[idx].pid;
}

const char *perf_thread_map__comm(struct perf_thread_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr || map->map[idx].pid < 0)
		return "";
	if (!map->map[idx].comm)
		map->map[idx].comm = read_comm(map->map[idx].pid);
	return map->map[idx].comm ? map->map[idx].comm : "";
}

void thread_map__read_comms(struct perf_thread_map *map)
{
	int i;

	for (i = 0; map && i < map->nr; i++) {
		char *c;

		if (map->map[i].pid < 0)
			continue;
		c = read_comm(map->map[i].pid);
		if (c) {
			free(map->map[i].comm);
			map->map[i].comm = c;
		}
	}
}
