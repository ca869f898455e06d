/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_TOP_H
#define PRF_ANALYSIS_TOP_H
/*
 * What `prf top` keeps between refreshes, over report's hists
 * (util/analysis/hist.h): the counts of the header line, the ageing of
 * hist entries from one refresh to the next, and the entries a refresh
 * shows.
 *
 * Ageing follows perf top's observable rule (perf-top(1): entries decay
 * unless -z): after each refresh every entry's self and children period,
 * its sample counts and its callchain hits keep 7/8 of their value
 * (integer division), so a sample weighs (7/8)^N after N refreshes and an
 * entry no sample hits any more fades out and is gone once its period
 * reaches 0. With -z the hists start empty after each refresh instead.
 * Beyond perf: with a symbol sort key, an entry of an unresolved address
 * (no symbol) whose sample counts have aged to 0 (no sample for a few
 * refreshes) keeps 4/8 instead, so that the one-sample entries of a busy
 * machine's stripped programs, one per address, are gone after some 20
 * refreshes instead of 90; a hot unresolved address ages as perf's.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct evsel;
struct hists;
struct hist_entry;
struct perf_sample;
union perf_event;
struct machine;
struct resolved_sample;
struct sort_order;

/* The samples of one refresh interval, for the header line. */
struct top_counts {
	uint64_t samples;		/* samples delivered */
	uint64_t kernel;		/* of them in kernel mode */
	uint64_t exact;			/* with PERF_RECORD_MISC_EXACT_IP */
	uint64_t lost, lost_total;	/* PERF_RECORD_LOST: this interval, all */
	uint64_t throttles, throttles_total;	/* PERF_RECORD_THROTTLE records */
};

/* What the header line names: the event and the target. */
struct top_header {
	const char *evname;		/* evsel__name() of the event shown */
	uint64_t period;		/* -F Hz or -c period of that event */
	bool freq;			/* period is a frequency (Hz) */
	bool one_event;			/* the only event: period shown */
	const char *pid_str, *tid_str;	/* -p / -t as given */
	const char *cpu_list;		/* -C as given */
	int nr_cpus;			/* cpus sampled */
	double delay_secs;		/* -d */
};

/*
 * perf top's header line for one refresh, without newline, into buf
 * (size bytes, always terminated):
 *   "   PerfTop:    1996 irqs/sec  kernel: 6.4%  exact:  0.0% lost: 0/0
 *    drop: 0/0 [999Hz cpu-clock:ppp],  (all, 2 CPUs)"
 * (one line): samples per second over delay_secs, the kernel and exact
 * shares of them, lost records of the interval / of the run, "drop"
 * always 0/0 (prf drops no samples of its own), then the event and the
 * target as perf 6.1 prints them. Returns the length written.
 */
int top__header(char *buf, size_t size, const struct top_counts *c, const struct top_header *h);

/*
 * The title line of perf top's browser into buf (size bytes, always
 * terminated): "Samples: 12K of event 'cpu-clock:ppp', 4000 Hz, Event
 * count (approx.): 3082750000 lost: 0/0 drop: 0/0" (" [z]" after it with
 * -z): the samples ever taken (hists->nr_samples, with perf's K/M unit),
 * the event and its frequency, the aged total period, the lost records
 * of the interval and of the run.
 */
void top__title(char *buf, size_t size, const struct hists *hists, const struct top_counts *c,
		const struct top_header *h, bool zero);

/*
 * Age every entry of hists by 7/8 (see the top comment); the total period
 * becomes the sum of the entries' self periods again. hists->nr_samples,
 * the number of samples ever added, is kept. When entries gone to 0 are
 * half of a few thousand or more (PRF_TOP_COMPACT_MIN, 4096), or the
 * callchain store has that many nodes and twice those of its last
 * rebuild, hists is rebuilt without them and without the callchain nodes
 * whose chains all decayed (hists__compact(): same address, new entries
 * and tries; pointers to the old ones are stale), so a long run keeps
 * only what it can still show, and the DSOs of the processes gone are
 * let go. 0, or -ENOMEM (hists is then empty).
 */
int top_hists__decay(struct hists *hists);

/*
 * What a long run keeps of the processes that come and go, bounded: at
 * each refresh the threads of machine that exited (PERF_RECORD_EXIT)
 * before the previous refresh are released (machine__release_exited()),
 * their maps with the last thread of their process, then the DSOs no map
 * names any more (machine__release_unused_dsos(): their symbols too), and
 * each of hists[0..nr) forgets its lookups by thread and DSO pointer.
 * The hists must hold references (hists__hold_refs()): a thread, map or
 * DSO an entry or frame still names lives on until that entry is
 * compacted away. Adds the DSOs released to *nr_dsos; returns the number
 * of threads released.
 */
size_t top__release_exited(struct machine *machine, struct hists *hists, size_t nr,
			   size_t *nr_dsos);
/*
 * Two lines for -v at the end, to check that the model stays bounded:
 * "prf top: N exited threads released, M threads in the model, K not yet
 * freed" (released: the sum of top__release_exited()'s; in the model:
 * found by tid; not yet freed: also those hist entries still hold), and
 * "prf top: N unused DSOs released, M DSOs in the model, K not yet
 * freed" (dsos_released, the same counts of DSOs).
 */
void top__fprintf_model(FILE *fp, const struct machine *machine, size_t released,
			size_t dsos_released);

/* What a refresh shows. */
struct top_view {
	size_t max_entries;		/* rows for entries; 0: no limit */
	double min_percent;		/* --percent-limit */
	bool hide_kernel, hide_user;	/* -K / -U: entries of that level hidden */
};

/*
 * After hists__output_resort(): narrow hists->sorted, in order, to the
 * entries a refresh shows (not created by a filtered sample, with period
 * left: self, or children when cumulating, at least v->min_percent, not
 * of a hidden level), at most v->max_entries of them, and compute so's
 * column widths over those only (as perf top sizes its columns by the
 * rows it prints). The next hists__output_resort() builds the whole list
 * again. Returns the number of entries kept.
 */
size_t top_hists__narrow(struct hists *hists, struct sort_order *so, const struct top_view *v);

/*
 * Samples held back while symbols of a DSO they name load in the
 * background (util/model/dso-loader.h), as perf top shows a sample only
 * once its symbols are there: each a copy of its PERF_RECORD_SAMPLE
 * record and what resolving it found when it came (its evsel, thread,
 * comm, location and callchain frames, with references to the thread and
 * to each map), in the order they came, so that it is counted against
 * the maps of that moment however the process changed since (exec,
 * munmap, exit and release by the model).
 */
struct top_held {
	char *buf;			/* records, each after a struct held_rec */
	size_t len, cap;		/* bytes */
	size_t nr;			/* records */
};

/* Keep a copy of event (a live session's sample record, host byte order)
 * and of rs, what resolving it found (its callchain frames too when
 * chain): thread, comm, rs->al and the frames, taking a reference to the
 * thread and to each map. 0 or -ENOMEM. */
int top_held__add(struct top_held *h, const union perf_event *event,
		  const struct resolved_sample *rs, bool chain);

/*
 * Hand each held record to fn(arg, event, rs, deferrals), oldest first:
 * rs (the caller's, its cursor used for the frames) filled as when the
 * record came (sample parsed again: evsel__parse_sample()), except that
 * the location and each frame without a symbol have it looked up again in
 * the map they came with (dso__find_symbol(): loaded by now, or deferred
 * again: dso__load_deferrals() is then above the deferrals passed, and fn
 * may hold the record back again, top_held__add() on h, emptied first).
 * After fn's first non-zero return the records left are dropped, and it is
 * returned; else 0. The references of the records are dropped.
 */
int top_held__replay(struct top_held *h, struct resolved_sample *rs,
		     int (*fn)(void *arg, union perf_event *event, struct resolved_sample *rs,
			       unsigned long deferrals),
		     void *arg);

/* Drop the references of what h holds and free it. */
void top_held__exit(struct top_held *h);

#endif
