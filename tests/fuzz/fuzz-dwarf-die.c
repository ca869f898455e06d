// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: prf's DIE walker (util/model/dwarf-die.h) on
 * mutated units, the bytes `prf report`/`script` walk for functions and
 * inline frames in a debug file. Input: a 2-byte little-endian length,
 * that many bytes of .debug_abbrev, then .debug_info (each a private,
 * exactly sized copy, so ASan sees a read one byte past it); the
 * .debug_info bytes also serve as .debug_ranges, .debug_rnglists and
 * .debug_addr, so list offsets land somewhere. The first unit is opened
 * as DWARF 4 and as DWARF 5 (unit DIE at 11 and 12), its functions
 * walked, then each function's scopes; every reported DIE must lie in
 * the unit, every depth below the limit. Seeds: the first unit of small
 * programs compiled with gcc (DWARF 2-5) and clang.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/model/dwarf-die.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	uint64_t lo_off, hi_off;
	uint64_t funcs[64];
	size_t n;
};

static int check(void *arg, unsigned int depth, uint64_t off, uint64_t parent, uint64_t lo,
		 uint64_t hi)
{
	struct seen *s = arg;

	if (off < s->lo_off || off >= s->hi_off || depth >= 63)
		abort();
	if (s->n < 64)
		s->funcs[s->n++] = off;
	return 0;
}

static unsigned char *dup_bytes(const uint8_t *p, size_t n)
{
	unsigned char *c = malloc(n ? n : 1);

	if (c)
		memcpy(c, p, n);
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dwarf_die_secs secs;
	unsigned char *abbrev, *info;
	size_t alen, ilen;

	if (size < 2)
		return 0;
	alen = data[0] | (size_t)data[1] << 8;
	if (alen > size - 2)
		return 0;
	ilen = size - 2 - alen;
	abbrev = dup_bytes(data + 2, alen);
	info = dup_bytes(data + 2 + alen, ilen);
	if (!abbrev || !info)
		goto out;
	secs = (struct dwarf_die_secs){ info, ilen, abbrev, alen, info, ilen, info, ilen, info, ilen };
	for (uint64_t cu_off = 11; cu_off <= 12; cu_off++) {
		struct dwarf_unit *u;
		struct seen fs = { cu_off, ilen, { 0 }, 0 };

		if (dwarf_unit__new(&secs, cu_off, 4, &u))
			continue;
		dwarf_unit__funcs(u, check, &fs);
		for (size_t i = 0; i < fs.n; i++) {
			struct seen ss = { fs.funcs[i], ilen, { 0 }, 0 };

			dwarf_unit__scopes(u, fs.funcs[i], 63, check, &ss);
		}
		dwarf_unit__delete(u);
	}
out:
	free(abbrev);
	free(info);
	return 0;
}
