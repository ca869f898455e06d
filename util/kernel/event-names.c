// SPDX-License-Identifier: GPL-2.0
/* Symbolic event tables and attr -> name; see event-names.h. */
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <string.h>
#include "event-names.h"
#include "tracefs.h"
#include "../lib/util.h"

const struct event_symbol event_symbols_hw[] = {
	{ "cpu-cycles",              "cycles",               PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",            NULL,                   PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",        NULL,                   PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",            NULL,                   PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions",     "branches",             PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",           NULL,                   PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",              NULL,                   PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend",  "idle-cycles-backend",  PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles",              NULL,                   PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ NULL, NULL, 0, 0 },
};

const struct event_symbol event_symbols_sw[] = {
	{ "cpu-clock",        NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock",       NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults",      "faults",     PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs",         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",   "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults",     NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults",     NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy",            NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output",       NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches",  NULL,         PERF_TYPE_SOFTWARE, 11 /* PERF_COUNT_SW_CGROUP_SWITCHES */ },
	{ NULL, NULL, 0, 0 },
};

const struct event_symbol event_symbols_tool[] = {
	{ "duration_time",    NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "user_time",        NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "system_time",      NULL,         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ NULL, NULL, 0, 0 },
};

enum tool_event tool_event__find(const char *name)
{
	for (const struct event_symbol *s = event_symbols_tool; s->symbol; s++) {
		if (!strcmp(s->symbol, name))
			return (enum tool_event)(s - event_symbols_tool + 1);
	}
	return TOOL_EVENT_NONE;
}

/* Names perf prints for an attr (the short spellings). */
static const char *const hw_attr_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_attr_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

const char *const hw_cache_names[PERF_COUNT_HW_CACHE_MAX][HW_CACHE_MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_L1D]  = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I]  = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL]   = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU]  = { "branch", "branches", "bpu", "btb", "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

const char *const hw_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][HW_CACHE_MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_OP_READ]     = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE]    = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches", "speculative-read",
					      "speculative-load" },
};

const char *const hw_cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][HW_CACHE_MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS]   = { "misses", "miss" },
};

#define OPS(l, s, p) (((l) << PERF_COUNT_HW_CACHE_OP_READ) | ((s) << PERF_COUNT_HW_CACHE_OP_WRITE) | \
		      ((p) << PERF_COUNT_HW_CACHE_OP_PREFETCH))
static const unsigned char hw_cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]  = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_L1I]  = OPS(1, 0, 1),
	[PERF_COUNT_HW_CACHE_LL]   = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_DTLB] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_ITLB] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_BPU]  = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_NODE] = OPS(1, 1, 1),
};

bool hw_cache__op_valid(unsigned int cache_id, unsigned int op)
{
	if (cache_id >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX)
		return false;
	return hw_cache_valid_ops[cache_id] & (1u << op);
}

int hw_cache__snprintf_name(unsigned int cache_id, unsigned int op, unsigned int result,
			    char *buf, size_t size)
{
	if (!hw_cache__op_valid(cache_id, op) || result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return snprintf(buf, size, "invalid-cache");
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return snprintf(buf, size, "%s-%s", hw_cache_names[cache_id][0],
				hw_cache_op_names[op][1]);
	return snprintf(buf, size, "%s-%s-%s", hw_cache_names[cache_id][0],
			hw_cache_op_names[op][0], hw_cache_result_names[result][0]);
}

const struct event_symbol *event_symbol__find(const char *name)
{
	const struct event_symbol *tables[] = { event_symbols_hw, event_symbols_sw };

	for (size_t t = 0; t < ARRAY_SIZE(tables); t++) {
		for (const struct event_symbol *s = tables[t]; s->symbol; s++) {
			if (!strcmp(s->symbol, name) || (s->alias && !strcmp(s->alias, name)))
				return s;
		}
	}
	return NULL;
}

int perf_event_attr__snprintf_modifiers(const struct perf_event_attr *attr, char *buf, size_t size)
{
	char mods[16];
	int n = 0;
	bool guest_default = false;

	/* Only the contexts still counted are listed, and only when some
	 * context was excluded (an attr counting everything prints none). */
	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			mods[n++] = 'k';
		if (!attr->exclude_user)
			mods[n++] = 'u';
		if (!attr->exclude_hv)
			mods[n++] = 'h';
		guest_default = true;
	}
	for (unsigned int i = 0; i < attr->precise_ip && i < 3; i++)
		mods[n++] = 'p';
	if (attr->precise_ip)
		guest_default = true;
	if (attr->exclude_host || attr->exclude_guest == guest_default) {
		if (!attr->exclude_host)
			mods[n++] = 'H';
		if (!attr->exclude_guest)
			mods[n++] = 'G';
	}
	mods[n] = '\0';
	if (!n) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return snprintf(buf, size, ":%s", mods);
}

static int snprintf_tracepoint(uint64_t id, char *buf, size_t size)
{
	char sys[256], name[256];

	if (tracefs__id_to_name(id, sys, sizeof(sys), name, sizeof(name)) == 0)
		return snprintf(buf, size, "%s:%s", sys, name);
	return snprintf(buf, size, "unknown tracepoint");
}

static int snprintf_breakpoint(const struct perf_event_attr *attr, char *buf, size_t size)
{
	char acc[4];
	int n = 0;

	if (attr->bp_type & HW_BREAKPOINT_R)
		acc[n++] = 'r';
	if (attr->bp_type & HW_BREAKPOINT_W)
		acc[n++] = 'w';
	if (attr->bp_type & HW_BREAKPOINT_X)
		acc[n++] = 'x';
	acc[n] = '\0';
	return snprintf(buf, size, "mem:0x%llx:%s", (unsigned long long)attr->bp_addr, acc);
}

int perf_event_attr__snprintf_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	char base[512];
	char mods[16];
	bool with_mods = true;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		if (attr->config < ARRAY_SIZE(hw_attr_names))
			snprintf(base, sizeof(base), "%s", hw_attr_names[attr->config]);
		else
			snprintf(base, sizeof(base), "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		if (attr->config < ARRAY_SIZE(sw_attr_names))
			snprintf(base, sizeof(base), "%s", sw_attr_names[attr->config]);
		else
			snprintf(base, sizeof(base), "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		hw_cache__snprintf_name(attr->config & 0xff, (attr->config >> 8) & 0xff,
					(attr->config >> 16) & 0xff, base, sizeof(base));
		break;
	case PERF_TYPE_RAW:
		snprintf(base, sizeof(base), "raw 0x%llx", (unsigned long long)attr->config);
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf_tracepoint(attr->config, base, sizeof(base));
		with_mods = false;
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf_breakpoint(attr, base, sizeof(base));
		with_mods = false;
		break;
	default:
		snprintf(base, sizeof(base), "unknown attr type: %u", attr->type);
		with_mods = false;
		break;
	}
	mods[0] = '\0';
	if (with_mods)
		perf_event_attr__snprintf_modifiers(attr, mods, sizeof(mods));
	return snprintf(buf, size, "%s%s", base, mods);
}
