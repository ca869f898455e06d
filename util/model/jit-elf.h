/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_JIT_ELF_H
#define PRF_MODEL_JIT_ELF_H
/*
 * An ELF image of one jitted function, as perf inject --jit writes them
 * (jitted-PID-INDEX.so): ET_DYN, the code in .text at file offset ==
 * address JIT_ELF_TEXT_OFFSET (so a map with pgoff JIT_ELF_TEXT_OFFSET at
 * the code's runtime address names it) in the one PT_LOAD segment, one STT_FUNC symbol over it in
 * .symtab, a GNU build-id note (a hash of the name and code), and when
 * line entries are given a DWARF 2 .debug_line with a one-unit
 * .debug_info/.debug_abbrev pointing at it. Written with libelf.
 */
#include <stddef.h>
#include <stdint.h>

struct jitdump_line;

/* File offset and address of .text in the images written. */
#define JIT_ELF_TEXT_OFFSET 0x80

struct jit_elf_fn {
	const char *name;		/* the symbol's name */
	uint16_t e_machine;		/* EM_* (the dump's elf_mach) */
	uint64_t code_addr;		/* runtime address of the code */
	const uint8_t *code;
	uint64_t code_size;
	const struct jitdump_line *lines;	/* runtime addresses, or NULL */
	size_t nr_lines;
};

/*
 * Write fn's image to path (replaced if present). bid gets the 20-byte
 * build-id written. 0 or -errno (-EIO: libelf failed, message at -v).
 */
int jit_elf__write(const char *path, const struct jit_elf_fn *fn, uint8_t bid[20]);

#endif
