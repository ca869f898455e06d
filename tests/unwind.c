// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the DWARF unwinder (util/model/unwind.c) and of the per-DSO
 * debuginfo (srcline, inline frames), on real stacks:
 *
 *  - self: capture this process's registers and a copy of its stack in a
 *    known call chain (compiled without frame pointers), unwind it through
 *    /proc/self/maps and check every return address;
 *  - truncated: a deep recursion with a small stack copy ends in a frame
 *    marked truncated; with the whole stack it does not;
 *  - srcline/inline: line table and inline scopes of this very file;
 *  - perf_data: unwind every sample of a perf.data file recorded by Linux
 *    perf with --call-graph dwarf (path in $PRF_UNWIND_DATA, output to
 *    $PRF_UNWIND_OUT, symbols + srclines + inline frames printed for the
 *    ':'-separated binaries in $PRF_UNWIND_TARGET; $PRF_UNWIND_BENCH=1:
 *    unwind only, no output), for tests/shell/unwind-dwarf.sh to compare
 *    with `perf script` and scripts/bench/dwarf-speed.sh to time.
 *    Skipped without $PRF_UNWIND_DATA. The few perf.data
 *    records it needs (file header, attr, MMAP/MMAP2, SAMPLE) are parsed
 *    here, following tools/perf/Documentation/perf.data-file-format.txt,
 *    so the unwinder is tested on its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <asm/perf_regs.h>

#include "tests.h"
#include "../util/format/event.h"
#include "../util/lib/tunables.h"
#include "../util/model/debuginfo.h"
#include "../util/model/dso.h"
#include "../util/model/unwind.h"
#include "../util/lib/util.h"

/* ---- a minimal address space: maps of one process ---- */

struct tmap {
	uint64_t start, end, pgoff;
	uint32_t pid;
	struct dso *dso;
};

struct tspace {
	struct tmap *maps;
	size_t nr;
	struct dso **dsos;
	size_t nr_dsos;
	uint32_t pid;		/* current sample's pid */
	bool sorted;
};

static struct dso *tspace__dso(struct tspace *s, const char *name)
{
	struct dso *d;
	size_t i;

	for (i = 0; i < s->nr_dsos; i++)
		if (!strcmp(s->dsos[i]->long_name, name))
			return s->dsos[i];
	d = zalloc(sizeof(*d));
	d->long_name = strdup(name);
	d->short_name = strrchr(d->long_name, '/') ? strrchr(d->long_name, '/') + 1 : d->long_name;
	if (!strcmp(name, "[vdso]"))
		d->kind = DSO_VDSO;
	else if (name[0] == '/')
		d->kind = DSO_USER;
	else
		d->kind = DSO_ANON;
	s->dsos = realloc(s->dsos, (s->nr_dsos + 1) * sizeof(*s->dsos));
	s->dsos[s->nr_dsos++] = d;
	return d;
}

static void tspace__add(struct tspace *s, uint32_t pid, uint64_t start, uint64_t end,
			uint64_t pgoff, const char *name)
{
	struct tmap *m;
	size_t i;

	/* a new mapping replaces what it overlaps (good enough: drop them) */
	for (i = 0; i < s->nr; ) {
		if (s->maps[i].pid == pid && s->maps[i].start < end && start < s->maps[i].end) {
			s->maps[i] = s->maps[--s->nr];
			s->sorted = false;
		} else
			i++;
	}
	s->maps = realloc(s->maps, (s->nr + 1) * sizeof(*s->maps));
	s->sorted = false;
	m = &s->maps[s->nr++];
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->pid = pid;
	m->dso = tspace__dso(s, name);
}

static void tspace__exit(struct tspace *s)
{
	size_t i;

	for (i = 0; i < s->nr_dsos; i++) {
		dso__debuginfo_delete(s->dsos[i]);
		free(s->dsos[i]->long_name);
		free(s->dsos[i]);
	}
	free(s->dsos);
	free(s->maps);
}

static int tmap__cmp(const void *a, const void *b)
{
	const struct tmap *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* maps sorted by (pid, start) on the first lookup after an insert */
static struct tmap *tspace__find(struct tspace *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr;

	if (!s->nr)
		return NULL;	/* no map yet (qsort takes no NULL array) */
	if (!s->sorted) {
		qsort(s->maps, s->nr, sizeof(*s->maps), tmap__cmp);
		s->sorted = true;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tmap *m = &s->maps[mid];

		if (m->pid < s->pid || (m->pid == s->pid && m->start <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && s->maps[lo - 1].pid == s->pid && addr < s->maps[lo - 1].end)
		return &s->maps[lo - 1];
	return NULL;
}

static int tspace__find_map(void *space, uint64_t addr, struct unwind_map *um)
{
	struct tmap *m = tspace__find(space, addr);

	if (!m)
		return -ENOENT;
	memset(um, 0, sizeof(*um));
	um->dso = m->dso->kind == DSO_ANON ? NULL : m->dso;
	um->start = m->start;
	um->end = m->end;
	um->pgoff = m->pgoff;
	return 0;
}

static int tspace__read_self_maps(struct tspace *s)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8], path[4096] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end, perms, &off,
			   path) < 4)
			continue;
		tspace__add(s, 0, start, end, off, path[0] ? path : "//anon");
	}
	fclose(f);
	return 0;
}

/* ---- capturing our own stack ---- */

#define NR_CAPTURE_REGS PERF_REG_X86_64_MAX

struct capture {
	uint64_t regs[NR_CAPTURE_REGS];	/* perf order, all GPRs */
	uint64_t mask;
	char *stack;
	size_t size;
	uint64_t ra[8];			/* return addresses seen by the chain */
	size_t copy;			/* bytes to copy */
};

static struct capture cap;

static size_t stack_room(uint64_t sp)
{
	struct tspace s = { 0 };
	size_t room = 0, i;

	if (tspace__read_self_maps(&s))
		return 0;
	for (i = 0; i < s.nr; i++)
		if (sp >= s.maps[i].start && sp < s.maps[i].end)
			room = s.maps[i].end - sp;
	tspace__exit(&s);
	return room;
}

/* Copy raw stack bytes as the kernel's user stack dump does. The copy
 * crosses other frames' ASan redzones on purpose, so it is not
 * instrumented (and not a memcpy, which ASan intercepts). */
__attribute__((no_sanitize_address, noinline))
static void copy_stack_raw(void *dst, const void *src, size_t n)
{
	const volatile unsigned char *s = src;
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

static __attribute__((noinline)) void capture_now(void)
{
	uint64_t *r = cap.regs;

	/* all in one asm: rip and rsp of the same instruction boundary */
	__asm__ volatile(
		"movq %%rax, 0(%0)\n\t"
		"movq %%rbx, 8(%0)\n\t"
		"movq %%rcx, 16(%0)\n\t"
		"movq %%rdx, 24(%0)\n\t"
		"movq %%rsi, 32(%0)\n\t"
		"movq %%rdi, 40(%0)\n\t"
		"movq %%rbp, 48(%0)\n\t"
		"movq %%rsp, 56(%0)\n\t"
		"leaq 0(%%rip), %%rax\n\t"
		"movq %%rax, 64(%0)\n\t"
		"movq %%r8, 128(%0)\n\t"
		"movq %%r9, 136(%0)\n\t"
		"movq %%r10, 144(%0)\n\t"
		"movq %%r11, 152(%0)\n\t"
		"movq %%r12, 160(%0)\n\t"
		"movq %%r13, 168(%0)\n\t"
		"movq %%r14, 176(%0)\n\t"
		"movq %%r15, 184(%0)\n\t"
		: : "r"(r) : "rax", "memory");
	cap.mask = ((1ULL << NR_CAPTURE_REGS) - 1) & ~(0xffULL << PERF_REG_X86_FLAGS);
	cap.size = min(cap.copy, stack_room(r[PERF_REG_X86_SP]));
	cap.stack = malloc(cap.size);
	copy_stack_raw(cap.stack, (void *)(uintptr_t)r[PERF_REG_X86_SP], cap.size);
	cap.ra[0] = (uint64_t)__builtin_return_address(0);
}

static __attribute__((noinline, optimize("omit-frame-pointer"))) int chain_c(int x)
{
	capture_now();
	cap.ra[1] = (uint64_t)__builtin_return_address(0);
	return x + 1;
}

static __attribute__((noinline, optimize("omit-frame-pointer"))) int chain_b(int x)
{
	int r = chain_c(x * 3) + 2;

	cap.ra[2] = (uint64_t)__builtin_return_address(0);
	return r;
}

static __attribute__((noinline, optimize("omit-frame-pointer"))) int chain_a(int x)
{
	int r = chain_b(x + 5) * 7;

	cap.ra[3] = (uint64_t)__builtin_return_address(0);
	return r;
}

static __attribute__((noinline)) int recurse(int depth)
{
	volatile char pad[64];

	pad[0] = (char)depth;
	if (depth == 0) {
		capture_now();
		return pad[0];
	}
	return recurse(depth - 1) + pad[0];
}

struct collect {
	uint64_t ips[256];
	bool truncated[256];
	int nr;
};

static int collect_cb(struct unwind_entry *e, void *arg)
{
	struct collect *c = arg;

	if (c->nr < 256) {
		c->ips[c->nr] = e->ip;
		c->truncated[c->nr] = e->truncated;
		c->nr++;
	}
	return 0;
}

/* Unwind the capture as if only copy bytes of stack were recorded, with
 * the FP chain fp[0..nfp) when nfp (unwind__get_entries_space_fp), else
 * through unwind__get_entries_space. */
static int unwind_capture_fp(struct collect *c, uint64_t copy, const uint64_t *fp, size_t nfp,
			     int max_stack)
{
	struct tspace s = { 0 };
	uint64_t packed[NR_CAPTURE_REGS];
	struct regs_dump rd = { .abi = PERF_SAMPLE_REGS_ABI_64, .mask = cap.mask, .regs = packed };
	struct stack_dump sd = { .size = copy, .dyn_size = copy, .data = cap.stack };
	int i, n = 0, err;

	for (i = 0; i < NR_CAPTURE_REGS; i++)
		if (cap.mask & (1ULL << i))
			packed[n++] = cap.regs[i];
	if (tspace__read_self_maps(&s))
		return -1;
	memset(c, 0, sizeof(*c));
	if (nfp)
		err = unwind__get_entries_space_fp(collect_cb, c, tspace__find_map, &s, &rd, &sd,
						   fp, nfp, false, max_stack);
	else
		err = unwind__get_entries_space(collect_cb, c, tspace__find_map, &s, &rd, &sd,
						max_stack);
	tspace__exit(&s);
	return err;
}

static int unwind_capture(struct collect *c, int max_stack)
{
	return unwind_capture_fp(c, cap.size, NULL, 0, max_stack);
}

static int test__self(void)
{
	struct collect c;
	int i;

	cap.copy = 65536;
	TEST_ASSERT_VAL("chain", chain_a(1) == ((3 * 6 + 1) + 2) * 7);
	TEST_ASSERT_VAL("stack copied", cap.size > 1024);
	TEST_ASSERT_EQUAL("unwind", unwind_capture(&c, 127), 0);
	for (i = 0; i < c.nr && i < 8; i++)
		pr_debug("frame %d: %#" PRIx64 "%s\n", i, c.ips[i], c.truncated[i] ? " truncated" : "");
	TEST_ASSERT_VAL("at least 5 frames", c.nr >= 5);
	TEST_ASSERT_EQUAL("frame 0 is the capture pc", c.ips[0], cap.regs[PERF_REG_X86_IP]);
	for (i = 0; i < 4; i++)
		TEST_ASSERT_EQUAL("caller frame = return address - 1", c.ips[i + 1], cap.ra[i] - 1);
	TEST_ASSERT_VAL("whole stack: not truncated", !c.truncated[c.nr - 1]);
	TEST_ASSERT_VAL("max_stack honoured", unwind_capture(&c, 3) == 0 && c.nr == 3);
	free(cap.stack);
	return TEST_OK;
}

static int test__truncated(void)
{
	struct collect c;
	int i;

	cap.copy = 2048;
	recurse(100);
	TEST_ASSERT_EQUAL("unwind", unwind_capture(&c, 127), 0);
	TEST_ASSERT_VAL("some frames", c.nr >= 3);
	TEST_ASSERT_VAL("last frame marked truncated", c.truncated[c.nr - 1]);
	for (i = 0; i < c.nr - 1; i++)
		TEST_ASSERT_VAL("only the last frame is truncated", !c.truncated[i]);
	free(cap.stack);

	cap.copy = 1 << 20;
	recurse(100);
	TEST_ASSERT_EQUAL("unwind", unwind_capture(&c, 255), 0);
	TEST_ASSERT_VAL("all of the recursion", c.nr > 100);
	TEST_ASSERT_VAL("whole stack: not truncated", !c.truncated[c.nr - 1]);
	free(cap.stack);
	return TEST_OK;
}


/* FP mixing: a walk cut by a short stack copy continues with the FP
 * chain's frames when both agree at the cut, and not when they do not. */
static int test__fp_mix(void)
{
	static struct collect full, cut, mixed, bad;
	uint64_t fp[256];
	int i, d;

	cap.copy = 1 << 20;
	recurse(100);
	TEST_ASSERT_EQUAL("full unwind", unwind_capture_fp(&full, cap.size, NULL, 0, 255), 0);
	TEST_ASSERT_VAL("all of the recursion", full.nr > 100 && !full.truncated[full.nr - 1]);
	/* the kernel's FP chain: the pc, then raw return addresses */
	fp[0] = full.ips[0];
	for (i = 1; i < full.nr; i++)
		fp[i] = full.ips[i] + 1;

	TEST_ASSERT_EQUAL("cut unwind", unwind_capture_fp(&cut, 2048, NULL, 0, 255), 0);
	d = cut.nr - 1;
	TEST_ASSERT_VAL("cut: truncated", d >= 2 && cut.truncated[d] && d < full.nr - 1);

	TEST_ASSERT_EQUAL("mixed unwind", unwind_capture_fp(&mixed, 2048, fp, full.nr, 255), 0);
	TEST_ASSERT_EQUAL("mixed: as many frames as the full walk", mixed.nr, full.nr);
	TEST_ASSERT_VAL("mixed: same frames",
			!memcmp(mixed.ips, full.ips, full.nr * sizeof(full.ips[0])));
	for (i = 0; i < mixed.nr; i++)
		TEST_ASSERT_VAL("mixed: nothing truncated", !mixed.truncated[i]);

	/* FP chain disagreeing at the cut (frame pointer not kept there):
	 * no mixing, the DWARF part alone, still marked */
	fp[d] += 16;
	TEST_ASSERT_EQUAL("disagreeing unwind", unwind_capture_fp(&bad, 2048, fp, full.nr, 255), 0);
	TEST_ASSERT_EQUAL("disagreeing: DWARF frames only", bad.nr, cut.nr);
	TEST_ASSERT_VAL("disagreeing: still truncated", bad.truncated[bad.nr - 1]);
	free(cap.stack);
	return TEST_OK;
}

/* Two threads unwinding the same stack through the same DSOs at once
 * (per-DSO locks; see unwind.h) get the single-threaded result. */
struct par_arg {
	struct tspace *space;
	const struct regs_dump *rd;
	const struct stack_dump *sd;
	const struct collect *want;
	int bad;
};

static void *par_worker(void *p)
{
	struct par_arg *a = p;
	struct collect c;
	int i;

	for (i = 0; i < 300; i++) {
		memset(&c, 0, sizeof(c));
		if (unwind__get_entries_space(collect_cb, &c, tspace__find_map, a->space, a->rd, a->sd, 127) ||
		    c.nr != a->want->nr || memcmp(c.ips, a->want->ips, c.nr * sizeof(c.ips[0])))
			a->bad++;
		if (c.nr > 1)	/* and the debuginfo lookups of the same DSOs */
			dso__srcline(tspace__find(a->space, c.ips[1])->dso, 0x1000 + i);
	}
	return NULL;
}

static int test__parallel(void)
{
	struct tspace s = { 0 };
	uint64_t packed[NR_CAPTURE_REGS];
	struct regs_dump rd = { .abi = PERF_SAMPLE_REGS_ABI_64, .regs = packed };
	struct stack_dump sd;
	struct collect want;
	struct par_arg args[2];
	pthread_t th[2];
	int i, n = 0;

	cap.copy = 65536;
	chain_a(2);
	rd.mask = cap.mask;
	for (i = 0; i < NR_CAPTURE_REGS; i++)
		if (cap.mask & (1ULL << i))
			packed[n++] = cap.regs[i];
	sd = (struct stack_dump){ .size = cap.size, .dyn_size = cap.size, .data = cap.stack };
	TEST_ASSERT_VAL("maps", !tspace__read_self_maps(&s));
	tspace__find(&s, 0);	/* sort once, before the threads share it */
	/* first unwind with cold caches happens in both threads at once */
	memset(&want, 0, sizeof(want));
	{
		struct tspace s2 = { 0 };

		TEST_ASSERT_VAL("maps", !tspace__read_self_maps(&s2));
		TEST_ASSERT_EQUAL("reference unwind",
				  unwind__get_entries_space(collect_cb, &want, tspace__find_map, &s2, &rd, &sd, 127), 0);
		tspace__exit(&s2);
	}
	TEST_ASSERT_VAL("reference has the chain", want.nr >= 5);
	for (i = 0; i < 2; i++) {
		args[i] = (struct par_arg){ &s, &rd, &sd, &want, 0 };
		TEST_ASSERT_VAL("thread", !pthread_create(&th[i], NULL, par_worker, &args[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	TEST_ASSERT_EQUAL("thread 1 results differ", args[0].bad, 0);
	TEST_ASSERT_EQUAL("thread 2 results differ", args[1].bad, 0);
	tspace__exit(&s);
	free(cap.stack);
	return TEST_OK;
}

/* ---- the per-thread CFI row memo ---- */

/*
 * Every byte of 64 KiB of libc's text around fopen, walked up and then
 * down (so memo slots are refilled from pcs on both sides of row
 * boundaries), in a fresh thread (an empty memo): the row a step gets
 * through the memo is the DSO's own row at that pc, prologue and
 * epilogue rows a few bytes long included.
 */
struct memo_arg {
	struct dso *dso;
	uint64_t lo, hi;
	unsigned int rows, bad;
	char first_bad[400];
};

static void *memo_worker(void *p)
{
	struct memo_arg *a = p;
	char memo[1024], fresh[1024], last[1024] = "";
	uint64_t off;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (off = pass ? a->hi - 1 : a->lo; pass ? off >= a->lo : off < a->hi;
		     pass ? off-- : off++) {
			int e1 = unwind__row_text(a->dso, off, false, memo, sizeof(memo));
			int e2 = unwind__row_text(a->dso, off, true, fresh, sizeof(fresh));

			if (e1 != e2 || (!e1 && strcmp(memo, fresh))) {
				if (!a->bad++)
					snprintf(a->first_bad, sizeof(a->first_bad),
						 "off %#" PRIx64 ": memo '%.150s' (%d) fresh '%.150s' (%d)",
						 off, memo, e1, fresh, e2);
			}
			if (!pass && !e2 && strcmp(fresh, last)) {
				a->rows++;
				strcpy(last, fresh);
			}
		}
	return NULL;
}

static int test__row_memo(void)
{
	struct tspace s = { 0 };
	struct memo_arg a = { 0 };
	uint64_t fn = (uint64_t)(uintptr_t)test_libc_func("fopen");
	struct tmap *m;
	pthread_t th;

	TEST_ASSERT_VAL("libc's fopen", fn);
	TEST_ASSERT_VAL("maps", !tspace__read_self_maps(&s));
	m = tspace__find(&s, fn);
	TEST_ASSERT_VAL("libc map", m && m->dso && m->dso->kind != DSO_ANON);
	a.dso = m->dso;
	a.lo = fn - m->start + m->pgoff;
	a.lo = a.lo > 32768 + m->pgoff ? a.lo - 32768 : m->pgoff;
	a.hi = a.lo + 65536;
	if (a.hi > m->end - m->start + m->pgoff)
		a.hi = m->end - m->start + m->pgoff;
	TEST_ASSERT_VAL("thread", !pthread_create(&th, NULL, memo_worker, &a));
	pthread_join(th, NULL);
	if (a.bad)
		pr_debug("%u rows differ; first: %s\n", a.bad, a.first_bad);
	TEST_ASSERT_VAL("many distinct rows walked", a.rows > 500);
	TEST_ASSERT_EQUAL("rows through the memo differ from the DSO's", a.bad, 0);
	tspace__exit(&s);
	return TEST_OK;
}

/* ---- srcline and inline frames of this file ---- */

static volatile int inl_sink;

static inline __attribute__((always_inline)) void inl_inner(int x)
{
	inl_sink = x * 11;	/* INLINE-INNER */
}

static __attribute__((noinline)) void inl_outer(int x)
{
	inl_inner(x + 1);	/* INLINE-CALL */
	inl_sink += 3;
}

static int find_marker_line(const char *marker)
{
	FILE *f = fopen(__FILE__, "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, marker) && !strstr(line, "find_marker_line") && !strstr(line, "\"INLINE"))
			break;
	}
	fclose(f);
	return n;
}

struct inl_seen {
	int n;
	char func[4][64];
	unsigned int line[4];
	bool inlined[4];
};

static int inl_cb(const struct inline_frame *f, void *arg)
{
	struct inl_seen *s = arg;

	if (s->n < 4) {
		snprintf(s->func[s->n], sizeof(s->func[0]), "%s", f->func);
		s->line[s->n] = f->line;
		s->inlined[s->n] = f->inlined;
		s->n++;
	}
	return 0;
}

static int test__srcline_inline(void)
{
	struct tspace s = { 0 };
	struct inl_seen seen = { 0 };
	struct tmap *m;
	struct debuginfo *di;
	uint64_t fn = (uint64_t)(uintptr_t)inl_outer, vaddr = 0, a;
	const char *sl = NULL, *file;
	unsigned int line;
	int inner = find_marker_line("INLINE-INNER"), call = find_marker_line("INLINE-CALL");
	char want[64];
	int found = -1;

	inl_outer(1);
	if (access(__FILE__, R_OK))
		return test_skip("source %s not found", __FILE__);
	TEST_ASSERT_VAL("maps", !tspace__read_self_maps(&s));
	m = tspace__find(&s, fn);
	TEST_ASSERT_VAL("map of this code", m && m->dso->kind == DSO_USER);
	di = dso__debuginfo(m->dso);
	debuginfo__lock(di);
	TEST_ASSERT_VAL("elf", !debuginfo__load_elf(di));
	TEST_ASSERT_VAL("vaddr", !debuginfo__offset_to_vaddr(di, fn - m->start + m->pgoff, &vaddr));
	debuginfo__unlock(di);
	if (!dso__debug_file(m->dso))
		return test_skip("prf built without -g");
	/* scan the function for an address whose line is the inlined store */
	snprintf(want, sizeof(want), "unwind.c:%d", inner);
	for (a = vaddr; a < vaddr + 64; a++) {
		sl = dso__srcline(m->dso, a);
		if (sl && !strcmp(sl, want)) {
			found = 0;
			break;
		}
	}
	pr_debug("inline store at %#" PRIx64 ": %s (want %s)\n", a, sl ? sl : "-", want);
	TEST_ASSERT_VAL("line table has the inlined line", found == 0);
	TEST_ASSERT_VAL("srcline cached", dso__srcline(m->dso, a) == sl);
	TEST_ASSERT_VAL("full srcline", !dso__srcline_full(m->dso, a, &file, &line, NULL) &&
			line == (unsigned int)inner && strstr(file, "tests/unwind.c"));
	TEST_ASSERT_EQUAL("one inlined level", dso__inline_frames(m->dso, a, inl_cb, &seen), 1);
	TEST_ASSERT_EQUAL("two callbacks", seen.n, 2);
	TEST_ASSERT_STREQ("inner name", seen.func[0], "inl_inner");
	TEST_ASSERT_VAL("inner is inlined", seen.inlined[0]);
	TEST_ASSERT_EQUAL("inner line", seen.line[0], inner);
	TEST_ASSERT_STREQ("outer name", seen.func[1], "inl_outer");
	TEST_ASSERT_VAL("outer is not inlined", !seen.inlined[1]);
	TEST_ASSERT_EQUAL("call site line", seen.line[1], call);
	TEST_ASSERT_VAL("no srcline outside text", !dso__srcline(m->dso, 8));
	tspace__exit(&s);
	return TEST_OK;
}

/* ---- perf.data from Linux perf ---- */

/* ELF .symtab/.dynsym functions of one file (test-only symbolizer). */
struct tsym {
	uint64_t start, end;
	char *name;
};

struct tsyms {
	struct tsym *syms;
	size_t nr;
};

static int tsym__cmp(const void *a, const void *b)
{
	const struct tsym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void tsyms__load(struct tsyms *t, const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	int pass;

	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	for (pass = 0; elf && pass < 2 && !t->nr; pass++) {
		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *d;
			size_t i;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
				continue;
			d = elf_getdata(scn, NULL);
			for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;

				if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
				    !sym.st_value)
					continue;
				t->syms = realloc(t->syms, (t->nr + 1) * sizeof(*t->syms));
				t->syms[t->nr].start = sym.st_value;
				t->syms[t->nr].end = sym.st_value + (sym.st_size ? sym.st_size : 1);
				t->syms[t->nr].name = strdup(elf_strptr(elf, sh.sh_link, sym.st_name));
				t->nr++;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	qsort(t->syms, t->nr, sizeof(*t->syms), tsym__cmp);
}

static const char *tsyms__find(struct tsyms *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the last symbol starting at or below addr, or an alias before it */
	while (lo && addr < t->syms[lo - 1].end) {
		if (addr >= t->syms[lo - 1].start)
			return t->syms[lo - 1].name;
		lo--;
	}
	return NULL;
}

struct print_arg {
	FILE *out;
	struct tspace *space;
	char *targets[4];	/* binaries whose symbols are printed */
	struct tsyms syms[4];
	int nr_targets;
	uint64_t frames, truncated;
	uint64_t vaddr;	/* of the current frame */
};

static int print_inline_cb(const struct inline_frame *f, void *arg)
{
	struct print_arg *p = arg;

	fprintf(p->out, "%" PRIx64 " %s%s %s\n", p->vaddr, f->func, f->inlined ? " (inlined)" : "",
		f->srcline ? f->srcline : "-");
	return 0;
}

static int print_cb(struct unwind_entry *e, void *arg)
{
	struct print_arg *p = arg;
	struct tmap *m = tspace__find(p->space, e->ip);
	uint64_t vaddr = e->ip;
	struct debuginfo *di = m && m->dso->kind != DSO_ANON ? dso__debuginfo(m->dso) : NULL;
	int t;

	p->frames++;
	if (e->truncated)
		p->truncated++;
	if (di) {
		debuginfo__lock(di);
		if (debuginfo__load_elf(di) ||
		    debuginfo__offset_to_vaddr(di, e->ip - m->start + m->pgoff, &vaddr))
			vaddr = e->ip;
		debuginfo__unlock(di);
	}
	for (t = 0; m && t < p->nr_targets; t++)
		if (!strcmp(m->dso->long_name, p->targets[t]))
			break;
	if (m && t < p->nr_targets) {
		const char *name = tsyms__find(&p->syms[t], vaddr);
		const char *sl = dso__srcline(m->dso, vaddr);

		p->vaddr = vaddr;
		if (dso__inline_frames(m->dso, vaddr, print_inline_cb, p) > 0)
			return 0;
		fprintf(p->out, "%" PRIx64 " %s %s\n", vaddr, name ? name : "[unknown]", sl ? sl : "-");
	} else {
		fprintf(p->out, "%" PRIx64 "\n", vaddr);
	}
	return 0;
}

/* CPU time of this process in ns (robust to a loaded machine). */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int count_cb(struct unwind_entry *e, void *arg)
{
	struct print_arg *p = arg;

	p->frames++;
	p->truncated += e->truncated;
	return 0;
}

static int test__perf_data(void)
{
	bool bench = tunable__bool(TUNABLE_UNWIND_BENCH);	/* unwind only, no output */
	const char *path = tunable__str(TUNABLE_UNWIND_DATA);
	const char *outp = tunable__str(TUNABLE_UNWIND_OUT);
	const char *target = tunable__str(TUNABLE_UNWIND_TARGET);
	struct print_arg pa = { 0 };
	struct tspace s = { 0 };
	struct perf_event_attr attr;
	uint64_t hdr[13], data_off, data_size, attr_size, off, nr_samples = 0, nr_unwound = 0;
	uint64_t t0, t1, u0, t_unwind = 0;
	struct stat st;
	char *base;
	int fd;

	if (!path || !outp || !target)
		return test_skip("set PRF_UNWIND_DATA, PRF_UNWIND_OUT, PRF_UNWIND_TARGET (tests/shell/unwind-dwarf.sh does)");
	fd = open(path, O_RDONLY);
	TEST_ASSERT_VAL("open perf.data", fd >= 0 && !fstat(fd, &st));
	base = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	TEST_ASSERT_VAL("mmap", base != MAP_FAILED);
	memcpy(hdr, base, sizeof(hdr));
	TEST_ASSERT_VAL("PERFILE2", !memcmp(base, "PERFILE2", 8));
	attr_size = hdr[2];
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, base + hdr[3], min((size_t)(attr_size - 16), sizeof(attr)));
	data_off = hdr[5];
	data_size = hdr[6];
	TEST_ASSERT_VAL("dwarf recording",
			(attr.sample_type & PERF_SAMPLE_REGS_USER) && (attr.sample_type & PERF_SAMPLE_STACK_USER));
	TEST_ASSERT_VAL("sample layout handled",
			!(attr.sample_type & (PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK)));
	pa.out = fopen(outp, "w");
	TEST_ASSERT_VAL("output", pa.out);
	pa.space = &s;
	{
		char *list = strdup(target), *save = NULL, *tok;

		for (tok = strtok_r(list, ":", &save); tok && pa.nr_targets < 4;
		     tok = strtok_r(NULL, ":", &save)) {
			pa.targets[pa.nr_targets] = strdup(tok);
			tsyms__load(&pa.syms[pa.nr_targets], tok);
			pa.nr_targets++;
		}
		free(list);
	}

	t0 = now_ns();
	for (off = data_off; off + 8 <= data_off + data_size; ) {
		const struct perf_event_header *h = (const void *)(base + off);
		const union perf_event *ev = (const void *)h;

		if (h->size < 8)
			break;
		if (h->type == PERF_RECORD_MMAP2) {
			tspace__add(&s, ev->mmap2.pid, ev->mmap2.start, ev->mmap2.start + ev->mmap2.len,
				    ev->mmap2.pgoff, ev->mmap2.filename);
		} else if (h->type == PERF_RECORD_MMAP) {
			tspace__add(&s, ev->mmap.pid, ev->mmap.start, ev->mmap.start + ev->mmap.len,
				    ev->mmap.pgoff, ev->mmap.filename);
		} else if (h->type == PERF_RECORD_SAMPLE) {
			const uint64_t *a = ev->sample.array;
			uint64_t st_ = attr.sample_type, time = 0, regs_buf[64];
			struct regs_dump rd = { 0 };
			struct stack_dump sd = { 0 };
			uint32_t pid = 0;

			if (st_ & PERF_SAMPLE_IDENTIFIER) a++;
			if (st_ & PERF_SAMPLE_IP) a++;
			if (st_ & PERF_SAMPLE_TID) { pid = (uint32_t)*a; a++; }
			if (st_ & PERF_SAMPLE_TIME) time = *a++;
			if (st_ & PERF_SAMPLE_ADDR) a++;
			if (st_ & PERF_SAMPLE_ID) a++;
			if (st_ & PERF_SAMPLE_STREAM_ID) a++;
			if (st_ & PERF_SAMPLE_CPU) a++;
			if (st_ & PERF_SAMPLE_PERIOD) a++;
			if (st_ & PERF_SAMPLE_CALLCHAIN) a += 1 + *a;
			if (st_ & PERF_SAMPLE_RAW) a = (const uint64_t *)((const char *)a + PERF_ALIGN(4 + *(const uint32_t *)a, 8));
			if (st_ & PERF_SAMPLE_REGS_USER) {
				rd.abi = *a++;
				rd.mask = attr.sample_regs_user;
				if (rd.abi) {
					int n = __builtin_popcountll(rd.mask);

					memcpy(regs_buf, a, n * 8);
					rd.regs = regs_buf;
					a += n;
				}
			}
			if (st_ & PERF_SAMPLE_STACK_USER) {
				sd.size = *a++;
				if (sd.size) {
					sd.data = (const char *)a;
					a = (const uint64_t *)((const char *)a + sd.size);
					sd.dyn_size = *a++;
				}
			}
			nr_samples++;
			s.pid = pid;
			fprintf(pa.out, "S %" PRIu64 "\n", time);
			u0 = cpu_ns();
			if (!unwind__get_entries_space(bench ? count_cb : print_cb, &pa, tspace__find_map,
						       &s, &rd, &sd, 127))
				nr_unwound++;
			t_unwind += cpu_ns() - u0;
			fprintf(pa.out, "\n");
		}
		off += h->size;
	}
	t1 = now_ns();
	fprintf(stderr, "unwound %" PRIu64 " of %" PRIu64 " samples, %" PRIu64 " frames, %" PRIu64
		" truncated, %.0f samples/s with reading the file (wall), %.0f samples/s in the unwinder (cpu time)%s\n",
		nr_unwound, nr_samples, pa.frames, pa.truncated,
		nr_samples * 1e9 / (double)(t1 - t0 + 1), nr_samples * 1e9 / (double)(t_unwind + 1),
		bench ? "" : " (+ srcline, inline frames, output)");
	fprintf(pa.out, "T %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", nr_samples, pa.truncated,
		(uint64_t)(nr_samples * 1e9 / (double)(t1 - t0 + 1)));
	fclose(pa.out);
	munmap(base, st.st_size);
	close(fd);
	tspace__exit(&s);
	TEST_ASSERT_VAL("samples", nr_samples > 0);
	TEST_ASSERT_VAL("unwound most", nr_unwound * 2 > nr_samples);
	return TEST_OK;
}

DEFINE_SUITE(unwind, "DWARF unwinding, srclines and inline frames",
	     TEST_CASE(self, "unwind a captured stack of this process"),
	     TEST_CASE(truncated, "stack copy ending early marks the last frame truncated"),
	     TEST_CASE(parallel, "two threads unwinding through the same DSOs agree"),
	     TEST_CASE(row_memo, "CFI rows through the per-thread memo are the DSO's at every pc"),
	     TEST_CASE(fp_mix, "a truncated walk continues with an agreeing frame-pointer chain"),
	     TEST_CASE(srcline_inline, "srcline and inline frames from the line table and scopes"),
	     TEST_CASE(perf_data, "unwind a perf.data from Linux perf ($PRF_UNWIND_DATA)"));
