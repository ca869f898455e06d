// SPDX-License-Identifier: GPL-2.0
/*
 * dso: names, kinds, refcounts, the sorted symbol table and the choice of
 * where symbols come from (ELF file and debug files, kallsyms, perf maps,
 * our own vdso image).
 */
/* truncated candidate paths simply do not exist */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "dso.h"
#include "jitdump.h"
#include "debuginfo.h"
#include "inline-sym.h"
#include "machine.h"
#include "model.h"
#include "../lib/config.h"
#include "../lib/debug.h"
#include "../lib/radix.h"
#include "../lib/util.h"

static enum dso_kind dso__kind_of(const char *name)
{
	if (!strcmp(name, "[kernel.kallsyms]") || !strncmp(name, "[kernel.kallsyms]", 17) ||
	    !strncmp(name, "[guest.kernel.kallsyms", 22))
		return DSO_KERNEL;
	if (!strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") || !strcmp(name, "[vdsox32]"))
		return DSO_VDSO;
	if (!strncmp(name, "/tmp/perf-", 10) && strstr(name, ".map"))
		return DSO_JIT;
	if (name[0] == '[' && (!strcmp(name, "[heap]") || !strcmp(name, "[stack]") ||
			       !strcmp(name, "[vsyscall]") || !strncmp(name, "[anon", 5) ||
			       !strcmp(name, "[vvar]") || !strcmp(name, "[uprobes]")))
		return DSO_ANON;
	if (name[0] == '[')
		return DSO_KMODULE;
	if (!strncmp(name, "//anon", 6) || !strncmp(name, "/dev/zero", 9) ||
	    !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "/SYSV", 5) ||
	    !strcmp(name, "[unknown]") || !strcmp(name, "//unknown"))
		return DSO_ANON;
	return DSO_USER;
}

static size_t dsos_alive;	/* dso__nr_alive(), atomic */

size_t dso__nr_alive(void)
{
	return __atomic_load_n(&dsos_alive, __ATOMIC_RELAXED);
}

struct dso *dso__new(const char *path)
{
	struct dso *dso = zalloc(sizeof(*dso));
	const char *base;

	if (!dso)
		return NULL;
	dso->long_name = strdup(path);
	if (!dso->long_name) {
		free(dso);
		return NULL;
	}
	dso->long_name_len = strlen(path);
	dso->kind = dso__kind_of(path);
	if (dso->kind == DSO_KERNEL)
		base = "[kernel.kallsyms]";
	else if (path[0] == '[' || !strncmp(path, "//", 2))
		base = path;
	else {
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
	}
	dso->short_name = strdup(base);
	if (!dso->short_name) {
		free(dso->long_name);
		free(dso);
		return NULL;
	}
	dso->refcnt = 1;
	__atomic_add_fetch(&dsos_alive, 1, __ATOMIC_RELAXED);
	return dso;
}

struct dso *dso__get(struct dso *dso)
{
	if (dso)
		__atomic_add_fetch(&dso->refcnt, 1, __ATOMIC_RELAXED);
	return dso;
}

/* Symbols live in chunks: one malloc per 64 KiB, not per symbol. */
struct sym_chunk {
	struct sym_chunk *next;
	size_t used, size;
	char data[];
};

static void *dso__sym_alloc(struct dso *dso, size_t size)
{
	struct sym_chunk *c = dso->sym_arena;

	size = PERF_ALIGN(size, 8);
	if (!c || c->used + size > c->size) {
		size_t csize = size > 65536 ? size : 65536;

		c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->next = dso->sym_arena;
		c->used = 0;
		c->size = csize;
		dso->sym_arena = c;
	}
	c->used += size;
	return c->data + c->used - size;
}

void dso__free_symbols(struct dso *dso)
{
	struct sym_chunk *c = dso->sym_arena, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	dso->sym_arena = NULL;
	if (dso->sym_map)
		munmap(dso->sym_map, dso->sym_map_size);
	dso->sym_map = NULL;
	zfree(&dso->symbols);
	zfree(&dso->sym_starts);
	zfree(&dso->sym_buckets);
	dso->nr_sym_buckets = 0;
	dso->nr_symbols = dso->nr_symbols_alloc = 0;
}

void dso__put(struct dso *dso)
{
	if (!dso || __atomic_sub_fetch(&dso->refcnt, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	if (dso->debuginfo)
		dso__debuginfo_delete(dso);
	dso__symtab_srcline_delete(dso);
	dso__data_syms_delete(dso);
	if (dso->priv)
		dso__inline_syms_delete(dso);
	dso__free_symbols(dso);
	free(dso->long_name);
	free(dso->short_name);
	free(dso->symsrc_path);
	free(dso->runtime_path);
	free(dso);
	__atomic_sub_fetch(&dsos_alive, 1, __ATOMIC_RELAXED);
}

void dso__set_build_id(struct dso *dso, const struct build_id *bid)
{
	if (!bid->size)
		return;
	dso->bid = *bid;
	dso->has_build_id = true;
}

int build_id__sprintf(const struct build_id *bid, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < bid->size && i < BUILD_ID_SIZE; i++) {
		buf[2 * i] = hex[bid->data[i] >> 4];
		buf[2 * i + 1] = hex[bid->data[i] & 15];
	}
	buf[2 * i] = '\0';
	return (int)(2 * i);
}

/* name_len sits in padding: symbols stay 24 bytes + name (there are
 * hundreds of thousands of them). */
_Static_assert(sizeof(struct symbol) == 24, "struct symbol grew");

int dso__add_symbol(struct dso *dso, uint64_t start, uint64_t len, uint8_t binding,
		    uint8_t type, const char *name, bool demangle)
{
	char *dem = demangle ? demangle_sym(name, dso->machine && dso->machine->demangle_params)
			     : NULL;
	const char *n = dem ? dem : name;
	size_t l = strlen(n);
	struct symbol *sym;

	if (dso->nr_symbols == dso->nr_symbols_alloc) {
		size_t alloc = dso->nr_symbols_alloc ? dso->nr_symbols_alloc * 2 : 256;
		struct symbol **s = realloc(dso->symbols, alloc * sizeof(*s));

		if (!s) {
			free(dem);
			return -ENOMEM;
		}
		dso->symbols = s;
		dso->nr_symbols_alloc = alloc;
	}
	sym = dso__sym_alloc(dso, sizeof(*sym) + l + 1);
	if (!sym) {
		free(dem);
		return -ENOMEM;
	}
	sym->start = start;
	sym->end = start + len;
	sym->binding = binding;
	sym->type = type;
	sym->inlined = false;
	symbol__set_name_len(sym, l);
	sym->idx = (uint32_t)dso->nr_symbols;
	memcpy(sym->name, n, l + 1);
	free(dem);
	dso->symbols[dso->nr_symbols++] = sym;
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct symbol *x = *(const struct symbol * const *)a;
	const struct symbol *y = *(const struct symbol * const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return 0;
}

/* Sort by sym_cmp()'s order (start, then load order) with two stable
 * radix sorts, by load order then by start: a few passes over the array
 * instead of qsort()'s compare calls, each following two pointers (a
 * cache miss in a big table); sym_cmp() itself when there is no memory
 * for the keys. */
static void symbols__sort(struct symbol **syms, size_t n)
{
	struct radix_item *k = malloc(n * sizeof(*k));
	bool by_idx = true;	/* usually: added in load order */
	size_t i;

	if (!k)
		goto fallback;
	for (i = 0; i < n; i++) {
		k[i] = (struct radix_item){ syms[i]->idx, (uintptr_t)syms[i] };
		if (i && syms[i]->idx < syms[i - 1]->idx)
			by_idx = false;
	}
	if (!by_idx && radix_sort(k, n))
		goto fallback;
	for (i = 0; i < n; i++)
		k[i].key = ((struct symbol *)(uintptr_t)k[i].val)->start;
	if (radix_sort(k, n))
		goto fallback;
	for (i = 0; i < n; i++)
		syms[i] = (struct symbol *)(uintptr_t)k[i].val;
	free(k);
	return;
fallback:
	free(k);
	qsort(syms, n, sizeof(*syms), sym_cmp);
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

bool symbol__better_name(uint64_t a_size, uint8_t a_binding, const char *a_name,
			uint64_t b_size, uint8_t b_binding, const char *b_name)
{
	bool asz = a_size > 0, bsz = b_size > 0;
	bool aw = a_binding == 2, bw = b_binding == 2;	/* STB_WEAK */
	bool ag = a_binding == 1, bg = b_binding == 1;	/* STB_GLOBAL */
	int ua, ub;

	if (asz != bsz)
		return asz;
	if (aw != bw)
		return !aw;
	if (ag != bg)
		return ag;
	ua = leading_underscores(a_name);
	ub = leading_underscores(b_name);
	if (ua != ub)
		return ua < ub;
	return strlen(a_name) > strlen(b_name);
}

static bool symbol__better(const struct symbol *a, const struct symbol *b)
{
	return symbol__better_name(a->end > a->start ? a->end - a->start : 0, a->binding, a->name,
				   b->end > b->start ? b->end - b->start : 0, b->binding, b->name);
}

/*
 * Address buckets over [first start, last start]: about one symbol per
 * bucket, so a lookup binary-searches a handful of entries instead of the
 * whole table (the kernel has ~150K symbols: 17 cache misses -> 1-2).
 */
static void dso__index_symbols(struct dso *dso)
{
	const uint64_t *st = dso->sym_starts;
	size_t n = dso->nr_symbols, nb, i, b;
	uint64_t range;
	unsigned int shift = 0;

	zfree(&dso->sym_buckets);
	dso->nr_sym_buckets = 0;
	if (n < 16 || n > UINT32_MAX)
		return;
	range = st[n - 1] - st[0];
	while ((range >> shift) > n)
		shift++;
	nb = (size_t)(range >> shift) + 2;
	dso->sym_buckets = malloc(nb * sizeof(*dso->sym_buckets));
	if (!dso->sym_buckets)
		return;
	for (b = 0, i = 0; b < nb; b++) {
		uint64_t base = st[0] + ((uint64_t)b << shift);

		if (b && base < st[0])	/* wrapped past the top of the space */
			base = UINT64_MAX;
		while (i + 1 < n && st[i + 1] <= base)
			i++;
		dso->sym_buckets[b] = (uint32_t)i;
	}
	dso->nr_sym_buckets = nb;
	dso->sym_shift = shift;
}

/* zero-size symbols end where the next one starts, the last one a page
 * past its page (as perf) */
static void symbols__fixup_ends(struct symbol **syms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct symbol *s = syms[i];

		if (s->end <= s->start) {
			if (i + 1 < n)
				s->end = syms[i + 1]->start;
			else
				s->end = PERF_ALIGN(s->start, 4096) + 4096;	/* last one (as perf) */
		}
	}
}

/* dso__symbols_finish(); ends_first: the zero sizes fixed before the
 * duplicates are dropped (so a zero-size symbol, sized to the next one,
 * may win over a sized alias), as perf 6.1 finishes an ELF table */
static void symbols__finish(struct dso *dso, bool ends_first)
{
	size_t i, n = 0;

	if (!dso->nr_symbols) {
		zfree(&dso->sym_starts);
		return;
	}
	/* stable order for equal starts is irrelevant: the best one is kept;
	 * kallsyms arrives sorted already: one linear check saves the qsort */
	for (i = 1; i < dso->nr_symbols; i++)
		if (sym_cmp(&dso->symbols[i - 1], &dso->symbols[i]) > 0)
			break;
	if (i < dso->nr_symbols)
		symbols__sort(dso->symbols, dso->nr_symbols);
	if (ends_first)
		symbols__fixup_ends(dso->symbols, dso->nr_symbols);
	for (i = 0; i < dso->nr_symbols; i++) {
		struct symbol *s = dso->symbols[i];

		if (n && dso->symbols[n - 1]->start == s->start) {
			struct symbol *prev = dso->symbols[n - 1];

			if (dso->aliases_last || symbol__better(s, prev))
				dso->symbols[n - 1] = s;
			continue;
		}
		dso->symbols[n++] = s;
	}
	dso->nr_symbols = n;
	symbols__fixup_ends(dso->symbols, n);
	free(dso->sym_starts);
	dso->sym_starts = malloc(n * sizeof(*dso->sym_starts));
	if (!dso->sym_starts) {		/* no index: no symbols rather than a crash */
		dso->nr_symbols = 0;
		return;
	}
	for (i = 0; i < n; i++)
		dso->sym_starts[i] = dso->symbols[i]->start;
	dso__index_symbols(dso);
}

void dso__symbols_finish(struct dso *dso)
{
	symbols__finish(dso, false);
}

void dso__symbols_finish_ends_first(struct dso *dso)
{
	symbols__finish(dso, true);
}

struct symbol *dso__find_symbol_loaded(const struct dso *dso, uint64_t addr)
{
	const uint64_t *st = dso->sym_starts;
	size_t lo = 0, n = dso->nr_symbols;

	if (!n || addr < st[0])
		return NULL;
	if (dso->sym_buckets) {
		if (addr >= st[n - 1]) {
			lo = n - 1;
			n = 1;
		} else {
			size_t b = (size_t)((addr - st[0]) >> dso->sym_shift);

			/* st[bucket[b]] <= addr < st[0] + (b+1 << shift), so the
			 * answer lies in [bucket[b], bucket[b + 1]] */
			lo = dso->sym_buckets[b];
			n = dso->sym_buckets[b + 1] - lo + 1;
		}
	}
	/* branch-free lower bound: last start <= addr */
	while (n > 1) {
		size_t half = n / 2;

		lo = st[lo + half] <= addr ? lo + half : lo;
		n -= half;
	}
	return addr < dso->symbols[lo]->end ? dso->symbols[lo] : NULL;
}

struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr)
{
	if (unlikely(!__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE)) &&
	    dso__load(dso) == -EAGAIN)
		return NULL;	/* loading in the background */
	return dso__find_symbol_loaded(dso, addr);
}

/* ---- where the symbols come from ---- */

static int find_by_build_id(const struct dso *dso, const struct build_id *bid,
			    char *buf, size_t size);

static bool file_exists(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static const char *dso__symfs(const struct dso *dso)
{
	return dso->machine && dso->machine->symfs ? dso->machine->symfs : "";
}

/* Candidate debug files keyed by build-id. Returns 0 and fills buf if one exists. */
int dso__find_build_id_file(const struct dso *dso, const struct build_id *bid,
			    char *buf, size_t size)
{
	return find_by_build_id(dso, bid, buf, size);
}

static char *buildid_dir_path;

static void buildid_dir_init(void)
{
	const char *dir = config__get("buildid.dir"), *home = getenv("HOME");

	if (dir && *dir)
		buildid_dir_path = strdup(dir);
	else if (home && *home && asprintf(&buildid_dir_path, "%s/.debug", home) < 0)
		buildid_dir_path = NULL;
}

const char *dso__buildid_dir(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, buildid_dir_init);
	return buildid_dir_path;
}

static int find_by_build_id(const struct dso *dso, const struct build_id *bid,
			    char *buf, size_t size)
{
	char hex[2 * BUILD_ID_SIZE + 1];
	const char *home = dso__buildid_dir();
	const char *symfs = dso__symfs(dso);

	if (!bid->size)
		return -ENOENT;
	build_id__sprintf(bid, hex);
	snprintf(buf, size, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex, hex + 2);
	if (file_exists(buf))
		return 0;
	if (home) {	/* perf's build-id cache */
		snprintf(buf, size, "%s/.build-id/%.2s/%s/debug", home, hex, hex + 2);
		if (file_exists(buf))
			return 0;
		snprintf(buf, size, "%s/.build-id/%.2s/%s/elf", home, hex, hex + 2);
		if (file_exists(buf))
			return 0;
	}
	return -ENOENT;
}

static bool bid_equal(const struct build_id *a, const struct build_id *b)
{
	size_t n = min(a->size, b->size);

	return n && !memcmp(a->data, b->data, n);
}

/* Whether candidate file path may serve as the debug file for dso. */
static bool debug_file_ok(const char *path, const struct build_id *want)
{
	struct build_id bid = { .size = 0 };

	if (!file_exists(path))
		return false;
	if (!want->size)
		return true;
	if (filename__read_build_id(path, &bid))
		return true;	/* cannot verify: accept (debuglink CRC not checked) */
	return bid_equal(&bid, want);
}

static int find_debug_file(struct dso *dso, const char *runtime, const struct build_id *bid,
			   char *buf, size_t size)
{
	const char *symfs = dso__symfs(dso);
	char link[PATH_MAX], dir[PATH_MAX];
	char *slash;

	if (!find_by_build_id(dso, bid, buf, size) && debug_file_ok(buf, bid))
		return 0;
	if (runtime && !elf__read_debuglink(runtime, link, sizeof(link))) {
		snprintf(dir, sizeof(dir), "%s", runtime);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
		snprintf(buf, size, "%s/%s", dir, link);
		if (strcmp(buf, runtime) && debug_file_ok(buf, bid))
			return 0;
		snprintf(buf, size, "%s/.debug/%s", dir, link);
		if (debug_file_ok(buf, bid))
			return 0;
		/* /usr/lib/debug/<dir of the original path>/<link> */
		snprintf(dir, sizeof(dir), "%s", dso->long_name);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, size, "%s/usr/lib/debug%s/%s", symfs, dir, link);
			if (debug_file_ok(buf, bid))
				return 0;
		}
	}
	if (dso->long_name[0] == '/') {
		snprintf(buf, size, "%s/usr/lib/debug%s.debug", symfs, dso->long_name);
		if (debug_file_ok(buf, bid))
			return 0;
		snprintf(buf, size, "%s/usr/lib/debug%s", symfs, dso->long_name);
		if (debug_file_ok(buf, bid))
			return 0;
	}
	return -ENOENT;
}

static void dso__warn_mismatch(struct dso *dso, const struct build_id *file_bid)
{
	char want[2 * BUILD_ID_SIZE + 1], have[2 * BUILD_ID_SIZE + 1];

	if (dso->mismatch_warned)
		return;
	dso->mismatch_warned = true;
	build_id__sprintf(&dso->bid, want);
	build_id__sprintf(file_bid, have);
	pr_warning("%s: build-id mismatch (recorded %s, file has %s); its symbols are not used\n",
		   dso->long_name, want, have);
}

static int dso__load_user(struct dso *dso)
{
	char path[PATH_MAX], dbg[PATH_MAX];
	struct build_id file_bid = { .size = 0 };
	const char *runtime = path;
	int err;

	snprintf(path, sizeof(path), "%s%s", dso__symfs(dso), dso->long_name);
	if (!file_exists(path)) {
		runtime = NULL;
	} else if (!filename__read_build_id(path, &file_bid)) {
		if (dso->has_build_id && !bid_equal(&dso->bid, &file_bid)) {
			dso->build_id_mismatch = true;
			runtime = NULL;
		} else if (!dso->has_build_id) {
			dso->bid = file_bid;
			dso->has_build_id = true;
		}
	}
	if (!runtime) {
		/* the file is gone or differs: only files found by build-id
		 * (debug files, perf's ~/.debug build-id cache) */
		if (!dso->has_build_id || find_by_build_id(dso, &dso->bid, dbg, sizeof(dbg))) {
			if (dso->build_id_mismatch)
				dso__warn_mismatch(dso, &file_bid);
			return -ENOENT;
		}
		if (dso->build_id_mismatch)
			pr_debug("%s: file differs from the recording, using %s\n",
				 dso->long_name, dbg);
		if (strlen(dbg) > 4 && !strcmp(dbg + strlen(dbg) - 4, "/elf"))
			dso->runtime_path = strdup(dbg);	/* perf's cached copy */
		return dso__load_elf(dso, dbg, dbg);
	}
	dso->runtime_path = strdup(path);
	if (!find_debug_file(dso, runtime, &dso->bid, dbg, sizeof(dbg))) {
		err = dso__load_elf(dso, dbg, runtime);
		if (!err && dso->nr_symbols)
			return 0;
		dso__free_symbols(dso);
	}
	return dso__load_elf(dso, runtime, runtime);
}

/* One loader at a time: worker threads (parallel unwinding) may reach the
 * same DSO's first lookup together. Loads are rare (once per DSO). */
static pthread_mutex_t dso__load_lock = PTHREAD_MUTEX_INITIALIZER;

/* A process's JIT code: /tmp/perf-PID.map and the jitdump it mapped. */
static int dso__load_jit(struct dso *dso)
{
	char path[4096];
	int pid, err = dso__load_perf_map(dso, dso->long_name), jerr = -ENOENT;

	if (dso->machine && sscanf(dso->long_name, "/tmp/perf-%d.map", &pid) == 1 &&
	    !machine__jitdump_path(dso->machine, pid, path, sizeof(path))) {
		jerr = dso__load_jitdump(dso, path);
		if (jerr)
			pr_debug("%s: %s\n", path, strerror(-jerr));
	}
	return err && jerr ? err : 0;
}

static __thread bool (*load_hook)(struct dso *dso, void *arg);
static __thread void *load_hook_arg;
static __thread unsigned long load_deferrals;

void dso__set_load_hook(bool (*fn)(struct dso *dso, void *arg), void *arg)
{
	load_hook = fn;
	load_hook_arg = arg;
}

unsigned long dso__load_deferrals(void)
{
	return load_deferrals;
}

/* The loader of dso's kind, then the table sorted and indexed. */
static int dso__load_kind(struct dso *dso)
{
	int err = 0;

	switch (dso->kind) {
	case DSO_USER:
		err = dso__load_user(dso);
		break;
	case DSO_KERNEL:
	case DSO_KMODULE:
		err = dso__load_kernel(dso);
		break;
	case DSO_VDSO:
		err = dso__load_vdso(dso);
		break;
	case DSO_JIT:
		err = dso__load_jit(dso);
		break;
	case DSO_ANON:
	default:
		break;
	}
	dso__symbols_finish(dso);
	if (err)
		pr_debug("%s: no symbols (%s)\n", dso->long_name, strerror(-err));
	return err;
}

int dso__load(struct dso *dso)
{
	int err;

	if (__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE))
		return 0;
	if (unlikely(load_hook != NULL) && load_hook(dso, load_hook_arg)) {
		load_deferrals++;
		return -EAGAIN;
	}
	pthread_mutex_lock(&dso__load_lock);
	if (dso->symbols_loaded) {
		pthread_mutex_unlock(&dso__load_lock);
		return 0;
	}
	err = dso__load_kind(dso);
	__atomic_store_n(&dso->symbols_loaded, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dso__load_lock);
	return err;
}

int dso__load_private(struct dso *dso)
{
	int err;

	if (dso->kind != DSO_USER && dso->kind != DSO_KERNEL && dso->kind != DSO_KMODULE)
		return -EINVAL;
	err = dso__load_kind(dso);
	dso->symbols_loaded = true;
	return err;
}

/* Move *src to *dst, leaving src empty (what the field owns goes too). */
#define MOVE_FIELD(dst, src, f) do { (dst)->f = (src)->f; memset(&(src)->f, 0, sizeof((src)->f)); } while (0)

void dso__adopt_symbols(struct dso *dst, struct dso *src)
{
	dso__free_symbols(dst);
	MOVE_FIELD(dst, src, symbols);
	MOVE_FIELD(dst, src, nr_symbols);
	MOVE_FIELD(dst, src, nr_symbols_alloc);
	MOVE_FIELD(dst, src, sym_starts);
	MOVE_FIELD(dst, src, sym_buckets);
	MOVE_FIELD(dst, src, nr_sym_buckets);
	MOVE_FIELD(dst, src, sym_shift);
	MOVE_FIELD(dst, src, sym_arena);
	MOVE_FIELD(dst, src, sym_map);
	MOVE_FIELD(dst, src, sym_map_size);
	dst->text_offset = src->text_offset;
	dst->is_64_bit = src->is_64_bit;
	dst->aliases_last = src->aliases_last;
	dst->build_id_mismatch |= src->build_id_mismatch;
	dst->mismatch_warned |= src->mismatch_warned;
	if (!dst->has_build_id && src->has_build_id) {
		dst->bid = src->bid;
		dst->has_build_id = true;
	}
	if (!dst->symsrc_path)
		MOVE_FIELD(dst, src, symsrc_path);
	if (!dst->runtime_path)
		MOVE_FIELD(dst, src, runtime_path);
	__atomic_store_n(&dst->symbols_loaded, true, __ATOMIC_RELEASE);
}
