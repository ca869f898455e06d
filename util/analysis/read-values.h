/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_READ_VALUES_H
#define PRF_ANALYSIS_READ_VALUES_H
/*
 * perf report -T/--threads: the counter values of PERF_RECORD_READ
 * records (written at a thread's exit when the counters were inherited
 * with inherit_stat, `record -s`), summed per thread and event, printed
 * as perf 6.1 prints them after the report: "# PID TID EVENT..." and one
 * line per thread, columns as wide as their widest value.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct read_values {
	pid_t *pid, *tid;		/* threads, in the order first read */
	int nr_threads, alloc_threads;
	int *counter_idx;		/* evsel idx of each counter */
	char **counter_name;		/* owned copies */
	int nr_counters, alloc_counters;
	uint64_t **value;		/* [thread][counter] */
};

/* Add value to thread (pid, tid)'s count of the event of index idx, named
 * name (copied). 0 or -ENOMEM. */
int read_values__add(struct read_values *rv, pid_t pid, pid_t tid, int idx, const char *name,
		     uint64_t value);
/* Print the table to fp (a header only when nothing was read). */
void read_values__fprintf(const struct read_values *rv, FILE *fp);
void read_values__exit(struct read_values *rv);

#endif
