/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_REPORT_TASKS_H
#define PRF_ANALYSIS_REPORT_TASKS_H
/*
 * perf report --tasks and --mmaps: the machine's threads as a tree of
 * parents and children (by ppid), one line each ("pid tid ppid |comm",
 * the comm indented by the depth), with --mmaps the maps of each thread's
 * address space under it, as perf 6.1 prints them.
 */
#include <stdbool.h>
#include <stdio.h>

struct machine;

/*
 * Print machine's threads to fp (with their maps when mmaps). Threads are
 * taken in perf's order (its thread table: tid modulo 256, then tid); a
 * thread whose ppid is -1 is a root, others hang under the thread whose
 * tid is their ppid, in the order they were met. 0, -ENOMEM, or -ENOENT
 * after a message when a ppid names no known thread (perf fails so too).
 */
int report_tasks__fprintf(struct machine *machine, bool mmaps, FILE *fp);

#endif
