// SPDX-License-Identifier: GPL-2.0
/*
 * ELF symbols with libelf: .symtab (else .dynsym) functions, synthesized
 * "name@plt" entries for .rela.plt jump slots, build-id notes and
 * .gnu_debuglink. Symbols are kept in the ELF st_value (virtual address)
 * space; dso->text_offset = p_vaddr - p_offset of the executable PT_LOAD
 * lets map__map_ip() turn a file offset into that space.
 * Follows the System V gABI (ELF sections, notes, relocations).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dso.h"
#include "machine.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static void elf__init_once(void)
{
	static bool done;

	if (!done) {
		elf_version(EV_CURRENT);
		done = true;
	}
}

static Elf_Scn *elf__find_section(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static int elf__build_id(Elf *elf, struct build_id *bid)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nhdr;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
			if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
				size_t n = min((size_t)nhdr.n_descsz, (size_t)BUILD_ID_SIZE);

				memset(bid->data, 0, sizeof(bid->data));
				memcpy(bid->data, (char *)data->d_buf + desc_off, n);
				bid->size = n;
				return 0;
			}
		}
	}
	return -ENODATA;
}

int filename__read_build_id(const char *path, struct build_id *bid)
{
	int fd, err = -EINVAL;
	Elf *elf;

	elf__init_once();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		err = elf__build_id(elf, bid);
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

int elf_mem__read_build_id(void *image, size_t size, struct build_id *bid)
{
	Elf *elf;
	int err = -EINVAL;

	elf__init_once();
	elf = elf_memory(image, size);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		err = elf__build_id(elf, bid);
	if (elf)
		elf_end(elf);
	return err;
}

/* The .gnu_debuglink file name of elf into buf: 0, or -ENOENT when there
 * is no usable section (or the name does not fit in size bytes). */
static int elf__debuglink(Elf *elf, char *buf, size_t size)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf__find_section(elf, ".gnu_debuglink", &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t n;

	/* SHT_NOBITS (a mutated file): d_size set, no d_buf */
	if (!data || !data->d_buf || data->d_size <= 4)
		return -ENOENT;
	n = strnlen(data->d_buf, data->d_size);
	if (!n || n >= size || n >= data->d_size)
		return -ENOENT;
	memcpy(buf, data->d_buf, n);
	buf[n] = '\0';
	return 0;
}

int elf__read_debuglink(const char *path, char *buf, size_t size)
{
	int fd, err = -ENOENT;
	Elf *elf;

	elf__init_once();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		err = elf__debuglink(elf, buf, size);
		elf_end(elf);
	}
	close(fd);
	return err;
}

/* p_vaddr - p_offset of the first executable PT_LOAD. */
static int elf__text_offset(Elf *elf, uint64_t *off)
{
	size_t n, i;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			*off = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static bool want_demangle(const struct dso *dso)
{
	return !dso->machine || dso->machine->demangle;
}

static int elf__load_symtab(struct dso *dso, Elf *elf, Elf_Scn *scn, GElf_Shdr *shdr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t nsyms, i, nsec = 0, shstrndx = 0;
	bool dem = want_demangle(dso);
	unsigned char *text_sec = NULL;	/* per section: 1 text, 2 not, 0 unknown */

	/* a NOBITS (or bogus) table has no bytes behind its sh_size: the
	 * count comes from the data there is, in symbols of this class */
	if (!data || !data->d_buf || !shdr->sh_entsize ||
	    shdr->sh_entsize != gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT))
		return -EINVAL;
	if (!elf_getshdrnum(elf, &nsec) && nsec && !elf_getshdrstrndx(elf, &shstrndx))
		text_sec = calloc(nsec, 1);
	nsyms = data->d_size / shdr->sh_entsize;
	if (nsyms > INT_MAX)
		nsyms = INT_MAX;	/* gelf_getsym() takes an int index */
	for (i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF || !sym.st_name || !sym.st_value)
			continue;
		if (type == STT_NOTYPE) {
			/* a label (_start, _dl_start_user, asm entry points) counts
			 * when it sits in a text section, as in perf */
			size_t sec = sym.st_shndx;

			if (sec == SHN_ABS || sec >= SHN_LORESERVE || !text_sec || sec >= nsec)
				continue;
			if (!text_sec[sec]) {
				GElf_Shdr sh;
				const char *sn = NULL;

				if (gelf_getshdr(elf_getscn(elf, sec), &sh))
					sn = elf_strptr(elf, shstrndx, sh.sh_name);
				text_sec[sec] = sn && strstr(sn, "text") ? 1 : 2;
			}
			if (text_sec[sec] != 1)
				continue;
		} else if (type != STT_FUNC && type != STT_GNU_IFUNC) {
			continue;
		}
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (dso__add_symbol(dso, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
				    type, name, dem)) {
			free(text_sec);
			return -ENOMEM;
		}
	}
	free(text_sec);
	return 0;
}

/* "name@plt" for every .rela.plt (or .rel.plt) slot, in .plt.sec when the
 * binary has one (IBT: 16-byte entries, no header) else in .plt after its
 * 16-byte header. */
static int elf__synthesize_plt(struct dso *dso, Elf *elf)
{
	GElf_Shdr plt_sh, rel_sh, dynsym_sh;
	Elf_Scn *plt, *rel, *dynsym;
	Elf_Data *reld, *symd;
	uint64_t base, entsize = 16;
	size_t nrel, i;
	bool is_rela = true, dem = want_demangle(dso);
	bool *covered;
	char buf[1024];

	rel = elf__find_section(elf, ".rela.plt", &rel_sh);
	if (!rel) {
		rel = elf__find_section(elf, ".rel.plt", &rel_sh);
		is_rela = false;
	}
	if (!rel || rel_sh.sh_type == SHT_NOBITS || !rel_sh.sh_entsize)
		return 0;
	plt = elf__find_section(elf, ".plt.sec", &plt_sh);
	if (plt) {
		base = plt_sh.sh_addr;
	} else {
		plt = elf__find_section(elf, ".plt", &plt_sh);
		if (!plt || plt_sh.sh_type == SHT_NOBITS)
			return 0;
		/* lld leaves sh_entsize 0: perf 6.1 then names no entries */
		if (plt_sh.sh_entsize < 4 || plt_sh.sh_entsize > 64)
			return 0;
		entsize = plt_sh.sh_entsize;
		base = plt_sh.sh_addr + entsize;	/* PLT0 */
	}
	dynsym = elf_getscn(elf, rel_sh.sh_link);
	if (!dynsym || !gelf_getshdr(dynsym, &dynsym_sh))
		return 0;
	reld = elf_getdata(rel, NULL);
	symd = elf_getdata(dynsym, NULL);
	if (!reld || !symd || !reld->d_buf || !symd->d_buf)
		return 0;
	/* as many relocations as there are bytes for (sh_size may lie) */
	nrel = reld->d_size / rel_sh.sh_entsize;
	if (nrel > INT_MAX)
		nrel = INT_MAX;		/* gelf_getrel*() take an int index */
	/*
	 * perf 6.1 sizes zero-size ELF symbols (e.g. _init) up to the next ELF
	 * symbol before adding the PLT entries, so _init overlaps them; its
	 * symbol tree lookup then returns _init for some entries ("_init+0x30")
	 * and the entry for others, depending on the tree's shape. Measured on
	 * gcc/ld binaries with 1..32 PLT entries: with one or two entries all
	 * resolve to _init, with more only the first does. Same here (decided
	 * before any entry is added: the lookup index covers ELF symbols only).
	 */
	covered = calloc(nrel ? nrel : 1, sizeof(*covered));
	if (!covered)
		return -ENOMEM;
	for (i = 0; i < nrel && (i == 0 || nrel <= 2); i++)
		covered[i] = dso__find_symbol_loaded(dso, base + i * entsize) != NULL;
	for (i = 0; i < nrel; i++) {
		uint64_t addr = base + i * entsize;
		size_t symidx;
		GElf_Sym sym;
		const char *name;

		if (addr + entsize > plt_sh.sh_addr + plt_sh.sh_size)
			break;
		if (is_rela) {
			GElf_Rela r;

			if (!gelf_getrela(reld, (int)i, &r))
				continue;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(reld, (int)i, &r))
				continue;
			symidx = GELF_R_SYM(r.r_info);
		}
		/* slot i is taken to belong to relocation i, as perf 6.1 does;
		 * relocations without a symbol (R_X86_64_IRELATIVE) give an
		 * entry named "@plt", again as perf shows them */
		name = "";
		if (symidx && gelf_getsym(symd, (int)symidx, &sym)) {
			name = elf_strptr(elf, dynsym_sh.sh_link, sym.st_name);
			if (!name)
				name = "";
		}
		if (dem) {
			char *d = demangle_sym(name, dso->machine && dso->machine->demangle_params);

			snprintf(buf, sizeof(buf), "%s@plt", d ? d : name);
			free(d);
		} else {
			snprintf(buf, sizeof(buf), "%s@plt", name);
		}
		if (covered[i])
			continue;
		if (dso__add_symbol(dso, addr, entsize, STB_GLOBAL, STT_FUNC, buf, false)) {
			free(covered);
			return -ENOMEM;
		}
	}
	free(covered);
	return 0;
}

static int elf__load_syms(struct dso *dso, Elf *elf)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf__find_section(elf, ".symtab", &shdr);

	if (!scn || shdr.sh_type != SHT_SYMTAB)
		scn = elf__find_section(elf, ".dynsym", &shdr);
	if (!scn)
		return -ENODATA;
	return elf__load_symtab(dso, elf, scn, &shdr);
}

static Elf *elf__open(const char *path, int *fdp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return elf;
}

/*
 * The steps of dso__load_elf() once the files are open (shared with
 * dso__load_elf_image()): symbols from elf, text offset and PLT entries
 * from the runtime file relf; path (may be NULL) becomes symsrc_path.
 */
static int elf__load_dso(struct dso *dso, Elf *elf, Elf *relf, const char *path)
{
	int err;

	dso->is_64_bit = gelf_getclass(elf) == ELFCLASS64;
	if (elf__text_offset(relf, &dso->text_offset))
		elf__text_offset(elf, &dso->text_offset);
	err = elf__load_syms(dso, elf);
	dso__symbols_finish(dso);	/* ends of the ELF symbols, before the PLT */
	if (err != -ENOMEM && elf__synthesize_plt(dso, relf) == -ENOMEM)
		err = -ENOMEM;
	if (dso->nr_symbols && err == -ENODATA)
		err = 0;
	if (!err && path) {
		free(dso->symsrc_path);
		dso->symsrc_path = strdup(path);
	}
	return err;
}

int dso__load_elf(struct dso *dso, const char *path, const char *runtime)
{
	int fd = -1, rfd = -1, err;
	Elf *elf, *relf;

	elf__init_once();
	elf = elf__open(path, &fd);
	if (!elf)
		return -ENOENT;
	relf = strcmp(path, runtime) ? elf__open(runtime, &rfd) : elf;
	if (!relf)
		relf = elf;
	err = elf__load_dso(dso, elf, relf, path);
	if (relf != elf) {
		elf_end(relf);
		close(rfd);
	}
	elf_end(elf);
	close(fd);
	return err;
}

int dso__load_elf_mem(struct dso *dso, void *image, size_t size)
{
	Elf *elf;
	int err;

	elf__init_once();
	elf = elf_memory(image, size);
	if (!elf)
		return -EINVAL;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return -EINVAL;
	}
	dso->is_64_bit = gelf_getclass(elf) == ELFCLASS64;
	elf__text_offset(elf, &dso->text_offset);
	err = elf__load_syms(dso, elf);
	elf_end(elf);
	return err;
}

/*
 * ---- ELF images in memory: the file readers above on elf_memory() ----
 *
 * The same steps as elf__read_debuglink() and dso__load_elf() on a file
 * image the caller holds in memory (the ELF fuzz harness,
 * tests/fuzz/fuzz-elf.c, which checks they match the file readers).
 * Keep them in step with those two (declared in dso.h). libelf reads the
 * image in place: no open(), no mmap()/munmap().
 */

static Elf *elf_mem__open(void *image, size_t size)
{
	Elf *elf = elf_memory(image, size);

	if (elf && elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		elf = NULL;
	}
	return elf;
}

int elf_mem__read_debuglink(void *image, size_t size, char *buf, size_t buf_size)
{
	int err;
	Elf *elf;

	elf__init_once();
	elf = elf_mem__open(image, size);
	if (!elf)
		return -EINVAL;
	err = elf__debuglink(elf, buf, buf_size);
	elf_end(elf);
	return err;
}

int dso__load_elf_image(struct dso *dso, void *image, size_t size, void *rimage, size_t rsize,
			const char *path)
{
	Elf *elf, *relf;
	int err;

	elf__init_once();
	elf = elf_mem__open(image, size);
	if (!elf)
		return -EINVAL;
	relf = rimage != image ? elf_mem__open(rimage, rsize) : elf;
	if (!relf)
		relf = elf;
	err = elf__load_dso(dso, elf, relf, path);
	if (relf != elf)
		elf_end(relf);
	elf_end(elf);
	return err;
}
