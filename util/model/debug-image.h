/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DEBUG_IMAGE_H
#define PRF_MODEL_DEBUG_IMAGE_H
/*
 * In-memory image of a separate debug file whose .debug_* sections are
 * SHF_COMPRESSED (ELF gABI "Section Compression", ELFCOMPRESS_ZLIB), for
 * libdw to open with elf_memory() + dwarf_begin_elf() instead of the file.
 *
 * libdw inflates every compressed section when it opens a file, the ones
 * prf never reads included (.debug_loclists, .debug_macro, ...). The image
 * holds the sections prf needs uncompressed, the others as SHT_NOBITS.
 * The two big sections whose readers prf controls, .debug_info and
 * .debug_line, are inflated on demand (debug_image__ensure()), from the
 * start of the section up to what a lookup needs: the first samples
 * usually need a compilation unit near the start of a big library's
 * .debug_info (glibc: the one holding __libc_start_call_main, 10 KB into
 * 5.8 MB), while a sample in a late unit needs all of it. So with more
 * than one CPU a big .debug_info is also inflated whole on another
 * thread from load time on, and a lookup past what was inflated on
 * demand takes that result (waiting for it if need be). The other
 * sections are inflated at load time (the largest on a second thread).
 *
 * Used by util/model/debuginfo-file.c and debuginfo-lines.c; not
 * thread-safe (callers hold the DSO's debuginfo lock).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

enum debug_lazy_sec {
	DEBUG_LAZY_INFO,	/* .debug_info */
	DEBUG_LAZY_LINE,	/* .debug_line */
	DEBUG_LAZY_NR,
};

struct debug_lazy {
	const unsigned char *src;	/* the zlib stream, in the file mapping */
	size_t src_len;
	unsigned char *dst;		/* the section in the image; NULL: not lazy */
	size_t dst_len;
	size_t done;			/* dst[0, done) is inflated */
	void *zs;			/* z_stream of a partial inflate, or NULL */
	int err;			/* the stream is corrupt at done: -EINVAL */
	bool whole_tried;		/* libdeflate failed on it (corrupt) */
	struct debug_bg_inflate *bg;	/* whole inflate running ahead, or NULL */
	bool whole_ahead;		/* made whole by taking the inflate ahead
					 * once done, before a lookup needed all */
};

struct debug_image {
	void *base;			/* the ELF image: an anonymous mapping */
	size_t size;			/* bytes */
	const void *file;		/* the file, mapped while a section is lazy */
	size_t file_size;
	struct debug_lazy lazy[DEBUG_LAZY_NR];
	char *src_path;			/* the debug file, for the cache */
	struct stat src_st;		/* its fstat() when the image was built */
	bool cached;			/* base maps the on-disk cache's image */
};

/*
 * Build the image of the ELF file at path into *img, or map the one the
 * on-disk cache (util/model/debug-cache.h) holds for this very file. 0; -ENOENT (no
 * compressed section: libdw should read the file itself), -EINVAL (not a
 * file this handles: not ELF64 of the host byte order, .zdebug sections,
 * a .gnu_debugaltlink (dwz; libdw finds the alt file by the file's path),
 * an unsupported compression type, a corrupt stream in an eager section),
 * -ENOMEM, -errno of open()/mmap(). On error *img holds nothing.
 */
int debug_image__load(const char *path, struct debug_image *img);

/*
 * Make bytes [0, end) of a section ready (end in bytes, clamped to the
 * section size). A no-op for a section that is not lazy. Small requests
 * inflate with zlib's streaming inflate from where the last one stopped;
 * one reaching past an eighth of the section takes the whole inflate
 * running ahead, else inflates all of it at once with libdeflate (about
 * twice zlib's speed). 0, or -EINVAL (the stream is corrupt before end:
 * those bytes cannot be had; the ones before the damage still can),
 * -ENOMEM.
 */
int debug_image__ensure(struct debug_image *img, enum debug_lazy_sec sec, uint64_t end);

/* Is the section of this image inflated on demand, and not yet in full? */
static inline int debug_image__partial(const struct debug_image *img, enum debug_lazy_sec sec)
{
	return img->lazy[sec].dst && img->lazy[sec].done < img->lazy[sec].dst_len;
}

/*
 * Keep the image in the on-disk cache for later runs, when this run has
 * paid for inflating all of its .debug_info (the costly part), needed in
 * full or inflated ahead on another thread (waited for here): what is
 * still lazy (.debug_line, usually) is inflated first. Nothing when
 * .debug_info was only needed in part, a stream is corrupt, or the image
 * came from the cache. Call before debug_image__free().
 */
void debug_image__keep(struct debug_image *img);

/* Unmap the image and the file, free the inflate state. Idempotent. */
void debug_image__free(struct debug_image *img);

#endif
