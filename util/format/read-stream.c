// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data from a real pipe (pipe mode, perf.data-file-format.txt): the
 * records are read one by one into chunks (data-internal.h) that queued
 * records keep a reference to.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "data-internal.h"
#include "../lib/debug.h"
#include "../lib/util.h"

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
int reader__process_stream(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	uint64_t off = 16;
	int err = 0;

	for (;;) {
		struct perf_event_header h;
		union perf_event *ev;
		uint64_t extra;
		ssize_t n;
		int r;

		rp->cur_offset = off;
		n = readn(d->fd, &h, sizeof(h));
		if (n == 0)
			break;
		if (n != sizeof(h)) {
			pr_err("%s: bad record at offset %#" PRIx64 ": truncated record header\n", d->path, off);
			d->stats.nr_bad_records++;
			reader__stop(d, off, "stream ended inside a record");
			err = -EIO;
			break;
		}
		if (d->needs_swap)
			perf_event_header__swap(&h);
		r = reader__check_record(d, &h, off, UINT64_MAX);
		if (r < 0) {
			reader__stop(d, off, "record size too small");
			err = -EINVAL;
			break;
		}
		ev = reader__chunk_room(d, &rp->cur_pipe, h.size);
		if (!ev)
			return -ENOMEM;
		memcpy(ev, &h, sizeof(h));
		if (h.size > sizeof(h) && readn(d->fd, (char *)ev + sizeof(h), h.size - sizeof(h)) !=
		    (ssize_t)(h.size - sizeof(h))) {
			pr_err("%s: bad record at offset %#" PRIx64 ": truncated (size %u)\n", d->path, off, h.size);
			d->stats.nr_bad_records++;
			reader__stop(d, off, "stream ended inside a record");
			err = -EIO;
			break;
		}
		extra = reader__trailing_bytes(d, ev);
		if (r > 0) {
			if (ev->header.type == PERF_RECORD_HEADER_TRACING_DATA && extra && extra < (1ULL << 32)) {
				void *td = pipe_read_grow(d->fd, extra);

				if (!td) {
					pr_err("%s: bad record at offset %#" PRIx64 ": tracing data of %" PRIu64
					       " bytes not in the stream\n", d->path, off, (uint64_t)extra);
					d->stats.nr_bad_records++;
					reader__stop(d, off, "stream ended inside a record");
					err = -EIO;
					break;
				}
				free(d->env.tracing_data);
				d->env.tracing_data = td;
				d->env.tracing_data_size = extra;
				off += extra;
				extra = 0;
			}
			err = reader__record(d, ev, off, rp->cur_pipe);
			if (err)
				break;
		}
		off += h.size;
		while (extra) {
			char skip[4096];
			size_t k = extra > sizeof(skip) ? sizeof(skip) : extra;

			if (readn(d->fd, skip, k) != (ssize_t)k) {
				pr_err("%s: bad record at offset %#" PRIx64 ": its trailing data is not in the stream\n",
				       d->path, off);
				d->stats.nr_bad_records++;
				reader__stop(d, off, "stream ended inside a record");
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
