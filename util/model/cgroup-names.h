/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_CGROUP_NAMES_H
#define PRF_MODEL_CGROUP_NAMES_H

#include <stddef.h>
#include <stdint.h>

union perf_event;

/*
 * Cgroup paths by id, from PERF_RECORD_CGROUP records (u64 id, then the
 * NUL-terminated path below the cgroup root, as perf record
 * --all-cgroups writes them). Zero-initialise; the first path given for
 * an id is kept, as perf keeps it.
 */
struct cgroup_names {
	struct cgroup_name { uint64_t id; char *path; } *v;
	size_t nr, alloc;
};

/* Remember the id and path of a PERF_RECORD_CGROUP event. Returns 0,
 * -EINVAL for a record too short or without a NUL in it, -ENOMEM. */
int cgroup_names__add_event(struct cgroup_names *cn, const union perf_event *event);

/* The path of cgroup id, NULL when no record named it; owned by cn. */
const char *cgroup_names__find(const struct cgroup_names *cn, uint64_t id);

/* Free the paths and the table (cn is zeroed). */
void cgroup_names__exit(struct cgroup_names *cn);

#endif
