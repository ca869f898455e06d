// SPDX-License-Identifier: GPL-2.0
/*
 * SDT notes of an ELF file and their uprobe definitions (sdt.h).
 */
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"
#include "sdt.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

#define NT_STAPSDT 3

static uint64_t read_addr(const unsigned char *p, bool is64, bool big)
{
	size_t n = is64 ? 8 : 4;
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

void sdt_notes__free(struct sdt_note *notes, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(notes[i].provider);
		free(notes[i].name);
		free(notes[i].args);
	}
	free(notes);
}

/* Where the file's sections move a note's addresses to file offsets. */
struct sdt_fix {
	bool is64, big;
	uint64_t base_off;	/* .stapsdt.base's file offset; 0: no correction */
	uint64_t probes_delta;	/* .probes' address less its offset; 0: none */
	bool probes;
};

/*
 * One note's description (len bytes) into *note: the three addresses, the
 * provider and name (both NUL-terminated inside it), the arguments when
 * a non-empty string not starting with ':' follows. 0, -EINVAL, -ENOMEM.
 */
static int note_parse(const unsigned char *desc, size_t len, const struct sdt_fix *fx,
		      struct sdt_note *note)
{
	size_t asz = fx->is64 ? 8 : 4, off = 3 * asz;
	uint64_t mask = fx->is64 ? UINT64_MAX : UINT32_MAX, base;
	const char *prov, *name, *end = (const char *)desc + len;
	const char *nul;

	if (len < off + 3)
		return -EINVAL;
	note->offset = read_addr(desc, fx->is64, fx->big);
	base = read_addr(desc + asz, fx->is64, fx->big);
	note->semaphore = read_addr(desc + 2 * asz, fx->is64, fx->big);
	if (fx->base_off)
		note->offset = (note->offset + fx->base_off - base) & mask;
	if (fx->probes && note->semaphore)
		note->semaphore = (note->semaphore - fx->probes_delta) & mask;
	prov = (const char *)desc + off;
	nul = memchr(prov, '\0', (size_t)(end - prov));
	if (!nul)
		return -EINVAL;
	name = nul + 1;
	note->provider = strdup(prov);
	nul = memchr(name, '\0', (size_t)(end - name));
	note->name = nul ? strdup(name) : strndup(name, (size_t)(end - name));
	if (!note->provider || !note->name)
		return -ENOMEM;
	if (nul && end - nul >= 2 && nul[1] != ':' && nul[1] != '\0') {
		note->args = strndup(nul + 1, (size_t)(end - nul - 1));
		if (!note->args)
			return -ENOMEM;
	}
	return 0;
}

/* The notes of the `.note.stapsdt` section scn into *v (*nr of them). */
static int notes_collect(Elf_Scn *scn, const struct sdt_fix *fx, struct sdt_note **v, size_t *nr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off, alloc = 0;
	GElf_Nhdr nh;

	if (!data || !data->d_buf)
		return -EINVAL;
	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const unsigned char *buf = data->d_buf;
		int err;

		off = next;
		if (nh.n_namesz != sizeof("stapsdt") || memcmp(buf + name_off, "stapsdt", 8))
			continue;
		if (nh.n_type != NT_STAPSDT)	/* perf stops at a foreign note type */
			break;
		if (*nr == alloc) {
			size_t na = alloc ? 2 * alloc : 16;
			struct sdt_note *nv = realloc(*v, na * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			*v = nv;
			alloc = na;
		}
		memset(&(*v)[*nr], 0, sizeof(**v));
		err = note_parse(buf + desc_off, nh.n_descsz, fx, &(*v)[(*nr)++]);
		if (err)
			return err;
	}
	return 0;
}

int sdt_notes__read(const char *path, struct sdt_note **notes, size_t *nr)
{
	struct sdt_note *v = NULL;
	struct sdt_fix fx = { 0 };
	size_t n = 0;
	GElf_Shdr sh, aux;
	Elf_Scn *scn;
	Elf *elf;
	int fd, err;

	*notes = NULL;
	*nr = 0;
	err = elf__open(path, &fd, &elf);
	if (err)
		return err;
	fx.is64 = gelf_getclass(elf) == ELFCLASS64;
	fx.big = elf_getident(elf, NULL)[EI_DATA] == ELFDATA2MSB;
	if (elf__find_section(elf, ".stapsdt.base", &aux))
		fx.base_off = aux.sh_offset;
	if (elf__find_section(elf, ".probes", &aux) && aux.sh_offset) {
		fx.probes = true;
		fx.probes_delta = aux.sh_addr - aux.sh_offset;
	}
	scn = elf__find_section(elf, ".note.stapsdt", &sh);
	if (!scn || sh.sh_type != SHT_NOTE || (sh.sh_flags & SHF_ALLOC))
		err = -ENOENT;
	else
		err = notes_collect(scn, &fx, &v, &n);
	elf_end(elf);
	close(fd);
	if (err) {
		sdt_notes__free(v, n);
		return err;
	}
	*notes = v;
	*nr = n;
	return n ? 0 : -ENOENT;
}

/*
 * x86-64 register names as uprobes know them: each row is the name
 * uprobes takes and the operand names (narrower or wider views) that
 * stand for it. An operand's name is looked up as a prefix of these, in
 * this order, as perf does ("%r1" is %r10); a name found nowhere is kept.
 */
static const struct {
	const char *reg;
	const char *names[4];
} x86_regs[] = {
	{ "ax", { "eax", "rax", "al", "ah" } },
	{ "bx", { "ebx", "rbx", "bl", "bh" } },
	{ "cx", { "ecx", "rcx", "cl", "ch" } },
	{ "dx", { "edx", "rdx", "dl", "dh" } },
	{ "si", { "esi", "rsi", "sil" } },
	{ "di", { "edi", "rdi", "dil" } },
	{ "bp", { "ebp", "rbp", "bpl" } },
	{ "sp", { "rsp", "esp", "spl" } },
	{ "r8", { "r8b", "r8w", "r8d" } },
	{ "r9", { "r9b", "r9w", "r9d" } },
	{ "r10", { "r10b", "r10w", "r10d" } },
	{ "r11", { "r11b", "r11w", "r11d" } },
	{ "r12", { "r12b", "r12w", "r12d" } },
	{ "r13", { "r13b", "r13w", "r13d" } },
	{ "r14", { "r14b", "r14w", "r14d" } },
	{ "r15", { "r15b", "r15w", "r15d" } },
};

/* The uprobe name of register reg (len characters, no '%'). */
static const char *x86_reg(const char *reg, size_t len, char *keep, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_regs); i++)
		for (size_t k = 0; k < 4 && x86_regs[i].names[k]; k++)
			if (!strncmp(x86_regs[i].names[k], reg, len))
				return x86_regs[i].reg;
	snprintf(keep, size, "%.*s", (int)len, reg);
	return keep;
}

/*
 * Operands uprobes can fetch: [+-][DIGITS][(]%REG[)], REG a lower-case
 * letter then one or more lower-case letters or digits, at most five
 * characters; with a parenthesis the displacement gets its sign ("+"
 * when only digits, "+0" when none), without one the sign is dropped.
 */
int sdt_arg__fetch(const char *op, char *buf, size_t size)
{
	const char *p = op, *digits, *reg;
	size_t ndigits, nreg;
	char sign = 0, keep[8];
	bool open, close;

	if (strchr(op, ',') || strchr(op, '$'))
		return 0;
	if (*p == '+' || *p == '-')
		sign = *p++;
	digits = p;
	while (isdigit((unsigned char)*p))
		p++;
	ndigits = (size_t)(p - digits);
	open = *p == '(';
	p += open;
	if (p[0] != '%' || !islower((unsigned char)p[1]))
		return 0;
	reg = ++p;
	p++;
	while (islower((unsigned char)*p) || isdigit((unsigned char)*p))
		p++;
	nreg = (size_t)(p - reg);
	if (nreg < 2 || nreg > 5)
		return 0;
	close = *p == ')';
	p += close;
	if (*p)
		return 0;
	snprintf(buf, size, "%s%.*s%s%%%s%s",
		 !open ? "" : sign == '-' ? "-" : sign || ndigits ? "+" : "+0",
		 (int)ndigits, digits, open ? "(" : "", x86_reg(reg, nreg, keep, sizeof(keep)),
		 close ? ")" : "");
	return 1;
}

/* The fetch type of an argument size (strtol's reading of the text
 * before '@'): -EINVAL outside -8..8, "" for sizes without a type. */
static int size_type(const char *text, const char **type)
{
	static const char *const types[] = { ":s64", "", "", "", ":s32", "", ":s16", ":s8", "",
					     ":u8", ":u16", "", ":u32", "", "", "", ":u64" };
	long n = strtol(text, NULL, 10);

	if (n < -8 || n > 8)
		return -EINVAL;
	*type = types[n + 8];
	return 0;
}

int sdt_note__uprobe(const struct sdt_note *note, const char *path, bool ref_ctr, char **out)
{
	struct strbuf b = STRBUF_INIT;
	char *args = NULL, *save = NULL, *tok;
	int err, idx = 0;

	*out = NULL;
	err = strbuf_addf(&b, "p:sdt_%.59s/%s %s:0x%" PRIx64, note->provider, note->name, path,
			  note->offset);
	if (!err && ref_ctr && note->semaphore)
		err = strbuf_addf(&b, "(0x%" PRIx64 ")", note->semaphore);
	if (!err && note->args && !(args = strdup(note->args)))
		err = -ENOMEM;
	for (tok = args ? strtok_r(args, " \t\n\v\f\r", &save) : NULL; !err && tok;
	     tok = strtok_r(NULL, " \t\n\v\f\r", &save)) {
		char *at = strchr(tok, '@'), fetch[64];
		const char *type = "", *op = tok;

		idx++;
		if (at) {
			*at = '\0';
			op = at + 1;
			err = size_type(tok, &type);
			if (err)
				break;
		}
		if (sdt_arg__fetch(op, fetch, sizeof(fetch)))
			err = strbuf_addf(&b, " arg%d=%s%s", idx, fetch, type);
	}
	free(args);
	if (err) {
		strbuf_release(&b);
		return err;
	}
	*out = strbuf_detach(&b, NULL);
	return *out ? 0 : -ENOMEM;
}

bool sdt__uprobe_ref_ctr(void)
{
	return !access("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", F_OK);
}
