// SPDX-License-Identifier: GPL-2.0
/*
 * Inline scopes of a DSO (debuginfo-internal.h): the chain of
 * DW_TAG_inlined_subroutine scopes at an address and the function they
 * were inlined into, from a per-CU index of functions and a per-function
 * index of scopes (prf's DIE walker, dwarf-die.h, or libdw's), named as
 * perf 6.1 shows them; chains worked out are kept between runs
 * (inline-cache.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>
#include <dwarf.h>

#include "debuginfo-internal.h"
#include "inline-cache.h"
#include "inline-sym.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../lib/tunables.h"

struct func_range {
	uint64_t lo, hi;	/* [lo, hi) */
	Dwarf_Off off;		/* DW_TAG_subprogram DIE */
};

struct cu_funcs {		/* the functions of one CU, sorted by lo */
	Dwarf_Off cu_off;
	struct func_range *r;
	size_t n, alloc;
	struct dwarf_unit *unit;	/* prf's DIE walker's, NULL: libdw's walk */
};

/*
 * Inline scope index of one function: every DW_TAG_inlined_subroutine
 * (and nested DW_TAG_subprogram) range below its DW_TAG_subprogram, by
 * nesting depth (lexical blocks do not count). Scopes of one depth never
 * overlap (siblings, or below disjoint parents), so the chain at an
 * address is one binary search per depth. Built on the function's first
 * lookup, with one walk of its DIE subtree.
 */
struct scope_range {
	uint64_t lo, hi;	/* [lo, hi) */
	Dwarf_Off off;		/* the scope's DIE */
	Dwarf_Off parent;	/* enclosing scope's DIE (the function at depth 1) */
};

struct scope_level {
	struct scope_range *r;	/* sorted by lo */
	size_t n, alloc;
};

struct func_scopes {
	struct func_scopes *next;	/* hash chain */
	Dwarf_Off func_off;
	struct scope_level *levels;	/* levels[d]: depth d + 1 */
	unsigned int nr_levels;
};

_Static_assert(offsetof(struct func_range, lo) == 0, "upper_bound_u64 key");
_Static_assert(offsetof(struct scope_range, lo) == 0, "upper_bound_u64 key");

/* Keep the inline chains worked out from the DWARF this run, with those
 * kept before (at teardown, before the strings they point to go), and
 * unmap the kept ones (the frames pointing into them are gone). */
void debuginfo__keep_inline(struct debuginfo *di)
{
	if (di->inl.nr_ic_new && di->line.lcache_path)
		inline_cache__store(di->line.lcache_path, &di->line.lcache_st, di->inl.icache, di->inl.ic_new,
				    di->inl.nr_ic_new);
	for (size_t i = 0; i < di->inl.nr_ic_new; i++)
		free(di->inl.ic_new[i].levels);
	free(di->inl.ic_new);
	inline_cache__close(di->inl.icache);
}

/* The DIE's DW_AT_linkage_name (or DW_AT_MIPS_linkage_name), its
 * abstract origin's or specification's where it has none; NULL if none. */
static const char *die__linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	return name ? name : dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
}

/*
 * The name of a chain level's DIE (see "Naming of the levels" below):
 * for an inlined level (inlined true) a mangled (C++, Rust) linkage name,
 * which dso__inline_name() demangles into the qualified name perf shows
 * (ns::W::inner, where DW_AT_name says inner); else DW_AT_name, else the
 * linkage name, else "??". *has_name: DW_AT_name was there.
 */
static const char *die__name(Dwarf_Die *die, bool inlined, bool *has_name)
{
	const char *linkage = die__linkage_name(die), *name;
	Dwarf_Attribute attr;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	*has_name = name != NULL;
	if ((inlined && name__mangled(linkage)) || !name)
		name = linkage;
	return name ? name : "??";
}

static void die__call_site(Dwarf_Die *die, const struct dwarf_line_files *files,
			   const char **file, unsigned int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &w) == 0)
		*line = (unsigned int)w;
	if (files && dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &w) == 0 &&
	    w < files->n)
		*file = files->name[w];
}

#define MAX_INLINE_DEPTH 64

static int scope_level__add(struct scope_level *l, uint64_t lo, uint64_t hi, Dwarf_Off off,
			    Dwarf_Off parent)
{
	if (l->n == l->alloc) {
		size_t na = l->alloc ? 2 * l->alloc : 16;
		struct scope_range *nr = realloc(l->r, na * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		l->r = nr;
		l->alloc = na;
	}
	l->r[l->n++] = (struct scope_range){ lo, hi, off, parent };
	return 0;
}

/* dwarf_range_cb_t of the scope index: a scope's range at its depth. */
static int func_scopes__add(void *arg, unsigned int depth, uint64_t off, uint64_t parent,
			    uint64_t lo, uint64_t hi)
{
	struct func_scopes *fs = arg;

	if (lo >= hi)
		return 0;
	if (depth >= fs->nr_levels) {
		struct scope_level *nl = realloc(fs->levels, (depth + 1) * sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		memset(nl + fs->nr_levels, 0, (depth + 1 - fs->nr_levels) * sizeof(*nl));
		fs->levels = nl;
		fs->nr_levels = depth + 1;
	}
	return scope_level__add(&fs->levels[depth], lo, hi, off, parent);
}

static void func_scopes__clear(struct func_scopes *fs)
{
	for (unsigned int d = 0; d < fs->nr_levels; d++)
		free(fs->levels[d].r);
	free(fs->levels);
	fs->levels = NULL;
	fs->nr_levels = 0;
}

static int scope_range__cmp(const void *a, const void *b)
{
	const struct scope_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void func_scopes__free(struct func_scopes *fs)
{
	func_scopes__clear(fs);
	free(fs);
}

/*
 * The sections prf's DIE walker reads (dwarf-die.h), with the image's
 * .debug_info when that is inflated on demand (the walker only reads
 * units debuginfo__unit_ready() made whole). false: walk with libdw
 * (also with $PRF_DWARF_DIE=0, to compare). Caller holds the lock.
 */
static bool debuginfo__die_secs(struct debuginfo *di)
{
	struct debug_lazy *l = &di->file.dbg_img.lazy[DEBUG_LAZY_INFO];

	if (!di->inl.die_secs_tried) {
		di->inl.die_secs_tried = true;
		if (!tunable__bool(TUNABLE_DWARF_DIE) ||
		    dwarf_die_secs__from_elf(di->file.dwarf ? dwarf_getelf(di->file.dwarf) : NULL,
					     &di->inl.die_secs))
			memset(&di->inl.die_secs, 0, sizeof(di->inl.die_secs));
		else if (l->dst) {
			di->inl.die_secs.info = l->dst;
			di->inl.die_secs.info_len = l->dst_len;
		}
	}
	return di->inl.die_secs.info != NULL;
}

/* Say (-vv) why a unit is walked with libdw. */
static void debuginfo__die_fallback(struct debuginfo *di, uint64_t off, int err)
{
	pr_debug2("debuginfo: %s: DIE at %#" PRIx64 ": %s, libdw walks it\n",
		  di->file.debug_path && *di->file.debug_path ? di->file.debug_path : di->dso->long_name, off,
		  err == -EOPNOTSUPP ? "a form or unit kind prf does not read" : "malformed");
}

/* The scope index of the function func (built on first use; NULL: out
 * of memory). Caller holds the lock. */
static struct func_scopes *debuginfo__func_scopes(struct debuginfo *di, struct cu_funcs *cf,
						  Dwarf_Die *func)
{
	Dwarf_Off off = dwarf_dieoffset(func);
	struct func_scopes **b = &di->inl.func_scopes[(off ^ (off >> 10)) % FUNC_SCOPES_BUCKETS], *fs;
	int err;

	for (fs = *b; fs; fs = fs->next)
		if (fs->func_off == off)
			return fs;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return NULL;
	fs->func_off = off;
	err = cf->unit ? dwarf_unit__scopes(cf->unit, off, MAX_INLINE_DEPTH - 1, func_scopes__add, fs) :
			 -EOPNOTSUPP;
	if (err && err != -ENOMEM) {
		if (cf->unit)
			debuginfo__die_fallback(di, off, err);
		func_scopes__clear(fs);
		err = dwarf_die__scopes_libdw(di->file.dwarf, off, MAX_INLINE_DEPTH - 1, func_scopes__add,
					      fs);
	}
	if (err == -ENOMEM) {
		func_scopes__free(fs);
		return NULL;
	}
	for (unsigned int d = 0; d < fs->nr_levels; d++)
		if (fs->levels[d].n)	/* a depth of range-less scopes has none */
			sort_by_u64_key(fs->levels[d].r, fs->levels[d].n, sizeof(*fs->levels[d].r),
					scope_range__cmp);
	fs->next = *b;
	*b = fs;
	return fs;
}

/* The range of level l holding addr, or NULL. */
static const struct scope_range *scope_level__find(const struct scope_level *l, uint64_t addr)
{
	size_t lo = upper_bound_u64(l->r, l->n, sizeof(*l->r), addr);

	return lo && addr < l->r[lo - 1].hi ? &l->r[lo - 1] : NULL;
}

/*
 * Concrete scopes containing addr in the function chain[0], appended
 * outermost first: each nested DW_TAG_inlined_subroutine (or nested
 * DW_TAG_subprogram) down to the innermost. (libdw's dwarf_getscopes
 * continues an inline instance with its abstract origin's scopes, not
 * with the function it was inlined into.) Caller holds the lock.
 */
static void debuginfo__pc_chain(struct debuginfo *di, struct cu_funcs *cf, uint64_t addr,
				Dwarf_Die *chain, int *n)
{
	struct func_scopes *fs = debuginfo__func_scopes(di, cf, &chain[0]);
	Dwarf_Off parent = fs ? fs->func_off : 0;

	for (unsigned int d = 0; fs && d < fs->nr_levels && *n < MAX_INLINE_DEPTH; d++) {
		const struct scope_range *r = scope_level__find(&fs->levels[d], addr);

		if (!r || r->parent != parent || !dwarf_offdie(di->file.dwarf, r->off, &chain[*n]))
			break;
		(*n)++;
		parent = r->off;
	}
}

static int func_range__cmp(const void *a, const void *b)
{
	const struct func_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* dwarf_range_cb_t of the function index: a function's range. */
static int cu_funcs__add(void *arg, unsigned int depth, uint64_t off, uint64_t parent,
			 uint64_t lo, uint64_t hi)
{
	struct cu_funcs *cf = arg;

	if (lo >= hi)
		return 0;
	if (cf->n == cf->alloc) {
		size_t na = cf->alloc ? 2 * cf->alloc : 64;
		struct func_range *nr = realloc(cf->r, na * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		cf->r = nr;
		cf->alloc = na;
	}
	cf->r[cf->n++] = (struct func_range){ .lo = lo, .hi = hi, .off = off };
	return 0;
}

/* The function index of the CU cudie, built on first use. */
static struct cu_funcs *debuginfo__cu_funcs(struct debuginfo *di, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	struct cu_funcs *cf, *n;
	uint8_t asz, osz;
	size_t i;
	int err = -EOPNOTSUPP;

	for (i = 0; i < di->inl.nr_cus; i++)
		if (di->inl.cus[i].cu_off == off)
			return &di->inl.cus[i];
	n = realloc(di->inl.cus, (di->inl.nr_cus + 1) * sizeof(*n));
	if (!n)
		return NULL;
	di->inl.cus = n;
	cf = &di->inl.cus[di->inl.nr_cus++];
	memset(cf, 0, sizeof(*cf));
	cf->cu_off = off;
	/* the unit stays open for its functions' scope indexes */
	if (debuginfo__die_secs(di) && dwarf_diecu(cudie, &(Dwarf_Die){ 0 }, &asz, &osz) &&
	    (err = dwarf_unit__new(&di->inl.die_secs, off, osz, &cf->unit)) == 0)
		err = dwarf_unit__funcs(cf->unit, cu_funcs__add, cf);
	if (err && err != -ENOMEM) {
		if (di->inl.die_secs.info)
			debuginfo__die_fallback(di, off, err);
		dwarf_unit__delete(cf->unit);
		cf->unit = NULL;
		cf->n = 0;
		dwarf_die__funcs_libdw(di->file.dwarf, off, cu_funcs__add, cf);
	}
	if (cf->n)
		sort_by_u64_key(cf->r, cf->n, sizeof(*cf->r), func_range__cmp);
	return cf;
}

/* The DW_TAG_subprogram whose code holds addr. */
static bool cu_funcs__find(struct debuginfo *di, struct cu_funcs *cf, uint64_t addr, Dwarf_Die *die)
{
	size_t lo = upper_bound_u64(cf->r, cf->n, sizeof(*cf->r), addr), hi;

	/* ranges of different functions do not overlap; look back a little
	 * for a function split in parts (.cold) */
	for (hi = lo; lo > 0 && hi - lo < 8; lo--)
		if (addr < cf->r[lo - 1].hi)
			return dwarf_offdie(di->file.dwarf, cf->r[lo - 1].off, die) != NULL;
	return false;
}

/*
 * Naming of the levels, as perf 6.1 shows them (its inline list comes
 * from addr2line's function names, demangled like the ELF symbols; a
 * level whose name is the ELF symbol's is shown as that symbol, any other
 * as a new "(inlined)" symbol):
 *  - an inlined level named like the ELF symbol is shown as the symbol;
 *    a C++ (Rust) one by its demangled linkage name, as addr2line gives it
 *    (ns::W::inner, where DW_AT_name says inner);
 *  - the outermost (the DW_TAG_subprogram) is "renamed" when its DWARF
 *    name differs from the ELF symbol's (clones such as foo.constprop.0,
 *    __libc_start_main_impl behind __libc_start_main@@GLIBC_2.34), also
 *    at addresses without inlined levels. Functions with a
 *    DW_AT_linkage_name keep the ELF (demangled) name: C++, and glibc's
 *    hidden aliases, where perf shows addr2line's "__GI__Fork (inlined)"
 *    for the real function _Fork (a deliberate difference,
 *    Documentation/prf-report.txt). C linkage names of inlined levels
 *    (glibc's __GI_ names) are not used either, for the same reason.
 */
static bool name__same(const char *name, const struct symbol *sym)
{
	return sym && !strcmp(name, sym->name);
}

/* The kept inline chains (inline-cache.h) of the file the DWARF came
 * from, mapped on first use; NULL when none. Caller holds the lock. */
struct inline_cache *debuginfo__inline_cache(struct debuginfo *di)
{
	if (!di->inl.icache_tried) {
		di->inl.icache_tried = true;
		debuginfo__line_cache(di);	/* finds lcache_path, lcache_st */
		if (di->line.lcache_path)
			di->inl.icache = inline_cache__open(di->line.lcache_path, &di->line.lcache_st);
	}
	return di->inl.icache;
}

/*
 * The DWARF's facts of the chain at addr into *f, its levels into lv
 * (room for MAX_INLINE_DEPTH): the function whose code holds addr and
 * the scopes inlined into it there, outermost first, with their names;
 * with positions, the call sites and the line table's row at addr. f->n
 * 0: no function there. Caller holds the lock.
 */
static void debuginfo__chain_facts(struct debuginfo *di, uint64_t addr, bool positions,
				   struct inline_facts *f, struct inline_fact_level *lv)
{
	Dwarf_Die cudie, chain[MAX_INLINE_DEPTH];
	const struct dwarf_line_files *files = NULL;
	Dwarf_Off cu_off;
	struct cu_lines *cl;
	struct cu_funcs *cf;
	struct line_table *lt;
	int n = 0, i;
	long row;

	*f = (struct inline_facts){ .addr = addr, .positions = positions, .levels = lv };
	if (debuginfo__load_dwarf(di))
		return;
	/* the line also where no function is: it answers dso__srcline() */
	if (positions && (row = debuginfo__find_line(di, addr, &lt)) >= 0) {
		f->file = line_table__file(lt, (size_t)row);	/* never NULL */
		f->line = line_row__line(&lt->rows[row]);
	}
	if (!debuginfo__addr_cu(di, addr, &cu_off) || !dwarf_offdie(di->file.dwarf, cu_off, &cudie))
		return;
	cf = debuginfo__cu_funcs(di, &cudie);
	if (!cf || !cu_funcs__find(di, cf, addr, &chain[0]))
		return;
	n = 1;
	debuginfo__pc_chain(di, cf, addr, chain, &n);
	f->n = (unsigned int)n;
	for (i = 0; i < n; i++) {
		bool has_name;

		lv[i] = (struct inline_fact_level){ .name = die__name(&chain[i], i > 0, &has_name) };
		if (i == 0)
			f->has_name0 = has_name;
	}
	f->has_linkage0 = die__linkage_name(&chain[0]) != NULL;
	if (!positions)
		return;
	/* call sites need the CU's file table */
	if ((cl = debuginfo__cu_lines(di, cu_off)))
		files = &cl->files;
	for (i = 1; i < n; i++)
		die__call_site(&chain[i], files, &lv[i].call_file, &lv[i].call_line);
}

/* Chains of one debug file kept from one run at most: a run that works
 * out more (inline_slot reuse works some out again) keeps the first. */
#define INLINE_KEEP_MAX (256u << 10)

/* Remember the chain f worked out this run, to keep it (at teardown). */
static void debuginfo__note_facts(struct debuginfo *di, const struct inline_facts *f)
{
	struct inline_facts *c;

	if (!di->line.lcache_path || di->inl.nr_ic_new >= INLINE_KEEP_MAX)
		return;
	if (di->inl.nr_ic_new == di->inl.ic_new_alloc) {
		size_t na = di->inl.ic_new_alloc ? 2 * di->inl.ic_new_alloc : 64;
		struct inline_facts *nf = realloc(di->inl.ic_new, na * sizeof(*nf));

		if (!nf)
			return;
		di->inl.ic_new = nf;
		di->inl.ic_new_alloc = na;
	}
	c = &di->inl.ic_new[di->inl.nr_ic_new];
	*c = *f;
	c->levels = NULL;
	if (f->n && !(c->levels = malloc(f->n * sizeof(*c->levels))))
		return;
	if (f->n)
		memcpy(c->levels, f->levels, f->n * sizeof(*c->levels));
	di->inl.nr_ic_new++;
}

/*
 * The frames of the chain f into a malloc'd array, as perf 6.1 shows them
 * against the ELF symbol at the address (the naming rules above); caller holds
 * the lock. Returns the number of frames (0: no inlined level).
 */
static int inline_chain__frames(struct debuginfo *di, const struct inline_facts *f,
				bool positions, struct inline_frame **out)
{
	int n = (int)f->n, i, k;
	struct inline_frame *fr;
	const char *file = positions ? f->file : NULL;
	unsigned int line = positions ? f->line : 0;
	const char *name0;
	struct symbol *sym;
	bool renamed0;

	*out = NULL;
	if (!n)
		return 0;
	sym = dso__find_symbol(di->dso, f->addr);
	/* no inlined level: only a function whose DWARF name is not its ELF
	 * symbol's gets a (renamed) frame */
	name0 = dso__inline_name(di->dso, f->levels[0].name);
	renamed0 = sym && !name__same(name0, sym) && f->has_name0 && !f->has_linkage0;
	if (n < 2 && !renamed0)
		return 0;
	fr = calloc(n, sizeof(*fr));
	if (!fr)
		return -ENOMEM;
	for (i = n - 1, k = 0; i >= 0; i--, k++) {
		fr[k].func = i ? dso__inline_name(di->dso, f->levels[i].name) : name0;
		fr[k].inlined = i > 0 ? !name__same(fr[k].func, sym) : renamed0;
		fr[k].file = file;
		fr[k].line = line;
		fr[k].srcline = file && line ? debuginfo__intern(di, file, line) : NULL;
		/* interned once here, not per frame by every consumer */
		if (fr[k].inlined && sym &&
		    !(fr[k].sym = dso__inline_sym(di->dso, fr[k].func, sym->start, sym->end))) {
			free(fr);
			return -ENOMEM;
		}
		if (i > 0 && positions) {
			file = f->levels[i].call_file;
			line = f->levels[i].call_line;
		}
	}
	*out = fr;
	return n;
}

/* Compute the chain at addr into a malloc'd frames array: from the kept
 * chains when they hold it, else from the DWARF (then kept at teardown).
 * Caller holds the lock. Returns the number of frames (0: no inlined
 * level). */
int debuginfo__inline_chain(struct debuginfo *di, uint64_t addr, bool positions,
				   struct inline_frame **out)
{
	struct inline_fact_level lv[MAX_INLINE_DEPTH];
	struct inline_cache *ic;
	struct inline_facts f;

	_Static_assert(MAX_INLINE_DEPTH <= INLINE_CACHE_MAX_LEVELS, "a kept chain's levels");
	*out = NULL;
	if (debuginfo__load_dwarf(di))
		return 0;
	if ((ic = debuginfo__inline_cache(di)) && !inline_cache__get(ic, addr, &f, lv) &&
	    (f.positions || !positions))
		return inline_chain__frames(di, &f, positions, out);
	debuginfo__chain_facts(di, addr, positions, &f, lv);
	debuginfo__note_facts(di, &f);
	return inline_chain__frames(di, &f, positions, out);
}

void debuginfo__inline_free(struct debuginfo *di)
{
	size_t i;

	for (i = 0; i < di->inl.nr_cus; i++) {
		free(di->inl.cus[i].r);
		dwarf_unit__delete(di->inl.cus[i].unit);
	}
	free(di->inl.cus);
	for (i = 0; i < FUNC_SCOPES_BUCKETS; i++) {
		struct func_scopes *fs = di->inl.func_scopes[i], *n;

		for (; fs; fs = n) {
			n = fs->next;
			func_scopes__free(fs);
		}
	}
}
