// SPDX-License-Identifier: GPL-2.0
/* x86 register names of PERF_SAMPLE_REGS_USER, as perf spells them. */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include "perf_regs.h"

static const char *const reg_names[PERF_REG_X86_64_MAX] = {
	[PERF_REG_X86_AX] = "ax", [PERF_REG_X86_BX] = "bx", [PERF_REG_X86_CX] = "cx",
	[PERF_REG_X86_DX] = "dx", [PERF_REG_X86_SI] = "si", [PERF_REG_X86_DI] = "di",
	[PERF_REG_X86_BP] = "bp", [PERF_REG_X86_SP] = "sp", [PERF_REG_X86_IP] = "ip",
	[PERF_REG_X86_FLAGS] = "flags", [PERF_REG_X86_CS] = "cs", [PERF_REG_X86_SS] = "ss",
	[PERF_REG_X86_DS] = "ds", [PERF_REG_X86_ES] = "es", [PERF_REG_X86_FS] = "fs",
	[PERF_REG_X86_GS] = "gs", [PERF_REG_X86_R8] = "r8", [PERF_REG_X86_R9] = "r9",
	[PERF_REG_X86_R10] = "r10", [PERF_REG_X86_R11] = "r11", [PERF_REG_X86_R12] = "r12",
	[PERF_REG_X86_R13] = "r13", [PERF_REG_X86_R14] = "r14", [PERF_REG_X86_R15] = "r15",
};

const char *perf_reg_name(int id)
{
	return id >= 0 && id < PERF_REG_X86_64_MAX ? reg_names[id] : NULL;
}

int perf_regs__parse_mask(const char *list, uint64_t *mask, const char **bad)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int id;

		for (id = 0; id < PERF_REG_X86_64_MAX; id++)
			if (strlen(reg_names[id]) == len && !strncasecmp(p, reg_names[id], len))
				break;
		if (id == PERF_REG_X86_64_MAX) {
			*bad = p;
			return -EINVAL;
		}
		*mask |= 1ULL << id;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*mask) {
		*bad = list;
		return -EINVAL;
	}
	return 0;
}
