// SPDX-License-Identifier: GPL-2.0
/*
 * perf_mem_data_src decoded as perf 6.1 prints it (see mem-src.h). The
 * field layout is linux/perf_event.h's union perf_mem_data_src.
 */
#include <stdbool.h>
#include <stdio.h>
#include "mem-src.h"
#include "../lib/util.h"

/* snprintf() at out + l, the length kept within size */
#define PUT(out, size, l, ...)							\
	do {									\
		if ((l) < (size)) {						\
			int n_ = snprintf((out) + (l), (size) - (l), __VA_ARGS__);	\
			(l) += n_ > 0 ? (size_t)n_ : 0;				\
			if ((l) >= (size))					\
				(l) = (size) - 1;				\
		}								\
	} while (0)

/* "l1 or l2" of the set bits of v, names[i] for bit i; "" when none. */
static size_t mem_bits(char *out, size_t size, uint64_t v, const char *const *names, size_t nr)
{
	size_t l = 0;

	out[0] = '\0';
	for (size_t i = 0; i < nr && v; i++, v >>= 1)
		if (v & 1)
			PUT(out, size, l, "%s%s", l ? " or " : "", names[i]);
	return l;
}

/* out[0..l) "N/A" when empty, then " hit" / " miss" of the bits 2 and 4
 * of a level or TLB field (named apart from the others) */
static size_t na_hit_miss(char *out, size_t size, size_t l, unsigned int bits)
{
	if (!l)
		PUT(out, size, l, "N/A");
	if (bits & 2)
		PUT(out, size, l, " hit");
	if (bits & 4)
		PUT(out, size, l, " miss");
	return l;
}

size_t mem_src__lvl(uint64_t v, char *out, size_t size)
{
	static const char *const lvl_names[] = {
		"N/A", "HIT", "MISS", "L1", "LFB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
		"Uncached",
	};
	static const char *const lvlnum_names[16] = {
		[0x9] = "CXL", [0xa] = "I/O", [0xb] = "Any cache", [0xc] = "LFB", [0xd] = "RAM",
		[0xe] = "PMEM", [0xf] = "N/A",
	};
	static const char *const hops_names[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	unsigned int lvl = mem_src__lvl_bits(v), lvlnum = (v >> 33) & 0xf;
	unsigned int remote = (v >> 37) & 1, hops = (v >> 43) & 7;
	size_t l = 0, m;

	out[0] = '\0';
	/* the named bits (hit/miss apart), then the level number */
	if (remote)
		PUT(out, size, l, "Remote ");
	if (hops && hops < ARRAY_SIZE(hops_names))
		PUT(out, size, l, "%s ", hops_names[hops]);
	m = l < size ? mem_bits(out + l, size - l, lvl & ~6U, lvl_names, ARRAY_SIZE(lvl_names)) : 0;
	l += m;
	if (lvlnum) {
		if (lvlnum_names[lvlnum])
			PUT(out, size, l, "%s%s", m ? " or " : "", lvlnum_names[lvlnum]);
		else
			PUT(out, size, l, "%sL%u", m ? " or " : "", lvlnum);
	}
	return na_hit_miss(out, size, l, lvl);
}

size_t mem_src__snoop(uint64_t v, char *out, size_t size)
{
	static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx_names[] = { "Fwd", "Peer" };
	unsigned int snoopx = (v >> 38) & 3;
	size_t l = mem_bits(out, size, mem_src__snoop_bits(v), snoop_names, ARRAY_SIZE(snoop_names));

	if (snoopx) {
		char x[32];

		mem_bits(x, sizeof(x), snoopx, snoopx_names, ARRAY_SIZE(snoopx_names));
		PUT(out, size, l, "%s%s", l ? " or " : "", x);
	}
	if (!l)
		PUT(out, size, l, "N/A");
	return l;
}

size_t mem_src__tlb(uint64_t v, char *out, size_t size)
{
	static const char *const tlb_names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	unsigned int tlb = mem_src__tlb_bits(v);
	size_t l = mem_bits(out, size, tlb & ~6U, tlb_names, ARRAY_SIZE(tlb_names));

	return na_hit_miss(out, size, l, tlb);
}

size_t mem_src__lock(uint64_t v, char *out, size_t size)
{
	unsigned int lock = mem_src__lock_bits(v);
	size_t l = 0;

	PUT(out, size, l, "%s", (lock & 1) ? "N/A" : (lock & 2) ? "Yes" : "No");
	return l;
}

size_t mem_src__blk(uint64_t v, char *out, size_t size)
{
	unsigned int blk = mem_src__blk_bits(v);
	size_t l = 0;

	out[0] = '\0';
	if (!blk || (blk & 1)) {
		PUT(out, size, l, " N/A");
		return l;
	}
	if (blk & 2)
		PUT(out, size, l, " Data");
	if (blk & 4)
		PUT(out, size, l, " Addr");
	return l;
}

size_t mem_src__decode(uint64_t v, char *out, size_t size)
{
	static const char *const op_names[] = { "N/A", "LOAD", "STORE", "PFETCH", "EXEC" };
	char lv[160], sn[64], tl[64], lk[8], bk[16];
	unsigned int op = v & 0x1f, i;
	size_t l = 0;

	for (i = 0; i < ARRAY_SIZE(op_names) && !(op & (1u << i)); i++)
		;
	mem_src__lvl(v, lv, sizeof(lv));
	mem_src__snoop(v, sn, sizeof(sn));
	mem_src__tlb(v, tl, sizeof(tl));
	mem_src__lock(v, lk, sizeof(lk));
	mem_src__blk(v, bk, sizeof(bk));
	PUT(out, size, l, "|OP %s|LVL %s|SNP %s|TLB %s|LCK %s|BLK %s",
	    i < ARRAY_SIZE(op_names) ? op_names[i] : "No", lv, sn, tl, lk, bk);
	return l;
}
