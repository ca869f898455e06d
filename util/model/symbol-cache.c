// SPDX-License-Identifier: GPL-2.0
/*
 * ELF symbol tables kept between runs (layout and rules: symbol-cache.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "symbol-cache.h"
#include "debug-cache.h"
#include "dso.h"
#include "machine.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define SC_DEMANGLE 1u		/* names demangled */
#define SC_PARAMS 2u		/* ... with parameter lists */
#define SC_64BIT 4u		/* dso->is_64_bit */

struct sc_header {
	uint64_t nr_symbols;
	uint64_t text_offset;
	struct file_ident rt;		/* the runtime file */
	uint32_t flags;		/* SC_* */
	uint32_t rt_path_len;	/* bytes of the runtime path after the header */
};

#define SC_ALIGN(x) (((x) + 7) & ~(size_t)7)

/* The demangling flags dso's loader uses (symbol-elf.c: want_demangle()). */
static uint32_t sc_mode(const struct dso *dso)
{
	uint32_t f = 0;

	if (!dso->machine || dso->machine->demangle)
		f |= SC_DEMANGLE;
	if (dso->machine && dso->machine->demangle_params)
		f |= SC_PARAMS;
	return f;
}

static void sc_header__init(struct sc_header *h, const struct dso *dso, const char *runtime,
			    const struct stat *rst)
{
	memset(h, 0, sizeof(*h));
	file_ident__set(&h->rt, rst);
	h->rt_path_len = (uint32_t)strlen(runtime);
	h->flags = sc_mode(dso);
}

int symbol_cache__load(struct dso *dso, const char *path, const struct stat *st,
		       const char *runtime, const struct stat *rst)
{
	struct sc_header want, got;
	const unsigned char *p, *end;
	struct symbol **syms;
	void *base;
	size_t size, i;

	if (debug_cache__map(DEBUG_CACHE_SYMS, path, st, &base, &size))
		return -ENOENT;
	end = (const unsigned char *)base + size;
	sc_header__init(&want, dso, runtime, rst);
	if (size < sizeof(got))
		goto bad;
	memcpy(&got, base, sizeof(got));
	want.nr_symbols = got.nr_symbols;
	want.text_offset = got.text_offset;
	want.flags |= got.flags & SC_64BIT;
	if (memcmp(&want, &got, sizeof(got)) ||
	    size - sizeof(got) < SC_ALIGN(got.rt_path_len) ||
	    memcmp((const char *)base + sizeof(got), runtime, got.rt_path_len)) {
		pr_debug("%s: kept symbols were made for another runtime file or demangling: made again\n",
			 path);
		munmap(base, size);
		return -ENOENT;
	}
	p = (const unsigned char *)base + sizeof(got) + SC_ALIGN(got.rt_path_len);
	if (got.nr_symbols > (size_t)(end - p) / (sizeof(struct symbol) + 8))
		goto bad;
	syms = malloc((got.nr_symbols ? got.nr_symbols : 1) * sizeof(*syms));
	if (!syms) {
		munmap(base, size);
		return -ENOMEM;
	}
	for (i = 0; i < got.nr_symbols; i++) {
		const struct symbol *s = (const struct symbol *)p;
		const unsigned char *nul;
		size_t len;

		if ((size_t)(end - p) < sizeof(*s) + 1 ||
		    !(nul = memchr(s->name, '\0', (size_t)(end - p) - sizeof(*s))))
			break;
		len = (size_t)(nul - (const unsigned char *)s->name);
		/* a bool must be 0 or 1; a kept length must be the length;
		 * the record's padding must be in the file */
		if (*(const unsigned char *)&s->inlined > 1 ||
		    ((uint8_t)(s->name_len - 1) < SYMBOL_NAME_LEN_UNKNOWN - 1 && s->name_len != len) ||
		    (size_t)(end - p) < SC_ALIGN(sizeof(*s) + len + 1))
			break;
		syms[i] = (struct symbol *)s;
		p += SC_ALIGN(sizeof(*s) + len + 1);
	}
	if (i < got.nr_symbols) {
		free(syms);
		goto bad;
	}
	dso->symbols = syms;
	dso->nr_symbols = dso->nr_symbols_alloc = got.nr_symbols;
	dso->sym_map = base;
	dso->sym_map_size = size;
	dso->text_offset = got.text_offset;
	dso->is_64_bit = got.flags & SC_64BIT;
	pr_debug2("%s: %zu symbols from the kept table\n", path, (size_t)got.nr_symbols);
	return 0;
bad:
	pr_debug("%s: kept symbols are damaged: made again\n", path);
	munmap(base, size);
	return -EINVAL;
}

void symbol_cache__store(const struct dso *dso, const char *path, const struct stat *st,
			 const char *runtime, const struct stat *rst)
{
	static const char pad[8];
	struct sc_header h;
	unsigned char *buf, *p;
	size_t len = 0, i;

	for (i = 0; i < dso->nr_symbols; i++)
		len += SC_ALIGN(sizeof(struct symbol) + symbol__name_len(dso->symbols[i]) + 1);
	buf = zalloc(len ? len : 1);
	if (!buf)
		return;
	for (i = 0, p = buf; i < dso->nr_symbols; i++) {
		const struct symbol *s = dso->symbols[i];
		size_t n = sizeof(*s) + symbol__name_len(s) + 1;

		memcpy(p, s, n);
		p += SC_ALIGN(n);
	}
	sc_header__init(&h, dso, runtime, rst);
	h.nr_symbols = dso->nr_symbols;
	h.text_offset = dso->text_offset;
	if (dso->is_64_bit)
		h.flags |= SC_64BIT;
	debug_cache__store(DEBUG_CACHE_SYMS, path, st, (struct iovec[]){
		{ .iov_base = &h, .iov_len = sizeof(h) },
		{ .iov_base = (void *)runtime, .iov_len = h.rt_path_len },
		{ .iov_base = (void *)pad, .iov_len = SC_ALIGN(h.rt_path_len) - h.rt_path_len },
		{ .iov_base = buf, .iov_len = len },
	}, 4);
	free(buf);
}
