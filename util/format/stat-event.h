/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_STAT_EVENT_H
#define PRF_FORMAT_STAT_EVENT_H
/*
 * The user records of `stat record` files (perf.data-file-format.txt, perf
 * 6.1's layouts): PERF_RECORD_STAT (one counter reading of one cpu/thread
 * slot), PERF_RECORD_STAT_ROUND (end of an interval or of the run, with
 * its time), PERF_RECORD_STAT_CONFIG (tag/value pairs: aggregation mode,
 * interval, scaling), PERF_RECORD_THREAD_MAP and PERF_RECORD_CPU_MAP (the
 * slots the readings index) and PERF_RECORD_EVENT_UPDATE (an event's unit,
 * scale or name). Builders append one record to a strbuf; parsers check
 * sizes and return -EINVAL for a record too short for what it claims.
 */
#include <stdbool.h>
#include <stdint.h>
#include "event.h"

struct strbuf;
struct perf_cpu_map;
struct perf_thread_map;

struct perf_record_stat {
	struct perf_event_header header;
	uint64_t id;		/* the counter's kernel id (attr section's ids) */
	uint32_t cpu;		/* cpu number, (uint32_t)-1 for a per-task counter */
	uint32_t thread;	/* index into the THREAD_MAP */
	uint64_t val, ena, run;	/* raw reading: count, time enabled/running ns */
};

enum { STAT_ROUND_INTERVAL = 0, STAT_ROUND_FINAL = 1 };

struct perf_record_stat_round {
	struct perf_event_header header;
	uint64_t type;		/* STAT_ROUND_* */
	uint64_t time;		/* ns since the start (FINAL: the elapsed time) */
};

/* STAT_CONFIG tags and perf's numbering of its aggregation modes. */
enum {
	STAT_CONFIG_AGGR_MODE = 0,
	STAT_CONFIG_INTERVAL = 1,	/* ms */
	STAT_CONFIG_SCALE = 2,
};
enum {
	PERF_AGGR_NONE = 0, PERF_AGGR_GLOBAL = 1, PERF_AGGR_SOCKET = 2, PERF_AGGR_DIE = 3,
	PERF_AGGR_CORE = 4, PERF_AGGR_THREAD = 5, PERF_AGGR_NODE = 7,
};

/* EVENT_UPDATE types. */
enum { EVENT_UPDATE_UNIT = 0, EVENT_UPDATE_SCALE = 1, EVENT_UPDATE_NAME = 2,
       EVENT_UPDATE_CPUS = 3 };

/* The decoded STAT_CONFIG; fields absent from the record keep their value. */
struct stat_event_config {
	int aggr_mode;		/* PERF_AGGR_* */
	uint64_t interval;	/* ms, 0: none */
	bool scale;
};

/*
 * Builders: append one record to sb. 0 or -ENOMEM.
 * thread_map: one entry per thread (pid, comm of 16 bytes);
 * cpu_map: the list form (type 0: u16 nr, u16 cpu[]), -1 as 0xffff;
 * update_str: UNIT or NAME (NUL-terminated, zero padded to 8);
 * update_scale: SCALE (a double).
 */
int stat_event__thread_map(struct strbuf *sb, struct perf_thread_map *threads);
int stat_event__cpu_map(struct strbuf *sb, const struct perf_cpu_map *cpus);
int stat_event__config(struct strbuf *sb, const struct stat_event_config *cfg);
int stat_event__stat(struct strbuf *sb, uint64_t id, int cpu, int thread, uint64_t val,
		     uint64_t ena, uint64_t run);
int stat_event__round(struct strbuf *sb, uint64_t type, uint64_t time);
int stat_event__update_str(struct strbuf *sb, uint64_t type, uint64_t id, const char *s);
int stat_event__update_scale(struct strbuf *sb, uint64_t id, double scale);
/* CPUS: the cpus the event counts on (list form), for one counting on fewer
 * cpus than the others (perf's tool events count on the first cpu only). */
int stat_event__update_cpus(struct strbuf *sb, uint64_t id, const int *cpus, int nr);

/*
 * Parsers. *threads / *cpus: new maps (caller puts them); thread comms are
 * copied. The cpu map reads the list, mask (32- and 64-bit words) and
 * range forms. 0, -EINVAL (record too short or of an unknown form) or
 * -ENOMEM.
 */
int stat_event__parse_thread_map(const union perf_event *ev, struct perf_thread_map **threads);
int stat_event__parse_cpu_map(const union perf_event *ev, struct perf_cpu_map **cpus);
int stat_event__parse_config(const union perf_event *ev, struct stat_event_config *cfg);
/* STAT and STAT_ROUND: a checked view of the record, or NULL when it is too short. */
const struct perf_record_stat *stat_event__parse_stat(const union perf_event *ev);
const struct perf_record_stat_round *stat_event__parse_round(const union perf_event *ev);

#endif
