/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_INJECT_JIT_H
#define PRF_SESSION_INJECT_JIT_H
/*
 * inject --jit (inject.h): a PERF_RECORD_MMAP2 of a jit-PID.dump file is
 * the JIT's way of naming its dump (the jitdump format, util/model/
 * jitdump.h); each JIT_CODE_LOAD of the dump becomes an ELF image
 * jitted-PID-INDEX.so written beside the dump (util/model/jit-elf.h) and
 * one PERF_RECORD_MMAP2 of it at the load's address, with the load's
 * timestamp in the record's sample_id (the dump must use the recording's
 * clock: record -k mono), in place of the dump's own mapping.
 */
#include <stddef.h>

struct inject_jit;
struct perf_data;
struct feat_build_id;
union perf_event;

/* Adds one record (size bytes) to the output; 0 or -errno. */
typedef int (*inject_emit_fn)(void *ctx, const void *rec, size_t size);

/* A converter writing its records through emit(ctx, ...). NULL on ENOMEM. */
struct inject_jit *inject_jit__new(inject_emit_fn emit, void *ctx);
/* Free it (the images written stay). NULL is fine. */
void inject_jit__delete(struct inject_jit *jit);

/*
 * An MMAP or MMAP2 record of d: a jitdump's mapping is converted (its
 * images written, their MMAP2 records emitted) and 0 returned: the record
 * is dropped. 1: any other mapping, or a dump that cannot be read (a
 * warning names it), to be passed on. Negative errno on ENOMEM or a
 * failed emit.
 */
int inject_jit__mmap(struct inject_jit *jit, const union perf_event *ev, struct perf_data *d);
/* End of the input: nothing left to emit today; 0. */
int inject_jit__finish(struct inject_jit *jit);
/*
 * Append the build-ids of the images written to *bids (realloc'd; *n
 * entries, updated), user DSOs named by their paths (valid until
 * inject_jit__delete()). 0 or -ENOMEM.
 */
int inject_jit__build_ids(struct inject_jit *jit, struct feat_build_id **bids, int *n);

#endif
