/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_INJECT_H
#define PRF_SESSION_INJECT_H
/*
 * perf.data rewriting for `prf inject`: one input (file or pipe, plain or
 * zstd-compressed) copied record by record to one output (file or pipe),
 * in file order, with records added where asked:
 *
 *  - build_ids (-b): the build-ids of the DSOs the samples hit (the
 *    model of util/model/record-hits.h), plus [vdso] when a process
 *    mapped it, as perf writes it: the HEADER_BUILD_ID feature of an
 *    output file, PERF_RECORD_HEADER_BUILD_ID records at the end of an
 *    output pipe;
 *  - buildid_all: the same for every DSO an MMAP/MMAP2 record names;
 *  - jit: each PERF_RECORD_MMAP2 of a jit-PID.dump file (the jitdump
 *    format, util/model/jitdump.h) becomes one ELF image per jitted
 *    function, jitted-PID-N.so beside the dump (.text, .symtab, and a
 *    .debug_line table when the dump has line numbers), and one MMAP2
 *    record per image at the load's time and address, so that readers
 *    name the JIT frames from ordinary files;
 *  - sched_stat (-s): see inject-sched.h.
 *
 * The output's records are uncompressed (the input's
 * PERF_RECORD_COMPRESSED payloads are written inflated and its
 * HEADER_COMPRESSED feature dropped); HEADER_CMDLINE becomes the inject
 * command line (as perf inject writes it); the other header features are
 * copied as read. Follows perf.data-file-format.txt and perf-inject(1) of perf 6.1.
 */
#include <stdbool.h>

struct inject_opts {
	const char *input;	/* path, "-" for stdin */
	const char *output;	/* path, "-" for stdout */
	bool build_ids;		/* -b: build-ids of the DSOs hit */
	bool buildid_all;	/* --buildid-all: of every DSO mapped */
	bool jit;		/* --jit: jitdump files to ELF images and MMAP2 */
	bool sched_stat;	/* -s: sched_switch samples weighted by sched_stat
				   (inject-sched.h); the records in time order */
	int argc;		/* the inject command line, for HEADER_CMDLINE */
	const char **argv;	/* (as perf writes its own) */
};

/*
 * Copy opts->input to opts->output as above. Messages name the file and
 * the reason. 0, or a negative errno (-EINVAL: not a perf.data input,
 * -EOPNOTSUPP: an input of the other byte order); a damaged input is
 * copied as far as it could be read and gives -EIO.
 */
int inject__run(const struct inject_opts *opts);

#endif
