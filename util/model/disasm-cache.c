// SPDX-License-Identifier: GPL-2.0
/*
 * Disassemblies kept between runs (layout and rules: disasm-cache.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "disasm-cache.h"
#include "debug-cache.h"
#include "disasm.h"
#include "../lib/debug.h"

#define DC_MAGIC "PRFDIS02"
#define DC_INTEL 1u			/* dc_entry.flags: Intel syntax */
#define DC_LIB_PATH 256

struct dc_header {
	char magic[8];
	uint64_t nr_entries;		/* then as many uint64_t entry offsets */
	struct file_ident exe;		/* the prf that decoded */
	struct file_ident lib;		/* the libcapstone it loaded, at lib_path */
	char lib_path[DC_LIB_PATH];
};

struct dc_entry {
	uint64_t start, end;		/* the range asked for */
	uint64_t nr;			/* instructions (struct dc_insn) after it */
	uint64_t text_len;		/* bytes of text after them, a multiple of 8 */
	uint64_t notes_len;		/* bytes of the caller's notes after the text
					 * (disasm_code.notes), a multiple of 8 */
	uint32_t flags;			/* DC_* */
	uint32_t nr_more;
	char section[64];
	struct {
		uint64_t addr;
		char name[32];
	} more[DISASM_SECTIONS_MAX];
};

/* struct disasm_insn as kept: offsets for the text pointers */
struct dc_insn {
	uint64_t addr, target, ref;
	uint32_t mnemonic, op_str;	/* offsets into the entry's text */
	uint16_t size;
	uint8_t flags;			/* DCI_* */
	uint8_t imm_size;
	uint8_t bytes[16];
};

enum {
	DCI_JUMP = 1, DCI_CALL = 2, DCI_RET = 4, DCI_TARGET = 8, DCI_REF = 16, DCI_DISP0 = 32,
};

static size_t dc_entry__size(const struct dc_entry *e)
{
	return sizeof(*e) + e->nr * sizeof(struct dc_insn) + e->text_len + e->notes_len;
}

/* This prf's identity, once per process. */
static struct file_ident exe_ident;
static int exe_err;
static pthread_once_t exe_once = PTHREAD_ONCE_INIT;

static void exe_ident__init(void)
{
	exe_err = file_ident__get(&exe_ident, "/proc/self/exe");
}

static const struct file_ident *dc_exe(void)
{
	pthread_once(&exe_once, exe_ident__init);
	return exe_err ? NULL : &exe_ident;
}

/*
 * The header of a mapped cache file when it is whole and was derived by
 * this prf with a libcapstone still in place; NULL otherwise.
 */
static const struct dc_header *dc_header__check(const void *base, size_t size)
{
	const struct dc_header *h = base;
	const struct file_ident *exe = dc_exe();
	struct file_ident lib;

	if (size < sizeof(*h) || memcmp(h->magic, DC_MAGIC, sizeof(h->magic)) || !exe ||
	    memcmp(&h->exe, exe, sizeof(*exe)) || !memchr(h->lib_path, '\0', sizeof(h->lib_path)) ||
	    file_ident__get(&lib, h->lib_path) || memcmp(&h->lib, &lib, sizeof(lib)) ||
	    h->nr_entries > (size - sizeof(*h)) / sizeof(uint64_t))
		return NULL;
	return h;
}

/* The idx-th entry of a checked file, NULL when it runs out of the file. */
static const struct dc_entry *dc_entry__at(const void *base, size_t size, uint64_t idx)
{
	const struct dc_header *h = base;
	const uint64_t *off = (const uint64_t *)(h + 1);
	const struct dc_entry *e;

	if (off[idx] % 8 || off[idx] > size || size - off[idx] < sizeof(*e))
		return NULL;
	e = (const struct dc_entry *)((const char *)base + off[idx]);
	if (e->nr > (size - off[idx] - sizeof(*e)) / sizeof(struct dc_insn) ||
	    e->text_len > size - off[idx] - sizeof(*e) - e->nr * sizeof(struct dc_insn) ||
	    e->notes_len > size - off[idx] - sizeof(*e) - e->nr * sizeof(struct dc_insn) -
			   e->text_len ||
	    e->text_len % 8 || e->notes_len % 8 || e->nr_more > DISASM_SECTIONS_MAX)
		return NULL;
	return e;
}

/* Fault in the whole pages of [p, p + len) at once (advice: read or
 * write); nothing where the kernel cannot (before Linux 5.14). */
static void populate(const void *p, size_t len, int advice)
{
	uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, e = ((uintptr_t)p + len) & ~(uintptr_t)4095;

	if (e > a)
		madvise((void *)a, e - a, advice);
}

/* Turn a checked entry into *code (insns allocated, text in the mapping). */
static int dc_entry__take(const struct dc_entry *e, struct disasm_code *code)
{
	const struct dc_insn *k = (const struct dc_insn *)(e + 1);
	const char *text = (const char *)(k + e->nr);
	struct disasm_insn *in;
	uint64_t prev = 0;

	/* every string ends within the text: its last byte is a NUL */
	if (!e->nr || !e->text_len || text[e->text_len - 1] ||
	    !memchr(e->section, '\0', sizeof(e->section)))
		return -EINVAL;
	/* the entry's pages mapped, and the instructions' made, at once:
	 * one call each instead of a fault per page (0.8 of the 1.1 ms of
	 * _PyEval_EvalFrameDefault's 12,744 instructions) */
	populate(e, dc_entry__size(e), MADV_POPULATE_READ);
	in = malloc(e->nr * sizeof(*in));
	if (!in)
		return -ENOMEM;
	populate(in, e->nr * sizeof(*in), MADV_POPULATE_WRITE);
	for (uint64_t i = 0; i < e->nr; i++, k++) {
		if (k->mnemonic >= e->text_len || k->op_str >= e->text_len || !k->size ||
		    k->size > sizeof(k->bytes) || k->addr < e->start || k->addr >= e->end ||
		    (i && k->addr <= prev)) {
			free(in);
			return -EINVAL;
		}
		prev = k->addr;
		in[i] = (struct disasm_insn){
			.addr = k->addr, .size = k->size, .is_jump = k->flags & DCI_JUMP,
			.is_call = k->flags & DCI_CALL, .is_ret = k->flags & DCI_RET,
			.has_target = k->flags & DCI_TARGET, .has_ref = k->flags & DCI_REF,
			.disp0_encoded = k->flags & DCI_DISP0, .imm_size = k->imm_size,
			.target = k->target, .ref = k->ref,
			.mnemonic = text + k->mnemonic, .op_str = text + k->op_str,
		};
		memcpy(in[i].bytes, k->bytes, sizeof(k->bytes));
	}
	code->insns = in;
	code->nr = e->nr;
	if (e->notes_len) {
		code->notes = text + e->text_len;
		code->notes_len = e->notes_len;
	}
	memcpy(code->section, e->section, sizeof(code->section));
	code->nr_more = (int)e->nr_more;
	for (uint32_t i = 0; i < e->nr_more; i++) {
		code->more[i].addr = e->more[i].addr;
		memcpy(code->more[i].name, e->more[i].name, sizeof(code->more[i].name));
		code->more[i].name[sizeof(code->more[i].name) - 1] = '\0';
	}
	return 0;
}

int disasm_cache__find(const char *path, const struct stat *st, uint64_t start, uint64_t end,
		       bool intel, struct disasm_code *code)
{
	const struct dc_header *h;
	void *base;
	size_t size;
	uint32_t flags = intel ? DC_INTEL : 0;
	int err = -ENOENT;

	if (end - start < DISASM_CACHE_MIN_BYTES ||
	    debug_cache__map(DEBUG_CACHE_DISASM, path, st, &base, &size))
		return -ENOENT;
	h = dc_header__check(base, size);
	for (uint64_t i = 0; h && i < h->nr_entries; i++) {
		const struct dc_entry *e = dc_entry__at(base, size, i);

		if (!e) {
			err = -EINVAL;
			break;
		}
		if (e->start != start || e->end != end || e->flags != flags)
			continue;
		memset(code, 0, sizeof(*code));
		err = dc_entry__take(e, code);
		break;
	}
	if (!err) {
		code->map = base;
		code->map_size = size;
		pr_debug2("disasm: %s: %zu instructions at %#" PRIx64 " from the kept disassembly\n",
			  path, code->nr, start);
		return 0;
	}
	if (err == -EINVAL || !h)
		pr_debug("disasm: %s: kept disassemblies are damaged or of another prf or Capstone: decoded again\n",
			 path);
	munmap(base, size);
	return err == -ENOMEM ? -ENOMEM : -ENOENT;
}

/* ---- entries to keep ---- */

struct dc_pending {
	struct dc_pending *next;
	char *path;
	struct stat st;
	struct file_ident id;		/* of st */
	struct file_ident lib;
	char lib_path[DC_LIB_PATH];
	struct dc_entry *entry;		/* with its instructions and text */
};

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dc_pending *pending;

static bool dc_pending__same_file(const struct dc_pending *a, const struct dc_pending *b)
{
	return !strcmp(a->path, b->path) && !memcmp(&a->id, &b->id, sizeof(a->id)) &&
	       !strcmp(a->lib_path, b->lib_path) && !memcmp(&a->lib, &b->lib, sizeof(a->lib));
}

/* An entry of code: the dc_entry, instructions, text and notes in one block. */
static struct dc_entry *dc_entry__new(uint64_t start, uint64_t end, bool intel,
				      const struct disasm_code *code, const void *notes,
				      size_t notes_len)
{
	size_t text_len = 0, at = 0;
	struct dc_entry *e;
	struct dc_insn *k;
	char *text;

	for (size_t i = 0; i < code->nr; i++)
		text_len += strlen(code->insns[i].mnemonic) + strlen(code->insns[i].op_str) + 2;
	text_len = (text_len + 8) & ~(size_t)7;		/* a NUL at the end, at least */
	if (text_len > UINT32_MAX)
		return NULL;
	e = calloc(1, sizeof(*e) + code->nr * sizeof(*k) + text_len + ((notes_len + 7) & ~(size_t)7));
	if (!e)
		return NULL;
	e->start = start;
	e->end = end;
	e->nr = code->nr;
	e->text_len = text_len;
	e->notes_len = (notes_len + 7) & ~(size_t)7;
	e->flags = intel ? DC_INTEL : 0;
	e->nr_more = (uint32_t)code->nr_more;
	memcpy(e->section, code->section, sizeof(e->section));
	for (int i = 0; i < code->nr_more; i++) {
		e->more[i].addr = code->more[i].addr;
		memcpy(e->more[i].name, code->more[i].name, sizeof(e->more[i].name));
	}
	k = (struct dc_insn *)(e + 1);
	text = (char *)(k + code->nr);
	for (size_t i = 0; i < code->nr; i++, k++) {
		const struct disasm_insn *in = &code->insns[i];
		size_t ml = strlen(in->mnemonic) + 1, ol = strlen(in->op_str) + 1;

		k->addr = in->addr;
		k->target = in->target;
		k->ref = in->ref;
		k->size = in->size;
		k->imm_size = in->imm_size;
		k->flags = (in->is_jump ? DCI_JUMP : 0) | (in->is_call ? DCI_CALL : 0) |
			   (in->is_ret ? DCI_RET : 0) | (in->has_target ? DCI_TARGET : 0) |
			   (in->has_ref ? DCI_REF : 0) | (in->disp0_encoded ? DCI_DISP0 : 0);
		memcpy(k->bytes, in->bytes, sizeof(k->bytes));
		k->mnemonic = (uint32_t)at;
		memcpy(text + at, in->mnemonic, ml);
		at += ml;
		k->op_str = (uint32_t)at;
		memcpy(text + at, in->op_str, ol);
		at += ol;
	}
	if (notes_len)
		memcpy(text + text_len, notes, notes_len);
	return e;
}

void disasm_cache__add(const char *path, const struct stat *st, uint64_t start, uint64_t end,
		       bool intel, const struct disasm_code *code, const char *lib_path,
		       const void *notes, size_t notes_len)
{
	const struct dc_header *h = code->map;	/* kept: its Capstone's */
	struct dc_pending *p, *q;

	if (!lib_path && h)
		lib_path = h->lib_path;
	if (end - start < DISASM_CACHE_MIN_BYTES || !code->nr || !lib_path ||
	    strlen(lib_path) >= DC_LIB_PATH || !dc_exe() || notes_len > UINT32_MAX ||
	    !debug_cache__enabled())
		return;
	p = calloc(1, sizeof(*p));
	if (!p)
		return;
	p->path = strdup(path);
	p->entry = dc_entry__new(start, end, intel, code, notes, notes_len);
	if (!p->path || !p->entry || file_ident__get(&p->lib, lib_path)) {
		free(p->path);
		free(p->entry);
		free(p);
		return;
	}
	p->st = *st;
	file_ident__set(&p->id, st);
	strcpy(p->lib_path, lib_path);
	pthread_mutex_lock(&pending_lock);
	/* one per range and syntax: a listing made again (the TUI's) keeps
	 * its newest notes, not a copy each time */
	for (q = pending; q; q = q->next)
		if (dc_pending__same_file(q, p) && q->entry->start == start &&
		    q->entry->end == end && q->entry->flags == p->entry->flags)
			break;
	if (q) {
		free(q->entry);
		q->entry = p->entry;
		free(p->path);
		free(p);
	} else {
		p->next = pending;
		pending = p;
	}
	pthread_mutex_unlock(&pending_lock);
}

/* Is an entry for e's request among the n new ones? */
static bool dc_entries__have(struct dc_entry *const *v, size_t n, const struct dc_entry *e)
{
	for (size_t i = 0; i < n; i++)
		if (v[i]->start == e->start && v[i]->end == e->end && v[i]->flags == e->flags)
			return true;
	return false;
}

/* Write the cache file of first's ELF file: the new entries v[0..n) and
 * the old ones (base, size: its mapping, or NULL) they do not replace. */
static void dc_file__write(const struct dc_pending *first, struct dc_entry *const *v, size_t n,
			   const void *base, size_t size)
{
	const struct dc_header *old = base ? dc_header__check(base, size) : NULL;
	const struct dc_entry **olds = NULL;
	size_t nr_old = 0, nr, iovcnt = 0;
	struct dc_header h = { .magic = DC_MAGIC };
	struct iovec *iov;
	uint64_t *off, at;

	/* the old entries only when their Capstone is this one's */
	if (old && (strcmp(old->lib_path, first->lib_path) ||
		    memcmp(&old->lib, &first->lib, sizeof(old->lib))))
		old = NULL;
	if (old && old->nr_entries) {
		olds = malloc(old->nr_entries * sizeof(*olds));
		for (uint64_t i = 0; olds && i < old->nr_entries; i++) {
			const struct dc_entry *e = dc_entry__at(base, size, i);

			if (!e) {		/* damaged: only the new ones */
				nr_old = 0;
				break;
			}
			if (!dc_entries__have(v, n, e))
				olds[nr_old++] = e;
		}
	}
	nr = n + nr_old;
	off = malloc(nr * sizeof(*off));
	iov = malloc((nr + 2) * sizeof(*iov));
	if (!off || !iov)
		goto out;
	h.nr_entries = nr;
	h.exe = *dc_exe();
	h.lib = first->lib;
	strcpy(h.lib_path, first->lib_path);
	iov[iovcnt++] = (struct iovec){ &h, sizeof(h) };
	iov[iovcnt++] = (struct iovec){ off, nr * sizeof(*off) };
	at = sizeof(h) + nr * sizeof(*off);
	for (size_t i = 0; i < nr; i++) {
		const struct dc_entry *e = i < n ? v[i] : olds[i - n];

		off[i] = at;
		iov[iovcnt++] = (struct iovec){ (void *)e, dc_entry__size(e) };
		at += dc_entry__size(e);
	}
	debug_cache__store(DEBUG_CACHE_DISASM, first->path, &first->st, iov, (int)iovcnt);
out:
	free(iov);
	free(off);
	free(olds);
}

void disasm_cache__flush(void)
{
	struct dc_pending *list, *p, *q, **pp;

	pthread_mutex_lock(&pending_lock);
	list = pending;
	pending = NULL;
	pthread_mutex_unlock(&pending_lock);
	while ((p = list)) {
		struct dc_entry **v;
		size_t n = 0, alloc = 1;
		void *base = NULL;
		size_t size = 0;

		/* p and the later entries of the same file (the first one
		 * added last: the newest wins) */
		for (q = p->next; q; q = q->next)
			alloc++;
		v = malloc(alloc * sizeof(*v));
		for (pp = &list; (q = *pp);) {
			if (q != p && !dc_pending__same_file(p, q)) {
				pp = &q->next;
				continue;
			}
			*pp = q->next;
			if (v && !dc_entries__have(v, n, q->entry))
				v[n++] = q->entry;
			else
				free(q->entry);
			if (q != p) {
				free(q->path);
				free(q);
			}
		}
		if (v) {
			if (debug_cache__map(DEBUG_CACHE_DISASM, p->path, &p->st, &base, &size))
				base = NULL;
			dc_file__write(p, v, n, base, size);
			if (base)
				munmap(base, size);
			for (size_t i = 0; i < n; i++)
				free(v[i]);
			free(v);
		}
		free(p->path);
		free(p);
	}
}
