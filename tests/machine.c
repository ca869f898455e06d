// SPDX-License-Identifier: GPL-2.0
/*
 * The process model: synthetic COMM/FORK/MMAP2/EXIT records drive
 * machine__process_event(); lookups in a real running process (PIE,
 * non-PIE, shared library: its /proc/PID/maps fed as MMAP2 records) give
 * the functions the process itself reports; kallsyms resolves a kernel
 * symbol; hand-built PERF_SAMPLE_CALLCHAINs resolve frame by frame.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "../util/model/callchain.h"
#include "../util/model/dso.h"
#include "../util/model/machine.h"
#include "../util/model/map.h"
#include "../util/lib/util.h"

static char tdir[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void cleanup(void)
{
	if (tdir[0])
		sh("rm -rf %s", tdir);
}

/* ---- record builders ---- */

static union perf_event *ev_buf(void)
{
	static union { union perf_event ev; char pad[sizeof(struct perf_record_mmap2) + 64]; } b;

	memset(&b, 0, sizeof(b));
	return &b.ev;
}

static int comm(struct machine *m, pid_t pid, pid_t tid, const char *name, bool exec)
{
	union perf_event *ev = ev_buf();

	ev->header.type = PERF_RECORD_COMM;
	ev->header.misc = exec ? (1 << 13) : 0;
	ev->header.size = sizeof(ev->comm);
	ev->comm.pid = pid;
	ev->comm.tid = tid;
	strncpy(ev->comm.comm, name, sizeof(ev->comm.comm) - 1);
	return machine__process_event(m, ev, NULL);
}

static int fork_ev(struct machine *m, int type, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	union perf_event *ev = ev_buf();

	ev->header.type = type;
	ev->header.size = sizeof(ev->fork);
	ev->fork.pid = pid;
	ev->fork.ppid = ppid;
	ev->fork.tid = tid;
	ev->fork.ptid = ptid;
	return machine__process_event(m, ev, NULL);
}

static int mmap2(struct machine *m, pid_t pid, pid_t tid, uint64_t start, uint64_t len,
		 uint64_t pgoff, const char *file, bool kernel)
{
	union perf_event *ev = ev_buf();
	size_t l = strlen(file) + 1;

	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	ev->header.size = (uint16_t)(offsetof(struct perf_record_mmap2, filename) + PERF_ALIGN(l, 8));
	ev->mmap2.pid = pid;
	ev->mmap2.tid = tid;
	ev->mmap2.start = start;
	ev->mmap2.len = len;
	ev->mmap2.pgoff = pgoff;
	ev->mmap2.prot = 5;
	ev->mmap2.flags = 2;
	memcpy(ev->mmap2.filename, file, l);
	return machine__process_event(m, ev, NULL);
}

static const char *dso_at(struct machine *m, pid_t pid, pid_t tid, uint64_t addr)
{
	struct addr_location al;
	struct thread *t = machine__findnew_thread(m, pid, tid);

	thread__find_symbol(t, PERF_RECORD_MISC_USER, addr, &al);
	return al.map ? al.map->dso->short_name : "[unknown]";
}

static int test__threads_maps(void)
{
	struct machine *m = machine__new_host();
	struct thread *t, *c;
	struct addr_location al;

	TEST_ASSERT_VAL("machine", m);
	/* process 100 with a thread 101 */
	TEST_ASSERT_VAL("comm", !comm(m, 100, 100, "app", false));
	TEST_ASSERT_VAL("mmap exe", !mmap2(m, 100, 100, 0x400000, 0x10000, 0, "/opt/x/app", false));
	TEST_ASSERT_VAL("mmap lib", !mmap2(m, 100, 100, 0x7f0000000000, 0x200000, 0x1000,
					   "/usr/lib/libfoo.so.1", false));
	TEST_ASSERT_VAL("thread", !fork_ev(m, PERF_RECORD_FORK, 100, 100, 101, 100));
	t = machine__find_thread(m, 101);
	TEST_ASSERT_VAL("thread exists", t && t->pid == 100);
	TEST_ASSERT_STREQ("thread comm inherited", thread__comm_str(t), "app");
	TEST_ASSERT_STREQ("thread shares maps", dso_at(m, 100, 101, 0x400100), "app");
	/* a map added by one thread is seen by the other (shared maps) */
	TEST_ASSERT_VAL("mmap via thread", !mmap2(m, 100, 101, 0x500000, 0x1000, 0, "/opt/x/plugin.so", false));
	TEST_ASSERT_STREQ("shared", dso_at(m, 100, 100, 0x500010), "plugin.so");

	/* fork of a new process: a copy */
	TEST_ASSERT_VAL("fork", !fork_ev(m, PERF_RECORD_FORK, 200, 100, 200, 100));
	c = machine__find_thread(m, 200);
	TEST_ASSERT_VAL("child", c && c->ppid == 100);
	TEST_ASSERT_STREQ("child comm", thread__comm_str(c), "app");
	TEST_ASSERT_STREQ("child inherits lib", dso_at(m, 200, 200, 0x7f0000000010), "libfoo.so.1");
	TEST_ASSERT_VAL("child mmap", !mmap2(m, 200, 200, 0x600000, 0x1000, 0, "/opt/x/only-child", false));
	TEST_ASSERT_STREQ("child sees its map", dso_at(m, 200, 200, 0x600000), "only-child");
	TEST_ASSERT_STREQ("parent does not", dso_at(m, 100, 100, 0x600000), "[unknown]");

	/* overlapping mmap splits the old map: pgoff of the tail piece follows */
	TEST_ASSERT_VAL("overlap", !mmap2(m, 100, 100, 0x7f0000100000, 0x1000, 0, "//anon", false));
	TEST_ASSERT_STREQ("head", dso_at(m, 100, 100, 0x7f00000fffff), "libfoo.so.1");
	TEST_ASSERT_STREQ("middle", dso_at(m, 100, 100, 0x7f0000100800), "[JIT] tid 100");
	TEST_ASSERT_STREQ("tail", dso_at(m, 100, 100, 0x7f0000101000), "libfoo.so.1");
	t = machine__findnew_thread(m, 100, 100);
	thread__find_symbol(t, PERF_RECORD_MISC_USER, 0x7f0000101000, &al);
	TEST_ASSERT_VAL("tail pgoff", al.map && al.map->pgoff == 0x1000 + 0x101000);
	TEST_ASSERT_VAL("level", al.level == '.');
	/* the child's copy was not changed by the parent's mmap */
	TEST_ASSERT_STREQ("child copy intact", dso_at(m, 200, 200, 0x7f0000100800), "libfoo.so.1");

	/* exec: new comm; old maps stay until new MMAPs replace them (perf) */
	TEST_ASSERT_VAL("exec", !comm(m, 200, 200, "newprog", true));
	c = machine__find_thread(m, 200);
	TEST_ASSERT_STREQ("exec comm", thread__comm_str(c), "newprog");
	TEST_ASSERT_STREQ("exec keeps old lib", dso_at(m, 200, 200, 0x7f0000000010), "libfoo.so.1");
	TEST_ASSERT_VAL("exec mmap", !mmap2(m, 200, 200, 0x7f0000000000, 0x1000, 0, "/opt/x/newprog", false));
	TEST_ASSERT_STREQ("new image", dso_at(m, 200, 200, 0x7f0000000010), "newprog");
	/* plain comm change keeps maps */
	TEST_ASSERT_VAL("prctl comm", !comm(m, 100, 100, "renamed", false));
	TEST_ASSERT_STREQ("renamed", thread__comm_str(machine__find_thread(m, 100)), "renamed");
	TEST_ASSERT_STREQ("maps kept", dso_at(m, 100, 100, 0x400000), "app");

	/* exit */
	TEST_ASSERT_VAL("exit", !fork_ev(m, PERF_RECORD_EXIT, 101, 100, 101, 100));
	TEST_ASSERT_VAL("dead", machine__find_thread(m, 101)->dead);

	/* unknown thread: comm ":tid", joins the leader's maps */
	t = machine__findnew_thread(m, 100, 4242);
	TEST_ASSERT_STREQ("unknown comm", thread__comm_str(t), ":4242");
	TEST_ASSERT_STREQ("unknown thread uses leader maps", dso_at(m, 100, 4242, 0x400000), "app");
	t = machine__findnew_thread(m, 0, 0);
	TEST_ASSERT_STREQ("idle", thread__comm_str(t), "swapper");
	machine__delete(m);
	return TEST_OK;
}

/* ---- a real process ---- */

static const char prog_c[] =
	"#include <stdio.h>\n#include <unistd.h>\n"
	"int lib_outer(int);\nvoid *lib_addr(void);\n"
	"__attribute__((noinline)) int leaf_func(int x) { return x * 3 + 1; }\n"
	"__attribute__((noinline)) int mid_func(int x) { return leaf_func(x) + 1; }\n"
	"int main(void) { printf(\"%d %p %p %p\\n\", (int)getpid(), (void *)leaf_func,"
	" (void *)mid_func, lib_addr()); fflush(stdout); sleep(30); return mid_func(lib_outer(1)); }\n";

static const char lib_c[] =
	"__attribute__((noinline)) int lib_outer(int x) { return x * 7; }\n"
	"void *lib_addr(void) { return (void *)lib_outer; }\n";

/* Feed /proc/PID/maps of a live process as MMAP2 records. */
static int feed_maps(struct machine *m, pid_t pid)
{
	char path[64], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8], file[512] = "//anon";
		int n = sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &s, &e, perms, &off, file);

		if (n < 4 || perms[2] != 'x')
			continue;
		mmap2(m, pid, pid, s, e - s, off, file, false);
	}
	fclose(f);
	return 0;
}

static int run_and_resolve(const char *exe, const char *libdir)
{
	char cmd[512], line[256];
	unsigned long long a_leaf, a_mid, a_lib;
	int pid, ret = TEST_FAIL;
	struct machine *m;
	struct thread *t;
	struct addr_location al;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "LD_LIBRARY_PATH=%s exec %s", libdir, exe);
	f = popen(cmd, "r");
	if (!f)
		return TEST_FAIL;
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "%d %llx %llx %llx", &pid, &a_leaf, &a_mid, &a_lib) != 4) {
		pclose(f);
		return TEST_FAIL;
	}
	m = machine__new_host();
	if (!m)
		goto out;
	comm(m, pid, pid, "prog", true);
	feed_maps(m, pid);
	t = machine__findnew_thread(m, pid, pid);
	thread__find_symbol(t, PERF_RECORD_MISC_USER, a_leaf + 2, &al);
	if (!al.sym || strcmp(al.sym->name, "leaf_func")) {
		pr_err("%s: leaf_func at %#llx resolved to %s\n", exe, a_leaf, al.sym ? al.sym->name : "-");
		goto out;
	}
	thread__find_symbol(t, PERF_RECORD_MISC_USER, a_mid, &al);
	if (!al.sym || strcmp(al.sym->name, "mid_func") || map__unmap_ip(al.map, al.addr) != a_mid) {
		pr_err("%s: mid_func at %#llx resolved to %s\n", exe, a_mid, al.sym ? al.sym->name : "-");
		goto out;
	}
	thread__find_symbol(t, PERF_RECORD_MISC_USER, a_lib + 1, &al);
	if (!al.sym || strcmp(al.sym->name, "lib_outer") || strcmp(al.map->dso->short_name, "libm1.so")) {
		pr_err("%s: lib_outer at %#llx resolved to %s\n", exe, a_lib, al.sym ? al.sym->name : "-");
		goto out;
	}
	ret = TEST_OK;
out:
	machine__delete(m);
	kill(pid, SIGKILL);
	pclose(f);
	return ret;
}

static int test__real_process(void)
{
	char p[128];
	FILE *f;
	int ret;

	strcpy(tdir, "/tmp/prf-machine-XXXXXX");
	TEST_ASSERT_VAL("mkdtemp", mkdtemp(tdir));
	if (sh("command -v cc >/dev/null"))
		return cleanup(), test_skip("cc not installed");
	snprintf(p, sizeof(p), "%s/prog.c", tdir);
	f = fopen(p, "w");
	fputs(prog_c, f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/lib.c", tdir);
	f = fopen(p, "w");
	fputs(lib_c, f);
	fclose(f);
	ret = sh("cd %s && cc -O1 -fPIC -shared -o libm1.so lib.c && "
		 "cc -O1 -fPIE -pie -o pie prog.c -L. -lm1 && cc -O1 -fno-pie -no-pie -o nopie prog.c -L. -lm1",
		 tdir);
	TEST_ASSERT_VAL("compile", !ret);
	snprintf(p, sizeof(p), "%s/pie", tdir);
	ret = run_and_resolve(p, tdir);
	if (!ret) {
		snprintf(p, sizeof(p), "%s/nopie", tdir);
		ret = run_and_resolve(p, tdir);
	}
	cleanup();
	return ret;
}

/* A text symbol of the running kernel from /proc/kallsyms. */
static int kallsyms_pick(const char *want, uint64_t *addr, uint64_t *text)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long a;

	*addr = *text = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*text = a;
		if (!strcmp(name, want) && (type == 'T' || type == 't'))
			*addr = a;
	}
	fclose(f);
	return *addr && *text ? 0 : -ENOENT;
}

static int test__kallsyms(void)
{
	struct machine *m;
	struct thread *t;
	struct addr_location al;
	uint64_t addr, text;

	if (kallsyms_pick("schedule", &addr, &text))
		return test_skip("kallsyms addresses not readable (kptr_restrict?)");
	m = machine__new_host();
	TEST_ASSERT_VAL("machine", m);
	TEST_ASSERT_VAL("kernel mmap", !mmap2(m, -1, 0, text, 0x4000000, text,
					     "[kernel.kallsyms]_text", true));
	t = machine__findnew_thread(m, 1, 1);
	thread__find_symbol(t, PERF_RECORD_MISC_KERNEL, addr + 1, &al);
	TEST_ASSERT_VAL("map", al.map);
	TEST_ASSERT_STREQ("dso", al.map->dso->short_name, "[kernel.kallsyms]");
	TEST_ASSERT_VAL("level k", al.level == 'k');
	TEST_ASSERT_VAL("identity", al.addr == addr + 1);
	TEST_ASSERT_STREQ("symbol", al.sym ? al.sym->name : NULL, "schedule");
	/* user cpumode never resolves in the kernel maps */
	thread__find_symbol(t, PERF_RECORD_MISC_USER, addr, &al);
	TEST_ASSERT_VAL("user miss", !al.map && !al.sym);
	machine__delete(m);
	return TEST_OK;
}

/*
 * A kallsyms file of several MB (read by a thread and parsed in batches as
 * it arrives): every text symbol is loaded exactly once whatever batch
 * boundary its line straddles, module and data symbols are sorted out, and
 * an unterminated last line counts. The module DSO then loads from the
 * cached text.
 */
static int test__kallsyms_file(void)
{
	enum { NR = 60000 };
	char path[128];
	struct dso *k, *mod;
	FILE *f;
	int ret = TEST_FAIL;

	strcpy(tdir, "/tmp/prf-kallsyms-XXXXXX");
	TEST_ASSERT_VAL("mkdtemp", mkdtemp(tdir));
	snprintf(path, sizeof(path), "%s/kallsyms", tdir);
	f = fopen(path, "w");
	TEST_ASSERT_VAL("create", f);
	fprintf(f, "ffffffff81000000 T _text\n");
	for (int i = 1; i <= NR; i++) {
		/* names of varying length so lines fall across batch ends */
		fprintf(f, "%016llx %c sym_%d_%.*s\n", 0xffffffff81000000ULL + 16ULL * i,
			i % 3 ? 't' : 'T', i, i % 37, "abcdefghijklmnopqrstuvwxyzabcdefghijkl");
		if (i % 1000 == 0)
			fprintf(f, "%016llx d data_%d\n", 0xffffffff82000000ULL + (unsigned long long)i, i);
	}
	for (int i = 0; i < 10; i++)
		fprintf(f, "ffffffffc0001%03x t mod_fn_%d\t[mymod]\n", i * 32, i);
	fprintf(f, "ffffffff81f00000 T last_unterminated");
	fclose(f);

	k = dso__new("[kernel.kallsyms]");
	mod = dso__new("[mymod]");
	if (!k || !mod)
		goto out;
	if (dso__load_kallsyms(k, path) || dso__load_kallsyms(mod, path))
		goto out;
	dso__symbols_finish(k);
	dso__symbols_finish(mod);
	/* _text + NR + last line; no data, no module symbol */
	if (k->nr_symbols != NR + 2) {
		pr_err("kernel symbols: %zu, want %d\n", k->nr_symbols, NR + 2);
		goto out;
	}
	for (int i = 1; i <= NR; i++) {
		struct symbol *sym = dso__find_symbol_loaded(k, 0xffffffff81000000ULL + 16ULL * i + 3);
		char want[64];

		snprintf(want, sizeof(want), "sym_%d_%.*s", i, i % 37, "abcdefghijklmnopqrstuvwxyzabcdefghijkl");
		if (!sym || strcmp(sym->name, want)) {
			pr_err("symbol %d: %s, want %s\n", i, sym ? sym->name : "(none)", want);
			goto out;
		}
	}
	if (!dso__find_symbol_loaded(k, 0xffffffff81f00000ULL) ||
	    strcmp(dso__find_symbol_loaded(k, 0xffffffff81f00000ULL)->name, "last_unterminated")) {
		pr_err("unterminated last line not loaded\n");
		goto out;
	}
	if (mod->nr_symbols != 10 || !dso__find_symbol_loaded(mod, 0xffffffffc0001040ULL) ||
	    strcmp(dso__find_symbol_loaded(mod, 0xffffffffc0001040ULL)->name, "mod_fn_2")) {
		pr_err("module symbols: %zu\n", mod->nr_symbols);
		goto out;
	}
	ret = TEST_OK;
out:
	if (k)
		dso__put(k);
	if (mod)
		dso__put(mod);
	cleanup();
	return ret;
}

static int test__callchain(void)
{
	struct machine *m = machine__new_host();
	struct callchain_cursor cur;
	struct resolve_opts opts = { .max_stack = 0 };
	struct perf_sample s;
	struct thread *t;
	uint64_t kaddr = 0, text = 0;
	bool have_k = !kallsyms_pick("schedule", &kaddr, &text);
	struct { uint64_t nr; uint64_t ips[8]; } cc;
	struct dso *dso;

	TEST_ASSERT_VAL("machine", m);
	/* a JIT-style DSO with known symbols (identity mapping, loaded now) */
	TEST_ASSERT_VAL("comm", !comm(m, 300, 300, "jit", false));
	TEST_ASSERT_VAL("mmap", !mmap2(m, 300, 300, 0x10000, 0x10000, 0, "/tmp/perf-0.map", false));
	dso = machine__findnew_dso(m, "/tmp/perf-0.map");
	TEST_ASSERT_VAL("dso", dso && dso->kind == DSO_JIT);
	dso->symbols_loaded = true;
	dso__add_symbol(dso, 0x11000, 0x100, 1, 2, "inner", false);
	dso__add_symbol(dso, 0x12000, 0x100, 1, 2, "outer", false);
	dso__add_symbol(dso, 0x13000, 0x100, 1, 2, "root", false);
	dso__symbols_finish(dso);
	if (have_k)
		mmap2(m, -1, 0, text, 0x4000000, text, "[kernel.kallsyms]_text", true);

	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 300;
	s.cpumode = have_k ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	s.ip = have_k ? kaddr + 4 : 0x11010;
	cc.nr = 0;
	if (have_k) {
		cc.ips[cc.nr++] = PERF_CONTEXT_KERNEL;
		cc.ips[cc.nr++] = kaddr + 4;
	}
	cc.ips[cc.nr++] = PERF_CONTEXT_USER;
	cc.ips[cc.nr++] = 0x11010;
	cc.ips[cc.nr++] = 0x12020;
	cc.ips[cc.nr++] = 0x13030;
	cc.ips[cc.nr++] = 0x70000;	/* unmapped */
	s.callchain = (struct ip_callchain *)&cc;
	t = machine__findnew_thread(m, 300, 300);
	callchain_cursor__init(&cur);
	TEST_ASSERT_VAL("resolve", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("frames", cur.nr, have_k ? 5 : 4);
	{
		unsigned int u = have_k ? 1 : 0;

		if (have_k) {
			TEST_ASSERT_VAL("k frame", cur.frames[0].cpumode == PERF_RECORD_MISC_KERNEL);
			TEST_ASSERT_STREQ("k sym", cur.frames[0].sym ? cur.frames[0].sym->name : NULL,
					  "schedule");
		}
		TEST_ASSERT_STREQ("u0", cur.frames[u].sym ? cur.frames[u].sym->name : NULL, "inner");
		TEST_ASSERT_VAL("u0 mode", cur.frames[u].cpumode == PERF_RECORD_MISC_USER);
		TEST_ASSERT_STREQ("u1", cur.frames[u + 1].sym ? cur.frames[u + 1].sym->name : NULL, "outer");
		TEST_ASSERT_STREQ("u2", cur.frames[u + 2].sym ? cur.frames[u + 2].sym->name : NULL, "root");
		TEST_ASSERT_VAL("unmapped", !cur.frames[u + 3].map && !cur.frames[u + 3].sym &&
					    cur.frames[u + 3].addr == 0x70000);
	}
	/* max_stack */
	opts.max_stack = 2;
	TEST_ASSERT_VAL("resolve2", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("max_stack", cur.nr, 2);
	/* hide_unresolved drops the unmapped frame */
	opts.max_stack = 0;
	opts.hide_unresolved = true;
	TEST_ASSERT_VAL("resolve3", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("hidden", cur.nr, have_k ? 4 : 3);
	/* no callchain: the sample ip alone */
	s.callchain = NULL;
	s.cpumode = PERF_RECORD_MISC_USER;
	s.ip = 0x12001;
	opts.hide_unresolved = false;
	TEST_ASSERT_VAL("resolve4", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("one", cur.nr, 1);
	TEST_ASSERT_STREQ("ip sym", cur.frames[0].sym ? cur.frames[0].sym->name : NULL, "outer");
	/* an unknown context marker: the chain is dropped whole, as perf does */
	cc.nr = 0;
	cc.ips[cc.nr++] = PERF_CONTEXT_USER;
	cc.ips[cc.nr++] = 0x11010;
	cc.ips[cc.nr++] = (uint64_t)-5;
	s.callchain = (struct ip_callchain *)&cc;
	TEST_ASSERT_VAL("resolve5", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_VAL("discarded", cur.nr == 0 && cur.discarded);
	callchain_cursor__exit(&cur);
	machine__delete(m);
	return TEST_OK;
}

/*
 * The resolution cache stores a raw chain the second time it is resolved
 * (a chain met once costs no copy); from the third time on it is a hit
 * with the same chain_id, and every time the frames are the same.
 */
static int test__chain_cache(void)
{
	struct machine *m = machine__new_host();
	struct callchain_cursor cur;
	struct resolve_opts opts = { .max_stack = 0 };
	struct perf_sample s;
	struct thread *t;
	struct { uint64_t nr; uint64_t ips[4]; } a = { 4, { PERF_CONTEXT_USER, 0x411010, 0x412020, 0x413030 } },
		b = { 3, { PERF_CONTEXT_USER, 0x412010, 0x413020 } };
	struct dso *dso;
	uint64_t id;

	TEST_ASSERT_VAL("machine", m);
	TEST_ASSERT_VAL("comm", !comm(m, 310, 310, "app", false));
	TEST_ASSERT_VAL("mmap", !mmap2(m, 310, 310, 0x400000, 0x100000, 0, "/nonexistent/prf-cc-app", false));
	dso = machine__findnew_dso(m, "/nonexistent/prf-cc-app");
	TEST_ASSERT_VAL("user dso", dso && dso->kind == DSO_USER);
	dso->symbols_loaded = true;
	dso__add_symbol(dso, 0x11000, 0x100, 1, 2, "inner", false);
	dso__add_symbol(dso, 0x12000, 0x100, 1, 2, "outer", false);
	dso__add_symbol(dso, 0x13000, 0x100, 1, 2, "root", false);
	dso__symbols_finish(dso);
	t = machine__findnew_thread(m, 310, 310);
	callchain_cursor__init(&cur);
	TEST_ASSERT_VAL("cache", !callchain_cursor__enable_cache(&cur));
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 310;
	s.cpumode = PERF_RECORD_MISC_USER;
	s.ip = 0x411010;
	s.callchain = (struct ip_callchain *)&a;
	TEST_ASSERT_VAL("resolve 1", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("met once: not stored", cur.chain_id, 0);
	TEST_ASSERT_STREQ("frames 1", cur.nr == 3 && cur.frames[2].sym ? cur.frames[2].sym->name : NULL,
			  "root");
	s.callchain = (struct ip_callchain *)&b;
	TEST_ASSERT_VAL("resolve other", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("other chain met once", cur.chain_id, 0);
	s.callchain = (struct ip_callchain *)&a;
	TEST_ASSERT_VAL("resolve 2", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	id = cur.chain_id;
	TEST_ASSERT_VAL("met twice: stored", id != 0);
	TEST_ASSERT_VAL("resolve 3", !sample__resolve_callchain(&s, NULL, t, &opts, NULL, &cur));
	TEST_ASSERT_EQUAL("hit: same id", cur.chain_id, id);
	TEST_ASSERT_EQUAL("hit: same frames", cur.nr, 3);
	TEST_ASSERT_STREQ("hit frame 0", cur.frames[0].sym ? cur.frames[0].sym->name : NULL, "inner");
	TEST_ASSERT_STREQ("hit frame 1", cur.frames[1].sym ? cur.frames[1].sym->name : NULL, "outer");
	TEST_ASSERT_STREQ("hit frame 2", cur.frames[2].sym ? cur.frames[2].sym->name : NULL, "root");
	callchain_cursor__exit(&cur);
	machine__delete(m);
	return TEST_OK;
}

static int test__perf_map(void)
{
	char path[64];
	FILE *f;
	struct machine *m = machine__new_host();
	struct thread *t;
	struct addr_location al;
	pid_t pid = 2000000 + (getpid() % 100000);

	TEST_ASSERT_VAL("machine", m);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	f = fopen(path, "w");
	TEST_ASSERT_VAL("perf map", f);
	fprintf(f, "7f0000001000 40 jitted_add\n7f0000001040 0x80 LazyCompile:~foo bar.js:1\n");
	fclose(f);
	mmap2(m, pid, pid, 0x7f0000000000, 0x10000, 0, "//anon", false);
	t = machine__findnew_thread(m, pid, pid);
	thread__find_symbol(t, PERF_RECORD_MISC_USER, 0x7f0000001050, &al);
	unlink(path);
	TEST_ASSERT_VAL("map", al.map);
	{
		char jit[64];

		snprintf(jit, sizeof(jit), "[JIT] tid %d", pid);
		TEST_ASSERT_STREQ("dso", al.map->dso->short_name, jit);
	}
	TEST_ASSERT_STREQ("sym", al.sym ? al.sym->name : NULL, "LazyCompile:~foo bar.js:1");
	thread__find_symbol(t, PERF_RECORD_MISC_USER, 0x7f0000001000, &al);
	TEST_ASSERT_STREQ("sym2", al.sym ? al.sym->name : NULL, "jitted_add");
	machine__delete(m);
	return TEST_OK;
}

static int test__vdso(void)
{
	struct machine *m = machine__new_host();
	struct dso *dso;
	struct symbol *s = NULL;

	TEST_ASSERT_VAL("machine", m);
	dso = machine__findnew_dso(m, "[vdso]");
	TEST_ASSERT_VAL("kind", dso->kind == DSO_VDSO);
	if (dso__load(dso)) {
		machine__delete(m);
		return test_skip("no [vdso] in this process");
	}
	for (size_t i = 0; i < dso->nr_symbols; i++)
		if (strstr(dso->symbols[i]->name, "clock_gettime"))
			s = dso->symbols[i];
	TEST_ASSERT_VAL("vdso has *clock_gettime", s);
	TEST_ASSERT_VAL("lookup", dso__find_symbol(dso, s->start) == s);
	machine__delete(m);
	return TEST_OK;
}

/*
 * The name tails of COMM and KSYMBOL end where the record ends: a record cut
 * short mid-name (no NUL inside header.size) must not take in the bytes that
 * follow it in the buffer (the fuzzer's find tests/fuzz/regress/session/
 * ksymbol-short-name.data read 256 bytes past the end of the file).
 */
static int test__short_names(void)
{
	struct machine *m = machine__new_host();
	union perf_event *ev = ev_buf();
	struct addr_location al;
	struct thread *t;

	TEST_ASSERT_VAL("machine", m);
	memset(ev, 0, sizeof(*ev));
	ev->header.type = PERF_RECORD_COMM;
	ev->header.size = offsetof(struct perf_record_comm, comm) + 8;
	ev->comm.pid = ev->comm.tid = 77;
	memcpy(ev->comm.comm, "abcdefghXYZ", 12);	/* "XYZ" lies past the record */
	TEST_ASSERT_VAL("cut COMM", !machine__process_event(m, ev, NULL));
	TEST_ASSERT_STREQ("comm ends with the record", thread__comm_str(machine__find_thread(m, 77)),
			  "abcdefgh");

	memset(ev, 0, sizeof(*ev));
	ev->header.type = PERF_RECORD_KSYMBOL;
	ev->header.misc = PERF_RECORD_MISC_KERNEL;
	ev->header.size = offsetof(struct perf_record_ksymbol, name) + 8;
	ev->ksymbol.addr = 0xffffffffc0001000ull;
	ev->ksymbol.len = 0x100;
	memcpy(ev->ksymbol.name, "bpf_progTRAILING", 17);
	TEST_ASSERT_VAL("cut KSYMBOL", !machine__process_event(m, ev, NULL));
	t = machine__findnew_thread(m, 0, 0);
	thread__find_symbol(t, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001010ull, &al);
	TEST_ASSERT_VAL("ksymbol resolves", al.sym);
	TEST_ASSERT_STREQ("ksymbol name ends with the record", al.sym->name, "bpf_prog");
	machine__delete(m);
	return TEST_OK;
}

DEFINE_SUITE(machine, "Process model: threads, maps, kernel, callchains",
	TEST_CASE(threads_maps, "COMM/FORK/MMAP2/EXIT: shared and copied maps, exec, splits"),
	TEST_CASE(short_names, "COMM and KSYMBOL names cut by the record end stay inside it"),
	TEST_CASE(real_process, "PIE, non-PIE and a shared library in a live process"),
	TEST_CASE(kallsyms, "kernel symbol from kallsyms via the [kernel.kallsyms] map"),
	TEST_CASE(kallsyms_file, "a multi-MB kallsyms file: every line once across read batches"),
	TEST_CASE(callchain, "PERF_SAMPLE_CALLCHAIN with context markers, max_stack"),
	TEST_CASE(chain_cache, "resolution cache: a chain stored when met again, then hits"),
	TEST_CASE(perf_map, "JIT symbols from /tmp/perf-PID.map"),
	TEST_CASE(vdso, "[vdso] symbols from our own vdso image"));
