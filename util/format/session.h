/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_SESSION_H
#define PRF_FORMAT_SESSION_H
/*
 * Session: one perf.data input (file or pipe, either byte order, zstd
 * PERF_RECORD_COMPRESSED inflated), its evlist (from the attr section or
 * HEADER_ATTR records), its header features (perf_env), and delivery of
 * every record, in timestamp order across CPUs (ordered queue flushed on
 * FINISHED_ROUND and at the end), to one perf_tool. report, script and
 * every exporter share this one reader.
 *
 * Side-band records (COMM, MMAP, MMAP2, FORK, EXIT, KSYMBOL, ...) reach the
 * machine model through the default callbacks perf_tool__init() installs;
 * a consumer overriding one calls machine__process_event() itself.
 *
 * Bad input: a record with an impossible size or type is reported with its
 * file offset ("bad record at offset 0x... : ..."), skipped where its size
 * allows, else processing stops; what was read stays delivered. A file whose
 * header says data size 0 (killed recorder) is read to its end.
 */
#include <stdbool.h>
#include <stdio.h>
#include "event.h"
#include "header.h"
#include "sample-parse.h"

struct evsel;
struct evlist;
struct machine;
struct perf_tool;
struct perf_session;
struct reader_priv;

typedef int (*event_sample)(struct perf_tool *tool, union perf_event *event,
			    struct perf_sample *sample, struct evsel *evsel,
			    struct machine *machine);
typedef int (*event_op)(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine);
typedef int (*event_op2)(struct perf_session *session, union perf_event *event);

/* Callbacks return 0 to go on, negative errno to stop processing. The
 * event and the pointers in perf_sample point into the input (file mapping
 * or reader buffers): valid only during the callback; copy what you keep. */
struct perf_tool {
	event_sample sample;
	event_op mmap, mmap2, comm, namespaces, cgroup, fork, exit, lost,
		 lost_samples, aux, itrace_start, context_switch, throttle,
		 unthrottle, ksymbol, bpf, text_poke, read;
	event_op2 attr, tracing_data, build_id, id_index, feature, time_conv,
		  finished_round, finished_init, compressed, stat, stat_round,
		  thread_map, cpu_map, stat_config, event_update, auxtrace_info;
	/* Called, when set, before each record that may change the model is
	 * delivered (MMAP, MMAP2, COMM, NAMESPACES, CGROUP, FORK, EXIT,
	 * KSYMBOL, BPF_EVENT, TEXT_POKE: maps may be replaced and freed, DSOs
	 * renamed): a tool still holding pointers into the model from earlier
	 * samples (report's hists feed) finishes with them. 0 or -errno,
	 * which stops processing as a callback's error does. */
	int (*model_barrier)(struct perf_tool *tool);
	bool ordered_events;	/* deliver in time order (default true) */
	bool show_progress;	/* progress on a terminal (ui/progress) */
};

/* Defaults: side-band -> machine__process_event(); sample -> ignored;
 * user records consumed by the session itself. */
void perf_tool__init(struct perf_tool *tool, bool ordered_events);

/* Feature data from the header (or pipe feature records). Strings owned. */
struct perf_env {
	char *hostname, *os_release, *version, *arch, *cpu_desc, *cpuid;
	int nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem;		/* kB */
	int nr_cmdline;
	char **cmdline;
	uint64_t clockid_res_ns;
	int clockid;			/* -1 unknown */
	uint64_t sample_time_start, sample_time_end;	/* ns */
	int comp_type, comp_level;
	uint32_t comp_ratio;
	uint64_t comp_mmap_len;
	void *tracing_data;		/* raw HEADER_TRACING_DATA payload */
	uint64_t tracing_data_size;
	void *priv;
};

/* Counters over the whole input; printed by `report --stats`. */
struct events_stats {
	uint64_t nr_events[PERF_RECORD_HEADER_MAX];	/* by record type */
	uint64_t total_lost;		/* from PERF_RECORD_LOST */
	uint64_t total_lost_samples;	/* from PERF_RECORD_LOST_SAMPLES */
	uint64_t nr_unknown_id;		/* samples whose id matches no evsel */
	uint64_t nr_bad_records;	/* skipped corrupt records */
	uint64_t nr_unordered;		/* records older than the last flush */
	uint64_t nr_throttles, nr_unthrottles;
};

struct perf_session {
	const char *path;		/* "-" for stdin */
	int fd;
	bool pipe;
	bool needs_swap;		/* file written on the other byte order */
	bool repipe;
	struct perf_file_header header;
	uint64_t data_offset, data_size;	/* data section, bytes */
	uint64_t file_size;
	unsigned long feat_bits[HEADER_FEAT_BITS / (8 * sizeof(long))];
	struct perf_env env;
	struct evlist *evlist;		/* owned */
	struct machine *machine;	/* host machine; owned */
	struct perf_tool *tool;		/* not owned */
	struct events_stats stats;
	void *ordered;			/* ordered-events queue (private) */
	void *zstd;			/* unused (decompression state lives in reader) */
	struct reader_priv *reader;	/* private reader state (session-internal.h) */
	bool one_mmap;			/* private */
	char *symfs;			/* --symfs (owned copy), or NULL */
	void *priv;
	/* parallel DWARF unwinding (util/model/unwind.h): threads to use
	 * (0: unwind__parallel_threads(), 1: off); the rest is private */
	int unwind_threads;
	struct unwind_batch *unwind_batch;
	bool unwind_parallel_off;
};

/*
 * Open path ("-" or a pipe: pipe mode) and read its header, attrs and
 * features. Returns NULL and *err = negative errno (-EINVAL: not a perf.data
 * file, with a message already printed naming the file and why).
 * The session keeps `tool` (not owned).
 */
struct perf_session *perf_session__new(const char *path, struct perf_tool *tool, int *err);
void perf_session__delete(struct perf_session *session);
/*
 * Threads for DWARF unwinding during perf_session__process_events(): 1
 * turns parallel unwinding off, 0 (default) uses unwind__parallel_threads()
 * ($PRF_UNWIND_THREADS, else a count from the online CPUs and the load).
 * With more than one, runs of samples carrying PERF_SAMPLE_REGS_USER +
 * STACK_USER between side-band records are unwound ahead on worker
 * threads, in batches, and delivered in the usual order with the same
 * frames (see unwind.h); it stops by itself when the tool does not use
 * the prepared stacks.
 */
void perf_session__set_unwind_threads(struct perf_session *session, int nthreads);
/* Deliver every record to session->tool. 0, or the first negative errno
 * a callback returned, or -EIO/-EINVAL when the input ended badly (after
 * delivering what was read). */
int perf_session__process_events(struct perf_session *session);
/* Whether feature `feat` (HEADER_*) is present. */
bool perf_session__has_feat(const struct perf_session *session, int feat);
/* Print the header as `perf report --header-only` does (# lines; full:
 * also the -I sections). Pipe mode: features arrive as records, so call it
 * after perf_session__process_events(); they print after the header block,
 * as perf does. */
void perf_session__fprintf_info(struct perf_session *session, FILE *fp, bool full);
/* Print "Aggregated stats" like `perf report --stats`. */
void perf_session__fprintf_stats(struct perf_session *session, FILE *fp);

/* File offset (bytes) of the record being delivered (for the compressed
 * records inside a PERF_RECORD_COMPRESSED: the offset of that record). */
uint64_t perf_session__cur_offset(struct perf_session *session);
/* Number of PERF_RECORD_SAMPLE records of evsel delivered so far. */
uint64_t perf_session__evsel_nr_samples(struct perf_session *session, const struct evsel *evsel);
/* Print attr fields as perf's header does: ", name = value" for every
 * non-zero field, in perf_event_attr__fprintf order (perf 6.1). */
void perf_event_attr__fprintf_desc(FILE *fp, const struct perf_event_attr *attr);
/* Name of a record type as perf prints it ("SAMPLE", "FINISHED_ROUND"),
 * "UNKNOWN" for others. */
const char *perf_event__name(unsigned int type);

#endif
