// SPDX-License-Identifier: GPL-2.0
/*
 * A symbol's code disassembled with Capstone (disasm.h): the bytes come
 * from the DSO's ELF file through its program headers, the text from
 * Capstone, the branch targets and RIP-relative references from
 * Capstone's instruction details.
 */
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
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
#include "disasm-cache.h"
#include "debug-cache.h"
#include "build-id-cache.h"
#include "debuginfo.h"
#include "dso.h"
#include "model.h"
#include "../lib/debug.h"
#include "../lib/helper-thread.h"

/*
 * libcapstone, loaded when the first code is disassembled (dlopen), not
 * linked: its relocations cost every prf command at start-up about as
 * much as the rest of prf's; only annotate uses it. The calls go through
 * this table.
 */
#define CAPSTONE_STR(x) #x
#define CAPSTONE_SONAME_(major) "libcapstone.so." CAPSTONE_STR(major)
#define CAPSTONE_SONAME CAPSTONE_SONAME_(CS_API_MAJOR)

static struct {
	__typeof__(cs_open) *open;
	__typeof__(cs_option) *option;
	__typeof__(cs_malloc) *malloc;
	__typeof__(cs_disasm_iter) *disasm_iter;
	__typeof__(cs_free) *free;
	__typeof__(cs_close) *close;
} capstone;
static pthread_once_t capstone_once = PTHREAD_ONCE_INIT;
static int capstone_err;
/* the libcapstone file loaded (its link map's name), for the kept
 * disassemblies (disasm-cache.h) to say what decoded them */
static char capstone_path[PATH_MAX];

/*
 * A vsnprintf for Capstone's printers (cs_opt_mem.vsnprintf), which
 * format every piece of an instruction's text through it: the conversions
 * they use (%s, %c, %%, %d %i %u %x %X with the l and ll length modifiers,
 * without flags, width or precision) written directly, about a third of
 * the decoding time otherwise; any other format goes to the C library's
 * vsnprintf unchanged. Returns what vsnprintf returns: the length of the
 * whole text, of which at most size - 1 bytes are stored, NUL-terminated.
 */

static int fmt__vsnprintf(char *str, size_t size, const char *format, va_list ap)
{
	size_t n = 0;
	const char *f;
	char num[24];
	va_list aq;

	/* on a copy: a conversion not written here goes to vsnprintf with
	 * ap untouched (what was stored so far is written over) */
	va_copy(aq, ap);
#define FMT_PUT(c) do { if (n + 1 < size) str[n] = (c); n++; } while (0)
	for (f = format; *f; f++) {
		int longs = 0;
		unsigned long long v;
		bool neg = false;
		const char *s;
		size_t k;

		if (*f != '%') {
			FMT_PUT(*f);
			continue;
		}
		f++;
		while (*f == 'l' && longs < 2) {
			longs++;
			f++;
		}
		switch (*f) {
		case '%':
		case 'c':
		case 's':
			if (longs)
				goto other;
			if (*f == '%') {
				FMT_PUT('%');
			} else if (*f == 'c') {
				FMT_PUT((char)va_arg(aq, int));
			} else {
				s = va_arg(aq, const char *);
				if (!s)
					s = "(null)";
				while (*s)
					FMT_PUT(*s++);
			}
			continue;
		case 'd': case 'i': {
			long long x = longs == 2 ? va_arg(aq, long long) :
				      longs == 1 ? va_arg(aq, long) : va_arg(aq, int);

			neg = x < 0;
			v = neg ? 0ULL - (unsigned long long)x : (unsigned long long)x;
			break;
		}
		case 'u': case 'x': case 'X':
			v = longs == 2 ? va_arg(aq, unsigned long long) :
			    longs == 1 ? va_arg(aq, unsigned long) : va_arg(aq, unsigned int);
			break;
		default:
			goto other;
		}
		k = 0;
		if (*f == 'x' || *f == 'X') {
			const char *digits = *f == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";

			do {
				num[k++] = digits[v & 15];
				v >>= 4;
			} while (v);
		} else {
			do {
				num[k++] = (char)('0' + v % 10);
				v /= 10;
			} while (v);
		}
		if (neg)
			FMT_PUT('-');
		while (k)
			FMT_PUT(num[--k]);
	}
	va_end(aq);
	if (size)
		str[n < size ? n : size - 1] = '\0';
#undef FMT_PUT
	return (int)n;
other:
	va_end(aq);
	return vsnprintf(str, size, format, ap);
}

static void capstone__open(void)
{
	void *h = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);

	capstone_err = -ENOSYS;
	if (!h) {
		pr_debug("disasm: %s\n", dlerror());
		return;
	}
	capstone.open = (__typeof__(capstone.open))dlsym(h, "cs_open");
	capstone.option = (__typeof__(capstone.option))dlsym(h, "cs_option");
	capstone.malloc = (__typeof__(capstone.malloc))dlsym(h, "cs_malloc");
	capstone.disasm_iter = (__typeof__(capstone.disasm_iter))dlsym(h, "cs_disasm_iter");
	capstone.free = (__typeof__(capstone.free))dlsym(h, "cs_free");
	capstone.close = (__typeof__(capstone.close))dlsym(h, "cs_close");
	if (capstone.open && capstone.option && capstone.malloc && capstone.disasm_iter &&
	    capstone.free && capstone.close) {
		static cs_opt_mem mem = {
			.malloc = malloc, .calloc = calloc, .realloc = realloc, .free = free,
			.vsnprintf = fmt__vsnprintf,
		};

		/* before any handle is opened: the library's allocators and
		 * formatter (its defaults but for the formatter) */
		struct link_map *lm = NULL;

		capstone.option(0, CS_OPT_MEM, (size_t)&mem);
		capstone_err = 0;
		if (!dlinfo(h, RTLD_DI_LINKMAP, &lm) && lm && lm->l_name && lm->l_name[0] == '/')
			snprintf(capstone_path, sizeof(capstone_path), "%s", lm->l_name);
	} else
		pr_debug("disasm: %s lacks a cs_* function\n", CAPSTONE_SONAME);
}

static int capstone__load(void)
{
	pthread_once(&capstone_once, capstone__open);
	return capstone_err;
}

static void *capstone__preload(void *arg)
{
	(void)arg;
	capstone__load();
	return NULL;
}

void disasm__preload(void)
{
	static bool started;
	static struct helper_thread thr;	/* read by the thread: kept */

	if (__atomic_exchange_n(&started, true, __ATOMIC_ACQ_REL))
		return;
	if (!helper_thread__start(&thr, capstone__preload, NULL))
		pthread_detach(thr.tid);
}

/* Largest symbol disassembled: beyond it the range is cut (perf's
 * objdump would print it all; no real function is that large). */
#define DISASM_MAX_BYTES (64UL << 20)

/* Whether [start, end) of dso is kept between runs (disasm-cache.h): a
 * user DSO's file, *st its stat(), and the range big enough. */
static bool disasm__keepable(struct dso *dso, uint64_t start, uint64_t end, struct stat *st)
{
	return dso->kind != DSO_KERNEL && dso->runtime_path && end - start >= DISASM_CACHE_MIN_BYTES &&
	       !stat(dso->runtime_path, st);
}

bool dso__disasm_may_be_kept(struct dso *dso, uint64_t start, uint64_t end)
{
	struct stat st;

	return disasm__keepable(dso, start, end, &st) &&
	       debug_cache__exists(DEBUG_CACHE_DISASM, dso->runtime_path, &st);
}

/* The file offset of [vaddr, vaddr + len) in a PT_LOAD segment's file
 * bytes, and the name of the section holding vaddr. 0 or -ENOENT. */
static int elf__code_offset(Elf *elf, uint64_t vaddr, uint64_t *len, uint64_t *off,
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
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
			/* a symbol sized up to the mapping's end (the last one,
			 * _fini) ends where the file's bytes end, as objdump's
			 * listing does */
			if (*len > ph.p_filesz - (vaddr - ph.p_vaddr))
				*len = ph.p_filesz - (vaddr - ph.p_vaddr);
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

/* The code sections a symbol's range runs over, in address order: objdump
 * disassembles each on its own, so decoding starts again at each one's start
 * and the bytes between sections are not code (a non-PIE program's _init
 * runs on over the padding before .plt) */
#define CODE_SECTIONS_MAX 8
struct code_sections {
	uint64_t start[CODE_SECTIONS_MAX], end[CODE_SECTIONS_MAX];
	char name[CODE_SECTIONS_MAX][32];
	int nr;
};

/* The SHF_EXECINSTR sections of elf overlapping [lo, hi) into *cs (at most
 * CODE_SECTIONS_MAX; none: the caller decodes the range as one piece). */
static void code_sections__find(Elf *elf, uint64_t lo, uint64_t hi, struct code_sections *cs)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;

	cs->nr = 0;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn)) && cs->nr < CODE_SECTIONS_MAX) {
		int i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_addr + sh.sh_size <= lo || sh.sh_addr >= hi)
			continue;
		for (i = cs->nr; i > 0 && cs->start[i - 1] > sh.sh_addr; i--) {
			cs->start[i] = cs->start[i - 1];
			cs->end[i] = cs->end[i - 1];
			memcpy(cs->name[i], cs->name[i - 1], sizeof(cs->name[i]));
		}
		cs->start[i] = sh.sh_addr;
		cs->end[i] = sh.sh_addr + sh.sh_size;
		{
			const char *name = elf_strptr(elf, shstrndx, sh.sh_name);

			snprintf(cs->name[i], sizeof(cs->name[i]), "%s", name ? name : "");
		}
		cs->nr++;
	}
}

/* Read *lenp bytes from start of the ELF file path (*lenp cut to the end
 * of the file's bytes of its segment), and the code sections they cover.
 * 0 or -errno; *buf malloc'd. */
static int read_code(const char *path, uint64_t start, uint64_t *lenp, unsigned char **buf,
		     int *mode, char *section, size_t section_size, struct code_sections *cs)
{
	GElf_Ehdr eh;
	uint64_t off, len;
	Elf *elf;
	int fd, err;

	err = elf__open(path, &fd, &elf);
	if (err)
		return err == -EINVAL ? -EOPNOTSUPP : err;
	if (!gelf_getehdr(elf, &eh)) {
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
	err = elf__code_offset(elf, start, lenp, &off, section, section_size);
	if (err)
		goto out;
	len = *lenp;
	code_sections__find(elf, start, start + len, cs);
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

/*
 * The running kernel's code at [start, start + len) from /proc/kcore (an
 * ELF core file whose PT_LOAD segments map kernel virtual addresses;
 * proc(5)), for a kernel DSO recorded on this very kernel: its build-id
 * must be the running one's (/sys/kernel/notes). Read with pread() only:
 * the file's size is the address space's. 0; -ENOENT (another kernel, or
 * no segment holds the range), -EACCES/-EPERM (kcore needs
 * CAP_SYS_RAWIO), -EIO, -ENOMEM.
 */
static int kcore__read(const struct dso *dso, uint64_t start, uint64_t len, unsigned char **buf)
{
	struct build_id running;
	Elf64_Ehdr eh;
	int fd, err = -ENOENT;

	if (!dso->has_build_id || bid_cache__kernel_build_id(&running) ||
	    running.size != dso->bid.size || memcmp(running.data, dso->bid.data, running.size))
		return -ENOENT;
	fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr)) {
		close(fd);
		return -EIO;
	}
	for (unsigned int i = 0; i < eh.e_phnum && err == -ENOENT; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph)) {
			err = -EIO;
			break;
		}
		if (ph.p_type != PT_LOAD || start < ph.p_vaddr || start - ph.p_vaddr >= ph.p_filesz ||
		    len > ph.p_filesz - (start - ph.p_vaddr))
			continue;
		*buf = malloc(len ? len : 1);
		if (!*buf) {
			err = -ENOMEM;
			break;
		}
		err = pread(fd, *buf, len, (off_t)(ph.p_offset + (start - ph.p_vaddr))) == (ssize_t)len ?
		      0 : -EIO;
		if (err) {
			free(*buf);
			*buf = NULL;
		}
	}
	close(fd);
	return err;
}

/* ---- decoding ---- */

/*
 * The instructions' text: blocks that never move (the instructions point
 * into them), chained.
 */
#define TEXT_BLOCK (64 * 1024)
struct disasm_text {
	struct disasm_text *next;
	size_t used;
	char data[TEXT_BLOCK];
};

/* A copy of m and o, each NUL-terminated, in the text chain *head; the
 * copy of m (that of o in *o_copy), NULL on ENOMEM. */
static const char *text__dup2(struct disasm_text **head, const char *m, const char *o,
			      const char **o_copy)
{
	size_t ml = strlen(m) + 1, ol = strlen(o) + 1;
	struct disasm_text *t = *head;
	char *at;

	if (!t || t->used + ml + ol > sizeof(t->data)) {
		t = malloc(sizeof(*t));
		if (!t)
			return NULL;
		t->next = *head;
		t->used = 0;
		*head = t;
	}
	at = t->data + t->used;
	memcpy(at, m, ml);
	memcpy(at + ml, o, ol);
	t->used += ml + ol;
	*o_copy = at + ml;
	return at;
}

static void text__free(struct disasm_text *t)
{
	while (t) {
		struct disasm_text *next = t->next;

		free(t);
		t = next;
	}
}

/*
 * Capstone's groups of the x86 instructions, by instruction id: the
 * jumps (CS_GRP_JUMP: conditional and unconditional jumps, far jumps,
 * xbegin; not loop), calls (CS_GRP_CALL) and returns (CS_GRP_RET), which
 * need no instruction details (CS_OPT_DETAIL) to be told.
 */
static void insn__classify(struct disasm_insn *in, unsigned int id)
{
	switch (id) {
	case X86_INS_JAE: case X86_INS_JA: case X86_INS_JBE: case X86_INS_JB:
	case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JRCXZ: case X86_INS_JE:
	case X86_INS_JGE: case X86_INS_JG: case X86_INS_JLE: case X86_INS_JL:
	case X86_INS_JMP: case X86_INS_JNE: case X86_INS_JNO: case X86_INS_JNP:
	case X86_INS_JNS: case X86_INS_JO: case X86_INS_JP: case X86_INS_JS:
	case X86_INS_LJMP: case X86_INS_XBEGIN:
		in->is_jump = true;
		break;
	case X86_INS_CALL: case X86_INS_LCALL:
		in->is_call = true;
		break;
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ:
		in->is_ret = true;
		break;
	default:
		break;
	}
}

/* The value of hex digit c, -1 when it is none. */
static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* s, all of it, as a C number ("0x52b1a4", "12"): *v. */
static bool text__number(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	if (s[0] == '0' && s[1] == 'x') {	/* Capstone's usual form, read here */
		const char *p = s + 2;
		uint64_t x = 0;

		for (; *p && p - s < 18; p++) {
			int h = hex_value(*p);

			if (h < 0)
				break;
			x = x << 4 | (uint64_t)h;
		}
		if (!*p && p > s + 2) {
			*v = x;
			return true;
		}
	}
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !*end && !errno;
}

/*
 * What Capstone's operand text tells in one pass: the displacement of its
 * first RIP-relative memory operand ("-0x10(%rip)", "(%rip)" in AT&T,
 * "[rip + 0x10]", "[rip]" in Intel syntax), and, in AT&T syntax, what
 * printing it may need of the instruction details: the size of a negative
 * immediate ("$-"), and whether a memory operand printed without
 * displacement had one of zero encoded ("(" starting an operand).
 */
struct ops_facts {
	bool rip;		/* a RIP-relative operand, at disp */
	bool neg_imm;		/* "$-" */
	bool bare_mem;		/* "(" starting an operand */
	int64_t disp;
};

static void ops__scan(const char *ops, bool intel, struct ops_facts *o)
{
	const char *r = NULL, *p, *s;
	uint64_t v;

	o->rip = o->neg_imm = o->bare_mem = false;
	o->disp = 0;
	if (intel) {
		r = strstr(ops, "[rip");
		if (!r || (r[4] != ']' && r[4] != ' '))
			return;
		o->rip = true;
		if (r[4] == ' ' && (r[5] == '+' || r[5] == '-')) {
			v = strtoull(r + 7, NULL, 0);
			o->disp = r[5] == '-' ? -(int64_t)v : (int64_t)v;
		}
		return;
	}
	for (p = ops; *p; p++) {
		if (*p == '$' && p[1] == '-') {
			o->neg_imm = true;
		} else if (*p == '(') {
			if (p == ops || !isalnum((unsigned char)p[-1]))
				o->bare_mem = true;
			if (!r && !strncmp(p, "(%rip)", 6))
				r = p;
		}
	}
	if (!r)
		return;
	o->rip = true;
	/* back over the number before "(%rip)" */
	for (s = r; s > ops && (isxdigit((unsigned char)s[-1]) || s[-1] == 'x'); s--)
		;
	if (s == r)
		return;
	v = strtoull(s, NULL, 0);
	o->disp = s > ops && s[-1] == '-' ? -(int64_t)v : (int64_t)v;
}

/* The fields only the details give (cs_detail of ci, decoded with
 * CS_OPT_DETAIL on): the zero displacement encoded, the immediate's
 * size. */
static void insn__detail(struct disasm_insn *in, const cs_insn *ci)
{
	const cs_x86 *x86 = &ci->detail->x86;
	uint8_t i;

	for (i = 0; i < x86->op_count; i++) {
		const cs_x86_op *op = &x86->operands[i];

		if ((in->is_jump || in->is_call) && op->type == X86_OP_IMM && x86->op_count == 1)
			continue;	/* the target */
		if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
		    op->mem.index == X86_REG_INVALID)
			continue;	/* the reference */
		if (op->type == X86_OP_MEM && !op->mem.disp) {
			unsigned int mod = x86->modrm >> 6;

			/* mod 1/2: disp8/disp32; no base: SIB's disp32 */
			in->disp0_encoded = mod == 1 || mod == 2 || op->mem.base == X86_REG_INVALID;
		} else if (op->type == X86_OP_IMM) {
			in->imm_size = op->size;
		}
	}
}

/*
 * One decoder: Capstone handles without details (the fast pass) and with
 * them (the few instructions whose AT&T text needs them), the instructions
 * it decoded and their text.
 */
struct decoder {
	csh cs, cs_detail;
	cs_insn *ci, *ci_detail;
	bool intel;
	struct disasm_insn *insns;
	size_t nr, alloc;
	struct disasm_text *text;
	int err;
};

static int decoder__init(struct decoder *d, int mode, bool intel)
{
	memset(d, 0, sizeof(*d));
	d->intel = intel;
	if (capstone.open(CS_ARCH_X86, mode, &d->cs) != CS_ERR_OK)
		return -ENOMEM;
	if (capstone.open(CS_ARCH_X86, mode, &d->cs_detail) != CS_ERR_OK) {
		capstone.close(&d->cs);
		return -ENOMEM;
	}
	capstone.option(d->cs, CS_OPT_SYNTAX, intel ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	capstone.option(d->cs_detail, CS_OPT_SYNTAX, intel ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	capstone.option(d->cs_detail, CS_OPT_DETAIL, CS_OPT_ON);
	d->ci = capstone.malloc(d->cs);
	d->ci_detail = capstone.malloc(d->cs_detail);
	return d->ci && d->ci_detail ? 0 : -ENOMEM;
}

/* Close the handles; the instructions and text stay (taken or freed by
 * the caller). */
static void decoder__close(struct decoder *d)
{
	if (d->ci)
		capstone.free(d->ci, 1);
	if (d->ci_detail)
		capstone.free(d->ci_detail, 1);
	d->ci = d->ci_detail = NULL;
	if (d->cs)
		capstone.close(&d->cs);
	if (d->cs_detail)
		capstone.close(&d->cs_detail);
	d->cs = d->cs_detail = 0;
}

static struct disasm_insn *decoder__push(struct decoder *d)
{
	if (d->nr == d->alloc) {
		size_t n = d->alloc ? d->alloc * 2 : 256;
		struct disasm_insn *p = realloc(d->insns, n * sizeof(*p));

		if (!p) {
			d->err = -ENOMEM;
			return NULL;
		}
		d->insns = p;
		d->alloc = n;
	}
	return &d->insns[d->nr++];
}

/* Decode the instruction at *p (*left bytes, at *addr) into a new
 * record, moving the three on past it; an undecodable byte becomes
 * objdump's "(bad)". false on ENOMEM (d->err). */
static bool decoder__step(struct decoder *d, const uint8_t **p, size_t *left, uint64_t *addr)
{
	struct disasm_insn *in = decoder__push(d);
	const uint8_t *at = *p;
	uint64_t a = *addr;
	cs_insn *ci = d->ci;
	struct ops_facts of;

	if (!in)
		return false;
	memset(in, 0, sizeof(*in));
	if (!capstone.disasm_iter(d->cs, p, left, addr, ci)) {
		in->addr = a;
		in->size = 1;
		in->bytes[0] = *at;
		in->mnemonic = text__dup2(&d->text, "(bad)", "", &in->op_str);
		(*p)++;
		(*left)--;
		(*addr)++;
		if (!in->mnemonic)
			d->err = -ENOMEM;
		return !d->err;
	}
	in->addr = ci->address;
	in->size = ci->size;
	memcpy(in->bytes, ci->bytes, ci->size < sizeof(in->bytes) ? ci->size : sizeof(in->bytes));
	insn__classify(in, ci->id);
	if (in->is_jump || in->is_call)
		in->has_target = text__number(ci->op_str, &in->target);
	ops__scan(ci->op_str, d->intel, &of);
	if (of.rip) {
		in->has_ref = true;
		in->ref = ci->address + ci->size + (uint64_t)of.disp;
	}
	/* a zero displacement encoded is a zero byte in the encoding: without
	 * one, the details cannot tell of any */
	if (of.neg_imm || (of.bare_mem && memchr(ci->bytes, 0, ci->size))) {
		const uint8_t *q = at;
		size_t n = ci->size;
		uint64_t qa = a;

		if (capstone.disasm_iter(d->cs_detail, &q, &n, &qa, d->ci_detail) &&
		    d->ci_detail->detail)
			insn__detail(in, d->ci_detail);
	}
	in->mnemonic = text__dup2(&d->text, ci->mnemonic, ci->op_str, &in->op_str);
	if (!in->mnemonic)
		d->err = -ENOMEM;
	return !d->err;
}

/* Decode [p, p + len) at addr on to its end. */
static int decoder__run(struct decoder *d, const uint8_t *p, size_t len, uint64_t addr)
{
	while (len && decoder__step(d, &p, &len, &addr))
		;
	return d->err;
}

/*
 * A long piece is decoded by two threads: the second from its middle,
 * the first from its start until one of its instruction boundaries is
 * one of the second's. x86 code read from a wrong byte falls back in
 * step with the instruction boundaries within a few instructions, and
 * from a common boundary on both decode the same, so the result is the
 * linear sweep of one thread.
 */
#define SPLIT_MIN 8192

struct half {
	struct decoder d;
	const uint8_t *p;
	size_t len;
	uint64_t addr;
};

static void *half__run(void *arg)
{
	struct half *h = arg;

	decoder__run(&h->d, h->p, h->len, h->addr);
	return NULL;
}

/* Append src's instructions from i on (and all its text) to d. */
static int decoder__take(struct decoder *d, struct decoder *src, size_t i)
{
	size_t n = src->nr - i;
	struct disasm_text **tail;

	if (d->nr + n > d->alloc) {
		struct disasm_insn *p = realloc(d->insns, (d->nr + n) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		d->insns = p;
		d->alloc = d->nr + n;
	}
	memcpy(d->insns + d->nr, src->insns + i, n * sizeof(*src->insns));
	d->nr += n;
	if (!src->text)
		return 0;
	/* src's blocks go behind d's first, the one d writes into */
	for (tail = &src->text; *tail; tail = &(*tail)->next)
		;
	if (d->text) {
		*tail = d->text->next;
		d->text->next = src->text;
	} else {
		d->text = src->text;
	}
	src->text = NULL;
	return 0;
}

static int decoder__piece(struct decoder *d, int mode, const uint8_t *p, size_t len,
			  uint64_t addr)
{
	struct half h;
	struct helper_thread thr;
	size_t mid = len / 2, j = 0;
	uint64_t end_first = addr + mid;
	int err;

	if (len < SPLIT_MIN || decoder__init(&h.d, mode, d->intel)) {
		if (len >= SPLIT_MIN)
			decoder__close(&h.d);
		return decoder__run(d, p, len, addr);
	}
	h.p = p + mid;
	h.len = len - mid;
	h.addr = end_first;
	h.d.alloc = h.len / 2 + 16;
	h.d.insns = malloc(h.d.alloc * sizeof(*h.d.insns));
	if (!h.d.insns || helper_thread__start(&thr, half__run, &h)) {
		decoder__close(&h.d);
		free(h.d.insns);
		return decoder__run(d, p, len, addr);
	}
	while (len && addr < end_first && decoder__step(d, &p, &len, &addr))
		;
	helper_thread__join(&thr);
	decoder__close(&h.d);
	err = d->err ? d->err : h.d.err;
	/* on until a boundary of the second half's */
	while (!err && len) {
		while (j < h.d.nr && h.d.insns[j].addr < addr)
			j++;
		if (j < h.d.nr && h.d.insns[j].addr == addr) {
			err = decoder__take(d, &h.d, j);
			break;
		}
		if (!decoder__step(d, &p, &len, &addr))
			err = d->err;
	}
	text__free(h.d.text);
	free(h.d.insns);
	return err;
}

int dso__disasm(struct dso *dso, uint64_t start, uint64_t end, bool intel,
		struct disasm_code *code)
{
	unsigned char *buf = NULL;
	const uint8_t *p;
	size_t left;
	uint64_t addr;
	struct decoder d;
	int mode = CS_MODE_64, err, si = 0;
	struct code_sections secs = { .nr = 0 };
	struct stat st;
	uint64_t asked_end;
	bool keep;

	/* a disassembly kept by an earlier run needs no Capstone */
	err = dso__disasm_kept(dso, start, end, intel, code);
	if (err != -ENOENT || end <= start)
		return err;
	if (end - start > DISASM_MAX_BYTES)
		end = start + DISASM_MAX_BYTES;
	asked_end = end;
	keep = disasm__keepable(dso, start, end, &st);
	if (capstone__load())
		return -ENOSYS;
	if (dso->kind == DSO_KERNEL && !dso->runtime_path) {
		/* no vmlinux: the running kernel's code, when it is the one
		 * recorded (beyond perf, which needs record --kcore) */
		err = kcore__read(dso, start, end - start, &buf);
		snprintf(code->section, sizeof(code->section), ".text");
	} else if (!dso->runtime_path) {
		return -ENOENT;
	} else {
		uint64_t len = end - start;

		err = read_code(dso->runtime_path, start, &len, &buf, &mode, code->section,
				sizeof(code->section), &secs);
		end = start + len;
	}
	if (err)
		return err;
	err = decoder__init(&d, mode, intel);
	if (err)
		goto out;
	/* room for an instruction per two bytes (they average about four):
	 * seldom moved, and the pages past the last one never touched */
	d.alloc = (size_t)(end - start) / 2 + 16;
	d.insns = malloc(d.alloc * sizeof(*d.insns));
	if (!d.insns) {
		err = -ENOMEM;
		goto out;
	}
	p = buf;
	left = end - start;
	addr = start;
	while (left && !err) {
		size_t part = left;

		if (secs.nr) {
			/* past a section's end: on at the next section's start */
			while (si < secs.nr && addr >= secs.end[si])
				si++;
			if (si == secs.nr)
				break;
			if (addr < secs.start[si]) {
				if (secs.start[si] - addr >= left)
					break;
				left -= secs.start[si] - addr;
				p += secs.start[si] - addr;
				addr = secs.start[si];
			}
			/* Capstone must not read on into the next section */
			part = secs.end[si] - addr < left ? (size_t)(secs.end[si] - addr) : left;
		}
		err = decoder__piece(&d, mode, p, part, addr);
		p += part;
		left -= part;
		addr += part;
	}
	if (err)
		goto out;
	/* the sections after the first one the code was decoded in */
	for (int k = 1; k < secs.nr && code->nr_more < DISASM_SECTIONS_MAX; k++) {
		if (secs.start[k] <= start || secs.start[k] >= end)
			continue;
		code->more[code->nr_more].addr = secs.start[k];
		snprintf(code->more[code->nr_more].name, sizeof(code->more[0].name), "%s",
			 secs.name[k]);
		code->nr_more++;
	}
out:
	decoder__close(&d);
	code->insns = d.insns;
	code->nr = d.nr;
	code->text = d.text;
	free(buf);
	if (err)
		disasm_code__exit(code);
	else if (keep && capstone_path[0]) {
		disasm_cache__add(dso->runtime_path, &st, start, asked_end, intel, code,
				  capstone_path, NULL, 0);
		code->keep = true;
		code->kept_st = st;
	}
	return err;
}

int dso__disasm_kept(struct dso *dso, uint64_t start, uint64_t end, bool intel,
		     struct disasm_code *code)
{
	struct stat st;
	int err;

	memset(code, 0, sizeof(*code));
	if (end <= start)
		return -ENOENT;
	if (end - start > DISASM_MAX_BYTES)
		end = start + DISASM_MAX_BYTES;
	dso__load(dso);
	if (!disasm__keepable(dso, start, end, &st))
		return -ENOENT;
	err = disasm_cache__find(dso->runtime_path, &st, start, end, intel, code);
	if (!err) {
		code->keep = true;
		code->kept_st = st;
	}
	return err;
}

bool disasm_code__keeps(const struct disasm_code *code)
{
	return code->keep && debug_cache__enabled();
}

void dso__disasm_keep_notes(struct dso *dso, uint64_t start, uint64_t end, bool intel,
			    const struct disasm_code *code, const void *notes, size_t len)
{
	if (end - start > DISASM_MAX_BYTES)
		end = start + DISASM_MAX_BYTES;
	if (disasm_code__keeps(code) && dso->runtime_path)
		disasm_cache__add(dso->runtime_path, &code->kept_st, start, end, intel, code,
				  capstone_path[0] ? capstone_path : NULL, notes, len);
}

void disasm_code__exit(struct disasm_code *code)
{
	free(code->insns);
	code->insns = NULL;
	code->nr = 0;
	text__free(code->text);
	code->text = NULL;
	if (code->map)
		munmap(code->map, code->map_size);
	code->map = NULL;
}

/* ---- objdump's symbol table ---- */

struct disasm_sym {
	uint64_t value, size;
	const char *name;	/* into names */
	uint32_t order;		/* in the file's table */
	uint16_t shndx;		/* its section */
	uint8_t type, bind;
};

struct die_range {
	uint64_t lo, hi;
	Dwarf_Die die;			/* valid with the symtab's Dwarf */
};

struct disasm_scn {
	uint64_t addr, size;
	uint16_t index;
};

struct disasm_symtab {
	struct disasm_sym *by_ref;	/* by address, then objdump's preference */
	struct disasm_sym *funcs;	/* functions and untyped, by address, then order */
	size_t nr, nr_funcs, alloc;
	char **names;			/* owned, one per symbol */
	struct disasm_scn *scns;	/* the allocated sections, to tell a symbol's */
	size_t nr_scns;
	bool scns_sorted;		/* scns by address, none overlapping */
	struct dso *dso;		/* not referenced: the caller keeps it */
	bool static_syms;		/* funcs from a static symbol table */
	Dwarf *dwarf;			/* for disasm_symtab__funcs(), opened once */
	int dwarf_fd;
	bool dwarf_tried;
	/* the function and inlined DIEs' ranges of the unit last asked, in
	 * the walk's order: the unit's next symbols filter them */
	const void *ranges_cu;		/* that unit's DIE (its address), NULL: none */
	struct die_range *ranges;
	size_t nr_ranges;
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

/* Add a symbol named name (taken: freed with the table, also on error).
 * 0 or -ENOMEM. */
static int symtab__push(struct disasm_symtab *st, uint64_t value, uint64_t size, char *name,
			uint32_t order, uint16_t shndx, uint8_t type, uint8_t bind)
{
	struct disasm_sym *s;

	if (!name)
		return -ENOMEM;
	if (st->nr == st->alloc) {
		size_t n = st->alloc ? st->alloc * 2 : 1024;
		struct disasm_sym *syms = realloc(st->by_ref, n * sizeof(*syms));
		char **names = syms ? realloc(st->names, n * sizeof(*names)) : NULL;

		if (syms)
			st->by_ref = syms;
		if (!names) {
			free(name);
			return -ENOMEM;
		}
		st->names = names;
		st->alloc = n;
	}
	st->names[st->nr] = name;
	s = &st->by_ref[st->nr++];
	*s = (struct disasm_sym){ .value = value, .size = size, .name = name, .order = order,
				  .shndx = shndx, .type = type, .bind = bind };
	return 0;
}

/* The version names of .gnu.version_d by index (names[ndx]), for
 * objdump's "name@@VERSION" of dynamic symbols. *versym: .gnu.version. */
static void dynsym__versions(Elf *elf, Elf_Data **versym, const char *names[], size_t max)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	*versym = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		size_t off = 0;
		int i;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_GNU_versym)
			*versym = elf_getdata(scn, NULL);
		if (sh.sh_type != SHT_GNU_verdef || !(data = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < (int)sh.sh_info; i++) {
			GElf_Verdef vd;
			GElf_Verdaux va;

			if (!gelf_getverdef(data, (int)off, &vd))
				break;
			if (vd.vd_ndx < max && gelf_getverdaux(data, (int)(off + vd.vd_aux), &va))
				names[vd.vd_ndx] = elf_strptr(elf, sh.sh_link, va.vda_name);
			if (!vd.vd_next)
				break;
			off += vd.vd_next;
		}
	}
}

static int symtab__read(struct disasm_symtab *st, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL), *versym = NULL;
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	const char *versions[64] = { NULL };

	if (!data || !n)
		return -ENOENT;
	if (sh->sh_type == SHT_DYNSYM)
		dynsym__versions(elf, &versym, versions, 64);
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		char *dem;
		int type, err;

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
		if (versym) {		/* objdump: "name@@VER", "name@VER" when hidden */
			GElf_Versym vs;
			const char *ver;

			/* index 1, the file's global base: "Base" */
			if (gelf_getversym(versym, (int)i, &vs) && (vs & 0x7fff) < 64 &&
			    (vs & 0x7fff) >= 1 &&
			    (ver = (vs & 0x7fff) == 1 ? "Base" : versions[vs & 0x7fff]) != NULL) {
				const char *base = dem ? dem : name;
				size_t bl = strlen(base), at = vs & 0x8000 ? 1 : 2, vl = strlen(ver);
				char *v = malloc(bl + at + vl + 1);

				if (v) {
					memcpy(v, base, bl);
					memcpy(v + bl, "@@", at);
					memcpy(v + bl + at, ver, vl + 1);
				}
				free(dem);
				dem = v;
				if (!dem)
					return -ENOMEM;
			}
		}
		err = symtab__push(st, sym.st_value, sym.st_size, dem ? dem : strdup(name),
				   (uint32_t)i, (uint16_t)sym.st_shndx, (uint8_t)type,
				   (uint8_t)GELF_ST_BIND(sym.st_info));
		if (err)
			return err;
	}
	return 0;
}

#define PLT_ORDER UINT32_MAX	/* the order of the synthetic PLT symbols */

/* A relocation of a GOT slot: what objdump calls a PLT entry using it. */
struct got_reloc {
	uint64_t got;
	char *name;	/* "puts", "*ABS*+0x9be70" */
};

static int got_reloc__cmp(const void *pa, const void *pb)
{
	const struct got_reloc *a = pa, *b = pb;

	return a->got < b->got ? -1 : a->got > b->got;
}

/* The JUMP_SLOT, GLOB_DAT and IRELATIVE relocations of elf. */
static int got_relocs__read(Elf *elf, struct got_reloc **out, size_t *nr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data, *symdata;
		Elf_Scn *symscn;
		GElf_Shdr symsh;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		symscn = elf_getscn(elf, sh.sh_link);
		symdata = symscn ? elf_getdata(symscn, NULL) : NULL;
		if (!data || !symscn || !gelf_getshdr(symscn, &symsh))
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			unsigned long type;
			char buf[64];
			const char *name = NULL;

			if (!gelf_getrela(data, (int)i, &r))
				continue;
			type = GELF_R_TYPE(r.r_info);
			if (type == R_X86_64_IRELATIVE) {
				snprintf(buf, sizeof(buf), "*ABS*+0x%" PRIx64, (uint64_t)r.r_addend);
				name = buf;
			} else if ((type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT) && symdata &&
				   gelf_getsym(symdata, (int)GELF_R_SYM(r.r_info), &sym)) {
				name = elf_strptr(elf, symsh.sh_link, sym.st_name);
			}
			if (!name || !name[0])
				continue;
			if (*nr == alloc) {
				struct got_reloc *p = realloc(*out, (alloc = alloc ? alloc * 2 : 256) *
							      sizeof(*p));

				if (!p)
					return -ENOMEM;
				*out = p;
			}
			(*out)[*nr].got = r.r_offset;
			(*out)[*nr].name = strdup(name);
			if (!(*out)[*nr].name)
				return -ENOMEM;
			(*nr)++;
		}
	}
	qsort(*out, *nr, sizeof(**out), got_reloc__cmp);
	return 0;
}

/*
 * objdump's synthetic "name@plt" symbols (libbfd's x86-64 PLT reader):
 * each entry of .plt, .plt.sec and .plt.got whose indirect jump
 * goes through a relocated GOT slot, named after the relocation.
 */
static int symtab__add_plt(struct disasm_symtab *st, const char *path)
{
	struct got_reloc *relocs = NULL;
	size_t nr_relocs = 0, i, shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd, err = 0;

	if (elf__open(path, &fd, &elf))
		return 0;	/* no PLT names */
	if (elf_getshdrstrndx(elf, &shstrndx) ||
	    (err = got_relocs__read(elf, &relocs, &nr_relocs)) || !nr_relocs)
		goto out;
	while (!err && (scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;
		Elf_Data *data;
		uint64_t off, esize;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (strcmp(name, ".plt") && strcmp(name, ".plt.sec") &&
			      strcmp(name, ".plt.got")))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || data->d_size < sh.sh_size)
			continue;
		/* entries of sh_entsize bytes (.plt.got: 8 without IBT), else 16 */
		esize = sh.sh_entsize >= 8 && sh.sh_entsize <= 16 ? sh.sh_entsize : 16;
		for (off = 0; !err && off + esize <= sh.sh_size; off += esize) {
			const uint8_t *e = (const uint8_t *)data->d_buf + off;
			unsigned int j;

			/* [endbr64] [bnd] jmp *disp32(%rip) */
			for (j = 0; j + 6 <= esize; j++) {
				struct got_reloc key, *r;
				int32_t disp;
				char *sym;

				if (e[j] != 0xff || e[j + 1] != 0x25)
					continue;
				memcpy(&disp, e + j + 2, 4);
				key.got = sh.sh_addr + off + j + 6 + (uint64_t)(int64_t)disp;
				r = bsearch(&key, relocs, nr_relocs, sizeof(*relocs), got_reloc__cmp);
				if (!r)
					break;
				sym = malloc(strlen(r->name) + 5);
				if (sym)
					sprintf(sym, "%s@plt", r->name);
				err = symtab__push(st, sh.sh_addr + off, esize, sym, PLT_ORDER,
						   (uint16_t)elf_ndxscn(scn), STT_FUNC, STB_GLOBAL);
				break;
			}
		}
	}
out:
	for (i = 0; i < nr_relocs; i++)
		free(relocs[i].name);
	free(relocs);
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* Read the .symtab (dynsym false) or .dynsym of the ELF file path into
 * st. 0, -ENOENT (no such table or file), -ENOMEM. */
static int symtab__read_file(struct disasm_symtab *st, const char *path, bool dynsym)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	bool had_scns = st->nr_scns > 0;	/* the sections of the first file read */
	int fd, err = -ENOENT;

	if (elf__open(path, &fd, &elf))
		return -ENOENT;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == (dynsym ? SHT_DYNSYM : SHT_SYMTAB)) {
			err = symtab__read(st, elf, scn, &sh);
			break;
		}
	}
	scn = NULL;
	while (!err && !had_scns && elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		struct disasm_scn *p;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		p = realloc(st->scns, (st->nr_scns + 1) * sizeof(*p));
		if (!p) {
			err = -ENOMEM;
			break;
		}
		st->scns = p;
		st->scns[st->nr_scns++] = (struct disasm_scn){ .addr = sh.sh_addr, .size = sh.sh_size,
							      .index = (uint16_t)elf_ndxscn(scn) };
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

static int scn_addr_cmp(const void *pa, const void *pb)
{
	const struct disasm_scn *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* st's sections by address when no two overlap (then the one holding an
 * address is the only one: symtab__section() bisects), else as they
 * were. */
static void scns__sort(struct disasm_symtab *st)
{
	struct disasm_scn *by_addr;
	size_t i;

	if (st->nr_scns < 2)
		return;
	by_addr = malloc(st->nr_scns * sizeof(*by_addr));
	if (!by_addr)
		return;
	memcpy(by_addr, st->scns, st->nr_scns * sizeof(*by_addr));
	qsort(by_addr, st->nr_scns, sizeof(*by_addr), scn_addr_cmp);
	for (i = 1; i < st->nr_scns; i++)
		if (by_addr[i].addr - by_addr[i - 1].addr < by_addr[i - 1].size)
			break;
	if (i < st->nr_scns) {
		free(by_addr);
		return;
	}
	free(st->scns);
	st->scns = by_addr;
	st->scns_sorted = true;
}

struct disasm_symtab *dso__disasm_symtab(struct dso *dso, bool debug_file)
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
	st->dso = dso;
	st->dwarf_fd = -1;
	st->static_syms = true;
	/* objdump takes a stripped file's symbols from its separate debug
	 * file, and its dynamic symbols when there is neither */
	err = symtab__read_file(st, dso->runtime_path, false);
	if (err == -ENOENT && debug_file) {
		dbg = dso__debug_file(dso);
		if (dbg && dbg[0])
			err = symtab__read_file(st, dbg, false);
	}
	if (err == -ENOENT) {
		err = symtab__read_file(st, dso->runtime_path, true);
		st->static_syms = false;	/* libbfd looks up no dynamic symbol */
	}
	if (!err)
		err = symtab__add_plt(st, dso->runtime_path);
	if (err)
		goto out;
	st->funcs = calloc(st->nr ? st->nr : 1, sizeof(*st->funcs));
	if (!st->funcs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < st->nr; i++) {
		uint8_t t = st->by_ref[i].type;

		/* libbfd's function lookup sees the file's symbols only */
		if ((t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_NOTYPE) &&
		    st->by_ref[i].order != PLT_ORDER && st->static_syms)
			st->funcs[st->nr_funcs++] = st->by_ref[i];
	}
	qsort(st->by_ref, st->nr, sizeof(*st->by_ref), sym_ref_cmp);
	qsort(st->funcs, st->nr_funcs, sizeof(*st->funcs), sym_func_cmp);
	scns__sort(st);
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
	free(st->scns);
	free(st->ranges);
	if (st->dwarf)
		dwarf_end(st->dwarf);
	if (st->dwarf_fd >= 0)
		close(st->dwarf_fd);
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

uint64_t disasm_symtab__start_from(const struct disasm_symtab *st, uint64_t addr)
{
	size_t i = addr ? syms__floor(st->by_ref, st->nr, addr - 1) : st->nr;

	/* the first symbol above addr - 1 */
	i = i == st->nr ? 0 : i + 1;
	while (i < st->nr && st->by_ref[i].value < addr)
		i++;
	return i < st->nr ? st->by_ref[i].value : UINT64_MAX;
}

/* The index of the section holding addr, 0 when none: the first in the
 * file's order (sections may overlap: .tbss), found by bisection when
 * none do. */
static uint16_t symtab__section(const struct disasm_symtab *st, uint64_t addr)
{
	size_t i, lo = 0, hi = st->nr_scns;

	if (!st->scns_sorted) {
		for (i = 0; i < st->nr_scns; i++)
			if (addr >= st->scns[i].addr && addr - st->scns[i].addr < st->scns[i].size)
				return st->scns[i].index;
		return 0;
	}
	while (lo < hi) {	/* the last section starting at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (st->scns[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr - st->scns[lo - 1].addr < st->scns[lo - 1].size)
		return st->scns[lo - 1].index;
	return 0;
}

bool disasm_symtab__label(const struct disasm_symtab *st, uint64_t addr, bool section_start,
			  char *buf, size_t size)
{
	uint16_t scn = symtab__section(st, addr);
	size_t i = syms__floor(st->by_ref, st->nr, addr), best = st->nr;

	if (!scn)
		return false;
	/* a symbol of the section at addr: the first in objdump's order */
	for (; i < st->nr && st->by_ref[i].value == addr; i--) {
		if (st->by_ref[i].shndx == scn)
			best = i;
		if (!i)
			break;
	}
	if (best != st->nr) {
		snprintf(buf, size, "%s", st->by_ref[best].name);
		return true;
	}
	if (!section_start)
		return false;
	/* a section's start without one: the section's first symbol above */
	i = syms__floor(st->by_ref, st->nr, addr);
	for (i = i == st->nr ? 0 : i + 1; i < st->nr; i++) {
		if (st->by_ref[i].shndx == scn) {
			snprintf(buf, size, "%s-0x%" PRIx64, st->by_ref[i].name,
				 st->by_ref[i].value - addr);
			return true;
		}
	}
	return false;
}

const char *disasm_symtab__function(const struct disasm_symtab *st, uint64_t addr,
				    uint64_t *start)
{
	size_t i = syms__floor(st->funcs, st->nr_funcs, addr), best = st->nr_funcs;
	uint16_t scn = symtab__section(st, addr);

	/* the highest symbol of addr's section at or below it; of those at
	 * its address the largest, the first listed at equal sizes */
	for (; i < st->nr_funcs; i--) {
		const struct disasm_sym *f = &st->funcs[i];

		if (best != st->nr_funcs && f->value != st->funcs[best].value)
			break;
		if (f->shndx == scn && (best == st->nr_funcs || f->size >= st->funcs[best].size))
			best = i;
		if (!i)
			break;
	}
	if (best == st->nr_funcs ||
	    (st->funcs[best].size && addr - st->funcs[best].value >= st->funcs[best].size))
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

/* Add the range [lo, hi) of the function named name to f (the name
 * copied, demangled, once for a run of equal names). 0 or -ENOMEM. */
static int funcs__add(struct disasm_funcs *f, uint64_t lo, uint64_t hi, const char *name)
{
	char *copy;

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
	return 0;
}

/* The ranges of the unit's function and inlined DIEs under parent into
 * st->ranges (*alloc entries there). 0 or -ENOMEM. */
static int ranges__walk(struct disasm_symtab *st, size_t *alloc, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	int err = 0;

	if (depth > 64 || dwarf_child(parent, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;

			while (!err && (off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (st->nr_ranges == *alloc) {
					size_t n = *alloc ? *alloc * 2 : 256;
					struct die_range *p = realloc(st->ranges, n * sizeof(*p));

					if (!p) {
						err = -ENOMEM;
						break;
					}
					st->ranges = p;
					*alloc = n;
				}
				st->ranges[st->nr_ranges++] = (struct die_range){ .lo = lo, .hi = hi,
										  .die = child };
			}
		}
		if (!err && dwarf_haschildren(&child))
			err = ranges__walk(st, alloc, &child, depth + 1);
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

int disasm_symtab__funcs(struct disasm_symtab *st, uint64_t lo, uint64_t hi,
			 struct disasm_funcs *funcs)
{
	Dwarf_Die cu;
	int err = -ENOENT;

	memset(funcs, 0, sizeof(*funcs));
	if (!st->dwarf_tried) {
		const char *dbg = dso__debug_file(st->dso);
		const char *path = dbg && dbg[0] ? dbg : st->dso->runtime_path;

		st->dwarf_tried = true;
		if (dbg && path)
			st->dwarf_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (st->dwarf_fd >= 0)
			st->dwarf = dwarf_begin(st->dwarf_fd, DWARF_C_READ);
	}
	if (st->dwarf && dwarf_addrdie(st->dwarf, lo, &cu)) {
		Dwarf_Attribute a;
		const char *dir = dwarf_attr(&cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
		struct die_range *prev = NULL;
		const char *name = NULL;
		size_t i, alloc = st->nr_ranges;

		err = 0;
		if (st->ranges_cu != cu.addr) {		/* the unit walked once */
			st->nr_ranges = 0;
			st->ranges_cu = NULL;
			err = ranges__walk(st, &alloc, &cu, 0);
			if (!err)
				st->ranges_cu = cu.addr;
		}
		/* as objdump -l: the ranges overlapping [lo, hi) in the unit's
		 * order, of the DIEs that have a name */
		for (i = 0; !err && i < st->nr_ranges; i++) {
			struct die_range *r = &st->ranges[i];

			if (r->hi <= lo || r->lo >= hi)
				continue;
			if (!prev || prev->die.addr != r->die.addr)
				name = die__bfd_name(&r->die);
			prev = r;
			if (name)
				err = funcs__add(funcs, r->lo, r->hi, name);
		}
		if (!err && dir && !(funcs->comp_dir = strdup(dir)))
			err = -ENOMEM;
	}
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
	free(funcs->comp_dir);
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
