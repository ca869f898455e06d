/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_SESSION_H
#define PRF_SESSION_SESSION_H
/*
 * Session: one perf.data input (util/format/data.h: the header, evlist,
 * features and records) read into the machine model (util/model/), with
 * every record delivered in timestamp order across CPUs (ordered queue
 * flushed on FINISHED_ROUND and at the end) to one perf_tool, DWARF
 * samples unwound ahead on worker threads where that pays. report,
 * script and every exporter share this one session, and resolve samples
 * through it (resolve.h: sample__resolve()).
 *
 * Side-band records (COMM, MMAP, MMAP2, FORK, EXIT, KSYMBOL, ...) reach the
 * machine model through the default callbacks perf_tool__init() installs;
 * a consumer overriding one calls machine__process_event() itself.
 *
 * Bad input: a record with an impossible size or type is reported with the
 * file and its offset ("PATH: bad record at offset 0x...: ..."), skipped
 * where its size allows, else processing stops; what was read stays
 * delivered, and the command ends with perf_session__read_status() (below)
 * for the summary and the exit status. A file whose header says data size 0
 * (killed recorder) is read to its end.
 */
#include <stdbool.h>
#include <stdio.h>
#include "../format/data.h"

struct build_id;
struct evsel;
struct evlist;
struct machine;
struct perf_tool;
struct perf_session;
struct off_cpu;

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
	/* Each build-id the input lists (HEADER_BUILD_ID: the feature section
	 * of a file, during perf_session__new(); a pipe's records, while
	 * processing), in the input's order: the DSO's path as recorded, its
	 * build-id, whether its cpumode is a kernel one. All valid during the
	 * call only. NULL: not wanted. */
	void (*header_build_id)(struct perf_tool *tool, const char *filename,
				const struct build_id *bid, bool kernel);
	/*
	 * Optional filter of samples as they are read, before they are
	 * queued for ordered delivery: evsel and the sample's cpu
	 * (PERF_SAMPLE_CPU, read in place; (u32)-1 when there is none).
	 * A sample it returns false for is counted (as delivered ones are,
	 * perf_data__count_sample()) but not parsed, queued or given to
	 * sample() (nor checked: a damaged one goes unreported). Samples
	 * without a known evsel are delivered (and reported) as usual.
	 * NULL: every sample is delivered.
	 */
	bool (*sample_wanted)(struct perf_tool *tool, struct evsel *evsel, u32 cpu);
	bool ordered_events;	/* deliver in time order (default true) */
	/* The tool reads a sample's fixed fields only, never its user stack
	 * dump or registers (no DWARF unwinding): a data section too small
	 * for the reader's helper thread is then read in the file mapping
	 * (perf_data_ops.sparse), where the stack dumps of a --call-graph
	 * dwarf recording are not copied. Default false. */
	bool samples_sparse;
	bool show_progress;	/* progress on a terminal (ui/progress) */
};

/* Defaults: side-band -> machine__process_event(); sample -> ignored;
 * user records consumed by the session itself. */
void perf_tool__init(struct perf_tool *tool, bool ordered_events);

struct perf_session {
	struct perf_data data;		/* the input: header, evlist, env, stats */
	struct machine *machine;	/* host machine; owned */
	struct perf_tool *tool;		/* not owned */
	void *ordered;			/* ordered-events queue (private) */
	/* parallel DWARF unwinding (util/model/unwind.h): threads to use
	 * (0: unwind__parallel_threads(), 1: off); the rest is private */
	int unwind_threads;
	struct unwind_batch *unwind_batch;
	bool unwind_parallel_off;
	/* off-CPU spans (off-cpu.h), when the tool enabled them */
	struct off_cpu *oc;
	bool off_cpu_wanted, off_cpu_setup;
	int off_cpu_err;
	/* Progress of perf_session__process_events(), for a bar
	 * (ui/progress.h: ui_progress__reading()): called before the first
	 * record with done 0, about every 1024 records with the bytes of the
	 * data section read so far, and once with end set when reading is
	 * over; total: the data section's bytes, 0 for a stream (size
	 * unknown). NULL (default): none. Set it before processing. */
	void (*progress)(uint64_t done, uint64_t total, bool end);
	uint64_t nr_progress;		/* records since the start (private) */
	/* -D/--dump-raw-trace: every record printed on stdout as perf 6.1
	 * prints it (dump.h), user records as read, the others as
	 * delivered; dump_script: as perf script's handlers take them
	 * (else report's). Set before processing. */
	bool dump, dump_script;
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
/*
 * Off-CPU recordings (prf record --off-cpu, util/session/off-cpu.h): the
 * session turns the sched_switch samples and the switch-ins into
 * offcpu-time samples, delivered to tool->sample with the off_cpu's pseudo
 * evsel (period: ns off CPU) when each span ends; the sched_switch samples
 * themselves are not delivered. Call before processing. Other inputs are
 * delivered as they are.
 */
void perf_session__enable_off_cpu(struct perf_session *session);
/*
 * The session's off-CPU accounter, made at the first call once off-CPU was
 * enabled (file: the evlist is known at once; pipe: call it from the first
 * sample); its pseudo evsel is then in the session's evlist. NULL with
 * *err = 0 when off-CPU is not enabled or the input is no off-CPU
 * recording; NULL with *err < 0 (every later call too) on error. Owned by
 * the session.
 */
struct off_cpu *perf_session__off_cpu(struct perf_session *session, int *err);
/* Deliver every record to session->tool. 0, or the first negative errno
 * a callback returned, or -EIO/-EINVAL when the input ended badly (after
 * delivering what was read; session->data.summary says where and why). */
int perf_session__process_events(struct perf_session *session);

/*
 * Deliver one record that is no file's (a ring buffer's or a synthesized
 * one, live.h) to session->tool, as perf_session__process_events() does a
 * file's records; the tool must not ask for ordered events (the record is
 * valid during the call only). 0 or the callback's negative errno.
 */
int perf_session__deliver_live(struct perf_session *session, union perf_event *event);

/*
 * The read-side rule for damaged input, one call at the end of every
 * command that reads a perf.data (after its output is written, and after
 * a full-screen UI is closed):
 *
 *   - reading stopped before the end of the data (a record of impossible
 *     size, a truncated file or stream, a read error): the output covers
 *     the records read before the stop. Prints to stderr
 *       "prf CMD: PATH: partial result: reading stopped at offset 0x2070
 *        (record size too small); 2621000 of 2629208 bytes of the data
 *        section (99.7%) not read, about 14000 records; 640 records read"
 *     and, without force, a second line saying the exit status is 1 and
 *     that -f/--force accepts a partial result. Returns 1 (0 with force).
 *   - single records skipped and reading went on (unknown type, too short
 *     for their sample_type, an id no attr has, a bad compressed payload):
 *       "prf CMD: warning: PATH: 3 of 80123 records skipped (bad or
 *        unprocessable, see above); the rest was read"
 *     Returns 0.
 *   - read whole: prints nothing, returns 0.
 *
 * rs: the summary (perf_data.summary, or a copy kept after the session
 * was deleted); cmd: the command's name for the prefix ("report",
 * "script"); path: the input as the user named it. A builtin returns the
 * result as its exit status (when nothing else failed); an error of its
 * own (1) wins. Never exits.
 */
int read_summary__finish(const struct read_summary *rs, const char *cmd, const char *path,
			 bool force);
/* read_summary__finish() on the session's input (session->data). */
int perf_session__read_status(struct perf_session *session, const char *cmd, bool force);
/* Was err, from perf_session__process_events(), the input's damage (the
 * summary says so, what was read is delivered) rather than a failure? */
bool perf_session__input_damage(const struct perf_session *session, int err);

#endif
