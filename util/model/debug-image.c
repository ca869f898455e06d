// SPDX-License-Identifier: GPL-2.0
/*
 * In-memory images of compressed separate debug files, with .debug_info
 * and .debug_line inflated on demand. See debug-image.h. Sources
 * followed: ELF gABI "Section Compression" (Elf64_Chdr, ELFCOMPRESS_ZLIB),
 * RFC 1950 (the zlib stream in such a section).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include <libdeflate.h>
#include <zlib.h>

#include "debug-image.h"
#include "debug-cache.h"
#include "../lib/debug.h"
#include "../lib/tunables.h"
#include "../lib/util.h"
#include "../lib/helper-thread.h"

#define INFLATE_SPLIT_MIN (1UL << 20)	/* eager bytes worth a second thread */
#define LAZY_MIN (256UL << 10)		/* smaller sections: inflated at load */
#define LAZY_BG_MIN (1UL << 20)		/* .debug_info worth a whole inflate ahead */
#define LAZY_STEP (64UL << 10)		/* least a partial inflate adds */
#define LAZY_WHOLE_DIV 8		/* past 1/8 of a section: inflate it all */
#define IMAGE_ALIGN_MAX (1UL << 16)	/* larger section alignment: not handled */
#define IMAGE_SIZE_MAX (1ULL << 34)	/* larger images: let libdw try */
#define KEEP_MIN (256UL << 10)		/* smaller images: not worth a cache file */
#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~((uint64_t)(a) - 1))

struct inflate_job {
	const unsigned char *src;
	size_t src_len;
	unsigned char *dst;
	size_t dst_len;
	int err;
	bool finished;		/* atomic: set by inflate_job__thread() when done */
};

/*
 * One zlib stream into its known-size buffer with libdeflate's
 * whole-buffer decompressor, about twice zlib's inflate() speed here.
 */
static void inflate_job__run(struct inflate_job *j)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	size_t out = 0;

	j->err = -EINVAL;
	if (!d) {
		j->err = -ENOMEM;
		return;
	}
	if (libdeflate_zlib_decompress(d, j->src, j->src_len, j->dst, j->dst_len, &out) ==
		    LIBDEFLATE_SUCCESS && out == j->dst_len)
		j->err = 0;
	libdeflate_free_decompressor(d);
}

static void *inflate_job__thread(void *arg)
{
	struct inflate_job *j = arg;

	inflate_job__run(j);
	__atomic_store_n(&j->finished, true, __ATOMIC_RELEASE);
	return NULL;
}

/* A lazy section's whole inflate, running ahead on its own thread into
 * its own pages (then moved into the image). */
struct debug_bg_inflate {
	struct helper_thread thr;
	struct inflate_job job;
	size_t map_len;			/* job.dst's mapping, whole pages */
};

/* Sections libdw would inflate or read that prf never uses. */
static bool debug_section__unneeded(const char *name)
{
	static const char *const drop[] = {
		".debug_loclists", ".debug_loc", ".debug_macro", ".debug_macinfo",
		".debug_pubnames", ".debug_pubtypes", ".debug_gnu_pubnames",
		".debug_gnu_pubtypes", ".debug_names", ".symtab", ".strtab",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(drop); i++)
		if (!strcmp(name, drop[i]))
			return true;
	return false;
}

/* The lazy slot for a section name, or -1. $PRF_DEBUG_LAZY=0: none. */
static int debug_section__lazy(const char *name, uint64_t size)
{
	if (size < LAZY_MIN || !tunable__bool(TUNABLE_DEBUG_LAZY))
		return -1;
	if (!strcmp(name, ".debug_info"))
		return DEBUG_LAZY_INFO;
	if (!strcmp(name, ".debug_line"))
		return DEBUG_LAZY_LINE;
	return -1;
}

/* Is the file mapped at file (size bytes) an ELF64 of the host byte order
 * with sane header tables? */
static bool elf64_native_ok(const unsigned char *file, uint64_t size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
#else
	    eh->e_ident[EI_DATA] != ELFDATA2MSB ||
#endif
	    eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum ||
	    eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff % 8 || eh->e_shoff > size ||
	    (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size - eh->e_shoff)
		return false;
	if (eh->e_phnum && (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > size ||
			    (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > size - eh->e_phoff))
		return false;
	return true;
}

/* Where each section goes: the image's layout. */
struct image_plan {
	Elf64_Shdr *nsh;		/* the image's section headers */
	struct inflate_job *jobs;	/* eager inflates (dst: image offset) */
	size_t nr_jobs, eager_bytes;
	struct inflate_job lazy[DEBUG_LAZY_NR];	/* dst: image offset */
	uint64_t eager_end;		/* header, eager sections, section headers */
	uint64_t size;
	bool compressed;
};

/*
 * Plan the image of the file (n section headers at sh): header, program
 * headers, the eager sections in file order, the section header table,
 * then the lazy sections (left untouched until inflated). 0 or -EINVAL,
 * -ENOMEM, -ENOENT (nothing compressed).
 */
static int image__plan(const unsigned char *file, uint64_t fsize, struct image_plan *p)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
	const Elf64_Shdr *ss = &sh[eh->e_shstrndx];
	size_t i, n = eh->e_shnum;
	int lazy_idx[DEBUG_LAZY_NR];
	const char *shstr;
	uint64_t off;

	if (ss->sh_type == SHT_NOBITS || ss->sh_offset > fsize || ss->sh_size > fsize - ss->sh_offset)
		return -EINVAL;
	shstr = (const char *)file + ss->sh_offset;
	p->nsh = malloc(n * sizeof(*p->nsh));
	p->jobs = calloc(n, sizeof(*p->jobs));
	if (!p->nsh || !p->jobs)
		return -ENOMEM;
	for (i = 0; i < DEBUG_LAZY_NR; i++)
		lazy_idx[i] = -1;
	off = sizeof(Elf64_Ehdr);
	if (eh->e_phnum)
		off = ALIGN_UP(off, 8) + eh->e_phnum * sizeof(Elf64_Phdr);
	for (i = 0; i < n; i++) {
		uint64_t align = sh[i].sh_addralign > 1 ? sh[i].sh_addralign : 1;
		struct inflate_job job;
		const Elf64_Chdr *ch;
		const char *name;
		int lz;

		p->nsh[i] = sh[i];
		if (!i || sh[i].sh_type == SHT_NOBITS || sh[i].sh_type == SHT_NULL)
			continue;
		if (sh[i].sh_name >= ss->sh_size ||
		    !memchr(shstr + sh[i].sh_name, '\0', ss->sh_size - sh[i].sh_name) ||
		    sh[i].sh_offset > fsize || sh[i].sh_size > fsize - sh[i].sh_offset)
			return -EINVAL;
		name = shstr + sh[i].sh_name;
		if (!strcmp(name, ".gnu_debugaltlink") || !strncmp(name, ".zdebug", 7))
			return -EINVAL;	/* libdw's own path handles these */
		if (i != eh->e_shstrndx && debug_section__unneeded(name)) {
			p->nsh[i].sh_type = SHT_NOBITS;
			p->nsh[i].sh_flags &= ~(uint64_t)SHF_COMPRESSED;
			p->nsh[i].sh_offset = 0;
			continue;
		}
		if (!(sh[i].sh_flags & SHF_COMPRESSED)) {
			if ((align & (align - 1)) || align > IMAGE_ALIGN_MAX)
				return -EINVAL;
			off = ALIGN_UP(off, align);
			p->nsh[i].sh_offset = off;
			off += sh[i].sh_size;
			continue;
		}
		ch = (const Elf64_Chdr *)(file + sh[i].sh_offset);
		if (sh[i].sh_size < sizeof(*ch) || sh[i].sh_offset % 8 ||
		    ch->ch_type != ELFCOMPRESS_ZLIB || ch->ch_size > UINT32_MAX ||
		    sh[i].sh_size - sizeof(*ch) > UINT32_MAX)
			return -EINVAL;
		align = ch->ch_addralign > 1 ? ch->ch_addralign : 1;
		if ((align & (align - 1)) || align > IMAGE_ALIGN_MAX || align > page_size())
			return -EINVAL;
		p->nsh[i].sh_flags &= ~(uint64_t)SHF_COMPRESSED;
		p->nsh[i].sh_size = ch->ch_size;
		p->nsh[i].sh_addralign = ch->ch_addralign;
		p->compressed = true;
		job = (struct inflate_job){ .src = (const unsigned char *)(ch + 1),
					    .src_len = sh[i].sh_size - sizeof(*ch),
					    .dst_len = ch->ch_size };
		lz = debug_section__lazy(name, ch->ch_size);
		if (lz >= 0 && lazy_idx[lz] < 0) {
			lazy_idx[lz] = (int)i;	/* placed after the header table */
			p->lazy[lz] = job;
			continue;
		}
		off = ALIGN_UP(off, align);
		p->nsh[i].sh_offset = off;
		job.dst = (unsigned char *)(uintptr_t)off;
		p->jobs[p->nr_jobs++] = job;
		p->eager_bytes += ch->ch_size;
		off += ch->ch_size;
		if (off > IMAGE_SIZE_MAX)
			return -EINVAL;
	}
	if (!p->compressed)
		return -ENOENT;
	off = ALIGN_UP(off, 8);
	p->eager_end = off + n * sizeof(Elf64_Shdr);
	off = p->eager_end;
	/* lazy sections on whole pages of their own (any section alignment
	 * divides a page), so a whole inflate's pages can be moved in */
	for (i = 0; i < DEBUG_LAZY_NR; i++) {
		if (lazy_idx[i] < 0)
			continue;
		off = ALIGN_UP(off, page_size());
		p->nsh[lazy_idx[i]].sh_offset = off;
		p->lazy[i].dst = (unsigned char *)(uintptr_t)off;
		off += ALIGN_UP(p->lazy[i].dst_len, page_size());
	}
	if (off > IMAGE_SIZE_MAX)
		return -EINVAL;
	p->size = off;
	return 0;
}

/* Inflate the eager sections: the biggest on a second thread when it pays. */
static int image__inflate_eager(struct image_plan *p)
{
	size_t i, big = 0;
	bool threaded = false;
	struct helper_thread thr;

	for (i = 1; i < p->nr_jobs; i++)
		if (p->jobs[i].dst_len > p->jobs[big].dst_len)
			big = i;
	if (p->nr_jobs > 1 && p->eager_bytes >= INFLATE_SPLIT_MIN &&
	    cpus_usable() > 1)
		threaded = !helper_thread__start(&thr, inflate_job__thread, &p->jobs[big]);
	for (i = 0; i < p->nr_jobs; i++)
		if (!threaded || i != big)
			inflate_job__run(&p->jobs[i]);
	if (threaded)
		helper_thread__join(&thr);
	for (i = 0; i < p->nr_jobs; i++)
		if (p->jobs[i].err)
			return p->jobs[i].err;
	return 0;
}

/* Start inflating all of l on another thread (nothing when that fails:
 * the section is then inflated on demand only). */
static void lazy__start_bg(struct debug_lazy *l)
{
	struct debug_bg_inflate *bg = calloc(1, sizeof(*bg));
	void *buf;

	if (!bg)
		return;
	bg->map_len = ALIGN_UP(l->dst_len, page_size());
	buf = mmap(NULL, bg->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		free(bg);
		return;
	}
	bg->job = (struct inflate_job){ l->src, l->src_len, buf, l->dst_len, 0, false };
	if (helper_thread__start(&bg->thr, inflate_job__thread, &bg->job)) {
		munmap(buf, bg->map_len);
		free(bg);
		return;
	}
	l->bg = bg;
}

/* Wait for the whole inflate of l and put it in the image: its pages
 * moved over the section's (what was inflated on demand is the same
 * bytes), or copied when they cannot be. 0 or its error (then the
 * section is left as it was). */
static int lazy__take_bg(struct debug_lazy *l)
{
	struct debug_bg_inflate *bg = l->bg;
	int err;

	l->bg = NULL;
	helper_thread__join(&bg->thr);
	err = bg->job.err;
	if (!err && mremap(bg->job.dst, bg->map_len, bg->map_len, MREMAP_MAYMOVE | MREMAP_FIXED,
			   l->dst) != MAP_FAILED) {
		bg->job.dst = NULL;	/* now part of the image */
		l->done = l->dst_len;
	} else if (!err) {
		memcpy(l->dst + l->done, bg->job.dst + l->done, l->dst_len - l->done);
		l->done = l->dst_len;
	}
	if (bg->job.dst)
		munmap(bg->job.dst, bg->map_len);
	free(bg);
	return err;
}

static void lazy__end_stream(struct debug_lazy *l)
{
	if (l->zs) {
		inflateEnd(l->zs);
		free(l->zs);
		l->zs = NULL;
	}
}

/* All of the section at once with libdeflate, from the start (the bytes
 * already inflated are written again, the same). 0 or -errno, then
 * dst[0, done) is still good and nothing past it is. */
static int lazy__whole(struct debug_lazy *l)
{
	struct inflate_job j = { l->src, l->src_len, l->dst, l->dst_len, 0, false };

	inflate_job__run(&j);
	if (j.err)
		return j.err;
	lazy__end_stream(l);
	l->done = l->dst_len;
	return 0;
}

/* Continue the streaming inflate to at least end bytes. 0, or -EINVAL
 * when the stream is corrupt before end (it is not continued again). */
static int lazy__stream_to(struct debug_lazy *l, size_t end)
{
	z_stream *zs = l->zs;
	size_t target = end;
	int rc;

	if (l->err)
		return l->err;
	if (!zs) {
		zs = calloc(1, sizeof(*zs));
		if (!zs)
			return -ENOMEM;
		if (inflateInit(zs) != Z_OK) {
			free(zs);
			return -ENOMEM;
		}
		zs->next_in = (unsigned char *)l->src;
		zs->avail_in = (uInt)l->src_len;
		l->zs = zs;
	}
	if (target < l->done + LAZY_STEP)
		target = l->done + LAZY_STEP;
	if (target > l->dst_len)
		target = l->dst_len;
	zs->next_out = l->dst + l->done;
	zs->avail_out = (uInt)(target - l->done);
	rc = inflate(zs, Z_SYNC_FLUSH);
	l->done = (size_t)(zs->next_out - l->dst);
	if ((rc != Z_OK && rc != Z_STREAM_END) || (rc == Z_STREAM_END && l->done != l->dst_len) ||
	    (rc == Z_OK && l->done < target)) {
		l->err = -EINVAL;	/* corrupt or short: stop here */
		lazy__end_stream(l);
	} else if (rc == Z_STREAM_END) {
		lazy__end_stream(l);
	}
	return l->done >= end ? 0 : -EINVAL;
}

int debug_image__load(const char *path, struct debug_image *img)
{
	struct image_plan plan = { 0 };
	const unsigned char *file;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	unsigned char *out;
	Elf64_Ehdr *neh;
	struct stat st;
	bool lazy = false;
	size_t i;
	int fd, err;

	memset(img, 0, sizeof(*img));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -EINVAL;
	}
	if (!debug_cache__map(DEBUG_CACHE_IMAGE, path, &st, &img->base, &img->size)) {
		close(fd);
		if (elf64_native_ok(img->base, img->size)) {
			img->cached = true;
			return 0;
		}
		munmap(img->base, img->size);
		memset(img, 0, sizeof(*img));
	}
	file = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (file == MAP_FAILED)
		return -errno;
	err = -EINVAL;
	if (!elf64_native_ok(file, st.st_size))
		goto out;
	err = image__plan(file, st.st_size, &plan);
	if (err)
		goto out;
	/* only the eager part is faulted in up front; lazy sections' pages
	 * stay untouched (and cost nothing) until inflated */
	out = mmap(NULL, plan.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED) {
		err = -ENOMEM;
		goto out;
	}
	madvise(out, plan.eager_end, MADV_POPULATE_WRITE);	/* a hint: older kernels lack it */
	eh = (const Elf64_Ehdr *)file;
	sh = (const Elf64_Shdr *)(file + eh->e_shoff);
	neh = (Elf64_Ehdr *)out;
	*neh = *eh;
	if (eh->e_phnum) {
		neh->e_phoff = ALIGN_UP(sizeof(Elf64_Ehdr), 8);
		memcpy(out + neh->e_phoff, file + eh->e_phoff, eh->e_phnum * sizeof(Elf64_Phdr));
	}
	neh->e_shoff = plan.eager_end - eh->e_shnum * sizeof(Elf64_Shdr);
	for (i = 1; i < eh->e_shnum; i++)
		if (plan.nsh[i].sh_type != SHT_NOBITS && plan.nsh[i].sh_type != SHT_NULL &&
		    !(sh[i].sh_flags & SHF_COMPRESSED))
			memcpy(out + plan.nsh[i].sh_offset, file + sh[i].sh_offset, plan.nsh[i].sh_size);
	memcpy(out + neh->e_shoff, plan.nsh, eh->e_shnum * sizeof(*plan.nsh));
	for (i = 0; i < plan.nr_jobs; i++)
		plan.jobs[i].dst = out + (uintptr_t)plan.jobs[i].dst;
	err = image__inflate_eager(&plan);
	if (err) {
		pr_debug("debuginfo: %s: cannot inflate a compressed section\n", path);
		munmap(out, plan.size);
		goto out;
	}
	img->base = out;
	img->size = plan.size;
	img->src_path = strdup(path);	/* NULL: the image is not kept */
	img->src_st = st;
	for (i = 0; i < DEBUG_LAZY_NR; i++) {
		if (!plan.lazy[i].dst_len)
			continue;
		img->lazy[i].src = plan.lazy[i].src;
		img->lazy[i].src_len = plan.lazy[i].src_len;
		img->lazy[i].dst = out + (uintptr_t)plan.lazy[i].dst;
		img->lazy[i].dst_len = plan.lazy[i].dst_len;
		lazy = true;
	}
	if (img->lazy[DEBUG_LAZY_INFO].dst_len >= LAZY_BG_MIN && cpus_usable() > 1)
		lazy__start_bg(&img->lazy[DEBUG_LAZY_INFO]);
	pr_debug2("debuginfo: %s: %zu sections inflated in memory (%zu bytes), %s\n", path,
		  plan.nr_jobs, plan.eager_bytes,
		  lazy ? "the rest on demand" : "none on demand");
	if (lazy) {
		img->file = file;	/* the lazy sections' streams */
		img->file_size = st.st_size;
		file = NULL;
	}
out:
	free(plan.nsh);
	free(plan.jobs);
	if (file)
		munmap((void *)file, st.st_size);
	return err;
}

int debug_image__ensure(struct debug_image *img, enum debug_lazy_sec sec, uint64_t end)
{
	struct debug_lazy *l = &img->lazy[sec];
	bool big;

	if (!l->dst)
		return 0;
	if (end > l->dst_len)
		end = l->dst_len;
	if (l->done >= end)
		return 0;
	big = end > l->dst_len / LAZY_WHOLE_DIV;
	/* the whole inflate ahead: taken once done, waited for when needed */
	if (l->bg && (big || __atomic_load_n(&l->bg->job.finished, __ATOMIC_ACQUIRE)) &&
	    !lazy__take_bg(l)) {
		l->whole_ahead = !big;
		return 0;
	}
	if (big && !l->whole_tried) {
		l->whole_tried = true;
		if (!lazy__whole(l))
			return 0;
	}
	/* small, or the section is corrupt somewhere: as far as the stream
	 * goes, which says whether the bytes asked for are good */
	return lazy__stream_to(l, (size_t)end);
}

void debug_image__keep(struct debug_image *img)
{
	struct debug_lazy *info = &img->lazy[DEBUG_LAZY_INFO];
	size_t i;

	if (!img->base || img->cached || !img->src_path || img->size < KEEP_MIN)
		return;
	/* .debug_info in part, and not inflated ahead on another thread
	 * (which debug_image__free() would wait for anyway): later runs may
	 * well need no more either */
	if (info->dst && info->done < info->dst_len && !info->bg)
		return;
	for (i = 0; i < DEBUG_LAZY_NR; i++) {
		struct debug_lazy *l = &img->lazy[i];

		if (!l->dst || l->done == l->dst_len)
			continue;
		if (l->err || (l->bg ? lazy__take_bg(l) : lazy__whole(l)) || l->done != l->dst_len)
			return;
	}
	debug_cache__store(DEBUG_CACHE_IMAGE, img->src_path, &img->src_st,
			   &(struct iovec){ .iov_base = img->base, .iov_len = img->size }, 1);
}

void debug_image__free(struct debug_image *img)
{
	size_t i;

	for (i = 0; i < DEBUG_LAZY_NR; i++) {
		struct debug_bg_inflate *bg = img->lazy[i].bg;

		lazy__end_stream(&img->lazy[i]);
		if (bg) {
			helper_thread__join(&bg->thr);
			munmap(bg->job.dst, bg->map_len);
			free(bg);
		}
	}
	if (img->base)
		munmap(img->base, img->size);
	if (img->file)
		munmap((void *)img->file, img->file_size);
	free(img->src_path);
	memset(img, 0, sizeof(*img));
}
