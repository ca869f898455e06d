/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_PMU_H
#define PRF_KERNEL_PMU_H
/*
 * PMUs as the kernel describes them in sysfs
 * (Documentation/ABI/testing/sysfs-bus-event_source-devices-*):
 * /sys/bus/event_source/devices/<pmu>/type is the attr.type,
 * format/<term> holds a bit layout such as "config:0-7,32-35" or
 * "config1:0-63", events/<alias> holds terms such as "event=0x3c,umask=1".
 */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include "../lib/list.h"

#define PMU_FORMAT_MAX_RANGES 8

/* One format term: which config word and which bits. */
struct pmu_format {
	struct list_head node;
	char *name;
	int config;			/* 0 = config, 1 = config1, 2 = config2 */
	int nr_ranges;
	struct { int lo, hi; } ranges[PMU_FORMAT_MAX_RANGES];	/* inclusive, lsb first */
};

/* One event alias from events/, or from the CPU model's JSON events
 * (pmu-events.h) on a core PMU: name and its term string. */
struct pmu_alias {
	struct list_head node;
	char *name;
	char *terms;
	bool json;		/* from the JSON events, not from events/ */
	/* the JSON record's texts (also on an events/ alias it overrides),
	 * pointing into the static tables, or NULL */
	const char *desc, *long_desc, *topic;
	bool deprecated;	/* the record is marked Deprecated */
};

struct perf_pmu {
	char *name;
	uint32_t type;
	bool core;		/* a CPU core PMU: "cpu", or one with a cpus file */
	struct list_head formats;	/* struct pmu_format */
	struct list_head aliases;	/* struct pmu_alias: events/ sorted by name,
					   then the JSON events in table order */
};

/*
 * Use another directory instead of /sys/bus/event_source/devices (tests use
 * a fake tree). NULL restores the default. The string is not copied.
 * Flushes the PMU cache (pmus__flush()).
 */
void pmu__set_sysfs_root(const char *dir);
const char *pmu__sysfs_root(void);

/* Load PMU `name` from sysfs (with a core PMU's JSON event aliases for
 * the CPU model pmu_events__model() names: $PERF_CPUID or this CPU's).
 * Returns a new object (free with
 * pmu__delete()) or NULL with *errp = -ENOENT (no such PMU), -EINVAL (bad
 * type/format file) or -ENOMEM. */
struct perf_pmu *pmu__load(const char *name, int *errp);
void pmu__delete(struct perf_pmu *pmu);

struct pmu_format *pmu__find_format(struct perf_pmu *pmu, const char *name);
struct pmu_alias *pmu__find_alias(struct perf_pmu *pmu, const char *name);

/*
 * Put value into attr's config word at the format's bits (bits not covered
 * are left alone). -ERANGE when value does not fit in the format's width.
 */
int pmu_format__apply(const struct pmu_format *fmt, uint64_t value, struct perf_event_attr *attr);

/*
 * Names of all PMUs in sysfs, sorted; NULL-terminated malloc'd array of
 * malloc'd strings (free with pmu__free_names()), or NULL when the
 * directory can't be read.
 */
char **pmu__names(void);
void pmu__free_names(char **names);

/*
 * The process-wide PMU cache, used by the event parser: the sysfs PMU
 * directory is scanned once per process (the first time a PMU is looked
 * up), and each PMU's type, format/ and events/ files are read once, the
 * first time that PMU is needed; later lookups never touch sysfs. PMUs
 * that appear after the scan (a module loaded later) are not seen until
 * pmus__flush(). pmu__set_sysfs_root() flushes the cache. Lookups are
 * serialized by a mutex; the PMU objects are not changed after loading.
 */

/*
 * The PMU called `name`, loaded from sysfs on first use (same rules and
 * errors as pmu__load()). The object is owned by the cache: do not
 * pmu__delete() it; it stays valid until pmus__flush() or
 * pmu__set_sysfs_root(). NULL with *errp = -ENOENT (no such PMU),
 * -EINVAL (bad type/format file) or -ENOMEM (not cached: retried next
 * time).
 */
struct perf_pmu *pmus__find(const char *name, int *errp);

/*
 * The first PMU, in sorted name order (as pmu__names()), that has an event
 * alias `alias` in events/ (matched case-insensitively, as
 * pmu__find_alias()). Owned by the cache, as pmus__find(); NULL when no
 * PMU has it.
 */
struct perf_pmu *pmus__find_by_alias(const char *alias);

/* Drop every cached PMU (and the directory scan); the next lookup rescans. */
void pmus__flush(void);

#endif
