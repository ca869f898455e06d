/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_SYMBOL_CACHE_H
#define PRF_MODEL_SYMBOL_CACHE_H
/*
 * ELF symbol tables kept between runs: a DSO's symbols as dso__load_elf()
 * made them (read from .symtab/.dynsym, demangled, aliases resolved, ends
 * fixed up, "name@plt" entries added), per symbol file, in the debug
 * cache (util/model/debug-cache.h, kind DEBUG_CACHE_SYMS: same directory,
 * size limit, eviction and staleness rules as the debug images). The next
 * run maps them and points the DSO's symbol array into the mapping
 * instead of reading the ELF symbol table, demangling, allocating and
 * sorting: loading python3.11's 10,300 symbols (from python3.11-dbg's
 * debug file) and libc's 3,800 was a seventh of a `prf script` on a
 * 100-sample recording.
 *
 * The file (host byte order; its trailer names the symbol file and the
 * layout's magic, debug-cache.c's kinds[]):
 *   struct sc_header: symbol count, text offset, the runtime file's
 *             identity (the file the PLT entries and text offset come
 *             from: device, inode, size, mtime, path length) and flags
 *             (demangled, with parameters; 64-bit ELF)
 *   the runtime file's path, padded to 8
 *   per symbol, sorted by start: struct symbol (dso.h) and its name with
 *             its NUL, padded to 8: used in place
 * A table made for another runtime file or another demangling mode is
 * not used (a table of this mode is made and kept again); one whose
 * records do not fit the file is refused with a -v message.
 */
#include <stdbool.h>
#include <sys/stat.h>

struct dso;

/*
 * Load dso's symbols from the table kept for the symbol file at path (st:
 * its stat()) with the runtime file at runtime (rst: its stat(); may be
 * the same file) and dso's demangling settings: the symbols point into a
 * mapping dso owns from then on (dso->sym_map, unmapped by
 * dso__free_symbols()); dso->text_offset and is_64_bit are set. The
 * symbols still need dso__symbols_finish(). 0; -ENOENT: no table kept for
 * these files and settings (or no cache); -EINVAL: the table is damaged;
 * -ENOMEM.
 */
int symbol_cache__load(struct dso *dso, const char *path, const struct stat *st,
		       const char *runtime, const struct stat *rst);

/*
 * Keep dso's symbols (finished: dso__symbols_finish()) as the table of
 * the symbol file at path with the runtime file at runtime (st, rst as
 * for symbol_cache__load(), from before the files were read). Quiet on
 * failure: -v says why.
 */
void symbol_cache__store(const struct dso *dso, const char *path, const struct stat *st,
			 const char *runtime, const struct stat *rst);

#endif
