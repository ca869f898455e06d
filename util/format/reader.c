// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data input: file mode (header, attr section with ids, data section,
 * feature sections; the whole file is mmap'ed, or read when small) and pipe mode (a stream of
 * records read into chunks), either byte order, with zstd
 * PERF_RECORD_COMPRESSED inflated. Layout per
 * tools/perf/Documentation/perf.data-file-format.txt.
 * Every length read from the input is checked before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <byteswap.h>
#include <zstd.h>
#include "data-internal.h"
#include "../lib/debug.h"
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
#define BLOCK_BYTES (2u << 20)	/* a read block of the data section (a PMD: one THP) */
#define AHEAD_MIN_DATA (16u << 20)	/* smaller data: not worth a helper thread */

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

static int bad_file(struct perf_data *d, const char *why)
{
	pr_err("%s: not a valid perf.data file: %s\n", d->path, why);
	return -EINVAL;
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
	if (h->size < sizeof(*h) || h->size > fsz)
		return bad_file(d, "bad header size");
	/* feature bitmap: bytes are u64 words in writer order */
	for (i = 0; i < HEADER_FEAT_BITS; i++)
		if (h->adds_features[i / 64] >> (i % 64) & 1)
			d->feat_bits[i / (8 * sizeof(long))] |= 1UL << (i % (8 * sizeof(long)));

	/* attrs */
	entry = h->attr_size;
	if (entry < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) || entry > 4096)
		return bad_file(d, "bad attr entry size");
	if (h->attrs.offset > fsz || h->attrs.size > fsz - h->attrs.offset || h->attrs.size % entry)
		return bad_file(d, "attr section outside the file");
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
		memcpy(&ids, a + asz, sizeof(ids));
		if (d->needs_swap) {
			ids.offset = bswap_64(ids.offset);
			ids.size = bswap_64(ids.size);
		}
		if (ids.size) {
			if (ids.offset > fsz || ids.size > fsz - ids.offset || ids.size % 8)
				return bad_file(d, "attr ids outside the file");
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
	if (!nr_attrs)
		return bad_file(d, "no events (empty attr section)");

	/* data section */
	d->data_offset = h->data.offset;
	d->data_size = h->data.size;
	if (d->data_offset > fsz)
		return bad_file(d, "data section outside the file");
	if (!d->data_size) {
		rp->read_to_eof = true;
		d->data_size = fsz - d->data_offset;
		pr_debug("%s: data size 0 in header, reading to end of file\n", d->path);
	} else if (d->data_size > fsz - d->data_offset) {
		pr_err("%s: data section truncated (header says %" PRIu64 " bytes, file has %" PRIu64 ")\n",
		       d->path, d->data_size, fsz - d->data_offset);
		d->data_size = fsz - d->data_offset;
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

/*
 * Files up to SMALL_FILE bytes are read into a heap buffer instead of
 * mapped (mmap + munmap, page faults and a TLB flush cost more than the
 * copy there: the fuzz harnesses' inputs); the buffer is used exactly
 * like the private writable mapping (records byte-swapped in place,
 * 8-byte alignment as in the file). Bigger files are mapped: their pages
 * are in the page cache already, where the copy needs fresh memory (in a
 * VM a fault and the hypervisor's first touch a page: an 850 KB file
 * read into the heap cost `prf script` 2 ms more than mapped).
 */
#define SMALL_FILE (64u << 10)

static bool reader__map_is_heap(const struct reader_priv *rp)
{
	return rp->map_size <= SMALL_FILE;
}

/* pread() exactly len bytes at off into buf; 0 or negative errno (message printed). */
static int read_at(struct perf_data *d, char *buf, size_t len, uint64_t off)
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

static int reader__read_small(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	int err;

	rp->map = malloc(rp->map_size);
	if (!rp->map)
		return -ENOMEM;
	populate_write(rp->map, rp->map_size);	/* not a fault per page in read() */
	err = read_at(d, rp->map, rp->map_size, 0);
	if (err) {
		free(rp->map);
		rp->map = NULL;
	}
	return err;
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
		rp->map_size = d->file_size;
		if (reader__map_is_heap(rp)) {
			/* a small file is read: cheaper than mmap + munmap */
			int err = reader__read_small(d);

			if (err)
				return err;
		} else {
			rp->map = mmap(NULL, rp->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, d->fd, 0);
			if (rp->map == MAP_FAILED) {
				int err = -errno;

				rp->map = NULL;
				pr_err("%s: mmap failed: %s\n", d->path, strerror(errno));
				return err;
			}
			madvise(rp->map, rp->map_size, MADV_SEQUENTIAL);
		}
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
	if (rp->map && reader__map_is_heap(rp))
		free(rp->map);
	else if (rp->map)
		munmap(rp->map, rp->map_size);
	rp->map = NULL;
	while (rp->chunks) {
		struct rec_chunk *c = rp->chunks;

		rp->chunks = c->next;
		free(c);
	}
	while (rp->nr_blocks > 0)
		munmap(rp->all_blocks[--rp->nr_blocks], BLOCK_BYTES);
	free(rp->all_blocks);
	rp->all_blocks = NULL;
	rp->alloc_blocks = 0;
	rp->free_blocks = NULL;
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

/* Extra bytes following a record outside header.size (pipe tracing data, AUX). */
static uint64_t record_trailing_bytes(struct perf_data *d, union perf_event *ev)
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

/*
 * Check one record header at `off`; `avail` bytes are available from it.
 * Returns 1 when the record can be processed, 0 to skip header.size bytes,
 * -1 to stop.
 */
static int check_record(struct perf_data *d, struct perf_event_header *h, uint64_t off, uint64_t avail)
{
	if (h->size < sizeof(*h)) {
		pr_err("bad record at offset %#" PRIx64 ": size %u is too small, stopping\n", off, h->size);
		d->stats.nr_bad_records++;
		return -1;
	}
	if (h->size > avail) {
		pr_err("bad record at offset %#" PRIx64 ": size %u goes past the end of the data (%" PRIu64
		       " bytes left): truncated file, stopping\n", off, h->size, avail);
		d->stats.nr_bad_records++;
		return -1;
	}
	if (!type_known(h->type)) {
		pr_err("bad record at offset %#" PRIx64 ": unknown type %u (size %u), skipped\n",
		       off, h->type, h->size);
		d->stats.nr_bad_records++;
		return 0;
	}
	return 1;
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
			pr_err("bad record at offset %#" PRIx64 ": zstd: %s, skipped\n", off,
			       ZSTD_getErrorName(err_z));
			d->stats.nr_bad_records++;
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
		r = check_record(d, &e->header, off, c->used - pos);
		if (r >= 0 && (e->header.size & 7)) {
			pr_err("bad record at offset %#" PRIx64 ": compressed payload has a record of size %u\n",
			       off, e->header.size);
			d->stats.nr_bad_records++;
			r = -1;
		}
		if (r < 0 || e->header.type == PERF_RECORD_COMPRESSED) {
			if (r >= 0) {
				pr_err("bad record at offset %#" PRIx64 ": nested compressed record\n", off);
				d->stats.nr_bad_records++;
			}
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

/* Common per-record work once the header is in host order and validated. */
static int reader__one(struct perf_data *d, union perf_event *ev, uint64_t off, struct rec_chunk *owner)
{
	if (ev->header.type == PERF_RECORD_COMPRESSED) {
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
	return perf_data__process_record(d, ev, off, owner);
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
	struct rec_chunk *c = rp->cur_copy;
	union perf_event *ev;

	if (!c || c->size - c->used < size) {
		size_t csize = chunk_next_size(c, size);

		if (c) {
			rp->cur_copy = NULL;
			perf_data__put(d, c);
		}
		c = chunk_new(d, csize);
		if (!c)
			return NULL;
		rp->cur_copy = c;
	}
	ev = (union perf_event *)(c->data + c->used);
	memcpy(ev, src, size);
	c->used += (size + 7) & ~(size_t)7;
	if (c->used > c->size)
		c->used = c->size;
	*owner = c;
	return ev;
}

/*
 * Reading the data section with pread() into 2 MB blocks instead of
 * through the mapping. A mapped page of the file costs the kernel a page
 * table entry to make and to take down again, and in a VM with shadow
 * paging the hypervisor's first touch on top (1.6 us a page here): about
 * 60 ms for a 62 MB recording, read with pread() into a reused block in
 * 10 ms. The blocks are anonymous memory asked to be one transparent
 * huge page each (one fault for 2 MB, where 512 fresh pages cost 8 ms
 * here): without THP the mapping is read as before.
 */
static bool blocks_usable(void)
{
	static int usable = -1;
	char buf[128] = "";
	int fd;

	if (usable >= 0)
		return usable;
	fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = 0;
		close(fd);
	}
	usable = strstr(buf, "[always]") || strstr(buf, "[madvise]");
	return usable;
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
	pthread_t tid;
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
		sl->err = read_at(db->d, sl->c->data, sl->to - sl->from, sl->from);
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
	db->helped = !pthread_create(&db->tid, NULL, read_ahead__run, db);
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
			sl.err = read_at(db->d, sl.c->data, sl.to - sl.from, sl.from);
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
		pthread_join(db->tid, NULL);
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

#define PMD_BYTES (2u << 20)		/* x86_64 and arm64 (4 KB pages) */
#define RELEASE_STEP (2u << 20)		/* the reader gives back, or tells the helper, per step */
#define AHEAD_STEP RELEASE_STEP		/* page tables made per madvise(): the next step */
#define AHEAD_MAX (4u << 20)		/* made this far past the reader at most */
/* The helper this far behind in giving back: the reader does it. At 2 MB
 * the reader gave back half the steps of a 65 MB DWARF recording itself
 * (the helper, mapping and reading the pages ahead, is about as fast as
 * the reader here), each 2 MB a madvise() with a TLB flush on the
 * helper's CPU; at 8 MB the helper does them all, `script -F +srcline`
 * 3-6% faster, peak RSS the same (17.2 -> 17.5 MB) and never more than
 * 6 MB above. */
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
	 * process (25 of them per run on a 118 MB file here) */
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
 * thread pays for both itself, page fault by page fault: mapping a 118 MB
 * DWARF recording's pages costs 11-14 ms here (about 0.4 us a page,
 * faulted or populated alike), a seventh of a `script -F +srcline` on it.
 * It then reads a byte of each page it mapped (map_helper__touch()). The
 * helper only ever maps and reads: what the reader reads is the same
 * whether a page was mapped ahead or on its fault.
 */
struct map_helper {
	pthread_t tid;
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
 * entries): 1.7 us a page here, 34 ms for the 9.9 K records of an 80 MB
 * DWARF recording, which the reader paid record by record. One thread
 * touching a page does it for all threads of the process (after it the
 * reader walked the records in 0.4 ms instead of 35-45).
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
	if (pthread_create(&h->tid, NULL, map_helper__run, h)) {
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
	pthread_join(h->tid, NULL);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
}

/*
 * Records of a regular file (perf.data, or a pipe-format file): read
 * into blocks (blocks_usable()), or in the mapping, whose pages are
 * given back behind the reader.
 */
static int reader__process_file(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	uint64_t off = d->data_offset, end = d->data_offset + d->data_size;
	uint64_t next_release = off + RELEASE_STEP;
	struct map_helper helper;
	bool blocks = !reader__map_is_heap(rp) && !getenv("PRF_READ_MAPPED") && blocks_usable();
	bool helped = !blocks && map_helper__start(&helper, d, off, end);
	struct data_blocks db;
	int err = 0;

	if (blocks)
		data_blocks__init(&db, d, off, end);
	rp->released = 0;
	while (off < end) {
		if (blocks) {
			err = data_blocks__at(&db, off);
			if (err)
				break;
		} else if (off >= next_release) {
			uint64_t upto = release_point(d, off);

			if (helped) {
				map_helper__tell(&helper, off, upto);
			} else if (upto > rp->released) {
				madvise(rp->map + rp->released, upto - rp->released, MADV_DONTNEED);
				rp->released = upto;
			}
			next_release = off + RELEASE_STEP;
		}
		char *raw = blocks ? db.cur->data + (off - db.from) : rp->map + off;
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
		if (avail < sizeof(struct perf_event_header)) {
			pr_err("bad record at offset %#" PRIx64 ": %" PRIu64 " trailing bytes, truncated file\n",
			       off, avail);
			d->stats.nr_bad_records++;
			err = -EIO;
			break;
		}
		memcpy(&h, raw, sizeof(h));
		if (d->needs_swap)
			perf_event_header__swap(&h);
		if (rp->read_to_eof && h.size == 0) {
			pr_debug("%s: zero record at offset %#" PRIx64 " in a file without data size: end of data\n",
				 d->path, off);
			break;
		}
		r = check_record(d, &h, off, avail);
		if (r < 0) {
			err = h.size > avail ? -EIO : -EINVAL;
			break;
		}
		if (((uintptr_t)raw & 7) == 0) {
			ev = (union perf_event *)raw;
			owner = blocks ? db.cur : NULL;
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
		extra = record_trailing_bytes(d, ev);
		if (r > 0 && ev->header.type == PERF_RECORD_HEADER_TRACING_DATA && extra &&
		    extra <= end - off - h.size) {
			/* pipe format: the tracing data follows the record */
			void *td = malloc(extra);

			if (td && blocks && read_at(d, td, extra, off + h.size)) {
				free(td);
				td = NULL;
			}
			if (td) {
				if (!blocks)
					memcpy(td, rp->map + off + h.size, extra);
				free(d->env.tracing_data);
				d->env.tracing_data = td;
				d->env.tracing_data_size = extra;
			}
		}
		if (r > 0) {
			err = reader__one(d, ev, off, owner);
			if (err)
				break;
		}
		off += h.size;
		if (extra > end - off) {
			pr_err("bad record at offset %#" PRIx64 ": trailing data goes past the end\n", rp->cur_offset);
			d->stats.nr_bad_records++;
			err = -EIO;
			break;
		}
		off += extra;
	}
	if (helped)
		map_helper__stop(&helper);
	if (blocks)
		data_blocks__exit(&db);
	if (rp->cur_copy) {
		perf_data__put(d, rp->cur_copy);
		rp->cur_copy = NULL;
	}
	return err;
}

/*
 * Read exactly len bytes of a stream into a malloc'd buffer that grows as
 * the bytes arrive (1 MiB, then doubling), so a record that claims gigabytes
 * costs only what the stream really holds. NULL when the stream ends first
 * or memory runs out; the caller owns the buffer.
 */
static void *pipe_read_grow(int fd, uint64_t len)
{
	size_t cap = len < (1u << 20) ? (size_t)len : (1u << 20), have = 0;
	char *buf = malloc(cap), *nb;

	while (buf) {
		size_t want = cap - have;
		ssize_t n = readn(fd, buf + have, want);

		if (n != (ssize_t)want) {
			free(buf);
			return NULL;
		}
		have = cap;
		if (have == len)
			return buf;
		cap = len - have < have ? (size_t)len : 2 * have;
		nb = realloc(buf, cap);
		if (!nb)
			free(buf);
		buf = nb;
	}
	return NULL;
}

/* A real pipe: read records into chunks. */
static int reader__process_stream(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	uint64_t off = 16;
	int err = 0;

	for (;;) {
		struct perf_event_header h;
		struct rec_chunk *c = rp->cur_pipe;
		union perf_event *ev;
		uint64_t extra;
		ssize_t n;
		int r;

		rp->cur_offset = off;
		n = readn(d->fd, &h, sizeof(h));
		if (n == 0)
			break;
		if (n != sizeof(h)) {
			pr_err("bad record at offset %#" PRIx64 ": truncated record header\n", off);
			d->stats.nr_bad_records++;
			err = -EIO;
			break;
		}
		if (d->needs_swap)
			perf_event_header__swap(&h);
		r = check_record(d, &h, off, UINT64_MAX);
		if (r < 0) {
			err = -EINVAL;
			break;
		}
		if (!c || c->size - c->used < h.size) {
			size_t csize = chunk_next_size(c, h.size);

			if (c) {
				rp->cur_pipe = NULL;
				perf_data__put(d, c);
			}
			c = chunk_new(d, csize);
			if (!c)
				return -ENOMEM;
			rp->cur_pipe = c;
		}
		ev = (union perf_event *)(c->data + c->used);
		memcpy(ev, &h, sizeof(h));
		if (h.size > sizeof(h) && readn(d->fd, (char *)ev + sizeof(h), h.size - sizeof(h)) !=
		    (ssize_t)(h.size - sizeof(h))) {
			pr_err("bad record at offset %#" PRIx64 ": truncated (size %u)\n", off, h.size);
			d->stats.nr_bad_records++;
			err = -EIO;
			break;
		}
		c->used += (h.size + 7) & ~7u;
		if (c->used > c->size)
			c->used = c->size;
		extra = record_trailing_bytes(d, ev);
		if (r > 0) {
			if (ev->header.type == PERF_RECORD_HEADER_TRACING_DATA && extra && extra < (1ULL << 32)) {
				void *td = pipe_read_grow(d->fd, extra);

				if (!td) {
					pr_err("bad record at offset %#" PRIx64 ": tracing data of %" PRIu64
					       " bytes not in the stream\n", off, (uint64_t)extra);
					d->stats.nr_bad_records++;
					err = -EIO;
					break;
				}
				free(d->env.tracing_data);
				d->env.tracing_data = td;
				d->env.tracing_data_size = extra;
				off += extra;
				extra = 0;
			}
			err = reader__one(d, ev, off, c);
			if (err)
				break;
		}
		off += h.size;
		while (extra) {
			char skip[4096];
			size_t k = extra > sizeof(skip) ? sizeof(skip) : extra;

			if (readn(d->fd, skip, k) != (ssize_t)k) {
				err = -EIO;
				break;
			}
			extra -= k;
			off += k;
		}
		if (err)
			break;
	}
	if (rp->cur_pipe) {
		perf_data__put(d, rp->cur_pipe);
		rp->cur_pipe = NULL;
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
