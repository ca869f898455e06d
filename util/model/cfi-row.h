/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_CFI_ROW_H
#define PRF_MODEL_CFI_ROW_H
/*
 * The DWARF unwinder's decoded CFI row (DWARF 5 section 6.4.1): what a
 * libdw Dwarf_Frame says, in the form util/model/unwind.c's step applies
 * directly. Decoded by cfi_row__new() (unwind.c), kept beside the DSO's
 * CFI cache slot (debuginfo__cfi_frame()'s priv) and copied into the
 * thread's memo (cfi-memo.h). Internal to the unwinder.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "../../arch/x86/unwind-regs.h"

/*
 * CFI rule kinds. RULE_AT_CFA (saved at CFA + off: DWARF's offset(N)) and
 * RULE_VAL_CFA (val_offset(N)) are the forms nearly every row of compiled
 * code takes; they are recognised in libdw's expression for them
 * (DW_OP_call_frame_cfa [DW_OP_plus_uconst N] [DW_OP_stack_value]) and
 * applied without the expression evaluator. RULE_EXPR is anything else.
 */
enum { RULE_UNDEF, RULE_SAME, RULE_EXPR, RULE_AT_CFA, RULE_VAL_CFA };

/*
 * A CFI row decoded once per DSO cache slot: rule kind and ops of the CFA
 * (index nregs) and of every register, ops packed after the header. The
 * CFA rule reg + off (DW_OP_bregN/bregx, libdw's form of def_cfa) is kept
 * as cfa_reg/cfa_off too (cfa_reg < 0: an expression); off[] holds N of
 * the RULE_AT_CFA/RULE_VAL_CFA registers. A row with no RULE_EXPR at all
 * is "simple": it needs no ops, and size covers the header alone. A
 * simple row with at most FAST_MAX_AT rules (most rows of compiled code:
 * the return address and the callee-saved registers stored in the frame,
 * RULE_AT_CFA, and the stack pointer, RULE_VAL_CFA) is "fast" too: its
 * registers and offsets are listed once more in at_reg/at_off, in register
 * order (at_val: the RULE_VAL_CFA ones), for step()'s short loop.
 */
#define FAST_MAX_AT 16
struct cfi_row {
	size_t size;			/* bytes, header + ops */
	unsigned int ra_reg;
	bool signal;
	bool simple;
	int cfa_reg;
	int64_t cfa_off;
	uint64_t same_mask;		/* registers of RULE_SAME */
	uint64_t rule_mask;		/* registers of RULE_AT_CFA, _VAL_CFA, _EXPR */
	uint8_t kind[UNWIND_MAX_REGS + 1];
	uint8_t nops[UNWIND_MAX_REGS + 1];
	uint16_t first[UNWIND_MAX_REGS + 1];
	int64_t off[UNWIND_MAX_REGS];
	bool fast;
	uint8_t nr_at;			/* fast rows: registers in at_reg/at_off */
	uint8_t at_reg[FAST_MAX_AT];
	int32_t at_off[FAST_MAX_AT];
	uint16_t at_val;		/* bit i: at_reg[i] is RULE_VAL_CFA */
	uint64_t at_mask;		/* fast rows: those registers */
	Dwarf_Op ops[];
};

/* Bytes of the biggest row cfi_row__new() makes (header and ops): a
 * caller's buffer of this size holds any row. */
#define ROW_BUF_SIZE 4096

/* Decode frame for an architecture of nregs registers (unwind-regs.h's
 * UNWIND_MAX_REGS at most): a malloc'd row the caller frees, NULL when
 * the frame has a rule the unwinder cannot apply or no memory. */
struct cfi_row *cfi_row__new(Dwarf_Frame *frame, unsigned int nregs);

#endif
