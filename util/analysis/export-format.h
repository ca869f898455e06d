/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_EXPORT_FORMAT_H
#define PRF_ANALYSIS_EXPORT_FORMAT_H
/*
 * Profile exporters (`prf data convert --to-FORMAT`): one encoder per
 * file format (export-json.c, export-pprof.c, export-gecko.c,
 * export-speedscope.c) behind one interface. The command reads the
 * perf.data through the session, resolves each sample once
 * (util/session/resolve.h, with the resolve_opts the encoder asks for)
 * and hands the resolved sample to the encoder, which keeps what it needs
 * (copies: the sample's pointers into the model are valid only during the
 * call) and writes its file at the end.
 *
 * The output is written under a temporary name in the directory of the
 * final one and renamed over it only when complete (export_file__*), so
 * a failed conversion never leaves a partial file under the final name.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "../model/callchain.h"

struct perf_session;
struct resolved_sample;
struct exporter;

struct export_format {
	const char *name;		/* "json": the option is --to-json */
	/* New encoder state writing to fp (not owned) for the input of
	 * session s (header and evlist read, no record delivered yet; for a
	 * pipe the evlist grows as records come); sets *ropts to what each
	 * sample's callchain needs resolved (depth, inline frames,
	 * srclines). NULL on ENOMEM. */
	void *(*new)(FILE *fp, struct perf_session *s, struct resolve_opts *ropts);
	/* One resolved sample: rs->cursor filled with ropts. 0 or -errno. */
	int (*sample)(void *priv, struct perf_session *s, struct resolved_sample *rs);
	/* Every record delivered: write the rest of the file to fp. 0 or
	 * -errno (-EIO: writing failed, -ENOMEM). */
	int (*end)(void *priv, struct perf_session *s);
	/* Optional: the model is about to change (perf_tool.model_barrier):
	 * forget pointers into it kept since the last call. */
	void (*barrier)(void *priv);
	void (*free)(void *priv);
};

extern const struct export_format export_json;
extern const struct export_format export_pprof;
extern const struct export_format export_gecko;
extern const struct export_format export_speedscope;

/* The format named name ("json", "pprof", "gecko", "speedscope"), NULL
 * when there is none. */
const struct export_format *export_format__find(const char *name);

/* An output file being written under a temporary name. */
struct export_file {
	char *path;	/* final name (owned copy) */
	char *tmp;	/* temporary name beside it (owned) */
	FILE *fp;	/* open on tmp; NULL for "-" (stdout: fp is stdout) */
	bool to_stdout;
};

/*
 * Open a temporary file beside path (path "-": stdout, no file) for
 * writing, mode 0666 less the umask as a plain fopen() would give.
 * 0, or -errno with a message naming the path printed.
 */
int export_file__open(struct export_file *f, const char *path);
/* Flush and close the temporary file and rename it to the final name.
 * 0, or -errno (the temporary file is removed; message printed). */
int export_file__commit(struct export_file *f);
/* Close and remove the temporary file (after a failure); f is freed.
 * Safe to call after __commit() (then it only frees). */
void export_file__abort(struct export_file *f);

/*
 * Split a srcline "path/file.c:123" into its file and line: *file_len
 * gets the length of the file part, the return value the line (0 when
 * there is none, the line is "??:0" or srcline is NULL).
 */
unsigned int export__srcline_split(const char *srcline, size_t *file_len);

/*
 * Interning for the encoders: a hash index of the entries an encoder
 * keeps in its own array (strings, functions, frames, stacks), found by a
 * 32-bit hash and the encoder's equality test. Slots hold entry index + 1
 * and the hash; the table doubles at half full. Zero-initialise.
 */
struct export_index {
	struct export_slot { uint32_t idx1, hash; } *slots;
	uint32_t mask, nr;
};

/*
 * Find the entry with this hash for which eq(arg, idx) is true: 1 with
 * *idx set; else insert new_idx (the index the caller gives the new
 * entry, which it then stores) and return 0; -ENOMEM.
 */
int export_index__lookup(struct export_index *x, uint32_t hash, bool (*eq)(void *arg, uint32_t idx),
			 void *arg, uint32_t new_idx, uint32_t *idx);
void export_index__exit(struct export_index *x);

/* 64-bit hash of n bytes (8 at a time, multiplied and mixed), seed folded
 * in; for tables only (the files never depend on its values). */
uint64_t export__hash(const void *p, size_t n, uint64_t seed);

/* Interned strings, numbered from 0 in the order first seen. */
struct export_strings {
	struct export_index index;
	char **str;		/* owned copies */
	uint32_t nr, alloc;
};

/* The number of s (len bytes, need not be NUL-terminated), added when
 * new. >= 0, or -ENOMEM (after which only __exit() may be called). */
int64_t export_strings__intern(struct export_strings *t, const char *s, size_t len);
static inline int64_t export_strings__add(struct export_strings *t, const char *s)
{
	return export_strings__intern(t, s ? s : "", s ? strlen(s) : 0);
}
void export_strings__exit(struct export_strings *t);

/*
 * The number in t of the name a frame is shown with, as prf script
 * --folded names it: its symbol (an inlined call's own function), else
 * "[dso]" (the DSO's short name) for an address in a DSO, else
 * "[unknown]". >= 0 or -ENOMEM.
 */
int64_t export__frame_name(struct export_strings *t, const struct callchain_frame *f);

struct dso;
/* The number in t of dso's build-id in hex; -ENOENT when it has none,
 * -ENOMEM. */
int64_t export__build_id(struct export_strings *t, const struct dso *dso);

/* A growable array: make room for one more element of size elem in
 * *arr (of *nr used, *alloc allocated). 0 or -ENOMEM. */
int export__grow(void *arr, uint32_t *alloc, uint32_t nr, size_t elem);

#endif
