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
	.fp_reg = 6,
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

/* Where each unwind register sits in a dump of this mask (the values are
 * packed: index = number of mask bits below the perf register), -1 when
 * the dump lacks it. Every sample of an event has the same mask, so the
 * last one's layout is kept per thread. */
struct regs_layout {
	const struct unwind_arch *arch;
	uint64_t mask, valid;
	int8_t idx[UNWIND_MAX_REGS];
};

static const struct regs_layout *regs_layout(const struct unwind_arch *arch, uint64_t mask)
{
	static __thread struct regs_layout l;
	unsigned int i;

	if (l.arch == arch && l.mask == mask)
		return &l;
	l.arch = arch;
	l.mask = mask;
	l.valid = 0;
	for (i = 0; i < arch->nr_regs && i < UNWIND_MAX_REGS; i++) {
		int pr = arch->perf_reg[i];

		l.idx[i] = -1;
		if (pr < 0 || !(mask & (1ULL << pr)))
			continue;
		l.idx[i] = (int8_t)__builtin_popcountll(mask & ((1ULL << pr) - 1));
		l.valid |= 1ULL << i;
	}
	return &l;
}

int unwind_arch__sample_regs(const struct unwind_arch *arch, const struct regs_dump *dump,
			     uint64_t *regs, uint64_t *valid)
{
	const struct regs_layout *l;
	unsigned int i;

	*valid = 0;
	if (!arch || !dump || !dump->abi || !dump->regs)
		return -ENOENT;
	l = regs_layout(arch, dump->mask);
	for (i = 0; i < arch->nr_regs && i < UNWIND_MAX_REGS; i++)
		regs[i] = l->idx[i] >= 0 ? dump->regs[l->idx[i]] : 0;
	*valid = l->valid;
	if (!(*valid & (1ULL << arch->sp_reg)) || !(*valid & (1ULL << arch->ip_reg)))
		return -ENOENT;
	return 0;
}
