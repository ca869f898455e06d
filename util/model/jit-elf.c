// SPDX-License-Identifier: GPL-2.0
/* ELF images of jitted functions; see jit-elf.h. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jit-elf.h"
#include "jitdump.h"
#include "../lib/debug.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

/* Section indexes of the image, in file order after .text. */
enum { S_NULL, S_TEXT, S_NOTE, S_SYMTAB, S_STRTAB, S_ABBREV, S_INFO, S_ARANGES, S_LINE, S_SHSTRTAB,
       S_NR };

static const char shstrtab[] =
	"\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.debug_abbrev\0.debug_info\0"
	".debug_aranges\0.debug_line\0.shstrtab";

/* Offset of a section's name in shstrtab. */
static uint32_t shname(const char *name)
{
	for (size_t i = 1; i < sizeof(shstrtab);) {
		if (!strcmp(shstrtab + i, name))
			return (uint32_t)i;
		i += strlen(shstrtab + i) + 1;
	}
	return 0;
}

static void bid_hash(const struct jit_elf_fn *fn, uint8_t bid[20])
{
	uint64_t h[3] = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL, 0x9e3779b97f4a7c15ULL };

	for (int k = 0; k < 3; k++) {
		for (const char *p = fn->name; *p; p++)
			h[k] = (h[k] ^ (uint8_t)*p) * 0x100000001b3ULL;
		for (uint64_t i = 0; i < fn->code_size; i++)
			h[k] = (h[k] ^ fn->code[i]) * 0x100000001b3ULL;
		h[k] ^= fn->code_addr + (uint64_t)k;
		h[k] *= 0x100000001b3ULL;
	}
	memcpy(bid, h, 20);
}

static int put_uleb(struct strbuf *sb, uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		if (v)
			b |= 0x80;
		if (strbuf_add(sb, &b, 1))
			return -ENOMEM;
	} while (v);
	return 0;
}

static int put_sleb(struct strbuf *sb, int64_t v)
{
	for (;;) {
		uint8_t b = v & 0x7f;

		v >>= 7;	/* arithmetic */
		if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40)))
			return strbuf_add(sb, &b, 1) ? -ENOMEM : 0;
		b |= 0x80;
		if (strbuf_add(sb, &b, 1))
			return -ENOMEM;
	}
}

static int put_u8(struct strbuf *sb, uint8_t v) { return strbuf_add(sb, &v, 1) ? -ENOMEM : 0; }
static int put_u16(struct strbuf *sb, uint16_t v) { return strbuf_add(sb, &v, 2) ? -ENOMEM : 0; }
static int put_u32(struct strbuf *sb, uint32_t v) { return strbuf_add(sb, &v, 4) ? -ENOMEM : 0; }
static int put_u64(struct strbuf *sb, uint64_t v) { return strbuf_add(sb, &v, 8) ? -ENOMEM : 0; }

/* Index (1-based) of file in the line table's list, added when new. */
static int line_file(const char **files, size_t *nr, const char *file)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp(files[i], file))
			return (int)i + 1;
	files[(*nr)++] = file;
	return (int)*nr;
}

/*
 * A DWARF 2 line program (DWARF 2 spec 6.2) for the entries whose
 * addresses lie in the code, in .text addresses; the files in the order
 * first used. 0 or -ENOMEM.
 */
static int jit_elf__debug_line(const struct jit_elf_fn *fn, uint64_t text, struct strbuf *sb)
{
	static const uint8_t std_lengths[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	const char **files = calloc(fn->nr_lines + 1, sizeof(*files));
	size_t nr_files = 0, hdr_len_at, prog_at;
	uint64_t addr = text;
	int64_t line = 1;
	int cur_file = 1, err = 0;

	if (!files)
		return -ENOMEM;
	for (size_t i = 0; i < fn->nr_lines; i++)
		line_file(files, &nr_files, fn->lines[i].file);
	err |= put_u32(sb, 0);		/* unit_length, set below */
	err |= put_u16(sb, 2);		/* version */
	hdr_len_at = sb->len;
	err |= put_u32(sb, 0);		/* header_length, set below */
	err |= put_u8(sb, 1);		/* minimum_instruction_length */
	err |= put_u8(sb, 1);		/* default_is_stmt */
	err |= put_u8(sb, (uint8_t)-5);	/* line_base */
	err |= put_u8(sb, 14);		/* line_range */
	err |= put_u8(sb, 13);		/* opcode_base */
	err |= strbuf_add(sb, std_lengths, sizeof(std_lengths)) ? -ENOMEM : 0;
	err |= put_u8(sb, 0);		/* no include directories */
	for (size_t i = 0; i < nr_files; i++) {
		err |= strbuf_add(sb, files[i], strlen(files[i]) + 1) ? -ENOMEM : 0;
		err |= put_uleb(sb, 0) | put_uleb(sb, 0) | put_uleb(sb, 0);
	}
	err |= put_u8(sb, 0);
	prog_at = sb->len;
	/* DW_LNE_set_address */
	err |= put_u8(sb, 0) | put_uleb(sb, 9) | put_u8(sb, 2) | put_u64(sb, text);
	for (size_t i = 0; i < fn->nr_lines && !err; i++) {
		const struct jitdump_line *l = &fn->lines[i];
		uint64_t a;
		int f;

		if (l->addr < fn->code_addr || l->addr - fn->code_addr >= fn->code_size)
			continue;
		a = text + (l->addr - fn->code_addr);
		if (a < addr)
			continue;	/* a line program only moves forward */
		f = line_file(files, &nr_files, l->file);
		if (f != cur_file) {
			err |= put_u8(sb, 4) | put_uleb(sb, (uint64_t)f);	/* DW_LNS_set_file */
			cur_file = f;
		}
		err |= put_u8(sb, 2) | put_uleb(sb, a - addr);		/* DW_LNS_advance_pc */
		err |= put_u8(sb, 3) | put_sleb(sb, (int64_t)l->line - line);	/* advance_line */
		err |= put_u8(sb, 1);					/* DW_LNS_copy */
		addr = a;
		line = l->line;
	}
	err |= put_u8(sb, 2) | put_uleb(sb, text + fn->code_size - addr);
	err |= put_u8(sb, 0) | put_uleb(sb, 1) | put_u8(sb, 1);	/* DW_LNE_end_sequence */
	free(files);
	if (err)
		return -ENOMEM;
	{
		uint32_t unit = (uint32_t)(sb->len - 4), hlen = (uint32_t)(prog_at - hdr_len_at - 4);

		memcpy(sb->buf, &unit, 4);
		memcpy(sb->buf + hdr_len_at, &hlen, 4);
	}
	return 0;
}

/* A compile unit (DWARF 2) over .text whose DW_AT_stmt_list is offset 0,
 * and its one address range in .debug_aranges (libdw finds the unit of
 * an address there). */
static int jit_elf__debug_info(const struct jit_elf_fn *fn, uint64_t text, struct strbuf *abbrev,
			       struct strbuf *info, struct strbuf *aranges)
{
	int err = 0;
	uint32_t unit;

	/* unit_length, version 2, .debug_info offset, address and segment
	 * sizes, padding to 16, one (address, length), the (0, 0) end */
	err |= put_u32(aranges, 44) | put_u16(aranges, 2) | put_u32(aranges, 0);
	err |= put_u8(aranges, 8) | put_u8(aranges, 0) | put_u32(aranges, 0);
	err |= put_u64(aranges, text) | put_u64(aranges, fn->code_size);
	err |= put_u64(aranges, 0) | put_u64(aranges, 0);

	/* abbrev 1: DW_TAG_compile_unit, no children: name string,
	 * stmt_list data4, low_pc addr, high_pc addr */
	err |= put_uleb(abbrev, 1) | put_uleb(abbrev, 0x11) | put_u8(abbrev, 0);
	err |= put_uleb(abbrev, 0x03) | put_uleb(abbrev, 0x08);
	err |= put_uleb(abbrev, 0x10) | put_uleb(abbrev, 0x06);
	err |= put_uleb(abbrev, 0x11) | put_uleb(abbrev, 0x01);
	err |= put_uleb(abbrev, 0x12) | put_uleb(abbrev, 0x01);
	err |= put_u8(abbrev, 0) | put_u8(abbrev, 0) | put_u8(abbrev, 0);
	err |= put_u32(info, 0) | put_u16(info, 2) | put_u32(info, 0) | put_u8(info, 8);
	err |= put_uleb(info, 1);
	err |= strbuf_add(info, fn->lines[0].file, strlen(fn->lines[0].file) + 1) ? -ENOMEM : 0;
	err |= put_u32(info, 0) | put_u64(info, text) | put_u64(info, text + fn->code_size);
	if (err)
		return -ENOMEM;
	unit = (uint32_t)(info->len - 4);
	memcpy(info->buf, &unit, 4);
	return 0;
}

struct jit_sec {
	const void *buf;
	size_t size;
	uint32_t type;
	uint64_t flags, align, entsize;
	uint32_t link, info;
};

static int jit_elf__emit(int fd, const struct jit_elf_fn *fn, struct jit_sec *secs)
{
	Elf *e;
	GElf_Ehdr eh;
	uint64_t off = JIT_ELF_TEXT_OFFSET;
	int err = -EIO;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, ELFCLASS64) || !gelf_newphdr(e, 1))
		goto out;
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	gelf_getehdr(e, &eh);
	eh.e_ident[EI_DATA] = __BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB;
	eh.e_type = ET_DYN;
	eh.e_machine = fn->e_machine;
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = S_SHSTRTAB;
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_entry = JIT_ELF_TEXT_OFFSET;
	for (int i = S_TEXT; i < S_NR; i++) {
		Elf_Scn *scn = elf_newscn(e);
		Elf_Data *d = scn ? elf_newdata(scn) : NULL;
		GElf_Shdr sh;
		const char *names[S_NR] = { "", ".text", ".note.gnu.build-id", ".symtab", ".strtab",
					    ".debug_abbrev", ".debug_info", ".debug_aranges",
					    ".debug_line", ".shstrtab" };

		if (!d || !gelf_getshdr(scn, &sh))
			goto out;
		off = PERF_ALIGN(off, secs[i].align ? secs[i].align : 1);
		d->d_buf = (void *)secs[i].buf;
		d->d_size = secs[i].size;
		d->d_type = ELF_T_BYTE;
		d->d_align = secs[i].align ? secs[i].align : 1;
		sh.sh_name = shname(names[i]);
		sh.sh_type = secs[i].type;
		sh.sh_flags = secs[i].flags;
		sh.sh_offset = off;
		sh.sh_addr = (secs[i].flags & SHF_ALLOC) ? off : 0;
		sh.sh_size = secs[i].size;
		sh.sh_addralign = d->d_align;
		sh.sh_entsize = secs[i].entsize;
		sh.sh_link = secs[i].link;
		sh.sh_info = secs[i].info;
		if (!gelf_update_shdr(scn, &sh))
			goto out;
		off += secs[i].size;
	}
	eh.e_shoff = PERF_ALIGN(off, (uint64_t)8);
	if (!gelf_update_ehdr(e, &eh))
		goto out;
	{
		GElf_Phdr ph = {
			.p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			.p_offset = JIT_ELF_TEXT_OFFSET, .p_vaddr = JIT_ELF_TEXT_OFFSET,
			.p_paddr = JIT_ELF_TEXT_OFFSET, .p_filesz = fn->code_size,
			.p_memsz = fn->code_size, .p_align = 16,
		};

		if (!gelf_update_phdr(e, 0, &ph) || elf_update(e, ELF_C_WRITE) < 0)
			goto out;
	}
	err = 0;
out:
	if (err)
		pr_debug("jit ELF image: %s\n", elf_errmsg(-1));
	if (e)
		elf_end(e);
	return err;
}

int jit_elf__write(const char *path, const struct jit_elf_fn *fn, uint8_t bid[20])
{
	struct strbuf strtab = STRBUF_INIT, line = STRBUF_INIT, abbrev = STRBUF_INIT,
		      info = STRBUF_INIT, aranges = STRBUF_INIT;
	struct jit_sec secs[S_NR];
	Elf64_Sym syms[2];
	struct {
		uint32_t namesz, descsz, type;
		char name[4];
		uint8_t desc[20];
	} note = { 4, 20, NT_GNU_BUILD_ID, "GNU", { 0 } };
	int fd, err = 0;

	bid_hash(fn, bid);
	memcpy(note.desc, bid, 20);
	memset(syms, 0, sizeof(syms));
	memset(secs, 0, sizeof(secs));
	if (strbuf_add(&strtab, "", 1) || strbuf_add(&strtab, fn->name, strlen(fn->name) + 1))
		err = -ENOMEM;
	syms[1].st_name = 1;
	syms[1].st_value = JIT_ELF_TEXT_OFFSET;
	syms[1].st_size = fn->code_size;
	syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
	syms[1].st_shndx = S_TEXT;
	if (!err && fn->nr_lines) {
		err = jit_elf__debug_line(fn, JIT_ELF_TEXT_OFFSET, &line);
		if (!err)
			err = jit_elf__debug_info(fn, JIT_ELF_TEXT_OFFSET, &abbrev, &info, &aranges);
	}
	if (err)
		goto out;
	secs[S_TEXT] = (struct jit_sec){ fn->code, fn->code_size, SHT_PROGBITS,
					 SHF_ALLOC | SHF_EXECINSTR, 16, 0, 0, 0 };
	secs[S_NOTE] = (struct jit_sec){ &note, sizeof(note), SHT_NOTE, SHF_ALLOC, 4, 0, 0, 0 };
	secs[S_SYMTAB] = (struct jit_sec){ syms, sizeof(syms), SHT_SYMTAB, 0, 8, sizeof(Elf64_Sym),
					   S_STRTAB, 1 };
	secs[S_STRTAB] = (struct jit_sec){ strtab.buf, strtab.len, SHT_STRTAB, 0, 1, 0, 0, 0 };
	secs[S_ABBREV] = (struct jit_sec){ abbrev.buf, abbrev.len, SHT_PROGBITS, 0, 1, 0, 0, 0 };
	secs[S_INFO] = (struct jit_sec){ info.buf, info.len, SHT_PROGBITS, 0, 1, 0, 0, 0 };
	secs[S_ARANGES] = (struct jit_sec){ aranges.buf, aranges.len, SHT_PROGBITS, 0, 1, 0, 0, 0 };
	secs[S_LINE] = (struct jit_sec){ line.buf, line.len, SHT_PROGBITS, 0, 1, 0, 0, 0 };
	secs[S_SHSTRTAB] = (struct jit_sec){ shstrtab, sizeof(shstrtab), SHT_STRTAB, 0, 1, 0, 0, 0 };
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = jit_elf__emit(fd, fn, secs);
	if (close(fd) && !err)
		err = -EIO;
out:
	strbuf_release(&strtab);
	strbuf_release(&line);
	strbuf_release(&abbrev);
	strbuf_release(&info);
	strbuf_release(&aranges);
	return err;
}
