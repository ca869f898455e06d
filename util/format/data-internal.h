/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_DATA_INTERNAL_H
#define PRF_FORMAT_DATA_INTERNAL_H
/*
 * Private state of a perf_data (data.h), shared by the files of
 * util/format/ that read one (data.c, reader.c and its read-*.c,
 * sample-parse.c, swap.c, features-read.c). Not for consumers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "data.h"

struct evsel;

/*
 * A buffer holding records that are not in the file mapping: records read
 * from a pipe, or inflated from PERF_RECORD_COMPRESSED. Queued records keep
 * a reference; the buffer is freed when no queued record points into it and
 * the reader no longer appends to it.
 */
struct rec_chunk {
	struct rec_chunk *next;		/* list of live chunks (pooled blocks: free list) */
	size_t size, used;		/* bytes */
	long refs;			/* queued records + 1 while current */
	bool block;			/* a read block (reader.c): back to the pool, not freed */
	char data[] __attribute__((aligned(16)));
};

/* One feature section as read (raw payload, in file byte order). */
struct feat_raw {
	void *data;
	uint64_t size;
	uint64_t offset;		/* file offset of the payload (0 in pipe mode) */
};

/* Decoded feature data that perf_env has no field for (printing only). */
struct feat_info {
	/* EVENT_DESC */
	struct feat_event {
		struct perf_event_attr attr;
		char *name;
		uint64_t *ids;
		uint32_t nr_ids;
	} *events;
	uint32_t nr_events;
};

struct reader_priv {
	/* file mode: the file image (read-map.c): the whole file mapped private
	 * read-write (records are byte-swapped in place), or read into memory */
	char *map;
	size_t map_size;
	/* chunks for pipe mode and inflated records */
	struct rec_chunk *chunks;
	struct rec_chunk *cur_pipe;
	struct rec_chunk *cur_copy;	/* aligned copies of unaligned mapped records */
	struct rec_chunk *free_blocks;	/* read blocks no record points into (read-blocks.c) */
	struct rec_chunk **all_blocks;	/* every read block made (unmapped at close) */
	size_t nr_blocks, alloc_blocks;
	/* partial record left at the end of the previous COMPRESSED payload */
	char *decomp_rem;
	size_t decomp_rem_len;
	/* features */
	struct feat_raw feat[HEADER_FEAT_BITS];
	struct feat_info fi;
	/* id -> evsel (open addressing, power-of-two size) */
	uint64_t *id_keys;
	struct evsel **id_vals;
	size_t id_cap, id_nr;
	/* sample layout, common to all evsels (perf requires it) */
	int id_pos;		/* u64 index of the id in a sample, -1 none */
	int is_pos;		/* u64 index of the id from the end of sample_id, -1 */
	size_t id_hdr_size;	/* bytes of the sample_id trailer */
	bool sample_id_all;
	uint64_t sample_type;	/* of the first evsel */
	/* progress of the current read */
	uint64_t cur_offset;	/* file offset of the record being processed */
	uint64_t deliver_offset;	/* file offset of the record being delivered */
	bool in_decomp;
	bool stop;		/* a callback asked to stop */
	int cb_err;
	bool read_to_eof;	/* data size 0 in header */
	/* zstd */
	void *dctx;
};

static inline struct reader_priv *data__rp(struct perf_data *d)
{
	return d->reader;
}

/* ---- swap.c ---- */
void perf_event_attr__swap(struct perf_event_attr *attr, size_t size);
void perf_event_header__swap(struct perf_event_header *h);
/* Swap a record's payload (after its header was swapped) in place. */
void perf_event__swap(union perf_event *event, bool sample_id_all, size_t id_hdr_size);
void mem_swap64(void *p, size_t bytes);

/* ---- sample-parse.c ---- */
/* Compute id_pos/is_pos/id_hdr_size from the evlist. */
void perf_data__update_sample_layout(struct perf_data *d);
int perf_data__id_add(struct perf_data *d, uint64_t id, struct evsel *evsel);
struct evsel *perf_data__id2evsel(struct perf_data *d, uint64_t id);

/* ---- features-read.c ---- */
int perf_data__process_feature(struct perf_data *d, int feat, const void *data, uint64_t size);
/* Free env's HEADER_CMDLINE strings and array; leaves it empty. */
void env__free_cmdline(struct perf_env *env);
void perf_data__free_features(struct perf_data *d);
const char *perf_feature__name(int feat);

/* ---- data.c ---- */
/* Count, swap and hand on one record as read; 0 or -errno. */
int perf_data__process_record(struct perf_data *d, union perf_event *event, uint64_t file_offset,
			      struct rec_chunk *owner);
int perf_data__new_evsel(struct perf_data *d, const struct perf_event_attr *attr, size_t attr_size,
			 const uint64_t *ids, size_t nr_ids, bool swap_ids);
/* Name every evsel still without one from its attr (event-names.h). */
void perf_data__name_evsels(struct perf_data *d);

/* ---- reader.c ---- */
int reader__open(struct perf_data *d);
int reader__process(struct perf_data *d);
void reader__close(struct perf_data *d);
/* pread() exactly len bytes at file offset off into buf; 0 or -errno
 * (message naming the offset printed). Safe on a helper thread. */
int reader__read_at(struct perf_data *d, char *buf, size_t len, uint64_t off);
/* The next size bytes of chunk c (8-byte aligned; c has room for them). */
static inline void *rec_chunk__take(struct rec_chunk *c, size_t size)
{
	void *p = c->data + c->used;

	c->used += (size + 7) & ~(size_t)7;
	if (c->used > c->size)
		c->used = c->size;
	return p;
}
/* reader__chunk_room() when *cur has no room: a new, bigger chunk replaces
 * it (the old one is put). */
void *reader__chunk_new_room(struct perf_data *d, struct rec_chunk **cur, size_t size);
/* Room for a record of size bytes at the end of the chunk *cur (8-byte
 * aligned; the chunk's used bytes advance past it), or in a new, bigger
 * chunk that replaces *cur; NULL when memory runs out. */
static inline void *reader__chunk_room(struct perf_data *d, struct rec_chunk **cur, size_t size)
{
	struct rec_chunk *c = *cur;

	if (c && c->size - c->used >= size)
		return rec_chunk__take(c, size);
	return reader__chunk_new_room(d, cur, size);
}
/* Reading stops at file offset off on damage, why a short static phrase
 * ("record size 0"): d->summary notes the first stop (data.h struct
 * read_summary). The caller has printed the message. */
void reader__stop(struct perf_data *d, uint64_t off, const char *why);
/* A bad record skipped, reading goes on: counted in stats and summary. */
static inline void reader__skipped(struct perf_data *d)
{
	d->stats.nr_bad_records++;
	d->summary.nr_skipped++;
}
/* Check a record header (host order) at file offset off with avail bytes
 * from it: 1 to process the record, 0 to skip header.size bytes (counted
 * as skipped), -1 to stop (counted as a bad record; the caller calls
 * reader__stop(), or drops the rest of a compressed payload); every
 * outcome but 1 printed, naming the file and the offset. */
int reader__check_record(struct perf_data *d, struct perf_event_header *h, uint64_t off,
			 uint64_t avail);
/* Bytes that follow a record outside header.size (pipe-format tracing
 * data, AUX data), rounded as the writer does. */
uint64_t reader__trailing_bytes(struct perf_data *d, union perf_event *ev);
/* Count a PERF_RECORD_COMPRESSED, show it to ops.compressed, inflate
 * it and hand on the records inside; 0 or -errno. */
int reader__compressed(struct perf_data *d, union perf_event *ev, uint64_t off);
/* Hand on one checked record (PERF_RECORD_COMPRESSED: inflated, the
 * records inside handed on); owner: the chunk it is in, NULL for the file
 * image. 0 or -errno. Inline: once per record in the read loops. */
static inline int reader__record(struct perf_data *d, union perf_event *ev, uint64_t off,
				 struct rec_chunk *owner)
{
	if (ev->header.type == PERF_RECORD_COMPRESSED)
		return reader__compressed(d, ev, off);
	return perf_data__process_record(d, ev, off, owner);
}

/*
 * A regular file's data section is read through one read strategy: the
 * file image read into memory (read_memory) or mapped (read_mapped, with a
 * helper thread mapping pages ahead and giving back pages behind), both in
 * read-map.c, or pread() into 2 MB blocks (read_blocks, read-blocks.c,
 * with a read-ahead helper thread). The record loop in reader.c walks the
 * records of the window a strategy hands it and asks for the next window
 * when the offset leaves it. A real pipe is read by
 * reader__process_stream() (read-stream.c).
 */
struct read_window {
	char *data;		/* the byte at file offset `from` (records are swapped in place) */
	uint64_t from;
	/* a record starting below next is here whole, when it ends inside
	 * the data section; at() gives the window for offsets from next on */
	uint64_t next;
	struct rec_chunk *owner;	/* the chunk records here are in, NULL: the file image */
};

/* Bytes of a strategy's state, kept by the record loop (on its stack). */
#define READ_STATE_BYTES 512

struct read_strategy {
	/* Begin reading the data in [off, end): set up state (READ_STATE_BYTES,
	 * aligned for any type) and *w; w->next <= off asks at() first.
	 * Cannot fail: a helper thread that does not start is done without. */
	void (*start)(void *state, struct perf_data *d, uint64_t off, uint64_t end,
		      struct read_window *w);
	/* The record at off (off >= w->next, off < end) into *w; 0 or -errno
	 * (message printed). */
	int (*at)(void *state, uint64_t off, struct read_window *w);
	/* Copy len bytes of the file at off (past the current record: pipe-format
	 * tracing data) to dst; 0 or -errno (message printed). */
	int (*copy)(void *state, void *dst, size_t len, uint64_t off);
	/* Done: stop the helper thread, drop the references state holds. */
	void (*stop)(void *state);
};

/* The data section is worth a helper thread (read ahead, map ahead) from this size. */
#define AHEAD_MIN_DATA (16u << 20)

/* ---- read-map.c ---- */
extern const struct read_strategy read_memory, read_mapped;
/* Read the whole regular file into rp->map (small files, read_memory) or
 * map it private read-write; 0 or -errno (message printed). */
int reader__map_file(struct perf_data *d);
void reader__unmap_file(struct perf_data *d);
/* The file image is in memory (read), not mapped. */
bool reader__map_is_heap(const struct reader_priv *rp);

/* ---- read-blocks.c ---- */
extern const struct read_strategy read_blocks;
/* Transparent huge pages are there for the blocks (checked once). */
bool blocks_usable(void);
/* Unmap every read block at close. */
void read_blocks__free(struct perf_data *d);

/* ---- read-stream.c ---- */
/* Read the records of a real pipe into chunks and hand them on; 0 or -errno. */
int reader__process_stream(struct perf_data *d);

#endif
