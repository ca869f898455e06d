/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DEBUG_CACHE_H
#define PRF_MODEL_DEBUG_CACHE_H
/*
 * On-disk cache of what prf derives from debug files (and ELF files), so
 * that the next prf run maps it instead of deriving it again. Seven kinds:
 *  - the in-memory images of compressed separate debug files
 *    (util/model/debug-image.h): glibc's .debug_info alone is 5.8 MB of
 *    zlib stream, inflated again on every run otherwise;
 *  - the line tables of the units a run looked up source lines in
 *    (util/model/line-cache.h): the line programs of big LTO units
 *    (python3.11's) are otherwise read and sorted again on every run;
 *  - which PLT entries perf 6.1 names after an ELF symbol
 *    (util/model/symbol-elf.c): answering that rebuilds perf's symbol
 *    tree where the symtab overlaps the PLT (python3.11's does);
 *  - the symbol tables of ELF files (util/model/symbol-cache.h), for
 *    any DSO whose symbols come from a file (debug file or not);
 *  - the inline chains (names, call sites, lines) at the addresses runs
 *    looked up (util/model/inline-cache.h): the function and inline scope
 *    indexes of big LTO units are otherwise built again on every run;
 *  - the disassemblies of functions annotate decoded
 *    (util/model/disasm-cache.h): loading Capstone and decoding a big
 *    function (CPython's _PyEval_EvalFrameDefault, 12,744 instructions)
 *    is most of an annotation's work; annotate keeps its listing's
 *    texts and lookups with them, as notes;
 *  - the names of a kallsyms file, hashed and sorted (util/model/kallsyms.c):
 *    annotate asks whether the kernel has a symbol of a name before it
 *    loads the kernel's symbols for its samples, and a search of the
 *    5 MB text costs milliseconds.
 *
 * Where: $PRF_DEBUG_CACHE if set (0 or empty: no cache), else
 * $XDG_CACHE_HOME/prf/debug-images, else ~/.cache/prf/debug-images;
 * directories made 0700, files 0600. One file per source debug file and
 * kind (.img, .lines, .plt, .syms, .inl, .dis, .knames): its data, then a trailer naming the
 * kind and the source (path, device, inode, size, modification time in
 * ns), so a debug file replaced or modified in place is never answered
 * from old data.
 * Files are written to a temporary name and renamed into place, so
 * readers never see a partial one. When the files together pass
 * $PRF_DEBUG_CACHE_MAX bytes (K, M, G suffixes; default 1G, see
 * util/lib/tunables.c; a bigger file is not kept at all), the least
 * recently used ones (by modification time, set on each use) are
 * removed. Every failure only means no cache: messages at -v.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/uio.h>

/*
 * A file's identity as the cache keeps it: what replacing the file or
 * modifying it in place changes (stat(2)'s st_dev, st_ino, st_size and
 * st_mtim, the nanoseconds apart). Compared whole (memcmp): set it with
 * file_ident__set(), which zeroes it first.
 */
struct file_ident {
	uint64_t dev, ino, size, mtime_sec, mtime_nsec;
};

/* Fill *id from st. */
void file_ident__set(struct file_ident *id, const struct stat *st);

/* Fill *id from stat() of path: 0 or -errno. */
int file_ident__get(struct file_ident *id, const char *path);

enum debug_cache_kind {
	DEBUG_CACHE_IMAGE,	/* a debug image (debug-image.c's layout) */
	DEBUG_CACHE_LINES,	/* line tables (line-cache.c's layout) */
	DEBUG_CACHE_PLT,	/* which PLT entries perf names after an ELF
				 * symbol (symbol-elf.c's plt__covered()) */
	DEBUG_CACHE_SYMS,	/* ELF symbol tables (symbol-cache.c's layout) */
	DEBUG_CACHE_INLINE,	/* inline chains by address (inline-cache.c's layout) */
	DEBUG_CACHE_DISASM,	/* disassemblies (disasm-cache.c's layout) */
	DEBUG_CACHE_KNAMES,	/* a kallsyms file's names, hashed (kallsyms.c) */
};

/* Whether there is a cache directory (not $PRF_DEBUG_CACHE=0): what is
 * derived only to be kept need not be made without one. */
bool debug_cache__enabled(void);

/*
 * Map the cached data of this kind for the debug file at path (st: its
 * stat()) into *base (private, read-write: copy on write) and its size in
 * bytes into *size; the caller munmap()s it. 0, -ENOENT (no cache, or no
 * valid data for this file), -errno of open()/mmap().
 */
int debug_cache__map(enum debug_cache_kind kind, const char *path, const struct stat *st,
		     void **base, size_t *size);

/* Whether a cache file of this kind exists for the file at path (st: its
 * stat()); its data is not checked (debug_cache__map() does that). */
bool debug_cache__exists(enum debug_cache_kind kind, const char *path, const struct stat *st);

/*
 * Keep the iovcnt pieces at iov, in order, as the cached data of this
 * kind for the debug file at path (st: its stat() when the data was
 * derived). Quiet on failure (full disk, no home directory): -v says why.
 */
void debug_cache__store(enum debug_cache_kind kind, const char *path, const struct stat *st,
			const struct iovec *iov, int iovcnt);

#endif
