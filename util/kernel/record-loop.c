// SPDX-License-Identifier: GPL-2.0
/* The ring buffers of a recording and the loop draining them; see record-loop.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include "record-loop.h"
#include "cpumap.h"
#include "evlist.h"
#include "evsel.h"
#include "mmap.h"
#include "thread_map.h"
#include "../lib/debug.h"

/* The buffer of event fd (cpu index c, thread index t): mapped for the
 * first fd that lands in it, the others redirected into it. 0 or -errno. */
static int record_loop__attach(struct record_loop *rl, int fd, struct perf_mmap *m, int cpu,
			       unsigned int pages, bool backward)
{
	if (!m->base) {
		int err = backward ? perf_mmap__mmap_backward(m, fd, cpu, pages) :
				     perf_mmap__mmap(m, fd, cpu, pages);

		if (err) {
			pr_err("failed to mmap with %d (%s)%s\n", -err, strerror(-err),
			       err == -EPERM ?
			       ": consider a smaller -m or raising /proc/sys/kernel/perf_event_mlock_kb" : "");
			return err;
		}
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->fd) < 0) {
		int err = -errno;

		pr_err("failed to redirect event output: %s\n", strerror(errno));
		return err;
	}
	if (backward)	/* always readable: never waited for */
		return 0;
	rl->pfd[rl->nr_pfd].fd = fd;
	rl->pfd[rl->nr_pfd].events = POLLIN;
	rl->nr_pfd++;
	return 0;
}

int record_loop__mmap(struct record_loop *rl, struct evlist *evlist, struct perf_cpu_map *cpus,
		      struct perf_thread_map *threads, bool per_thread, unsigned int pages)
{
	int nr = per_thread ? perf_thread_map__nr(threads) : perf_cpu_map__nr(cpus);
	struct evsel *evsel;
	int nfds = 0;

	memset(rl, 0, sizeof(*rl));
	rl->mmaps = calloc((size_t)nr, sizeof(*rl->mmaps));
	rl->bw_mmaps = calloc((size_t)nr, sizeof(*rl->bw_mmaps));
	evlist__for_each_entry(evlist, evsel)
		nfds += evsel->nr_cpus * evsel->nr_threads;
	rl->pfd = calloc((size_t)nfds + 1, sizeof(*rl->pfd));
	if (!rl->mmaps || !rl->bw_mmaps || !rl->pfd)
		return -ENOMEM;
	rl->nr_mmaps = nr;
	for (int i = 0; i < nr; i++)
		rl->mmaps[i].fd = rl->bw_mmaps[i].fd = -1;
	evlist__for_each_entry(evlist, evsel) {
		for (int c = 0; c < evsel->nr_cpus; c++) {
			for (int t = 0; t < evsel->nr_threads; t++) {
				int fd = evsel->fds[c * evsel->nr_threads + t];
				int err;

				if (fd < 0)
					continue;
				bool bw = evsel->attr.write_backward;
				struct perf_mmap *maps = bw ? rl->bw_mmaps : rl->mmaps;

				err = record_loop__attach(rl, fd, &maps[per_thread ? t : c],
							  per_thread ? -1 : perf_cpu_map__cpu(cpus, c),
							  pages, bw);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

void record_loop__munmap(struct record_loop *rl)
{
	for (int i = 0; rl->mmaps && i < rl->nr_mmaps; i++)
		perf_mmap__munmap(&rl->mmaps[i]);
	for (int i = 0; rl->bw_mmaps && i < rl->nr_mmaps; i++)
		perf_mmap__munmap(&rl->bw_mmaps[i]);
	free(rl->mmaps);
	free(rl->bw_mmaps);
	rl->bw_mmaps = NULL;
	free(rl->pfd);
	rl->mmaps = NULL;
	rl->pfd = NULL;
	rl->nr_mmaps = rl->nr_pfd = 0;
}

/* Pass ring bytes [from, to) of m on, in its (at most two) contiguous pieces. */
static void record_loop__write(struct perf_mmap *m, uint64_t from, uint64_t to,
			       const struct record_loop_ops *ops, void *arg)
{
	const void *p1, *p2;
	size_t l1, l2;

	if (to <= from)
		return;
	perf_mmap__pieces(m, from, to, &p1, &l1, &p2, &l2);
	if (ops->write(arg, p1, l1))
		return;
	if (l2)
		ops->write(arg, p2, l2);
}

/* Pass one buffer's window (set by its read_init) on; the bytes. */
static uint64_t record_loop__pass(struct perf_mmap *m, const struct record_loop_ops *ops, void *arg)
{
	uint64_t from = m->start, begin = m->start;
	union perf_event *ev;

	/* whole records; stops before a partial one */
	while ((ev = perf_mmap__read_event(m)) != NULL) {
		if (ops->whole_records && ev == (union perf_event *)m->bounce) {
			/* a record across the ring's end: what precedes it,
			 * then its contiguous copy */
			size_t size = ((struct perf_event_header *)ev)->size;

			record_loop__write(m, from, m->start - size, ops, arg);
			ops->write(arg, ev, size);
			from = m->start;
		}
		if (ops->event)
			ops->event(arg, ev);
	}
	/* with whole_records, the ring's end is a record boundary here:
	 * the record across it went out above */
	record_loop__write(m, from, m->start, ops, arg);
	perf_mmap__consume(m, m->start);
	return m->start - begin;
}

uint64_t record_loop__drain(struct record_loop *rl, const struct record_loop_ops *ops, void *arg)
{
	uint64_t total = 0;

	for (int i = 0; i < rl->nr_mmaps; i++) {
		struct perf_mmap *m = &rl->mmaps[i];

		if (m->base && perf_mmap__read_init(m))
			total += record_loop__pass(m, ops, arg);
	}
	if (total && ops->round)
		ops->round(arg);
	return total;
}

uint64_t record_loop__drain_backward(struct record_loop *rl, const struct record_loop_ops *ops,
				     void *arg)
{
	uint64_t total = 0;

	for (int i = 0; rl->bw_mmaps && i < rl->nr_mmaps; i++) {
		struct perf_mmap *m = &rl->bw_mmaps[i];

		if (!m->base)
			continue;
		/* the kernel must not write while the window is read */
		ioctl(m->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
		if (perf_mmap__read_backward_init(m))
			total += record_loop__pass(m, ops, arg);
		ioctl(m->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	}
	if (total && ops->round)
		ops->round(arg);
	return total;
}

void record_loop__set_ctl_fd(struct record_loop *rl, int fd)
{
	/* the spare slot record_loop__mmap() keeps after the event fds */
	rl->pfd[rl->nr_pfd].fd = fd;
	rl->pfd[rl->nr_pfd].events = POLLIN;
	rl->has_ctl = fd >= 0;
}

void record_loop__run(struct record_loop *rl, struct evlist *evlist,
		      const struct record_loop_ops *ops, void *arg, volatile sig_atomic_t *stop)
{
	while (!__atomic_load_n(stop, __ATOMIC_RELAXED)) {
		bool end = false;
		int n, alive = 0;

		if (record_loop__drain(rl, ops, arg))
			continue;
		if (__atomic_load_n(stop, __ATOMIC_RELAXED))
			break;
		n = poll(rl->pfd, (nfds_t)(rl->nr_pfd + rl->has_ctl),
			 rl->poll_ms > 0 ? rl->poll_ms : RECORD_LOOP_POLL_MS);
		rl->wakeups++;	/* as perf: every poll counts */
		if (n > 0 && rl->has_ctl && (rl->pfd[rl->nr_pfd].revents & POLLIN) && ops->ctl)
			ops->ctl(arg);
		if (n > 0) {
			for (int i = 0; i < rl->nr_pfd; i++) {
				if (rl->pfd[i].revents & (POLLHUP | POLLERR))
					rl->pfd[i].fd = -1;
			}
		}
		for (int i = 0; i < rl->nr_pfd; i++)
			alive += rl->pfd[i].fd >= 0;
		if (!alive)
			end = true;
		if (ops->woken && ops->woken(arg))
			end = true;
		if (end)
			break;
	}
	evlist__disable(evlist);
	record_loop__drain(rl, ops, arg);
}
