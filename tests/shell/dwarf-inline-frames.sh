#!/bin/bash
# Inlined frames and srclines on a perf --call-graph dwarf recording match perf script/report; --no-inline removes them
#
# A -O2 -fomit-frame-pointer program (main -> top -> mid -> leaf, noinline,
# with an always_inline function "mix" in leaf) recorded by /usr/bin/perf
# with --call-graph dwarf. For every sample, the frames of the program
# (its own DSO and "(inlined)" ones) printed by `prf script` must equal
# perf 6.1's, with and without -F +srcline (perf prints the srcline on its
# own line after each frame, "(inlined)" after it); `--no-inline` must drop
# the inlined frames as perf's does; `prf report --stdio --no-children`
# must show the same callchain (mix (inlined), leaf, mid, top, main) as
# perf report. libc frames are left out of the comparison: perf takes
# some of their names from addr2line's symbol-table aliases (e.g.
# __GI___libc_malloc), prf from the ELF symbol or DWARF function.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup inline
dir=$T
cd "$dir" || exit 1

cat > t.c <<'SRC'
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
__attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	unsigned long r = mix(x);
	sink = r;
	return r + 1;
}
__attribute__((noinline)) unsigned long mid(unsigned long x)
{
	unsigned long r = leaf(x) ^ 3;
	sink += r;
	return r;
}
__attribute__((noinline)) unsigned long top(unsigned long x)
{
	unsigned long r = mid(x) + 7;
	sink += r;
	return r;
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		s += top(i);
	return (int)(s & 1);
}
SRC
cc -O2 -g -fomit-frame-pointer -o prog t.c || fail "cc"
"$PERF" record -q -e cpu-clock -c 100000 --call-graph dwarf -o perf.data ./prog 20000 \
	>/dev/null 2>rec.err || { cat rec.err; echo "perf record --call-graph dwarf failed"; exit 2; }

# frames of the program, one line per sample in its call tree (sample order;
# samples outside main's tree, such as the exit path's, are left out)
frames() {
	awk -v bin="$dir/prog" '
	/^[^ \t]/ { if (s ~ / main\+/) print s; s = ""; next }
	/^\t/ {
		# an inlined frame: "(inlined)" ends its line, or its srcline
		# line with -F srcline (then the frame line has no "(dso)")
		keep = (index($0, "(" bin ")") ||
			((/\(inlined\)$/ || !/\(/) && $2 ~ /^(mix|leaf|mid|top|main)\+/))
		# source lines of the test functions only: crt code (_start,
		# PLT stubs named _init+off) has no line table, where perf and
		# prf differ (prf-report(1), "Source lines")
		fn = $2 ~ /^(mix|leaf|mid|top|main)\+/
		if (keep) { sub(/^\t */, ""); s = s "|" $0 }
		want = keep && fn; next
	}
	/^  / { if (want && srcl) s = s " @" substr($0, 3); next }
	END { if (s ~ / main\+/) print s }' srcl="$1"
}

"$PERF" script -i perf.data 2>/dev/null | frames 0 > perf.frames
prf_out prf.script script -i perf.data
frames 0 < prf.script > prf.frames
[ -s perf.frames ] || fail "perf script shows no frames of the program"
grep -q "mix+0x[0-9a-f]* (inlined)|[0-9a-f]* leaf+0x[0-9a-f]* ($dir/prog)" perf.frames ||
	{ echo "perf shows no inlined frame here"; exit 2; }
cmp -s perf.frames prf.frames || { diff perf.frames prf.frames | head -10; fail "prf script frames differ from perf script"; }
echo "script: $(wc -l < prf.frames) samples with program frames match perf"

"$PERF" script -i perf.data -F +srcline 2>/dev/null | frames 1 > perf.src
prf_out prf.script-src script -i perf.data -F +srcline
frames 1 < prf.script-src > prf.src
grep -q "mix+0x[0-9a-f]* @t.c:5 (inlined)|[0-9a-f]* leaf+0x[0-9a-f]* ($dir/prog) @t.c:11" prf.src ||
	{ head -3 prf.src; fail "prf script -F +srcline: no 'mix t.c:5 (inlined)' then 'leaf t.c:11'"; }
cmp -s perf.src prf.src || { diff perf.src prf.src | head -10; fail "prf script -F +srcline differs from perf"; }
echo "script -F +srcline: matches perf"

"$PERF" script -i perf.data --no-inline 2>/dev/null | frames 0 > perf.noinl
prf_out prf.script-noinl script -i perf.data --no-inline
frames 0 < prf.script-noinl > prf.noinl
grep -q "(inlined)" prf.noinl && fail "prf script --no-inline still shows inlined frames"
cmp -s perf.noinl prf.noinl || { diff perf.noinl prf.noinl | head -10; fail "prf script --no-inline differs from perf"; }
echo "script --no-inline: matches perf, no inlined frames"

# report: the callchain of the leaf entry (names of the program only)
chain() {
	awk '/\[\.\] leaf *$/ { f = 1; next } f && /^$/ { exit } f' |
		sed 's/^[ |]*//; s/^-*[0-9.]*%-*//; s/^---//' | grep -E '^(mix \(inlined\)|leaf|mid|top|main)$'
}
"$PERF" report -i perf.data --stdio --no-children --comm prog 2>/dev/null | chain > perf.chain
prf_out prf.report report -i perf.data --stdio --no-children --comm prog
chain < prf.report > prf.chain
grep -q "^mix (inlined)$" perf.chain || { echo "perf report shows no inlined frame"; exit 2; }
cmp -s perf.chain prf.chain || { diff perf.chain prf.chain; fail "prf report callchain differs from perf report"; }
prf_out prf.report-noinl report -i perf.data --stdio --no-children --comm prog --no-inline
chain < prf.report-noinl > prf.chain2
grep -q "inlined" prf.chain2 && fail "prf report --no-inline still shows inlined frames"
grep -q "^leaf$" prf.chain2 || fail "prf report --no-inline lost the chain"
echo "report: callchain matches perf (mix (inlined), leaf, mid, top, main); --no-inline removes it"
exit 0
