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
	const char *metric_name, *metric_expr;	/* an event record's own metric */
	char *unit;		/* events/NAME.unit or the JSON ScaleUnit's unit
				   ("MiB", "Bytes"), or NULL */
	double scale;		/* events/NAME.scale or the ScaleUnit's number
				   (6.103515625e-5, 64): a count times it is in
				   unit; 0 when none */
	bool deprecated;	/* the record is marked Deprecated */
};

struct perf_pmu {
	char *name;
	uint32_t type;
	bool core;		/* a CPU core PMU: "cpu", or one with a cpus file */
	bool uncore;		/* not core, with a cpumask file (an uncore PMU:
				   uncore_imc_0, ...): counts system-wide on
				   the cpus the mask names */
	char *cpumask;		/* the cpumask file's text ("0", "0,18"), or NULL */
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
 * the CPU model pmu_events__model() names: $PERF_CPUID or this CPU's, and
 * an uncore PMU's: the model's events whose Unit names it, see
 * pmu__unit_match()).
 * Returns a new object (free with
 * pmu__delete()) or NULL with *errp = -ENOENT (no such PMU), -EINVAL (bad
 * type/format file) or -ENOMEM. */
struct perf_pmu *pmu__load(const char *name, int *errp);
void pmu__delete(struct perf_pmu *pmu);

/*
 * Whether the JSON events of Unit PMU `unit` ("uncore_imc", or a list of
 * tokens "hisi_sccl,ddrc") belong to PMU `name`, as perf 6.1 matches
 * them: each token in turn is found in name (after the one before), the
 * last one followed by nothing or by digits to the end, after an optional
 * "_" (uncore_imc_0, uncore_imc1; not uncore_imcx, uncore_imc_free_running_0).
 */
bool pmu__unit_match(const char *unit, const char *name);

/*
 * Whether `name` is an instance of the PMUs a user writes `abbrev` for,
 * as perf 6.1 takes a PMU name that is not one ("uncore_imc/.../" or
 * "imc/.../" for uncore_imc_0, uncore_imc_1, ...): name (without its
 * "uncore_" when abbrev has none) starts with abbrev, followed by nothing
 * or by digits after an optional "_", as pmu__unit_match().
 */
bool pmu__name_match(const char *abbrev, const char *name);

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
 * Every PMU, in sorted name order, that has an event alias `alias`
 * (pmu__find_alias()), or with by_name the PMUs pmu__name_match(alias, ..)
 * names. *pmusp gets a malloc'd array (free() it; the PMUs are owned by
 * the cache, as pmus__find()). Returns how many (0: *pmusp NULL) or
 * -ENOMEM.
 */
int pmus__find_all(const char *alias, bool by_name, struct perf_pmu ***pmusp);

/* Drop every cached PMU (and the directory scan); the next lookup rescans. */
void pmus__flush(void);

#endif
