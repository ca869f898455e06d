/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_DATA_H
#define PRF_FORMAT_DATA_H
/*
 * One perf.data input, as data: a file or a pipe, either byte order, with
 * its header, its evlist (from the attr section or PERF_RECORD_HEADER_ATTR
 * records, named from EVENT_DESC / EVENT_UPDATE), its header features
 * (perf_env) and its records, handed one by one in file order, in host
 * byte order and validated, to the reader's owner through perf_data_ops.
 * PERF_RECORD_COMPRESSED payloads are inflated (zstd) and their records
 * handed on the same way. Follows the perf.data format document (Linux
 * tools/perf/Documentation/perf.data-file-format.txt) and
 * perf_event_open(2) for the record layouts.
 *
 * No model here: what the records mean for threads, maps and symbols is
 * the session's business (util/session/session.h), which owns a perf_data.
 *
 * Bad input: a record with an impossible size or type is reported with
 * its file offset ("bad record at offset 0x... : ..."), skipped where its
 * size allows, else reading stops; what was read stays handed on. A file
 * whose header says data size 0 (killed recorder) is read to its end.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "event.h"
#include "header.h"
#include "sample-parse.h"

struct evsel;
struct evlist;
struct build_id;
struct reader_priv;
struct rec_chunk;

/* Feature data from the header (or pipe feature records). Strings owned. */
struct perf_env {
	char *hostname, *os_release, *version, *arch, *cpu_desc, *cpuid;
	int nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem;		/* kB */
	int nr_cmdline;
	char **cmdline;
	uint64_t clockid_res_ns;
	int clockid;			/* -1 unknown */
	bool clock_data;		/* HEADER_CLOCK_DATA: wall time clock_tod_ns */
	uint64_t clock_tod_ns, clock_clockid_ns;	/* (ns) at clockid time clock_clockid_ns */
	uint64_t sample_time_start, sample_time_end;	/* ns */
	int comp_type, comp_level;
	uint32_t comp_ratio;
	uint64_t comp_mmap_len;
	void *tracing_data;		/* raw HEADER_TRACING_DATA payload */
	uint64_t tracing_data_size;
	int32_t *cpu_socket;		/* HEADER_CPU_TOPOLOGY: socket id by cpu,
					   nr_cpus_avail of them; NULL: none */
};

/* The socket id of cpu from the file's CPU_TOPOLOGY header; -1 when the
 * cpu is unknown (-1, out of range) or the file has no topology. */
static inline int perf_env__cpu_socket(const struct perf_env *env, int cpu)
{
	return env->cpu_socket && cpu >= 0 && cpu < env->nr_cpus_avail ?
	       env->cpu_socket[cpu] : -1;
}

/* Counters over the whole input; printed by `report --stats`. The data
 * layer counts records by type and bad records; the session the rest. */
struct events_stats {
	uint64_t nr_events[PERF_RECORD_HEADER_MAX];	/* by record type */
	uint64_t total_lost;		/* from PERF_RECORD_LOST */
	uint64_t total_lost_samples;	/* from PERF_RECORD_LOST_SAMPLES */
	uint64_t nr_unknown_id;		/* samples whose id matches no evsel */
	uint64_t nr_bad_records;	/* skipped corrupt records */
	uint64_t nr_unordered;		/* records older than the last flush */
	uint64_t nr_throttles, nr_unthrottles;
};

/*
 * How reading the input went, for the summary a command prints at the end
 * and its exit status (util/session/session.h: read_summary__finish()).
 * The reader fills it as it reads; the session adds the records it could
 * not use. Plain data: may be copied and outlive the perf_data.
 *
 * Two kinds of damage: single records skipped with reading going on (a
 * record of unknown type, a sample too short for its sample_type, one whose
 * id matches no attr: nr_skipped), and reading stopped before the end of
 * the data (a record whose size is impossible, a file shorter than its
 * header says, a read error: stopped). After a stop, the records in the
 * bytes not read are unknown; data_size - (stop_offset - data_offset) is
 * what was not read.
 */
struct read_summary {
	uint64_t data_offset;	/* file offset of the data section (16 for a pipe) */
	uint64_t data_size;	/* bytes of the data section as the header says
				   (file; 0 for a pipe or a file without size) */
	uint64_t nr_records;	/* records read and handed on (inflated ones included) */
	uint64_t nr_skipped;	/* single records skipped, reading went on */
	uint64_t bytes_skipped;	/* their bytes, where their size was known */
	bool stopped;		/* reading stopped before the end of the data */
	bool truncated;		/* the file ends before its data section does */
	uint64_t stop_offset;	/* stopped: file offset where reading stopped */
	const char *stop_why;	/* stopped: short reason (static string) */
};

/*
 * What the owner of a perf_data is told while it is opened and read. ctx
 * is perf_data::ops_ctx. Every callback may be NULL.
 */
struct perf_data_ops {
	/*
	 * A record of the data section, in host byte order, its header
	 * validated (size within the input, at least a header). User records
	 * (type >= PERF_RECORD_USER_TYPE_START) come as they are: the owner
	 * calls perf_data__apply_user_event() for the evlist and features to
	 * take them in. owner: the chunk holding the record (pipe input,
	 * inflated or realigned records), NULL when it lies in the file
	 * mapping; the record is valid during the call, and after it while
	 * the owner holds a reference (rec_chunk__get()/perf_data__put()).
	 * 0 to go on, negative errno to stop reading.
	 */
	int (*record)(void *ctx, union perf_event *event, uint64_t file_offset,
		      struct rec_chunk *owner);
	/* A PERF_RECORD_COMPRESSED record, before its payload is inflated
	 * and its records handed to record(). 0 or negative errno (stop). */
	int (*compressed)(void *ctx, union perf_event *event);
	/* A build-id of the HEADER_BUILD_ID feature section: the DSO's path
	 * as recorded (NUL-terminated), its build-id, and whether the
	 * record's cpumode is a kernel one. During perf_data__open(). */
	void (*build_id)(void *ctx, const char *filename, const struct build_id *bid,
			 bool kernel);
	/* The lowest file offset of a record the owner still holds from the
	 * file mapping (queued for later delivery), ~0ULL when none: the
	 * mapping below it may be given back while a big file is read. */
	uint64_t (*held_offset)(void *ctx);
	/* The owner reads little of each record (no sample's stack dump):
	 * a data section below AHEAD_MIN_DATA is read in the file mapping,
	 * not copied into blocks (read-blocks.c). */
	bool sparse;
};

struct perf_data {
	const char *path;		/* "-" for stdin; a copy, owned (messages name it) */
	int fd;
	bool pipe;
	bool needs_swap;		/* file written on the other byte order */
	struct perf_file_header header;
	uint64_t data_offset, data_size;	/* data section, bytes */
	uint64_t file_size;
	unsigned long feat_bits[HEADER_FEAT_BITS / (8 * sizeof(long))];
	struct perf_env env;
	struct evlist *evlist;		/* owned */
	struct events_stats stats;
	struct read_summary summary;	/* how reading went (above) */
	/* PERF_RECORD_SAMPLEs per evsel, indexed by evsel->idx, counted by
	 * the session as it delivers them (perf_data__count_sample()) */
	uint64_t *evsel_samples;
	int nr_evsel_samples;
	struct perf_data_ops ops;	/* set before perf_data__open() */
	void *ops_ctx;
	struct reader_priv *reader;	/* private reader state (data-internal.h) */
};

/*
 * Open path ("-" or a pipe: pipe mode) into d (zeroed by the caller but
 * for ops/ops_ctx) and read its header, attrs and features (build-ids go
 * to ops.build_id). 0, or negative errno (-EINVAL: not a perf.data file,
 * with a message already printed naming the file and why); on error what
 * was set up is freed by perf_data__close(), which the caller still calls.
 */
int perf_data__open(struct perf_data *d, const char *path);
/*
 * Set d up for records read live from ring buffers (util/session/live.h)
 * instead of a file: d (zeroed by the caller) takes evlist (owned from
 * now on, freed by perf_data__close()), whose evsels are open, and maps
 * their kernel ids (evsel->ids) to them for perf_data__event_evsel().
 * No header, no features. 0 or -ENOMEM; perf_data__close() frees what
 * was set up either way.
 */
int perf_data__open_live(struct perf_data *d, struct evlist *evlist);
/* Free everything d holds (d itself is the caller's). Safe after a failed
 * open and twice. */
void perf_data__close(struct perf_data *d);
/* Read the data section (file) or the stream (pipe) to its end, handing
 * every record to ops.record. 0, the first negative errno a callback
 * returned, or -EIO/-EINVAL when the input ended badly (after handing on
 * what was read). */
int perf_data__read(struct perf_data *d);
/*
 * Take in a user record (type >= PERF_RECORD_USER_TYPE_START) handed to
 * ops.record: HEADER_ATTR adds an evsel with its ids, EVENT_UPDATE names
 * one, ID_INDEX maps ids, HEADER_FEATURE reads a pipe feature. 0 done (or
 * nothing to do for the type), 1 the record was too short and was
 * reported and counted as bad (the owner skips it), negative errno.
 */
int perf_data__apply_user_event(struct perf_data *d, union perf_event *event, uint64_t file_offset);
/* Report a record the owner found malformed: counted in stats and in the
 * read summary's skipped records, printed as "PATH: bad record at offset
 * 0x...: why (type NAME), skipped". */
void perf_data__bad_record(struct perf_data *d, uint64_t file_offset, const char *why,
			   uint32_t type);
/* Give back a reference to a chunk a queued record held (see
 * perf_data_ops.record); the chunk is freed or reused with the last. */
void perf_data__put(struct perf_data *d, struct rec_chunk *chunk);
/* Take a reference to a chunk for a record kept past ops.record. */
void rec_chunk__get(struct rec_chunk *chunk);

/* The evsel a record belongs to (sample id, or the sample_id trailer of
 * other records; the only evsel when there is one), NULL if unknown. */
struct evsel *perf_data__event_evsel(struct perf_data *d, union perf_event *event);
/* Timestamp of a record (ns, PERF_SAMPLE_TIME), or ~0ULL when it has none. */
uint64_t perf_data__event_time(struct perf_data *d, union perf_event *event);
/* Count one delivered PERF_RECORD_SAMPLE of the evsel of index evsel_idx
 * (report --stats). */
static inline void perf_data__count_sample(struct perf_data *d, int evsel_idx)
{
	if (evsel_idx >= 0 && evsel_idx < d->nr_evsel_samples)
		d->evsel_samples[evsel_idx]++;
}
/* Number of PERF_RECORD_SAMPLE records of evsel delivered so far. */
uint64_t perf_data__evsel_nr_samples(const struct perf_data *d, const struct evsel *evsel);
/* File offset (bytes) of the record being read or delivered (for records
 * inside a PERF_RECORD_COMPRESSED: the offset of that record). */
uint64_t perf_data__cur_offset(const struct perf_data *d);
/* Mark the offset of the record being delivered (the session, at each). */
void perf_data__set_deliver_offset(struct perf_data *d, uint64_t file_offset);

/* The payload of feature `feat` (HEADER_*) as read (file section or pipe
 * HEADER_FEATURE record; the input's byte order): *buf points into d,
 * valid until perf_data__close(). 0, or -ENOENT when the input has none. */
int perf_data__feature_raw(const struct perf_data *d, int feat, const void **buf, size_t *len);
/* Whether feature `feat` (HEADER_*) is present. */
bool perf_data__has_feat(const struct perf_data *d, int feat);
/* Print the header as `perf report --header-only` does (# lines; full:
 * also the -I sections). Pipe mode: features arrive as records, so call it
 * after reading; they print after the header block, as perf does. */
void perf_data__fprintf_info(struct perf_data *d, FILE *fp, bool full);
/* Print "Aggregated stats" like `perf report --stats`. */
void perf_data__fprintf_stats(struct perf_data *d, FILE *fp);
/* Print attr fields as perf's header does: ", name = value" for every
 * non-zero field, in perf_event_attr__fprintf order (perf 6.1). */
void perf_event_attr__fprintf_desc(FILE *fp, const struct perf_event_attr *attr);
/* The same fields in `perf evlist -v`'s form: each as " name: value",
 * the first after ':' (when *first, which is then cleared), the others
 * after ','. */
void perf_event_attr__fprintf_evlist(FILE *fp, const struct perf_event_attr *attr, bool *first);
/* Name of a record type as perf prints it ("SAMPLE", "FINISHED_ROUND"),
 * "UNKNOWN" for others. */
const char *perf_event__name(unsigned int type);

#endif
