/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DEBUG_CACHE_H
#define PRF_MODEL_DEBUG_CACHE_H
/*
 * On-disk cache of the in-memory images of compressed separate debug
 * files (util/model/debug-image.h), so that the next prf run maps an
 * image instead of inflating it again: glibc's .debug_info alone is 5.8
 * MB of zlib stream that takes 13-16 ms to inflate, on every run.
 *
 * Where: $PRF_DEBUG_CACHE if set (0 or empty: no cache), else
 * $XDG_CACHE_HOME/prf/debug-images, else ~/.cache/prf/debug-images;
 * directories made 0700, files 0600. One file per source debug file: the
 * image, then a trailer naming the source (path, device, inode, size,
 * modification time in ns), so a debug file replaced or modified in place
 * is never answered from an old image. Files are written to a temporary
 * name and renamed into place, so readers never see a partial one. When
 * the files together pass $PRF_DEBUG_CACHE_MAX bytes (K, M, G suffixes;
 * default DEBUG_CACHE_MAX_BYTES; a bigger image is not kept at all), the
 * least recently used ones (by modification time, set on each use) are
 * removed. Every failure only means no cache: messages at -v.
 */
#include <stddef.h>
#include <sys/stat.h>

#define DEBUG_CACHE_MAX_BYTES (1ULL << 30)	/* all images together: 1 GiB */

/*
 * Map the cached image of the debug file at path (st: its fstat()) into
 * *base (private, read-write: copy on write) and its size in bytes into
 * *size; the caller munmap()s it. 0, -ENOENT (no cache, or no valid
 * image for this file), -errno of open()/mmap().
 */
int debug_cache__map(const char *path, const struct stat *st, void **base, size_t *size);

/*
 * Keep size bytes of image at base as the cached image of the debug file
 * at path (st: its fstat() when the image was built). Quiet on failure
 * (full disk, no home directory): -v says why.
 */
void debug_cache__store(const char *path, const struct stat *st, const void *base,
			size_t size);

#endif
