/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SCHED_INTERNAL_H
#define PRF_ANALYSIS_SCHED_INTERNAL_H
/*
 * State shared by the sched analysis files (sched.c: tasks, events,
 * latency, map; sched-timehist.c; sched-replay.c). Private to them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "sched.h"
#include "stat.h"
#include "../session/trace-format.h"

struct evsel;
struct perf_session;
struct trace_formatter;
struct perf_cpu_map;
struct thread;
struct resolved_sample;

#define SCHED_MAX_CPUS 4096
#define NSEC_PER_MSEC ((uint64_t)1000000)

/* What a sched evsel is to the analysis. */
enum sched_ev {
	SEV_NONE,
	SEV_SWITCH,
	SEV_WAKEUP,		/* sched_wakeup: ignored when sched_waking was recorded */
	SEV_WAKING,
	SEV_WAKEUP_NEW,
	SEV_MIGRATE,
	SEV_RUNTIME,
};

/* The payload fields the analysis reads, resolved once per evsel. */
enum sched_field {
	SF_PREV_PID,
	SF_NEXT_PID,
	SF_PREV_STATE,
	SF_PREV_COMM,
	SF_NEXT_COMM,
	SF_PID,
	SF_COMM,
	SF_RUNTIME,
	SF_ORIG_CPU,
	SF_DEST_CPU,
	SF_NR
};

struct sched_evfields {
	bool resolved;
	struct trace_field f[SF_NR];
};

/* latency: the last work atom of a task (perf keeps the list; only its
 * tail is ever looked at) and the task's sums. */
enum atom_state { ATOM_SLEEPING, ATOM_WAIT_CPU, ATOM_SCHED_IN, ATOM_IGNORE };

/* latency --callchain: the raw callchain of the event a delay began with */
struct lat_chain {
	uint64_t *ips;
	uint32_t nr, alloc;
	struct evsel *evsel;	/* the event's (its sample_type) */
	uint32_t pid, tid, cpu;	/* whose stack: the waker's, or the task's own */
	uint8_t cpumode;
	bool preempted;		/* the task was switched out runnable */
	uint64_t time;
};

struct lat_task {
	bool known;		/* has atoms (perf: a work_atoms node) */
	bool has_atom;
	enum atom_state state;
	uint64_t sched_out_time, wake_up_time, sched_in_time;
	uint64_t max_lat, max_lat_start, max_lat_end, total_lat, nb_atoms, total_runtime;
	unsigned int order;	/* creation order, for perf's tree ties */
	struct lat_chain pend, max_chain;	/* --callchain */
};

/* timehist: per-task run/wait accounting (perf's thread_runtime). */
struct th_task {
	bool known;
	uint64_t last_time, ready_to_run;
	uint64_t dt_run, dt_sleep, dt_iowait, dt_preempt, dt_delay;
	struct stats run_stats;
	uint64_t run_min, run_max;
	uint64_t total_run_time, total_sleep_time, total_iowait_time;
	uint64_t total_preempt_time, total_delay_time;
	int64_t last_state;
	uint64_t migrations;
};

struct sched_task {
	pid_t tid;
	struct sched_task *next;	/* hash chain */
	struct lat_task lat;
	struct th_task th;
	char shortname[3];	/* map */
	bool comm_changed;
	bool color;
	bool forked;		/* a FORK record made it: parent is its ptid */
	pid_t parent;
	bool has_pid;		/* process id perf's thread has, where prf's */
	pid_t pid;		/*   model keeps another (see sched__fork_begin) */
	char *retired_comm;	/* retired: the comm it had (owned), */
	pid_t retired_pid, retired_ppid;	/* its process and parent */
	unsigned int retired_order;
};

struct sched {
	struct sched_opts o;
	struct perf_session *session;
	struct trace_formatter *tf;
	unsigned char *ev_kind;		/* by evsel idx */
	struct sched_evfields *evf;	/* by evsel idx, nr_ev_kind of them */
	int nr_ev_kind;
	bool have_waking;

	struct sched_task **hash;
	unsigned int hash_size, nr_tasks;
	struct sched_task **retired;	/* replaced by a FORK (latency rows) */
	unsigned int nr_retired;

	/* per cpu */
	uint64_t *cpu_last_switched;
	uint32_t *curr_pid;
	pid_t *curr_tid;		/* map: task on each cpu, -1 none */
	uint64_t *switch_last_time;	/* timehist: last sched_switch per cpu */
	int max_cpu;

	/* latency */
	struct lat_key { int (*cmp)(const void *, const void *); } keys[8];
	int nr_keys;
	unsigned long nr_timestamps, nr_unordered_timestamps, nr_context_switch_bugs;
	unsigned int next_order;

	/* map */
	bool tty;
	char next_shortname1, next_shortname2;
	struct perf_cpu_map *map_cpus, *color_cpu_map;
	int *comp_cpus, nr_comp_cpus;
	pid_t *color_tids;
	int nr_color_tids;

	/* timehist */
	struct perf_cpu_map *cpus;	/* -C */
	pid_t *filter_pids, *filter_tids;
	int nr_filter_pids, nr_filter_tids;
	int comm_width;
	struct th_task *idle;		/* per cpu */
	pid_t *idle_last;		/* -I: per cpu, the task before idle */
	int nr_idle;
	uint64_t hist_start, hist_end;
	uint64_t skipped_samples;
	char *obuf;			/* the lines not yet given to stdout */
	size_t olen;

	struct resolved_sample *rs;	/* callchains, made on first use */

	/* sched__thread(): the machine's threads by tid, direct mapped (the
	 * machine never frees a thread while the session lives, nor makes
	 * a known pid unknown again) */
	struct { pid_t tid; bool pid_known; struct thread *t; } tcache[1024];

	/* replay */
	void *replay;
};

/* The task of tid, created when new. NULL on ENOMEM. */
struct sched_task *sched__task(struct sched *sc, pid_t tid);
/* The process id perf shows for thread t. */
pid_t sched__pid(struct sched *sc, const struct thread *t);
/* All tasks, in creation order of the hash walk (caller frees). */
struct sched_task **sched__tasks(struct sched *sc, unsigned int *nr);
/* The fields of a sched evsel (its idx is in ev_kind), resolved at its
 * first sample. */
const struct trace_field *sched__fields_resolve(struct sched *sc, struct evsel *evsel);

/* Numeric payload field of a sched sample (0 when missing): an int or a
 * long of the host's byte order inside the payload read here, anything
 * else as trace_field__u64(). */
static inline uint64_t sched__field(struct sched *sc, struct evsel *evsel,
				    struct perf_sample *sample, enum sched_field field)
{
	const struct sched_evfields *e = &sc->evf[evsel->idx];
	const struct trace_field *f = e->resolved ? &e->f[field] :
				      &sched__fields_resolve(sc, evsel)[field];
	uint64_t v = 0;

	if (f->kind == TRACE_FIELD_NUM && !f->swap && sample->raw_data &&
	    (uint64_t)f->offset + (uint64_t)f->size <= sample->raw_size) {
		const char *p = (const char *)sample->raw_data + f->offset;

		if (f->size == 4) {
			int32_t i;

			memcpy(&i, p, 4);
			return f->is_signed ? (uint64_t)(int64_t)i : (uint32_t)i;
		}
		if (f->size == 8) {
			memcpy(&v, p, 8);
			return v;
		}
	}
	if (trace_field__u64(f, sample, &v))
		return 0;
	return v;
}
void sched__field_str(struct sched *sc, struct evsel *evsel, struct perf_sample *sample,
		      enum sched_field field, char *buf, size_t size);
/* The machine's thread of tid, made with pid as perf's machine__findnew_thread()
 * (the same thread, and the same update of an unknown pid, without its
 * lookup when the thread is in the cache). NULL on ENOMEM. */
struct thread *sched__thread(struct sched *sc, pid_t pid, pid_t tid);
/*
 * Print the callchain of sample as perf sched prints it on one line
 * (" f1 <- f2 <- [unknown]"): up to max frames of the chain, the
 * scheduler's own functions (schedule, __schedule, preempt_schedule) left
 * out. 0 or -ENOMEM.
 */
int sched__print_chain(struct sched *sc, struct perf_sample *sample, struct evsel *evsel,
		       unsigned int max, FILE *fp);
/* "sec.usec" as perf's timestamp__scnprintf_usec(). */
void sched__tstamp(uint64_t ns, char *buf, size_t size);

/*
 * Text writers for the per-event lines (printf's formats, without its
 * parsing): each writes at w, which has room enough, and returns the
 * end. No NUL is written.
 */
/* n copies of c (none when n <= 0) */
static inline char *sched_w_fill(char *w, char c, int n)
{
	if (n > 0) {
		memset(w, c, (size_t)n);
		w += n;
	}
	return w;
}

/* v in decimal, right-aligned in width with pad ("%*llu", "%0*llu"),
 * two digits at a time */
static inline char *sched_w_udec(char *w, uint64_t v, int width, char pad)
{
	static const char pairs[] =
		"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
		"5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
	char tmp[20], *e = tmp + sizeof(tmp), *p = e;
	int n;

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	n = (int)(e - p);
	w = sched_w_fill(w, pad, width - n);
	for (int i = 0; i < n; i++)
		w[i] = p[i];
	return w + n;
}

/* v in decimal ("%d") */
static inline char *sched_w_sdec(char *w, int64_t v)
{
	if (v < 0) {
		*w++ = '-';
		return sched_w_udec(w, (uint64_t)0 - (uint64_t)v, 0, ' ');
	}
	return sched_w_udec(w, (uint64_t)v, 0, ' ');
}

/* s (len bytes) padded to width: "%-*s" when left, else "%*s" */
static inline char *sched_w_str(char *w, const char *s, size_t len, int width, bool left)
{
	if (!left)
		w = sched_w_fill(w, ' ', width - (int)len);
	memcpy(w, s, len);
	w += len;
	return left ? sched_w_fill(w, ' ', width - (int)len) : w;
}

/* sched__tstamp()'s text right-aligned in width ("%*s"; at most
 * width + 27 bytes): usec in three digit pairs, then the seconds */
static inline char *sched_w_tstamp(char *w, uint64_t ns, int width)
{
	char tmp[32], *e = tmp + sizeof(tmp), *p = e;
	uint64_t sec = ns / 1000000000;
	uint32_t usec = (uint32_t)((ns % 1000000000) / 1000);

	for (int i = 0; i < 3; i++) {
		p -= 2;
		p[0] = (char)('0' + usec % 100 / 10);
		p[1] = (char)('0' + usec % 10);
		usec /= 100;
	}
	*--p = '.';
	do {
		*--p = (char)('0' + sec % 10);
		sec /= 10;
	} while (sec);
	return sched_w_str(w, p, (size_t)(e - p), width, false);
}

/* -g: say so (perf's words) and stop asking when a event has no callchains */
void sched__timehist_check_chains(struct sched *sc);
int sched__timehist_start(struct sched *sc);
int sched__timehist_event(struct sched *sc, enum sched_ev kind, struct evsel *evsel,
			  struct perf_sample *sample);
void sched__timehist_lost(struct sched *sc, uint64_t lost, struct perf_sample *sample);
int sched__timehist_finish(struct sched *sc);
void sched__timehist_exit(struct sched *sc);

int sched__replay_event(struct sched *sc, enum sched_ev kind, struct evsel *evsel,
			struct perf_sample *sample);
int sched__replay_start(struct sched *sc);
int sched__replay_fork(struct sched *sc, pid_t ppid, pid_t ptid, pid_t pid, pid_t tid);
int sched__replay_finish(struct sched *sc);
void sched__replay_exit(struct sched *sc);

#endif
