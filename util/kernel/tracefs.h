/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_TRACEFS_H
#define PRF_KERNEL_TRACEFS_H
/*
 * tracefs: where the kernel's tracepoints are described
 * (Documentation/trace/events.rst): events/<system>/<event>/{id,format}.
 * Looked up at /sys/kernel/tracing, then /sys/kernel/debug/tracing; when
 * neither is mounted and we are root, tracefs is mounted on
 * /sys/kernel/tracing (mount(2), source "nodev", type "tracefs").
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Directory of the mounted tracefs (static storage, never freed), or NULL
 * when it is not mounted and could not be mounted; then *errp (if not
 * NULL) gets -ENOENT or the mount error. The result is cached.
 */
const char *tracefs__mountpoint(int *errp);

/* One line telling the user how to make tracefs available (for errors). */
const char *tracefs__mount_hint(void);

/*
 * Path of `file` ("id", "format", "filter"; NULL for the event directory)
 * of event sys:name into buf. 0, -ENAMETOOLONG, or the mountpoint error.
 * The file is not checked for existence.
 */
int tracefs__event_path(const char *sys, const char *name, const char *file, char *buf, size_t size);

/* Tracepoint id (the attr.config for PERF_TYPE_TRACEPOINT) of sys:name,
 * read from events/sys/name/id. 0 or -errno (-ENOENT: no such event). */
int tracefs__event_id(const char *sys, const char *name, uint64_t *id);

/*
 * Call cb for every event whose system matches sys_glob and whose name
 * matches name_glob (fnmatch globs; NULL matches everything), systems and
 * events in alphabetical order. Stops when cb returns non-zero and
 * returns that value; returns 0 after all, or a mountpoint error.
 */
typedef int (*tracefs_event_cb)(const char *sys, const char *name, void *data);
int tracefs__for_each_event(const char *sys_glob, const char *name_glob,
			    tracefs_event_cb cb, void *data);

/* Reverse lookup of a tracepoint id to its system and name (scans tracefs
 * once and caches the table). 0 or -ENOENT. */
int tracefs__id_to_name(uint64_t id, char *sys, size_t sys_size, char *name, size_t name_size);

/*
 * Dynamic probe definitions (Documentation/trace/kprobetrace.rst and
 * uprobetracer.rst): the file kprobe_events (uprobe false) or
 * uprobe_events (uprobe true) of the mounted tracefs.
 *
 * tracefs__probe_events_read() reads the whole file into *buf (malloc'd,
 * NUL-terminated, the caller frees): one definition a line. 0 or -errno
 * (-ENOENT: the kernel has no such probes, or tracefs is not mounted).
 *
 * tracefs__probe_events_write() appends one command line (a definition
 * "p:GROUP/EVENT ..." or a removal "-:GROUP/EVENT") with O_APPEND, as the
 * kernel wants so that existing probes stay. 0 or -errno: -EACCES/-EPERM
 * (not root), -EINVAL (the kernel refused the definition), -EEXIST,
 * -EBUSY (the event is in use).
 */
int tracefs__probe_events_read(bool uprobe, char **buf);
int tracefs__probe_events_write(bool uprobe, const char *line);

struct evlist;

/*
 * Set every tracepoint filter (evsel->filter, from --filter) on every open
 * fd of its evsel with ioctl(PERF_EVENT_IOC_SET_FILTER) (perf_event_open(2)).
 * Call after opening, before enabling. On the first failure prints perf's
 * message 'failed to set filter "F" on event E with N (strerror)' and
 * returns -errno (-EINVAL for a filter the kernel rejects).
 */
int tracefs__apply_filters(struct evlist *evlist);

#endif
