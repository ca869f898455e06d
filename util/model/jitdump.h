/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_JITDUMP_H
#define PRF_MODEL_JITDUMP_H
/*
 * jitdump files (jit-PID.dump), the format JITs write for profilers
 * (Linux tools/perf/Documentation/jitdump-specification.txt; V8/node
 * --perf-prof, the JVM's jvmti agent): a header (magic "JiTD", version,
 * header size, ELF machine, pid, timestamp, flags), then records of a
 * common header (id, total size, timestamp): JIT_CODE_LOAD (pid, tid,
 * vma, code address and size, code index, the function's name, the code),
 * JIT_CODE_MOVE, JIT_CODE_DEBUG_INFO (line table of one function),
 * JIT_CODE_UNWINDING_INFO, JIT_CODE_CLOSE. Either byte order (the magic
 * tells). Timestamps are in the JIT's clock: a recording with
 * `record -k mono` shares CLOCK_MONOTONIC with node and the JVM agent.
 *
 * Every length is checked against the buffer: a record that does not fit,
 * a name without its NUL, code or line entries running past the record
 * stop the walk with -EINVAL after handing on the records before it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;

enum jitdump_id {
	JITDUMP_CODE_LOAD = 0,
	JITDUMP_CODE_MOVE = 1,
	JITDUMP_CODE_DEBUG_INFO = 2,
	JITDUMP_CODE_CLOSE = 3,
	JITDUMP_CODE_UNWINDING_INFO = 4,
};

struct jitdump_header {
	uint32_t version;
	uint32_t elf_mach;	/* EM_* of the code */
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
	bool swap;		/* written on the other byte order */
};

/* One record, in host byte order; pointers into the buffer walked. */
struct jitdump_rec {
	uint32_t id;		/* enum jitdump_id, others handed on as they are */
	bool swap;		/* the dump's byte order is not the host's */
	uint64_t timestamp;	/* ns in the JIT's clock */
	/* CODE_LOAD, CODE_MOVE */
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	uint64_t old_code_addr;		/* CODE_MOVE: code_addr is the new one */
	const char *name;		/* CODE_LOAD: NUL-terminated */
	const uint8_t *code;		/* CODE_LOAD: code_size bytes */
	/* CODE_DEBUG_INFO: nr_lines entries in [lines, lines_end), for the
	 * code at code_addr; read them with jitdump__next_line() */
	uint64_t nr_lines;
	const uint8_t *lines, *lines_end;
	/* CODE_UNWINDING_INFO: the .eh_frame (+ .eh_frame_hdr) bytes */
	const uint8_t *unwind;
	uint64_t unwind_size, eh_frame_hdr_size, mapped_size;
};

/* One line-table entry of a CODE_DEBUG_INFO record. */
struct jitdump_line {
	uint64_t addr;		/* code address the line starts at */
	uint32_t line, discrim;
	const char *file;	/* NUL-terminated; the previous entry's when
				   the record says "same file" (0xff 0) */
};

/*
 * Walk buf[0..size): the header into *hdr (may be NULL), then cb(arg, rec)
 * for each record in file order. 0 at the end (a final record cut short,
 * as a dump still being written ends, is not an error), the callback's
 * non-zero value, or -EINVAL (not a jitdump, or a malformed record; the
 * records before it were handed on).
 */
int jitdump__walk(const void *buf, size_t size, struct jitdump_header *hdr,
		  int (*cb)(void *arg, const struct jitdump_rec *rec), void *arg);

/*
 * The next line entry of a CODE_DEBUG_INFO record: *pos starts at
 * rec->lines and is advanced; prev_file is the previous entry's file
 * (NULL at the first). 1 and *out filled, 0 at the end, -EINVAL when an
 * entry runs past the record.
 */
int jitdump__next_line(const struct jitdump_rec *rec, const uint8_t **pos,
		       const char *prev_file, struct jitdump_line *out);

/*
 * Whether path names a jitdump by its file name ("jit-PID.dump"); *pid
 * gets PID.
 */
bool jitdump__is_dump_name(const char *path, int *pid);

/*
 * The file to read for a jitdump a recording mapped at `recorded` by
 * process pid: that path when it is still there, else the newest
 * BUILDID_DIR/jit/<any>/jit-PID.dump (where the JVM agent's dumps live,
 * ~/.debug by default). 0 and the path in buf, or -ENOENT.
 */
int jitdump__find(const char *recorded, int pid, char *buf, size_t size);

/*
 * Map the jitdump file path read-only: *buf and *size, unmapped with
 * jitdump__unmap(). 0 or -errno.
 */
int jitdump__map(const char *path, void **buf, size_t *size);
void jitdump__unmap(void *buf, size_t size);

/*
 * Add the functions a jitdump file loaded (CODE_LOAD, and CODE_MOVE to
 * their new address) to dso's symbols, in absolute addresses (the JIT
 * map's), named as the JIT named them. Where two loads share a start
 * address the later one names it. The caller finishes the table
 * (dso__symbols_finish()). 0 or -errno.
 */
int dso__load_jitdump(struct dso *dso, const char *path);

#endif
