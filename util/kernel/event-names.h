/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_EVENT_NAMES_H
#define PRF_KERNEL_EVENT_NAMES_H
/*
 * Symbolic event tables (the names perf accepts for -e and prints in
 * `perf list`) and attr -> name derivation. Values follow
 * perf_event_open(2): PERF_COUNT_HW_*, PERF_COUNT_SW_*, and the
 * PERF_TYPE_HW_CACHE config layout (id | op << 8 | result << 16).
 */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One symbolic hardware or software event: canonical name, optional
 * alias ("cs" for "context-switches"), and its attr type/config. */
struct event_symbol {
	const char *symbol;
	const char *alias;	/* NULL or "" when none */
	uint32_t type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
};

/* Tables of the symbolic events, NULL-symbol terminated, in config order. */
extern const struct event_symbol event_symbols_hw[];
extern const struct event_symbol event_symbols_sw[];

/*
 * perf's tool events (its "tool" PMU): duration_time (the run's wall-clock
 * time), user_time and system_time (the workload's rusage CPU times), all
 * in ns. The kernel does not count them: an evsel of one opens a
 * PERF_COUNT_SW_DUMMY counter (which a group read reports as 0) and
 * `prf stat` fills in the value. event_symbols_tool[id - 1] names tool
 * event id (type/config: the dummy counter).
 */
enum tool_event {
	TOOL_EVENT_NONE,
	TOOL_EVENT_DURATION_TIME,
	TOOL_EVENT_USER_TIME,
	TOOL_EVENT_SYSTEM_TIME,
};
extern const struct event_symbol event_symbols_tool[];
/* The tool event named name, TOOL_EVENT_NONE when it is none. */
enum tool_event tool_event__find(const char *name);

/* Find a hardware or software symbol by its name or alias (exact,
 * case-sensitive like perf). NULL when unknown. */
const struct event_symbol *event_symbol__find(const char *name);

/*
 * Generic cache events. Names per cache id (PERF_COUNT_HW_CACHE_*), op
 * (PERF_COUNT_HW_CACHE_OP_*) and result (PERF_COUNT_HW_CACHE_RESULT_*):
 * entry [0] is the canonical spelling, the rest are accepted aliases;
 * each list is NULL-terminated.
 */
#define HW_CACHE_MAX_ALIASES 8
extern const char *const hw_cache_names[PERF_COUNT_HW_CACHE_MAX][HW_CACHE_MAX_ALIASES];
extern const char *const hw_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][HW_CACHE_MAX_ALIASES];
extern const char *const hw_cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][HW_CACHE_MAX_ALIASES];
/* Whether perf accepts op for cache id (e.g. L1-icache has no store). */
bool hw_cache__op_valid(unsigned int cache_id, unsigned int op);
/* Canonical name of a cache event: "L1-dcache-load-misses" for a miss,
 * "L1-dcache-loads" (plural op) for an access. Returns the length written
 * (snprintf semantics). */
int hw_cache__snprintf_name(unsigned int cache_id, unsigned int op, unsigned int result,
			    char *buf, size_t size);

/*
 * Modifier suffix perf derives from an attr's exclude_* and precise_ip
 * bits (":u", ":k", ":ppp", ":H", ...), "" when none. Returns the length.
 */
int perf_event_attr__snprintf_modifiers(const struct perf_event_attr *attr, char *buf, size_t size);

/*
 * Name perf derives from an attr alone: "cycles", "cpu-clock:u",
 * "L1-dcache-load-misses", "raw 0x1a8", "sched:sched_switch" (tracepoint
 * id looked up in tracefs; "unknown tracepoint" when not found),
 * "mem:0x...:rw" for breakpoints, "unknown attr type: N" otherwise.
 * Used by evsel__name() and the perf.data reader for files without event
 * names. Returns the length (snprintf semantics).
 */
int perf_event_attr__snprintf_name(const struct perf_event_attr *attr, char *buf, size_t size);

#endif
