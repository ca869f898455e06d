// SPDX-License-Identifier: GPL-2.0
/*
 * The DSO's ELF image and the file its DWARF is in (debuginfo-internal.h):
 * the image on disk (build-id checked against the recording, perf's
 * build-id cache as a fallback) or this process's [vdso], its PT_LOAD
 * table, reads from it; the DWARF from the image itself or from a
 * separate debug file: /usr/lib/debug/.build-id/xx/yyyy.debug, perf's
 * build-id cache, the file the model's symbols came from, or the
 * .gnu_debuglink name (CRC checked) next to the file, in its .debug/
 * and under /usr/lib/debug. Sources followed: ELF gABI (program headers,
 * notes), GDB manual "Separate Debug Files".
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <libdeflate.h>

#include "debuginfo-internal.h"
#include "machine.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/tunables.h"

/* The NT_GNU_BUILD_ID note among the notes in data into *bid; 0 or
 * -ENOENT. */
static int notes__build_id(Elf_Data *data, struct build_id *bid)
{
	size_t off = 0, noff, doff;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + noff, "GNU", 4)) {
			bid->size = min((size_t)nh.n_descsz, (size_t)BUILD_ID_SIZE);
			memcpy(bid->data, (char *)data->d_buf + doff, bid->size);
			return 0;
		}
	}
	return -ENOENT;
}

/* NT_GNU_BUILD_ID of an open ELF; 0 or -ENOENT. */
static int elf__read_build_id(Elf *elf, struct build_id *bid)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	size_t i, n;

	bid->size = 0;
	/* sections first (files), then program headers (memory images) */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && !notes__build_id(data, bid))
			return 0;
	}
	if (elf_getphdrnum(elf, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (data && !notes__build_id(data, bid))
			return 0;
	}
	return -ENOENT;
}

static void build_id__hex(const struct build_id *bid, char *buf)
{
	size_t i;

	for (i = 0; i < bid->size; i++)
		sprintf(buf + 2 * i, "%02x", bid->data[i]);
	buf[2 * bid->size] = '\0';
}

static bool build_id__equal(const struct build_id *a, const struct build_id *b)
{
	return a->size && a->size == b->size && !memcmp(a->data, b->data, a->size);
}

static void close_elf(int *fdp, Elf **elfp)
{
	if (*elfp)
		elf_end(*elfp);
	if (*fdp >= 0)
		close(*fdp);
	*elfp = NULL;
	*fdp = -1;
}

static bool dso__is_vdso(const struct dso *dso)
{
	return dso->kind == DSO_VDSO ||
	       (dso->long_name && !strcmp(dso->long_name, "[vdso]"));
}

/* The vDSO image of this process, when it is the one recorded (same
 * build-id, or no build-id known). */
static int load_own_vdso(struct debuginfo *di)
{
	const char *base = (const char *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	size_t size;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size < sizeof(*eh) || size > (1 << 20))
		return -ENOENT;
	di->file.image = malloc(size);
	if (!di->file.image)
		return -ENOMEM;
	memcpy(di->file.image, base, size);
	di->file.image_size = size;
	di->file.elf = elf_memory(di->file.image, size);
	if (!di->file.elf) {
		zfree(&di->file.image);
		return -EINVAL;
	}
	return 0;
}

static int load_segments(struct debuginfo *di)
{
	size_t i, n;

	if (elf_getphdrnum(di->file.elf, &n))
		return -EINVAL;
	di->file.segs = calloc(n ? n : 1, sizeof(*di->file.segs));
	if (!di->file.segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(di->file.elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		di->file.segs[di->file.nr_segs].off = ph.p_offset;
		di->file.segs[di->file.nr_segs].filesz = ph.p_filesz;
		di->file.segs[di->file.nr_segs].vaddr = ph.p_vaddr;
		di->file.nr_segs++;
	}
	return di->file.nr_segs ? 0 : -ENOENT;
}

/*
 * The file on disk holding the DSO's image: the model's runtime_path (the
 * file dso__load() matched, under --symfs), else --symfs + long_name.
 * Loads the DSO's symbols first so runtime_path is known (they are needed
 * anyway; dso__load() never takes a debuginfo lock). NULL when none.
 */
static const char *debuginfo__elf_path(struct dso *dso, char *buf, size_t size)
{
	const char *symfs;

	if (!dso->long_name || dso->long_name[0] != '/')
		return NULL;
	if (dso->kind == DSO_USER)
		dso__load(dso);
	if (dso->runtime_path)
		return dso->runtime_path;
	symfs = dso->machine && dso->machine->symfs ? dso->machine->symfs : "";
	snprintf(buf, size, "%s%s", symfs, dso->long_name);
	return buf;
}

int debuginfo__load_elf(struct debuginfo *di)
{
	struct dso *dso = di->dso;
	char path[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1];
	const char *home;
	int err;

	if (di->file.elf_tried)	/* called per frame: nothing before this */
		return di->file.elf ? 0 : -ENOENT;
	di->file.elf_tried = true;
	home = dso__buildid_dir();
	if (dso__is_vdso(dso)) {
		err = load_own_vdso(di);
		if (!err && dso->has_build_id && dso->bid.size &&
		    (elf__read_build_id(di->file.elf, &di->file.bid) || !build_id__equal(&di->file.bid, &dso->bid))) {
			elf_end(di->file.elf);
			di->file.elf = NULL;
			zfree(&di->file.image);
			err = -ENOENT;
		}
		if (err && dso->has_build_id && home) {
			build_id__hex(&dso->bid, hex);
			snprintf(path, sizeof(path), "%s/[vdso]/%s/vdso", home, hex);
			err = elf__open(path, &di->file.fd, &di->file.elf);
		}
	} else if (dso->kind == DSO_USER || dso->kind == DSO_JIT || !dso->kind) {
		const char *file = debuginfo__elf_path(dso, path, sizeof(path));

		err = file ? elf__open(file, &di->file.fd, &di->file.elf) : -ENOENT;
		if (!err && dso->has_build_id && dso->bid.size &&
		    !elf__read_build_id(di->file.elf, &di->file.bid) &&
		    !build_id__equal(&di->file.bid, &dso->bid)) {
			pr_debug("unwind: %s: build-id differs from the recording\n", dso->long_name);
			close_elf(&di->file.fd, &di->file.elf);
			err = -ENOENT;
		}
		if (err && dso->has_build_id && dso->bid.size && home) {
			/* perf's build-id cache */
			build_id__hex(&dso->bid, hex);
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf",
				 home, hex, hex + 2);
			err = elf__open(path, &di->file.fd, &di->file.elf);
		}
	} else {
		err = -ENOENT;
	}
	if (err)
		return err;
	if (!di->file.bid.size)
		elf__read_build_id(di->file.elf, &di->file.bid);
	err = load_segments(di);
	if (err) {
		close_elf(&di->file.fd, &di->file.elf);
		return err;
	}
	return 0;
}

int debuginfo__offset_to_vaddr(struct debuginfo *di, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < di->file.nr_segs; i++) {
		const struct load_seg *s = &di->file.segs[i];

		if (off >= s->off && off < s->off + s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

int debuginfo__read(struct debuginfo *di, uint64_t off, void *buf, size_t len)
{
	if (di->file.image) {
		if (off > di->file.image_size || len > di->file.image_size - off)
			return -EFAULT;
		memcpy(buf, di->file.image + off, len);
		return 0;
	}
	if (di->file.fd < 0)
		return -EFAULT;
	if (pread(di->file.fd, buf, len, (off_t)off) != (ssize_t)len)
		return -EFAULT;
	return 0;
}

/* ---- DWARF and separate debug files ---- */

static bool elf__has_section(Elf *elf, const char *name, bool need_bits)
{
	GElf_Shdr sh;

	return elf__find_section(elf, name, &sh) && (!need_bits || sh.sh_type != SHT_NOBITS);
}

/* .gnu_debuglink: file name and CRC-32 of the debug file. */
static int elf__debuglink(Elf *elf, char *name, size_t size, uint32_t *crc)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf__find_section(elf, ".gnu_debuglink", &sh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t len, crcoff;

	if (!data || !data->d_buf)
		return -ENOENT;
	len = strnlen(data->d_buf, data->d_size);
	crcoff = (len + 4) & ~(size_t)3;
	if (len == 0 || len >= size || crcoff + 4 > data->d_size)
		return -ENOENT;
	memcpy(name, data->d_buf, len);
	name[len] = '\0';
	memcpy(crc, (char *)data->d_buf + crcoff, 4);
	return 0;
}

static bool file__crc_matches(const char *path, uint32_t want)
{
	unsigned char buf[65536];
	uint32_t crc = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = libdeflate_crc32(crc, buf, (size_t)n);
	close(fd);
	return n == 0 && crc == want;
}

static int try_debug_file(struct debuginfo *di, const char *path)
{
	/* $PRF_DEBUG_IMAGE=0: let libdw read the file (for comparisons) */
	bool image_on = tunable__bool(TUNABLE_DEBUG_IMAGE);

	if (access(path, R_OK))
		return -ENOENT;
	if (image_on && !debug_image__load(path, &di->file.dbg_img)) {
		di->file.dbg_elf = elf_memory(di->file.dbg_img.base, di->file.dbg_img.size);
		if (di->file.dbg_elf && elf_kind(di->file.dbg_elf) == ELF_K_ELF)
			di->file.dwarf = dwarf_begin_elf(di->file.dbg_elf, DWARF_C_READ, NULL);
		if (!di->file.dwarf) {
			if (di->file.dbg_elf)
				elf_end(di->file.dbg_elf);
			di->file.dbg_elf = NULL;
			debug_image__free(&di->file.dbg_img);
		}
	}
	if (!di->file.dwarf) {
		if (elf__open(path, &di->file.dbg_fd, &di->file.dbg_elf))
			return -ENOENT;
		di->file.dwarf = dwarf_begin_elf(di->file.dbg_elf, DWARF_C_READ, NULL);
		if (!di->file.dwarf) {
			close_elf(&di->file.dbg_fd, &di->file.dbg_elf);
			return -ENOENT;
		}
	}
	di->file.debug_path = strdup(path);
	return 0;
}

int debuginfo__load_dwarf(struct debuginfo *di)
{
	char path[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1], link[256], dir[PATH_MAX];
	char elfpath[PATH_MAX];
	const struct build_id *bid;
	const char *home, *symfs;
	uint32_t crc;
	char *slash;

	if (di->file.dwarf_tried)
		return di->file.dwarf ? 0 : -ENOENT;
	di->file.dwarf_tried = true;
	home = dso__buildid_dir();	/* not before the early return: called per frame */
	if (debuginfo__load_elf(di))
		goto none;
	if (elf__has_section(di->file.elf, ".debug_info", true) ||
	    elf__has_section(di->file.elf, ".debug_frame", true)) {
		di->file.dwarf = dwarf_begin_elf(di->file.elf, DWARF_C_READ, NULL);
		if (di->file.dwarf) {
			di->file.debug_path = strdup("");
			goto out;
		}
	}
	symfs = di->dso->machine && di->dso->machine->symfs ? di->dso->machine->symfs : "";
	bid = di->file.bid.size ? &di->file.bid : (di->dso->has_build_id ? &di->dso->bid : NULL);
	if (bid && bid->size) {
		build_id__hex(bid, hex);
		snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex,
			 hex + 2);
		if (!try_debug_file(di, path))
			goto out;
		if (home) {
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/debug",
				 home, hex, hex + 2);
			if (!try_debug_file(di, path))
				goto out;
		}
	}
	/* the debug file the model's symbols came from (found under --symfs) */
	if (di->dso->symsrc_path && !try_debug_file(di, di->dso->symsrc_path))
		goto out;
	if (debuginfo__elf_path(di->dso, elfpath, sizeof(elfpath)) &&
	    !elf__debuglink(di->file.elf, link, sizeof(link), &crc)) {
		snprintf(dir, sizeof(dir), "%s", debuginfo__elf_path(di->dso, elfpath, sizeof(elfpath)));
		slash = strrchr(dir, '/');
		*slash = '\0';
		for (size_t i = 0; i < 3; i++) {
			/* next to the file, in .debug/ there (dir carries the
			 * --symfs prefix), under --symfs's /usr/lib/debug */
			if (i < 2)
				snprintf(path, sizeof(path), i ? "%s/.debug/%s" : "%s/%s", dir, link);
			else	/* the recorded path's directory */
				snprintf(path, sizeof(path), "%s/usr/lib/debug%.*s/%s", symfs,
					 (int)(strrchr(di->dso->long_name, '/') - di->dso->long_name),
					 di->dso->long_name, link);
			if (!strcmp(path, di->dso->long_name) || access(path, R_OK))
				continue;
			if (!file__crc_matches(path, crc)) {
				pr_debug("debuginfo: %s: CRC does not match %s\n", path, di->dso->long_name);
				continue;
			}
			if (!try_debug_file(di, path))
				goto out;
		}
	}
none:
	/* lookups in this DSO may now return at once, without the lock */
	__atomic_store_n(&di->file.no_dwarf, true, __ATOMIC_RELEASE);
	return -ENOENT;
out:
	pr_debug("debuginfo: %s: DWARF from %s\n", di->dso->long_name,
		 di->file.debug_path && di->file.debug_path[0] ? di->file.debug_path : "the file itself");
	return 0;
}

const char *dso__debug_file(struct dso *dso)
{
	struct debuginfo *di = dso__debuginfo(dso);
	const char *p;

	if (!di)
		return NULL;
	/* asked per sample by srcline output: no lock once known */
	if (__atomic_load_n(&di->file.debug_file_known, __ATOMIC_ACQUIRE))
		return di->file.debug_path;
	debuginfo__lock(di);
	debuginfo__load_dwarf(di);
	p = di->file.debug_path;
	__atomic_store_n(&di->file.debug_file_known, true, __ATOMIC_RELEASE);
	debuginfo__unlock(di);
	return p;
}

int debuginfo__ensure(struct debuginfo *di, enum debug_lazy_sec sec, uint64_t end)
{
	bool partial = debug_image__partial(&di->file.dbg_img, sec);
	int err = debug_image__ensure(&di->file.dbg_img, sec, end);

	if (partial && !debug_image__partial(&di->file.dbg_img, sec))
		pr_debug2("debuginfo: %s: all of %s inflated %s (bytes up to %#" PRIx64 " needed)\n",
			  di->file.debug_path ? di->file.debug_path : di->dso->long_name,
			  sec == DEBUG_LAZY_INFO ? ".debug_info" : ".debug_line",
			  di->file.dbg_img.lazy[sec].whole_ahead ? "ahead on another thread"
							    : "for a lookup", end);
	return err;
}

void debuginfo__file_free(struct debuginfo *di)
{
	if (di->file.dwarf)
		dwarf_end(di->file.dwarf);
	close_elf(&di->file.dbg_fd, &di->file.dbg_elf);
	debug_image__keep(&di->file.dbg_img);
	debug_image__free(&di->file.dbg_img);
	close_elf(&di->file.fd, &di->file.elf);
	free(di->file.image);
	free(di->file.segs);
	free(di->file.debug_path);
}
