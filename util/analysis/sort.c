// SPDX-License-Identifier: GPL-2.0
/*
 * Sort keys and output fields of prf report (see sort.h).
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sort.h"
#include "hist.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../model/cgroup-names.h"
#include "../model/dso.h"
#include "../model/machine.h"
#include "../model/map.h"
#include "mem-src.h"

struct key_name {
	const char *name;
	int type;
};

/* a key perf accepts and drops on this architecture (powerpc's) */
#define SORT_IGNORED (-2)


/* perf's memory sort dimensions: valid in --mem-mode only */
static bool is_mem_key(int type)
{
	return type >= SORT_MEM && type <= SORT_BLOCKED && type != SORT_LOCAL_INS_LAT;
}

/* a key that reads the entry's hist_mem */
static bool reads_mem(int type)
{
	return type >= SORT_MEM && type <= SORT_LOCAL_INS_LAT;
}

static const struct key_name key_names[] = {
	{ "comm", SORT_COMM },
	{ "pid", SORT_PID },
	{ "tid", SORT_PID },
	{ "dso", SORT_DSO },
	{ "sym", SORT_SYM },
	{ "symbol", SORT_SYM },
	{ "symoff", SORT_SYMOFF },
	{ "cpu", SORT_CPU },
	{ "parent", SORT_PARENT },
	{ "srcline", SORT_SRCLINE },
	{ "trace", SORT_TRACE },
	{ "time", SORT_TIME },
	{ "dso_size", SORT_DSO_SIZE },
	{ "symbol_size", SORT_SYM_SIZE },
	{ "srcfile", SORT_SRCFILE },
	{ "ipc_null", SORT_IPC_NULL },
	{ "weight", SORT_WEIGHT },
	{ "local_weight", SORT_LOCAL_WEIGHT },
	{ "addr", SORT_ADDR },
	{ "socket", SORT_SOCKET },
	{ "cgroup", SORT_CGROUP },
	{ "local_ins_lat", SORT_LOCAL_INS_LAT },
	{ "mem", SORT_MEM },
	{ "symbol_daddr", SORT_SYM_DADDR },
	{ "dso_daddr", SORT_DSO_DADDR },
	{ "snoop", SORT_SNOOP },
	{ "tlb", SORT_TLB },
	{ "locked", SORT_LOCKED },
	{ "blocked", SORT_BLOCKED },
	{ "local_p_stage_cyc", SORT_IGNORED },
	{ "p_stage_cyc", SORT_IGNORED },
	{ "overhead_sys", HPP_OVERHEAD_SYS },
	{ "overhead_us", HPP_OVERHEAD_US },
	{ "overhead", HPP_OVERHEAD },
	{ "self", HPP_OVERHEAD },
	{ "children", HPP_CHILDREN },
	{ "overhead_children", HPP_CHILDREN },
	{ "sample", HPP_SAMPLE },
	{ "samples", HPP_SAMPLE },
	{ "period", HPP_PERIOD },
};

static int lookup_key(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_names); i++)
		if (!strcasecmp(key_names[i].name, name))
			return key_names[i].type;
	return -1;
}

static bool is_value_field(int type)
{
	return type >= HPP_OVERHEAD;
}

const char *sort_column__header(const struct sort_order *so, int type)
{
	switch (type) {
	case SORT_COMM:		return "Command";
	case SORT_PID:		return "    Pid:Command";
	case SORT_DSO:		return "Shared Object";
	case SORT_SYM:		return "Symbol";
	case SORT_SYMOFF:	return "Symbol";
	case SORT_CPU:		return "CPU";
	case SORT_PARENT:	return "Parent symbol";
	case SORT_SRCLINE:	return "Source:Line";
	case SORT_TRACE:		return "Trace output";
	case SORT_TIME:		return "Time";
	case SORT_DSO_SIZE:	return "DSO size";
	case SORT_SYM_SIZE:	return "Symbol size";
	case SORT_SRCFILE:	return "Source File";
	case SORT_IPC_NULL:	return "IPC   [IPC Coverage]";
	case SORT_WEIGHT:	return "Weight";
	case SORT_LOCAL_WEIGHT:	return "Local Weight";
	case SORT_ADDR:		return "Address";
	case SORT_SOCKET:	return "Socket";
	case SORT_CGROUP:	return "Cgroup";
	case SORT_MEM:		return "Memory access";
	case SORT_SYM_DADDR:	return "Data Symbol";
	case SORT_DSO_DADDR:	return "Data Object";
	case SORT_SNOOP:	return "Snoop";
	case SORT_TLB:		return "TLB access";
	case SORT_LOCKED:	return "Locked";
	case SORT_BLOCKED:	return "Blocked";
	case SORT_LOCAL_INS_LAT:	return "Local INSTR Latency";
	case HPP_OVERHEAD_SYS:	return "sys";
	case HPP_OVERHEAD_US:	return "usr";
	case HPP_OVERHEAD:	return so->cumulate && !so->user_fields ? "Self" : "Overhead";
	case HPP_CHILDREN:	return "Children";
	case HPP_SAMPLE:	return "Samples";
	case HPP_PERIOD:	return "Period";
	default:		return "?";
	}
}

int sort_column__min_width(const struct sort_order *so, int type)
{
	switch (type) {
	case HPP_OVERHEAD:
	case HPP_CHILDREN:
	case HPP_OVERHEAD_SYS:
	case HPP_OVERHEAD_US:
		return 8;
	case HPP_SAMPLE:
	case HPP_PERIOD:
		return 12;
	case SORT_TIME:
		return so->nanosecs ? 16 : 12;
	case SORT_WEIGHT:
	case SORT_LOCAL_WEIGHT:
		return 12;
	case SORT_ADDR:
		return 18;	/* perf: 16 hex digits and 0x */
	/* perf's fixed widths of the memory columns */
	case SORT_MEM:
		return 24;
	case SORT_SNOOP:
		return 12;
	case SORT_TLB:
		return 22;
	case SORT_BLOCKED:
		return 10;
	default:
		return strlen(sort_column__header(so, type));
	}
}

static int add_unique(int *arr, int *nr, int max, int v)
{
	for (int i = 0; i < *nr; i++)
		if (arr[i] == v)
			return 0;
	if (*nr >= max)
		return -EINVAL;
	arr[(*nr)++] = v;
	return 0;
}

static int parse_list(const char *str, int *out, int *nr, int max, bool allow_values,
		      const char *what, bool mem_mode)
{
	char *copy = strdup(str), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int t;

		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		t = lookup_key(tok);
		if (t == SORT_IGNORED)
			continue;
		if (t >= 0 && is_mem_key(t) && !mem_mode) {
			pr_err("Error: Invalid --%s key: `%s'\n", what, tok);
			ret = -EINVAL;
			break;
		}
		if (t < 0 || (!allow_values && is_value_field(t))) {
			pr_err("Error: Unknown --%s key: `%s'\n", what, tok);
			ret = -EINVAL;
			break;
		}
		if (add_unique(out, nr, SORT_MAX_COLUMNS, t)) {
			pr_err("Error: too many --%s keys\n", what);
			ret = -EINVAL;
			break;
		}
	}
	free(copy);
	return ret;
}

bool sort_order__has_key(const struct sort_order *so, int key)
{
	for (int i = 0; i < so->nr_keys; i++)
		if (so->keys[i] == key)
			return true;
	return false;
}

int sort_order__parse(struct sort_order *so, const char *sort, const char *fields,
		      bool cumulate, bool show_nr_samples, bool show_period,
		      const char *parent_pattern)
{
	return sort_order__parse_mode(so, sort, fields, cumulate, show_nr_samples, show_period,
				      parent_pattern, false);
}

int sort_order__parse_mode(struct sort_order *so, const char *sort, const char *fields,
			   bool cumulate, bool show_nr_samples, bool show_period,
			   const char *parent_pattern, bool mem_mode)
{
	int f[SORT_MAX_COLUMNS], nr_f = 0, ret;
	int items[SORT_MAX_COLUMNS], nr_items = 0;	/* -s: keys and value fields */
	bool default_sort = false;

	memset(so, 0, sizeof(*so));
	so->cumulate = cumulate;
	so->mem_mode = mem_mode;
	/* perf: its default mem order gets no ipc_null key */
	if (mem_mode && !sort && !fields) {
		default_sort = true;
		sort = MEM_SORT_ORDER;
	}
	if (fields) {
		ret = parse_list(fields, f, &nr_f, SORT_MAX_COLUMNS, true, "fields", mem_mode);
		if (ret)
			return ret;
		so->user_fields = true;
	}
	if (sort) {
		const char *s = sort;

		if (*s == '+')	/* perf: append to the default */
			s++;
		if (s != sort) {
			parse_list("comm,dso,sym", items, &nr_items, SORT_MAX_COLUMNS, false, "sort",
				   false);
		}
		ret = parse_list(s, items, &nr_items, SORT_MAX_COLUMNS, true, "sort", mem_mode);
		/* perf 6.1 report appends its ipc_null key to a sort order
		 * that names "symbol" (without branch data) */
		if (!ret && strstr(sort, "symbol") && !default_sort)
			ret = add_unique(items, &nr_items, SORT_MAX_COLUMNS, SORT_IPC_NULL);
		if (ret)
			return ret;
		for (int i = 0; i < nr_items; i++)
			if (!is_value_field(items[i]))
				so->keys[so->nr_keys++] = items[i];
		so->sort_starts_with_sym = !strncmp(sort, "sym", 3);
	} else if (fields) {
		for (int i = 0; i < nr_f; i++)
			if (!is_value_field(f[i]))
				add_unique(so->keys, &so->nr_keys, SORT_MAX_COLUMNS, f[i]);
	} else {
		parse_list("comm,dso,sym", so->keys, &so->nr_keys, SORT_MAX_COLUMNS, false, "sort",
			   false);
	}
	if (so->nr_keys == 0 && !fields && !nr_items) {
		pr_err("Error: no sort key given\n");
		return -EINVAL;
	}

	if (fields) {
		for (int i = 0; i < nr_f; i++) {
			so->cols[so->nr_cols++].type = f[i];
			so->sort[so->nr_sort++] = f[i];
		}
		/* the sort keys not shown still order and group */
		for (int i = 0; i < so->nr_keys; i++)
			add_unique(so->sort, &so->nr_sort, SORT_MAX_COLUMNS * 2, so->keys[i]);
	} else if (nr_items > so->nr_keys) {
		/*
		 * Value fields in -s, as perf 6.1: the sort order is -s
		 * prefixed with overhead_children (children mode) and
		 * overhead unless the -s text contains those words, then any
		 * other column; the columns are Children, Self/Overhead, -n's
		 * and --show-total-period's, then -s's in order.
		 */
		int c[SORT_MAX_COLUMNS], nr_c = 0;

		if (cumulate && !strstr(sort, "overhead_children"))
			so->sort[so->nr_sort++] = HPP_CHILDREN;
		if (!strstr(sort, "overhead"))
			so->sort[so->nr_sort++] = HPP_OVERHEAD;
		for (int i = 0; i < nr_items; i++)
			add_unique(so->sort, &so->nr_sort, SORT_MAX_COLUMNS * 2, items[i]);
		if (cumulate)
			c[nr_c++] = HPP_CHILDREN;
		c[nr_c++] = HPP_OVERHEAD;
		if (show_nr_samples)
			c[nr_c++] = HPP_SAMPLE;
		if (show_period)
			c[nr_c++] = HPP_PERIOD;
		for (int i = 0; i < nr_items; i++)
			add_unique(c, &nr_c, SORT_MAX_COLUMNS, items[i]);
		for (int i = 0; i < nr_c; i++) {
			so->cols[so->nr_cols++].type = c[i];
			add_unique(so->sort, &so->nr_sort, SORT_MAX_COLUMNS * 2, c[i]);
		}
	} else {
		if (cumulate) {
			so->cols[so->nr_cols++].type = HPP_CHILDREN;
			so->sort[so->nr_sort++] = HPP_CHILDREN;
		}
		so->cols[so->nr_cols++].type = HPP_OVERHEAD;
		so->sort[so->nr_sort++] = HPP_OVERHEAD;
		if (show_nr_samples)
			so->cols[so->nr_cols++].type = HPP_SAMPLE;
		if (show_period)
			so->cols[so->nr_cols++].type = HPP_PERIOD;
		for (int i = 0; i < so->nr_keys; i++) {
			if (so->nr_cols >= SORT_MAX_COLUMNS)
				break;
			so->cols[so->nr_cols++].type = so->keys[i];
			so->sort[so->nr_sort++] = so->keys[i];
		}
	}
	for (int i = 0; i < so->nr_cols; i++)
		so->cols[i].width = sort_column__min_width(so, so->cols[i].type);

	for (int i = 0; i < so->nr_keys; i++)
		so->mem_keys |= reads_mem(so->keys[i]);
	for (int i = 0; i < so->nr_cols; i++)
		so->mem_keys |= reads_mem(so->cols[i].type);
	so->chain_dups = sort_order__has_key(so, SORT_TIME);
	so->socket_dups = sort_order__has_key(so, SORT_SOCKET);
	so->cgroup_dups = sort_order__has_key(so, SORT_CGROUP);
	so->need_srcfile = sort_order__has_key(so, SORT_SRCFILE);
	if (sort_order__has_key(so, SORT_PARENT)) {
		const char *pat = parent_pattern ? parent_pattern : "^sys_|^do_page_fault";

		if (regcomp(&so->parent_re, pat, REG_EXTENDED)) {
			pr_err("Error: invalid parent regex '%s'\n", pat);
			return -EINVAL;
		}
		so->parent_re_set = true;
		so->need_parent = true;
	}
	return 0;
}

int sort_order__add_cpu_utilization(struct sort_order *so)
{
	int at = -1;

	int n = 0;

	if (so->user_fields)
		return 0;
	/* -s's own sys/usr columns move here: perf shows them once */
	for (int c = 0; c < so->nr_cols; c++)
		if (so->cols[c].type != HPP_OVERHEAD_SYS && so->cols[c].type != HPP_OVERHEAD_US)
			so->cols[n++] = so->cols[c];
	so->nr_cols = n;
	for (int c = 0; c < so->nr_cols; c++)
		if (so->cols[c].type == HPP_OVERHEAD)
			at = c + 1;
	if (at < 0 || so->nr_cols + 2 > SORT_MAX_COLUMNS)
		return -EINVAL;
	memmove(&so->cols[at + 2], &so->cols[at], (size_t)(so->nr_cols - at) * sizeof(so->cols[0]));
	so->cols[at] = (struct sort_column){ .type = HPP_OVERHEAD_SYS,
					     .width = sort_column__min_width(so, HPP_OVERHEAD_SYS) };
	so->cols[at + 1] = (struct sort_column){ .type = HPP_OVERHEAD_US,
						 .width = sort_column__min_width(so, HPP_OVERHEAD_US) };
	so->nr_cols += 2;
	return 0;
}

bool sort_order__key_elided(const struct sort_order *so, int key)
{
	return key >= 0 && key < HPP_OVERHEAD && (so->elided_keys & (1u << key));
}

void sort_order__elide(struct sort_order *so, int key)
{
	int shown = 0;

	for (int c = 0; c < so->nr_cols; c++)
		if (so->cols[c].type == key)
			so->cols[c].elide = true;
	for (int c = 0; c < so->nr_cols; c++)
		if (so->cols[c].type < HPP_OVERHEAD && !so->cols[c].elide)
			shown++;
	if (!shown)
		for (int c = 0; c < so->nr_cols; c++)
			so->cols[c].elide = false;
	so->elided_keys = 0;
	for (int c = 0; c < so->nr_cols; c++)
		if (so->cols[c].elide && so->cols[c].type >= 0 && so->cols[c].type < HPP_OVERHEAD)
			so->elided_keys |= 1u << so->cols[c].type;
}

void sort_order__exit(struct sort_order *so)
{
	if (so->parent_re_set)
		regfree(&so->parent_re);
	so->parent_re_set = false;
}

static inline int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static inline int cmp_ptr(const void *a, const void *b)
{
	return (uintptr_t)a < (uintptr_t)b ? -1 : (uintptr_t)a > (uintptr_t)b;
}

static inline int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return 1;
	if (!b)
		return -1;
	return strcmp(a, b);
}

/* dso_size: the size of the entry's map (perf's map__size), 0 without */
static uint64_t map_size(const struct hist_entry *e)
{
	return e->map ? e->map->end - e->map->start : 0;
}

/* symbol_size: the symbol's size, 0 without one */
static uint64_t sym_size(const struct hist_entry *e)
{
	return e->sym ? e->sym->end - e->sym->start : 0;
}

static const struct hist_mem no_mem = { .data_src = 0 };

/* the entry's mem info (none: zeros, as perf's entries without one) */
static inline const struct hist_mem *he_mem(const struct hist_entry *e)
{
	return e->mem ? e->mem : &no_mem;
}

/* The Data Object name: perf's DSO short name, the basename ("anon" of
 * "//anon"); NULL without a map. */
static const char *daddr_dso_name(const struct hist_entry *e)
{
	const struct dso *dso = he_mem(e)->ddso;
	const char *n;

	if (!dso || !dso->short_name)
		return NULL;
	n = dso->short_name;
	return strncmp(n, "//", 2) ? n : strrchr(n, '/') + 1;
}

/* The value a memory key groups and sorts by (mem, snoop, ...) */
static uint64_t mem_key_value(int key, const struct hist_entry *e)
{
	const struct hist_mem *m = he_mem(e);

	switch (key) {
	case SORT_MEM:		return e->mem ? mem_src__lvl_bits(m->data_src) : 1;	/* LVL_NA */
	case SORT_SNOOP:	return mem_src__snoop_bits(m->data_src);
	case SORT_TLB:		return mem_src__tlb_bits(m->data_src);
	case SORT_LOCKED:	return mem_src__lock_bits(m->data_src);
	case SORT_BLOCKED:	return mem_src__blk_bits(m->data_src);
	case SORT_LOCAL_INS_LAT:	return m->ins_lat;
	case SORT_SYM_DADDR:	return m->daddr;
	default:		return 0;
	}
}

/* perf's order of two entries for ipc_null (its symbol compare): by
 * symbol start then end address, entries without a symbol last and
 * among themselves by address */
static int cmp_sym_addr(const struct hist_entry *x, const struct hist_entry *y)
{
	const struct symbol *a = x->sym, *b = y->sym;

	if (!a && !b)
		return addr_sdiff_cmp(x->ip, y->ip);
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return cmp_u64(a->end, b->end);
}

int hist_entry__cmp_keys(const struct sort_order *so, const struct hist_entry *a,
			 const struct hist_entry *b)
{
	int r = 0;

	for (int i = 0; i < so->nr_keys && !r; i++) {
		switch (so->keys[i]) {
		case SORT_COMM:
			r = cmp_ptr(a->comm, b->comm);
			break;
		case SORT_PID:
			r = a->tid != b->tid ? (a->tid < b->tid ? -1 : 1) : cmp_ptr(a->thread, b->thread);
			break;
		case SORT_DSO:
			r = cmp_ptr(a->dso, b->dso);
			break;
		case SORT_SYM:
			r = cmp_ptr(a->dso, b->dso);
			if (!r)
				r = cmp_ptr(a->sym, b->sym);
			if (!r && !a->sym)
				r = cmp_u64(a->ip, b->ip);
			break;
		case SORT_SYMOFF:
			r = cmp_ptr(a->dso, b->dso);
			if (!r)
				r = cmp_ptr(a->sym, b->sym);
			if (!r)
				r = a->sym ? cmp_u64(a->addr, b->addr) : cmp_u64(a->ip, b->ip);
			break;
		case SORT_CPU:
			r = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
			break;
		case SORT_PARENT:
			r = cmp_str(a->parent, b->parent);
			break;
		case SORT_SRCLINE:
			r = cmp_str(a->srcline, b->srcline);
			break;
		case SORT_TRACE:
			r = cmp_str(a->trace, b->trace);
			break;
		case SORT_TIME:
			r = cmp_u64(a->time, b->time);
			break;
		case SORT_WEIGHT:
		case SORT_LOCAL_WEIGHT:
			r = cmp_u64(a->weight, b->weight);
			break;
		case SORT_ADDR:
			r = cmp_u64(a->vaddr, b->vaddr);
			break;
		case SORT_SOCKET:
			r = a->socket < b->socket ? -1 : a->socket > b->socket;
			break;
		case SORT_CGROUP:
			r = cmp_u64(a->cgroup, b->cgroup);
			break;
		case SORT_DSO_SIZE:
			r = cmp_u64(map_size(a), map_size(b));
			break;
		case SORT_SYM_SIZE:
			r = cmp_u64(sym_size(a), sym_size(b));
			break;
		case SORT_IPC_NULL:
			r = cmp_ptr(a->sym, b->sym);
			if (!r && !a->sym)
				r = cmp_u64(a->ip, b->ip);
			break;
		case SORT_SRCFILE:
			r = cmp_str(a->srcfile, b->srcfile);
			break;
		case SORT_DSO_DADDR:	/* perf: by name */
			r = cmp_str(daddr_dso_name(a), daddr_dso_name(b));
			break;
		default:	/* the other memory keys: by their values */
			if (reads_mem(so->keys[i]))
				r = cmp_u64(mem_key_value(so->keys[i], a), mem_key_value(so->keys[i], b));
			break;
		}
	}
	return r;
}

static inline uint64_t hmix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	if (!s)
		return 0;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

uint64_t hist_entry__hash_keys(const struct sort_order *so, const struct hist_entry *e)
{
	uint64_t h = 0;

	for (int i = 0; i < so->nr_keys; i++) {
		switch (so->keys[i]) {
		case SORT_COMM:
			h = hmix(h, (uintptr_t)e->comm);
			break;
		case SORT_PID:
			h = hmix(h, (uint64_t)e->tid);
			h = hmix(h, (uintptr_t)e->thread);
			break;
		case SORT_DSO:
			h = hmix(h, (uintptr_t)e->dso);
			break;
		case SORT_SYM:
			h = hmix(h, (uintptr_t)e->dso);
			h = hmix(h, e->sym ? (uintptr_t)e->sym : e->ip);
			break;
		case SORT_SYMOFF:
			h = hmix(h, (uintptr_t)e->dso);
			h = hmix(h, (uintptr_t)e->sym);
			h = hmix(h, e->sym ? e->addr : e->ip);
			break;
		case SORT_CPU:
			h = hmix(h, (uint64_t)(uint32_t)e->cpu);
			break;
		case SORT_PARENT:
			h = hmix(h, str_hash(e->parent));
			break;
		case SORT_SRCLINE:
			h = hmix(h, str_hash(e->srcline));
			break;
		case SORT_TRACE:
			h = hmix(h, str_hash(e->trace));
			break;
		case SORT_TIME:
			h = hmix(h, e->time);
			break;
		case SORT_WEIGHT:
		case SORT_LOCAL_WEIGHT:
			h = hmix(h, e->weight);
			break;
		case SORT_ADDR:
			h = hmix(h, e->vaddr);
			break;
		case SORT_SOCKET:
			h = hmix(h, (uint32_t)e->socket);
			break;
		case SORT_CGROUP:
			h = hmix(h, e->cgroup);
			break;
		case SORT_DSO_SIZE:
			h = hmix(h, map_size(e));
			break;
		case SORT_SYM_SIZE:
			h = hmix(h, sym_size(e));
			break;
		case SORT_IPC_NULL:
			h = hmix(h, e->sym ? (uintptr_t)e->sym : e->ip);
			break;
		case SORT_SRCFILE:
			h = hmix(h, str_hash(e->srcfile));
			break;
		case SORT_DSO_DADDR:
			h = hmix(h, str_hash(daddr_dso_name(e)));
			break;
		default:
			if (reads_mem(so->keys[i]))
				h = hmix(h, mem_key_value(so->keys[i], e));
			break;
		}
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return h;
}

/* the name a DSO sorts and prints by; NULL: none */
static const char *dso__sort_name(const struct dso *dso)
{
	return dso && dso->short_name ? dso->short_name : NULL;
}

static const char *dso_name(const struct hist_entry *e)
{
	return dso__sort_name(e->dso);
}

/* ascending names, missing ones last (perf's cmp_null) */
static int cmp_name_nulls_last(const char *a, const char *b)
{
	if (!a && !b)
		return 0;
	if (!a)
		return 1;
	if (!b)
		return -1;
	return strcmp(a, b);
}

/* cpu, parent, srcline, trace and time order the same way when collapsing and
 * when sorting the output: by value, missing names last */
static int cmp_display_key(int key, const struct hist_entry *a, const struct hist_entry *b)
{
	switch (key) {
	case SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case SORT_PARENT:
		return cmp_name_nulls_last(a->parent, b->parent);
	case SORT_SRCLINE:
		return cmp_name_nulls_last(a->srcline, b->srcline);
	case SORT_TRACE:
		return cmp_name_nulls_last(a->trace, b->trace);
	case SORT_TIME:
		return cmp_u64(a->time, b->time);
	case SORT_WEIGHT:	/* perf: by the sum of the entry's weights */
		return cmp_u64(a->weight * a->nr_samples, b->weight * b->nr_samples);
	case SORT_LOCAL_WEIGHT:
		return cmp_u64(a->weight, b->weight);
	case SORT_ADDR:		/* perf: by signed difference */
		return addr_sdiff_cmp(a->vaddr, b->vaddr);
	case SORT_SOCKET:	/* perf: higher ids first */
		return a->socket > b->socket ? -1 : a->socket < b->socket;
	case SORT_CGROUP:	/* perf: by id */
		return cmp_u64(a->cgroup, b->cgroup);
	case SORT_DSO_SIZE:
		return cmp_u64(map_size(a), map_size(b));
	case SORT_SYM_SIZE:
		return cmp_u64(sym_size(a), sym_size(b));
	case SORT_IPC_NULL:
		return cmp_sym_addr(a, b);
	case SORT_SRCFILE:
		/* perf's unknown source file is "", first */
		return strcmp(a->srcfile ? a->srcfile : "", b->srcfile ? b->srcfile : "");
	case SORT_SYM_DADDR:	/* perf: by signed difference */
		return addr_sdiff_cmp(he_mem(a)->daddr, he_mem(b)->daddr);
	case SORT_DSO_DADDR:	/* perf: strcmp(left, right), no sort of its own:
				   descending, no DSO first */
		return -cmp_name_nulls_last(daddr_dso_name(a), daddr_dso_name(b));
	case SORT_LOCAL_INS_LAT:	/* perf: left - right, larger first */
		return cmp_u64(he_mem(b)->ins_lat, he_mem(a)->ins_lat);
	case SORT_MEM:
	case SORT_SNOOP:
	case SORT_TLB:
	case SORT_LOCKED:
	case SORT_BLOCKED:
		return cmp_u64(mem_key_value(key, a), mem_key_value(key, b));
	default:
		return 0;
	}
}

int hist_entry__cmp_collapse(const struct sort_order *so, const struct hist_entry *a,
			     const struct hist_entry *b)
{
	int r = 0;

	for (int i = 0; i < so->nr_keys && !r; i++) {
		switch (so->keys[i]) {
		case SORT_COMM:
			r = cmp_str(a->comm, b->comm);
			break;
		case SORT_PID:
			r = a->tid < b->tid ? -1 : a->tid > b->tid;
			if (!r)
				r = cmp_ptr(a->thread, b->thread);
			break;
		case SORT_DSO:
			r = cmp_name_nulls_last(dso_name(a), dso_name(b));
			if (!r)
				r = cmp_ptr(a->dso, b->dso);
			break;
		case SORT_SYM:
		case SORT_SYMOFF:
			if (!a->sym && !b->sym) {
				r = addr_sdiff_cmp(a->ip, b->ip);
				break;
			}
			r = cmp_name_nulls_last(dso_name(a), dso_name(b));
			if (!r)
				r = cmp_ptr(a->dso, b->dso);
			if (r)
				break;
			if (!a->sym || !b->sym) {
				r = a->sym ? -1 : 1;
				break;
			}
			if (a->sym != b->sym) {
				r = addr_sdiff_cmp(a->sym->start, b->sym->start);
				if (!r)
					r = addr_sdiff_cmp(a->sym->end, b->sym->end);
				if (!r)
					r = symbol__same_range_cmp(a->sym, b->sym);
			}
			if (!r && so->keys[i] == SORT_SYMOFF)
				r = cmp_u64(a->addr, b->addr);
			break;
		default:
			r = cmp_display_key(so->keys[i], a, b);
			break;
		}
	}
	return r;
}

/* ---- compact collapse keys (sort.h) ---- */

/* A set of distinct pointers (open addressing), then their ranks. */
struct rank_set {
	const void **keys;
	uint32_t *rank;
	size_t mask, nr;
	bool has_null;
	uint32_t null_rank;
};

static size_t rank_set__slot(const struct rank_set *rs, const void *key)
{
	size_t h = ((uintptr_t)key >> 3) * 0x9e3779b97f4a7c15ULL >> 20 & rs->mask;

	while (rs->keys[h] && rs->keys[h] != key)
		h = (h + 1) & rs->mask;
	return h;
}

static int rank_set__add(struct rank_set *rs, const void *key)
{
	size_t h;

	if (!key) {
		rs->has_null = true;
		return 0;
	}
	if ((rs->nr + 1) * 2 > rs->mask + 1) {
		struct rank_set n = { .mask = rs->mask ? rs->mask * 2 + 1 : 255 };

		n.keys = calloc(n.mask + 1, sizeof(*n.keys));
		if (!n.keys)
			return -ENOMEM;
		for (size_t i = 0; rs->keys && i <= rs->mask; i++)
			if (rs->keys[i])
				n.keys[rank_set__slot(&n, rs->keys[i])] = rs->keys[i];
		n.nr = rs->nr;
		n.has_null = rs->has_null;
		free(rs->keys);
		*rs = n;
	}
	h = rank_set__slot(rs, key);
	if (!rs->keys[h]) {
		rs->keys[h] = key;
		rs->nr++;
	}
	return 0;
}

/*
 * Rank the set's pointers (NULL included when seen) by cmp, equal ones
 * alike; *bits gets the bits the ranks need. 0 or -ENOMEM.
 */
static int rank_set__rank(struct rank_set *rs, int (*cmp)(const void *, const void *),
			  unsigned int *bits)
{
	const void **v = malloc((rs->nr + 1) * sizeof(*v));
	size_t n = 0;
	uint32_t r = 0;

	rs->rank = calloc(rs->mask + 1, sizeof(*rs->rank));
	if (!v || !rs->rank) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; rs->keys && i <= rs->mask; i++)
		if (rs->keys[i])
			v[n++] = rs->keys[i];
	if (rs->has_null)
		v[n++] = NULL;
	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && cmp(&v[i - 1], &v[i]))
			r++;
		if (v[i])
			rs->rank[rank_set__slot(rs, v[i])] = r;
		else
			rs->null_rank = r;
	}
	free(v);
	for (*bits = 0; (1ULL << *bits) <= r; (*bits)++)
		;
	return 0;
}

static uint32_t rank_set__get(const struct rank_set *rs, const void *key)
{
	return key ? rs->rank[rank_set__slot(rs, key)] : rs->null_rank;
}

static void rank_set__exit(struct rank_set *rs)
{
	free(rs->keys);
	free(rs->rank);
}

/* the orders of cmp_collapse's keys, over the pointers ranked */
static int rank_cmp_comm(const void *a, const void *b)
{
	return cmp_str(*(const char *const *)a, *(const char *const *)b);
}

/* names only (perf's output order), missing ones last */
static int rank_cmp_dso_name(const void *a, const void *b)
{
	return cmp_name_nulls_last(dso__sort_name(*(const struct dso *const *)a),
				   dso__sort_name(*(const struct dso *const *)b));
}

/* names, then the object (collapsing) */
static int rank_cmp_dso(const void *a, const void *b)
{
	int r = rank_cmp_dso_name(a, b);

	return r ? r : cmp_ptr(*(const void *const *)a, *(const void *const *)b);
}

static int rank_cmp_thread(const void *a, const void *b)
{
	const struct thread *x = *(const struct thread *const *)a;
	const struct thread *y = *(const struct thread *const *)b;
	pid_t xt = x ? x->tid : -1, yt = y ? y->tid : -1;

	return xt != yt ? (xt < yt ? -1 : 1) : cmp_ptr(x, y);
}

void collapse_keys__exit(struct collapse_keys *ck)
{
	free(ck->k);
	memset(ck, 0, sizeof(*ck));
}

int collapse_keys__init(struct collapse_keys *ck, const struct sort_order *so,
			struct hist_entry *const *e, size_t n)
{
	struct rank_set sets[SORT_MAX_COLUMNS] = { 0 }, dsos = { 0 };
	unsigned int bits[SORT_MAX_COLUMNS] = { 0 }, dso_bits = 0, total = 0;
	int nr_group = so->nr_keys, err = 0;

	memset(ck, 0, sizeof(*ck));
	if (nr_group && (so->keys[nr_group - 1] == SORT_SYM || so->keys[nr_group - 1] == SORT_SYMOFF)) {
		ck->sym_key = true;
		ck->symoff = so->keys[nr_group - 1] == SORT_SYMOFF;
		nr_group--;
	}
	for (int i = 0; i < nr_group; i++)
		if (so->keys[i] != SORT_COMM && so->keys[i] != SORT_DSO &&
		    so->keys[i] != SORT_PID && so->keys[i] != SORT_CPU)
			return -ENOTSUP;
	/* distinct values per key, then their ranks */
	for (size_t j = 0; j < n && !err; j++) {
		for (int i = 0; i < nr_group && !err; i++) {
			switch (so->keys[i]) {
			case SORT_COMM:
				err = rank_set__add(&sets[i], e[j]->comm);
				break;
			case SORT_DSO:
				err = rank_set__add(&sets[i], e[j]->dso);
				break;
			case SORT_PID:
				/* the thread gives the tid (-1 without one) */
				if (e[j]->thread ? e[j]->tid != e[j]->thread->tid : e[j]->tid != -1)
					err = -ENOTSUP;
				else
					err = rank_set__add(&sets[i], e[j]->thread);
				break;
			default:
				break;
			}
		}
		if (ck->sym_key && !err)
			err = rank_set__add(&dsos, e[j]->dso);
	}
	for (int i = 0; i < nr_group && !err; i++) {
		switch (so->keys[i]) {
		case SORT_COMM:
			err = rank_set__rank(&sets[i], rank_cmp_comm, &bits[i]);
			break;
		case SORT_DSO:
			err = rank_set__rank(&sets[i], rank_cmp_dso, &bits[i]);
			break;
		case SORT_PID:
			err = rank_set__rank(&sets[i], rank_cmp_thread, &bits[i]);
			break;
		default:
			bits[i] = 32;	/* cpu: the value, offset */
			break;
		}
		total += bits[i];
	}
	if (ck->sym_key && !err)
		err = rank_set__rank(&dsos, rank_cmp_dso, &dso_bits);
	if (!err && (total > 64 || dso_bits > 31))
		err = -ENOTSUP;
	if (!err) {
		ck->k = malloc((n + 1) * sizeof(*ck->k));
		if (!ck->k)
			err = -ENOMEM;
	}
	for (size_t j = 0; j < n && !err; j++) {
		const struct hist_entry *h = e[j];
		struct collapse_key *k = &ck->k[j];
		uint64_t g = 0;

		for (int i = 0; i < nr_group; i++) {
			uint64_t v;

			switch (so->keys[i]) {
			case SORT_COMM:
				v = rank_set__get(&sets[i], h->comm);
				break;
			case SORT_DSO:
				v = rank_set__get(&sets[i], h->dso);
				break;
			case SORT_PID:
				v = rank_set__get(&sets[i], h->thread);
				break;
			default:
				v = (uint32_t)h->cpu ^ 0x80000000u;
				break;
			}
			g = bits[i] >= 64 ? v : (g << bits[i]) | v;
		}
		k->group = g;
		k->dso = 0;
		k->v1 = k->v2 = 0;
		if (ck->sym_key) {
			k->dso = rank_set__get(&dsos, h->dso);
			if (h->sym) {
				k->v1 = h->sym->start;
				k->v2 = h->sym->end;
			} else {
				k->v1 = h->ip;
				k->dso |= COLLAPSE_NO_SYM;
			}
		}
	}
	for (int i = 0; i < nr_group; i++)
		rank_set__exit(&sets[i]);
	rank_set__exit(&dsos);
	if (err) {
		collapse_keys__exit(ck);
		return err;
	}
	ck->e = e;
	return 0;
}

static int rank_cmp_sym_name(const void *a, const void *b)
{
	const struct symbol *x = *(const struct symbol *const *)a;
	const struct symbol *y = *(const struct symbol *const *)b;

	return cmp_name_nulls_last(x ? x->name : NULL, y ? y->name : NULL);
}

/* the pointer whose rank stands for output field f of h (a name) */
static const void *output_key_name(const struct hist_entry *h, int f)
{
	switch (f) {
	case SORT_COMM: return h->comm;
	case SORT_PARENT: return h->parent;
	case SORT_SRCLINE: return h->srcline;
	case SORT_TRACE: return h->trace;
	case SORT_DSO: return h->dso;
	default: return h->sym;
	}
}

void output_keys__exit(struct output_keys *ok)
{
	free(ok->w);
	free(ok->tb);
	memset(ok, 0, sizeof(*ok));
}

int output_keys__init(struct output_keys *ok, const struct sort_order *so,
		      struct hist_entry *const *e, size_t n)
{
	struct rank_set sets[SORT_MAX_COLUMNS * 2] = { 0 };
	int (*rcmp[SORT_MAX_COLUMNS * 2])(const void *, const void *) = { 0 };
	int field[OUTPUT_KEYS_MAX];
	bool addr_word[OUTPUT_KEYS_MAX] = { false };	/* symoff's second word */
	unsigned int bits, nw = 0;
	int err = 0;

	memset(ok, 0, sizeof(*ok));
	/* one word per field (symoff: two); elided key columns are skipped */
	for (int i = 0; i < so->nr_sort; i++) {
		int f = so->sort[i];

		if (f < HPP_OVERHEAD && sort_order__key_elided(so, f))
			continue;
		if (nw + 2 > OUTPUT_KEYS_MAX)
			return -ENOTSUP;
		switch (f) {
		case HPP_CHILDREN:
			ok->kind[nw] = so->depth_tiebreak ? OKEY_CHILDREN : OKEY_DESC;
			break;
		case HPP_OVERHEAD:
		case HPP_PERIOD:
		case HPP_SAMPLE:
			ok->kind[nw] = OKEY_DESC;
			break;
		case SORT_COMM:
		case SORT_PARENT:
		case SORT_SRCLINE:
		case SORT_TRACE:
			rcmp[i] = rank_cmp_comm;	/* strings, missing last */
			ok->kind[nw] = OKEY_ASC;
			break;
		case SORT_DSO:
			rcmp[i] = rank_cmp_dso_name;
			ok->kind[nw] = OKEY_ASC;
			break;
		case SORT_SYM:
		case SORT_SYMOFF:
			rcmp[i] = rank_cmp_sym_name;
			ok->kind[nw] = OKEY_ASC;
			if (f == SORT_SYMOFF) {
				field[nw++] = i;
				ok->kind[nw] = OKEY_ASC;	/* the address */
				addr_word[nw] = true;
			}
			break;
		case SORT_PID:
		case SORT_CPU:
			ok->kind[nw] = OKEY_ASC;
			break;
		default:
			return -ENOTSUP;
		}
		field[nw++] = i;
	}
	ok->nw = nw;
	ok->caller_order = so->caller_order;
	/* ranks of the names */
	for (int i = 0; i < so->nr_sort && !err; i++) {
		if (!rcmp[i])
			continue;
		for (size_t j = 0; j < n && !err; j++)
			err = rank_set__add(&sets[i], output_key_name(e[j], so->sort[i]));
		if (!err)
			err = rank_set__rank(&sets[i], rcmp[i], &bits);
	}
	if (!err) {
		ok->w = malloc((n * nw + 1) * sizeof(*ok->w));
		ok->tb = malloc((2 * n + 1) * sizeof(*ok->tb));
		if (!ok->w || !ok->tb)
			err = -ENOMEM;
	}
	for (size_t j = 0; j < n && !err; j++) {
		const struct hist_entry *h = e[j];
		uint64_t *w = &ok->w[j * nw];

		for (unsigned int k = 0; k < nw; k++) {
			int i = field[k], f = so->sort[i];

			if (rcmp[i] && !addr_word[k]) {
				w[k] = rank_set__get(&sets[i], output_key_name(h, f));
				continue;
			}
			switch (f) {
			case HPP_CHILDREN: w[k] = h->period_acc; break;
			case HPP_OVERHEAD:
			case HPP_PERIOD: w[k] = h->period; break;
			case HPP_SAMPLE: w[k] = h->nr_samples; break;
			case SORT_PID: w[k] = (uint32_t)h->tid ^ 0x80000000u; break;
			case SORT_CPU: w[k] = (uint32_t)h->cpu ^ 0x80000000u; break;
			default: w[k] = h->addr; break;	/* symoff's address */
			}
		}
		ok->tb[2 * j] = (uintptr_t)h->thread;
		ok->tb[2 * j + 1] = h->max_depth;
	}
	for (int i = 0; i < so->nr_sort; i++)
		rank_set__exit(&sets[i]);
	if (err)
		output_keys__exit(ok);
	return err;
}

int output_keys__permute(struct output_keys *ok, const uint32_t *from, size_t n)
{
	if (permute_rows(ok->w, ok->nw * sizeof(*ok->w), from, n) ||
	    permute_rows(ok->tb, 2 * sizeof(*ok->tb), from, n)) {
		output_keys__exit(ok);
		return -ENOMEM;
	}
	return 0;
}

int hist_entry__cmp_output(const struct sort_order *so, const struct hist_entry *a,
			   const struct hist_entry *b)
{
	int r = 0;

	for (int i = 0; i < so->nr_sort && !r; i++) {
		/* perf's output sort skips elided columns (a key a one-item
		 * --comms/--dsos/--symbols filter hides) */
		if (so->sort[i] < HPP_OVERHEAD && sort_order__key_elided(so, so->sort[i]))
			continue;
		switch (so->sort[i]) {
		case HPP_CHILDREN:
			r = -cmp_u64(a->period_acc, b->period_acc);
			/* perf: caller above callee on equal period, same thread only */
			if (!r && so->depth_tiebreak && a->thread == b->thread &&
			    a->max_depth != b->max_depth) {
				r = a->max_depth < b->max_depth ? -1 : 1;
				if (so->caller_order)
					r = -r;
			}
			break;
		case HPP_OVERHEAD:
		case HPP_PERIOD:
			r = -cmp_u64(a->period, b->period);
			break;
		case HPP_SAMPLE:
			r = -cmp_u64(a->nr_samples, b->nr_samples);
			break;
		case HPP_OVERHEAD_SYS:
			r = -cmp_u64(a->period_sys, b->period_sys);
			break;
		case HPP_OVERHEAD_US:
			r = -cmp_u64(a->period_us, b->period_us);
			break;
		case SORT_COMM:
			r = cmp_str(a->comm, b->comm);
			break;
		case SORT_PID:
			r = a->tid < b->tid ? -1 : a->tid > b->tid;
			break;
		case SORT_DSO:
			r = cmp_name_nulls_last(dso_name(a), dso_name(b));
			break;
		case SORT_SYM:
		case SORT_SYMOFF:
			/* perf: names ascending, no symbol last, two unresolved tie */
			r = cmp_name_nulls_last(a->sym ? a->sym->name : NULL,
						b->sym ? b->sym->name : NULL);
			if (!r && so->sort[i] == SORT_SYMOFF)
				r = cmp_u64(a->addr, b->addr);
			break;
		default:
			r = cmp_display_key(so->sort[i], a, b);
			break;
		}
	}
	return r;
}

const char *hist_entry__key_text(const struct hist_entry *e, int type)
{
	switch (type) {
	case SORT_COMM:
		return e->comm ? e->comm : "";
	case SORT_DSO:
		return dso_name(e) ? dso_name(e) : "[unknown]";
	case SORT_PARENT:
		return e->parent ? e->parent : "[other]";
	case SORT_SRCLINE:
		return e->srcline ? e->srcline : "??:0";
	case SORT_TRACE:
		return e->trace ? e->trace : "N/A";
	case SORT_SRCFILE:
		return e->srcfile ? e->srcfile : "";
	case SORT_IPC_NULL:
		return "-      -";
	default:
		return NULL;
	}
}

int hist_entry__key_snprintf(const struct sort_order *so, const struct hist_entry *e,
			     int type, char *buf, int size)
{
	const char *text = hist_entry__key_text(e, type);
	int n = 0;

	if (text)
		type = -1;
	switch (type) {
	case -1:
		n = snprintf(buf, size, "%s", text);
		break;
	case SORT_PID:
		/* perf prints the thread's current (last) comm here */
		n = snprintf(buf, size, "%7d:%s", e->tid,
			     e->thread ? thread__comm_str(e->thread) : (e->comm ? e->comm : ""));
		break;
	case SORT_SYM:
	case SORT_SYMOFF:
		if (e->sym) {
			if (type == SORT_SYMOFF)
				n = snprintf(buf, size, "[%c] %s+0x%" PRIx64, e->level, e->sym->name,
					     e->addr - e->sym->start);
			else
				n = snprintf(buf, size, "[%c] %s%s", e->level, e->sym->name,
					     e->sym->inlined ? " (inlined)" : "");
		} else {
			/* perf: "%-#.*llx" with 16 digits: no 0x for 0 */
			if (e->ip)
				n = snprintf(buf, size, "[%c] %#018" PRIx64, e->level, e->ip);
			else
				n = snprintf(buf, size, "[%c] %016" PRIx64, e->level, e->ip);
		}
		break;
	case SORT_CPU:
		n = snprintf(buf, size, "%.3d", e->cpu);
		break;
	case SORT_SOCKET:
		n = snprintf(buf, size, "%.3d", e->socket);
		break;
	case SORT_CGROUP: {
		const char *path = so->cgroups ? cgroup_names__find(so->cgroups, e->cgroup) : NULL;

		n = snprintf(buf, size, "%s", !e->cgroup ? "N/A" : path ? path : "unknown");
		break;
	}
	case SORT_DSO_SIZE:
		n = snprintf(buf, size, "%" PRIu64, map_size(e));
		break;
	case SORT_SYM_SIZE:
		if (e->sym)
			n = snprintf(buf, size, "%" PRIu64, sym_size(e));
		else
			n = snprintf(buf, size, "unknown");
		break;
	case SORT_WEIGHT:
		n = snprintf(buf, size, "%" PRIu64, e->weight * e->nr_samples);
		break;
	case SORT_LOCAL_WEIGHT:
		n = snprintf(buf, size, "%" PRIu64, e->weight);
		break;
	case SORT_ADDR:
		/* perf: "%#llx", so 0 shows as "0" */
		n = snprintf(buf, size, "%#" PRIx64, e->vaddr);
		break;
	case SORT_SYM_DADDR: {
		const struct hist_mem *m = he_mem(e);

		if (m->dsym && m->ddso && m->dsym->type == STT_OBJECT)	/* perf: "name+0xOFF" */
			n = snprintf(buf, size, "[%c] %s+0x%" PRIx64, e->level, m->dsym->name,
				     m->daddr_dso - m->dsym->start);
		else if (m->dsym && m->ddso)
			n = snprintf(buf, size, "[%c] %s%s", e->level, m->dsym->name,
				     m->dsym->inlined ? " (inlined)" : "");
		else if (m->daddr)	/* perf: "%-#.*llx" with 16 digits: no 0x for 0 */
			n = snprintf(buf, size, "[%c] %#018" PRIx64, e->level, m->daddr);
		else
			n = snprintf(buf, size, "[%c] %016" PRIx64, e->level, m->daddr);
		break;
	}
	case SORT_DSO_DADDR:
		n = snprintf(buf, size, "%s", daddr_dso_name(e) ? daddr_dso_name(e) : "[unknown]");
		break;
	case SORT_MEM:
	case SORT_SNOOP:
	case SORT_TLB:
	case SORT_LOCKED:
	case SORT_BLOCKED: {
		/* the data source's part each column prints (mem-src.h) */
		static size_t (*const text[SORT_KEY__MAX])(uint64_t, char *, size_t) = {
			[SORT_MEM] = mem_src__lvl, [SORT_SNOOP] = mem_src__snoop,
			[SORT_TLB] = mem_src__tlb, [SORT_LOCKED] = mem_src__lock,
			[SORT_BLOCKED] = mem_src__blk,
		};

		n = (int)text[type](he_mem(e)->data_src, buf, (size_t)size);
		break;
	}
	case SORT_LOCAL_INS_LAT:
		n = snprintf(buf, size, "%" PRIu64, he_mem(e)->ins_lat);
		break;
	case SORT_TIME:
		if (so->nanosecs)
			n = snprintf(buf, size, "%" PRIu64 ".%09" PRIu64, e->time / 1000000000,
				     e->time % 1000000000);
		else
			n = snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
				     e->time % 1000000000 / 1000);
		break;
	default:
		n = snprintf(buf, size, "?");
	}
	if (n >= size)
		n = size - 1;
	return n;
}
