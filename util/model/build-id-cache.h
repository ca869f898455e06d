/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_BUILD_ID_CACHE_H
#define PRF_MODEL_BUILD_ID_CACHE_H
/*
 * perf's build-id cache: the directory dso__buildid_dir() names (the
 * buildid.dir configuration key, else $HOME/.debug), laid out as perf 6.1
 * writes it, so that perf and prf find each other's entries:
 *
 *   .build-id/XX/YYYY...            symlink -> ../../NAME/XXYYYY...
 *   NAME/XXYYYY.../elf              the file (hard link, else a copy)
 *   NAME/XXYYYY.../debug            its debug file from
 *                                   /usr/lib/debug/.build-id/XX/YYYY.debug
 *   NAME/XXYYYY.../probes           the SDT probe cache (created empty)
 *   [kernel.kallsyms]/XXYYYY.../kallsyms   a copy of /proc/kallsyms
 *   [vdso]/XXYYYY.../vdso           the vdso image, and probes
 *
 * NAME is the file's real path (leading '/' kept, so the cache mirrors
 * the file system), or "[kernel.kallsyms]" / "[vdso]". Build-ids are
 * passed as lower-case hex strings (build_id__sprintf()). Functions
 * return 0 or a negative errno; -ENOENT when no cache directory is known
 * (neither buildid.dir nor $HOME).
 */
#include <stdbool.h>

struct build_id;

/* The running kernel's build-id, from /sys/kernel/notes. 0, or -errno
 * (-ENOENT: no build-id note there). */
int bid_cache__kernel_build_id(struct build_id *bid);

enum bid_cache_kind {
	BID_CACHE_FILE,		/* an ELF file at a path */
	BID_CACHE_KALLSYMS,	/* the running kernel: /proc/kallsyms */
	BID_CACHE_VDSO,		/* a vdso image written to a file */
};

/*
 * Add name (a path; for BID_CACHE_VDSO the file holding the image, or
 * NULL for the image our own process maps (vdso__build_id()'s); for
 * BID_CACHE_KALLSYMS ignored) under build-id sbid: the entry's files
 * (kept when already there), then the .build-id link (an existing one is
 * kept). 0 or -errno (the link or a file could not be made).
 */
int bid_cache__add(const char *sbid, const char *name, enum bid_cache_kind kind);

struct feat_build_id;

/*
 * Add the DSOs of a recording's build-id list (HEADER_BUILD_ID entries as
 * record wrote them, build-ids read from this machine's files now) to the
 * cache, as perf 6.1 record does when it has written a file: a path as a
 * file, "[kernel.kallsyms]" (kernel) as kallsyms, "[vdso]" as our own
 * vdso image; other names (guest kernels, JIT maps) are left out. An
 * entry whose .build-id link exists is skipped after one stat, never
 * copied again. Makes the cache directory first (not its parents: a
 * $HOME that does not exist is no place for it). Every entry is tried:
 * 0, or the first -errno (the directory, a link or a file could not be
 * made), *failed (may be NULL) getting the number of entries not added.
 */
int bid_cache__add_build_ids(const struct feat_build_id *bids, int nr, int *failed);

/* Make the cache directory (and its parents) unless it exists. 0 or
 * -errno (-ENOENT: none is known). */
int bid_cache__mkdir(void);

/*
 * Remove build-id sbid: its .build-id link and the NAME/sbid directory
 * it points to, with everything in it. 0, -ENOENT when not cached, or
 * -errno.
 */
int bid_cache__remove(const char *sbid);

/* Whether sbid has a .build-id link in the cache. */
bool bid_cache__cached(const char *sbid);

/*
 * The name sbid was cached for, from its link: a path ("/usr/bin/ls")
 * or "[kernel.kallsyms]"/"[vdso]". malloc'd (free() it); NULL when not
 * cached or on ENOMEM.
 */
char *bid_cache__origname(const char *sbid);

/*
 * Whether the cached entry still matches its origin: the running
 * kernel's build-id for "[kernel.kallsyms]", the file's for a path
 * (perf's buildid-cache -l lists only these); false for other names.
 */
bool bid_cache__valid(const char *sbid);

/*
 * Every build-id with a link in the cache, sorted (strcmp order): *out
 * gets a malloc'd array of malloc'd strings, free with
 * bid_cache__free_list(). validonly: only those bid_cache__valid()
 * accepts. The count (>= 0; 0 also when there is no cache yet) or
 * -ENOMEM.
 */
int bid_cache__list(char ***out, bool validonly);

/*
 * The build-ids cached for path (the entries of NAME/ of its real path,
 * or of path itself when it no longer exists), sorted, as
 * bid_cache__list(). Count or -errno.
 */
int bid_cache__list_path(const char *path, char ***out);

/* Free a list from bid_cache__list() or bid_cache__list_path(). */
void bid_cache__free_list(char **list, int nr);

/*
 * The path of sbid's file in the cache: the link's directory followed by
 * "/elf" (or "/kallsyms", "/vdso" for those kinds), into buf (size
 * bytes). 0 or -ENOENT (no cache directory, or buf too small).
 */
int bid_cache__file(const char *sbid, enum bid_cache_kind kind, char *buf, size_t size);

/*
 * The path of sbid's SDT probe cache in the cache (the link's directory
 * followed by "/probes"; util/model/probe-cache.h reads it) into buf
 * (size bytes). 0 or -ENOENT (no cache directory, or buf too small).
 */
int bid_cache__probes_file(const char *sbid, char *buf, size_t size);

/*
 * Add the file at path to the cache unless its build-id is cached (as
 * perf probe -x does before it looks for SDT probes), then the path of
 * the probes file of path's entry ("NAME/SBID/probes" of its real path:
 * a copy of a cached file has none) into buf (size bytes). 0, -ENOENT
 * (no build-id, no cache directory), or -errno from adding it.
 */
int bid_cache__probes_of(const char *path, char *buf, size_t size);

#endif
