/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_RECORD_LOOP_H
#define PRF_KERNEL_RECORD_LOOP_H
/*
 * The ring buffers of a recording and the loop that empties them while the
 * events run: one buffer per cpu (per thread with --per-thread), every
 * other fd of that cpu/thread redirected into it (PERF_EVENT_IOC_SET_OUTPUT),
 * drained in passes over all buffers, sleeping in poll(2) when a pass found
 * nothing, and drained once more after the events are disabled, so that
 * nothing the kernel wrote before the disable is lost. Buffer protocol:
 * util/kernel/mmap.h (perf_event_open(2), "MMAP layout").
 *
 * What becomes of the bytes is the consumer's: struct record_loop_ops gets
 * each buffer's new data (to write out) and each record in it (to look at).
 */
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evlist;
struct perf_cpu_map;
struct perf_thread_map;
struct perf_mmap;
union perf_event;

/* poll(2) timeout of record_loop__run(), ms: the stop flag and the
 * woken() hook are looked at least this often. */
#define RECORD_LOOP_POLL_MS 500

struct record_loop {
	struct perf_mmap *mmaps;	/* nr_mmaps buffers, owned */
	struct perf_mmap *bw_mmaps;	/* nr_mmaps buffers of write_backward events
					 * (record --overwrite), owned; unused ones unmapped */
	int nr_mmaps;
	struct pollfd *pfd;		/* every event fd (POLLIN); -1 once hung up */
	int nr_pfd;
	uint64_t wakeups;		/* poll(2) calls made by record_loop__run() */
	bool has_ctl;			/* pfd[nr_pfd] is the control fd */
	int poll_ms;			/* poll(2) timeout of record_loop__run(), ms;
					 * 0: RECORD_LOOP_POLL_MS (set after mapping) */
};

struct record_loop_ops {
	/*
	 * New bytes of one buffer, in ring order, in one or two calls per
	 * drain of that buffer (the ring's wrap-around splits them). With
	 * whole_records, every call holds whole records (a record that wraps
	 * comes in a call of its own, from a copy); else a record may be cut
	 * between two calls. Non-zero: the rest of this buffer's bytes of this
	 * drain are not passed on (they are consumed all the same).
	 */
	int (*write)(void *arg, const void *buf, size_t len);
	/* Each record read, in ring order; valid during the call only. May be NULL. */
	void (*event)(void *arg, const union perf_event *event);
	/* After a drain pass over all buffers that read something (e.g. to
	 * write PERF_RECORD_FINISHED_ROUND). May be NULL. */
	void (*round)(void *arg);
	/* After every poll(2) (data, timeout or signal); true ends the loop
	 * (e.g. the workload was reaped). May be NULL. */
	bool (*woken)(void *arg);
	/* The control fd (record_loop__set_ctl_fd()) is readable. May be NULL. */
	void (*ctl)(void *arg);
	bool whole_records;		/* write() wants whole records (compression) */
};

/*
 * Map one buffer of `pages` data pages (a power of two) per cpu of cpus
 * (per thread of threads when per_thread) for the open evsels of evlist,
 * redirect their other fds into it and list every fd for poll(2); events
 * with attr.write_backward get buffers of their own (bw_mmaps, read-only).
 * rl is zeroed first. Returns 0 or -errno, after a message (mmap(2)'s
 * errno, with the perf_event_mlock_kb hint for -EPERM; the SET_OUTPUT
 * ioctl's); what was mapped stays for record_loop__munmap().
 */
int record_loop__mmap(struct record_loop *rl, struct evlist *evlist, struct perf_cpu_map *cpus,
		      struct perf_thread_map *threads, bool per_thread, unsigned int pages);
/*
 * Read every write_backward buffer once (record --overwrite: at the end or
 * for a snapshot): its output paused, its records newest first from the
 * kernel's head over at most the buffer's size, passed to ops->write() and
 * ops->event() as record_loop__drain() does, then ops->round(). Those
 * buffers are never drained by record_loop__drain() nor waited for in
 * record_loop__run(). Returns the bytes read.
 */
uint64_t record_loop__drain_backward(struct record_loop *rl, const struct record_loop_ops *ops,
				     void *arg);
/*
 * Also wait for fd (record --control) in record_loop__run(): when it is
 * readable, ops->ctl() is called. It does not count as a buffer (its
 * hang-up is ignored). After record_loop__mmap().
 */
void record_loop__set_ctl_fd(struct record_loop *rl, int fd);
/* Unmap the buffers and free the arrays; safe on a zeroed or failed rl. */
void record_loop__munmap(struct record_loop *rl);

/*
 * One pass over every buffer: pass its new bytes to ops->write() and its
 * records to ops->event(), give the space back to the kernel, then call
 * ops->round() when anything was read. Returns the bytes read.
 */
uint64_t record_loop__drain(struct record_loop *rl, const struct record_loop_ops *ops, void *arg);

/*
 * Drain until *stop is set (a signal handler, or ops->write() on an error),
 * until every fd hung up (the traced tasks are gone) or until ops->woken()
 * says so: drain passes follow each other while they find data, else
 * poll(2) waits up to RECORD_LOOP_POLL_MS for a buffer's wake-up. Then
 * disable the events of evlist (PERF_EVENT_IOC_DISABLE) and drain once
 * more. *stop is read atomically: another thread (a TUI's) may set it
 * with record_loop__set_stop().
 */
void record_loop__run(struct record_loop *rl, struct evlist *evlist,
		      const struct record_loop_ops *ops, void *arg, volatile sig_atomic_t *stop);

/* Set a record_loop__run() stop flag from a signal handler or any thread
 * (an atomic store, async-signal-safe). */
static inline void record_loop__set_stop(volatile sig_atomic_t *stop)
{
	__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
}

#endif
