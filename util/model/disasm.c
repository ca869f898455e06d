// SPDX-License-Identifier: GPL-2.0
/*
 * A symbol's code disassembled with Capstone (disasm.h): the bytes come
 * from the DSO's ELF file through its program headers, the text from
 * Capstone, the branch targets and RIP-relative references from
 * Capstone's instruction details.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>
#include <capstone/capstone.h>
#include <elfutils/libdw.h>
#include <dwarf.h>

#include "disasm.h"
#include "debuginfo.h"
#include "dso.h"
#include "model.h"

/* Largest symbol disassembled: beyond it the range is cut (perf's
 * objdump would print it all; no real function is that large). */
#define DISASM_MAX_BYTES (64UL << 20)

/* The file offset of [vaddr, vaddr + len) in a PT_LOAD segment's file
 * bytes, and the name of the section holding vaddr. 0 or -ENOENT. */
static int elf__code_offset(Elf *elf, uint64_t vaddr, uint64_t len, uint64_t *off,
			    char *section, size_t section_size)
{
	size_t i, nr, shstrndx;
	GElf_Phdr ph;
	Elf_Scn *scn = NULL;
	int err = -ENOENT;

	if (elf_getphdrnum(elf, &nr))
		return -ENOENT;
	for (i = 0; i < nr; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz &&
		    len <= ph.p_filesz - (vaddr - ph.p_vaddr)) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			err = 0;
			break;
		}
	}
	if (err)
		return err;
	snprintf(section, section_size, ".text");
	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    vaddr < sh.sh_addr || vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name)
			snprintf(section, section_size, "%s", name);
		break;
	}
	return 0;
}

/* Read [start, end) of the ELF file path. 0 or -errno; *buf malloc'd. */
static int read_code(const char *path, uint64_t start, uint64_t len, unsigned char **buf,
		     int *mode, char *section, size_t section_size)
{
	GElf_Ehdr eh;
	uint64_t off;
	Elf *elf;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !gelf_getehdr(elf, &eh)) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (eh.e_machine == EM_X86_64)
		*mode = CS_MODE_64;
	else if (eh.e_machine == EM_386)
		*mode = CS_MODE_32;
	else {
		err = -EOPNOTSUPP;
		goto out;
	}
	err = elf__code_offset(elf, start, len, &off, section, section_size);
	if (err)
		goto out;
	*buf = malloc(len ? len : 1);
	if (!*buf) {
		err = -ENOMEM;
		goto out;
	}
	if (pread(fd, *buf, len, (off_t)off) != (ssize_t)len) {
		free(*buf);
		*buf = NULL;
		err = -EIO;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

static bool insn__in_group(const cs_insn *ci, uint8_t group)
{
	uint8_t i;

	for (i = 0; ci->detail && i < ci->detail->groups_count; i++)
		if (ci->detail->groups[i] == group)
			return true;
	return false;
}

static void insn__fill(struct disasm_insn *in, const cs_insn *ci)
{
	const cs_x86 *x86 = ci->detail ? &ci->detail->x86 : NULL;
	uint8_t i;

	memset(in, 0, sizeof(*in));
	in->addr = ci->address;
	in->size = ci->size;
	memcpy(in->bytes, ci->bytes, ci->size < sizeof(in->bytes) ? ci->size : sizeof(in->bytes));
	snprintf(in->mnemonic, sizeof(in->mnemonic), "%s", ci->mnemonic);
	snprintf(in->op_str, sizeof(in->op_str), "%s", ci->op_str);
	in->is_jump = insn__in_group(ci, CS_GRP_JUMP);
	in->is_call = insn__in_group(ci, CS_GRP_CALL);
	in->is_ret = insn__in_group(ci, CS_GRP_RET);
	for (i = 0; x86 && i < x86->op_count; i++) {
		const cs_x86_op *op = &x86->operands[i];

		if ((in->is_jump || in->is_call) && op->type == X86_OP_IMM && x86->op_count == 1) {
			in->has_target = true;
			in->target = (uint64_t)op->imm;
		} else if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
			   op->mem.index == X86_REG_INVALID) {
			in->has_ref = true;
			in->ref = ci->address + ci->size + (uint64_t)op->mem.disp;
		} else if (op->type == X86_OP_MEM && !op->mem.disp) {
			unsigned int mod = x86->modrm >> 6;

			/* mod 1/2: disp8/disp32; no base: SIB's disp32 */
			in->disp0_encoded = mod == 1 || mod == 2 || op->mem.base == X86_REG_INVALID;
		} else if (op->type == X86_OP_IMM) {
			in->imm_size = op->size;
		}
	}
}

static int code__push(struct disasm_code *code, size_t *alloc, struct disasm_insn **slot)
{
	if (code->nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 256;
		struct disasm_insn *p = realloc(code->insns, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		code->insns = p;
		*alloc = n;
	}
	*slot = &code->insns[code->nr++];
	return 0;
}

int dso__disasm(struct dso *dso, uint64_t start, uint64_t end, bool intel,
		struct disasm_code *code)
{
	unsigned char *buf = NULL;
	const uint8_t *p;
	size_t left, alloc = 0;
	uint64_t addr;
	csh cs = 0;
	cs_insn *ci = NULL;
	int mode = CS_MODE_64, err;

	memset(code, 0, sizeof(*code));
	if (end <= start)
		return -ENOENT;
	if (end - start > DISASM_MAX_BYTES)
		end = start + DISASM_MAX_BYTES;
	dso__load(dso);
	if (!dso->runtime_path)
		return -ENOENT;
	err = read_code(dso->runtime_path, start, end - start, &buf, &mode, code->section,
			sizeof(code->section));
	if (err)
		return err;
	if (cs_open(CS_ARCH_X86, mode, &cs) != CS_ERR_OK) {
		free(buf);
		return -ENOMEM;
	}
	cs_option(cs, CS_OPT_SYNTAX, intel ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(cs);
	if (!ci) {
		err = -ENOMEM;
		goto out;
	}
	p = buf;
	left = end - start;
	addr = start;
	while (left) {
		struct disasm_insn *in;

		err = code__push(code, &alloc, &in);
		if (err)
			goto out;
		if (cs_disasm_iter(cs, &p, &left, &addr, ci)) {
			insn__fill(in, ci);
			continue;
		}
		/* undecodable: one byte, as objdump's "(bad)" line */
		memset(in, 0, sizeof(*in));
		in->addr = addr;
		in->size = 1;
		in->bytes[0] = *p;
		snprintf(in->mnemonic, sizeof(in->mnemonic), "(bad)");
		p++;
		left--;
		addr++;
	}
	err = 0;
out:
	if (ci)
		cs_free(ci, 1);
	cs_close(&cs);
	free(buf);
	if (err)
		disasm_code__exit(code);
	return err;
}

void disasm_code__exit(struct disasm_code *code)
{
	free(code->insns);
	code->insns = NULL;
	code->nr = 0;
}

/* ---- objdump's symbol table ---- */

struct disasm_sym {
	uint64_t value, size;
	const char *name;	/* into names */
	uint32_t order;		/* in the file's table */
	uint8_t type, bind;
};

struct disasm_symtab {
	struct disasm_sym *by_ref;	/* by address, then objdump's preference */
	struct disasm_sym *funcs;	/* functions and untyped, by address, then order */
	size_t nr, nr_funcs;
	char **names;			/* owned, one per symbol */
};

static int sym_rank(const struct disasm_sym *s)
{
	int r = 0;

	if (s->type != STT_FUNC && s->type != STT_GNU_IFUNC)
		r += 8;
	if (s->type != STT_OBJECT)
		r += 4;
	if (s->bind == STB_LOCAL)
		r += 2;
	return r;
}

static int sym_ref_cmp(const void *pa, const void *pb)
{
	const struct disasm_sym *a = pa, *b = pb;
	int ra, rb;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	ra = sym_rank(a);
	rb = sym_rank(b);
	if (ra != rb)
		return ra - rb;
	if (!a->size != !b->size)
		return a->size ? -1 : 1;
	if ((a->name[0] == '.') != (b->name[0] == '.'))
		return a->name[0] == '.' ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int sym_func_cmp(const void *pa, const void *pb)
{
	const struct disasm_sym *a = pa, *b = pb;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int symtab__read(struct disasm_symtab *st, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	if (!data || !n)
		return -ENOENT;
	st->by_ref = calloc(n, sizeof(*st->by_ref));
	st->names = calloc(n, sizeof(*st->names));
	if (!st->by_ref || !st->names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		char *dem;
		struct disasm_sym *s;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE || type == STT_SECTION || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx == SHN_COMMON)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !name[0])
			continue;
		dem = name__mangled(name) ? demangle_sym(name, true) : NULL;
		st->names[st->nr] = dem ? dem : strdup(name);
		if (!st->names[st->nr])
			return -ENOMEM;
		s = &st->by_ref[st->nr];
		s->value = sym.st_value;
		s->size = sym.st_size;
		s->name = st->names[st->nr];
		s->order = (uint32_t)i;
		s->type = (uint8_t)type;
		s->bind = (uint8_t)GELF_ST_BIND(sym.st_info);
		st->nr++;
	}
	return 0;
}

/* Read the .symtab (dynsym false) or .dynsym of the ELF file path into
 * st. 0, -ENOENT (no such table or file), -ENOMEM. */
static int symtab__read_file(struct disasm_symtab *st, const char *path, bool dynsym)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd, err = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == (dynsym ? SHT_DYNSYM : SHT_SYMTAB)) {
			err = symtab__read(st, elf, scn, &sh);
			break;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

struct disasm_symtab *dso__disasm_symtab(struct dso *dso)
{
	struct disasm_symtab *st;
	const char *dbg;
	size_t i;
	int err;

	dso__load(dso);
	if (!dso->runtime_path)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	/* objdump takes a stripped file's symbols from its separate debug
	 * file, and its dynamic symbols when there is neither */
	err = symtab__read_file(st, dso->runtime_path, false);
	if (err == -ENOENT) {
		dbg = dso__debug_file(dso);
		if (dbg && dbg[0])
			err = symtab__read_file(st, dbg, false);
	}
	if (err == -ENOENT)
		err = symtab__read_file(st, dso->runtime_path, true);
	if (err)
		goto out;
	st->funcs = calloc(st->nr ? st->nr : 1, sizeof(*st->funcs));
	if (!st->funcs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < st->nr; i++) {
		uint8_t t = st->by_ref[i].type;

		if (t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_NOTYPE)
			st->funcs[st->nr_funcs++] = st->by_ref[i];
	}
	qsort(st->by_ref, st->nr, sizeof(*st->by_ref), sym_ref_cmp);
	qsort(st->funcs, st->nr_funcs, sizeof(*st->funcs), sym_func_cmp);
out:
	if (err) {
		disasm_symtab__delete(st);
		return NULL;
	}
	return st;
}

void disasm_symtab__delete(struct disasm_symtab *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; st->names && i < st->nr; i++)
		free(st->names[i]);
	free(st->names);
	free(st->by_ref);
	free(st->funcs);
	free(st);
}

/* Index of the last symbol of syms[0..n) at or below addr, or n. */
static size_t syms__floor(const struct disasm_sym *syms, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : n;
}

const char *disasm_symtab__ref(const struct disasm_symtab *st, uint64_t addr, uint64_t *start)
{
	size_t i = syms__floor(st->by_ref, st->nr, addr);

	if (i == st->nr)
		return NULL;
	while (i > 0 && st->by_ref[i - 1].value == st->by_ref[i].value)
		i--;
	*start = st->by_ref[i].value;
	return st->by_ref[i].name;
}

const char *disasm_symtab__function(const struct disasm_symtab *st, uint64_t addr,
				    uint64_t *start)
{
	size_t i = syms__floor(st->funcs, st->nr_funcs, addr), best = st->nr_funcs;

	if (i == st->nr_funcs)
		return NULL;
	/* the symbols at that address: the largest, the first listed */
	while (i > 0 && st->funcs[i - 1].value == st->funcs[i].value)
		i--;
	for (; i < st->nr_funcs && st->funcs[i].value <= addr; i++) {
		if (best == st->nr_funcs || st->funcs[i].size > st->funcs[best].size)
			best = i;
	}
	if (best == st->nr_funcs || addr - st->funcs[best].value >= st->funcs[best].size)
		return NULL;
	*start = st->funcs[best].value;
	return st->funcs[best].name;
}

/* ---- objdump -l's function names ---- */

static const char *die__bfd_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		name = dwarf_formstring(&a);
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &a))
		name = dwarf_formstring(&a);
	return name;
}

static int funcs__add_die(struct disasm_funcs *f, Dwarf_Die *die, uint64_t want_lo,
			  uint64_t want_hi)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	const char *name = die__bfd_name(die);
	char *copy;

	if (!name)
		return 0;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo || hi <= want_lo || lo >= want_hi)
			continue;
		if (f->nr == f->alloc) {
			size_t n = f->alloc ? f->alloc * 2 : 64;
			struct disasm_func *p = realloc(f->funcs, n * sizeof(*p));

			if (!p)
				return -ENOMEM;
			f->funcs = p;
			f->alloc = n;
		}
		if (!f->nr_names || strcmp(f->names[f->nr_names - 1], name)) {
			char **names = realloc(f->names, (f->nr_names + 1) * sizeof(*names));

			if (!names)
				return -ENOMEM;
			f->names = names;
			copy = name__mangled(name) ? demangle_sym(name, true) : NULL;
			if (!copy)
				copy = strdup(name);
			if (!copy)
				return -ENOMEM;
			f->names[f->nr_names++] = copy;
		}
		f->funcs[f->nr++] = (struct disasm_func){ .lo = lo, .hi = hi,
							   .name = f->names[f->nr_names - 1] };
	}
	return 0;
}

static int funcs__walk(struct disasm_funcs *f, Dwarf_Die *parent, uint64_t lo, uint64_t hi,
		       int depth)
{
	Dwarf_Die child;
	int err = 0;

	if (depth > 64 || dwarf_child(parent, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			err = funcs__add_die(f, &child, lo, hi);
		if (!err && dwarf_haschildren(&child))
			err = funcs__walk(f, &child, lo, hi, depth + 1);
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

int dso__disasm_funcs(struct dso *dso, uint64_t lo, uint64_t hi, struct disasm_funcs *funcs)
{
	const char *dbg, *path;
	Dwarf_Die cu;
	Dwarf *dw;
	int fd, err = -ENOENT;

	memset(funcs, 0, sizeof(*funcs));
	dso__load(dso);
	dbg = dso__debug_file(dso);
	path = dbg && dbg[0] ? dbg : dso->runtime_path;
	if (!dbg || !path)
		return -ENOENT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (dw && dwarf_addrdie(dw, lo, &cu))
		err = funcs__walk(funcs, &cu, lo, hi, 0);
	if (dw)
		dwarf_end(dw);
	close(fd);
	if (err)
		disasm_funcs__exit(funcs);
	return err;
}

void disasm_funcs__exit(struct disasm_funcs *funcs)
{
	size_t i;

	for (i = 0; i < funcs->nr_names; i++)
		free(funcs->names[i]);
	free(funcs->names);
	free(funcs->funcs);
	memset(funcs, 0, sizeof(*funcs));
}

const char *disasm_funcs__find(const struct disasm_funcs *funcs, uint64_t addr)
{
	const struct disasm_func *best = NULL;
	size_t i;

	for (i = 0; i < funcs->nr; i++) {
		const struct disasm_func *f = &funcs->funcs[i];

		/* at equal sizes the later one in the unit (libbfd) */
		if (addr >= f->lo && addr < f->hi && (!best || f->hi - f->lo <= best->hi - best->lo))
			best = f;
	}
	return best ? best->name : NULL;
}
