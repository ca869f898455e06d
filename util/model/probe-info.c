// SPDX-License-Identifier: GPL-2.0
/*
 * A binary as `prf probe` sees it (probe-info.h): ELF symbols and
 * segments with libelf, functions, lines, variables and types with libdw
 * (DWARF 5 standard: location descriptions 2.5 and 2.6, frame base 3.3.5,
 * members 5.7.6, line programs 6.2; the CFA from the CFI, 6.4), the
 * debug file found as the rest of the model finds it (dso__debug_file()).
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "probe-info.h"
#include "dso.h"
#include "debuginfo.h"
#include "../lib/debug.h"
#include "../lib/util.h"

struct probe_sym {
	uint64_t addr, size;
	const char *name;	/* in the ELF's string table */
	bool func;
	bool ifunc;
};

struct probe_seg {
	uint64_t vaddr, off, filesz;
};

struct probe_info {
	int fd, dbg_fd;
	Elf *elf, *dbg_elf;
	Dwarf *dw;
	Dwarf_CFI *cfi_eh, *cfi_dbg;
	struct probe_sym *syms;
	size_t nsyms;
	struct probe_seg *segs;
	size_t nsegs;
};

static int read_symtab(struct probe_info *pi, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	struct probe_sym *ns;

	if (!data || !n)
		return 0;
	ns = realloc(pi->syms, (pi->nsyms + n) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	pi->syms = ns;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx == SHN_ABS)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT &&
		    type != STT_NOTYPE)
			continue;
		name = elf_strptr(pi->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		pi->syms[pi->nsyms++] = (struct probe_sym){
			.addr = sym.st_value, .size = sym.st_size, .name = name,
			.func = type == STT_FUNC || type == STT_GNU_IFUNC,
			.ifunc = type == STT_GNU_IFUNC,
		};
	}
	return 0;
}

static int load_elf(struct probe_info *pi)
{
	Elf_Scn *scn = NULL;
	size_t nph;
	int err;

	if (elf_getphdrnum(pi->elf, &nph))
		return -EINVAL;
	pi->segs = calloc(nph ? nph : 1, sizeof(*pi->segs));
	if (!pi->segs)
		return -ENOMEM;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(pi->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			pi->segs[pi->nsegs++] = (struct probe_seg){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
	while ((scn = elf_nextscn(pi->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		err = read_symtab(pi, scn, &sh);
		if (err)
			return err;
	}
	return 0;
}

static void load_dwarf(struct probe_info *pi, const char *path)
{
	struct dso *dso = dso__new(path);
	const char *dbg = dso ? dso__debug_file(dso) : NULL;

	if (dbg && !*dbg) {
		pi->dw = dwarf_begin_elf(pi->elf, DWARF_C_READ, NULL);
	} else if (dbg) {
		pi->dbg_fd = open(dbg, O_RDONLY | O_CLOEXEC);
		if (pi->dbg_fd >= 0)
			pi->dbg_elf = elf_begin(pi->dbg_fd, ELF_C_READ_MMAP, NULL);
		if (pi->dbg_elf)
			pi->dw = dwarf_begin_elf(pi->dbg_elf, DWARF_C_READ, NULL);
	}
	if (dso)
		dso__put(dso);
	if (pi->dw) {
		pi->cfi_eh = dwarf_getcfi_elf(pi->elf);
		pi->cfi_dbg = dwarf_getcfi(pi->dw);
	}
}

int probe_info__open(const char *path, struct probe_info **pip)
{
	struct probe_info *pi = calloc(1, sizeof(*pi));
	int err;

	*pip = NULL;
	if (!pi)
		return -ENOMEM;
	pi->dbg_fd = -1;
	elf_version(EV_CURRENT);
	pi->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pi->fd < 0) {
		err = -errno;
		free(pi);
		return err;
	}
	pi->elf = elf_begin(pi->fd, ELF_C_READ_MMAP, NULL);
	if (!pi->elf || elf_kind(pi->elf) != ELF_K_ELF) {
		probe_info__delete(pi);
		return -EINVAL;
	}
	err = load_elf(pi);
	if (err) {
		probe_info__delete(pi);
		return err;
	}
	load_dwarf(pi, path);
	*pip = pi;
	return 0;
}

void probe_info__delete(struct probe_info *pi)
{
	if (!pi)
		return;
	if (pi->dw)
		dwarf_end(pi->dw);
	if (pi->cfi_eh)
		dwarf_cfi_end(pi->cfi_eh);
	if (pi->dbg_elf)
		elf_end(pi->dbg_elf);
	if (pi->dbg_fd >= 0)
		close(pi->dbg_fd);
	if (pi->elf)
		elf_end(pi->elf);
	if (pi->fd >= 0)
		close(pi->fd);
	free(pi->syms);
	free(pi->segs);
	free(pi);
}

bool probe_info__has_dwarf(const struct probe_info *pi)
{
	return pi->dw != NULL;
}

int probe_info__vaddr_to_offset(const struct probe_info *pi, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < pi->nsegs; i++) {
		const struct probe_seg *s = &pi->segs[i];

		if (vaddr >= s->vaddr && vaddr < s->vaddr + s->filesz) {
			*off = vaddr - s->vaddr + s->off;
			return 0;
		}
	}
	return -ENOENT;
}

int probe_info__offset_to_vaddr(const struct probe_info *pi, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < pi->nsegs; i++) {
		const struct probe_seg *s = &pi->segs[i];

		if (off >= s->off && off < s->off + s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

int probe_info__symbol(const struct probe_info *pi, const char *name, uint64_t *addr)
{
	const struct probe_sym *best = NULL;

	for (size_t i = 0; i < pi->nsyms; i++) {
		if (strcmp(pi->syms[i].name, name))
			continue;
		if (!best || (pi->syms[i].func && !best->func))
			best = &pi->syms[i];
	}
	if (!best)
		return -ENOENT;
	*addr = best->addr;
	return 0;
}

bool probe_info__symbol_is_ifunc(const struct probe_info *pi, const char *name)
{
	for (size_t i = 0; i < pi->nsyms; i++)
		if (pi->syms[i].ifunc && !strcmp(pi->syms[i].name, name))
			return true;
	return false;
}

int probe_info__symbol_at(const struct probe_info *pi, uint64_t addr, const char **name,
			  uint64_t *off)
{
	const struct probe_sym *best = NULL;

	for (size_t i = 0; i < pi->nsyms; i++) {
		const struct probe_sym *s = &pi->syms[i];

		if (!s->func || addr < s->addr || addr >= s->addr + (s->size ? s->size : 1))
			continue;
		/* of aliases, the global name perf's symbol table keeps: first */
		if (!best || s->addr > best->addr)
			best = s;
	}
	if (!best)
		return -ENOENT;
	*name = best->name;
	*off = addr - best->addr;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int probe_info__symbols(const struct probe_info *pi, const char ***namesp, size_t *np)
{
	const char **names = malloc((pi->nsyms ? pi->nsyms : 1) * sizeof(*names));
	size_t n = 0;

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < pi->nsyms; i++)
		names[n++] = pi->syms[i].name;
	if (n)
		qsort(names, n, sizeof(*names), str_cmp);
	*np = 0;
	for (size_t i = 0; i < n; i++)
		if (!*np || strcmp(names[*np - 1], names[i]))
			names[(*np)++] = names[i];
	*namesp = names;
	return 0;
}

void probe_sites__free(struct probe_site *sites, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(sites[i].func);
		free(sites[i].file);
		free(sites[i].outer);
	}
	free(sites);
}

/* ---- DWARF walking ---- */

struct site_list {
	struct probe_site *v;
	size_t n, alloc;
};

static int sites__add(struct site_list *l, const struct probe_site *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].addr == s->addr) {
			free(s->func);
			free(s->file);
			free(s->outer);
			return 0;
		}
	if (l->n == l->alloc) {
		size_t na = l->alloc ? l->alloc * 2 : 8;
		struct probe_site *nv = realloc(l->v, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->alloc = na;
	}
	l->v[l->n++] = *s;
	return 0;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

static const char *die_linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	return n ? n : die_name(die);
}

static int die_decl_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_line, &a), &w))
		return 0;
	return (int)w;
}

/* The declaration's file as the line table names it (libdw's, as perf
 * prints it). */
static const char *die_decl_file(Dwarf_Die *die)
{
	return dwarf_decl_file(die);
}

/* Whether the unit was built with optimization (-O other than -O0 in
 * DW_AT_producer, as perf judges it). */
static bool cu_optimized(Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	const char *p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &a));

	if (!p)
		return true;
	while ((p = strstr(p, "-O"))) {
		p += 2;
		if (*p && *p != '0')
			return true;
	}
	return false;
}

struct lines {
	Dwarf_Lines *l;
	size_t n;
};

static int cu_lines(Dwarf_Die *cu, struct lines *ls)
{
	return dwarf_getsrclines(cu, &ls->l, &ls->n) ? -ENOENT : 0;
}

/* The first statement row after entry that is at another address and
 * line than the entry's, inside the function: the end of the prologue. */
static uint64_t skip_prologue(Dwarf_Die *cu, Dwarf_Die *func, uint64_t entry)
{
	struct lines ls;
	int entry_line = -1;

	if (cu_lines(cu, &ls))
		return entry;
	for (size_t i = 0; i < ls.n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(ls.l, i);
		Dwarf_Addr a;
		int ln;
		bool stmt;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		if (a == entry && entry_line < 0)
			entry_line = ln;
		dwarf_linebeginstatement(l, &stmt);
		if (entry_line >= 0 && a > entry && ln != entry_line && stmt &&
		    dwarf_haspc(func, a) == 1)
			return a;
	}
	return entry;
}

static int line_at(Dwarf_Die *cu, uint64_t addr)
{
	Dwarf_Line *l = dwarf_getsrc_die(cu, addr);
	int ln = 0;

	if (l)
		dwarf_lineno(l, &ln);
	return ln;
}

static int cu_func_at(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *func);

static int site_of(Dwarf_Die *cu, Dwarf_Die *func, uint64_t addr, bool inlined,
		   struct probe_site *s)
{
	Dwarf_Addr entry = 0;
	const char *file = die_decl_file(func), *name = die_name(func);

	dwarf_entrypc(func, &entry);
	*s = (struct probe_site){
		.addr = addr, .entry = entry, .inlined = inlined,
		.func = strdup(name ? name : "?"), .file = file ? strdup(file) : NULL,
		.decl_line = die_decl_line(func), .line = line_at(cu, addr),
		.scope = dwarf_dieoffset(func),
	};
	if (inlined) {
		Dwarf_Die outer;
		Dwarf_Addr oe = 0;

		if (!cu_func_at(cu, addr, &outer) && die_name(&outer) && !dwarf_entrypc(&outer, &oe)) {
			s->outer = strdup(die_name(&outer));
			s->outer_entry = oe;
		}
	} else {
		s->outer = s->func ? strdup(s->func) : NULL;
		s->outer_entry = entry;
	}
	if (!s->func || (file && !s->file) || !s->outer) {
		free(s->func);
		free(s->file);
		free(s->outer);
		return -ENOMEM;
	}
	return 0;
}

static bool file_matches(const char *file, const char *src)
{
	size_t fl, sl;

	if (!src)
		return true;
	if (!file)
		return false;
	fl = strlen(file);
	sl = strlen(src);
	return fl >= sl && !strcmp(file + fl - sl, src) && (fl == sl || file[fl - sl - 1] == '/' ||
							   src[0] == '/');
}

/* Line text of file:line (static buffer), or NULL. */
static const char *source_line(const char *file, int line)
{
	static char buf[4096];
	FILE *f = fopen(file, "r");
	int n = 0;
	const char *ret = NULL;

	if (!f)
		return NULL;
	while (fgets(buf, sizeof(buf), f))
		if (++n == line) {
			ret = buf;
			break;
		}
	fclose(f);
	return ret;
}

/* perf's lazy matching: the line without blanks against the pattern
 * without blanks, as a glob that may match the start of the line. */
static bool lazy_match(const char *text, const char *pat)
{
	char t[4096], p[512];
	size_t tn = 0, pn = 0;

	for (; *text && tn < sizeof(t) - 2; text++)
		if (*text != ' ' && *text != '\t' && *text != '\n')
			t[tn++] = *text;
	t[tn] = '\0';
	for (; *pat && pn < sizeof(p) - 2; pat++)
		if (*pat != ' ' && *pat != '\t')
			p[pn++] = *pat;
	if (!pn || p[pn - 1] != '*')
		p[pn++] = '*';
	p[pn] = '\0';
	return !fnmatch(p, t, 0);
}

/* Add a site per statement row of func (NULL: any code) in cu whose line
 * is want (> 0) or whose text matches lazy, in a file matching src. */
static int add_line_sites(Dwarf_Die *cu, Dwarf_Die *func, const char *src, int want,
			  const char *lazy, struct site_list *out)
{
	struct lines ls;
	Dwarf_Addr entry = 0;
	int err = 0;

	if (cu_lines(cu, &ls))
		return 0;
	if (func)
		dwarf_entrypc(func, &entry);
	for (size_t i = 0; i < ls.n && !err; i++) {
		Dwarf_Line *l = dwarf_onesrcline(ls.l, i);
		Dwarf_Die fdie;
		Dwarf_Addr a;
		const char *file;
		bool stmt, end;
		int ln;
		struct probe_site s;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		file = dwarf_linesrc(l, NULL, NULL);
		if (!stmt || end || (want > 0 && ln != want) || !file_matches(file, src))
			continue;
		if (func && (dwarf_haspc(func, a) != 1 || (a == entry && want <= 0 && !lazy)))
			continue;
		if (lazy) {
			const char *text = source_line(file, ln);

			if (!text || !lazy_match(text, lazy))
				continue;
		}
		if (!func && cu_func_at(cu, a, &fdie))
			continue;
		err = site_of(cu, func ? func : &fdie, a, false, &s);
		if (!err)
			err = sites__add(out, &s);
	}
	return err;
}

#define MAX_FUNC_DIES 512	/* per unit; more is -E2BIG */

struct func_search {
	const char *name;
	Dwarf_Off found[MAX_FUNC_DIES];		/* concrete functions */
	size_t nfound;
	Dwarf_Off abstract[MAX_FUNC_DIES];	/* inline-only definitions (DW_AT_inline) */
	size_t nabstract;
	bool overflow;
};

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct func_search *fs = arg;
	const char *n = die_name(die);
	Dwarf_Addr lo;

	if (!n || strcmp(n, fs->name))
		return DWARF_CB_OK;
	if (dwarf_hasattr(die, DW_AT_inline)) {
		if (fs->nabstract == MAX_FUNC_DIES)
			fs->overflow = true;
		else
			fs->abstract[fs->nabstract++] = dwarf_dieoffset(die);
	}
	if (!dwarf_hasattr(die, DW_AT_declaration) && !dwarf_entrypc(die, &lo)) {
		if (fs->nfound == MAX_FUNC_DIES)
			fs->overflow = true;
		else
			fs->found[fs->nfound++] = dwarf_dieoffset(die);
	}
	return DWARF_CB_OK;
}

/* Inline instances of one of fs->abstract below die. */
static void find_inlines(Dwarf_Die *die, struct func_search *fs, Dwarf_Off *out, size_t *n,
			 size_t max)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Attribute a;
			Dwarf_Die origin;

			if (dwarf_attr(&child, DW_AT_abstract_origin, &a) &&
			    dwarf_formref_die(&a, &origin))
				for (size_t i = 0; i < fs->nabstract; i++) {
					if (dwarf_dieoffset(&origin) != fs->abstract[i])
						continue;
					if (*n == max)
						fs->overflow = true;
					else
						out[(*n)++] = dwarf_dieoffset(&child);
				}
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_lexical_block)
			find_inlines(&child, fs, out, n, max);
	} while (!dwarf_siblingof(&child, &child));
}

struct func_at_search {
	uint64_t addr;
	Dwarf_Die found;
	bool ok;
};

static int func_at_cb(Dwarf_Die *die, void *arg)
{
	struct func_at_search *fa = arg;

	if (dwarf_hasattr(die, DW_AT_declaration) || dwarf_haspc(die, fa->addr) != 1)
		return DWARF_CB_OK;
	fa->found = *die;
	fa->ok = true;
	return DWARF_CB_ABORT;
}

/* The concrete function of unit cu containing addr, in *func (looking at
 * the unit's functions, not through inline scopes as dwarf_getscopes()
 * does, which gives an inline instance's abstract scopes instead). */
static int cu_func_at(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *func)
{
	struct func_at_search fa = { .addr = addr };

	dwarf_getfuncs(cu, func_at_cb, &fa, 0);
	if (!fa.ok)
		return -ENOENT;
	*func = fa.found;
	return 0;
}

/* The concrete subprogram DIE containing addr, in *func (and its unit). */
static int func_at(Dwarf *dw, uint64_t addr, Dwarf_Die *cu, Dwarf_Die *func)
{
	if (!dwarf_addrdie(dw, addr, cu))
		return -ENOENT;
	return cu_func_at(cu, addr, func);
}

static int func_site(struct probe_info *pi, Dwarf_Die *cu, Dwarf_Die *func, bool inlined,
		     const struct probe_request *req, struct site_list *out)
{
	Dwarf_Addr entry;
	struct probe_site s;
	int err;

	if (req->where == PROBE_AT_FUNC_LINE) {
		int decl = die_decl_line(func);

		return add_line_sites(cu, func, req->src, decl + (int)req->line, NULL, out);
	}
	if (req->where == PROBE_AT_FUNC_LAZY)
		return add_line_sites(cu, func, req->src, 0, req->lazy, out);
	if (dwarf_entrypc(func, &entry))
		return 0;
	err = site_of(cu, func, entry + req->offset, inlined, &s);
	if (err)
		return err;
	if (req->skip_prologue && !req->offset && !inlined && !cu_optimized(cu)) {
		s.addr = skip_prologue(cu, func, entry);
		s.skipped_prologue = s.addr != entry;
		s.line = line_at(cu, s.addr);
	}
	(void)pi;
	return sites__add(out, &s);
}

static int find_funcs(struct probe_info *pi, const struct probe_request *req, struct site_list *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int err = 0;

	while (!err && !dwarf_nextcu(pi->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		struct func_search fs = { .name = req->func };
		Dwarf_Die cu, die;

		if (!dwarf_offdie(pi->dw, off + hsize, &cu))
			goto next;
		dwarf_getfuncs(&cu, func_cb, &fs, 0);
		for (size_t i = 0; i < fs.nfound && !err; i++) {
			if (!dwarf_offdie(pi->dw, fs.found[i], &die))
				continue;
			if (req->src && !file_matches(die_decl_file(&die), req->src))
				continue;
			err = func_site(pi, &cu, &die, false, req, out);
		}
		if (fs.nabstract && !req->no_inlines && req->where == PROBE_AT_FUNC) {
			Dwarf_Off inl[MAX_FUNC_DIES];
			size_t ninl = 0;

			find_inlines(&cu, &fs, inl, &ninl, MAX_FUNC_DIES);
			for (size_t i = 0; i < ninl && !err; i++)
				if (dwarf_offdie(pi->dw, inl[i], &die))
					err = func_site(pi, &cu, &die, true, req, out);
		}
		if (!err && fs.overflow)
			err = -E2BIG;
next:
		off = next;
	}
	return err;
}

int probe_info__find(struct probe_info *pi, const struct probe_request *req,
		     struct probe_site **sites, size_t *n)
{
	struct site_list out = { 0 };
	uint64_t addr;
	int err = 0;

	*sites = NULL;
	*n = 0;
	if (!pi->dw) {
		struct probe_site s = { 0 };
		const char *name;
		uint64_t off;

		if (req->where != PROBE_AT_FUNC || req->src)
			return -EOPNOTSUPP;
		if (probe_info__symbol(pi, req->func, &addr))
			return -ENOENT;
		s.addr = addr + req->offset;
		s.entry = addr;
		s.func = strdup(probe_info__symbol_at(pi, addr, &name, &off) ? req->func : name);
		if (!s.func)
			return -ENOMEM;
		*sites = malloc(sizeof(**sites));
		if (!*sites) {
			free(s.func);
			return -ENOMEM;
		}
		**sites = s;
		*n = 1;
		return 0;
	}
	if (req->where == PROBE_AT_SRC_LINE || req->where == PROBE_AT_SRC_LAZY) {
		Dwarf_Off off = 0, next;
		size_t hsize;

		while (!err && !dwarf_nextcu(pi->dw, off, &next, &hsize, NULL, NULL, NULL)) {
			Dwarf_Die cu;

			if (dwarf_offdie(pi->dw, off + hsize, &cu))
				err = add_line_sites(&cu, NULL, req->src,
						     req->where == PROBE_AT_SRC_LINE ? (int)req->line : 0,
						     req->where == PROBE_AT_SRC_LAZY ? req->lazy : NULL,
						     &out);
			off = next;
		}
	} else {
		err = find_funcs(pi, req, &out);
		/* a symbol alias (inet_pton of __inet_pton): its DWARF function */
		if (!err && !out.n && !req->src && !probe_info__symbol(pi, req->func, &addr)) {
			Dwarf_Die cu, func;

			if (!func_at(pi->dw, addr, &cu, &func))
				err = func_site(pi, &cu, &func, false, req, &out);
		}
	}
	if (err) {
		probe_sites__free(out.v, out.n);
		return err;
	}
	if (!out.n) {
		free(out.v);
		return -ENOENT;
	}
	if (req->max_probes && out.n > req->max_probes) {
		probe_sites__free(out.v, out.n);
		return -E2BIG;
	}
	*sites = out.v;
	*n = out.n;
	return 0;
}

/* ---- variables, locations and types ---- */

static const char *const x86_64_regs[] = {
	"%ax", "%dx", "%cx", "%bx", "%si", "%di", "%bp", "%sp",
	"%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%ip",
};

static const char *reg_name(unsigned int r)
{
	return r < ARRAY_SIZE(x86_64_regs) ? x86_64_regs[r] : NULL;
}

/* A value as the kernel fetches it. */
struct fval {
	enum { FV_REG, FV_MEM, FV_GLOBAL } kind;
	const char *reg;	/* FV_REG; FV_MEM with inner NULL: memory at reg + off */
	char *inner;		/* FV_MEM: memory at (inner) + off */
	int64_t off;
};

static char *fval__str(const struct fval *v)
{
	char *s = NULL;

	switch (v->kind) {
	case FV_REG:
		return strdup(v->reg);
	case FV_MEM:
		if (asprintf(&s, "%+" PRId64 "(%s)", v->off, v->inner ? v->inner : v->reg) < 0)
			return NULL;
		return s;
	case FV_GLOBAL:
		if (asprintf(&s, "@+0x%" PRIx64, (uint64_t)v->off) < 0)
			return NULL;
		return s;
	}
	return NULL;
}

/* Memory at the address the value v holds, plus off. */
static int fval__deref(struct fval *v, int64_t off)
{
	char *s = fval__str(v);

	if (!s)
		return -ENOMEM;
	free(v->inner);
	v->kind = FV_MEM;
	v->inner = s;
	v->reg = NULL;
	v->off = off;
	return 0;
}

static int frame_base(struct probe_info *pi, Dwarf_Die *func, uint64_t addr, unsigned int *reg,
		      int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(func, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, addr, &ops, &nops, 1) != 1 || !nops)
		return -EOPNOTSUPP;
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
		return 0;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = ops[0].atom - DW_OP_reg0;
		*off = 0;
		return 0;
	}
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		Dwarf_CFI *cfis[2] = { pi->cfi_eh, pi->cfi_dbg };

		for (int i = 0; i < 2; i++) {
			Dwarf_Frame *frame;
			Dwarf_Op *cops;
			size_t ncops;
			int ok = 0;

			if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], addr, &frame))
				continue;
			if (!dwarf_frame_cfa(frame, &cops, &ncops) && ncops == 1 &&
			    (cops[0].atom == DW_OP_bregx ||
			     (cops[0].atom >= DW_OP_breg0 && cops[0].atom <= DW_OP_breg31))) {
				if (cops[0].atom == DW_OP_bregx) {
					*reg = (unsigned int)cops[0].number;
					*off = (int64_t)cops[0].number2;
				} else {
					*reg = cops[0].atom - DW_OP_breg0;
					*off = (int64_t)cops[0].number;
				}
				ok = 1;
			}
			free(frame);
			if (ok)
				return 0;
		}
	}
	return -EOPNOTSUPP;
}

static int var_location(struct probe_info *pi, Dwarf_Die *var, Dwarf_Die *func, uint64_t addr,
			struct fval *v)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	unsigned int reg;
	int64_t fboff;
	uint8_t atom;

	memset(v, 0, sizeof(*v));
	if (!dwarf_attr(var, DW_AT_location, &a))
		return -ENOENT;
	if (dwarf_getlocation_addr(&a, addr, &ops, &nops, 1) != 1 || !nops)
		return -ENOENT;
	if (nops != 1)
		return -EOPNOTSUPP;
	atom = ops[0].atom;
	if (atom == DW_OP_fbreg) {
		if (!func || frame_base(pi, func, addr, &reg, &fboff) || !reg_name(reg))
			return -EOPNOTSUPP;
		v->kind = FV_MEM;
		v->reg = reg_name(reg);
		v->off = fboff + (int64_t)ops[0].number;
		return 0;
	}
	if ((atom >= DW_OP_breg0 && atom <= DW_OP_breg31) || atom == DW_OP_bregx) {
		reg = atom == DW_OP_bregx ? (unsigned int)ops[0].number : (unsigned int)(atom - DW_OP_breg0);
		if (!reg_name(reg))
			return -EOPNOTSUPP;
		v->kind = FV_MEM;
		v->reg = reg_name(reg);
		v->off = (int64_t)(atom == DW_OP_bregx ? ops[0].number2 : ops[0].number);
		return 0;
	}
	if ((atom >= DW_OP_reg0 && atom <= DW_OP_reg31) || atom == DW_OP_regx) {
		reg = atom == DW_OP_regx ? (unsigned int)ops[0].number : (unsigned int)(atom - DW_OP_reg0);
		if (!reg_name(reg))
			return -EOPNOTSUPP;
		v->kind = FV_REG;
		v->reg = reg_name(reg);
		return 0;
	}
	if (atom == DW_OP_addr) {
		uint64_t off;

		/* the kernel takes @+OFFSET as an offset in the file mapped at
		 * the probe: relative to the probe's own address and offset,
		 * which reaches .bss as well */
		if (probe_info__vaddr_to_offset(pi, addr, &off))
			return -EOPNOTSUPP;
		v->kind = FV_GLOBAL;
		v->off = (int64_t)(ops[0].number + off - addr);
		return 0;
	}
	return -EOPNOTSUPP;
}

/* The type of die with typedefs and qualifiers looked through; false
 * when there is none (void). */
static bool die_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;
	Dwarf_Die cur;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, type))
		return false;
	for (;;) {
		int tag = dwarf_tag(type);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			return true;
		if (!dwarf_attr(type, DW_AT_type, &a) || !dwarf_formref_die(&a, &cur))
			return false;
		*type = cur;
	}
}

/* perf's type name of die's type: qualifiers left out, "*" for pointers
 * and arrays,
 * "struct/union/enum NAME", false when a type is missing (void). */
static bool type_name(Dwarf_Die *die, char *buf, size_t size)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	const char *n;
	int tag;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return false;
	tag = dwarf_tag(&t);
	while (tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type) {
		if (!dwarf_attr(&t, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
			return false;
		tag = dwarf_tag(&t);
	}
	if (tag == DW_TAG_pointer_type) {
		if (!type_name(&t, buf, size))
			return false;
		strncat(buf, "*", size - strlen(buf) - 1);
		return true;
	}
	if (tag == DW_TAG_array_type) {	/* perf shows an array as a pointer */
		if (!type_name(&t, buf, size))
			return false;
		strncat(buf, "*", size - strlen(buf) - 1);
		return true;
	}
	n = die_name(&t);
	snprintf(buf, size, "%s%s",
		 tag == DW_TAG_structure_type ? "struct " : tag == DW_TAG_union_type ? "union " :
		 tag == DW_TAG_enumeration_type ? "enum " : "", n ? n : "");
	return true;
}

static bool find_member(Dwarf_Die *type, const char *name, Dwarf_Die *mem, int64_t *off)
{
	Dwarf_Die child;

	if (dwarf_child(type, &child))
		return false;
	do {
		Dwarf_Attribute a;
		Dwarf_Word w = 0;
		const char *n;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		if (dwarf_attr(&child, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &w);
		n = die_name(&child);
		if (n && !strcmp(n, name)) {
			*mem = child;
			*off += (int64_t)w;
			return true;
		}
		if (!n) {	/* anonymous struct or union */
			Dwarf_Die inner;
			int64_t o = *off + (int64_t)w;

			if (die_type(&child, &inner) && find_member(&inner, name, mem, &o)) {
				*off = o;
				return true;
			}
		}
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

static int fmsg(char **msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fmsg(char **msg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(msg, fmt, ap) < 0)
		*msg = NULL;
	va_end(ap);
	return 0;
}

#define MAX_SCOPES 32

/* The scopes of a site, innermost first: lexical blocks containing its
 * address inside the site's function or inline instance, that DIE last;
 * *func gets the concrete function the code is in (for the frame base),
 * *cu its unit. Returns the count or -errno. */
static int site_scopes(struct probe_info *pi, const struct probe_site *site, Dwarf_Die *cu,
		       Dwarf_Die *scopes, Dwarf_Die *func)
{
	Dwarf_Die chain[MAX_SCOPES], child;
	int n = 0;

	if (!pi->dw || func_at(pi->dw, site->addr, cu, func))
		return -EOPNOTSUPP;
	if (!site->scope || !dwarf_offdie(pi->dw, site->scope, &chain[0]))
		chain[0] = *func;
	n = 1;
	while (n < MAX_SCOPES && !dwarf_child(&chain[n - 1], &child)) {
		bool deeper = false;

		do {
			if (dwarf_tag(&child) == DW_TAG_lexical_block &&
			    dwarf_haspc(&child, site->addr) == 1) {
				chain[n++] = child;
				deeper = true;
				break;
			}
		} while (!dwarf_siblingof(&child, &child));
		if (!deeper)
			break;
	}
	for (int i = 0; i < n; i++)
		scopes[i] = chain[n - 1 - i];
	return n;
}

/* The variable or parameter name directly in scope. */
static bool scope_var(Dwarf_Die *scope, const char *name, Dwarf_Die *var)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);
		const char *n;

		if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
			continue;
		n = die_name(&child);
		if (n && !strcmp(n, name)) {
			*var = child;
			return true;
		}
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

/* Whether var has a location at addr. */
static bool has_location_at(Dwarf_Die *var, uint64_t addr)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;

	return dwarf_attr(var, DW_AT_location, &a) &&
	       dwarf_getlocation_addr(&a, addr, &ops, &nops, 1) == 1 && nops;
}

static int apply_step(Dwarf_Die *type, struct fval *v, const struct probe_arg_step *st,
		      const char *prev, char **msg)
{
	int tag = dwarf_tag(type);
	Dwarf_Die elem, mem;
	Dwarf_Word size = 0;
	int64_t off = 0;

	if (!st->field) {	/* [N] */
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type)
			return fmsg(msg, "%s is not an array nor a pointer.", prev), -EINVAL;
		if (!die_type(type, &elem))
			return fmsg(msg, "Failed to get the type of %s.", prev), -EINVAL;
		size = (Dwarf_Word)dwarf_bytesize(&elem);
		if (tag == DW_TAG_pointer_type) {
			if (fval__deref(v, st->index * (int64_t)size))
				return -ENOMEM;
		} else {
			if (v->kind == FV_REG)
				return fmsg(msg, "%s is not on memory.", prev), -EINVAL;
			v->off += st->index * (int64_t)size;
		}
		*type = elem;
		return 0;
	}
	if (st->arrow) {
		if (tag != DW_TAG_pointer_type)
			return fmsg(msg, "Semantic error: %s must be referred by '.'", st->field),
			       -EINVAL;
		if (!die_type(type, &elem))
			return fmsg(msg, "Failed to get the type of %s.", prev), -EINVAL;
		*type = elem;
		tag = dwarf_tag(type);
		if (fval__deref(v, 0))
			return -ENOMEM;
	} else if (tag == DW_TAG_pointer_type) {
		return fmsg(msg, "Semantic error: %s must be referred by '->'", st->field), -EINVAL;
	}
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
		return fmsg(msg, "%s is not a data structure nor a union.", prev), -EINVAL;
	if (!find_member(type, st->field, &mem, &off)) {
		const char *tn = die_name(type);

		return fmsg(msg, "%s(type:%s) has no member %s.", prev, tn ? tn : "", st->field),
		       -EINVAL;
	}
	if (v->kind == FV_REG)
		return fmsg(msg, "%s is not on memory.", prev), -EINVAL;
	v->off += off;
	if (!die_type(&mem, type))
		return fmsg(msg, "Failed to get the type of %s.", st->field), -EINVAL;
	return 0;
}

/* The kernel's type of a value of DWARF type t ("" when it has none to
 * give: structures, arrays). */
static const char *kernel_type(Dwarf_Die *t, char *buf, size_t size)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = DW_ATE_signed;
	int tag = dwarf_tag(t), bytes = dwarf_bytesize(t);

	if (tag == DW_TAG_pointer_type)
		return "x64";
	if (tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type)
		return "";
	if (bytes <= 0 || bytes > 8)
		return "";
	if (tag == DW_TAG_base_type)
		dwarf_formudata(dwarf_attr(t, DW_AT_encoding, &a), &enc);
	else
		enc = DW_ATE_unsigned;
	snprintf(buf, size, "%c%d",
		 enc == DW_ATE_signed || enc == DW_ATE_signed_char ? 's' :
		 enc == DW_ATE_float ? 'x' : 'u', bytes * 8);
	return buf;
}

int probe_info__fetcharg(struct probe_info *pi, const struct probe_site *site, const char *var,
			 const struct probe_arg_step *steps, size_t nsteps, const char *type,
			 char **out, char **msg)
{
	Dwarf_Die cu, func, scopes[MAX_SCOPES], vdie, t;
	struct fval v = { 0 };
	char kbuf[8], *s = NULL;
	const char *prev = var, *kt;
	int n, err;

	*out = NULL;
	*msg = NULL;
	n = site_scopes(pi, site, &cu, scopes, &func);
	if (n < 0)
		return n;
	err = -ENOENT;
	for (int i = 0; i < n && err; i++)
		if (scope_var(&scopes[i], var, &vdie))
			err = 0;
	if (err && !site->inlined && scope_var(&cu, var, &vdie))
		err = 0;
	if (err) {
		fmsg(msg, "Failed to find the location of the '%s' variable at this address.\n"
			  " Perhaps it has been optimized out.\n"
			  " Use -V with the --range option to show '%s' location range.", var, var);
		return -ENOENT;
	}
	err = var_location(pi, &vdie, &func, site->addr, &v);
	if (err == -ENOENT) {
		fmsg(msg, "Failed to find the location of the '%s' variable at this address.\n"
			  " Perhaps it has been optimized out.\n"
			  " Use -V with the --range option to show '%s' location range.", var, var);
		return err;
	}
	if (err) {
		fmsg(msg, "Sorry, we don't support this variable location yet.");
		return err;
	}
	if (!die_type(&vdie, &t)) {
		if (nsteps || !type) {
			fmsg(msg, "Failed to get the type of %s.", var);
			err = -EINVAL;
			goto out;
		}
	}
	for (size_t i = 0; i < nsteps; i++) {
		err = apply_step(&t, &v, &steps[i], prev, msg);
		if (err)
			goto out;
		if (steps[i].field)
			prev = steps[i].field;
	}
	if (type && (!strcmp(type, "string") || !strcmp(type, "ustring"))) {
		int tag = dwarf_tag(&t);

		if (tag == DW_TAG_pointer_type || v.kind == FV_REG) {
			err = fval__deref(&v, 0) ? -ENOMEM : 0;
			if (err)
				goto out;
		} else if (tag != DW_TAG_array_type) {
			fmsg(msg, "%s is not a pointer nor an array.", prev);
			err = -EINVAL;
			goto out;
		}
	}
	s = fval__str(&v);
	kt = type ? type : kernel_type(&t, kbuf, sizeof(kbuf));
	if (!s || (*kt && asprintf(out, "%s:%s", s, kt) < 0)) {
		err = -ENOMEM;
		goto out;
	}
	if (!*kt) {
		*out = s;
		s = NULL;
	}
	err = 0;
out:
	free(s);
	free(v.inner);
	return err;
}

/* Where var's location is known, as perf's --range prints it:
 * "@<FUNC+[a-b,c-d]>" with offsets from func's entry. */
static void var_range(Dwarf_Die *func, Dwarf_Die *var, char *buf, size_t size)
{
	Dwarf_Attribute a;
	Dwarf_Addr lo = 0, hi = 0, base, start, end;
	Dwarf_Op *expr;
	size_t len, n;
	ptrdiff_t off = 0;
	const char *fn = die_name(func);
	bool first = true;

	dwarf_lowpc(func, &lo);
	dwarf_highpc(func, &hi);
	n = (size_t)snprintf(buf, size, "@<%s+[", fn ? fn : "");
	if (!dwarf_attr(var, DW_AT_location, &a))
		goto out;
	if (dwarf_getlocation(&a, &expr, &len) == 0) {	/* one location throughout */
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "0-%" PRIu64,
				      (uint64_t)(hi - lo));
		goto out;
	}
	while ((off = dwarf_getlocations(&a, off, &base, &start, &end, &expr, &len)) > 0) {
		if (start < lo || end > hi || n >= size)
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%" PRIu64 "-%" PRIu64, first ? "" : ",",
				      (uint64_t)(start - lo), (uint64_t)(end - lo));
		first = false;
	}
out:
	if (n < size)
		snprintf(buf + n, size - n, "]>");
}

/* The variables of scope (parameters only with params_only) a probe at
 * addr can fetch (with_range: also those it cannot); addr 0: globals. */
static int vars_of(struct probe_info *pi, Dwarf_Die *func, Dwarf_Die *scope, bool params_only,
		   uint64_t addr, bool with_range, probe_var_cb cb, void *arg)
{
	Dwarf_Die child;
	char tn[256], range[1024];
	int ret;

	if (dwarf_child(scope, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);
		struct probe_var pv = { .type = tn, .is_param = tag == DW_TAG_formal_parameter,
					.valid = true, .external = !addr };

		if (tag != DW_TAG_formal_parameter && (params_only || tag != DW_TAG_variable))
			continue;
		pv.name = die_name(&child);
		if (!pv.name || !dwarf_hasattr(&child, DW_AT_location))
			continue;
		if (addr) {	/* what a probe can fetch there */
			struct fval v;

			pv.valid = has_location_at(&child, addr) &&
				   !var_location(pi, &child, func, addr, &v);
			if (pv.valid)
				free(v.inner);
			if (!pv.valid && (!with_range || has_location_at(&child, addr)))
				continue;
		}
		tn[0] = '\0';
		if (!type_name(&child, tn, sizeof(tn)))
			snprintf(tn, sizeof(tn), "(unknown_type)");
		if (with_range && addr) {
			var_range(func, &child, range, sizeof(range));
			pv.range = range;
		}
		ret = cb(&pv, arg);
		if (ret)
			return ret;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

int probe_info__vars(struct probe_info *pi, const struct probe_site *site, bool params_only,
		     bool externs, bool with_range, probe_var_cb cb, void *arg)
{
	Dwarf_Die cu, func, scopes[MAX_SCOPES];
	int n = site_scopes(pi, site, &cu, scopes, &func), ret = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n && !ret; i++)
		ret = vars_of(pi, &func, &scopes[i], params_only, site->addr, with_range, cb, arg);
	if (!ret && externs)
		ret = vars_of(pi, &func, &cu, false, 0, with_range, cb, arg);
	return ret > 0 ? 0 : ret;
}

int probe_info__func_lines(struct probe_info *pi, const char *func, char **filep, int *declp,
			   int *endp, bool **probeablep)
{
	struct probe_request req = { .where = PROBE_AT_FUNC, .func = func, .no_inlines = true };
	struct probe_site *sites;
	Dwarf_Die cu, fdie;
	struct lines ls;
	size_t n;
	int err, decl, end;
	bool *pr;

	if (!pi->dw)
		return -EOPNOTSUPP;
	err = probe_info__find(pi, &req, &sites, &n);
	if (err)
		return err;
	err = func_at(pi->dw, sites[0].entry, &cu, &fdie);
	if (err || !sites[0].file || cu_lines(&cu, &ls)) {
		probe_sites__free(sites, n);
		return -ENOENT;
	}
	decl = die_decl_line(&fdie);
	end = decl;
	for (size_t i = 0; i < ls.n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(ls.l, i);
		Dwarf_Addr a;
		int ln;

		bool stmt = false;

		if (!dwarf_lineaddr(l, &a) && !dwarf_lineno(l, &ln) && dwarf_haspc(&fdie, a) == 1 &&
		    a != sites[0].entry && !dwarf_linebeginstatement(l, &stmt) && stmt &&
		    ln > end && file_matches(dwarf_linesrc(l, NULL, NULL), sites[0].file))
			end = ln;
	}
	pr = calloc((size_t)(end - decl + 1), sizeof(*pr));
	if (!pr) {
		probe_sites__free(sites, n);
		return -ENOMEM;
	}
	pr[0] = true;
	for (size_t i = 0; i < ls.n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(ls.l, i);
		Dwarf_Addr a;
		bool stmt;
		int ln;

		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || dwarf_haspc(&fdie, a) != 1 ||
		    a == sites[0].entry || ln < decl || ln > end)
			continue;
		dwarf_linebeginstatement(l, &stmt);
		if (stmt && file_matches(dwarf_linesrc(l, NULL, NULL), sites[0].file))
			pr[ln - decl] = true;
	}
	*filep = sites[0].file;
	sites[0].file = NULL;
	probe_sites__free(sites, n);
	*declp = decl;
	*endp = end;
	*probeablep = pr;
	return 0;
}

/*
 * The line table row perf's probe -l names addr by: of the rows at addr
 * (or the last row before it), the first that begins a statement, when
 * one does before the next address; else NULL.
 */
static Dwarf_Line *stmt_line_at(Dwarf_Die *cu, uint64_t addr)
{
	Dwarf_Lines *lines;
	Dwarf_Addr a;
	size_t n, lo = 0, hi;
	bool stmt;

	if (dwarf_getsrclines(cu, &lines, &n) || !n)
		return NULL;
	/* the last row at or before addr */
	for (hi = n; lo + 1 < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a))
			return NULL;
		if (addr < a)
			hi = mid;
		else
			lo = mid;
	}
	if (dwarf_lineaddr(dwarf_onesrcline(lines, lo), &a) || a > addr)
		return NULL;
	/* back to the first row at addr (a row before addr is its last) */
	while (a == addr && lo > 0) {
		Dwarf_Addr prev;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, lo - 1), &prev) || prev != a)
			break;
		lo--;
	}
	for (; lo < n; lo++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, lo);

		if (!l || dwarf_lineaddr(l, &a) || a > addr || dwarf_linebeginstatement(l, &stmt))
			return NULL;
		if (stmt)
			return l;
	}
	return NULL;
}

/* The first inline instance containing addr below die (through lexical
 * blocks and instances that do not contain it), as perf's probe -l walks
 * down to the innermost function of an address. */
static bool top_inline_at(Dwarf_Die *die, uint64_t addr, Dwarf_Die *found)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine && dwarf_haspc(&child, addr) == 1) {
			*found = child;
			return true;
		}
		if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
		    top_inline_at(&child, addr, found))
			return true;
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

/* The file (the unit's line table name) and line of an inline
 * instance's call site; false when it has none. */
static bool inline_call_site(Dwarf_Die *cu, Dwarf_Die *in, const char **file, int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx, ln;
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_formudata(dwarf_attr(in, DW_AT_call_line, &a), &ln) ||
	    dwarf_formudata(dwarf_attr(in, DW_AT_call_file, &a), &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return false;
	*file = dwarf_filesrc(files, idx, NULL, NULL);
	*line = (int)ln;
	return *file != NULL;
}

int probe_info__point_at(struct probe_info *pi, uint64_t vaddr, char **func, int *rel_line,
			 char **file, uint64_t *entry)
{
	Dwarf_Die cu, fdie, cur, in;
	Dwarf_Addr e = 0, ie;
	Dwarf_Line *stmt = NULL;
	const char *n, *f = NULL;
	int ln = 0, call_line = 0;

	if (!pi->dw || func_at(pi->dw, vaddr, &cu, &fdie))
		return -ENOENT;
	dwarf_entrypc(&fdie, &e);
	/*
	 * perf names an address inside inlined code by the innermost
	 * function whose body (not entry) holds it, and the line relative
	 * to that function's declaration; at an inline instance's entry,
	 * by the call site's line in the function holding the call.
	 */
	cur = fdie;
	while (vaddr != e && top_inline_at(&cur, vaddr, &in)) {
		if (!dwarf_entrypc(&in, &ie) && ie == vaddr) {
			if (!inline_call_site(&cu, &in, &f, &call_line))
				call_line = 0;
			break;
		}
		cur = in;
	}
	if (!call_line) {
		stmt = vaddr == e ? NULL : stmt_line_at(&cu, vaddr);
		/* the line table's name of the file at vaddr, as perf shows it */
		f = stmt ? dwarf_linesrc(stmt, NULL, NULL) : NULL;
		if (stmt && (dwarf_lineno(stmt, &ln) || !ln))
			stmt = NULL;
	} else {
		ln = call_line;
	}
	if (!f)
		f = die_decl_file(&cur);
	/* a line in another file than the function's: by the offset in the
	 * concrete function, as perf */
	if (dwarf_dieoffset(&cur) != dwarf_dieoffset(&fdie) && (call_line || stmt) &&
	    (!die_decl_file(&cur) || strcmp(die_decl_file(&cur), f))) {
		cur = fdie;
		stmt = NULL;
		call_line = 0;
	}
	n = die_linkage_name(&cur);
	if (!n || !f)
		return -ENOENT;
	*func = strdup(n);
	*file = strdup(f);
	if (vaddr == e)
		*rel_line = 0;
	else if (call_line || stmt)
		*rel_line = ln - die_decl_line(&cur);
	else
		*rel_line = -1;
	*entry = e;
	if (*rel_line < 0 && dwarf_dieoffset(&cur) != dwarf_dieoffset(&fdie)) {
		/* an offset is in the concrete function */
		free(*func);
		*func = strdup(die_linkage_name(&fdie) ? die_linkage_name(&fdie) : n);
	}
	if (!*func || !*file) {
		free(*func);
		free(*file);
		return -ENOMEM;
	}
	return 0;
}

int probe_info__kernel_symbol(const char *name, uint64_t *addr, uint64_t *text)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256];
	unsigned long long a;
	bool have_addr = false, have_text = false;
	char type;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && !(have_addr && have_text)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || strchr(line, '['))
			continue;
		if (!have_text && !strcmp(sym, "_text")) {
			*text = a;
			have_text = true;
		}
		if (!have_addr && !strcmp(sym, name) && (type == 't' || type == 'T')) {
			*addr = a;
			have_addr = true;
		}
	}
	fclose(f);
	return have_addr && have_text && *text ? 0 : -ENOENT;
}

struct ksym {
	uint64_t addr;
	char *name;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->addr < y->addr ? -1 : x->addr > y->addr;
}

int probe_info__kernel_symbols(char ***namesp, size_t *np)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct ksym *v = NULL, *nv;
	size_t n = 0, alloc = 0, out = 0;
	char line[512], sym[256], mod[128];
	unsigned long long a;
	char type, **names;
	int err = 0;

	*namesp = NULL;
	*np = 0;
	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		int k = sscanf(line, "%llx %c %255s %127s", &a, &type, sym, mod);

		if (k < 3 || !strchr("tTwWdDbB", type) || (k == 4 && !strcmp(mod, "[__builtin__ftrace]")))
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			nv = realloc(v, alloc * sizeof(*v));
			if (!nv) {
				err = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n].addr = a;
		v[n].name = strdup(sym);
		if (!v[n++].name)
			err = -ENOMEM;
	}
	fclose(f);
	if (n)
		qsort(v, n, sizeof(*v), ksym_cmp);
	names = err ? NULL : malloc((n ? n : 1) * sizeof(*names));
	if (!names)
		err = -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!err && (!out || ksym_cmp(&v[i - 1], &v[i])))
			names[out++] = v[i].name;
		else
			free(v[i].name);
	}
	free(v);
	if (err) {
		probe_info__free_names(names, out);
		return err;
	}
	*namesp = names;
	*np = out;
	return 0;
}

void probe_info__free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}
