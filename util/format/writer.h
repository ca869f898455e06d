/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_WRITER_H
#define PRF_FORMAT_WRITER_H
/*
 * perf.data writer, following tools/perf/Documentation/perf.data-file-format.txt.
 *
 * File mode layout written by prf:
 *   perf_file_header | u64 ids of every attr | perf_file_attr[] | data ... |
 *   perf_file_section[one per feature bit] | feature payloads
 * The header is written first with data.size = 0 (and no feature bits);
 * writer__sync_data_size() then keeps data.size current while recording
 * (perf 6.1's reader rejects data.size 0), and writer__finish() appends
 * the features and rewrites the header.
 *
 * Pipe mode (`-o -`): perf_pipe_file_header, then PERF_RECORD_HEADER_ATTR
 * records, PERF_RECORD_HEADER_FEATURE records, the stream.
 *
 * Compression (-z): data passed to writer__write_records() is packed into
 * PERF_RECORD_COMPRESSED records, each one complete zstd frame holding whole
 * records (at most WRITER_COMP_BATCH input bytes), as perf 6.1 reads them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Bytes of perf_event_attr written per attr (PERF_ATTR_SIZE_VER7, perf 6.1). */
#define WRITER_ATTR_SIZE 128
/* Largest input batch per PERF_RECORD_COMPRESSED (keeps the frame < 64 KiB). */
#define WRITER_COMP_BATCH (32 * 1024)

/* One event's attr and its kernel ids (PERF_EVENT_IOC_ID). Not owned. */
struct writer_attr {
	const struct perf_event_attr *attr;
	const uint64_t *ids;
	size_t nr_ids;
};

/* One feature payload (HEADER_* id) as built by features-write.h. */
struct writer_feat {
	int id;
	const void *buf;
	size_t len;
};

struct perf_data_writer {
	int fd;
	bool is_pipe;
	char *path;		/* NULL for pipe mode */
	uint64_t data_offset;	/* file offset of the data section */
	uint64_t data_size;	/* bytes of complete records in the data section */
	uint64_t pipe_bytes;	/* pipe mode: bytes written */
	int err;		/* first write error (-errno), sticky */
	bool renamed_old;	/* an existing file was moved to PATH.old */
	/* compression */
	int comp_level;		/* 0: off */
	void *zctx;		/* ZSTD_CCtx */
	char *zbuf;
	uint64_t comp_in, comp_out;	/* bytes before/after compression */
};

/*
 * Open `path` for writing ("-" = pipe mode on stdout). An existing
 * non-empty regular file is first renamed to PATH.old as perf does.
 * comp_level 0 disables compression, 1..22 is the zstd level.
 * Returns 0 or -errno (message printed with pr_err).
 */
int writer__open(struct perf_data_writer *w, const char *path, int comp_level);

/*
 * Write the file header (data.size 0), ids and attr section; in pipe mode
 * the pipe header and one PERF_RECORD_HEADER_ATTR per attr. 0 or -errno.
 */
int writer__write_header(struct perf_data_writer *w, const struct writer_attr *attrs, int nr);

/* Pipe mode: one PERF_RECORD_HEADER_FEATURE record. 0 or -errno. */
int writer__write_feature_record(struct perf_data_writer *w, int feat_id,
				 const void *buf, size_t len);

/* Pipe mode: PERF_RECORD_HEADER_TRACING_DATA (16-byte record with the
 * 8-aligned payload size) followed by the payload, zero padded. 0 or -errno. */
int writer__write_tracing_data(struct perf_data_writer *w, const void *buf, size_t len);

/*
 * Append raw bytes (whole records) to the data section, uncompressed.
 * On a short write (e.g. ENOSPC) the file is truncated back to the last
 * complete record and the error is returned (and kept in w->err).
 */
int writer__write(struct perf_data_writer *w, const void *buf, size_t len);

/*
 * Append whole records, compressed when comp_level > 0, else as
 * writer__write(). `buf` must hold complete records. 0 or -errno.
 */
int writer__write_records(struct perf_data_writer *w, const void *buf, size_t len);

/*
 * File mode: store the current data size in the on-disk header (one
 * pwrite of data.size), so that a recording killed with SIGKILL is still
 * readable up to the last synced record: Linux perf 6.1 refuses files
 * whose data.size is 0. No-op in pipe mode. 0 or -errno.
 */
int writer__sync_data_size(struct perf_data_writer *w);

/* Bytes written so far (file: header+data; pipe: stream). */
uint64_t writer__size(const struct perf_data_writer *w);

/* Compression ratio (input/output, rounded) for HEADER_COMPRESSED; 0 when none. */
uint32_t writer__comp_ratio(const struct perf_data_writer *w);

/*
 * File mode: append the feature section table and payloads after the data
 * (features in increasing id order; ids must be unique) and rewrite the
 * header with data.size and the feature bits. When the features cannot be
 * written (ENOSPC) the header is still rewritten with data.size and no
 * features. Pipe mode: nothing. Returns 0 or -errno.
 */
int writer__finish(struct perf_data_writer *w, const struct writer_attr *attrs, int nr,
		   const struct writer_feat *feats, int nr_feats);

/*
 * For a run that failed before any record was written: remove the file
 * and rename PATH.old back to PATH when writer__open() had moved it away.
 * Then as writer__close(). No-op for pipes.
 */
void writer__abort(struct perf_data_writer *w);

/* Close the fd (not stdout) and free buffers. */
void writer__close(struct perf_data_writer *w);

#endif
