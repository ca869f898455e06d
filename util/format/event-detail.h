/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_EVENT_DETAIL_H
#define PRF_FORMAT_EVENT_DETAIL_H
#include <stddef.h>
#include "event.h"

/*
 * The text perf 6.1 prints after a side-band record's "PERF_RECORD_NAME"
 * in `perf report -D` and in `perf script --show-*-events`, newline
 * included: MMAP, MMAP2 (build-id or device/inode form), COMM, FORK, EXIT,
 * SWITCH, SWITCH_CPU_WIDE, NAMESPACES and CGROUP (record layouts of
 * perf_event_open(2), "MMAP" .. "CGROUP"; strings bounded by the record's
 * size). Written NUL-terminated to buf[0..size) like snprintf, which
 * 2 * PATH_MAX bytes always hold; returns the length of the whole text, or
 * -1 for a record of another type (nothing written).
 */
int perf_event__detail(char *buf, size_t size, const union perf_event *event);

#endif
