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

#include "disasm.h"
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
