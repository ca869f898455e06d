// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 register table for the DWARF unwinder.
 * DWARF numbers: System V AMD64 psABI, "DWARF Register Number Mapping"
 * (0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15,
 * 16 return address / rip). perf numbers: asm/perf_regs.h enum
 * perf_event_x86_regs.
 */
#include <errno.h>
#include "unwind-regs.h"
#include "../../util/format/event.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>

static const int8_t x86_64_perf_reg[17] = {
	[0] = PERF_REG_X86_AX,  [1] = PERF_REG_X86_DX,  [2] = PERF_REG_X86_CX,
	[3] = PERF_REG_X86_BX,  [4] = PERF_REG_X86_SI,  [5] = PERF_REG_X86_DI,
	[6] = PERF_REG_X86_BP,  [7] = PERF_REG_X86_SP,  [8] = PERF_REG_X86_R8,
	[9] = PERF_REG_X86_R9,  [10] = PERF_REG_X86_R10, [11] = PERF_REG_X86_R11,
	[12] = PERF_REG_X86_R12, [13] = PERF_REG_X86_R13, [14] = PERF_REG_X86_R14,
	[15] = PERF_REG_X86_R15, [16] = PERF_REG_X86_IP,
};

static const struct unwind_arch x86_64_arch = {
	.name = "x86_64",
	.nr_regs = 17,
	.sp_reg = 7,
	.ip_reg = 16,
	.perf_reg = x86_64_perf_reg,
	/* every GPR but flags and the segment registers */
	.sample_regs_mask = ((1ULL << PERF_REG_X86_64_MAX) - 1) &
			    ~((1ULL << PERF_REG_X86_FLAGS) | (1ULL << PERF_REG_X86_CS) |
			      (1ULL << PERF_REG_X86_SS) | (1ULL << PERF_REG_X86_DS) |
			      (1ULL << PERF_REG_X86_ES) | (1ULL << PERF_REG_X86_FS) |
			      (1ULL << PERF_REG_X86_GS)),
};

const struct unwind_arch *unwind_arch__host(void)
{
	return &x86_64_arch;
}
#else
const struct unwind_arch *unwind_arch__host(void)
{
	return NULL;
}
#endif

int unwind_arch__sample_regs(const struct unwind_arch *arch, const struct regs_dump *dump,
			     uint64_t *regs, uint64_t *valid)
{
	unsigned int i;

	*valid = 0;
	if (!arch || !dump || !dump->abi || !dump->regs)
		return -ENOENT;
	for (i = 0; i < arch->nr_regs; i++) {
		int pr = arch->perf_reg[i];
		uint64_t below;

		regs[i] = 0;
		if (pr < 0 || !(dump->mask & (1ULL << pr)))
			continue;
		/* values are packed: index = number of mask bits below pr */
		below = dump->mask & ((1ULL << pr) - 1);
		regs[i] = dump->regs[__builtin_popcountll(below)];
		*valid |= 1ULL << i;
	}
	if (!(*valid & (1ULL << arch->sp_reg)) || !(*valid & (1ULL << arch->ip_reg)))
		return -ENOENT;
	return 0;
}
