/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DWARF_RD_H
#define PRF_MODEL_DWARF_RD_H
/*
 * Bounded little-endian reads of DWARF section bytes, shared by prf's
 * line program reader (dwarf-line.c) and DIE walker (dwarf-die.c):
 * fixed-size values, LEB128 (DWARF 5 standard section 7.6) and strings.
 * A read past the end sets bad and yields 0; callers check bad once
 * after a group of reads. Host byte order must be little-endian (the
 * callers' *_secs__from_elf() refuse other files).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <gelf.h>
#include <libelf.h>

#include "model.h"

struct rd {
	const unsigned char *p, *end;
	bool bad;		/* read past end (values read as 0) */
};

/* An n-byte (n <= 8) unsigned value. */
static inline uint64_t rd_u(struct rd *r, unsigned int n)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	memcpy(&v, r->p, n);	/* little-endian host: the low n bytes */
	r->p += n;
	return v;
}

/* An unsigned LEB128; bits past 64 are dropped. */
static inline uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (r->p < r->end) {
		unsigned char b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return v;
}

/* A signed LEB128. */
static inline int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	unsigned char b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	r->bad = true;
	return (int64_t)v;
}

/* Skip n bytes. */
static inline void rd_skip(struct rd *r, uint64_t n)
{
	if (n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		r->p = r->end;
		return;
	}
	r->p += n;
}

/* A NUL-terminated string at r->p, or NULL (none before end). */
static inline const char *rd_str(struct rd *r)
{
	const unsigned char *nul = memchr(r->p, 0, (size_t)(r->end - r->p));
	const char *s = (const char *)r->p;

	if (!nul) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	r->p = nul + 1;
	return s;
}

/* The string at offset off of a string section, or NULL. */
static inline const char *sec_str(const unsigned char *sec, size_t len, uint64_t off)
{
	if (!sec || off >= len || !memchr(sec + off, 0, len - off))
		return NULL;
	return (const char *)sec + off;
}

/* The data of elf's section name when it holds plain bytes (not NOBITS,
 * not still compressed), or NULL; its size in *len. */
static inline const unsigned char *section_bytes(Elf *elf, const char *name, size_t *len)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf__find_section(elf, name, &sh);
	Elf_Data *d;

	*len = 0;
	if (!scn || sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED) ||
	    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return NULL;
	*len = d->d_size;
	return d->d_buf;
}

/* Is elf a little-endian file and this host little-endian too? */
static inline bool elf__le_on_le(Elf *elf)
{
	const char *ident;

	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && elf &&
	       (ident = elf_getident(elf, NULL)) && ident[EI_DATA] == ELFDATA2LSB;
}

#endif
