/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_PMU_EVENTS_H
#define PRF_KERNEL_PMU_EVENTS_H
/*
 * The kernel's PMU event and metric tables (tools/perf/pmu-events/arch/
 * ARCH/MODEL/ *.json, ARCH/mapfile.csv in the kernel tree), compiled into
 * prf by scripts/pmu-events-gen.py when the build found the kernel source
 * (Makefile: PMU_EVENTS). Without them pmu_events__available() is false
 * and every lookup finds nothing.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Field order of a generated record (offsets into the string pool). */
enum pmu_events_field {
	PE_NAME, PE_PMU, PE_TOPIC, PE_DESC, PE_LONG_DESC, PE_EVENT, PE_METRIC_NAME,
	PE_METRIC_GROUP, PE_METRIC_EXPR, PE_METRIC_CONSTRAINT, PE_UNIT, PE_COMPAT,
	PE_PERPKG, PE_DEPRECATED, PE_AGGR_MODE, PE__NR
};

/* Generated data (scripts/pmu-events-gen.py); offset 0 means absent. */
struct pmu_events_rec {
	uint32_t off[PE__NR];
};

struct pmu_events_model {
	const char *arch;		/* "x86" */
	const char *cpuid;		/* mapfile regex, "AuthenticAMD-25-[[:xdigit:]]+" */
	const char *dir;		/* "amdzen3" */
	const struct pmu_events_rec *recs;
	size_t nr;
};

struct pmu_events_data {
	const char *pool;
	const struct pmu_events_model *models;	/* ends with arch == NULL */
};

/* One event or metric, its fields as C strings or NULL (pointing into the
 * static tables: never freed). */
struct pmu_event {
	const char *name;		/* lower-case event name */
	const char *pmu;		/* kernel PMU of a Unit, NULL for the core PMU */
	const char *topic;		/* "cache", "metrics", ... */
	const char *desc;
	const char *long_desc;
	const char *event;		/* "event=0x29,umask=0x07" */
	const char *metric_name;
	const char *metric_group;	/* ";"-separated group names */
	const char *metric_expr;
	const char *metric_constraint;
	const char *unit;		/* ScaleUnit, "100%", "1ns" */
	const char *compat;
	const char *perpkg;
	const char *deprecated;
	const char *aggr_mode;
};

/* Whether prf was built with the tables (false: no kernel source). */
bool pmu_events__available(void);

/* Where the tables came from, "linux-source-6.1 (x86)", or NULL. */
const char *pmu_events__origin(void);

/*
 * The CPU identifier perf 6.1 matches mapfile.csv with: $PERF_CPUID when
 * set, else on x86 "Vendor-Family-MODEL-STEPPING" from cpuid (family
 * decimal, model and stepping upper-case hex), on arm64 cpu0's MIDR as
 * "0x%016lx". Returns a new string (free()) or NULL when unknown.
 */
char *pmu_events__cpuid(void);

/*
 * Whether mapfile regex `re` names `cpuid`: an extended regex that must
 * match the whole identifier (on x86 a regex of three fields ignores the
 * stepping). 0 = match, as perf's strcmp_cpuid_str().
 */
int pmu_events__cpuid_cmp(const char *re, const char *cpuid);

/* The model whose mapfile row matches this machine's identifier, or NULL
 * (no tables, unknown CPU). Looked up at each call, as perf does (an
 * identifier without the stepping is reported at each full-regex row). */
const struct pmu_events_model *pmu_events__model(void);

/* Calls fn for each record of `m` (NULL: none) in the table's order;
 * stops at and returns fn's first non-zero value. */
int pmu_events__for_each(const struct pmu_events_model *m,
			 int (*fn)(const struct pmu_event *pe, void *data), void *data);

#endif
