/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_KERNEL_CALLCHAIN_RECORD_H
#define PRF_KERNEL_CALLCHAIN_RECORD_H
/*
 * How samples get their callchain, as perf record's -g/--call-graph
 * (perf-record(1), perf-config(1) call-graph.record-mode/dump-size) and
 * what it puts into perf_event_attr (perf_event_open(2): PERF_SAMPLE_
 * CALLCHAIN, PERF_SAMPLE_REGS_USER/STACK_USER for dwarf, a branch call
 * stack for lbr). Shared by record, trace and top.
 */
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

enum callchain_record_mode {
	CALLCHAIN_RECORD_NONE,
	CALLCHAIN_RECORD_FP,
	CALLCHAIN_RECORD_DWARF,
	CALLCHAIN_RECORD_LBR,
};

#define CALLCHAIN_RECORD_DWARF_SIZE	8192	/* default user stack copy, bytes */
#define CALLCHAIN_RECORD_DWARF_MAX	65528	/* largest the kernel takes, bytes */

struct callchain_record {
	enum callchain_record_mode mode;
	unsigned int dwarf_size;	/* bytes of user stack per dwarf sample */
	bool fp_mix;			/* dwarf: keep the kernel's user FP walk too */
};

/*
 * Parse a --call-graph value: "fp", "dwarf[,SIZE]" (SIZE in bytes,
 * rounded up to 8, at most CALLCHAIN_RECORD_DWARF_MAX; without it
 * call-graph.dump-size from the config, else 8192), "lbr" or "none".
 * NULL means fp. 0, or -EINVAL after perf's message on stderr.
 */
int callchain_record__parse(struct callchain_record *cr, const char *arg);

/*
 * -g alone: fp, or the mode call-graph.record-mode names. 0 or -EINVAL
 * after a message.
 */
int callchain_record__parse_g(struct callchain_record *cr);

/*
 * Set attr's sample_type and the fields the mode needs; user_regs_mask
 * is the architecture's user register set for dwarf unwinding
 * (arch/<arch>/perf_regs.h).
 */
void callchain_record__config(const struct callchain_record *cr, struct perf_event_attr *attr,
			      uint64_t user_regs_mask);
#endif
