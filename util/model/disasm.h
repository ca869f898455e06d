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

struct dso;

struct disasm_insn {
	uint64_t addr;		/* DSO address space */
	uint16_t size;		/* bytes */
	bool is_jump;		/* a jump (conditional or not) */
	bool is_call;
	bool is_ret;
	bool has_target;	/* jump/call to an immediate address: target */
	bool has_ref;		/* RIP-relative memory operand at ref */
	uint64_t target;
	uint64_t ref;
	uint8_t bytes[16];	/* the encoding (size bytes) */
	char mnemonic[32];	/* Capstone's, prefixes included ("rep stosq") */
	char op_str[160];	/* Capstone's operand text */
};

struct disasm_code {
	struct disasm_insn *insns;	/* in address order; owned */
	size_t nr;
	char section[64];		/* name of the ELF section the code is in */
};

/*
 * Disassemble [start, end) of dso (link-time addresses of its ELF file
 * on disk, dso->runtime_path, loaded by dso__load()), in Intel syntax
 * when intel is set, else AT&T. Undecodable bytes become one ".byte 0xNN"
 * "(bad)" instruction each, as objdump shows them. Fills *code (free with
 * disasm_code__exit()). 0; -ENOENT (no file for the DSO, or the range is
 * in no loaded segment), -EOPNOTSUPP (not an x86 ELF file), -EIO (read),
 * -ENOMEM.
 */
int dso__disasm(struct dso *dso, uint64_t start, uint64_t end, bool intel,
		struct disasm_code *code);

/* Free what dso__disasm() filled. Idempotent. */
void disasm_code__exit(struct disasm_code *code);

#endif
