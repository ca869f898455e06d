// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data input: file mode (header, attr section with ids, data section,
 * feature sections; the file image is mapped, or read when small,
 * read-map.c) and pipe mode (a stream of records read into chunks,
 * read-stream.c), either byte order, with zstd PERF_RECORD_COMPRESSED
 * inflated. A file's records are walked here, once, in the windows a
 * read strategy (data-internal.h: read-map.c, read-blocks.c) hands on.
 * Layout per tools/perf/Documentation/perf.data-file-format.txt.
 * Every length read from the input is checked before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <byteswap.h>
#include <zstd.h>
#include "data-internal.h"
#include "../lib/debug.h"
#include "../lib/tunables.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"

/*
 * Record chunks (pipe reads, aligned copies) start small and double with
 * each new chunk up to CHUNK_SIZE, so a short input (a pipe with a few
 * records, a fuzzer's test case) does not pay for 4 MiB per session while
 * a long stream soon reads into CHUNK_SIZE chunks as before. CHUNK_MIN
 * holds any record (header.size is 16 bits).
 */
#define CHUNK_MIN (64u << 10)
#define CHUNK_SIZE (4u << 20)

/* Size of the chunk replacing prev (NULL: the first) for a record of need bytes. */
static size_t chunk_next_size(const struct rec_chunk *prev, size_t need)
{
	size_t sz = prev ? prev->size * 2 : CHUNK_MIN;

	if (sz < CHUNK_MIN)
		sz = CHUNK_MIN;
	if (sz > CHUNK_SIZE)
		sz = CHUNK_SIZE;
	return sz < need ? need : sz;
}

static uint64_t rd64(struct perf_data *d, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return d->needs_swap ? bswap_64(v) : v;
}

static struct rec_chunk *chunk_new(struct perf_data *d, size_t size)
{
	struct reader_priv *rp = data__rp(d);
	struct rec_chunk *c = malloc(sizeof(*c) + size);

	if (!c)
		return NULL;
	c->size = size;
	c->used = 0;
	c->refs = 1;
	c->block = false;
	c->next = rp->chunks;
	rp->chunks = c;
	return c;
}

void perf_data__put(struct perf_data *d, struct rec_chunk *c)
{
	struct reader_priv *rp = data__rp(d);
	struct rec_chunk **pp;

	if (!c || --c->refs > 0)
		return;
	if (c->block) {
		c->next = rp->free_blocks;
		rp->free_blocks = c;
		return;
	}
	for (pp = &rp->chunks; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	free(c);
}

void *reader__chunk_new_room(struct perf_data *d, struct rec_chunk **cur, size_t size)
{
	struct rec_chunk *c = *cur;
	/* sized from the old chunk before it is put: that may free it */
	size_t next = chunk_next_size(c, size);

	if (c) {
		*cur = NULL;
		perf_data__put(d, c);
	}
	c = chunk_new(d, next);
	if (!c)
		return NULL;
	*cur = c;
	return rec_chunk__take(c, size);
}

static int bad_file(struct perf_data *d, const char *why)
{
	pr_err("%s: not a valid perf.data file: %s\n", d->path, why);
	return -EINVAL;
}

/* A header or attr field out of the format's limits: which, where, why. */
static int bad_field(struct perf_data *d, const char *field, uint64_t off, uint64_t val,
		     const char *want)
{
	char hex[24] = "";

	if (val > 9)
		snprintf(hex, sizeof(hex), " (%#" PRIx64 ")", val);
	pr_err("%s: not a valid perf.data file: %s at offset %#" PRIx64 " is %" PRIu64 "%s: %s\n",
	       d->path, field, off, val, hex, want);
	return -EINVAL;
}

/*
 * The file header against the format document's limits: header.size is
 * 104 (72 for files older than the feature bitmap, whose features are then
 * none), the attr entry holds at least a PERF_ATTR_SIZE_VER0 attr and its
 * ids section, and the attr and data sections lie in the file, after the
 * header. 0 or -EINVAL (message naming the field and its offset).
 */
static int check_file_header(struct perf_data *d)
{
	struct perf_file_header *h = &d->header;
	uint64_t fsz = d->file_size, min_entry = PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section);
	char want[96];

	if (h->size == offsetof(struct perf_file_header, adds_features)) {
		memset(h->adds_features, 0, sizeof(h->adds_features));
	} else if (h->size != sizeof(*h)) {
		snprintf(want, sizeof(want), "want %zu (or %zu, before feature sections)", sizeof(*h),
			 offsetof(struct perf_file_header, adds_features));
		return bad_field(d, "header.size", offsetof(struct perf_file_header, size), h->size, want);
	}
	if (h->size > fsz)
		return bad_file(d, "file header truncated");
	if (h->attr_size < min_entry || h->attr_size > 4096) {
		snprintf(want, sizeof(want), "an attr entry is %" PRIu64 " to 4096 bytes", min_entry);
		return bad_field(d, "header.attr_size", offsetof(struct perf_file_header, attr_size),
				 h->attr_size, want);
	}
	if (h->attrs.offset < h->size || h->attrs.offset > fsz)
		return bad_field(d, "header.attrs.offset", offsetof(struct perf_file_header, attrs.offset),
				 h->attrs.offset, "outside the file or inside its header");
	if (h->attrs.size > fsz - h->attrs.offset || h->attrs.size % h->attr_size)
		return bad_field(d, "header.attrs.size", offsetof(struct perf_file_header, attrs.size),
				 h->attrs.size, "past the end of the file or not whole attr entries");
	if (!h->attrs.size)
		return bad_field(d, "header.attrs.size", offsetof(struct perf_file_header, attrs.size),
				 0, "no events (empty attr section)");
	if (h->data.offset < h->size || h->data.offset > fsz)
		return bad_field(d, "header.data.offset", offsetof(struct perf_file_header, data.offset),
				 h->data.offset, "outside the file or inside its header");
	return 0;
}

/* File mode: header, attrs + ids, features. */
static int reader__open_file(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	struct perf_file_header *h = &d->header;
	uint64_t fsz = d->file_size, i, nr_attrs, entry, asz;
	int err, feat, nfeat = 0;
	const char *map = rp->map;

	if (fsz < sizeof(*h))
		return bad_file(d, "file header truncated");
	memcpy(h, map, sizeof(*h));
	if (d->needs_swap) {
		uint64_t *w = (uint64_t *)h;

		for (i = 0; i < sizeof(*h) / 8; i++)
			w[i] = bswap_64(w[i]);
	}
	err = check_file_header(d);
	if (err)
		return err;
	/* feature bitmap: bytes are u64 words in writer order */
	for (i = 0; i < HEADER_FEAT_BITS; i++)
		if (h->adds_features[i / 64] >> (i % 64) & 1)
			d->feat_bits[i / (8 * sizeof(long))] |= 1UL << (i % (8 * sizeof(long)));

	/* attrs */
	entry = h->attr_size;
	nr_attrs = h->attrs.size / entry;
	asz = entry - sizeof(struct perf_file_section);
	for (i = 0; i < nr_attrs; i++) {
		const char *a = map + h->attrs.offset + i * entry;
		struct perf_event_attr attr;
		struct perf_file_section ids;
		uint64_t *idv = NULL, n = 0;
		size_t cp = min((size_t)asz, sizeof(attr));

		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, a, cp);
		if (d->needs_swap)
			perf_event_attr__swap(&attr, cp);
		/* attr.size is the writer's sizeof(attr): within the entry; 0
		 * (ABI 0) only where the entry has no room for more */
		if (attr.size ? attr.size < PERF_ATTR_SIZE_VER0 || attr.size > asz
			      : asz > PERF_ATTR_SIZE_VER0) {
			char field[48], want[64];

			snprintf(field, sizeof(field), "attr %" PRIu64 " attr.size", i);
			snprintf(want, sizeof(want), "want %u to %" PRIu64 " (the attr entry)",
				 PERF_ATTR_SIZE_VER0, asz);
			return bad_field(d, field, h->attrs.offset + i * entry +
					 offsetof(struct perf_event_attr, size), attr.size, want);
		}
		memcpy(&ids, a + asz, sizeof(ids));
		if (d->needs_swap) {
			ids.offset = bswap_64(ids.offset);
			ids.size = bswap_64(ids.size);
		}
		if (ids.size) {
			if (ids.offset > fsz || ids.size > fsz - ids.offset || ids.size % 8) {
				char field[48];

				snprintf(field, sizeof(field), "attr %" PRIu64 " ids.size", i);
				return bad_field(d, field, h->attrs.offset + i * entry + asz + 8, ids.size,
						 "the ids lie outside the file");
			}
			n = ids.size / 8;
			idv = malloc(ids.size);
			if (!idv)
				return -ENOMEM;
			memcpy(idv, map + ids.offset, ids.size);
		}
		err = perf_data__new_evsel(d, &attr, cp, idv, n, d->needs_swap);
		free(idv);
		if (err)
			return err;
	}
	/* data section */
	d->data_offset = h->data.offset;
	d->data_size = h->data.size;
	d->summary.data_size = d->data_size;
	if (!d->data_size) {
		rp->read_to_eof = true;
		d->data_size = fsz - d->data_offset;
		pr_debug("%s: data size 0 in header, reading to end of file\n", d->path);
	} else if (d->data_size > fsz - d->data_offset) {
		pr_err("%s: data section truncated (header says %" PRIu64 " bytes, file has %" PRIu64 ")\n",
		       d->path, d->data_size, fsz - d->data_offset);
		d->data_size = fsz - d->data_offset;
		d->summary.truncated = true;
	}

	/* feature sections follow the data */
	if (!rp->read_to_eof) {
		uint64_t foff = h->data.offset + h->data.size;

		for (feat = 0; feat < HEADER_FEAT_BITS; feat++)
			if (perf_data__has_feat(d, feat))
				nfeat++;
		if (nfeat && (foff > fsz || (uint64_t)nfeat * 16 > fsz - foff)) {
			pr_err("%s: feature sections missing (truncated file?)\n", d->path);
			memset(d->feat_bits, 0, sizeof(d->feat_bits));
			nfeat = 0;
		}
		for (feat = 0, i = 0; nfeat && feat < HEADER_FEAT_BITS; feat++) {
			struct perf_file_section sec;

			if (!perf_data__has_feat(d, feat))
				continue;
			sec.offset = rd64(d, map + foff + i * 16);
			sec.size = rd64(d, map + foff + i * 16 + 8);
			i++;
			if (sec.offset > fsz || sec.size > fsz - sec.offset) {
				pr_err("%s: feature %s outside the file, ignored\n", d->path,
				       perf_feature__name(feat));
				continue;
			}
			rp->feat[feat].offset = sec.offset;
			if (perf_data__process_feature(d, feat, map + sec.offset, sec.size))
				pr_debug("%s: failed to read feature %s\n", d->path, perf_feature__name(feat));
		}
	} else {
		memset(d->feat_bits, 0, sizeof(d->feat_bits));
	}
	return 0;
}

int reader__read_at(struct perf_data *d, char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pread(d->fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;	/* before pr_err() may change errno */

			pr_err("%s: read at offset %#" PRIx64 " failed: %s\n", d->path, off,
			       n < 0 ? strerror(err) : "file shrank");
			return -err;
		}
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int reader__open(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	struct stat st;
	uint64_t magic, hsize;
	char buf[16];

	if (!strcmp(d->path, "-")) {
		d->fd = STDIN_FILENO;
	} else {
		d->fd = open(d->path, O_RDONLY | O_CLOEXEC);
		if (d->fd < 0) {
			int err = -errno;

			pr_err("failed to open %s: %s\n", d->path, strerror(errno));
			return err;
		}
	}
	if (fstat(d->fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		pr_err("failed to open %s: %s\n", d->path, strerror(EISDIR));
		return -EISDIR;
	}
	if (S_ISREG(st.st_mode)) {
		d->file_size = (uint64_t)st.st_size;
		if (d->file_size < 16) {
			pr_err("%s: not a perf.data file: %s\n", d->path,
			       d->file_size ? "too small" : "empty file");
			return -EINVAL;
		}
		int err = reader__map_file(d);

		if (err)
			return err;
		memcpy(buf, rp->map, 16);
	} else {
		ssize_t n = readn(d->fd, buf, 16);

		d->pipe = true;
		if (n != 16) {
			pr_err("%s: not a perf.data stream: %s\n", d->path, n == 0 ? "empty input" : "too short");
			return -EINVAL;
		}
	}
	memcpy(&magic, buf, 8);
	memcpy(&hsize, buf + 8, 8);
	if (magic == PERF_MAGIC2_SW) {
		d->needs_swap = true;
		hsize = bswap_64(hsize);
	} else if (magic != PERF_MAGIC2) {
		if (!memcmp(buf, "PERFFILE", 8)) {
			pr_err("%s: perf.data version 1 (PERFFILE) is not supported\n", d->path);
			return -EINVAL;
		}
		pr_err("%s: not a perf.data file (bad magic)\n", d->path);
		return -EINVAL;
	}
	if (hsize == sizeof(struct perf_pipe_file_header)) {
		d->pipe = true;		/* pipe format (maybe saved to a regular file) */
		d->data_offset = 16;
		d->data_size = d->file_size > 16 ? d->file_size - 16 : 0;
		return 0;
	}
	if (!rp->map) {
		pr_err("%s: file-format perf.data on a pipe\n", d->path);
		return -EINVAL;
	}
	d->pipe = false;
	return reader__open_file(d);
}

void reader__close(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);

	if (!rp)
		return;
	reader__unmap_file(d);
	while (rp->chunks) {
		struct rec_chunk *c = rp->chunks;

		rp->chunks = c->next;
		free(c);
	}
	read_blocks__free(d);
	free(rp->decomp_rem);
	rp->decomp_rem = NULL;
	if (rp->dctx)
		ZSTD_freeDStream(rp->dctx);
	rp->dctx = NULL;
	if (d->fd > STDIN_FILENO)
		close(d->fd);
	d->fd = -1;
}

/* Is a record type one prf knows? (kernel types or perf's user types) */
static bool type_known(uint32_t type)
{
	return (type > 0 && type < PERF_RECORD_MAX) ||
	       (type >= PERF_RECORD_USER_TYPE_START && type < PERF_RECORD_HEADER_MAX);
}

uint64_t reader__trailing_bytes(struct perf_data *d, union perf_event *ev)
{
	if (ev->header.type == PERF_RECORD_AUXTRACE && ev->header.size >= 16)
		return ((rd64(d, (char *)ev + 8)) + 7) & ~7ULL;
	if (ev->header.type == PERF_RECORD_HEADER_TRACING_DATA && d->pipe &&
	    ev->header.size >= sizeof(struct perf_record_header_tracing_data)) {
		uint32_t v;

		memcpy(&v, (char *)ev + 8, 4);
		return d->needs_swap ? bswap_32(v) : v;
	}
	return 0;
}

void reader__stop(struct perf_data *d, uint64_t off, const char *why)
{
	struct read_summary *rs = &d->summary;

	if (rs->stopped)
		return;
	rs->stopped = true;
	rs->stop_offset = off;
	rs->stop_why = why;
}

int reader__check_record(struct perf_data *d, struct perf_event_header *h, uint64_t off,
			 uint64_t avail)
{
	if (h->size < sizeof(*h)) {
		pr_err("%s: bad record at offset %#" PRIx64 ": size %u is too small, stopping\n",
		       d->path, off, h->size);
		d->stats.nr_bad_records++;
		return -1;
	}
	if (h->size > avail) {
		pr_err("%s: bad record at offset %#" PRIx64 ": size %u goes past the end of the data (%"
		       PRIu64 " bytes left): truncated file, stopping\n", d->path, off, h->size, avail);
		d->stats.nr_bad_records++;
		return -1;
	}
	if (!type_known(h->type)) {
		pr_err("%s: bad record at offset %#" PRIx64 ": unknown type %u (size %u), skipped\n",
		       d->path, off, h->type, h->size);
		reader__skipped(d);
		return 0;
	}
	return 1;
}

/* Why reading stopped at a record reader__check_record() refused. */
static const char *stop_why(struct perf_data *d, const struct perf_event_header *h)
{
	if (h->size >= sizeof(*h))
		return d->summary.truncated ? "file truncated" : "record past the end of the data";
	return "record size too small";
}

static int ensure_dctx(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);

	if (rp->dctx)
		return 0;
	rp->dctx = ZSTD_createDStream();
	if (!rp->dctx)
		return -ENOMEM;
	ZSTD_initDStream(rp->dctx);
	return 0;
}

/* Inflate one PERF_RECORD_COMPRESSED and process the records inside. */
static int process_compressed(struct perf_data *d, union perf_event *ev, uint64_t off)
{
	struct reader_priv *rp = data__rp(d);
	size_t in_len = ev->header.size - sizeof(ev->header);
	size_t cap = (size_t)(d->env.comp_mmap_len ? d->env.comp_mmap_len : 0);
	struct rec_chunk *c;
	ZSTD_inBuffer in = { (char *)ev + sizeof(ev->header), in_len, 0 };
	size_t pos, err_z;
	int err = 0;

	if (ensure_dctx(d))
		return -ENOMEM;
	/* comp_mmap_len comes from the file: only a hint for the first
	 * buffer (it grows below), never a size to trust */
	if (cap > CHUNK_SIZE)
		cap = CHUNK_SIZE;
	if (cap < in_len * 4)
		cap = in_len * 4;
	if (cap < CHUNK_MIN)
		cap = CHUNK_MIN;
	cap += rp->decomp_rem_len;
	c = chunk_new(d, cap);
	if (!c)
		return -ENOMEM;
	if (rp->decomp_rem_len) {
		memcpy(c->data, rp->decomp_rem, rp->decomp_rem_len);
		c->used = rp->decomp_rem_len;
		rp->decomp_rem_len = 0;
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer out;

		if (c->used == c->size) {
			/* grow: allocate a bigger chunk and move the data */
			struct rec_chunk *n = chunk_new(d, c->size * 2);

			if (!n) {
				perf_data__put(d, c);
				return -ENOMEM;
			}
			memcpy(n->data, c->data, c->used);
			n->used = c->used;
			perf_data__put(d, c);
			c = n;
		}
		out.dst = c->data + c->used;
		out.size = c->size - c->used;
		out.pos = 0;
		err_z = ZSTD_decompressStream(rp->dctx, &out, &in);
		if (ZSTD_isError(err_z)) {
			pr_err("%s: bad record at offset %#" PRIx64 ": zstd: %s, skipped\n", d->path, off,
			       ZSTD_getErrorName(err_z));
			reader__skipped(d);
			ZSTD_initDStream(rp->dctx);
			perf_data__put(d, c);
			return 0;
		}
		c->used += out.pos;
		if (!out.pos && in.pos < in.size && c->used < c->size)
			break;	/* no progress */
	}
	/* records inside */
	rp->in_decomp = true;
	for (pos = 0; pos + sizeof(struct perf_event_header) <= c->used; ) {
		union perf_event *e = (union perf_event *)(c->data + pos);
		int r;

		if (d->needs_swap)
			perf_event_header__swap(&e->header);
		if (e->header.size > c->used - pos) {
			if (d->needs_swap)
				perf_event_header__swap(&e->header);	/* keep raw for the next pass */
			break;
		}
		r = reader__check_record(d, &e->header, off, c->used - pos);
		if (r >= 0 && (e->header.size & 7)) {
			pr_err("%s: bad record at offset %#" PRIx64 ": compressed payload has a record of size %u\n",
			       d->path, off, e->header.size);
			d->stats.nr_bad_records++;
			r = -1;
		}
		if (r < 0 || e->header.type == PERF_RECORD_COMPRESSED) {
			if (r >= 0) {
				pr_err("%s: bad record at offset %#" PRIx64 ": nested compressed record\n",
				       d->path, off);
				d->stats.nr_bad_records++;
			}
			/* the rest of this payload is dropped, reading goes on */
			d->summary.nr_skipped++;
			pos = c->used;
			break;
		}
		if (r > 0) {
			err = perf_data__process_record(d, e, off, c);
			if (err)
				break;
		}
		pos += e->header.size;
	}
	rp->in_decomp = false;
	if (!err && pos < c->used) {
		size_t rem = c->used - pos;
		char *nb = realloc(rp->decomp_rem, rem);

		if (!nb) {
			perf_data__put(d, c);
			return -ENOMEM;
		}
		memcpy(nb, c->data + pos, rem);
		rp->decomp_rem = nb;
		rp->decomp_rem_len = rem;
	}
	perf_data__put(d, c);
	return err;
}

int reader__compressed(struct perf_data *d, union perf_event *ev, uint64_t off)
{
	int err;

	d->stats.nr_events[0]++;
	d->stats.nr_events[PERF_RECORD_COMPRESSED]++;
	if (d->ops.compressed) {
		err = d->ops.compressed(d->ops_ctx, ev);
		if (err)
			return err;
	}
	return process_compressed(d, ev, off);
}

/*
 * Copy a record to 8-byte aligned memory (records after a
 * PERF_RECORD_COMPRESSED, whose size is not a multiple of 8, are
 * unaligned in the file). The copy lives in a chunk; *owner gets it.
 */
static union perf_event *copy_aligned(struct perf_data *d, const void *src, size_t size,
				      struct rec_chunk **owner)
{
	struct reader_priv *rp = data__rp(d);
	union perf_event *ev = reader__chunk_room(d, &rp->cur_copy, size);

	if (!ev)
		return NULL;
	memcpy(ev, src, size);
	*owner = rp->cur_copy;
	return ev;
}

/*
 * How a regular file's data is read: in memory when the file was read,
 * else in blocks (blocks_usable()), or in the mapping, whose pages are
 * given back behind the reader. An owner that reads little of each
 * record (ops.sparse: annotate) gets a small data section, one no helper
 * reads ahead, in the mapping: a block costs a 2 MB huge page zeroed and
 * all of the data copied, stack dumps included, where the mapping costs
 * a page table entry per page (annotate of a 3.8 MB --call-graph dwarf
 * recording: 0.6 ms less, median of 40 interleaved runs; report, which
 * unwinds those stacks, was 2 ms slower mapped on it).
 */
static const struct read_strategy *read_strategy_pick(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	bool blocks = !reader__map_is_heap(rp) && !tunable__bool(TUNABLE_READ_MAPPED) &&
		      !(d->ops.sparse && d->data_size < AHEAD_MIN_DATA) && blocks_usable();

	if (reader__map_is_heap(rp))
		return &read_memory;
	return blocks ? &read_blocks : &read_mapped;
}

/* Only zero bytes from off to end (a preallocated file whose recorder
 * was killed: data size 0, the data ends at the first zero record). */
static bool zero_to_end(struct perf_data *d, uint64_t off, uint64_t end)
{
	char buf[4096];

	while (off < end) {
		size_t n = end - off < sizeof(buf) ? (size_t)(end - off) : sizeof(buf);

		if (reader__read_at(d, buf, n, off))
			return false;
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				return false;
		off += n;
	}
	return true;
}

/*
 * A file without data size (its recorder was killed) ends where the writer
 * stopped, maybe inside a record: a record reaching past the end of the
 * file there is its incomplete last one, reported and counted as a
 * skipped record, not as damage that stops the reading early. False for
 * that record (the data ends before it).
 */
static bool last_record_whole(struct perf_data *d, const char *raw, uint64_t avail)
{
	struct perf_event_header h;

	if (avail >= sizeof(h)) {
		memcpy(&h, raw, sizeof(h));
		if (d->needs_swap)
			perf_event_header__swap(&h);
		if (h.size <= avail)
			return true;
	}
	pr_warning("%s: incomplete last record at offset %#" PRIx64 " (%" PRIu64 " bytes) in a file "
		   "without data size (recorder killed?), ignored\n", d->path,
		   data__rp(d)->cur_offset, avail);
	reader__skipped(d);
	return false;
}

/* Records of a regular file (perf.data, or a pipe-format file). */
static int reader__process_file(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	uint64_t off = d->data_offset, end = d->data_offset + d->data_size;
	const struct read_strategy *rs = read_strategy_pick(d);
	_Alignas(max_align_t) char state[READ_STATE_BYTES];
	struct read_window w;
	int err = 0;

	rs->start(state, d, off, end, &w);
	while (off < end) {
		if (off >= w.next) {
			err = rs->at(state, off, &w);
			if (err) {
				reader__stop(d, off, "read error");
				break;
			}
		}
		char *raw = w.data + (off - w.from);
		union perf_event *ev;

		/* the hardware prefetcher stops at page ends: ask a few pages
		 * ahead (each record is read here and again when delivered) */
		__builtin_prefetch(raw + 4096);
		__builtin_prefetch(raw + 8192);
		struct rec_chunk *owner = NULL;
		struct perf_event_header h;
		uint64_t avail = end - off, extra;
		int r;

		rp->cur_offset = off;
		if (rp->read_to_eof && !last_record_whole(d, raw, avail))
			break;	/* a killed recorder's last record: counted as skipped */
		if (avail < sizeof(struct perf_event_header)) {
			pr_err("%s: bad record at offset %#" PRIx64 ": %" PRIu64 " trailing bytes, truncated file\n",
			       d->path, off, avail);
			d->stats.nr_bad_records++;
			reader__stop(d, off, "file truncated");
			err = -EIO;
			break;
		}
		memcpy(&h, raw, sizeof(h));
		if (d->needs_swap)
			perf_event_header__swap(&h);
		if (rp->read_to_eof && h.size == 0 && zero_to_end(d, off, end)) {
			pr_debug("%s: zeros from offset %#" PRIx64 " to the end of a file without data size: end of data\n",
				 d->path, off);
			break;
		}
		r = reader__check_record(d, &h, off, avail);
		if (r < 0) {
			reader__stop(d, off, stop_why(d, &h));
			err = h.size > avail ? -EIO : -EINVAL;
			break;
		}
		if (((uintptr_t)raw & 7) == 0) {
			ev = (union perf_event *)raw;
			owner = w.owner;
			if (d->needs_swap)
				memcpy(ev, &h, sizeof(h));
		} else {
			ev = copy_aligned(d, raw, h.size, &owner);
			if (!ev) {
				err = -ENOMEM;
				break;
			}
			memcpy(ev, &h, sizeof(h));
		}
		extra = reader__trailing_bytes(d, ev);
		if (r > 0 && ev->header.type == PERF_RECORD_HEADER_TRACING_DATA && extra &&
		    extra <= end - off - h.size) {
			/* pipe format: the tracing data follows the record */
			void *td = malloc(extra);

			if (td && rs->copy(state, td, extra, off + h.size)) {
				free(td);
				td = NULL;
			}
			if (td) {
				free(d->env.tracing_data);
				d->env.tracing_data = td;
				d->env.tracing_data_size = extra;
			}
		}
		if (r > 0) {
			err = reader__record(d, ev, off, owner);
			if (err)
				break;
		}
		off += h.size;
		if (extra > end - off) {
			pr_err("%s: bad record at offset %#" PRIx64 ": trailing data goes past the end\n",
			       d->path, rp->cur_offset);
			d->stats.nr_bad_records++;
			reader__stop(d, rp->cur_offset, stop_why(d, &h));
			err = -EIO;
			break;
		}
		off += extra;
	}
	/* the data section ended early: what the header announces is not all here */
	if (!err && off >= end && d->summary.truncated)
		reader__stop(d, off, "file truncated");
	rs->stop(state);
	if (rp->cur_copy) {
		perf_data__put(d, rp->cur_copy);
		rp->cur_copy = NULL;
	}
	return err;
}

int reader__process(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);

	if (rp->map)
		return reader__process_file(d);
	return reader__process_stream(d);
}
