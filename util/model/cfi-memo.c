// SPDX-License-Identifier: GPL-2.0
/*
 * The CFI row memo's tables (cfi-memo.h) and its miss path: the DSO's
 * locked CFI cache (debuginfo__cfi_frame()), whose slots keep the row
 * decoded once (cfi_row__new()) beside libdw's frame.
 */
#include <errno.h>
#include <string.h>
#include <elfutils/libdw.h>

#include "cfi-memo.h"
#include "debuginfo.h"

__thread struct thread_memo cfi_memo = THREAD_MEMO_INIT(CFI_MEMO_MIN_BITS, CFI_MEMO_MAX_BITS);
__thread struct cfi_memo_set cfi_memo_one;

__attribute__((noinline)) int
dso__cfi_row_locked(struct dso *dso, uint64_t off, unsigned int nregs, struct cfi_row *buf,
		    const struct cfi_row **rowp, struct cfi_memo *memo, unsigned int gen)
{
	struct debuginfo *di;
	struct cfi_row **priv;
	Dwarf_Frame *frame;
	uint64_t vaddr, start, end;
	int ret = -ENOENT;

	di = dso__debuginfo(dso);
	if (!di)
		return -ENOMEM;
	debuginfo__lock(di);
	if (debuginfo__load_elf(di) || debuginfo__offset_to_vaddr(di, off, &vaddr))
		goto out;
	frame = debuginfo__cfi_frame(di, vaddr, (void ***)&priv, &start, &end);
	if (!frame)
		goto out;
	if (!*priv)
		*priv = cfi_row__new(frame, nregs);
	if (!*priv)
		goto out;
	if ((*priv)->simple) {
		memo->dso = dso;
		memo->gen = gen;
		memo->lo = off - (vaddr - start);
		memo->hi = off + (end - vaddr);
		memo->row = **priv;
		*rowp = &memo->row;
	} else {
		memcpy(buf, *priv, (*priv)->size);
		*rowp = buf;
	}
	ret = 0;
out:
	debuginfo__unlock(di);
	return ret;
}
