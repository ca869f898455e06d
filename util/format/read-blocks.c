// SPDX-License-Identifier: GPL-2.0
/*
 * The read_blocks strategy (data-internal.h): a regular file's data
 * section read with pread() into 2 MB blocks instead of through the
 * mapping, with a helper thread reading the blocks ahead of the reader
 * when a second CPU is there.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "data-internal.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/helper-thread.h"

#define BLOCK_BYTES (2u << 20)	/* a read block of the data section (a PMD: one THP) */

/*
 * Reading the data section with pread() into 2 MB blocks instead of
 * through the mapping. A mapped page of the file costs the kernel a page
 * table entry to make and to take down again, and in a VM with shadow
 * paging the hypervisor's first touch on top, for every page of the
 * data; a pread() into a reused block costs a copy. The blocks are
 * anonymous memory asked to be one transparent huge page each (one
 * fault for 2 MB instead of 512): without THP the mapping is read as
 * before (read_mapped).
 */
bool blocks_usable(void)
{
	static int usable = -1;	/* atomic: sessions may open side by side */
	char buf[128] = "";
	int fd, u = __atomic_load_n(&usable, __ATOMIC_RELAXED);

	if (u >= 0)
		return u;
	fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = 0;
		close(fd);
	}
	u = strstr(buf, "[always]") || strstr(buf, "[madvise]");
	__atomic_store_n(&usable, u, __ATOMIC_RELAXED);
	return u;
}

/* A block from the pool or newly made (2 MB aligned, THP asked); NULL
 * when memory runs out. */
static struct rec_chunk *block_get(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	struct rec_chunk *c = rp->free_blocks;
	char *p, *a;

	if (c) {
		rp->free_blocks = c->next;
	} else {
		if (rp->nr_blocks == rp->alloc_blocks) {
			size_t n = rp->alloc_blocks ? 2 * rp->alloc_blocks : 16;
			struct rec_chunk **t = realloc(rp->all_blocks, n * sizeof(*t));

			if (!t)
				return NULL;
			rp->all_blocks = t;
			rp->alloc_blocks = n;
		}
		p = mmap(NULL, 2 * BLOCK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		a = (char *)(((uintptr_t)p + BLOCK_BYTES - 1) & ~(uintptr_t)(BLOCK_BYTES - 1));
		if (a > p)
			munmap(p, (size_t)(a - p));
		munmap(a + BLOCK_BYTES, (size_t)(p + 2 * BLOCK_BYTES - (a + BLOCK_BYTES)));
		madvise(a, BLOCK_BYTES, MADV_HUGEPAGE);
		c = (struct rec_chunk *)a;
		c->block = true;
		c->size = BLOCK_BYTES - offsetof(struct rec_chunk, data);
		rp->all_blocks[rp->nr_blocks++] = c;
	}
	c->next = NULL;
	c->used = 0;
	c->refs = 1;
	return c;
}

/*
 * The data section in blocks: block k holds the file bytes [from, to),
 * from = the data offset rounded down to 8 (records keep their
 * alignment) + k * BLOCK_STEP, to = from + a block's size, or the end.
 * Blocks overlap by more than a record (header.size is 16 bits), so a
 * record that starts before the next block's start ends in this one: the
 * reader takes block k + 1 once it reaches that start, and no record is
 * ever split. With a second CPU a helper thread reads the blocks ahead
 * (READ_AHEAD of them), so the reader does not wait on the copies.
 */
#define BLOCK_DATA (BLOCK_BYTES - offsetof(struct rec_chunk, data))
#define BLOCK_STEP ((BLOCK_DATA - (64u << 10) - 64) & ~(size_t)7)
#define READ_AHEAD 3
#define READ_SLOTS 4			/* > READ_AHEAD, a power of two */

struct read_slot {
	struct rec_chunk *c;
	uint64_t from, to;
	int err;
};

struct data_blocks {
	struct perf_data *d;
	uint64_t give;			/* file offset of the next block to read */
	uint64_t end;			/* of the data */
	struct rec_chunk *cur;		/* the reader's block (a reference) */
	uint64_t from, to, next;	/* its bytes; where the next block starts */
	/* the read-ahead helper (when it runs): slots [head, filled) are read,
	 * [filled, given) wait for it, all under lock */
	struct read_slot slot[READ_SLOTS];
	unsigned int head, filled, given;
	bool helped, stop, helper_waits;
	struct helper_thread thr;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
};

static void *read_ahead__run(void *arg)
{
	struct data_blocks *db = arg;

	pthread_mutex_lock(&db->lock);
	while (!db->stop) {
		struct read_slot *sl;

		if (db->filled == db->given) {
			db->helper_waits = true;
			pthread_cond_wait(&db->work, &db->lock);
			db->helper_waits = false;
			continue;
		}
		sl = &db->slot[db->filled % READ_SLOTS];
		pthread_mutex_unlock(&db->lock);
		sl->err = reader__read_at(db->d, sl->c->data, sl->to - sl->from, sl->from);
		pthread_mutex_lock(&db->lock);
		db->filled++;
		pthread_cond_signal(&db->done);
	}
	pthread_mutex_unlock(&db->lock);
	return NULL;
}

/* The next block's slot (pool block, offsets), or -ENOMEM. */
static int data_blocks__plan(struct data_blocks *db, struct read_slot *sl)
{
	sl->c = block_get(db->d);
	if (!sl->c)
		return -ENOMEM;
	sl->from = db->give;
	sl->to = db->give + BLOCK_DATA < db->end ? db->give + BLOCK_DATA : db->end;
	sl->err = 0;
	db->give = sl->to == db->end ? db->end : db->give + BLOCK_STEP;
	return 0;
}

/* Give the helper blocks to read, up to READ_AHEAD past the reader. */
static int data_blocks__give(struct data_blocks *db)
{
	int err = 0;

	pthread_mutex_lock(&db->lock);
	while (db->given - db->head < READ_AHEAD && db->give < db->end && !err) {
		err = data_blocks__plan(db, &db->slot[db->given % READ_SLOTS]);
		if (!err)
			db->given++;
	}
	if (db->helper_waits)
		pthread_cond_signal(&db->work);
	pthread_mutex_unlock(&db->lock);
	return err;
}

static void data_blocks__init(struct data_blocks *db, struct perf_data *d, uint64_t off,
			      uint64_t end)
{
	*db = (struct data_blocks){ .d = d, .give = off & ~(uint64_t)7, .end = end };
	if (end - off < AHEAD_MIN_DATA || cpus_usable() < 2)
		return;
	pthread_mutex_init(&db->lock, NULL);
	pthread_cond_init(&db->work, NULL);
	pthread_cond_init(&db->done, NULL);
	db->helped = !helper_thread__start(&db->thr, read_ahead__run, db);
	if (!db->helped) {
		pthread_mutex_destroy(&db->lock);
		pthread_cond_destroy(&db->work);
		pthread_cond_destroy(&db->done);
		return;
	}
	pr_debug2("%s: the data is read ahead into blocks on another thread\n", d->path);
}

/* Make the reader's block the one that holds the record at off (its
 * header at least, and all of it when it is in the data). 0 or
 * negative errno. */
static int data_blocks__at(struct data_blocks *db, uint64_t off)
{
	while (!db->cur || off >= db->next) {
		struct read_slot sl;
		int err;

		if (db->cur)
			perf_data__put(db->d, db->cur);
		db->cur = NULL;
		if (off >= db->give) {
			/* beyond every block planned (bytes after a record
			 * skipped, as AUX data): drop those, read from off */
			if (db->helped) {
				pthread_mutex_lock(&db->lock);
				while (db->filled != db->given)
					pthread_cond_wait(&db->done, &db->lock);
				pthread_mutex_unlock(&db->lock);
				for (; db->head != db->given; db->head++)
					perf_data__put(db->d, db->slot[db->head % READ_SLOTS].c);
			}
			db->give = off & ~(uint64_t)7;
		}
		if (db->helped) {
			err = data_blocks__give(db);
			if (err)
				return err;
			pthread_mutex_lock(&db->lock);
			while (db->filled == db->head)
				pthread_cond_wait(&db->done, &db->lock);
			sl = db->slot[db->head++ % READ_SLOTS];
			pthread_mutex_unlock(&db->lock);
		} else {
			err = data_blocks__plan(db, &sl);
			if (err)
				return err;
			sl.err = reader__read_at(db->d, sl.c->data, sl.to - sl.from, sl.from);
		}
		db->cur = sl.c;
		db->from = sl.from;
		db->to = sl.to;
		db->next = sl.to == db->end ? UINT64_MAX : sl.from + BLOCK_STEP;
		if (sl.err)
			return sl.err;
	}
	return 0;
}

/* Stop the helper (blocks it read and the reader did not take go back
 * to the pool) and drop the reader's block. */
static void data_blocks__exit(struct data_blocks *db)
{
	if (db->helped) {
		pthread_mutex_lock(&db->lock);
		db->stop = true;
		pthread_cond_signal(&db->work);
		pthread_mutex_unlock(&db->lock);
		helper_thread__join(&db->thr);
		for (; db->head != db->given; db->head++)
			perf_data__put(db->d, db->slot[db->head % READ_SLOTS].c);
		pthread_mutex_destroy(&db->lock);
		pthread_cond_destroy(&db->work);
		pthread_cond_destroy(&db->done);
	}
	if (db->cur)
		perf_data__put(db->d, db->cur);
	db->cur = NULL;
}

static void read_blocks__start(void *state, struct perf_data *d, uint64_t off, uint64_t end,
			       struct read_window *w)
{
	data_blocks__init(state, d, off, end);
	*w = (struct read_window){ .next = off };	/* at() reads the first block */
}

static int read_blocks__at(void *state, uint64_t off, struct read_window *w)
{
	struct data_blocks *db = state;
	int err = data_blocks__at(db, off);

	if (err)
		return err;
	w->data = db->cur->data;
	w->from = db->from;
	w->next = db->next;
	w->owner = db->cur;
	return 0;
}

static int read_blocks__copy(void *state, void *dst, size_t len, uint64_t off)
{
	struct data_blocks *db = state;

	return reader__read_at(db->d, dst, len, off);
}

static void read_blocks__stop(void *state)
{
	data_blocks__exit(state);
}

_Static_assert(sizeof(struct data_blocks) <= READ_STATE_BYTES, "READ_STATE_BYTES too small");

const struct read_strategy read_blocks = {
	.start = read_blocks__start,
	.at = read_blocks__at,
	.copy = read_blocks__copy,
	.stop = read_blocks__stop,
};

void read_blocks__free(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);

	while (rp->nr_blocks > 0)
		munmap(rp->all_blocks[--rp->nr_blocks], BLOCK_BYTES);
	free(rp->all_blocks);
	rp->all_blocks = NULL;
	rp->alloc_blocks = 0;
	rp->free_blocks = NULL;
}
