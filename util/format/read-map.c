// SPDX-License-Identifier: GPL-2.0
/*
 * The file image of a regular perf.data file (the header, attrs and
 * features are read in it) and the two read strategies over it
 * (data-internal.h): read_memory, the whole file read into memory, and
 * read_mapped, the file mapped, its pages mapped ahead of the reader and
 * given back behind it (by a helper thread when a second CPU is there).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include "data-internal.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/helper-thread.h"

/*
 * Files up to SMALL_FILE bytes are read into a heap buffer instead of
 * mapped (mmap + munmap, page faults and a TLB flush cost more than the
 * copy there: the fuzz harnesses' inputs); the buffer is used exactly
 * like the private writable mapping (records byte-swapped in place,
 * 8-byte alignment as in the file). Bigger files are mapped: their pages
 * are in the page cache already, where the copy needs fresh memory (in a
 * VM a fault and the hypervisor's first touch a page).
 */
#define SMALL_FILE (64u << 10)

bool reader__map_is_heap(const struct reader_priv *rp)
{
	return rp->map_size <= SMALL_FILE;
}

static int reader__read_small(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	int err;

	rp->map = malloc(rp->map_size);
	if (!rp->map)
		return -ENOMEM;
	populate_write(rp->map, rp->map_size);	/* not a fault per page in read() */
	err = reader__read_at(d, rp->map, rp->map_size, 0);
	if (err) {
		free(rp->map);
		rp->map = NULL;
	}
	return err;
}

int reader__map_file(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);

	rp->map_size = d->file_size;
	if (reader__map_is_heap(rp)) {
		/* a small file is read: cheaper than mmap + munmap */
		return reader__read_small(d);
	}
	rp->map = mmap(NULL, rp->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, d->fd, 0);
	if (rp->map == MAP_FAILED) {
		int err = -errno;

		rp->map = NULL;
		pr_err("%s: mmap failed: %s\n", d->path, strerror(errno));
		return err;
	}
	madvise(rp->map, rp->map_size, MADV_SEQUENTIAL);
	return 0;
}

void reader__unmap_file(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);

	if (rp->map && reader__map_is_heap(rp))
		free(rp->map);
	else if (rp->map)
		munmap(rp->map, rp->map_size);
	rp->map = NULL;
}

#define PMD_BYTES (2u << 20)		/* x86_64 and arm64 (4 KB pages) */
#define RELEASE_STEP (2u << 20)		/* the reader gives back, or tells the helper, per step */
#define AHEAD_STEP RELEASE_STEP		/* page tables made per madvise(): the next step */
#define AHEAD_MAX (4u << 20)		/* made this far past the reader at most */
/* The helper this far behind in giving back: the reader does it. The
 * helper, mapping and reading the pages ahead, is about as fast as the
 * reader; a small lag would have the reader give back many steps itself,
 * each a madvise() with a TLB flush on the helper's CPU. At this lag the
 * helper does them, and RSS stays within it above the reader. */
#define LAG_MAX (8u << 20)

/*
 * The file offset below which the mapping may be given back: the pages
 * that no queued record points into any more, so that reading a big file
 * does not keep all of it resident. 0: nothing to give back (the records
 * were byte-swapped in place, so the pages are dirty; or the file was
 * read into memory).
 */
static uint64_t release_point(struct perf_data *d, uint64_t off)
{
	struct reader_priv *rp = data__rp(d);
	uint64_t upto = off;
	uintptr_t end;

	if (d->needs_swap || reader__map_is_heap(rp))
		return 0;
	if (d->ops.held_offset) {
		uint64_t m = d->ops.held_offset(d->ops_ctx);

		if (m < upto)
			upto = m;
	}
	/* whole PMDs: the kernel maps a file's 2 MB folios (ext4 makes
	 * them) with one entry each, and giving back part of one splits it
	 * into 512 entries first, with a TLB flush on every CPU running this
	 * process */
	end = ((uintptr_t)rp->map + upto) & ~(uintptr_t)(PMD_BYTES - 1);
	return end > (uintptr_t)rp->map ? end - (uintptr_t)rp->map : 0;
}

/*
 * Page-table work on the file mapping, done by a helper thread when a
 * second CPU is there: mapping the pages of the reader's next step
 * (the reader tells its offset every RELEASE_STEP bytes; the helper maps
 * the AHEAD_STEP bytes after the step being read, up to AHEAD_MAX past
 * the told offset) with madvise(MADV_POPULATE_READ) (Linux 5.14), and
 * giving back the ones behind it (MADV_DONTNEED). Without it the reading
 * thread pays for both itself, page fault by page fault (a page costs
 * about as much faulted as populated). It then reads a byte of each page it mapped (map_helper__touch()). The
 * helper only ever maps and reads: what the reader reads is the same
 * whether a page was mapped ahead or on its fault.
 */
struct map_helper {
	struct helper_thread thr;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *map;
	uint64_t end;		/* populate below end */
	uint64_t pos;		/* the reader's offset (under lock) */
	uint64_t release;	/* give back below this (under lock) */
	uint64_t released;	/* given back below this (under lock) */
	bool stop, waiting;
};

/*
 * Read a byte of each page of [p, p + len), mapped already. In a VM the
 * first user access to a page costs the hypervisor's page table work
 * (shadow or nested paging; MADV_POPULATE_READ only makes the guest's
 * entries), which the reader would pay record by record. One thread
 * touching a page does it for all threads of the process.
 */
static void map_helper__touch(const char *p, uint64_t len)
{
	size_t page = page_size();
	uint64_t o;

	for (o = 0; o < len; o += page)
		(void)*(const volatile char *)(p + o);
}

static void *map_helper__run(void *arg)
{
	struct map_helper *h = arg;
	uint64_t populated = 0;

	pthread_mutex_lock(&h->lock);
	while (!h->stop) {
		uint64_t rel = h->release, to;

		/* pos is where the reader told its last step from: it reads
		 * the step from there, faulting what is not mapped yet. Never
		 * populate those pages (the two would contend for the same
		 * page table locks), and give pages back first, so that a
		 * reader faster than this thread keeps RSS as low as without
		 * it */
		if (populated < ((h->pos + AHEAD_STEP) & ~(uint64_t)4095))
			populated = (h->pos + AHEAD_STEP) & ~(uint64_t)4095;
		to = populated + AHEAD_STEP < h->end ? populated + AHEAD_STEP : h->end;
		if (rel > h->released) {
			uint64_t from = h->released;

			pthread_mutex_unlock(&h->lock);
			madvise(h->map + from, rel - from, MADV_DONTNEED);
			pthread_mutex_lock(&h->lock);
			if (rel > h->released)
				h->released = rel;
		} else if (populated < h->end && populated < h->pos + AHEAD_MAX) {
			pthread_mutex_unlock(&h->lock);
			/* a hint: on failure (older kernel) the reader faults */
			if (madvise(h->map + populated, to - populated, MADV_POPULATE_READ)) {
				populated = h->end;
			} else {
				map_helper__touch(h->map + populated, to - populated);
				populated = to;
			}
			pthread_mutex_lock(&h->lock);
		} else {
			h->waiting = true;
			pthread_cond_wait(&h->cond, &h->lock);
			h->waiting = false;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Start the helper for the data in [off, end) of s's mapping; false when
 * it does not pay (one CPU, a small or byte-swapped file) or cannot start:
 * the reader then releases pages itself. */
static bool map_helper__start(struct map_helper *h, struct perf_data *d, uint64_t off,
			      uint64_t end)
{
	struct reader_priv *rp = data__rp(d);

	if (d->needs_swap || reader__map_is_heap(rp) || end - off < AHEAD_MIN_DATA ||
	    cpus_usable() < 2)
		return false;
	*h = (struct map_helper){ .map = rp->map, .end = end, .pos = off };
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	if (helper_thread__start(&h->thr, map_helper__run, h)) {
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->cond);
		return false;
	}
	pr_debug2("%s: page tables of the data mapped ahead and given back on another thread\n",
		  d->path);
	return true;
}

/* The reader is at off; the pages below release may be given back. A
 * helper that has not had a CPU for a while (it gives back LAG_MAX
 * behind) leaves that to the reader, as without it: RSS stays bounded
 * whatever the scheduler does. */
static void map_helper__tell(struct map_helper *h, uint64_t off, uint64_t release)
{
	uint64_t from = 0, to = 0;

	pthread_mutex_lock(&h->lock);
	h->pos = off;
	if (release > h->release)
		h->release = release;
	if (h->release > h->released + LAG_MAX) {
		from = h->released;
		to = h->released = h->release;
	}
	if (h->waiting)
		pthread_cond_signal(&h->cond);
	pthread_mutex_unlock(&h->lock);
	if (to > from)
		madvise(h->map + from, to - from, MADV_DONTNEED);
}

static void map_helper__stop(struct map_helper *h)
{
	pthread_mutex_lock(&h->lock);
	h->stop = true;
	pthread_cond_signal(&h->cond);
	pthread_mutex_unlock(&h->lock);
	helper_thread__join(&h->thr);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
}

/* The state of both strategies over the image. */
struct read_map {
	struct perf_data *d;
	uint64_t released;	/* given back below this (read_mapped without the helper) */
	bool helped;		/* the helper runs */
	struct map_helper helper;
};

_Static_assert(sizeof(struct read_map) <= READ_STATE_BYTES, "READ_STATE_BYTES too small");

/* read_memory: the image is one window, nothing is given back. */
static void read_memory__start(void *state, struct perf_data *d, uint64_t off, uint64_t end,
			       struct read_window *w)
{
	*(struct read_map *)state = (struct read_map){ .d = d };
	*w = (struct read_window){ .data = data__rp(d)->map, .next = UINT64_MAX };
}

/* read_mapped: every RELEASE_STEP the pages behind the reader are given
 * back, by the helper or here. */
static void read_mapped__start(void *state, struct perf_data *d, uint64_t off, uint64_t end,
			       struct read_window *w)
{
	struct read_map *m = state;

	m->d = d;
	m->released = 0;
	m->helped = map_helper__start(&m->helper, d, off, end);
	*w = (struct read_window){ .data = data__rp(d)->map, .next = off + RELEASE_STEP };
}

static int read_mapped__at(void *state, uint64_t off, struct read_window *w)
{
	struct read_map *m = state;
	uint64_t upto = release_point(m->d, off);

	if (m->helped) {
		map_helper__tell(&m->helper, off, upto);
	} else if (upto > m->released) {
		madvise(data__rp(m->d)->map + m->released, upto - m->released, MADV_DONTNEED);
		m->released = upto;
	}
	w->next = off + RELEASE_STEP;
	return 0;
}

static int read_image__copy(void *state, void *dst, size_t len, uint64_t off)
{
	struct read_map *m = state;

	memcpy(dst, data__rp(m->d)->map + off, len);
	return 0;
}

static void read_image__stop(void *state)
{
	struct read_map *m = state;

	if (m->helped)
		map_helper__stop(&m->helper);
}

/* read_memory's window ends at UINT64_MAX, so its at() is not asked;
 * read_mapped's would give nothing back (release_point() is 0 for an
 * image in memory). */
const struct read_strategy read_memory = {
	.start = read_memory__start,
	.at = read_mapped__at,
	.copy = read_image__copy,
	.stop = read_image__stop,
};

const struct read_strategy read_mapped = {
	.start = read_mapped__start,
	.at = read_mapped__at,
	.copy = read_image__copy,
	.stop = read_image__stop,
};
