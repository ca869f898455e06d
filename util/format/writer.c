// SPDX-License-Identifier: GPL-2.0
/* perf.data writer; see writer.h and perf.data-file-format.txt. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "writer.h"
#include "header.h"
#include "event.h"
#include "../lib/debug.h"
#include "../lib/util.h"

/* perf_file_attr as stored: attr (WRITER_ATTR_SIZE bytes) + ids section. */
#define FILE_ATTR_SIZE (WRITER_ATTR_SIZE + sizeof(struct perf_file_section))

int writer__open(struct perf_data_writer *w, const char *path, int comp_level)
{
	struct stat st;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->comp_level = comp_level;
	if (comp_level > 0) {
		w->zctx = ZSTD_createCCtx();
		w->zbuf = malloc(65536);
		if (!w->zctx || !w->zbuf) {
			pr_err("prf record: out of memory for the zstd compressor\n");
			return -ENOMEM;
		}
		ZSTD_CCtx_setParameter(w->zctx, ZSTD_c_compressionLevel, comp_level);
	}
	if (!strcmp(path, "-")) {
		w->is_pipe = true;
		w->fd = STDOUT_FILENO;
		return 0;
	}
	w->path = strdup(path);
	if (!w->path)
		return -ENOMEM;
	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		char old[4096];

		snprintf(old, sizeof(old), "%s.old", path);
		if (rename(path, old) < 0)
			pr_warning("Warning: cannot rename %s to %s: %s\n", path, old, strerror(errno));
		else
			w->renamed_old = true;
	}
	w->fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int err = -errno;

		pr_err("failed to open %s: %s\n", path, strerror(errno));
		return err;
	}
	return 0;
}

static void attr_copy(struct perf_event_attr *dst, const struct perf_event_attr *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, min(sizeof(*dst), (size_t)WRITER_ATTR_SIZE));
	dst->size = WRITER_ATTR_SIZE;
}

static int fill_header(struct perf_data_writer *w, const struct writer_attr *attrs, int nr,
		       struct perf_file_header *h)
{
	uint64_t nr_ids = 0;

	for (int i = 0; i < nr; i++)
		nr_ids += attrs[i].nr_ids;
	memset(h, 0, sizeof(*h));
	h->magic = PERF_MAGIC2;
	h->size = sizeof(*h);
	h->attr_size = FILE_ATTR_SIZE;
	h->attrs.offset = sizeof(*h) + nr_ids * sizeof(uint64_t);
	h->attrs.size = (uint64_t)nr * FILE_ATTR_SIZE;
	h->data.offset = h->attrs.offset + h->attrs.size;
	h->data.size = 0;
	return 0;
}

static int write_at(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int writer__write_header(struct perf_data_writer *w, const struct writer_attr *attrs, int nr)
{
	struct perf_file_header h;
	char *buf;
	size_t len, off;
	int ret;

	if (w->is_pipe) {
		struct perf_pipe_file_header ph = { .magic = PERF_MAGIC2, .size = sizeof(ph) };

		ret = writen(w->fd, &ph, sizeof(ph));
		if (ret)
			return w->err = ret;
		w->pipe_bytes += sizeof(ph);
		for (int i = 0; i < nr; i++) {
			size_t sz = sizeof(struct perf_event_header) + WRITER_ATTR_SIZE +
				    attrs[i].nr_ids * sizeof(uint64_t);
			char *rec = zalloc(sz);
			struct perf_event_header *eh = (void *)rec;

			if (!rec)
				return -ENOMEM;
			eh->type = PERF_RECORD_HEADER_ATTR;
			eh->size = (uint16_t)sz;
			attr_copy((struct perf_event_attr *)(rec + sizeof(*eh)), attrs[i].attr);
			memcpy(rec + sizeof(*eh) + WRITER_ATTR_SIZE, attrs[i].ids,
			       attrs[i].nr_ids * sizeof(uint64_t));
			ret = writen(w->fd, rec, sz);
			free(rec);
			if (ret)
				return w->err = ret;
			w->pipe_bytes += sz;
		}
		return 0;
	}

	fill_header(w, attrs, nr, &h);
	len = h.data.offset;
	buf = zalloc(len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &h, sizeof(h));
	off = sizeof(h);
	{
		uint64_t ids_off = off;
		size_t aoff = h.attrs.offset;

		for (int i = 0; i < nr; i++) {
			struct perf_event_attr a;
			struct perf_file_section ids = {
				.offset = ids_off,
				.size = attrs[i].nr_ids * sizeof(uint64_t),
			};

			memcpy(buf + ids_off, attrs[i].ids, ids.size);
			ids_off += ids.size;
			attr_copy(&a, attrs[i].attr);
			memcpy(buf + aoff, &a, WRITER_ATTR_SIZE);
			memcpy(buf + aoff + WRITER_ATTR_SIZE, &ids, sizeof(ids));
			aoff += FILE_ATTR_SIZE;
		}
	}
	ret = write_at(w->fd, buf, len, 0);
	free(buf);
	if (ret)
		return w->err = ret;
	w->data_offset = h.data.offset;
	w->data_size = 0;
	if (lseek(w->fd, (off_t)w->data_offset, SEEK_SET) < 0)
		return w->err = -errno;
	return 0;
}

int writer__write_feature_record(struct perf_data_writer *w, int feat_id,
				 const void *buf, size_t len)
{
	struct perf_record_header_feature fh;
	size_t sz = sizeof(fh) + len;
	int ret;

	if (sz > 65535) {
		pr_debug("feature %d too large for a pipe record (%zu bytes), skipped\n", feat_id, len);
		return 0;
	}
	fh.header.type = PERF_RECORD_HEADER_FEATURE;
	fh.header.misc = 0;
	fh.header.size = (uint16_t)sz;
	fh.feat_id = (uint64_t)feat_id;
	ret = writen(w->fd, &fh, sizeof(fh));
	if (!ret)
		ret = writen(w->fd, buf, len);
	if (ret)
		return w->err = ret;
	w->pipe_bytes += sz;
	return 0;
}

int writer__write_tracing_data(struct perf_data_writer *w, const void *buf, size_t len)
{
	static const char zeros[8];
	struct perf_record_header_tracing_data td;
	size_t aligned = PERF_ALIGN(len, (size_t)8);
	int ret;

	memset(&td, 0, sizeof(td));
	td.header.type = PERF_RECORD_HEADER_TRACING_DATA;
	td.header.size = sizeof(td);
	td.size = (uint32_t)aligned;
	ret = writen(w->fd, &td, sizeof(td));
	if (!ret)
		ret = writen(w->fd, buf, len);
	if (!ret && aligned > len)
		ret = writen(w->fd, zeros, aligned - len);
	if (ret)
		return w->err = ret;
	w->pipe_bytes += sizeof(td) + aligned;
	return 0;
}

int writer__write(struct perf_data_writer *w, const void *buf, size_t len)
{
	const char *p = buf;
	size_t left = len;

	if (w->err)
		return w->err;
	while (left) {
		ssize_t n = write(w->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -ENOSPC;

			w->err = err;
			if (!w->is_pipe) {
				/* Drop the partial chunk: keep complete records only. */
				off_t good = (off_t)(w->data_offset + w->data_size);

				if (ftruncate(w->fd, good) == 0)
					lseek(w->fd, good, SEEK_SET);
			}
			return err;
		}
		p += n;
		left -= (size_t)n;
	}
	if (w->is_pipe)
		w->pipe_bytes += len;
	else
		w->data_size += len;
	return 0;
}

static int write_compressed(struct perf_data_writer *w, const char *src, size_t len)
{
	struct perf_event_header *eh = (void *)w->zbuf;
	size_t cap = 65535 - sizeof(*eh);
	size_t n = ZSTD_compress2(w->zctx, w->zbuf + sizeof(*eh), cap, src, len);

	if (ZSTD_isError(n)) {
		pr_debug("zstd: %s, writing %zu bytes uncompressed\n", ZSTD_getErrorName(n), len);
		return writer__write(w, src, len);
	}
	eh->type = PERF_RECORD_COMPRESSED;
	eh->misc = 0;
	eh->size = (uint16_t)(n + sizeof(*eh));
	w->comp_in += len;
	w->comp_out += n + sizeof(*eh);
	return writer__write(w, w->zbuf, n + sizeof(*eh));
}

int writer__write_records(struct perf_data_writer *w, const void *buf, size_t len)
{
	const char *p = buf, *batch = buf, *end = p + len;

	if (!w->comp_level)
		return writer__write(w, buf, len);
	while (p < end) {
		const struct perf_event_header *eh = (const void *)p;

		if (eh->size < sizeof(*eh) || p + eh->size > end)
			break;
		if (p > batch && (size_t)(p + eh->size - batch) > WRITER_COMP_BATCH) {
			int ret = write_compressed(w, batch, (size_t)(p - batch));

			if (ret)
				return ret;
			batch = p;
		}
		p += eh->size;
	}
	if (p > batch)
		return write_compressed(w, batch, (size_t)(p - batch));
	return 0;
}

int writer__sync_data_size(struct perf_data_writer *w)
{
	if (w->is_pipe || w->fd < 0 || !w->data_offset)
		return 0;
	return write_at(w->fd, &w->data_size, sizeof(w->data_size),
			(off_t)offsetof(struct perf_file_header, data.size));
}

uint64_t writer__size(const struct perf_data_writer *w)
{
	return w->is_pipe ? w->pipe_bytes : w->data_offset + w->data_size;
}

uint32_t writer__comp_ratio(const struct perf_data_writer *w)
{
	if (!w->comp_out)
		return 0;
	return (uint32_t)((w->comp_in + w->comp_out / 2) / w->comp_out);
}

int writer__finish(struct perf_data_writer *w, const struct writer_attr *attrs, int nr,
		   const struct writer_feat *feats, int nr_feats)
{
	struct perf_file_header h;
	uint64_t off = w->data_offset + w->data_size;
	struct perf_file_section *secs = NULL;
	int ret = 0;

	if (w->is_pipe)
		return 0;
	fill_header(w, attrs, nr, &h);
	h.data.offset = w->data_offset;
	h.data.size = w->data_size;
	if (nr_feats > 0 && (secs = calloc((size_t)nr_feats, sizeof(*secs)))) {
		uint64_t poff = off + (uint64_t)nr_feats * sizeof(*secs);

		for (int i = 0; i < nr_feats; i++) {
			secs[i].offset = poff;
			secs[i].size = feats[i].len;
			ret = write_at(w->fd, feats[i].buf, feats[i].len, (off_t)poff);
			if (ret)
				break;
			poff += feats[i].len;
		}
		if (!ret)
			ret = write_at(w->fd, secs, (size_t)nr_feats * sizeof(*secs), (off_t)off);
		if (ret) {
			/* No room for the features: keep the data valid without them. */
			pr_debug("cannot write feature sections: %s\n", strerror(-ret));
			if (ftruncate(w->fd, (off_t)off)) {
				/* the data is still intact before off */
			}
		} else {
			for (int i = 0; i < nr_feats; i++)
				h.adds_features[feats[i].id / 64] |= 1ULL << (feats[i].id % 64);
		}
		free(secs);
	}
	{
		int hret = write_at(w->fd, &h, sizeof(h), 0);

		if (hret)
			return hret;
	}
	return ret;
}

void writer__abort(struct perf_data_writer *w)
{
	if (!w->is_pipe && w->path && w->fd >= 0) {
		unlink(w->path);
		if (w->renamed_old) {
			char old[4096];

			snprintf(old, sizeof(old), "%s.old", w->path);
			if (rename(old, w->path) < 0)
				pr_debug("cannot rename %s back to %s: %s\n", old, w->path, strerror(errno));
		}
	}
	writer__close(w);
}

void writer__close(struct perf_data_writer *w)
{
	if (w->fd >= 0 && !w->is_pipe)
		close(w->fd);
	w->fd = -1;
	free(w->path);
	w->path = NULL;
	if (w->zctx)
		ZSTD_freeCCtx(w->zctx);
	w->zctx = NULL;
	free(w->zbuf);
	w->zbuf = NULL;
}
