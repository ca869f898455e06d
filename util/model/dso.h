/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DSO_H
#define PRF_MODEL_DSO_H
/*
 * DSO: one object file (executable, shared library, [kernel.kallsyms],
 * kernel module, [vdso], JIT map) shared by every map that maps it, with
 * its build-id and lazily loaded symbol table. Symbols are loaded once per
 * DSO (ELF .symtab/.dynsym + PLT via libelf, debug file by build-id or
 * .gnu_debuglink, kallsyms for the kernel, /tmp/perf-PID.map for JIT),
 * sorted by address, and looked up by binary search.
 *
 * Addresses: symbols are kept in the DSO's own address space, i.e. the
 * ELF st_value space (relative to the link address); map__map_ip()
 * converts a sampled ip into that space.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "../format/event.h"	/* struct build_id */

struct symbol {
	uint64_t start;		/* DSO address space */
	uint64_t end;		/* exclusive */
	uint8_t binding;	/* STB_GLOBAL, STB_WEAK, STB_LOCAL */
	uint8_t type;		/* STT_FUNC, ... */
	bool inlined;
	uint8_t name_len;	/* strlen(name) when 1..254, else unknown (in the
				   padding: see symbol__name_len()) */
	uint32_t idx;		/* load order (alias choice for kallsyms) */
	char name[];		/* demangled */
};

#define SYMBOL_NAME_LEN_UNKNOWN 255

/* Record strlen(sym->name) = len in the symbol (unknown past 254). */
static inline void symbol__set_name_len(struct symbol *sym, size_t len)
{
	sym->name_len = len < SYMBOL_NAME_LEN_UNKNOWN ? (uint8_t)len : SYMBOL_NAME_LEN_UNKNOWN;
}

/* strlen(sym->name), without counting for the short names whose length
 * the symbol keeps (0 is also "unknown": a symbol set up without it). */
static inline size_t symbol__name_len(const struct symbol *sym)
{
	if ((uint8_t)(sym->name_len - 1) < SYMBOL_NAME_LEN_UNKNOWN - 1)
		return sym->name_len;
	return strlen(sym->name);
}

/*
 * Order of two different symbols a and b of one DSO over the same range
 * [start, end): an inlined frame's symbol has its function's range, as
 * has a renamed one (perf 6.1's sort compares inlined symbols by name
 * first). By name, then inlined after not, then (never expected: one
 * symbol per name and range) by address. Never the address alone: the
 * kept symbol tables are mapped, inlined symbols on the heap, and their
 * addresses' order changes from run to run with ASLR. <0, 0, >0.
 */
static inline int symbol__same_range_cmp(const struct symbol *a, const struct symbol *b)
{
	int r = strcmp(a->name, b->name);

	if (r)
		return r < 0 ? -1 : 1;
	if (a->inlined != b->inlined)
		return a->inlined ? 1 : -1;
	return a == b ? 0 : (uintptr_t)a < (uintptr_t)b ? -1 : 1;
}

enum dso_kind {
	DSO_USER,		/* ELF on disk */
	DSO_KERNEL,		/* [kernel.kallsyms] */
	DSO_KMODULE,		/* [module] */
	DSO_VDSO,		/* [vdso] */
	DSO_JIT,		/* /tmp/perf-PID.map */
	DSO_ANON,		/* //anon, [heap], [stack], ... */
};

struct dso {
	char *long_name;	/* path as mapped, "[kernel.kallsyms]" */
	char *short_name;	/* basename, as perf's Shared Object column */
	size_t long_name_len;	/* strlen(long_name); 0: unknown (dso__long_name_len()) */
	enum dso_kind kind;
	struct build_id bid;	/* from perf.data or the file */
	bool has_build_id;
	bool symbols_loaded;
	bool build_id_mismatch;	/* file on disk differs from the recording */
	struct symbol **symbols;/* sorted by start */
	size_t nr_symbols;
	uint64_t text_offset;	/* ELF: p_vaddr - p_offset of the exec segment */
	int refcnt;
	void *debuginfo;	/* libdw state for srcline/inline/unwind (lazy) */
	void *priv;
	/* added by the model layer */
	struct machine *machine;/* owner: --symfs, --kallsyms, demangle settings */
	char *symsrc_path;	/* file the symbols came from (owned), or NULL */
	char *runtime_path;	/* ELF file on disk matching the DSO (owned), or NULL:
				   the executable/library, for unwinders and srcline */
	bool mismatch_warned;
	bool is_64_bit;
	bool aliases_last;	/* kallsyms: of symbols at one address the last
				   listed wins (perf: the others get size 0) */
	uint64_t kernel_text;	/* kernel: recorded _text (pgoff of its MMAP), 0 unknown */
	size_t nr_symbols_alloc;
	uint64_t *sym_starts;	/* symbols[i]->start, contiguous for the binary search */
	uint32_t *sym_buckets;	/* address bucket b -> last symbol starting at or
				   before sym_starts[0] + (b << sym_shift) */
	size_t nr_sym_buckets;
	unsigned int sym_shift;
	void *sym_arena;	/* chunks the symbols are allocated from */
	void *sym_map;		/* or the kept table they lie in (symbol-cache.h) */
	void *file_syms;	/* dso__symtab_srcline()'s table (lazy) */
	void *data_syms;	/* dso__find_data_symbol()'s table (lazy) */
	size_t sym_map_size;
	bool load_queued;	/* handed to a background loader (dso-loader.h);
				   read and written by the thread that queued it */
};

struct machine;

/* New DSO for path (long_name copied; short_name derived as perf's
 * "Shared Object" column: basename, or the name itself for "[...]").
 * kind from the name ([kernel.kallsyms], [vdso], //anon, [heap]...).
 * refcnt 1; NULL on ENOMEM. Normally created by the machine. */
struct dso *dso__new(const char *path);
/* Take a reference (atomic count, as map's). */
struct dso *dso__get(struct dso *dso);
/* strlen(dso->long_name), kept by dso__new() (counted for a DSO set up
 * without it). */
static inline size_t dso__long_name_len(const struct dso *dso)
{
	return dso->long_name_len ? dso->long_name_len : strlen(dso->long_name);
}
/* Drop a reference; the last one frees symbols and names. */
void dso__put(struct dso *dso);
/* DSO objects not yet freed in the whole process (in a machine's table
 * or kept by a reference). */
size_t dso__nr_alive(void);
/* Record the build-id from perf.data (MMAP2 or BUILD_ID feature). */
void dso__set_build_id(struct dso *dso, const struct build_id *bid);
/*
 * perf's build-id cache directory: the buildid.dir key of the
 * configuration files (perf-config(1)), else $HOME/.debug; NULL when
 * neither is set. Read once, from any thread; process lifetime.
 */
const char *dso__buildid_dir(void);

/* Append a symbol [start, start+len) (DSO address space) named name
 * (copied; demangled when demangle is true). Used by the loaders; the
 * array is sorted and fixed up by dso__symbols_finish(). 0 or -ENOMEM. */
int dso__add_symbol(struct dso *dso, uint64_t start, uint64_t len, uint8_t binding,
		    uint8_t type, const char *name, bool demangle);
/*
 * Whether symbol a is a better name than symbol b for the same address
 * (sizes in bytes, ELF STB_* bindings). The order matches what perf 6.1
 * keeps of aliases (e.g. libc's execve, __execve, __GI_execve,
 * __GI___execve -> "__GI___execve"): sized first, then non-weak, then
 * global, then fewer leading underscores, then the longer name; false on
 * a tie (the first one listed stays).
 */
bool symbol__better_name(uint64_t a_size, uint8_t a_binding, const char *a_name,
			 uint64_t b_size, uint8_t b_binding, const char *b_name);
/* Sort, drop duplicates at the same address (keeping the best name: sized,
 * non-weak > weak, global > local, fewer leading '_', longer; for
 * kallsyms (dso->aliases_last) the last one listed), and give zero-size
 * symbols the end of the next symbol's start. */
void dso__symbols_finish(struct dso *dso);
/* dso__symbols_finish() in perf 6.1's order for an ELF table: zero-size
 * symbols sized to the next start first, then the duplicates dropped by
 * those sizes (a zero-size global alias can so win over a sized local
 * one). Used for the data symbols (dso__find_data_symbol()). */
void dso__symbols_finish_ends_first(struct dso *dso);
/* Free the symbol table (for reloads in tests). */
void dso__free_symbols(struct dso *dso);

/*
 * Load ELF symbols of the file at path into dso (the symbols' file), with
 * PLT entries and the text offset taken from runtime (the mapped file; may
 * equal path). Low level; dso__load() finds the files. 0 or -errno.
 */
int dso__load_elf(struct dso *dso, const char *path, const char *runtime);
/*
 * The source line perf 6.1 shows for addr (ELF st_value space) of a DSO
 * on disk where the DWARF has no line for it (code built without -g,
 * crt files, assembler entry points), or no DWARF is there: what
 * binutils' addr2line answers from the symbol table of the file the
 * symbols came from: "FILE:0" after the FILE symbol before a local
 * function ("t.c:0", ":0" after the linker's empty one), else "??:0".
 * Interned (dso__intern_str()), never freed by the caller; NULL when no
 * function symbol is at or below addr in its section (a stripped
 * program's code: addr2line finds nothing and perf falls back to its
 * "DSO[addr]" and "sym+off" forms), when the file cannot be read as ELF,
 * or on ENOMEM. Thread-safe; the table is read once.
 */
const char *dso__symtab_srcline(struct dso *dso, uint64_t addr);
void dso__symtab_srcline_delete(struct dso *dso);
/* Same from an ELF image in memory (the vdso). 0 or -errno. */
int dso__load_elf_mem(struct dso *dso, void *image, size_t size);
/* Build-id of an ELF image in memory. 0 or -errno. */
int elf_mem__read_build_id(void *image, size_t size, struct build_id *bid);
/* Build-id of this machine's vdso image (the one our own process maps,
 * the same in every process of this kernel; util/model/vdso.c).
 * 0 or -ENOENT. */
int vdso__build_id(struct build_id *bid);
/* That image: *image (owned by vdso.c, kept for the process's life) and
 * *size (bytes). 0 or -ENOENT (no [vdso] in /proc/self/maps). */
int vdso__image(const void **image, size_t *size);
struct feat_build_id;
/* The same as HEADER_BUILD_ID's "[vdso]" entry (user, at most 20 bytes),
 * as perf record and inject write it. 0 or -ENOENT. */
int vdso__feat_build_id(struct feat_build_id *b);
/*
 * The file name in the .gnu_debuglink section of the ELF image
 * image[0..size) (not modified, but libelf's API takes it writable), as
 * elf__read_debuglink() gives it for a file: 0 and buf filled
 * (NUL-terminated), -ENOENT when there is no usable section (or the name
 * does not fit in size bytes), -EINVAL when the image is not ELF.
 */
int elf_mem__read_debuglink(void *image, size_t size, char *buf, size_t buf_size);

/*
 * Load dso's symbols as dso__load_elf() does for files: symbols from the
 * image image[0..size) (.symtab, else .dynsym), the text offset and the
 * "name@plt" entries from the runtime image rimage[0..rsize) (pass the
 * same image twice when they are one file), dso__symbols_finish() on the
 * ELF symbols before the PLT entries. path (may be NULL) becomes
 * dso->symsrc_path on success, as the file path does in dso__load_elf().
 * Images stay the caller's. 0, -ENODATA (no symbols), -EINVAL (not ELF),
 * -ENOMEM.
 */
int dso__load_elf_image(struct dso *dso, void *image, size_t size, void *rimage, size_t rsize,
			const char *path);
/* Symbols from a perf map file ("START SIZE name" hex lines, /tmp/perf-PID.map).
 * 0 or -errno. */
int dso__load_perf_map(struct dso *dso, const char *path);
/*
 * Whether the kernel DSO (kind DSO_KERNEL) could hold a symbol called
 * name, told without loading its symbols: false only when the build-id
 * cache copy of its kallsyms (the file dso__load() reads for the running
 * kernel) names no such symbol; with the symbols loaded, whether one is
 * there; true when it cannot be told cheaply (a module, -k vmlinux,
 * --kallsyms, no cached copy). For consumers that look for symbols by
 * name and would otherwise load the kernel's symbols for nothing.
 */
bool dso__kernel_may_have_symbol(struct dso *dso, const char *name);
/* Kernel / module symbols from a kallsyms file (dso kind KERNEL: every
 * non-module symbol; KMODULE: symbols tagged [short name]). 0 or -errno. */
int dso__load_kallsyms(struct dso *dso, const char *path);

/*
 * Demangle a C++ (Itanium "_Z"), or Rust legacy/v0 symbol with libiberty.
 * params: with parameter lists and cv-qualifiers (DMGL_PARAMS|DMGL_ANSI,
 * what c++filt prints); without (what perf 6.1 shows unless -v, and what
 * `c++filt -p` prints). Returns a malloc'd string, or NULL when name is
 * not mangled or cannot be demangled.
 */
char *demangle_sym(const char *name, bool params);

/* name has a prefix demangle_sym() handles ("_Z", "_R"); false for NULL. */
bool name__mangled(const char *name);

/* Binary-search symbol lookup without loading (symbols must be loaded and
 * finished: uses dso->sym_starts). */
struct symbol *dso__find_symbol_loaded(const struct dso *dso, uint64_t addr);

/*
 * The symbol perf 6.1 names for a data address (a sample's
 * PERF_SAMPLE_ADDR) at file offset off of dso (the address - map start +
 * pgoff): the symbol containing it in the table perf looks data up in,
 * which besides the functions, labels and PLT entries of the function
 * table holds the named objects (STT_OBJECT) of the loaded sections
 * (.data, .bss, .rodata, ...), duplicates resolved and zero sizes
 * extended to the next symbol (before the duplicates go, as perf). Its
 * symbols are at file offsets, as perf 6.1 keeps them (st_value moved by
 * the loadable segment holding it), plus text_offset (the space function
 * symbols are kept in): *addr gets off + text_offset, and the offset into
 * the symbol is *addr - sym->start. A code symbol found there that the
 * function table has too (same name and range) is answered by the
 * function table's object, so
 * both lookups name one symbol as perf's one tree does. The table is read
 * from the DSO's symbol file the first time (thread-safe); a DSO without
 * an ELF file (kernel, vdso, JIT) answers from its function symbols with
 * off + text_offset. NULL when no symbol holds the address (or on
 * ENOMEM). Owned by the DSO.
 */
struct symbol *dso__find_data_symbol(struct dso *dso, uint64_t off, uint64_t *addr);
/* Free the table of dso__find_data_symbol() (dso__put() does). */
void dso__data_syms_delete(struct dso *dso);

/* Find the symbol containing addr (DSO address space), loading symbols on
 * first use; NULL if none. The symbol is owned by the DSO. */
struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);
/* Load symbols now (once; later calls return 0). Kernel: -k vmlinux, else
 * --kallsyms or /proc/kallsyms; user: the file under --symfs, its debug file
 * (by build-id under /usr/lib/debug/.build-id, ~/.debug build-id cache,
 * .gnu_debuglink, /usr/lib/debug/<path>); a recorded build-id that differs
 * from the file's marks build_id_mismatch and warns once (symbols of that
 * file are not used). 0 or -errno (symbols may be empty on failure). */
int dso__load(struct dso *dso);
/*
 * This thread's dso__load() of a DSO whose symbols are not loaded asks
 * fn(dso, arg) first: when fn returns true (it queued the DSO for a
 * background loader, util/model/dso-loader.h), the load is deferred:
 * dso__load() returns -EAGAIN without touching the DSO, lookups find no
 * symbol and map__map_ip() answers without the text offset, and the
 * thread's dso__load_deferrals() count goes up. fn NULL: loads happen in
 * place again. Per thread; other threads load as before.
 */
void dso__set_load_hook(bool (*fn)(struct dso *dso, void *arg), void *arg);
/* How many loads this thread deferred so far (see dso__set_load_hook()):
 * a resolution that raised it named a DSO whose symbols are coming. */
unsigned long dso__load_deferrals(void);
/*
 * Load the symbols of a DSO no other thread sees (a loader's private
 * copy, dso-loader.c) without the lock that keeps loads of shared DSOs
 * apart, so that a long load blocks no other thread's load. The kinds
 * whose loaders keep no process-wide state only: DSO_USER, DSO_KERNEL,
 * DSO_KMODULE (-EINVAL for the others). 0 or -errno, as dso__load().
 */
int dso__load_private(struct dso *dso);
/*
 * Move what a load put into src (symbols and their index, text offset,
 * the files used, a build-id dst lacks, 64-bit, mismatch marks) into
 * dst, whose symbols are not loaded, and mark dst loaded (release order:
 * a thread that sees it loaded sees the table). src is left without
 * symbols; the caller puts it. Only on the thread that owns dst's
 * changes (the session's); dst's table is read-only from then on.
 */
void dso__adopt_symbols(struct dso *dst, struct dso *src);
/* Hex build-id into buf (>= 2*BUILD_ID_SIZE+1 bytes); returns length. */
int build_id__sprintf(const struct build_id *bid, char *buf);
/* Read the NT_GNU_BUILD_ID note of an ELF file. 0 or -errno (-ENOENT: no
 * file, -ENODATA: no build-id note). */
int filename__read_build_id(const char *path, struct build_id *bid);

#endif
