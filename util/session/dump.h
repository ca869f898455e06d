/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_DUMP_H
#define PRF_SESSION_DUMP_H
/*
 * -D/--dump-raw-trace of report and script: each record of a perf.data as
 * perf 6.1 prints it (observed output and its record layouts): a blank
 * line, "OFFSET@FILE [SIZE]: event: TYPE", the record's bytes in hex and
 * ASCII 16 to a line, then "[CPU ]TIME OFFSET [SIZE]: PERF_RECORD_NAME"
 * with the fields perf prints for the type (a sample's pid/tid, ip,
 * period, addr, callchain, registers, user stack, weight, data source,
 * read values; a map's range and file; ...), or ": unhandled!" where
 * perf's tool has no handler for it. User records (ID_INDEX, THREAD_MAP,
 * FINISHED_ROUND, ...) are printed as they are read, the others as they
 * are delivered in time order, as perf does. Printing goes to stdout.
 * The session calls these when its dump flag is set (session.h); which
 * records end in ": unhandled!" follows perf's report, or its script with
 * dump_script.
 */
#include <stdint.h>
#include <stdbool.h>

struct perf_session;
struct perf_sample;
struct evsel;
union perf_event;

/* A user record (type >= PERF_RECORD_USER_TYPE_START) at file offset off,
 * as it is read. */
void session_dump__user(struct perf_session *s, const union perf_event *event, uint64_t off);
/*
 * A kernel record at file offset off as it is delivered: sample its
 * decoded sample or sample_id (pid/tid -1 without one), evsel its event
 * (NULL: unknown).
 */
void session_dump__event(struct perf_session *s, const union perf_event *event, uint64_t off,
			 const struct perf_sample *sample, const struct evsel *evsel);
/*
 * The lines perf's report and script add under a sample they resolved:
 * " ... thread: COMM:TID" and " ...... dso: PATH" (dso NULL: the
 * "<not found>" perf prints).
 */
void session_dump__resolved(const char *comm, int tid, const char *dso);

#endif
