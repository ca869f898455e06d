/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_CGROUP_H
#define PRF_KERNEL_CGROUP_H
/*
 * Counting per cgroup (perf_event_open(2) PERF_FLAG_PID_CGROUP: pid is an
 * fd of the cgroup's directory, the event counts only while a task of that
 * cgroup runs on the cpu; cpu-wide only). The cgroup hierarchy is the one
 * with the perf_event controller (cgroup v1) or else the cgroup v2 mount,
 * found in /proc/self/mounts; a cgroup is named by its path below it
 * ("/" for the root), as perf's -G takes it.
 *
 * stat -G NAME[,NAME..] (cgroup__parse_list: the Nth cgroup named on the
 * command line to the Nth event, one cgroup alone to every event defined
 * so far, an empty name to none) and --for-each-cgroup (every event once
 * per cgroup, evlist__expand_cgroups), as perf 6.1.
 */
#include <stddef.h>

struct evlist;

struct cgroup {
	int refcnt;
	int fd;			/* O_RDONLY|O_DIRECTORY of the cgroup's directory */
	char *name;		/* as given: printed in the cgroup column */
};

/*
 * The cgroup name, opened. NULL with errno set (ENOENT: no cgroup
 * hierarchy mounted or no such cgroup, EACCES...); path gets the directory
 * tried (or "" when no hierarchy was found). Put it with cgroup__put().
 */
struct cgroup *cgroup__new(const char *name, char *path, size_t size);
struct cgroup *cgroup__get(struct cgroup *cg);
void cgroup__put(struct cgroup *cg);

/*
 * -G LIST: attach cgroups to the events of evlist in order, continuing
 * after those a previous -G attached (*nr_given counts the names given so
 * far, empty ones too). 0, or -1 after one line naming the problem: no
 * events yet, more cgroups than events, a cgroup that cannot be opened.
 */
int cgroup__parse_list(struct evlist *evlist, const char *list, int *nr_given);

/*
 * --for-each-cgroup LIST: replace the events by one copy of all of them
 * (groups kept) per cgroup of LIST, cgroup by cgroup. 0, or -1 after one
 * line naming the problem (an empty list or name, a cgroup that cannot be
 * opened, no memory).
 */
int evlist__expand_cgroups(struct evlist *evlist, const char *list);

/* Does any event of evlist count in a cgroup? */
int evlist__has_cgroups(struct evlist *evlist);

#endif
