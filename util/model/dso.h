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

#define BUILD_ID_SIZE 20

struct build_id {
	uint8_t data[BUILD_ID_SIZE];
	size_t size;		/* 0: unknown */
};

struct symbol {
	uint64_t start;		/* DSO address space */
	uint64_t end;		/* exclusive */
	uint8_t binding;	/* STB_GLOBAL, STB_WEAK, STB_LOCAL */
	uint8_t type;		/* STT_FUNC, ... */
	bool inlined;
	char name[];		/* demangled */
};

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
};

/* Find the symbol containing addr (DSO address space), loading symbols on
 * first use; NULL if none. The symbol is owned by the DSO. */
struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);
/* Load symbols now; 0 or -errno (symbols may be empty on failure). */
int dso__load(struct dso *dso);
/* Hex build-id into buf (>= 2*BUILD_ID_SIZE+1 bytes); returns length. */
int build_id__sprintf(const struct build_id *bid, char *buf);
/* Read the NT_GNU_BUILD_ID note of an ELF file. 0 or -errno. */
int filename__read_build_id(const char *path, struct build_id *bid);

#endif
