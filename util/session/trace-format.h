/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_TRACE_FORMAT_H
#define PRF_SESSION_TRACE_FORMAT_H
/*
 * Tracepoint payloads (PERF_SAMPLE_RAW of PERF_TYPE_TRACEPOINT samples)
 * formatted with libtraceevent from the formats stored in the file's
 * tracing data (util/format/trace-data.h), the way `perf script` prints its
 * "trace" field: the event's print fmt rendered by tep_print_event() with
 * TEP_PRINT_INFO, e.g. for sched:sched_switch
 *   prev_comm=sleep prev_pid=28936 prev_prio=120 prev_state=S ==> next_comm=...
 * (no trailing space or newline). Plus typed access to payload fields.
 *
 * A file without tracing data (or an event missing from it) falls back to
 * the format of the same sys:name in the local tracefs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../format/event.h"

struct evsel;
struct perf_session;
struct tep_handle;
struct tep_event;
struct trace_formatter;

/*
 * New formatter over the tracing data payload data (size bytes, e.g.
 * perf_session.env.tracing_data; may be NULL/0: local tracefs formats
 * only). The payload is parsed now and not kept. Returns NULL with *err
 * (if not NULL) = -ENOMEM or -EINVAL (corrupt tracing data, message
 * logged). Free with trace_formatter__delete().
 */
struct trace_formatter *trace_formatter__new(const void *data, size_t size, int *err);
void trace_formatter__delete(struct trace_formatter *tf);

/*
 * Formatter over a session's tracing data (session->env.tracing_data,
 * from HEADER_TRACING_DATA or, in pipe mode, the TRACING_DATA record:
 * create it when the first tracepoint sample arrives). Corrupt tracing
 * data is reported once and the local tracefs formats are used instead.
 * NULL only on ENOMEM.
 */
struct trace_formatter *trace_formatter__new_session(struct perf_session *session);

/* The libtraceevent handle (owned by tf). */
struct tep_handle *trace_formatter__tep(struct trace_formatter *tf);

/*
 * The format of a tracepoint evsel: looked up by attr.config (the
 * tracepoint id the stored formats carry), else by system:name (from
 * evsel->tp_sys/tp_name or the evsel name "sys:name"), else read from the
 * local tracefs. NULL when the evsel is not a tracepoint or no format is
 * found (then one debug message per evsel). Owned by tf. Cached per evsel.
 */
struct tep_event *trace_formatter__event(struct trace_formatter *tf, struct evsel *evsel);

/*
 * The payload of sample (of tracepoint evsel) as `perf script` prints
 * it: tep_print_event(..., "%s", TEP_PRINT_INFO). Returns a string owned
 * by tf, valid until the next call; NULL when the sample has no raw data
 * or the event format is unknown.
 */
const char *trace_formatter__info(struct trace_formatter *tf, struct evsel *evsel,
				  const struct perf_sample *sample);

/*
 * Like trace_formatter__info(), but the string is interned: equal
 * payload texts give the same pointer, valid until tf is deleted (for
 * hist entries keyed by the trace text, `prf report --sort trace`).
 * "N/A" for samples that are no tracepoints or have no known format,
 * as perf prints them. NULL only on ENOMEM.
 */
const char *trace_formatter__info_intern(struct trace_formatter *tf, struct evsel *evsel,
					 const struct perf_sample *sample);

/*
 * Numeric payload field `field` of sample (signed fields sign-extended to
 * 64 bits, in host byte order). 0, -ENOENT (no such field or unknown
 * event), -EINVAL (field outside the payload or not numeric).
 */
int trace_formatter__field_u64(struct trace_formatter *tf, struct evsel *evsel,
			       const struct perf_sample *sample, const char *field, uint64_t *val);

/*
 * String payload field (char array such as prev_comm, or __data_loc
 * string) copied NUL-terminated into buf (size bytes, truncated).
 * 0, -ENOENT or -EINVAL as trace_formatter__field_u64().
 */
int trace_formatter__field_str(struct trace_formatter *tf, struct evsel *evsel,
			       const struct perf_sample *sample, const char *field,
			       char *buf, size_t size);

/*
 * A payload field resolved once per evsel (trace_formatter__field_ref()),
 * then read from each sample without a lookup by name: for loops over
 * many samples of few events (sched, off-CPU). Plain data; valid while
 * tf lives. offset/size in bytes into the raw payload; kind says how it
 * is read.
 */
struct trace_field {
	int offset, size;
	enum {
		TRACE_FIELD_NONE,	/* missing: reads fail with -ENOENT */
		TRACE_FIELD_NUM,	/* 1, 2, 4 or 8 byte integer */
		TRACE_FIELD_ARRAY,	/* char array (e.g. prev_comm) */
		TRACE_FIELD_DYN,	/* __data_loc string (offset/len word) */
		TRACE_FIELD_REL,	/* __rel_loc string (relative to its end) */
		TRACE_FIELD_OTHER,	/* neither numeric nor string: -EINVAL */
	} kind;
	bool is_signed;		/* NUM: sign-extended to 64 bits */
	bool swap;		/* the file's byte order is not the host's */
};

/*
 * Resolve field `name` of tracepoint evsel's format into *ref (kind
 * TRACE_FIELD_NONE when the field or the format is missing). 0, or
 * -ENOENT with *ref of kind NONE.
 */
int trace_formatter__field_ref(struct trace_formatter *tf, struct evsel *evsel,
			       const char *name, struct trace_field *ref);

/*
 * The numeric field ref of sample, as trace_formatter__field_u64() reads
 * it by name (same results, same errors: -ENOENT, -EINVAL).
 */
int trace_field__u64(const struct trace_field *ref, const struct perf_sample *sample,
		     uint64_t *val);

/*
 * The string field ref of sample copied NUL-terminated into buf (size
 * bytes, truncated), as trace_formatter__field_str() reads it by name.
 */
int trace_field__str(const struct trace_field *ref, const struct perf_sample *sample,
		     char *buf, size_t size);

/*
 * The payload field names of tracepoint evsel's format, in the format's
 * order (common_* fields left out, as perf evlist --trace-fields lists
 * them), each handed to fn(name, arg), valid during the call. The number
 * of fields (>= 0), or -ENOENT when evsel is no tracepoint or its format
 * is unknown.
 */
int trace_formatter__field_names(struct trace_formatter *tf, struct evsel *evsel,
				 void (*fn)(const char *name, void *arg), void *arg);

/*
 * Whether evsel is sys:name (e.g. "sched", "sched_switch"), by its
 * tp_sys/tp_name or its "sys:name" evsel name.
 */
bool trace_formatter__evsel_is(struct evsel *evsel, const char *sys, const char *name);

#endif
