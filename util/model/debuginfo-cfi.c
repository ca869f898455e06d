// SPDX-License-Identifier: GPL-2.0
/*
 * CFI of a DSO (debuginfo-internal.h): the frame state at an address from
 * the image's .eh_frame (with its .eh_frame_hdr index) first, the
 * DWARF's .debug_frame second (DWARF 5 section 6.4), through libdw, and
 * the DSO's direct-mapped cache of rows, which grows with use (struct
 * cache_size) and keeps the unwinder's decoded form of each row beside
 * libdw's (util/model/cfi-memo.h is the per-thread memo in front of it).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <elfutils/libdw.h>

#include "debuginfo-internal.h"
#include "../lib/debug.h"
#include "../lib/util.h"

struct cfi_slot {
	uint64_t start, end;	/* [start, end) the row applies to */
	Dwarf_Frame *frame;	/* NULL: negative entry */
	void *priv;		/* caller's decoded form of frame (malloc'd) */
	bool used;
};

/*
 * The row at vaddr and the range [*start, *end) it is known to cover. The
 * range starts at vaddr itself: after DW_CFA_restore_state libdw (0.188)
 * reports the remembered row's start, which lies before rows in between
 * (an epilogue's: glibc has many), so only [vaddr, end) is safe to reuse.
 */
static Dwarf_Frame *cfi__frame(Dwarf_CFI *cfi, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Addr s, e;

	if (!cfi || dwarf_cfi_addrframe(cfi, vaddr, &frame) || !frame)
		return NULL;
	if (dwarf_frame_info(frame, &s, &e, NULL) < 0 || vaddr < s || vaddr >= e)
		e = vaddr + 1;
	*start = vaddr;
	*end = e;
	return frame;
}

/* The image's .eh_frame CFI (the image is loaded), made on first use;
 * NULL when it has none. */
static Dwarf_CFI *debuginfo__eh_cfi(struct debuginfo *di)
{
	if (!di->cfi.eh_tried) {
		di->cfi.eh_tried = true;
		di->cfi.eh = dwarf_getcfi_elf(di->file.elf);
	}
	return di->cfi.eh;
}

/* The DWARF's .debug_frame CFI (the DWARF is loaded), of the debug file
 * or the image; NULL when it has none. */
static Dwarf_CFI *debuginfo__dbg_cfi(struct debuginfo *di)
{
	if (!di->cfi.dbg_tried) {
		di->cfi.dbg_tried = true;
		di->cfi.dbg = dwarf_getcfi(di->file.dwarf);
	}
	return di->cfi.dbg;
}

/* .eh_frame first, .debug_frame (of the debug file too) second */
static Dwarf_Frame *debuginfo__cfi_lookup(struct debuginfo *di, uint64_t vaddr, uint64_t *start,
					  uint64_t *end)
{
	Dwarf_Frame *frame = cfi__frame(debuginfo__eh_cfi(di), vaddr, start, end);

	if (!frame)
		pr_debug2("debuginfo: %s: no .eh_frame CFI at %#" PRIx64 "\n", di->dso->long_name,
			  vaddr);
	if (!frame && !debuginfo__load_dwarf(di))
		frame = cfi__frame(debuginfo__dbg_cfi(di), vaddr, start, end);
	return frame;
}

void *debuginfo__cfi_frame_uncached(struct debuginfo *di, uint64_t vaddr)
{
	uint64_t start, end;

	return debuginfo__cfi_lookup(di, vaddr, &start, &end);
}

/* Free the CFI cache and its rows (it is made again at its next use). */
static void cfi_cache__drop(struct debuginfo *di)
{
	for (size_t i = 0; di->cfi.slots && i < di->cfi.nr_slots; i++) {
		free(di->cfi.slots[i].frame);
		free(di->cfi.slots[i].priv);
	}
	zfree(&di->cfi.slots);
	di->cfi.nr_slots = 0;
}

void *debuginfo__cfi_frame(struct debuginfo *di, uint64_t vaddr, void ***priv,
			   uint64_t *start_out, uint64_t *end_out)
{
	struct cfi_slot *slot;
	uint64_t start = vaddr, end = vaddr + 1;
	Dwarf_Frame *frame;

	/* made again bigger here, not when it filled: the last call's
	 * caller used its slot until now */
	if (di->cfi.slots && di->cfi.nr_slots != (size_t)1 << di->cfi.size.bits)
		cfi_cache__drop(di);
	if (!di->cfi.slots) {
		di->cfi.slots = zalloc_written(sizeof(*di->cfi.slots) << di->cfi.size.bits);
		if (!di->cfi.slots)
			return NULL;
		di->cfi.nr_slots = (size_t)1 << di->cfi.size.bits;
	}
	slot = &di->cfi.slots[(vaddr ^ (vaddr >> 10)) & (di->cfi.nr_slots - 1)];
	if (priv)
		*priv = &slot->priv;
	if (!(slot->used && vaddr >= slot->start && vaddr < slot->end)) {
		frame = debuginfo__cfi_lookup(di, vaddr, &start, &end);
		free(slot->frame);
		zfree(&slot->priv);
		slot->used = true;
		slot->frame = frame;
		slot->start = frame ? start : vaddr;
		slot->end = frame ? end : vaddr + 1;
		cache_size__fill(&di->cfi.size);
	}
	if (start_out)
		*start_out = slot->start;
	if (end_out)
		*end_out = slot->end;
	return slot->frame;
}

void debuginfo__cfi_free(struct debuginfo *di)
{
	cfi_cache__drop(di);
	if (di->cfi.eh)
		dwarf_cfi_end(di->cfi.eh);
}
