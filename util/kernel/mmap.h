/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_MMAP_H
#define PRF_KERNEL_MMAP_H
/*
 * One perf ring buffer: the mmap of 1 + 2^n pages of a sampling event fd
 * (the first page is struct perf_event_mmap_page, the rest the data area).
 * Read protocol as perf_event_open(2) "MMAP layout" prescribes: load
 * data_head with acquire semantics, read records between data_tail and
 * data_head, then store data_tail with release semantics so the kernel can
 * reuse the space. Records that wrap around the end of the data area are
 * copied into a bounce buffer so callers always see contiguous records.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <linux/perf_event.h>

struct perf_mmap {
	struct perf_event_mmap_page *base;	/* NULL when unmapped */
	int fd;			/* the event fd the buffer belongs to (not owned) */
	int cpu;		/* cpu of the buffer, -1 for per-thread */
	size_t data_size;	/* bytes in the data area (power of two) */
	size_t mask;		/* data_size - 1 */
	uint64_t start, end;	/* the window [start, end) read by perf_mmap__read_init() */
	char *bounce;		/* wrap-around copy, data_size bytes, owned */
	bool backward;		/* write_backward ring, mapped read-only */
};

/*
 * Map `pages` data pages (power of two, >= 1) plus the control page of fd,
 * read-write (so data_tail is honoured). Returns 0 or -errno (-EINVAL when
 * pages is not a power of two, mmap(2)'s errno otherwise, e.g. -EPERM over
 * perf_event_mlock_kb).
 */
int perf_mmap__mmap(struct perf_mmap *map, int fd, int cpu, unsigned int pages);
/*
 * perf_mmap__mmap() for an event with attr.write_backward (record
 * --overwrite): mapped read-only, so the kernel overwrites the oldest
 * records instead of stopping (perf_event_open(2): "the kernel will not
 * wait for the reader" when the mapping has no PROT_WRITE). Read it with
 * perf_mmap__read_backward_init() while paused; never consume.
 */
int perf_mmap__mmap_backward(struct perf_mmap *map, int fd, int cpu, unsigned int pages);
/*
 * The window of a write_backward ring (pause its output first,
 * PERF_EVENT_IOC_PAUSE_OUTPUT): from data_head, where the newest record
 * is, forward over whole records, newest first, up to the first unused
 * (zero) header or the last record that fits in data_size bytes (an older
 * one is partly overwritten). Sets start/end for perf_mmap__read_event()
 * and perf_mmap__pieces(); returns the bytes.
 */
size_t perf_mmap__read_backward_init(struct perf_mmap *map);
/* Unmap and free the bounce buffer; safe on an unmapped struct. */
void perf_mmap__munmap(struct perf_mmap *map);

/*
 * Snapshot the readable window: start = data_tail, end = data_head (acquire
 * load). Returns the number of readable bytes (0: nothing new).
 */
size_t perf_mmap__read_init(struct perf_mmap *map);

/*
 * Next complete record of the window, or NULL at its end. The pointer is
 * into the ring, or into the bounce buffer for a record that wraps; valid
 * until the next call or perf_mmap__consume().
 */
union perf_event;
union perf_event *perf_mmap__read_event(struct perf_mmap *map);

/*
 * The window [from, to) as at most two contiguous pieces of the ring
 * (to = map->end when the whole window is wanted). Pieces point into the
 * ring; *len2 is 0 when the range does not wrap.
 */
void perf_mmap__pieces(struct perf_mmap *map, uint64_t from, uint64_t to,
		       const void **p1, size_t *len1, const void **p2, size_t *len2);

/* Give every byte up to `pos` back to the kernel (release store of
 * data_tail). Usually pos = map->end after the window was written out. */
void perf_mmap__consume(struct perf_mmap *map, uint64_t pos);

/* Pages rounded up to a power of two (>= 1); *rounded set when changed. */
unsigned int perf_mmap__round_pages(unsigned long pages, bool *rounded);

#endif
