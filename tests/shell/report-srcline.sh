#!/bin/bash
# prf report --sort sym,srcline and script -F srcline resolve source lines in-process like perf (FP and DWARF recordings)
#
# A -O2 -g program with an always_inline loop in leaf, recorded by
# /usr/bin/perf with -g (frame pointers) and --call-graph dwarf. For the
# program's own entries, `prf report --stdio --no-children -s sym,srcline
# -g none` must list the same (symbol, file:line) rows with the same
# percentages as perf report; `prf script -F ip,sym,srcline` on the
# frame-pointer recording must print the same srcline after every frame
# of the program as perf script (FP callchains have no inline expansion in
# perf 6.1: the line of the innermost inlined code).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup srcline
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
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		s += mid(i);
	return (int)(s & 1);
}
SRC
cc -O2 -g -fno-omit-frame-pointer -o prog t.c || fail "cc"
"$PERF" record -q -e cpu-clock -c 100000 -g -o fp.data ./prog 20000 >/dev/null 2>rec.err ||
	{ cat rec.err; echo "perf record -g failed"; exit 2; }
"$PERF" record -q -e cpu-clock -c 100000 --call-graph dwarf -o dw.data ./prog 20000 >/dev/null 2>rec.err ||
	{ cat rec.err; echo "perf record --call-graph dwarf failed"; exit 2; }

rows() { grep -E '\[\.\] (leaf|mid|main) ' | awk '{print $1, $3, $4}' | sort; }
for f in fp dw; do
	"$PERF" report -i $f.data --stdio --no-children -s sym,srcline -g none --comm prog 2>/dev/null | rows > perf.$f
	prf_out report.$f report -i $f.data --stdio --no-children -s sym,srcline -g none --comm prog
	rows < report.$f > prf.$f
	grep -q ' t\.c:[0-9]' perf.$f || { echo "perf shows no srclines"; exit 2; }
	cmp -s perf.$f prf.$f || { cat report.$f.err; diff perf.$f prf.$f; fail "$f: report -s sym,srcline differs from perf"; }
	echo "$f: report -s sym,srcline: $(wc -l < prf.$f) rows match perf"
done

frames() {
	awk -v bin="$dir/prog" '/^[^ \t]/ { w = 0; next }
	/^\t/ { w = ($2 ~ /^(leaf|mid|main)$/); if (w) line = $2; next }
	/^  / { if (w) print line, substr($0, 3) }'
}
"$PERF" script -i fp.data -F ip,sym,srcline 2>/dev/null | frames > perf.src
prf_out script.fp script -i fp.data -F ip,sym,srcline
frames < script.fp > prf.src
[ -s perf.src ] || { echo "perf script -F srcline shows no frames of the program"; exit 2; }
cmp -s perf.src prf.src || { cat script.fp.err; diff perf.src prf.src | head; fail "script -F ip,sym,srcline differs from perf"; }
echo "fp: script -F ip,sym,srcline: $(wc -l < prf.src) program frames match perf"
exit 0
