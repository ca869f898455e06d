/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ARCH_X86_PERF_REGS_H
#define PRF_ARCH_X86_PERF_REGS_H
/*
 * x86 register numbering of PERF_SAMPLE_REGS_USER / PERF_SAMPLE_REGS_INTR:
 * bit N of perf_event_attr.sample_regs_user selects register N, and the
 * sample carries the selected registers in increasing bit order. Numbering
 * follows the kernel's uapi arch/x86/include/uapi/asm/perf_regs.h.
 */

enum perf_event_x86_regs {
	PERF_REG_X86_AX,
	PERF_REG_X86_BX,
	PERF_REG_X86_CX,
	PERF_REG_X86_DX,
	PERF_REG_X86_SI,
	PERF_REG_X86_DI,
	PERF_REG_X86_BP,
	PERF_REG_X86_SP,
	PERF_REG_X86_IP,
	PERF_REG_X86_FLAGS,
	PERF_REG_X86_CS,
	PERF_REG_X86_SS,
	PERF_REG_X86_DS,
	PERF_REG_X86_ES,
	PERF_REG_X86_FS,
	PERF_REG_X86_GS,
	PERF_REG_X86_R8,
	PERF_REG_X86_R9,
	PERF_REG_X86_R10,
	PERF_REG_X86_R11,
	PERF_REG_X86_R12,
	PERF_REG_X86_R13,
	PERF_REG_X86_R14,
	PERF_REG_X86_R15,
	PERF_REG_X86_32_MAX = PERF_REG_X86_GS + 1,
	PERF_REG_X86_64_MAX = PERF_REG_X86_R15 + 1,
};

/*
 * User registers sampled for --call-graph dwarf on x86_64: the general
 * purpose registers, IP, FLAGS, CS and SS, i.e. every register of
 * PERF_REG_X86_64_MAX except the DS/ES/FS/GS segment registers, which the
 * kernel does not sample for 64-bit tasks. Value 0xff0fff, as Linux perf 6.1
 * sets for `--call-graph dwarf` (checked with `perf evlist -v`).
 */
#define PERF_REGS_X86_64_USER_MASK \
	(((1ULL << PERF_REG_X86_64_MAX) - 1) & \
	 ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
	   (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)))

#include <stdint.h>

/* The name of register id as perf spells it ("ax", "r8", "flags"); NULL
 * past PERF_REG_X86_64_MAX. */
const char *perf_reg_name(int id);
/*
 * A comma-separated list of register names (perf's spelling, any case)
 * into a sample_regs_user/intr mask. 0, or -EINVAL with *bad pointing at
 * the first unknown name in list.
 */
int perf_regs__parse_mask(const char *list, uint64_t *mask, const char **bad);

#endif
