// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinder for PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER.
 *
 * Library choice: libdw, its CFI layer (dwarf_getcfi_elf / dwarf_getcfi,
 * dwarf_cfi_addrframe, dwarf_frame_cfa, dwarf_frame_register), with the
 * small step loop and DWARF expression evaluator below. Why not libdw's
 * dwfl_attach_state/dwfl_thread_getframes or libunwind's remote API:
 * both are built around an address space object per process (a Dwfl with
 * every module reported, or a unw_addr_space_t whose caches are keyed by
 * that space), so a profiler either rebuilds it per sample (what perf does
 * with libdw: a Dwfl per sample, the main reason it manages a few thousand
 * samples/s) or keeps one per process and re-reports maps as they change.
 * Working at the CFI level lets the parsed CFI, the ELF image and a cache
 * of evaluated CFI rows live in the DSO (debuginfo-cfi.c) and be shared by
 * every process and sample that maps it; a step is then a cache probe plus
 * evaluating a few two-op expressions. libdw also reads .debug_frame and
 * the separate debug files we already open for srclines and inline frames,
 * so one library serves both.
 *
 * Memory: the captured stack copy ([sp, sp + dyn_size)) and the mapped
 * files (through the DSO's image); never the live process. When a read
 * falls past the end of the stack copy the walk stops and the last frame
 * is marked truncated.
 *
 * FP mixing: when the sample also carries the kernel's frame-pointer walk
 * of the user stack (PERF_SAMPLE_CALLCHAIN entries after
 * PERF_CONTEXT_USER; prf record --call-graph dwarf --fp-mix keeps it,
 * perf's dwarf mode never records it), a walk ending truncated at depth d
 * continues with the FP chain's frames d+1... provided the FP chain's
 * frame d is the pc the DWARF walk reached (same depth, same address);
 * otherwise the FP chain is not trusted and the stack stays truncated.
 *
 * Parallel unwinding: util/model/unwind-parallel.c runs this walk ahead
 * on worker threads for batches of samples; unwind__get_entries() replays
 * those results (see unwind.h).
 *
 * Walk memo (unwind-memo.h): while a walk is recorded, each step notes
 * which sampled registers it consumed and, per register, the stack load
 * its value came from; only loads whose values were consumed must repeat
 * for a later sample to take the recorded frames.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <elfutils/libdw.h>
#include <dwarf.h>

#include "unwind.h"
#include "unwind-memo.h"
#include "cfi-memo.h"
#include "maps.h"
#include "thread.h"
#include "debuginfo.h"
#include "dso.h"
#include "map.h"
#include "machine.h"
#include "../format/event.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../../arch/x86/unwind-regs.h"

#define MAX_OPS 32			/* longest CFI expression handled */
#define EVAL_STACK 64
#define STACK_TRUNC_WINDOW (64ULL << 20)	/* reads this far past the copy: truncation */

struct unwind_ctx {
	const struct unwind_arch *arch;
	unwind_find_map_t find;
	void *space;
	uint64_t stack_start, stack_end;	/* the copy: [start, end) */
	const char *stack;
	bool truncated;				/* a read fell past stack_end */
	/*
	 * For the walk memo (unwind-memo.h), while trace is set (else NULL):
	 * live, the registers of the frame being stepped that still hold
	 * the sampled values; used, the sampled registers the walk consumed;
	 * src/src_next, per register of the frame being stepped and of its
	 * caller, the trace's index of the stack load that gave its value
	 * when that load is not marked needed yet (-1: none). Consuming a
	 * register marks what it came from.
	 */
	uint64_t live, used;
	struct walk_trace *trace;
	int16_t *src, *src_next;
};

/* The step consumes register r of the frame being stepped. */
static inline void ctx__use(struct unwind_ctx *ctx, unsigned int r)
{
	if (likely(!ctx->trace))
		return;
	ctx->used |= ctx->live & (1ULL << r);
	if (ctx->src[r] >= 0)
		ctx->trace->reads[ctx->src[r]].needed = 1;
}

/* The caller's register r got its value from the load recorded at
 * index i (-1: none), needed only if r is consumed later. */
static inline void ctx__loaded(struct unwind_ctx *ctx, unsigned int r, int i)
{
	if (ctx->trace && i >= 0) {
		ctx->trace->reads[i].needed = 0;
		ctx->src_next[r] = (int16_t)i;
	}
}

/* Loads recorded so far (for ctx__loaded_since()). */
static inline unsigned int ctx__nr_reads(const struct unwind_ctx *ctx)
{
	return ctx->trace ? ctx->trace->nr_reads : 0;
}

/* Register r's value came from the one load recorded since the count
 * was before, if one was (a load from a mapped file is not recorded). */
static inline void ctx__loaded_since(struct unwind_ctx *ctx, unsigned int r, unsigned int before)
{
	if (ctx->trace && ctx->trace->on && ctx->trace->nr_reads == before + 1)
		ctx__loaded(ctx, r, (int)before);
}

enum step_result { STEP_OK, STEP_END, STEP_TRUNCATED };

static int ctx__read_slow(struct unwind_ctx *ctx, uint64_t addr, void *buf, size_t len);

/* Read len bytes at addr of the sampled task: the stack copy, else the
 * mapped file. The stack copy case is inline: it is most reads. */
static inline int ctx__read(struct unwind_ctx *ctx, uint64_t addr, void *buf, size_t len)
{
	if (addr >= ctx->stack_start && addr < ctx->stack_end && len <= ctx->stack_end - addr) {
		memcpy(buf, ctx->stack + (addr - ctx->stack_start), len);
		walk_trace__read(ctx->trace, addr - ctx->stack_start, buf, len);
		return 0;
	}
	return ctx__read_slow(ctx, addr, buf, len);
}

static int ctx__read_slow(struct unwind_ctx *ctx, uint64_t addr, void *buf, size_t len)
{
	struct unwind_map m;
	struct debuginfo *di;
	int err;

	if (addr >= ctx->stack_start && addr < ctx->stack_end) {
		if (len > ctx->stack_end - addr)
			goto truncated;
		memcpy(buf, ctx->stack + (addr - ctx->stack_start), len);
		walk_trace__read(ctx->trace, addr - ctx->stack_start, buf, len);
		return 0;
	}
	if (addr >= ctx->stack_end && addr - ctx->stack_end < STACK_TRUNC_WINDOW &&
	    ctx->stack_end > ctx->stack_start)
		goto truncated;
	/* a mapped file: read it from the DSO's image */
	if (ctx->find(ctx->space, addr, &m) || !m.dso || addr + len > m.end)
		return -EFAULT;
	di = dso__debuginfo(m.dso);
	if (!di)
		return -ENOMEM;
	debuginfo__lock(di);
	err = debuginfo__load_elf(di);
	if (!err)
		err = debuginfo__read(di, addr - m.start + m.pgoff, buf, len);
	debuginfo__unlock(di);
	return err;
truncated:
	ctx->truncated = true;
	return -EFAULT;
}

static int64_t sext(uint64_t v)
{
	return (int64_t)v;
}

/*
 * Evaluate a DWARF expression (DWARF 5 section 2.5) as libdw hands CFI
 * rules out: DW_OP_call_frame_cfa pushes cfa. *value gets the top of the
 * stack; *is_value is true when the expression ended in DW_OP_stack_value
 * (a value, not a location). 0 or -errno.
 */
static int eval(struct unwind_ctx *ctx, const Dwarf_Op *ops, size_t nops, uint64_t cfa,
		const uint64_t *regs, uint64_t valid, uint64_t *value, bool *is_value)
{
	uint64_t st[EVAL_STACK], a, b;
	size_t sp = 0, i = 0;
	unsigned int steps = 0;
	const unsigned int nregs = ctx->arch->nr_regs;

#define PUSH(v) do { uint64_t __v = (v); if (sp >= EVAL_STACK) return -EINVAL; st[sp] = __v; sp++; } while (0)
#define POP(v) do { if (!sp) return -EINVAL; (v) = st[--sp]; } while (0)
#define NEED(n) do { if (sp < (n)) return -EINVAL; } while (0)

	*is_value = false;
	while (i < nops) {
		const Dwarf_Op *op = &ops[i++];
		unsigned int atom = op->atom;

		if (++steps > 1000)
			return -ELOOP;
		if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
			PUSH(atom - DW_OP_lit0);
			continue;
		}
		if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
			unsigned int r = atom - DW_OP_breg0;

			if (r >= nregs || !(valid & (1ULL << r)))
				return -ENOENT;
			ctx__use(ctx, r);
			PUSH(regs[r] + op->number);
			continue;
		}
		switch (atom) {
		case DW_OP_bregx:
			if (op->number >= nregs || !(valid & (1ULL << op->number)))
				return -ENOENT;
			ctx__use(ctx, (unsigned int)op->number);
			PUSH(regs[op->number] + op->number2);
			break;
		case DW_OP_call_frame_cfa:
			PUSH(cfa);
			break;
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s:
		case DW_OP_const2u: case DW_OP_const2s: case DW_OP_const4u:
		case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
		case DW_OP_constu: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_dup: NEED(1); PUSH(st[sp - 1]); break;
		case DW_OP_drop: POP(a); break;
		case DW_OP_over: NEED(2); PUSH(st[sp - 2]); break;
		case DW_OP_pick:
			if (op->number >= sp)
				return -EINVAL;
			PUSH(st[sp - 1 - op->number]);
			break;
		case DW_OP_swap: NEED(2); a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a; break;
		case DW_OP_rot:
			NEED(3);
			a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = st[sp - 3]; st[sp - 3] = a;
			break;
		case DW_OP_deref:
		case DW_OP_deref_size: {
			uint64_t v = 0;
			size_t size = atom == DW_OP_deref ? 8 : (size_t)op->number;

			if (size == 0 || size > 8)
				return -EINVAL;
			POP(a);
			if (ctx__read(ctx, a, &v, size))
				return -EFAULT;
			PUSH(v);
			break;
		}
		case DW_OP_abs: NEED(1); if (sext(st[sp - 1]) < 0) st[sp - 1] = -st[sp - 1]; break;
		case DW_OP_neg: NEED(1); st[sp - 1] = -st[sp - 1]; break;
		case DW_OP_not: NEED(1); st[sp - 1] = ~st[sp - 1]; break;
		case DW_OP_plus_uconst: NEED(1); st[sp - 1] += op->number; break;
		case DW_OP_and: POP(b); POP(a); PUSH(a & b); break;
		case DW_OP_or: POP(b); POP(a); PUSH(a | b); break;
		case DW_OP_xor: POP(b); POP(a); PUSH(a ^ b); break;
		case DW_OP_plus: POP(b); POP(a); PUSH(a + b); break;
		case DW_OP_minus: POP(b); POP(a); PUSH(a - b); break;
		case DW_OP_mul: POP(b); POP(a); PUSH(a * b); break;
		case DW_OP_div:
			POP(b); POP(a);
			if (!b)
				return -EINVAL;
			PUSH((uint64_t)(sext(a) / sext(b)));
			break;
		case DW_OP_mod:
			POP(b); POP(a);
			if (!b)
				return -EINVAL;
			PUSH(a % b);
			break;
		case DW_OP_shl: POP(b); POP(a); PUSH(b >= 64 ? 0 : a << b); break;
		case DW_OP_shr: POP(b); POP(a); PUSH(b >= 64 ? 0 : a >> b); break;
		case DW_OP_shra: POP(b); POP(a); PUSH((uint64_t)(sext(a) >> (b >= 64 ? 63 : b))); break;
		case DW_OP_eq: POP(b); POP(a); PUSH(a == b); break;
		case DW_OP_ne: POP(b); POP(a); PUSH(a != b); break;
		case DW_OP_lt: POP(b); POP(a); PUSH(sext(a) < sext(b)); break;
		case DW_OP_le: POP(b); POP(a); PUSH(sext(a) <= sext(b)); break;
		case DW_OP_gt: POP(b); POP(a); PUSH(sext(a) > sext(b)); break;
		case DW_OP_ge: POP(b); POP(a); PUSH(sext(a) >= sext(b)); break;
		case DW_OP_skip:
		case DW_OP_bra: {
			/* op->number: byte offset from the end of this op; libdw
			 * gives each op's byte offset, so find the target by it. */
			uint64_t target;
			size_t j;

			if (atom == DW_OP_bra) {
				POP(a);
				if (!a)
					break;
			}
			target = op->offset + 3 + (uint64_t)(int64_t)(int16_t)op->number;
			for (j = 0; j < nops && ops[j].offset != target; j++)
				;
			i = j;
			break;
		}
		case DW_OP_nop:
			break;
		case DW_OP_stack_value:
			*is_value = true;
			i = nops;
			break;
		default:
			pr_debug2("unwind: unsupported DWARF op 0x%x\n", atom);
			return -ENOTSUP;
		}
	}
	if (!sp)
		return -EINVAL;
	*value = st[sp - 1];
	return 0;
#undef PUSH
#undef POP
#undef NEED
}

/* RULE_AT_CFA / RULE_VAL_CFA with *off from libdw's ops, else RULE_EXPR. */
static uint8_t rule__classify(const Dwarf_Op *ops, size_t nops, int64_t *off)
{
	bool value = nops > 1 && ops[nops - 1].atom == DW_OP_stack_value;

	if (value)
		nops--;
	if (!nops || ops[0].atom != DW_OP_call_frame_cfa || nops > 2)
		return RULE_EXPR;
	*off = 0;
	if (nops == 2) {
		if (ops[1].atom != DW_OP_plus_uconst)
			return RULE_EXPR;
		*off = (int64_t)ops[1].number;
	}
	return value ? RULE_VAL_CFA : RULE_AT_CFA;
}

/* cfa_reg/cfa_off from a reg + off CFA rule; false for other expressions */
static bool cfa__classify(const Dwarf_Op *ops, size_t nops, unsigned int nregs, int *reg,
			  int64_t *off)
{
	if (nops != 1)
		return false;
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
	} else if (ops[0].atom == DW_OP_bregx && ops[0].number < nregs) {
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
	} else {
		return false;
	}
	return (unsigned int)*reg < nregs;
}

struct cfi_row *cfi_row__new(Dwarf_Frame *frame, unsigned int nregs)
{
	Dwarf_Op *ops[UNWIND_MAX_REGS + 1], ops_mem[UNWIND_MAX_REGS][3];
	size_t nops[UNWIND_MAX_REGS + 1], total = 0, size;
	uint8_t kind[UNWIND_MAX_REGS + 1];
	struct cfi_row *row;
	unsigned int r;
	bool signal = false;
	int ra;

	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	if (ra < 0 || (unsigned int)ra >= nregs)
		return NULL;
	if (dwarf_frame_cfa(frame, &ops[nregs], &nops[nregs]) || !nops[nregs] ||
	    nops[nregs] > MAX_OPS)
		return NULL;
	kind[nregs] = RULE_EXPR;
	total = nops[nregs];
	for (r = 0; r < nregs; r++) {
		kind[r] = RULE_UNDEF;
		if (dwarf_frame_register(frame, (int)r, ops_mem[r], &ops[r], &nops[r]) ||
		    nops[r] > MAX_OPS) {
			nops[r] = 0;
			continue;
		}
		if (nops[r] == 0)
			kind[r] = ops[r] ? RULE_UNDEF : RULE_SAME;
		else
			kind[r] = RULE_EXPR;
		total += nops[r];
	}
	size = sizeof(*row) + total * sizeof(Dwarf_Op);
	if (size > ROW_BUF_SIZE)
		return NULL;
	row = calloc(1, size);
	if (!row)
		return NULL;
	row->ra_reg = (unsigned int)ra;
	row->signal = signal;
	row->simple = cfa__classify(ops[nregs], nops[nregs], nregs, &row->cfa_reg, &row->cfa_off);
	if (!row->simple)
		row->cfa_reg = -1;
	total = 0;
	for (r = 0; r <= nregs; r++) {
		if (r < nregs && kind[r] == RULE_EXPR)
			kind[r] = rule__classify(ops[r], nops[r], &row->off[r]);
		if (r < nregs && kind[r] == RULE_EXPR)
			row->simple = false;
		row->kind[r] = kind[r];
		if (r < nregs && kind[r] == RULE_SAME)
			row->same_mask |= 1ULL << r;
		else if (r < nregs && kind[r] != RULE_UNDEF)
			row->rule_mask |= 1ULL << r;
		row->nops[r] = (uint8_t)nops[r];
		row->first[r] = (uint16_t)total;
		if (nops[r])
			memcpy(&row->ops[total], ops[r], nops[r] * sizeof(Dwarf_Op));
		total += nops[r];
	}
	row->size = row->simple ? sizeof(*row) : size;
	row->fast = row->simple;
	for (r = 0; row->fast && r < nregs; r++) {
		if (!(row->rule_mask & (1ULL << r)))
			continue;
		if (row->nr_at == FAST_MAX_AT || row->off[r] != (int32_t)row->off[r]) {
			row->fast = false;
			break;
		}
		if (row->kind[r] == RULE_VAL_CFA)
			row->at_val |= 1u << row->nr_at;
		row->at_reg[row->nr_at] = (uint8_t)r;
		row->at_off[row->nr_at++] = (int32_t)row->off[r];
		row->at_mask |= 1ULL << r;
	}
	return row;
}

int unwind__row_text(struct dso *dso, uint64_t off, bool fresh, char *buf, size_t size)
{
	const struct unwind_arch *arch = unwind_arch__host();
	uint64_t rowbuf[ROW_BUF_SIZE / sizeof(uint64_t)];
	const struct cfi_row *row;
	struct cfi_row *own = NULL;
	unsigned int r;
	size_t n;

	if (!arch || !size)
		return -ENOTSUP;
	if (fresh) {
		struct debuginfo *di = dso__debuginfo(dso);
		Dwarf_Frame *frame = NULL;
		uint64_t vaddr;

		if (!di)
			return -ENOMEM;
		debuginfo__lock(di);
		if (!debuginfo__load_elf(di) && !debuginfo__offset_to_vaddr(di, off, &vaddr))
			frame = debuginfo__cfi_frame_uncached(di, vaddr);
		debuginfo__unlock(di);
		own = frame ? cfi_row__new(frame, arch->nr_regs) : NULL;
		free(frame);
		if (!own)
			return -ENOENT;
		row = own;
	} else if (dso__cfi_row(dso, off, arch->nr_regs, (struct cfi_row *)rowbuf, &row)) {
		return -ENOENT;
	}
	n = (size_t)snprintf(buf, size, "cfa r%d%+" PRId64 " ra %u%s", row->cfa_reg, row->cfa_off,
			     row->ra_reg, row->signal ? " signal" : "");
	for (r = 0; r < arch->nr_regs && n < size; r++)
		n += (size_t)snprintf(buf + n, size - n, " %u:%u/%u%+" PRId64, r, row->kind[r],
				      row->nops[r], row->off[r]);
	free(own);
	return 0;
}

/*
 * A step where no CFI covers the pc (code built without unwind tables, such
 * as crt's __do_global_dtors_aux, which runs dlclose()'s destructors): the
 * caller's frame from the frame record the frame pointer points at, as
 * libunwind and libdw fall back to. Only a record in the stack above the
 * stack pointer is taken; the caller gets the pc, stack pointer and frame
 * pointer, its other registers are unknown.
 */
static enum step_result step_fp(struct unwind_ctx *ctx, const uint64_t *regs,
				uint64_t *nregs_v, uint64_t *valid)
{
	const struct unwind_arch *arch = ctx->arch;
	uint64_t need, rec[2], fp;

	if (arch->fp_reg < 0)
		return STEP_END;
	need = (1ULL << arch->fp_reg) | (1ULL << arch->sp_reg);
	if ((*valid & need) != need)
		return STEP_END;
	fp = regs[arch->fp_reg];
	ctx__use(ctx, (unsigned int)arch->fp_reg);
	ctx__use(ctx, arch->sp_reg);
	if (fp < regs[arch->sp_reg] || fp < ctx->stack_start || fp % sizeof(uint64_t))
		return STEP_END;
	if (fp >= ctx->stack_end && fp - ctx->stack_end >= STACK_TRUNC_WINDOW)
		return STEP_END;	/* not a stack address: no frame record */
	ctx->truncated = false;
	if (ctx__read(ctx, fp, rec, sizeof(rec)))	/* recorded as needed */
		return ctx->truncated ? STEP_TRUNCATED : STEP_END;
	if (ctx->trace)
		memset(ctx->src_next, 0xff, arch->nr_regs * sizeof(*ctx->src_next));
	if (!rec[1])
		return STEP_END;
	nregs_v[arch->fp_reg] = rec[0];
	nregs_v[arch->ip_reg] = rec[1];
	nregs_v[arch->sp_reg] = fp + 2 * sizeof(uint64_t);
	*valid = need | (1ULL << arch->ip_reg);
	ctx->live = 0;		/* the caller's registers all came from the record */
	return STEP_OK;
}

/* One step: from regs/valid of the frame at pc (looked up as lookup), the
 * caller's registers into nregs_v and its valid mask into *valid (on
 * STEP_OK only; nregs_v may be scribbled on otherwise). */
static enum step_result step(struct unwind_ctx *ctx, const struct unwind_map *m,
			     uint64_t lookup, const uint64_t *regs, uint64_t *nregs_v,
			     uint64_t *valid, bool *signal)
{
	const struct unwind_arch *arch = ctx->arch;
	const unsigned int nregs = arch->nr_regs;
	uint64_t rowbuf[ROW_BUF_SIZE / sizeof(uint64_t)];
	const struct cfi_row *row;
	uint64_t nvalid, cfa, bits;
	unsigned int r, ra_reg;
	bool is_value;

	if (!m->dso)
		return STEP_END;
	switch (dso__cfi_row(m->dso, lookup - m->start + m->pgoff, nregs, (struct cfi_row *)rowbuf,
			     &row)) {
	case 0:
		break;
	case -ENOENT:
		*signal = false;
		return step_fp(ctx, regs, nregs_v, valid);
	default:
		return STEP_END;
	}
	ra_reg = row->ra_reg;
	*signal = row->signal;
	ctx->truncated = false;
	if (row->cfa_reg >= 0) {
		if (!(*valid & (1ULL << row->cfa_reg)))
			return STEP_END;
		ctx__use(ctx, (unsigned int)row->cfa_reg);
		cfa = regs[row->cfa_reg] + (uint64_t)row->cfa_off;
	} else if (eval(ctx, &row->ops[row->first[nregs]], row->nops[nregs], 0, regs, *valid,
			&cfa, &is_value)) {
		return ctx->truncated ? STEP_TRUNCATED : STEP_END;
	}
	/* registers the caller shares with this frame, then only those with a
	 * rule (a row has a few): no pass over every register per frame */
	nvalid = *valid & row->same_mask;
	for (bits = nvalid; bits; bits &= bits - 1) {
		r = (unsigned int)__builtin_ctzll(bits);
		nregs_v[r] = regs[r];
	}
	if (ctx->trace) {
		memset(ctx->src_next, 0xff, nregs * sizeof(*ctx->src_next));
		for (bits = nvalid; bits; bits &= bits - 1) {
			r = (unsigned int)__builtin_ctzll(bits);
			ctx->src_next[r] = ctx->src[r];
		}
	}
	if (likely(row->fast)) {
		/* each register saved at CFA + off, mostly in the stack copy
		 * (or, at_val, its value is CFA + off) */
		uint64_t span = ctx->stack_end - ctx->stack_start;

		nvalid |= row->at_mask;
		for (unsigned int i = 0; i < row->nr_at; i++) {
			uint64_t a = cfa + (uint64_t)(int64_t)row->at_off[i];
			uint64_t rel = a - ctx->stack_start;

			r = row->at_reg[i];
			if (row->at_val & (1u << i)) {
				nregs_v[r] = a;
			} else if (likely(rel < span && span - rel >= sizeof(uint64_t))) {
				memcpy(&nregs_v[r], ctx->stack + rel, sizeof(uint64_t));
				ctx__loaded(ctx, r, walk_trace__read(ctx->trace, rel, &nregs_v[r],
								     sizeof(uint64_t)));
			} else {
				unsigned int before = ctx__nr_reads(ctx);

				if (ctx__read_slow(ctx, a, &nregs_v[r], sizeof(uint64_t))) {
					if (ctx->truncated && r == ra_reg)
						return STEP_TRUNCATED;
					nvalid &= ~(1ULL << r);
				} else {
					ctx__loaded_since(ctx, r, before);
				}
			}
		}
		goto done;
	}
	for (bits = row->rule_mask; bits; bits &= bits - 1) {
		unsigned int before;
		uint64_t v;
		bool load;	/* v is where the value is saved */

		r = (unsigned int)__builtin_ctzll(bits);
		switch (row->kind[r]) {
		case RULE_VAL_CFA:
		case RULE_AT_CFA:
			v = cfa + (uint64_t)row->off[r];
			load = row->kind[r] == RULE_AT_CFA;
			break;
		case RULE_EXPR:
			if (eval(ctx, &row->ops[row->first[r]], row->nops[r], cfa, regs, *valid,
				 &v, &is_value)) {
				if (ctx->truncated && r == ra_reg)
					return STEP_TRUNCATED;
				continue;
			}
			load = !is_value;
			break;
		default:
			continue;
		}
		before = ctx__nr_reads(ctx);
		if (load && ctx__read(ctx, v, &v, sizeof(v))) {
			if (ctx->truncated && r == ra_reg)
				return STEP_TRUNCATED;
			continue;
		}
		/* a plain saved register: its load is needed only if it is
		 * consumed (an expression's own loads are, at once) */
		if (load && row->kind[r] == RULE_AT_CFA)
			ctx__loaded_since(ctx, r, before);
		nregs_v[r] = v;
		nvalid |= 1ULL << r;
	}
done:
	/* the CFA is the caller's stack pointer (x86_64 and arm64 psABIs) */
	nregs_v[arch->sp_reg] = cfa;
	nvalid |= 1ULL << arch->sp_reg;
	/* the caller's return address is consumed: where it came from (a
	 * load, or a sampled register kept by a same value rule) counts */
	if (ctx->trace) {
		if (*valid & row->same_mask & (1ULL << ra_reg))
			ctx__use(ctx, ra_reg);
		if (ctx->src_next[ra_reg] >= 0)
			ctx->trace->reads[ctx->src_next[ra_reg]].needed = 1;
	}
	if (!(nvalid & (1ULL << ra_reg)) || !nregs_v[ra_reg])
		return STEP_END;	/* outermost frame (RA undefined) */
	nregs_v[arch->ip_reg] = nregs_v[ra_reg];
	nvalid |= 1ULL << arch->ip_reg;
	ctx__use(ctx, arch->ip_reg);
	ctx__use(ctx, arch->sp_reg);
	if (nregs_v[arch->ip_reg] == regs[arch->ip_reg] && cfa == regs[arch->sp_reg])
		return STEP_END;	/* no progress */
	*valid = nvalid;
	/* the caller's registers holding sampled values: those this frame
	 * held and shares (same value rule) */
	ctx->live &= row->same_mask & ~((1ULL << arch->sp_reg) | (1ULL << arch->ip_reg));
	return STEP_OK;
}

/* The kernel's frame-pointer walk of the user stack (PERF_SAMPLE_CALLCHAIN
 * user part), for completing a truncated DWARF walk. */
struct fp_chain {
	const uint64_t *ips;	/* [0]: the sampled pc, then return addresses */
	size_t nr;
	bool capped;		/* the kernel's depth limit may have cut it */
};

/*
 * Continue a walk whose frame depth (0 = innermost) ended truncated at a
 * frame with pc: when the FP chain's frame at the same depth is that pc
 * (the two walks agree there), frames depth + 1 ... come from the FP
 * chain. Emits frame depth itself first (untruncated when mixing).
 * Returns false when no mixing was possible (nothing emitted: the caller
 * emits the frame as truncated), else true with *ret the cb result.
 */
static bool fp_mix(unwind_entry_cb_t cb, void *arg, unwind_find_map_t find, void *space,
		   const struct fp_chain *fp, struct unwind_entry *e, int depth, uint64_t pc,
		   int max_stack, int *ret)
{
	size_t j;
	int n;

	if (!fp || (size_t)depth + 1 >= fp->nr || fp->ips[depth] != pc)
		return false;
	e->truncated = false;
	*ret = cb(e, arg);
	if (*ret)
		return true;
	for (j = depth + 1, n = depth + 1; j < fp->nr && n < max_stack; j++, n++) {
		struct unwind_entry f = { 0 };
		struct unwind_map m = { 0 };

		if (fp->ips[j] >= (uint64_t)PERF_CONTEXT_MAX || fp->ips[j] < 2)
			break;
		f.ip = fp->ips[j] - 1;	/* inside the call, like the DWARF frames */
		if (!find(space, f.ip, &m)) {
			f.map = m.map;
			f.sym = m.sym;
			f.sym_known = m.sym_known;
		}
		/* the chain ran into the kernel's depth limit: more may follow */
		f.truncated = fp->capped && j + 1 == fp->nr && n + 1 < max_stack;
		*ret = cb(&f, arg);
		if (*ret)
			return true;
	}
	return true;
}

/*
 * The walk. nosym: the entries' symbols are not wanted (sym_known false:
 * the consumer looks one up if it needs it), so a frame in the map of the
 * frame before takes that map without a lookup (maps do not overlap, and
 * do not change during a walk).
 */
/*
 * The walk. memo_maps: the address space's maps when the walk memo
 * (unwind-memo.h) may answer or keep this walk (nosym walks without an
 * FP chain only), else NULL.
 */
static int walk(unwind_entry_cb_t cb, void *arg, unwind_find_map_t find, void *space,
		const struct regs_dump *rdump, const struct stack_dump *sdump,
		const struct fp_chain *fp, int max_stack, bool nosym, const void *memo_maps)
{
	struct unwind_ctx ctx = { .find = find, .space = space };
	struct unwind_map prev = { 0 };
	uint64_t regbuf[2][UNWIND_MAX_REGS], *regs = regbuf[0], valid, size;
	uint64_t sampled[UNWIND_MAX_REGS];
	int16_t srcbuf[2][UNWIND_MAX_REGS];
	struct walk_memo *wm = NULL;
	struct walk_key key;
	bool signal = false;
	int n, ret;

	ctx.arch = unwind_arch__host();
	if (!ctx.arch)
		return -ENOTSUP;
	if (unwind_arch__sample_regs(ctx.arch, rdump, regs, &valid))
		return -ENOENT;
	if (!sdump || !sdump->data || !sdump->dyn_size)
		return -ENOENT;
	size = sdump->dyn_size < sdump->size ? sdump->dyn_size : sdump->size;
	ctx.stack = sdump->data;
	ctx.stack_start = regs[ctx.arch->sp_reg];
	ctx.stack_end = ctx.stack_start + size;
	if (max_stack <= 0)
		max_stack = 127;
	ctx.live = valid;
	if (memo_maps && !fp && (wm = walk_memo__thread())) {
		const struct walk_memo_entry *e;

		key = (struct walk_key){
			.maps = memo_maps, .maps_gen = maps__current_generation(),
			.dwarf_gen = debuginfo__generation(), .max_stack = max_stack,
			.ip = regs[ctx.arch->ip_reg], .sp = regs[ctx.arch->sp_reg],
			.span = size, .valid = valid,
		};
		e = walk_memo__find(wm, &key, regs, ctx.stack);
		if (e)
			return walk_memo__replay(e, cb, arg);
		ctx.trace = walk_memo__trace(wm);
		memcpy(sampled, regs, ctx.arch->nr_regs * sizeof(*regs));
		memset(srcbuf[0], 0xff, sizeof(srcbuf[0]));
		ctx.src = srcbuf[0];
		ctx.src_next = srcbuf[1];
	}

	for (n = 0; n < max_stack; n++) {
		struct unwind_entry e = { 0 };
		struct unwind_map m = { 0 };
		uint64_t pc = regs[ctx.arch->ip_reg];
		uint64_t lookup = (n == 0 || signal) ? pc : pc - 1;
		enum step_result res = STEP_END;
		bool found;

		e.ip = lookup;
		if (nosym && prev.map && lookup >= prev.start && lookup < prev.end) {
			m = prev;
			found = true;
		} else if ((found = !find(space, lookup, &m)) && nosym) {
			m.sym = NULL;
			m.sym_known = false;
			prev = m;
		}
		if (found) {
			e.map = m.map;
			e.sym = m.sym;
			e.sym_known = m.sym_known;
			if (n + 1 < max_stack)
				res = step(&ctx, &m, lookup, regs, regs == regbuf[0] ? regbuf[1] : regbuf[0],
					   &valid, &signal);
		}
		e.truncated = res == STEP_TRUNCATED;
		if (e.truncated && fp && fp_mix(cb, arg, find, space, fp, &e, n, pc, max_stack, &ret))
			return ret;
		ret = cb(&e, arg);
		if (ret)
			return ret;
		walk_trace__entry(ctx.trace, &e);
		if (res != STEP_OK)
			break;
		regs = regs == regbuf[0] ? regbuf[1] : regbuf[0];	/* the caller's */
		if (ctx.trace) {
			int16_t *t = ctx.src;

			ctx.src = ctx.src_next;
			ctx.src_next = t;
		}
	}
	if (ctx.trace)
		walk_memo__store(wm, &key, sampled, ctx.used);
	return 0;
}

int unwind__get_entries_space(unwind_entry_cb_t cb, void *arg, unwind_find_map_t find,
			      void *space, const struct regs_dump *rdump,
			      const struct stack_dump *sdump, int max_stack)
{
	return walk(cb, arg, find, space, rdump, sdump, NULL, max_stack, false, NULL);
}

int unwind__get_entries_space_fp(unwind_entry_cb_t cb, void *arg, unwind_find_map_t find,
				 void *space, const struct regs_dump *rdump,
				 const struct stack_dump *sdump, const uint64_t *fp_ips,
				 size_t nr_fp, bool fp_capped, int max_stack)
{
	struct fp_chain fp = { fp_ips, nr_fp, fp_capped };

	return walk(cb, arg, find, space, rdump, sdump, nr_fp ? &fp : NULL, max_stack, false, NULL);
}

/* ---- the model's address space ---- */

static int thread__find_map(void *space, uint64_t addr, struct unwind_map *m)
{
	struct symbol *sym;
	struct map *map;

	if (!thread__find_user_map(space, addr, &map, &sym))
		return -ENOENT;
	m->map = map;
	m->sym = sym;
	m->sym_known = true;
	m->dso = map->dso;
	m->start = map->start;
	m->end = map->end;
	m->pgoff = map->pgoff;
	if (m->dso && (m->dso->kind == DSO_ANON || m->dso->kind == DSO_KERNEL ||
		       m->dso->kind == DSO_KMODULE))
		m->dso = NULL;
	return 0;
}

/*
 * The user part of the sample's kernel callchain (after PERF_CONTEXT_USER),
 * present when it was recorded with the user FP chain kept (prf record
 * --call-graph dwarf --fp-mix; perf's dwarf mode sets
 * exclude_callchain_user, so its files have none).
 */
static bool sample__fp_chain(const struct perf_sample *data, struct fp_chain *fp)
{
	const struct ip_callchain *cc = data->callchain;
	uint64_t i, j;

	if (!cc || !cc->nr)
		return false;
	for (i = 0; i < cc->nr; i++)
		if (cc->ips[i] == (uint64_t)PERF_CONTEXT_USER)
			break;
	if (++i >= cc->nr)
		return false;
	for (j = i; j < cc->nr && cc->ips[j] < (uint64_t)PERF_CONTEXT_MAX; j++)
		;
	fp->ips = &cc->ips[i];
	fp->nr = j - i;
	/* the kernel stops at kernel.perf_event_max_stack (127 by default)
	 * entries, context markers included */
	fp->capped = cc->nr >= UNWIND_FP_MAX_STACK;
	return fp->nr > 0;
}

static int walk_sample(unwind_entry_cb_t cb, void *arg, struct thread *thread,
		       const struct perf_sample *data, int max_stack, bool nosym)
{
	struct fp_chain fp;

	if (!perf_sample__has_user_stack(data))
		return -ENOENT;
	return walk(cb, arg, thread__find_map, thread, &data->user_regs, &data->user_stack,
		    sample__fp_chain(data, &fp) ? &fp : NULL, max_stack, nosym,
		    nosym ? thread__maps(thread) : NULL);
}

int unwind__walk_sample(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			const struct perf_sample *data, int max_stack)
{
	return walk_sample(cb, arg, thread, data, max_stack, false);
}

static int get_entries(unwind_entry_cb_t cb, void *arg, struct thread *thread,
		       struct perf_sample *data, int max_stack, bool nosym)
{
	int ret;

	if (!perf_sample__has_user_stack(data))
		return -ENOENT;
	if (unwind__replay(cb, arg, thread, data, max_stack, &ret))
		return ret;
	return walk_sample(cb, arg, thread, data, max_stack, nosym);
}

int unwind__get_entries(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			struct perf_sample *data, int max_stack)
{
	return get_entries(cb, arg, thread, data, max_stack, false);
}

int unwind__get_entries_nosym(unwind_entry_cb_t cb, void *arg, struct thread *thread,
			      struct perf_sample *data, int max_stack)
{
	return get_entries(cb, arg, thread, data, max_stack, true);
}

uint64_t unwind__sample_regs_mask(void)
{
	const struct unwind_arch *arch = unwind_arch__host();

	return arch ? arch->sample_regs_mask : 0;
}
