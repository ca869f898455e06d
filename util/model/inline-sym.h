/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_INLINE_SYM_H
#define PRF_MODEL_INLINE_SYM_H
/*
 * Interned synthetic symbols for inlined functions (DW_TAG_inlined_subroutine
 * levels reported by dso__inline_frames(), util/model/debuginfo.h), so that
 * callchain frames of inlined calls carry a struct symbol with
 * inlined = true, and consumers compare them by pointer.
 *
 * One symbol per (DSO, function name, range of the real function the code
 * was inlined into): start/end are the containing real symbol's, so
 * "name+offset" is computed against it, as perf 6.1 does (its inlined
 * symbols take the base symbol's range; its sort compares inlined symbols by
 * name and range). The same inline function inlined into two different
 * functions thus gives two symbols, each unique.
 *
 * Also interns strings per DSO (dso__intern_str()).
 * The table hangs on dso->priv (unused otherwise) and is freed by
 * dso__inline_syms_delete(), which dso__put() calls.
 * Thread-safe (one global mutex, taken only on lookups of inlined frames
 * that miss a small per-thread memo).
 */
#include <stdint.h>

struct dso;
struct symbol;

/*
 * The interned inlined symbol named name for DSO dso, with range
 * [start, end) (DSO address space; normally the real symbol's).
 * Returns a symbol owned by the DSO (lives until the DSO is freed), or
 * NULL on ENOMEM or a NULL/empty name.
 */
struct symbol *dso__inline_sym(struct dso *dso, const char *name, uint64_t start, uint64_t end);

/* Number of interned inlined symbols of dso (tests). */
unsigned int dso__nr_inline_syms(struct dso *dso);

/* Intern str for dso: the same pointer for equal strings, alive until
 * the DSO is freed (srcline fallbacks like "sym+12"). NULL on ENOMEM. */
const char *dso__intern_str(struct dso *dso, const char *str);

/*
 * The name perf 6.1 shows for a DWARF function name of dso (an inline
 * chain's level): demangled (C++, Rust) as dso's ELF symbols are (the
 * machine's demangle settings) and interned like dso__intern_str(); name
 * itself when it is not mangled, demangling is off, or on ENOMEM.
 */
const char *dso__inline_name(struct dso *dso, const char *name);

/* Free dso's interned inlined symbols; safe when there are none. */
void dso__inline_syms_delete(struct dso *dso);

#endif
