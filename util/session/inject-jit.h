/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_INJECT_JIT_H
#define PRF_SESSION_INJECT_JIT_H
/*
 * inject --jit (inject.h): a PERF_RECORD_MMAP/MMAP2 of a jit-PID.dump file
 * is the JIT's way of naming its dump (the jitdump format,
 * util/model/jitdump.h). Each JIT_CODE_LOAD of the dump becomes an ELF
 * image jitted-PID-INDEX.so written beside the dump (util/model/jit-elf.h,
 * with the line table of the JIT_CODE_DEBUG_INFO record before it), and
 * one PERF_RECORD_MMAP2 of it at the load's address and time (the dump's
 * mapping record with the load's timestamp in its sample_id; the dump must
 * use the recording's clock: record -k mono); a JIT_CODE_MOVE maps the
 * moved function's image at its new address. The dump's own mapping is
 * dropped, as perf inject does. The new records enter the stream just
 * before the first input record not older than them, so readers that
 * order by time meet each map before the samples in it.
 */
#include <stddef.h>
#include <stdint.h>

struct inject_jit;
struct perf_data;
union perf_event;

/* Adds one record (size bytes) to the output; 0 or -errno. */
typedef int (*inject_emit_fn)(void *ctx, const void *rec, size_t size);

/* A converter writing its records through emit(ctx, ...). NULL on ENOMEM. */
struct inject_jit *inject_jit__new(inject_emit_fn emit, void *ctx);
/* Free it and the records not emitted (the images written stay). NULL is fine. */
void inject_jit__delete(struct inject_jit *jit);

/*
 * An MMAP or MMAP2 record of d: a jitdump's mapping is converted (its
 * images written, their MMAP2 records queued) and 0 returned: the record
 * is dropped. 1: any other mapping, or a dump that cannot be found or read
 * (a warning names it), to be passed on. -ENOMEM.
 */
int inject_jit__mmap(struct inject_jit *jit, const union perf_event *ev, struct perf_data *d);
/* Emit the queued records of loads at or before time (ns; ~0ULL: all,
 * at the end of the input). 0 or the emit's error. */
int inject_jit__flush(struct inject_jit *jit, uint64_t time);

#endif
