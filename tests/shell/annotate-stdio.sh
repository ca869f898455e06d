#!/bin/bash
# prf annotate --stdio prints what perf annotate --stdio prints: headers, per-instruction percentages by address, source interleaving (-O0, -O2 with inlining, PIE, non-PIE, a shared library; perf's and prf's recordings)
#
# A program whose hot loop calls an inlined helper and a function of a
# shared library, built -O0 -g, -O2 -g (PIE) and -O2 -g -no-pie, recorded
# by /usr/bin/perf and by prf record. For the program's and the library's
# symbols (-d), tests/shell/lib/annotate-compare.py checks prf annotate
# --stdio against perf annotate --stdio on the same file: every header
# and rule exactly, the same instruction addresses with the same percent
# column, the instruction text after normalising what Capstone and
# objdump legitimately spell differently, and the source, function and
# line-number lines. Then options (-n, --percent-type, --no-source,
# -s/SYMBOL, -P, -l, --asm-raw, -M intel), an unknown symbol, a missing binary and a
# missing source file.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/annotate.sh"
test_setup annotate-stdio
cd "$T" || fail "cd $T"
cmp_py=$PRF_SRCDIR/tests/shell/lib/annotate-compare.py

cat > lib.c <<'SRC'
__attribute__((noinline)) long lib_mix(long x)
{
	long r = x;
	for (int i = 0; i < 40; i++)
		r = r * 31 + (r >> 7);
	return r;
}
SRC
cat > t.c <<'SRC'
#include <stdlib.h>
long lib_mix(long x);
static inline int sq(int x)
{
	return x * x + 1;
}
__attribute__((noinline)) long work(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		if (i & 1)
			s += sq(i);
		else
			s -= i / 3;
	}
	return s;
}
int main(int argc, char **argv)
{
	long t = 0, n = argc > 1 ? atol(argv[1]) : 400;
	for (int k = 0; k < n; k++) {
		t += work(200000 + k);
		t += lib_mix(t);
	}
	return t == 42;
}
SRC
cc -O2 -g -shared -fPIC -o libt.so lib.c || fail "cc lib.c"
cc -O0 -g -o o0 t.c -L. -lt -Wl,-rpath,"$T" &&
	cc -O2 -g -o o2 t.c -L. -lt -Wl,-rpath,"$T" &&
	cc -O2 -g -no-pie -o nopie t.c -L. -lt -Wl,-rpath,"$T" || fail "cc t.c"

compare() {	# compare FILE WHAT OPTION...
	local what=$2
	annotate_both --stdio "$@"
	python3 "$cmp_py" perf.txt prf.txt > cmp.out || { cat cmp.out; fail "$what: differs from perf annotate"; }
	echo "ok: $what: $(tail -1 cmp.out)"
}

for p in o0 o2 nopie; do
	perf_record perf-$p.data -e cpu-clock ./$p
	"$PRF" record -q -e cpu-clock -o prf-$p.data ./$p >/dev/null 2>rec.err || { cat rec.err; fail "prf record ./$p"; }
	for rec in perf prf; do
		compare $rec-$p.data "$p ($rec record)" -d $p,libt.so
	done
done
# the hot loop of -O2 is in work, with sq inlined: perf shows "sq():"
grep -q '^ *: [0-9]* *sq():$' prf.txt || fail "no inlined sq() lines in the -O2 listing"

# a non-PIE program's PLT: its samples go to _init, whose range runs over
# the padding before .plt; objdump starts again at .plt with its section
# line and "<lib_mix@plt-0x10>"/"<lib_mix@plt>" labels
cat > plt.c <<'SRC'
long lib_mix(long x);
int main(void)
{
	long t = 0;
	for (long i = 0; i < 20000000; i++)
		t += lib_mix(0);
	return t == 42;
}
SRC
cat > lib0.c <<'SRC'
long lib_mix(long x) { return x; }
SRC
cc -O2 -shared -fPIC -o libz.so lib0.c && cc -O2 -g -no-pie -o plt plt.c -L. -lz -Wl,-rpath,"$T" ||
	fail "cc plt.c"
perf_record perf-plt.data -e cpu-clock -F 20000 ./plt
compare perf-plt.data "non-PIE PLT" -d plt _init
grep -q 'Disassembly of section .plt:' prf.txt || fail "non-PIE PLT: no .plt section line"
grep -q '<lib_mix@plt>:' prf.txt || fail "non-PIE PLT: no lib_mix@plt label"
# a library's _init, run by every dlopen, runs on over .plt (no symbol of
# its own: objdump labels it "<.plt>") and .plt.got; -d libz.so lists
# every sampled symbol of the library, _fini (up to its file's end) too
cat > dl.c <<SRC
#include <dlfcn.h>
int main(void)
{
	for (int i = 0; i < 10000; i++) {
		void *h = dlopen("$T/libz.so", RTLD_NOW);

		if (h)
			dlclose(h);
	}
	return 0;
}
SRC
cc -O1 -o dl dl.c -ldl || fail "cc dl.c"
perf_record perf-dl.data -e cpu-clock -F 20000 ./dl
compare perf-dl.data "a library's _init" -d libz.so
grep -q 'Disassembly of section .plt.got:' prf.txt || fail "a library's _init: no .plt.got section line"

f=perf-o2.data
compare $f "-n" -d o2 -n
compare $f "--show-total-period" -d o2 --show-total-period
compare $f "--percent-type global-period" -d o2 --percent-type global-period
compare $f "--percent-type local-hits" -d o2 --percent-type local-hits
compare $f "--no-source" -d o2 --no-source
compare $f "-s work" -s work
compare $f "SYMBOL" work
compare $f "-P" -d o2 -P
compare $f "-l" -d o2 -l
compare $f "--asm-raw" -d o2 --asm-raw
compare perf-o0.data "-l (-O0)" -d o0 -l
grep -q 'Sorted summary for file .*/o0' prf.txt || fail "-l: no summary"
# -l on code without line information: addr2line's answer from the symbol
# table, as perf shows it: "nd.c:0" in a local function of a file built
# without -g, "??:0" in a global one
cat > nd.c <<'SRC'
volatile long nd_sink;
static __attribute__((noinline)) void nd_local(long n) { for (long i = 0; i < n; i++) nd_sink += i; }
__attribute__((noinline)) void nd_global(long n) { nd_local(n); for (long i = 0; i < n; i++) nd_sink -= i; }
SRC
printf 'void nd_global(long);\nint main(void) { nd_global(30000000); return 0; }\n' > ndm.c
cc -O0 -c nd.c && cc -O0 -g -c ndm.c && cc -o nd ndm.o nd.o || fail "cc nd"
perf_record nd.data ./nd
compare nd.data "-l (local function without debug info)" -l nd_local
grep -Eq '^ +[0-9.]+ nd\.c:0$' prf.txt || fail "-l: no nd.c:0 line"
compare nd.data "-l (global function without debug info)" -l nd_global
grep -Eq '^ +[0-9.]+ \?\?:0$' prf.txt || fail "-l: no ??:0 line"

# Intel syntax: Capstone's own spelling (not compared)
prf_out intel.txt annotate --stdio -i $f -M intel work
grep -Eq ':   *[0-9a-f]+: +(mov|add|imul|cmp) +[a-z]+[0-9a-z]*,' intel.txt ||
	{ head -30 intel.txt; fail "-M intel: no Intel-syntax instruction"; }
grep -q '%' intel.txt && fail "-M intel: AT&T registers in the listing"
echo "ok: -M intel"

# bad input: a usage error, an unknown symbol, a binary gone
"$PRF" annotate --stdio -i $f --percent-type nosuch > /dev/null 2> bad.err
rc=$?
[ $rc -eq 129 ] || fail "--percent-type nosuch: exit $rc, not 129"
grep -q 'percent-type' bad.err || fail "--percent-type nosuch: no message"
"$PRF" annotate --stdio -i $f no_such_symbol > none.out 2> none.err
rc=$?
[ $rc -eq 1 ] && grep -q 'no samples in symbol no_such_symbol' none.err && [ ! -s none.out ] ||
	{ cat none.err; fail "unknown symbol: exit $rc"; }
# (a binary of its own build-id, kept in no build-id cache: -N)
cc -O1 -g -o gone t.c -L. -lt -Wl,-rpath,"$T" || fail "cc gone"
perf_record gone.data -N -e cpu-clock ./gone
rm gone
"$PRF" annotate --stdio -i gone.data -d gone,libt.so > gone.out 2> gone.err
rc=$?
[ $rc -eq 0 ] || { cat gone.err; fail "missing binary: exit $rc"; }
grep -q 'samples* in .*/gone with no symbol: no file for it' gone.err ||
	{ cat gone.err; "$PERF" report -i gone.data --stdio --sort dso 2>&1 | grep -v '^#' | head;
	  fail "missing binary: no message"; }
echo "ok: bad option, unknown symbol, missing binary"

# the source file gone: the listing without its lines, as perf's
mv t.c t.c.gone
compare $f "no source file" -d o2
grep -q 'return x \* x + 1' prf.txt && fail "source lines shown without the source file"
mv t.c.gone t.c

# a kernel symbol: without vmlinux, the running kernel's code from
# /proc/kcore when the recording is of this kernel and kcore is readable
# (beyond perf); else perf's "No vmlinux file" message, word for word
perf_record k.data -e cpu-clock -F 999 -- dd if=/dev/zero of=/dev/null bs=1M count=1500
ksym=$("$PERF" report -i k.data --stdio --no-children 2>/dev/null | awk '/\[k\]/ { print $NF; exit }')
if [ -n "$ksym" ]; then
	"$PRF" annotate -i k.data --stdio "$ksym" > k.out 2> k.err
	rc=$?
	if [ -r /proc/kcore ] && [ "$("$PERF" buildid-list -i k.data 2>/dev/null | awk '/kernel.kallsyms/ { print $1 }')" = "$("$PERF" buildid-list -k 2>/dev/null)" ]; then
		[ $rc -eq 0 ] && grep -qE '^ +[0-9.]+ : +ffffffff[0-9a-f]+:' k.out ||
			{ head -5 k.out k.err; fail "kernel symbol $ksym: no listing from /proc/kcore"; }
		echo "ok: $ksym disassembled from /proc/kcore"
	else
		"$PERF" annotate -i k.data --stdio "$ksym" 2>&1 >/dev/null | sed 's/perf buildid-cache/prf buildid-cache/' > k.want
		[ $rc -eq 1 ] || fail "kernel symbol without vmlinux or kcore: exit $rc, not 1"
		cmp -s k.want k.err || { diff k.want k.err; fail "kernel symbol: not perf's message"; }
		echo "ok: $ksym without vmlinux or /proc/kcore: perf's message, exit 1"
	fi
fi
