// SPDX-License-Identifier: GPL-2.0
/* --call-graph parsing and its perf_event_attr bits: see callchain-record.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "callchain-record.h"
#include "../lib/config.h"
#include "../lib/debug.h"

static int parse_dwarf_size(struct callchain_record *cr, const char *size)
{
	unsigned long v;
	char *end;

	cr->dwarf_size = CALLCHAIN_RECORD_DWARF_SIZE;
	if (!size)
		return 0;
	v = strtoul(size, &end, 0);
	if (*end || !v) {
		pr_err("callchain: Incorrect stack dump size: %s\n", size);
		return -EINVAL;
	}
	v = (v + 7) & ~7UL;
	if (v > CALLCHAIN_RECORD_DWARF_MAX) {
		pr_err("callchain: Incorrect stack dump size (max %d): %s\n",
		       CALLCHAIN_RECORD_DWARF_MAX, size);
		return -EINVAL;
	}
	cr->dwarf_size = (unsigned int)v;
	return 0;
}

int callchain_record__parse(struct callchain_record *cr, const char *s)
{
	if (!s || !strcmp(s, "fp")) {
		cr->mode = CALLCHAIN_RECORD_FP;
		return 0;
	}
	if (!strcmp(s, "lbr")) {
		cr->mode = CALLCHAIN_RECORD_LBR;
		return 0;
	}
	if (!strncmp(s, "dwarf", 5) && (s[5] == 0 || s[5] == ',')) {
		cr->mode = CALLCHAIN_RECORD_DWARF;
		return parse_dwarf_size(cr, s[5] == ',' ? s + 6 : config__get("call-graph.dump-size"));
	}
	if (!strcmp(s, "none")) {
		cr->mode = CALLCHAIN_RECORD_NONE;
		return 0;
	}
	pr_err("callchain: Unknown --call-graph option value: %s\n", s);
	return -EINVAL;
}

int callchain_record__parse_g(struct callchain_record *cr)
{
	const char *mode = config__get("call-graph.record-mode");

	cr->mode = CALLCHAIN_RECORD_FP;
	return mode ? callchain_record__parse(cr, mode) : 0;
}

void callchain_record__config(const struct callchain_record *cr, struct perf_event_attr *a,
			      uint64_t user_regs_mask)
{
	switch (cr->mode) {
	case CALLCHAIN_RECORD_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case CALLCHAIN_RECORD_DWARF:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		/* perf's dwarf mode drops the kernel's user FP walk; fp_mix
		 * keeps it so that readers can finish stacks the copied user
		 * stack was too small for */
		a->exclude_callchain_user = cr->fp_mix ? 0 : 1;
		a->sample_regs_user = user_regs_mask;
		a->sample_stack_user = cr->dwarf_size;
		break;
	case CALLCHAIN_RECORD_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
		break;
	case CALLCHAIN_RECORD_NONE:
		break;
	}
}
