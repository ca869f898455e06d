/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_DISASM_H
#define PRF_MODEL_DISASM_H
/*
 * Disassembly of a symbol's code, in process, with the Capstone library
 * (x86-64 and i386; AT&T syntax as objdump's default, or Intel): the
 * symbol's bytes are read from the DSO's ELF file on disk (the runtime
 * file the model matched to the recording, its PT_LOAD table mapping
 * link-time addresses to file offsets), never through a child process.
 *
 * Addresses are the DSO address space (ELF st_value, as dso.h symbols).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct dso;

struct disasm_insn {
	uint64_t addr;		/* DSO address space */
	uint16_t size;		/* bytes */
	bool is_jump;		/* a jump (conditional or not) */
	bool is_call;
	bool is_ret;
	bool has_target;	/* jump/call to an immediate address: target */
	bool has_ref;		/* RIP-relative memory operand at ref */
	bool disp0_encoded;	/* a memory operand's zero displacement is encoded
				 * (ModRM mod 1 or 2): objdump prints "0x0(...)" */
	uint8_t imm_size;	/* bytes of an immediate operand, 0: none */
	uint64_t target;
	uint64_t ref;
	uint8_t bytes[16];	/* the encoding (size bytes) */
	const char *mnemonic;	/* Capstone's, prefixes included ("rep stosq");
				 * owned by the disasm_code */
	const char *op_str;	/* Capstone's operand text; owned likewise */
};

struct disasm_text;		/* the instructions' text, in blocks */

#define DISASM_SECTIONS_MAX 8

struct disasm_code {
	struct disasm_insn *insns;	/* in address order; owned */
	size_t nr;
	char section[64];		/* name of the ELF section the code starts in */
	/* the further code sections the range runs into, in address order
	 * (objdump prints each under its own "Disassembly of section" line;
	 * the bytes between sections are not decoded) */
	struct {
		uint64_t addr;		/* where the section starts */
		char name[32];
	} more[DISASM_SECTIONS_MAX];
	int nr_more;
	struct disasm_text *text;	/* owned: what mnemonic and op_str point into */
	void *map;			/* owned: a kept disassembly's mapping, which
					 * they point into instead (disasm-cache.h) */
	size_t map_size;
	const void *notes;		/* what a caller kept with the disassembly
					 * (dso__disasm_keep_notes()), in the mapping;
					 * NULL: none */
	size_t notes_len;		/* bytes */
	bool keep;			/* the range is kept between runs: kept_st is
					 * the stat() of its file then */
	struct stat kept_st;
};

/*
 * Disassemble [start, end) of dso (link-time addresses of its ELF file
 * on disk, dso->runtime_path, loaded by dso__load()), in Intel syntax
 * when intel is set, else AT&T. Undecodable bytes become one ".byte 0xNN"
 * "(bad)" instruction each, as objdump shows them. Fills *code (free with
 * disasm_code__exit()). 0; -ENOENT (no file for the DSO, or the range is
 * in no loaded segment), -EOPNOTSUPP (not an x86 ELF file), -EIO (read),
 * -ENOSYS (libcapstone cannot be loaded: it is opened at the first call,
 * not linked), -ENOMEM.
 */
int dso__disasm(struct dso *dso, uint64_t start, uint64_t end, bool intel,
		struct disasm_code *code);

/* Free what dso__disasm() filled. Idempotent. */
void disasm_code__exit(struct disasm_code *code);

/*
 * dso__disasm() answered from a kept disassembly only: 0 (*code filled as
 * dso__disasm() fills it), -ENOENT (none kept for the range and syntax:
 * dso__disasm() would decode it), -ENOMEM.
 */
int dso__disasm_kept(struct dso *dso, uint64_t start, uint64_t end, bool intel,
		     struct disasm_code *code);

/*
 * Whether code (of dso__disasm() or dso__disasm_kept()) is kept between
 * runs, so that dso__disasm_keep_notes() would keep notes with it: a big
 * enough range of a file, with a cache directory (debug-cache.h).
 */
bool disasm_code__keeps(const struct disasm_code *code);

/*
 * Keep len bytes of notes (copied) with code's disassembly of [start,
 * end) of dso in its syntax, for later runs' dso__disasm() of the same
 * range and syntax to return as code.notes: what a caller derived from
 * the instructions and other files, whose identity it records in the
 * notes and checks itself (the notes go when the disassembly does: a
 * changed file, prf or Capstone). Written when the disassemblies are
 * (disasm_cache__flush()), replacing the notes kept before. Nothing when
 * !disasm_code__keeps(code) or on ENOMEM.
 */
void dso__disasm_keep_notes(struct dso *dso, uint64_t start, uint64_t end, bool intel,
			    const struct disasm_code *code, const void *notes, size_t len);

/*
 * Whether dso__disasm() of [start, end) of dso may be answered from a kept
 * disassembly (disasm-cache.h) without Capstone: the range is big enough
 * to be kept and dso's file has kept disassemblies (not checked further).
 */
bool dso__disasm_may_be_kept(struct dso *dso, uint64_t start, uint64_t end);

/*
 * Start loading libcapstone (what dso__disasm() does at its first call)
 * on a thread of its own, so that its relocations overlap the caller's
 * reading of the recording. Once per process (later calls return at
 * once); nothing when the thread cannot be made. dso__disasm() waits for
 * the load to end.
 */
void disasm__preload(void);

/*
 * The symbols of a DSO's ELF file as objdump (binutils 2.40) names
 * addresses with them: its .symtab, else (debug_file: objdump -S) the
 * .symtab of its separate debug file (debuginfo.h), else its .dynsym;
 * without file, section and
 * undefined symbols, names demangled with parameters (objdump -C).
 */
struct disasm_symtab;

/* Load dso's table from its file on disk (dso->runtime_path). NULL when
 * there is no file or on ENOMEM; free with disasm_symtab__delete(),
 * before the DSO goes. */
struct disasm_symtab *dso__disasm_symtab(struct dso *dso, bool debug_file);
void disasm_symtab__delete(struct disasm_symtab *st);

/*
 * The name objdump prints for addr in "<name+0xoff>": of the symbols at
 * the highest address not above addr, the first in objdump's order
 * (functions, then objects, then globals before locals, sized before
 * unsized, then by name). *start gets its address. NULL when none.
 * Owned by st.
 */
const char *disasm_symtab__ref(const struct disasm_symtab *st, uint64_t addr, uint64_t *start);

/*
 * The lowest address at or above addr where a symbol of st starts,
 * UINT64_MAX when none: a walk up the addresses asks
 * disasm_symtab__label() (without section_start) only from there on.
 */
uint64_t disasm_symtab__start_from(const struct disasm_symtab *st, uint64_t addr);

/*
 * The label objdump prints before addr, "<name>:" (the name into buf):
 * where a symbol of addr's section starts at addr, the first in objdump's
 * order (as disasm_symtab__ref()); at a section's start (section_start)
 * without one, the section's first symbol above it, "name-0xN" (objdump's
 * label of a .plt whose first entry has no symbol). false: no label.
 */
bool disasm_symtab__label(const struct disasm_symtab *st, uint64_t addr, bool section_start,
			  char *buf, size_t size);

/*
 * The ELF function symbol libbfd's nearest-line lookup falls back to for
 * addr (objdump -l's "name():" when the DWARF name is not a linkage
 * name): the function or untyped symbol of addr's section at the highest
 * address not above addr, the larger one at equal addresses, the first
 * listed at equal sizes; NULL when its size (unless 0) ends before addr,
 * or none, or the table is the dynamic one (libbfd is given the static
 * symbols only). *start gets its address. Owned by st.
 */
const char *disasm_symtab__function(const struct disasm_symtab *st, uint64_t addr,
				    uint64_t *start);

/*
 * The functions libbfd finds in the DWARF for objdump -l's "name():"
 * lines: every DW_TAG_subprogram and DW_TAG_inlined_subroutine range of
 * the compilation unit holding addr, named by DW_AT_linkage_name (through
 * abstract origins and specifications; demangled with parameters, as
 * objdump -C), else DW_AT_name. The DWARF is the DSO's own or its
 * separate debug file's (debuginfo.h).
 */
struct disasm_func {
	uint64_t lo, hi;	/* [lo, hi), DSO address space */
	const char *name;	/* owned by the disasm_funcs */
};

struct disasm_funcs {
	struct disasm_func *funcs;
	size_t nr, alloc;
	char **names;
	size_t nr_names;
	char *comp_dir;		/* the unit's DW_AT_comp_dir, or NULL */
};

/* Fill *funcs with the ranges overlapping [lo, hi) of the unit holding
 * lo in the DSO of st (zeroed first; the DWARF is opened at the first
 * call and kept with st). 0; -ENOENT (no DWARF, or no unit covers lo),
 * -ENOMEM. Free with disasm_funcs__exit(). */
int disasm_symtab__funcs(struct disasm_symtab *st, uint64_t lo, uint64_t hi,
			 struct disasm_funcs *funcs);
void disasm_funcs__exit(struct disasm_funcs *funcs);

/* The name of the smallest range of funcs holding addr (libbfd's best
 * fit, the innermost inlined copy; the later in the unit at equal
 * sizes), or NULL. */
const char *disasm_funcs__find(const struct disasm_funcs *funcs, uint64_t addr);

#endif
