#!/bin/bash
# DWARF stacks cut by the stack copy end in a [truncated] frame in prf script/report and are counted in the report header and --stats
#
# A -O2 -fomit-frame-pointer program recursing 100 levels deep with 256+
# byte frames is recorded by /usr/bin/perf --call-graph dwarf (8 KB stack
# copy): its samples in the leaf cannot reach main, so prf script must end
# those stacks in a "[truncated]" frame after the real frames (perf 6.1
# prints an unknown ffffffffffffffff frame there), prf report --stdio
# callchains must end in [truncated], and the header and --stats must say
# "# Truncated DWARF stacks: N of M samples (X%)" with N > 0. The same
# program recursing 2 levels deep must show no truncated stack (N = 0).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup trunc
dir=$T
cd "$dir" || exit 1

cat > deep.c <<'SRC'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) unsigned long spin(unsigned long x)
{
	for (int i = 0; i < 200000; i++)
		x = x * 6364136223846793005UL + 1;
	sink = x;
	return x;
}
__attribute__((noinline)) unsigned long rec(int d, unsigned long x)
{
	volatile char pad[256];

	pad[0] = (char)d;
	if (d == 0)
		return spin(x);
	unsigned long r = rec(d - 1, x + pad[0]);
	pad[1] = (char)r;
	return r + pad[1];
}
int main(int argc, char **argv)
{
	unsigned long s = 0;
	long n = argc > 1 ? atol(argv[1]) : 300;
	int depth = argc > 2 ? atoi(argv[2]) : 100;

	for (long i = 0; i < n; i++)
		s += rec(depth, (unsigned long)i);
	return (int)(s & 1);
}
SRC
cc -O2 -g -fomit-frame-pointer -o deep deep.c || fail "cc"
for d in 100 2; do
	"$PERF" record -q -e cpu-clock -c 100000 --call-graph dwarf -o deep$d.data ./deep 200 $d \
		>/dev/null 2>rec.err || { cat rec.err; echo "perf record --call-graph dwarf failed"; exit 2; }
done

# script: last frame of each sample that is in spin
lastframes() {
	awk '/^[^ \t]/ { if (inspin) print last; inspin = 0; next }
	     /^\t/ { if ($2 ~ /^spin\+/) inspin = 1; last = $0; next }
	     END { if (inspin) print last }'
}
prf_out deep100.script script -i deep100.data
lastframes < deep100.script > deep100.last
[ -s deep100.last ] || { cat deep100.script.err; fail "prf script shows no samples in spin"; }
total=$(wc -l < deep100.last)
trunc=$(grep -c '\[truncated\]' deep100.last)
[ "$trunc" -gt 0 ] || { sort deep100.last | uniq -c | head; fail "no spin sample ends in [truncated]"; }
# perf shows the same stacks ending in an unknown frame
ptrunc=$("$PERF" script -i deep100.data 2>/dev/null | lastframes | grep -c 'ffffffffffffffff \[unknown\]')
[ "$trunc" -eq "$ptrunc" ] || fail "prf marks $trunc spin samples truncated, perf shows $ptrunc ending in an unknown frame"
# the frame before the marker is a real rec frame
"$PRF" script -i deep100.data 2>/dev/null | grep -B1 '\[truncated\]' | grep -q ' rec+0x' ||
	fail "no real rec frame before the [truncated] marker"
echo "script: $trunc of $total spin samples end in [truncated] (perf: $ptrunc unknown)"

"$PRF" script -i deep2.data 2>/dev/null | grep -q '\[truncated\]' && fail "shallow recursion marked truncated"

hdr=$("$PRF" report -i deep100.data --stdio 2>&1 | grep '^# Truncated DWARF stacks:')
echo "$hdr" | grep -Eq '^# Truncated DWARF stacks: [1-9][0-9]* of [1-9][0-9]* samples \([0-9.]+%\)$' ||
	fail "report header: '$hdr'"
n=$(echo "$hdr" | awk '{print $5}')
[ "$n" -ge "$trunc" ] || fail "report counts $n truncated, script shows $trunc in spin alone"
st=$("$PRF" report -i deep100.data --stats 2>&1 | grep 'Truncated DWARF stacks:')
[ "$(echo "$st" | sed "s/^[# ]*//")" = "${hdr#\# }" ] || fail "--stats says '$st', header '$hdr'"
"$PRF" report -i deep100.data --stdio --no-children -S spin 2>/dev/null | grep -q '\[truncated\]' ||
	fail "report callchain of spin has no [truncated] frame"
hdr2=$("$PRF" report -i deep2.data --stdio 2>&1 | grep '^# Truncated DWARF stacks:')
echo "$hdr2" | grep -Eq '^# Truncated DWARF stacks: 0 of [1-9][0-9]* samples \(0.00%\)$' ||
	fail "shallow report header: '$hdr2'"
echo "report: '$hdr'; shallow: '$hdr2'; --stats agrees"
exit 0
