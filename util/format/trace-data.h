/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_TRACE_DATA_H
#define PRF_FORMAT_TRACE_DATA_H
/*
 * Tracing data: the tracepoint format descriptions perf keeps in the
 * HEADER_TRACING_DATA feature section (file mode) or after a
 * PERF_RECORD_HEADER_TRACING_DATA record (pipe mode), so that a perf.data
 * file formats its PERF_SAMPLE_RAW payloads on any machine.
 *
 * Layout (numbers in the recording host's byte order; learnt from perf
 * 6.1's files and tools/perf/util/trace-event-{info,read}.c):
 *   10 bytes  magic 0x17 0x08 0x44 "tracing"
 *   "0.6\0"   version string
 *   u8        1 when the host is big endian, else 0
 *   u8        sizeof(long) of the host
 *   u32       page size, bytes
 *   "header_page\0"  u64 size  <events/header_page>
 *   "header_event\0" u64 size  <events/header_event>
 *   u32 count, then count x (u64 size, <events/ftrace/E/format>)
 *   u32 count of systems, each: "sys\0", u32 count, count x (u64 size, <format>)
 *   u32 size  <kallsyms>          (perf 6.1 stores 0 bytes; so do we)
 *   u32 size  <printk_formats>
 *   u64 size  <saved_cmdlines>    (version >= 0.6)
 * Only the events of the recorded tracepoints are stored.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct strbuf;
struct evlist;
struct tep_handle;

/* Version string written ("0.6", as perf 6.1). */
#define TRACE_DATA_VERSION "0.6"

/* Whether evlist has at least one PERF_TYPE_TRACEPOINT evsel. */
bool trace_data__has_tracepoints(struct evlist *evlist);

/*
 * Append the tracing data for every tracepoint evsel of evlist (system and
 * name from evsel->tp_sys/tp_name, else looked up from attr.config with
 * tracefs__id_to_name()) to sb, reading the files from the mounted tracefs.
 * Returns 0, -ENODATA when evlist has no tracepoint, -ENOMEM, or the
 * tracefs error (-ENOENT: tracefs or a format file missing), with a
 * message logged.
 */
int trace_data__build(struct evlist *evlist, struct strbuf *sb);

/*
 * The features_ctx.tracing_data hook (util/format/features-write.h):
 * arg is the struct evlist *. Same as trace_data__build() except that an
 * evlist without tracepoints returns 0 and appends nothing.
 */
int trace_data__feature_hook(struct strbuf *sb, void *arg);

/*
 * Parse a tracing data payload (buf, size bytes; perf's or ours, either
 * byte order) into a new libtraceevent handle: header_page, every ftrace
 * and event format, kallsyms, printk formats and saved cmdlines.
 * Returns the handle (free with tep_free()) or NULL with *err (if not
 * NULL) = -EINVAL (bad magic, truncated: message logged) or -ENOMEM.
 * An event format libtraceevent cannot parse is skipped with a debug
 * message, as perf does.
 */
struct tep_handle *trace_data__parse(const void *buf, size_t size, int *err);

/*
 * Add the format of sys:name read from the local tracefs to tep (used when
 * a file has no tracing data). header_page is parsed too on the first
 * call for a handle without one. 0 or -errno (-ENOENT: no such event).
 */
int trace_data__add_local_event(struct tep_handle *tep, const char *sys, const char *name);

#endif
