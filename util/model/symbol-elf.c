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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "debug-cache.h"
#include "symbol-cache.h"
#include "dso.h"
#include "inline-sym.h"
#include "machine.h"
#include "model.h"
#include "../lib/rbtree-idx.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static void elf__version(void)
{
	elf_version(EV_CURRENT);
}

/* libelf's version handshake, once per process; DSOs may be opened from
 * the unwinding workers too */
static void elf__init_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, elf__version);
}

Elf_Scn *elf__find_section(Elf *elf, const char *name, GElf_Shdr *shdr)
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

/* what a .symtab/.dynsym entry is to prf and to perf 6.1's symbol tree */
enum elf_sym_kind {
	ESYM_SKIP,
	ESYM_FUNC,	/* a function, or a label in a text section: a symbol */
	ESYM_OBJECT,	/* data: in perf's tree (it shapes it), never shown */
};

/* per-section flags, computed once (see elf__sym_kind()) */
#define SEC_KNOWN 1
#define SEC_TEXT 2	/* the name contains "text" */
#define SEC_ALLOC 4	/* SHF_ALLOC */
#define SEC_DATA 8	/* the name contains "data" */

struct elf_secs {
	Elf *elf;
	unsigned char *flags;	/* per section; NULL: unknown (no labels) */
	size_t nsec, shstrndx;
};

static void elf_secs__init(struct elf_secs *es, Elf *elf)
{
	memset(es, 0, sizeof(*es));
	es->elf = elf;
	if (!elf_getshdrnum(elf, &es->nsec) && es->nsec && !elf_getshdrstrndx(elf, &es->shstrndx))
		es->flags = calloc(es->nsec, 1);
}

static unsigned char elf_secs__flags(struct elf_secs *es, size_t sec)
{
	GElf_Shdr sh;
	const char *sn = NULL;
	unsigned char f = SEC_KNOWN;

	if (!es->flags || sec >= es->nsec)
		return 0;
	if (es->flags[sec])
		return es->flags[sec];
	if (gelf_getshdr(elf_getscn(es->elf, sec), &sh)) {
		sn = elf_strptr(es->elf, es->shstrndx, sh.sh_name);
		if (sh.sh_flags & SHF_ALLOC)
			f |= SEC_ALLOC;
	}
	if (sn && strstr(sn, "text"))
		f |= SEC_TEXT;
	if (sn && strstr(sn, "data"))
		f |= SEC_DATA;
	return es->flags[sec] = f;
}

/*
 * A label perf 6.1 keeps besides the text ones for data lookups: an
 * untyped, visible symbol in a loaded section named like data (.data,
 * .data.rel.ro, .tdata: _edata, __data_start).
 */
static bool elf__data_label(struct elf_secs *es, const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);
	size_t sec = sym->st_shndx;

	if (GELF_ST_TYPE(sym->st_info) != STT_NOTYPE || sec == SHN_UNDEF || !sym->st_name ||
	    !sym->st_value || sec >= SHN_LORESERVE || vis == STV_HIDDEN || vis == STV_INTERNAL)
		return false;
	return (elf_secs__flags(es, sec) & (SEC_ALLOC | SEC_DATA)) == (SEC_ALLOC | SEC_DATA);
}

/*
 * Functions (and IFUNCs) with a value, and labels (NOTYPE: _start,
 * _dl_start_user, asm entry points) in a text section are symbols, as in
 * perf. Named objects in a loaded (SHF_ALLOC) section are in perf's tree.
 */
static enum elf_sym_kind elf__sym_kind(struct elf_secs *es, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	size_t sec = sym->st_shndx;

	if (sec == SHN_UNDEF || !sym->st_name || !sym->st_value)
		return ESYM_SKIP;
	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		return ESYM_FUNC;
	if (sec == SHN_ABS || sec >= SHN_LORESERVE)
		return ESYM_SKIP;
	if (type == STT_NOTYPE)
		return elf_secs__flags(es, sec) & SEC_TEXT ? ESYM_FUNC : ESYM_SKIP;
	if (type == STT_OBJECT)
		return elf_secs__flags(es, sec) & SEC_ALLOC ? ESYM_OBJECT : ESYM_SKIP;
	return ESYM_SKIP;
}

/*
 * The symbol table to read: .symtab, else .dynsym. 0 with *data, *shdr
 * and *nsyms set; -ENODATA when there is none, -EINVAL when its data is
 * unusable.
 */
static int elf__symtab(Elf *elf, GElf_Shdr *shdr, Elf_Data **data, size_t *nsyms)
{
	Elf_Scn *scn = elf__find_section(elf, ".symtab", shdr);

	if (!scn || shdr->sh_type != SHT_SYMTAB)
		scn = elf__find_section(elf, ".dynsym", shdr);
	if (!scn)
		return -ENODATA;
	*data = elf_getdata(scn, NULL);
	/* a NOBITS (or bogus) table has no bytes behind its sh_size: the
	 * count comes from the data there is, in symbols of this class */
	if (!*data || !(*data)->d_buf || !shdr->sh_entsize ||
	    shdr->sh_entsize != gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT))
		return -EINVAL;
	*nsyms = (*data)->d_size / shdr->sh_entsize;
	if (*nsyms > INT_MAX)
		*nsyms = INT_MAX;	/* gelf_getsym() takes an int index */
	return 0;
}

/* The table of data symbols (dso__find_data_symbol(), at the end): its
 * symbols are at file offsets, as perf 6.1 keeps them, moved there by the
 * runtime file's loadable segments, plus the DSO's text_offset (the
 * space map__map_ip() gives, in which prf keeps the function symbols). */
struct load_seg {
	uint64_t off, filesz, memsz, vaddr;	/* a PT_LOAD of the runtime file */
};

struct data_syms {
	struct dso *table;		/* functions, labels, objects, PLT entries */
	struct load_seg *segs;
	size_t nr_segs;
};

/*
 * st_value - (p_vaddr - p_offset) of the loadable segment whose memory
 * holds v, as perf moves an ELF symbol into file offsets; sec_delta
 * (sh_addr - sh_offset of the symbol's section) when none does.
 */
static uint64_t data_syms__file_off(const struct data_syms *ds, uint64_t v, uint64_t sec_delta)
{
	for (size_t i = 0; i < ds->nr_segs; i++) {
		const struct load_seg *g = &ds->segs[i];
		uint64_t sz = g->memsz > g->filesz ? g->memsz : g->filesz;

		if (sz && v >= g->vaddr && v - g->vaddr < sz)
			return v - (g->vaddr - g->off);
	}
	return v - sec_delta;
}

/* The symbols of elf's table into dso: functions and text labels, and
 * for a data table ds (else NULL) also the data objects and labels perf
 * 6.1 keeps in its tree, at their file offsets. */
static int elf__load_syms(struct dso *dso, Elf *elf, const struct data_syms *ds)
{
	GElf_Shdr shdr;
	size_t nsyms = 0, i;
	Elf_Data *data = NULL;
	bool dem = want_demangle(dso);
	struct elf_secs es;
	int err = elf__symtab(elf, &shdr, &data, &nsyms);

	if (err)
		return err;
	elf_secs__init(&es, elf);
	for (i = 1; i < nsyms && !err; i++) {
		GElf_Sym sym;
		const char *name;

		enum elf_sym_kind kind;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		kind = elf__sym_kind(&es, &sym);
		if (kind != ESYM_FUNC &&
		    !(ds && (kind == ESYM_OBJECT || elf__data_label(&es, &sym))))
			continue;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (ds) {
			GElf_Shdr sh;
			uint64_t sec_delta = 0;

			if (gelf_getshdr(elf_getscn(elf, sym.st_shndx), &sh))
				sec_delta = sh.sh_addr - sh.sh_offset;
			sym.st_value = data_syms__file_off(ds, sym.st_value, sec_delta) + dso->text_offset;
		}
		err = dso__add_symbol(dso, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
				      GELF_ST_TYPE(sym.st_info), name, dem);
	}
	free(es.flags);
	return err;
}

/* a node of perf's symbol tree, rebuilt by plt__covered() */
struct plt_node {
	uint64_t start, end;
	const char *name;
	uint8_t binding;
};

/* perf's symbols__insert(): by start, equal starts to the right */
static void plt_tree__insert(struct rbi_tree *t, const struct plt_node *node, int32_t x)
{
	int32_t cur = t->root, p = -1;
	int dir = 1;

	while (cur >= 0) {
		p = cur;
		dir = node[x].start < node[cur].start ? 0 : 1;
		cur = t->n[cur].child[dir];
	}
	rbi_insert(t, x, p, dir);
}

/*
 * Which of the nent PLT entries from base (entsize bytes each) perf 6.1
 * names after an ELF symbol rather than "name@plt". perf sizes zero-size
 * ELF symbols (e.g. _init) up to the next ELF symbol before it adds the
 * PLT entries, so _init overlaps them; its lookup returns the first
 * symbol containing the address on the path down its red-black tree of
 * symbols, so the answer depends on the tree's shape. That tree is
 * rebuilt here from elf's symbol table (util/lib/rbtree-idx.h builds
 * trees of the kernel's shape): functions, labels and data objects
 * inserted in table order (equal starts to the right); then, in address
 * order, of two symbols with one start the worse name erased
 * (symbol__better_name(), a tie keeps the first); zero-size symbols
 * sized up to the next start; the entries inserted in order; each looked
 * up at its address (an end address is in a symbol only when the symbol
 * has zero size). Checked against perf 6.1 on gcc/ld executables with
 * 1 to 32 entries and on shared libraries. dso: its ELF symbols loaded
 * (ends fixed), to skip all this when none reaches the PLT. calloc'ed
 * flags (caller frees), NULL on ENOMEM.
 */
static bool *plt__covered(struct dso *dso, Elf *elf, uint64_t base, uint64_t entsize,
			  size_t nent, bool *built, bool shortcut)
{
	bool *covered = calloc(nent + 1, sizeof(*covered));
	struct rbi_tree t = { .root = -1 };
	struct plt_node *node = NULL;
	struct elf_secs es;
	GElf_Shdr shdr;
	size_t nsyms = 0, m = 0, n, i;
	Elf_Data *data = NULL;

	if (!covered)
		return NULL;
	/* no loaded symbol overlaps an entry (e.g. .dynsym only, no _init):
	 * perf's tree, whose ranges are no larger, has none either */
	for (i = 0; shortcut && i < nent && !dso__find_symbol_loaded(dso, base + i * entsize); i++)
		;
	if (shortcut && i == nent)
		return covered;
	if (elf__symtab(elf, &shdr, &data, &nsyms) || nsyms + nent >= INT32_MAX)
		return covered;		/* no ELF symbols: none covers an entry */
	*built = true;
	elf_secs__init(&es, elf);
	node = malloc((nsyms + nent + 1) * sizeof(*node));
	t.n = malloc((nsyms + nent + 1) * sizeof(*t.n));
	if (!node || !t.n) {
		free(es.flags);
		free(node);
		free(t.n);
		free(covered);
		return NULL;
	}
	for (i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || elf__sym_kind(&es, &sym) == ESYM_SKIP)
			continue;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		node[m++] = (struct plt_node){ sym.st_value, sym.st_value + sym.st_size, name,
					       GELF_ST_BIND(sym.st_info) };
	}
	free(es.flags);
	for (i = 0; i < nent; i++)
		node[m + i] = (struct plt_node){ base + i * entsize, base + (i + 1) * entsize, "", 1 };
	n = m + nent;
	for (size_t x = 0; x < m; x++)
		plt_tree__insert(&t, node, (int32_t)x);
	/* duplicates erased, then zero-size symbols sized */
	for (int32_t c = rbi_first(&t, t.root), nx; c >= 0; c = nx) {
		nx = rbi_next(&t, c);
		if (nx < 0 || node[c].start != node[nx].start)
			continue;
		if (symbol__better_name(node[nx].end - node[nx].start, node[nx].binding,
					node[nx].name, node[c].end - node[c].start, node[c].binding,
					node[c].name)) {
			rbi_erase(&t, c);
		} else {
			rbi_erase(&t, nx);
			nx = c;		/* compare c with its new successor */
		}
	}
	for (int32_t c = rbi_first(&t, t.root), nx; c >= 0; c = nx) {
		nx = rbi_next(&t, c);
		if (nx >= 0 && node[c].end == node[c].start)
			node[c].end = node[nx].start;
	}
	for (size_t x = m; x < n; x++)
		plt_tree__insert(&t, node, (int32_t)x);
	for (i = 0; i < nent; i++) {
		uint64_t ip = node[m + i].start;
		int32_t cur = t.root;

		while (cur >= 0) {
			const struct plt_node *c = &node[cur];

			if (ip < c->start)
				cur = t.n[cur].child[0];
			else if (ip > c->end || (ip == c->end && ip != c->start))
				cur = t.n[cur].child[1];
			else
				break;
		}
		covered[i] = cur >= 0 && (size_t)cur < m;
	}
	free(node);
	free(t.n);
	return covered;
}

/* What a kept plt__covered() answer is for (DEBUG_CACHE_PLT): the
 * entries of the runtime file, then nent bytes of 0 or 1. */
struct plt_kept {
	uint64_t base, entsize, nent;
};

/*
 * plt__covered(), kept between runs in the debug cache under the file
 * the symbols came from (symsrc: its path and stat(), NULL when it is
 * not a file) when it had to rebuild perf's tree. calloc'ed flags
 * (caller frees), NULL on ENOMEM.
 */
static bool *plt__covered_kept(struct dso *dso, Elf *elf, const char *symsrc,
			       const struct stat *st, uint64_t base, uint64_t entsize, size_t nent,
			       bool shortcut)
{
	struct plt_kept want = { base, entsize, nent };
	bool *covered = NULL, built = false;
	size_t size, i;
	void *map;

	if (symsrc && !debug_cache__map(DEBUG_CACHE_PLT, symsrc, st, &map, &size)) {
		const unsigned char *b = (const unsigned char *)map + sizeof(want);

		if (size == sizeof(want) + nent && !memcmp(map, &want, sizeof(want))) {
			for (i = 0; i < nent && b[i] <= 1; i++)
				;
			if (i == nent && (covered = calloc(nent + 1, sizeof(*covered))))
				for (i = 0; i < nent; i++)
					covered[i] = b[i];
		}
		munmap(map, size);
		if (covered)
			return covered;
	}
	covered = plt__covered(dso, elf, base, entsize, nent, &built, shortcut);
	if (covered && built && symsrc) {
		unsigned char *b = malloc(nent ? nent : 1);

		if (b) {
			for (i = 0; i < nent; i++)
				b[i] = covered[i];
			debug_cache__store(DEBUG_CACHE_PLT, symsrc, st,
					   (struct iovec[]){ { &want, sizeof(want) }, { b, nent } }, 2);
			free(b);
		}
	}
	return covered;
}

/* "name@plt" for every .rela.plt (or .rel.plt) slot of elf (the runtime
 * file), in .plt.sec when the binary has one (IBT: 16-byte entries, no
 * header) else in .plt after its 16-byte header; symelf is the file the
 * symbols came from (its table shapes perf's tree, plt__covered()), at
 * symsrc with stat() st when it is a file (else NULL: nothing kept). */
static int elf__synthesize_plt(struct dso *dso, Elf *elf, Elf *symelf, const char *symsrc,
			       const struct stat *st, const struct data_syms *ds)
{
	GElf_Shdr plt_sh, rel_sh, dynsym_sh;
	Elf_Scn *plt, *rel, *dynsym;
	Elf_Data *reld, *symd;
	uint64_t base, entsize = 16;
	size_t nrel, nent, i;
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
	/* entries past the section's end are not named (sh_size may lie) */
	for (nent = 0; nent < nrel; nent++)
		if (base + (nent + 1) * entsize > plt_sh.sh_addr + plt_sh.sh_size)
			break;
	/* a data table's symbols are file offsets: no shortcut through them */
	covered = plt__covered_kept(dso, symelf, symsrc, st, base, entsize, nent, !ds);
	if (!covered)
		return -ENOMEM;
	for (i = 0; i < nent; i++) {
		uint64_t addr = base + i * entsize;
		size_t symidx;
		GElf_Sym sym;
		const char *name;

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
		if (ds)
			addr = data_syms__file_off(ds, addr, plt_sh.sh_addr - plt_sh.sh_offset) +
			       dso->text_offset;
		if (dso__add_symbol(dso, addr, entsize, STB_GLOBAL, STT_FUNC, buf, false)) {
			free(covered);
			return -ENOMEM;
		}
	}
	free(covered);
	return 0;
}

int elf__open(const char *path, int *fdp, Elf **elfp)
{
	int fd;
	Elf *elf;

	elf__init_once();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -EINVAL;
	}
	*fdp = fd;
	*elfp = elf;
	return 0;
}

/*
 * The steps of dso__load_elf() once the files are open (shared with
 * dso__load_elf_image()): symbols from elf, text offset and PLT entries
 * from the runtime file relf; path (may be NULL) becomes symsrc_path;
 * st: elf's file's stat() when elf was read from the file at path, else
 * NULL.
 */
static int elf__load_dso(struct dso *dso, Elf *elf, Elf *relf, const char *path,
			 const struct stat *st, const struct data_syms *ds)
{
	int err;

	dso->is_64_bit = gelf_getclass(elf) == ELFCLASS64;
	if (elf__text_offset(relf, &dso->text_offset))
		elf__text_offset(elf, &dso->text_offset);
	err = elf__load_syms(dso, elf, ds);
	/* ends of the ELF symbols, before the PLT */
	if (ds)
		dso__symbols_finish_ends_first(dso);
	else
		dso__symbols_finish(dso);
	if (err != -ENOMEM &&
	    elf__synthesize_plt(dso, relf, elf, st ? path : NULL, st, ds) == -ENOMEM)
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
	struct stat st, rst;
	bool have_st, ids;
	Elf *elf, *relf;

	/* the files' identities as the kept table names them: taken before
	 * reading, so a file changed meanwhile is not kept under its new one */
	have_st = !stat(path, &st);
	ids = have_st && !stat(runtime, &rst);
	if (ids && !symbol_cache__load(dso, path, &st, runtime, &rst)) {
		free(dso->symsrc_path);
		dso->symsrc_path = strdup(path);
		return 0;
	}
	if (elf__open(path, &fd, &elf))
		return -ENOENT;
	if (!strcmp(path, runtime) || elf__open(runtime, &rfd, &relf))
		relf = elf;
	err = elf__load_dso(dso, elf, relf, path, have_st ? &st : NULL, NULL);
	if (relf != elf) {
		elf_end(relf);
		close(rfd);
	}
	elf_end(elf);
	close(fd);
	if (!err && ids && dso->nr_symbols) {
		dso__symbols_finish(dso);	/* the PLT entries in order */
		symbol_cache__store(dso, path, &st, runtime, &rst);
	}
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
	err = elf__load_syms(dso, elf, NULL);
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
	err = elf__load_dso(dso, elf, relf, path, NULL, NULL);
	if (relf != elf)
		elf_end(relf);
	elf_end(elf);
	return err;
}

/*
 * Source lines from the symbol table, where the DWARF has none (see
 * dso__symtab_srcline() in dso.h). Facts from binutils' behaviour as
 * perf 6.1 shows it: addr2line prints "FILE:?" when it found a function
 * for the address, FILE "??" when it knows no file (perf: "??:0", not
 * printed by script), and "??:0" when it found none (perf: no answer,
 * its "DSO[addr]" or "sym+off" forms). The function symbol for an
 * address is the one in the address's section with the highest value at
 * or below it (no size check); of equal values the larger size wins (0
 * counts as 1), then the first in table order. Function symbols: all but
 * sections, files, objects, TLS and hidden local zero-size labels. The
 * file is the FILE symbol last seen before the function in table order,
 * for a local function always, for a global one only while no FILE came
 * after the table's first other symbol.
 */
struct file_sym {
	uint64_t start, size;		/* size 0 counted as 1 */
	uint32_t sec, order;
	const char *answer;		/* interned "file:0", NULL: "??:0" */
};

struct file_syms {
	struct file_sym *syms;		/* by (sec, start, size desc, order) */
	size_t nr;
	struct file_sec { uint64_t lo, hi; uint32_t idx; } *secs;	/* SHF_ALLOC, header order */
	size_t nr_secs;
};

static pthread_mutex_t file_syms_lock = PTHREAD_MUTEX_INITIALIZER;
static struct file_syms file_syms_none;	/* no file or no table: perf's other answers */

static int file_sym__cmp(const void *a, const void *b)
{
	const struct file_sym *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool file_sym__is_function(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_TLS ||
	    type == STT_COMMON || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	return !(type == STT_NOTYPE && !sym->st_size && GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
		 GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN);
}

/* The answers of dso's symbol table file path; &file_syms_none when it
 * cannot be read as ELF. NULL on ENOMEM. Called under file_syms_lock. */
static struct file_syms *file_syms__read(struct dso *dso, const char *path)
{
	struct file_syms *fs = NULL;
	const char *file = NULL, *answer = NULL;	/* answer: file's, once interned */
	bool file_after_sym = false, sym_seen = false;
	size_t nsyms = 0, nsec = 0, i;
	Elf_Data *data = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	int fd = -1;
	Elf *elf;

	if (elf__open(path, &fd, &elf))
		return &file_syms_none;
	/* an ELF file without a symbol table: every answer is "??:0" */
	if (elf__symtab(elf, &shdr, &data, &nsyms) || elf_getshdrnum(elf, &nsec))
		nsyms = nsec = 0;
	fs = calloc(1, sizeof(*fs));
	if (!fs || !(fs->syms = calloc(nsyms + 1, sizeof(*fs->syms))) ||
	    !(fs->secs = calloc(nsec + 1, sizeof(*fs->secs)))) {
		if (fs)
			free(fs->syms);
		free(fs);
		elf_end(elf);
		close(fd);
		return NULL;
	}
	for (i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		char buf[512];

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = elf_strptr(elf, shdr.sh_link, sym.st_name);
			answer = NULL;
			file_after_sym |= sym_seen;
			continue;
		}
		sym_seen = true;
		if (!file_sym__is_function(&sym))
			continue;
		fs->syms[fs->nr] = (struct file_sym){
			.start = sym.st_value, .size = sym.st_size ? sym.st_size : 1,
			.sec = sym.st_shndx, .order = (uint32_t)i,
		};
		if (file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL || !file_after_sym)) {
			if (!answer) {
				/* perf prints the file's base name */
				name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
				snprintf(buf, sizeof(buf), "%s:0", name);
				answer = dso__intern_str(dso, buf);
			}
			fs->syms[fs->nr].answer = answer;
		}
		fs->nr++;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_size)
			fs->secs[fs->nr_secs++] = (struct file_sec){
				sh.sh_addr, sh.sh_addr + sh.sh_size, (uint32_t)elf_ndxscn(scn) };
	}
	elf_end(elf);
	close(fd);
	qsort(fs->syms, fs->nr, sizeof(*fs->syms), file_sym__cmp);
	return fs;
}

const char *dso__symtab_srcline(struct dso *dso, uint64_t addr)
{
	struct file_syms *fs = __atomic_load_n((struct file_syms **)&dso->file_syms, __ATOMIC_ACQUIRE);
	const struct file_sym *best = NULL;
	const struct file_sec *sec = NULL;
	size_t lo, hi;

	if (!fs) {
		const char *path = dso->symsrc_path ? dso->symsrc_path :
				   dso->runtime_path ? dso->runtime_path : dso->long_name;

		pthread_mutex_lock(&file_syms_lock);
		fs = dso->file_syms;
		if (!fs && dso->kind == DSO_USER && (fs = file_syms__read(dso, path)))
			__atomic_store_n((struct file_syms **)&dso->file_syms, fs, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&file_syms_lock);
		if (!fs)
			return NULL;
	}
	if (fs == &file_syms_none)
		return NULL;
	for (size_t i = 0; i < fs->nr_secs && !sec; i++)
		if (addr >= fs->secs[i].lo && addr < fs->secs[i].hi)
			sec = &fs->secs[i];
	if (!sec)
		return NULL;
	/* the last symbol of the section at or below addr, then the first
	 * of those with its value (the largest size, the first listed) */
	lo = 0;
	hi = fs->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct file_sym *m = &fs->syms[mid];

		if (m->sec < sec->idx || (m->sec == sec->idx && m->start <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && fs->syms[lo - 1].sec == sec->idx) {
		best = &fs->syms[lo - 1];
		while (best > fs->syms && best[-1].sec == best->sec && best[-1].start == best->start)
			best--;
	}
	if (!best)
		return NULL;	/* addr2line finds no function: "??:0" */
	return best->answer ? best->answer : "??:0";
}

void dso__symtab_srcline_delete(struct dso *dso)
{
	struct file_syms *fs = dso->file_syms;

	if (fs && fs != &file_syms_none) {
		free(fs->syms);
		free(fs->secs);
		free(fs);
	}
	dso->file_syms = NULL;
}

/*
 * ---- data symbols: the table perf 6.1 looks a data address up in ----
 *
 * perf keeps one symbol tree per DSO: functions, text labels, the PLT
 * entries and the named objects of loaded sections (.data, .bss,
 * .rodata, ...). prf's function table leaves the objects out (a code
 * address never needs them); a sample's data address (PERF_SAMPLE_ADDR)
 * is looked up in this second table, read from the same files the first
 * time one is asked for, so nothing else pays for it. As perf, the table
 * holds file offsets: each ELF symbol moved by the loadable segment
 * holding it (data_syms__file_off()), so a data address is looked up at
 * its offset in the mapped file (plus text_offset, as function symbols
 * are kept), and the db export writes perf's starts.
 */

static pthread_mutex_t data_syms_lock = PTHREAD_MUTEX_INITIALIZER;
static struct data_syms data_syms_none;	/* nothing to read: no data symbols */

static void data_syms__free(struct data_syms *ds)
{
	dso__put(ds->table);	/* NULL: nothing */
	free(ds->segs);
	free(ds);
}

/* The PT_LOAD segments of elf into ds. 0 or -ENOMEM. */
static int data_syms__segments(struct data_syms *ds, Elf *elf)
{
	size_t n, i;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	ds->segs = calloc(n, sizeof(*ds->segs));
	if (!ds->segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			ds->segs[ds->nr_segs++] = (struct load_seg){ ph.p_offset, ph.p_filesz,
								     ph.p_memsz, ph.p_vaddr };
	}
	return 0;
}

/* The data symbol table of dso read from its symbol file (the runtime
 * file's segments and PLT); &data_syms_none when there is none. NULL on
 * ENOMEM. Called under data_syms_lock. */
static struct data_syms *data_syms__read(struct dso *dso)
{
	const char *path = dso->symsrc_path;
	const char *runtime = dso->runtime_path ? dso->runtime_path : path;
	struct data_syms *ds;
	int fd = -1, rfd = -1, err;
	Elf *elf, *relf;

	if (dso->kind != DSO_USER || !path || dso->build_id_mismatch)
		return &data_syms_none;
	if (elf__open(path, &fd, &elf))
		return &data_syms_none;
	if (!strcmp(path, runtime) || elf__open(runtime, &rfd, &relf))
		relf = elf;
	ds = calloc(1, sizeof(*ds));
	if (ds)
		ds->table = dso__new(dso->long_name);
	err = ds && ds->table ? data_syms__segments(ds, relf) : -ENOMEM;
	if (!err) {
		ds->table->machine = dso->machine;
		/* the PLT answers are perf's whichever table asks (no stat:
		 * the function table's load keeps them) */
		err = elf__load_dso(ds->table, elf, relf, NULL, NULL, ds);
		dso__symbols_finish(ds->table);		/* the PLT entries in order */
		err = err == -ENOMEM ? -ENOMEM : 0;	/* no symbols: an empty table */
	}
	if (relf != elf) {
		elf_end(relf);
		close(rfd);
	}
	elf_end(elf);
	close(fd);
	if (err && ds) {
		data_syms__free(ds);
		return NULL;
	}
	return ds;
}

struct symbol *dso__find_data_symbol(struct dso *dso, uint64_t off, uint64_t *addr)
{
	struct symbol *sym;
	struct data_syms *ds = __atomic_load_n((struct data_syms **)&dso->data_syms,
					       __ATOMIC_ACQUIRE);
	if (unlikely(!__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE)))
		dso__load(dso);		/* finds the files */
	if (!ds) {
		pthread_mutex_lock(&data_syms_lock);
		ds = dso->data_syms;
		if (!ds && (ds = data_syms__read(dso)))
			__atomic_store_n((struct data_syms **)&dso->data_syms, ds, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&data_syms_lock);
	}
	if (!ds || ds == &data_syms_none) {
		/* no ELF file: the functions there are (kernel, vdso, JIT) */
		*addr = off + dso->text_offset;
		return dso->kind == DSO_USER ? NULL : dso__find_symbol(dso, *addr);
	}
	*addr = off + ds->table->text_offset;
	sym = dso__find_symbol_loaded(ds->table, *addr);
	if (sym && sym->type != STT_OBJECT) {
		/* code: the function table's symbol of the same name and
		 * range, one object for both lookups as in perf's single
		 * tree (the db export numbers symbols by object); a range
		 * that differs (the last function, which perf sizes up to the
		 * next object) stays the data table's */
		struct symbol *f = dso__find_symbol_loaded(dso, off + dso->text_offset);

		if (f && f->start == sym->start && f->end == sym->end && !strcmp(f->name, sym->name)) {
			*addr = off + dso->text_offset;
			return f;
		}
	}
	return sym;
}

void dso__data_syms_delete(struct dso *dso)
{
	struct data_syms *ds = dso->data_syms;

	if (ds && ds != &data_syms_none)
		data_syms__free(ds);
	dso->data_syms = NULL;
}
