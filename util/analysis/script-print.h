/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SCRIPT_PRINT_H
#define PRF_ANALYSIS_SCRIPT_PRINT_H
/*
 * The `prf script` text printer: one sample line (comm, tid, [cpu], time,
 * period, event name, ip sym+off (dso)) and, for callchains, one line per
 * frame, laid out exactly as Linux perf 6.1's `perf script` prints them
 * (layout learnt from perf's output: comm "%16s " or "%s " in callchain
 * mode, tid "%5d ", pid/tid "%5d/%-5d ", cpu "[%03d] ", time "%12s: " with
 * microseconds or "%5lu.%09lu: " with --ns, period "%10lu ", event name
 * right-aligned to the longest name, frames "\t%16lx sym+0xoff (dso)").
 * Side-band records (--show-mmap-events, --show-task-events) are printed
 * with the same prefix and perf's PERF_RECORD_* descriptions.
 *
 * The printer never resolves anything itself: it prints what the resolver
 * (util/model/callchain.h) put into a callchain_cursor.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../format/event.h"

struct evsel;
struct evlist;
struct callchain_cursor;
struct callchain_frame;

/* -F field bits (perf's names in script_field__name()). */
enum script_field {
	SF_COMM		= 1U << 0,
	SF_TID		= 1U << 1,
	SF_PID		= 1U << 2,
	SF_TIME		= 1U << 3,
	SF_CPU		= 1U << 4,
	SF_EVNAME	= 1U << 5,
	SF_TRACE	= 1U << 6,
	SF_IP		= 1U << 7,
	SF_SYM		= 1U << 8,
	SF_DSO		= 1U << 9,
	SF_ADDR		= 1U << 10,
	SF_SYMOFF	= 1U << 11,
	SF_SRCLINE	= 1U << 12,
	SF_PERIOD	= 1U << 13,
	SF_CALLINDENT	= 1U << 14,
	SF_IREGS	= 1U << 15,
	SF_UREGS	= 1U << 16,
	SF_DATA_SRC	= 1U << 17,
	SF_WEIGHT	= 1U << 18,
	SF_PHYS_ADDR	= 1U << 19,
	SF_MISC		= 1U << 20,
	SF_TOD		= 1U << 21,
	SF_FLAGS	= 1U << 22,
	SF_SRCCODE	= 1U << 23,
	SF_BPF_OUTPUT	= 1U << 24,	/* "bpf-output": a bpf-output event's raw data */
};

/* Fields printed after the sample's own columns, off the common path. */
#define SF_EXTRA (SF_IREGS | SF_UREGS | SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR | SF_FLAGS)

/* Output slots: perf_event_attr.type values below PERF_TYPE_MAX, plus one
 * for every other (dynamic PMU) type. */
#define SCRIPT_TYPE_OTHER PERF_TYPE_MAX
#define SCRIPT_NR_TYPES (PERF_TYPE_MAX + 1)

struct script_fields {
	uint32_t fields[SCRIPT_NR_TYPES];
	uint32_t user_fields[SCRIPT_NR_TYPES];	/* named by the user: missing is an error */
	bool user_set[SCRIPT_NR_TYPES];
	uint32_t user_unset[SCRIPT_NR_TYPES];	/* removed by the user ("-f") */
};

/* perf 6.1's default field sets per event type. */
void script_fields__init(struct script_fields *sf);

/*
 * Apply one -F/--fields argument, perf's syntax: "f1,f2" replaces the
 * fields of every type, "type:f1,f2" of one type (hw, sw, trace, raw,
 * break), "+f"/"-f" (or "type:+f") add to / remove from the current set.
 * As perf 6.1, a list with a '+' or '-' anywhere (a field name such as
 * "bpf-output" included) adds its unsigned fields to the current set
 * instead of replacing it. 'trace' is valid for tracepoints only,
 * 'bpf-output' for software events and tracepoints: named for every type,
 * the types it is not valid for keep their fields and a warning per type
 * goes to stderr ("'trace' not valid for software events. Ignoring.");
 * named for one such type it is an error.
 * Returns 0, or -EINVAL with a one-line reason in err (errsz bytes).
 */
int script_fields__parse(struct script_fields *sf, const char *spec, char *err, size_t errsz);

/*
 * With callchains shown, as perf 6.1's script does: from a file, when the
 * user did not set the tracepoint fields and a tracepoint evsel of evlist
 * samples PERF_SAMPLE_CALLCHAIN, tracepoints print their stacks too (ip,
 * sym, symoff, dso added); from a pipe, when the events sample callchains
 * or user stacks, every event type present gets ip and sym unless the
 * user removed them ("-F -ip").
 */
void script_fields__callchain_defaults(struct script_fields *sf, struct evlist *evlist, bool pipe);

/* Slot of an evsel's attr.type. */
int script_fields__slot(uint32_t attr_type);

/*
 * Check the fields against what evsel's samples carry (sample_type): a
 * default field the samples lack is dropped quietly; a field the user asked
 * for that they lack is an error, as perf reports it ("Samples for 'E'
 * event do not have X attribute set. Cannot print 'f' field.") in err.
 * Returns 0 or -EINVAL.
 */
int script_fields__check(struct script_fields *sf, struct evsel *evsel, char *err, size_t errsz);

/* Name of one field bit ("comm", "tid", ...). */
const char *script_field__name(uint32_t field);

struct script_printer {
	FILE *fp;
	int fd;				/* fileno(fp), -1: none (written with fwrite) */
	struct script_fields *fields;	/* not owned */
	bool nanosecs;			/* --ns */
	bool latency;			/* -L: comm "%8.8s", cpu "%3d" */
	bool reltime, deltatime;	/* --reltime, --deltatime: time column relative */
	bool unbatched;			/* each record written at once (-D: between the dumps) */
	uint64_t first_time, prev_time;	/* ns, for reltime/deltatime (private) */
	bool use_callchain;		/* callchain layout (some evsel has CALLCHAIN, no -G) */
	int name_width;			/* longest event name of the evlist */
	bool have_tod;			/* the file's HEADER_CLOCK_DATA: */
	uint64_t tod_ns, tod_clock_ns;	/* wall time (ns since the epoch) at clock time */
	int data_src_width;		/* widest data_src text so far (private) */
	const char *addr_sym;		/* -F addr of a page fault: the address's symbol */
	const char *addr_dso;		/* and DSO ("[unknown]" when none), NULL: not shown */
	uint64_t addr_symoff;		/* addr - symbol start */
	bool addr_has_sym;
	const char *srccode;		/* -F srccode: text printed after the sample
					   (perf's "|LINE     source"), NULL: none */
	const char *trace_info;		/* "trace" field of the next sample (formatted
					   tracepoint payload, not owned), NULL: raw hex */
	char *buf;			/* line buffer (private) */
	struct script_reorder *reorder;	/* time-ordering queue (private) */
	struct chain_texts *chain_texts;	/* printed chains by chain_id (private) */
	size_t len, alloc;
};

/* fp not owned; name_width from script_printer__set_evlist(). 0 or -ENOMEM. */
int script_printer__init(struct script_printer *p, FILE *fp, struct script_fields *fields);
void script_printer__exit(struct script_printer *p);
/* Write what is gathered to the current stream, then print to fp (not
 * owned) from now on (--per-event-dump). 0 or -EPIPE/-EIO. */
int script_printer__set_output(struct script_printer *p, FILE *fp);
/* Width of the event-name column: the longest evsel__name() of evlist. */
void script_printer__set_evlist(struct script_printer *p, struct evlist *evlist);

/*
 * Print one sample: comm is the thread's comm at the sample, cursor the
 * resolved callchain (callee first; frames[0] is the sample ip); cursor
 * may be NULL when no ip/sym/dso field is printed. The text is gathered
 * and written some 64 KB at a time (script_printer__flush() writes the
 * rest; so does script_printer__exit(), unchecked): anything else written
 * to the stream meanwhile must go through stdio, which is flushed first.
 * Returns 0, or -EPIPE/-EIO when a write failed (caller stops).
 */
int script_printer__sample(struct script_printer *p, struct evsel *evsel,
			   const struct perf_sample *sample, const char *comm,
			   const struct callchain_cursor *cursor);

/*
 * Print one side-band record (MMAP, MMAP2, COMM, FORK, EXIT, SWITCH,
 * SWITCH_CPU_WIDE, LOST, NAMESPACES, CGROUP) as perf does with
 * --show-mmap-events/--show-task-events/--show-switch-events/
 * --show-lost-events/--show-namespace-events/--show-cgroup-events: the sample
 * prefix of
 * evsel (comm of the record's thread, sample tid/cpu/time) followed by
 * "PERF_RECORD_...". Other record types print nothing.
 * Returns 0 or -EPIPE/-EIO.
 */
int script_printer__sideband(struct script_printer *p, struct evsel *evsel,
			     const union perf_event *event,
			     const struct perf_sample *sample, const char *comm);

/* Print text as it is (a record perf prints without a prefix, such as
 * "PERF_RECORD_FINISHED_ROUND\n"), in order with the samples. 0 or
 * -EPIPE/-EIO. */
int script_printer__text(struct script_printer *p, const char *text);

/*
 * Time order for inputs some of whose records are known only later than
 * records with newer times (off-CPU spans, printed with their switch-out
 * time, are finished at switch-in). With reorder on, every record
 * script_printer__sample()/__sideband() prints is queued with its sample
 * time (ns) instead of written; script_printer__flush() writes the text
 * gathered (reorder off), then the queued records older than limit (ns;
 * UINT64_MAX: all) in (time, arrival) order.
 * Queued output is bounded (256 MiB): beyond it everything queued is
 * written (a warning says so) and later late records may come out of
 * order. Turning reorder off flushes all. 0, -ENOMEM or -EPIPE/-EIO.
 */
int script_printer__set_reorder(struct script_printer *p, bool on);
int script_printer__flush(struct script_printer *p, uint64_t limit);

/*
 * -F tod: "YYYY-MM-DD HH:MM:SS.uuuuuu" (.nnnnnnnnn with --ns) of a
 * sample time (ns, the recording's clock) in local time, from the
 * file's clock data (tod_ns at tod_clock_ns), into buf (size bytes).
 */
void script_printer__tod(const struct script_printer *p, uint64_t time, char *buf, size_t size);

/* Address perf prints for a frame in callchain mode: the ip mapped into
 * its DSO (file offset space) for user maps, the ip itself for kernel
 * maps and unmapped frames. */
uint64_t script_frame__print_addr(const struct callchain_frame *frame);

#endif
