// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables of real ELF files compiled here with cc: PIE, non-PIE,
 * shared library, stripped (.dynsym only), separate .debug file (by
 * .gnu_debuglink and by build-id under --symfs), C++ demangling against
 * c++filt, PLT entries against objdump, build-id against readelf -n,
 * build-id mismatch detection.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "../util/model/debuginfo.h"
#include "../util/model/dso.h"
#include "../util/model/map.h"
#include "../util/model/machine.h"
#include "../util/lib/util.h"

static char tdir[64];

static const char prog_c[] =
	"#include <stdio.h>\n#include <string.h>\n"
	"int global_counter;\n"
	"__attribute__((noinline)) int leaf_func(int x) { return x * 3 + global_counter; }\n"
	"__attribute__((noinline)) int mid_func(int x) { return leaf_func(x) + 1; }\n"
	"static __attribute__((noinline)) int static_func(int x) { return mid_func(x) ^ 5; }\n"
	"int main(int argc, char **argv) { printf(\"%d\\n\", static_func(argc));\n"
	"  return strlen(argv[0]) > 1000; }\n";

static const char lib_c[] =
	"#include <stdlib.h>\n"
	"__attribute__((noinline)) int lib_inner(int x) { return abs(x) * 7; }\n"
	"__attribute__((noinline)) int lib_outer(int x) { return lib_inner(x) + 2; }\n";

static const char cxx_c[] =
	"#include <cstdio>\n"
	"namespace outer { namespace inner {\n"
	"template <typename T> struct Box { T v;\n"
	"  __attribute__((noinline)) T twice(T k) const { return v * k + 2; } };\n"
	"__attribute__((noinline)) double mix(int a, double b) { return a * b; }\n"
	"} }\n"
	"int main(int argc, char **) { outer::inner::Box<long> b{argc};\n"
	"  outer::inner::Box<double> d{1.5};\n"
	"  std::printf(\"%ld %f %f\\n\", b.twice(3), d.twice(2.0), outer::inner::mix(argc, 2.5));\n"
	"  return 0; }\n";

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = system(cmd);
	if (ret)
		pr_debug("command failed (%d): %s\n", ret, cmd);
	return ret;
}

/* First line of a command's output, trailing newline removed. */
static int capture(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int capture(char *buf, size_t size, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	FILE *f;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	pclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return n ? 0 : -1;
}

static int write_file(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tdir, name);
	f = fopen(p, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int setup(void)
{
	strcpy(tdir, "/tmp/prf-symbols-XXXXXX");
	if (!mkdtemp(tdir))
		return -1;
	if (sh("command -v cc >/dev/null && command -v nm >/dev/null && command -v objcopy >/dev/null"))
		return 1;
	return write_file("prog.c", prog_c) || write_file("lib.c", lib_c) ||
	       write_file("cxx.cc", cxx_c) ? -1 : 0;
}

static void cleanup(void)
{
	if (tdir[0])
		sh("rm -rf %s", tdir);
}

/* st_value of a defined symbol per nm (0 if absent). */
static uint64_t nm_addr(const char *file, const char *sym, bool dynamic)
{
	char out[256];

	if (capture(out, sizeof(out), "nm %s --defined-only %s/%s 2>/dev/null | awk '$3==\"%s\"{print $1; exit}'",
		    dynamic ? "-D" : "", tdir, file, sym))
		return 0;
	return strtoull(out, NULL, 16);
}

static struct dso *load(const char *file)
{
	char p[256];
	struct dso *dso;

	snprintf(p, sizeof(p), "%s/%s", tdir, file);
	dso = dso__new(p);
	if (dso)
		dso__load(dso);
	return dso;
}

static int check_sym(struct dso *dso, uint64_t addr, const char *name)
{
	struct symbol *s;

	if (!addr) {
		pr_err("no address for %s\n", name);
		return -1;
	}
	s = dso__find_symbol(dso, addr);
	if (!s || strcmp(s->name, name)) {
		pr_err("%s: at %#llx expected %s, got %s\n", dso->long_name,
		       (unsigned long long)addr, name, s ? s->name : "(none)");
		return -1;
	}
	s = dso__find_symbol(dso, addr + 1);	/* inside, not only the start */
	if (!s || strcmp(s->name, name)) {
		pr_err("%s: at %#llx+1 expected %s\n", dso->long_name, (unsigned long long)addr, name);
		return -1;
	}
	return 0;
}

static int check_prog(const char *file, bool full_symtab)
{
	struct dso *dso = load(file);
	int ret = TEST_OK;

	TEST_ASSERT_VAL("dso", dso);
	if (check_sym(dso, nm_addr(file, "leaf_func", !full_symtab), "leaf_func") ||
	    check_sym(dso, nm_addr(file, "mid_func", !full_symtab), "mid_func"))
		ret = TEST_FAIL;
	if (full_symtab && check_sym(dso, nm_addr(file, "static_func", false), "static_func"))
		ret = TEST_FAIL;
	dso__put(dso);
	return ret;
}

static int test__elf_pie_nopie(void)
{
	int ret = setup();

	if (ret > 0)
		return cleanup(), test_skip("cc/binutils not installed");
	TEST_ASSERT_VAL("setup", !ret);
	ret = sh("cd %s && cc -O1 -g -fPIE -pie -o pie prog.c && cc -O1 -g -fno-pie -no-pie -o nopie prog.c",
		 tdir);
	TEST_ASSERT_VAL("compile", !ret);
	ret = check_prog("pie", true);
	if (!ret)
		ret = check_prog("nopie", true);
	if (!ret) {	/* non-PIE: exec segment p_vaddr - p_offset = link base */
		struct dso *dso = load("nopie");

		TEST_ASSERT_VAL("text_offset", dso && dso->text_offset >= 0x400000);
		dso__put(dso);
	}
	cleanup();
	return ret;
}

static int test__elf_shlib_stripped(void)
{
	int ret = setup();
	struct dso *dso;

	if (ret > 0)
		return cleanup(), test_skip("cc/binutils not installed");
	TEST_ASSERT_VAL("setup", !ret);
	ret = sh("cd %s && cc -O1 -g -fPIC -shared -o libt.so lib.c && cp libt.so libs.so && strip -s libs.so && "
		 "cc -O1 -g -fPIE -pie -Wl,--export-dynamic -o pstrip prog.c && strip -s pstrip", tdir);
	TEST_ASSERT_VAL("compile", !ret);
	dso = load("libt.so");
	TEST_ASSERT_VAL("lib", dso);
	ret = check_sym(dso, nm_addr("libt.so", "lib_inner", false), "lib_inner") ||
	      check_sym(dso, nm_addr("libt.so", "lib_outer", false), "lib_outer") ? TEST_FAIL : TEST_OK;
	dso__put(dso);
	if (ret)
		goto out;
	/* stripped: .dynsym only */
	dso = load("libs.so");
	TEST_ASSERT_VAL("stripped lib", dso);
	ret = check_sym(dso, nm_addr("libs.so", "lib_outer", true), "lib_outer") ? TEST_FAIL : TEST_OK;
	TEST_ASSERT_VAL("no .symtab left", nm_addr("libs.so", "lib_outer", false) == 0);
	dso__put(dso);
	if (!ret)
		ret = check_prog("pstrip", false);
out:
	cleanup();
	return ret;
}

static int test__elf_plt(void)
{
	int ret = setup();
	char out[256];
	struct dso *dso;
	const char *bins[] = { "pie", "nopie" };

	if (ret > 0)
		return cleanup(), test_skip("cc/binutils not installed");
	TEST_ASSERT_VAL("setup", !ret);
	/* stripped (distribution style): .dynsym has no _init, the PLT entries
	 * get their names; with a .symtab, the zero-size _init is sized up to
	 * the next symbol first and covers the PLT, as perf 6.1 shows it
	 * ("_init+0x30") */
	ret = sh("cd %s && cc -O1 -fPIE -pie -o pie prog.c && cc -O1 -fno-pie -no-pie -o nopie prog.c && "
		 "cp pie pie.full && strip -s pie nopie", tdir);
	TEST_ASSERT_VAL("compile", !ret);
	if (nm_addr("pie.full", "_init", false) &&
	    !capture(out, sizeof(out), "objdump -d %s/pie.full | awk '/<printf@plt>:$/{print $1; exit}'", tdir)) {
		struct symbol *s;

		dso = load("pie.full");
		s = dso__find_symbol(dso, strtoull(out, NULL, 16));
		TEST_ASSERT_STREQ("PLT under a zero-size _init", s ? s->name : NULL, "_init");
		dso__put(dso);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bins); i++) {
		const char *fns[] = { "printf", "strlen" };

		dso = load(bins[i]);
		TEST_ASSERT_VAL("dso", dso);
		for (size_t j = 0; j < ARRAY_SIZE(fns); j++) {
			char name[64];
			uint64_t addr;

			if (capture(out, sizeof(out),
				    "objdump -d %s/%s | awk '/<%s@plt>:$/{print $1; exit}'", tdir, bins[i], fns[j])) {
				dso__put(dso);
				cleanup();
				return test_skip("objdump shows no %s@plt", fns[j]);
			}
			addr = strtoull(out, NULL, 16);
			snprintf(name, sizeof(name), "%s@plt", fns[j]);
			if (check_sym(dso, addr, name)) {
				dso__put(dso);
				cleanup();
				return TEST_FAIL;
			}
		}
		dso__put(dso);
	}
	cleanup();
	return TEST_OK;
}

static int test__debug_file(void)
{
	int ret = setup();
	char hex[64], bidhex[256];
	struct dso *dso;
	struct machine *m;
	struct build_id bid;

	if (ret > 0)
		return cleanup(), test_skip("cc/binutils not installed");
	TEST_ASSERT_VAL("setup", !ret);
	ret = sh("cd %s && cc -O1 -g -fPIE -pie -o dl prog.c && objcopy --only-keep-debug dl dl.debug && "
		 "strip -s dl && objcopy --add-gnu-debuglink=dl.debug dl", tdir);
	TEST_ASSERT_VAL("compile", !ret);
	TEST_ASSERT_VAL("stripped has no static_func", nm_addr("dl", "static_func", false) == 0);
	/* .gnu_debuglink next to the file */
	dso = load("dl");
	TEST_ASSERT_VAL("leaf_func from dl.debug",
			!check_sym(dso, nm_addr("dl.debug", "leaf_func", false), "leaf_func"));
	TEST_ASSERT_VAL("static_func from dl.debug",
			!check_sym(dso, nm_addr("dl.debug", "static_func", false), "static_func"));
	TEST_ASSERT_VAL("symsrc is the debug file", dso->symsrc_path && strstr(dso->symsrc_path, "dl.debug"));
	dso__put(dso);

	/* in .debug/ */
	ret = sh("cd %s && mkdir -p .debug && mv dl.debug .debug/", tdir);
	TEST_ASSERT_VAL("mv", !ret);
	dso = load("dl");
	TEST_ASSERT_VAL("static_func from .debug/dl.debug",
			!check_sym(dso, nm_addr(".debug/dl.debug", "static_func", false), "static_func"));
	dso__put(dso);

	/* by build-id under --symfs: SYMFS/usr/lib/debug/.build-id/xx/rest.debug,
	 * the stripped file at SYMFS/<recorded path> without a debuglink */
	TEST_ASSERT_VAL("readelf", !capture(hex, sizeof(hex),
		"readelf -n %s/dl | awk '/Build ID:/{print $3; exit}'", tdir));
	ret = sh("cd %s && mkdir -p sfs/opt/app sfs/usr/lib/debug/.build-id/%.2s && "
		 "objcopy --remove-section=.gnu_debuglink dl sfs/opt/app/dl && "
		 "mv .debug/dl.debug sfs/usr/lib/debug/.build-id/%.2s/%s.debug", tdir, hex, hex, hex + 2);
	TEST_ASSERT_VAL("symfs layout", !ret);
	m = machine__new_host();
	TEST_ASSERT_VAL("machine", m);
	{
		char sfs[128];

		snprintf(sfs, sizeof(sfs), "%s/sfs", tdir);
		m->symfs = sfs;
		dso = machine__findnew_dso(m, "/opt/app/dl");
		TEST_ASSERT_VAL("dso", dso);
		TEST_ASSERT_VAL("load", !dso__load(dso));
		TEST_ASSERT_VAL("build-id read", !filename__read_build_id(dso->runtime_path, &bid));
		build_id__sprintf(&bid, bidhex);
		TEST_ASSERT_STREQ("build-id = readelf -n", bidhex, hex);
		TEST_ASSERT_VAL("dso build-id", dso->has_build_id);
		TEST_ASSERT_VAL("found by build-id",
				dso->symsrc_path && strstr(dso->symsrc_path, "/.build-id/"));
		snprintf(bidhex, sizeof(bidhex), "sfs/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		TEST_ASSERT_VAL("static_func via build-id",
				!check_sym(dso, nm_addr(bidhex, "static_func", false), "static_func"));
	}
	machine__delete(m);

	/* DWARF (debuginfo.c) looks under --symfs too, not at the host's
	 * /usr/lib/debug: with libc's debug file (when installed) linked into
	 * a symfs tree, that copy is the one used */
	{
		Dl_info info;
		char real[PATH_MAX], dbg[PATH_MAX], sfs[128];
		const char *used;
		void *libc_fopen = test_libc_func("fopen");

		if (libc_fopen && dladdr(libc_fopen, &info) && info.dli_fname &&
		    realpath(info.dli_fname, real) && !filename__read_build_id(real, &bid)) {
			build_id__sprintf(&bid, bidhex);
			snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", bidhex,
				 bidhex + 2);
			if (!access(dbg, R_OK)) {
				snprintf(sfs, sizeof(sfs), "%s/sfs-libc", tdir);
				ret = sh("mkdir -p %s$(dirname %s) %s/usr/lib/debug/.build-id/%.2s && "
					 "ln -s %s %s%s && ln -s %s %s%s", sfs, real, sfs, bidhex,
					 real, sfs, real, dbg, sfs, dbg);
				TEST_ASSERT_VAL("libc symfs layout", !ret);
				m = machine__new_host();
				TEST_ASSERT_VAL("machine", m);
				m->symfs = sfs;
				dso = machine__findnew_dso(m, real);
				TEST_ASSERT_VAL("libc dso", dso && !dso__load(dso));
				used = dso__debug_file(dso);
				pr_debug("libc DWARF from %s\n", used ? used : "(none)");
				TEST_ASSERT_VAL("libc DWARF from the symfs copy",
						used && !strncmp(used, sfs, strlen(sfs)));
				machine__delete(m);
			} else {
				pr_debug("no %s: symfs DWARF check skipped\n", dbg);
			}
		}
	}
	cleanup();
	return TEST_OK;
}

static int test__build_id(void)
{
	int ret = setup();
	char hex[64], got[64], path[256];
	struct build_id bid;
	struct dso *dso;

	if (ret > 0)
		return cleanup(), test_skip("cc/binutils not installed");
	TEST_ASSERT_VAL("setup", !ret);
	ret = sh("cd %s && cc -O1 -Wl,--build-id=sha1 -o b prog.c", tdir);
	TEST_ASSERT_VAL("compile", !ret);
	TEST_ASSERT_VAL("readelf", !capture(hex, sizeof(hex),
		"readelf -n %s/b | awk '/Build ID:/{print $3; exit}'", tdir));
	snprintf(path, sizeof(path), "%s/b", tdir);
	TEST_ASSERT_VAL("read", !filename__read_build_id(path, &bid));
	TEST_ASSERT_EQUAL("size", bid.size, 20);
	build_id__sprintf(&bid, got);
	TEST_ASSERT_STREQ("build-id", got, hex);
	TEST_ASSERT_VAL("no file", filename__read_build_id("/nonexistent/x", &bid) == -ENOENT);

	/* recorded build-id matching: symbols used */
	dso = dso__new(path);
	dso__set_build_id(dso, &bid);
	dso__load(dso);
	TEST_ASSERT_VAL("match: no mismatch", !dso->build_id_mismatch);
	TEST_ASSERT_VAL("match: symbols", dso__find_symbol(dso, nm_addr("b", "leaf_func", false)));
	dso__put(dso);

	/* recorded build-id differs from the file: detected, symbols not used */
	bid.data[0] ^= 0xff;
	dso = dso__new(path);
	dso__set_build_id(dso, &bid);
	dso__load(dso);
	TEST_ASSERT_VAL("mismatch flagged", dso->build_id_mismatch);
	TEST_ASSERT_VAL("mismatch: no symbols", dso->nr_symbols == 0);
	TEST_ASSERT_VAL("mismatch: lookup fails", !dso__find_symbol(dso, nm_addr("b", "leaf_func", false)));
	dso__put(dso);
	cleanup();
	return TEST_OK;
}

static int test__cxx_demangle(void)
{
	int ret = setup();
	FILE *f;
	char cmd[512], line[1024];
	struct dso *dso;
	int checked = 0;

	if (ret > 0)
		return cleanup(), test_skip("cc/binutils not installed");
	TEST_ASSERT_VAL("setup", !ret);
	if (sh("command -v c++ >/dev/null && command -v c++filt >/dev/null"))
		return cleanup(), test_skip("c++ or c++filt not installed");
	ret = sh("cd %s && c++ -O1 -g -o cxx cxx.cc", tdir);
	TEST_ASSERT_VAL("compile", !ret);
	dso = load("cxx");
	TEST_ASSERT_VAL("dso", dso);
	/* every mangled function symbol of ours: name = c++filt -p's (no
	 * parameter lists, as perf 6.1 shows them without -v) */
	snprintf(cmd, sizeof(cmd),
		 "nm --defined-only %s/cxx | awk '$2 ~ /^[TtWw]$/ && $3 ~ /5outer5inner/ {print $1, $3}' | "
		 "while read a s; do echo \"$a $(echo $s | c++filt -p)\"; done", tdir);
	f = popen(cmd, "r");
	TEST_ASSERT_VAL("popen", f);
	while (fgets(line, sizeof(line), f)) {
		char *name;
		uint64_t addr = strtoull(line, &name, 16);
		struct symbol *s;

		name++;
		name[strcspn(name, "\n")] = '\0';
		s = dso__find_symbol(dso, addr);
		if (!s || strcmp(s->name, name)) {
			pr_err("at %#llx: expected '%s', got '%s'\n", (unsigned long long)addr, name,
			       s ? s->name : "(none)");
			ret = TEST_FAIL;
		}
		checked++;
	}
	pclose(f);
	TEST_ASSERT_VAL("found C++ symbols", checked >= 3);
	{
		char *d = demangle_sym("_ZN5outer5inner3mixEid", true);

		TEST_ASSERT_STREQ("mix with params (c++filt)", d, "outer::inner::mix(int, double)");
		free(d);
		d = demangle_sym("_ZNK5outer5inner3BoxIlE5twiceEl", false);
		TEST_ASSERT_STREQ("no params (perf default)", d, "outer::inner::Box<long>::twice");
		free(d);
		TEST_ASSERT_VAL("C name untouched", demangle_sym("main", false) == NULL);
		d = demangle_sym("_ZN4core3fmt5write17h0123456789abcdefE", false);
		TEST_ASSERT_STREQ("rust legacy", d, "core::fmt::write");
		free(d);
	}
	dso__put(dso);
	cleanup();
	return ret;
}

/* The bucketed binary search agrees with a linear scan on random tables. */
static int test__index(void)
{
	unsigned int seed = 12345;

	for (int round = 0; round < 20; round++) {
		struct dso *dso = dso__new("/nonexistent/index-test");
		size_t n = 1 + (size_t)(rand_r(&seed) % (round < 10 ? 40 : 20000));
		uint64_t base = round & 1 ? 0xffff800000000000ULL : 0x1000, a = base;
		uint64_t last;

		TEST_ASSERT_VAL("dso", dso);
		dso->symbols_loaded = true;
		for (size_t i = 0; i < n; i++) {
			uint64_t len = (uint64_t)(rand_r(&seed) % 4) ? 1 + rand_r(&seed) % 300 : 0;

			if (rand_r(&seed) % 8 == 0)
				a += (uint64_t)(rand_r(&seed) % 1000000) * 64;	/* sparse gaps */
			TEST_ASSERT_VAL("add", !dso__add_symbol(dso, a, len, 1, 2, "s", false));
			a += rand_r(&seed) % 5 ? 1 + rand_r(&seed) % 400 : 0;	/* some aliases */
		}
		dso__symbols_finish(dso);
		last = dso->symbols[dso->nr_symbols - 1]->end + 10;
		for (int q = 0; q < 5000; q++) {
			uint64_t addr = base - 5 + (uint64_t)rand_r(&seed) % (last - base + 10);
			struct symbol *want = NULL;

			for (size_t i = 0; i < dso->nr_symbols; i++)
				if (dso->symbols[i]->start <= addr)
					want = dso->symbols[i];
			if (want && addr >= want->end)
				want = NULL;
			if (dso__find_symbol(dso, addr) != want) {
				pr_err("round %d n %zu: lookup of %#llx differs from a linear scan (want %p got %p)\n", round, dso->nr_symbols,
				       (unsigned long long)addr, (void *)want, (void *)dso__find_symbol(dso, addr));
				dso__put(dso);
				return TEST_FAIL;
			}
		}
		dso__put(dso);
	}
	return TEST_OK;
}

/* symbol__name_len() = strlen(name) for every length, also past what the
 * symbol keeps, and for a symbol set up without it; dso__long_name_len(). */
static int test__name_len(void)
{
	static const size_t lens[] = { 0, 1, 2, 15, 16, 253, 254, 255, 256, 300, 4000 };
	struct dso *dso = dso__new("/nonexistent/name-len-test");
	char *name = malloc(4001);
	struct symbol *bare;

	TEST_ASSERT_VAL("dso", dso && name);
	TEST_ASSERT_VAL("long_name_len", dso__long_name_len(dso) == strlen(dso->long_name));
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		memset(name, 'a' + (int)i, lens[i]);
		name[lens[i]] = '\0';
		TEST_ASSERT_VAL("add", !dso__add_symbol(dso, 0x1000 * (i + 1), 0x10, 1, 2, name, false));
		TEST_ASSERT_VAL("name_len", symbol__name_len(dso->symbols[i]) == lens[i]);
	}
	bare = calloc(1, sizeof(*bare) + 8);	/* as tests make symbols: no name_len */
	TEST_ASSERT_VAL("bare", bare);
	memcpy(bare->name, "abcdefg", 8);
	TEST_ASSERT_VAL("bare name_len", symbol__name_len(bare) == 7);
	free(bare);
	free(name);
	dso__put(dso);
	return TEST_OK;
}

DEFINE_SUITE(symbols, "ELF symbols, debug files, build-ids, demangling",
	TEST_CASE(elf_pie_nopie, "PIE and non-PIE executables: .symtab, text offset"),
	TEST_CASE(elf_shlib_stripped, "shared library, stripped .dynsym-only files"),
	TEST_CASE(elf_plt, "PLT entries name@plt at objdump's addresses (stripped), _init covers them otherwise"),
	TEST_CASE(debug_file, "separate debug file: .gnu_debuglink, .debug/, build-id + --symfs"),
	TEST_CASE(build_id, "build-id = readelf -n; mismatch detected, symbols not used"),
	TEST_CASE(cxx_demangle, "C++ names equal c++filt's; Rust legacy"),
	TEST_CASE(index, "bucketed symbol lookup = linear scan"),
	TEST_CASE(name_len, "symbol and DSO name lengths kept = strlen, long names counted"));
