/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ARCH_UNWIND_REGS_H
#define PRF_ARCH_UNWIND_REGS_H
/*
 * Per-architecture register table for DWARF unwinding of
 * PERF_SAMPLE_REGS_USER samples: which perf sample register
 * (perf_event_open(2) "sample_regs_user", asm/perf_regs.h order) holds
 * each DWARF register (the psABI's DWARF register numbering).
 * x86_64 is the only table now; arm64 is one more struct unwind_arch.
 */
#include <stdbool.h>
#include <stdint.h>

/* Upper bound of DWARF registers any table uses (x86_64: 17, arm64: 33). */
#define UNWIND_MAX_REGS 33

struct regs_dump;

struct unwind_arch {
	const char *name;		/* "x86_64" */
	unsigned int nr_regs;		/* DWARF registers tracked: 0..nr_regs-1 */
	unsigned int sp_reg;		/* DWARF number of the stack pointer */
	unsigned int ip_reg;		/* DWARF column holding the pc / return address */
	/* DWARF number of the frame pointer, -1 if none: for code no CFI
	 * covers, the caller's frame is taken from the frame record at it
	 * ({saved frame pointer, return address}, the caller's stack pointer
	 * just above: the x86_64 psABI's rbp chain) */
	int fp_reg;
	/* perf sample register index (bit in sample_regs_user) for each DWARF
	 * register, -1 when perf does not sample it. */
	const int8_t *perf_reg;
	/* sample_regs_user mask an unwinder needs (bits = perf reg indexes) */
	uint64_t sample_regs_mask;
};

/* Table of the architecture prf was built for; NULL if none (unwinding
 * then unsupported). Static, not owned by the caller. */
const struct unwind_arch *unwind_arch__host(void);

/*
 * Fill regs[0..arch->nr_regs) (DWARF numbering) from a sampled register
 * dump (regs_dump: mask + packed values in increasing bit order, as
 * perf_event_open(2) PERF_SAMPLE_REGS_USER lays them out). *valid gets a
 * bit per DWARF register that was present. Returns 0, or -ENOENT when the
 * dump lacks the stack pointer or the ip (abi NONE: the task had no user
 * state, e.g. a kernel thread).
 */
int unwind_arch__sample_regs(const struct unwind_arch *arch, const struct regs_dump *dump,
			     uint64_t *regs, uint64_t *valid);

#endif
