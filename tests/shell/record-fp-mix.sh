#!/bin/bash
# prf record --call-graph dwarf,1024 --fp-mix: truncated DWARF stacks are completed from the kernel's frame-pointer chain
#
# A -fno-omit-frame-pointer program recursing 60 levels deep is recorded by
# prf twice with a 1 KB user stack copy: with --fp-mix (the kernel's user
# FP chain kept: PERF_SAMPLE_CALLCHAIN has a PERF_CONTEXT_USER part) and
# without. In prf script, samples in the leaf (spin) must show all the
# recursion frames (60+) and main with --fp-mix, without a [truncated]
# frame; without --fp-mix the same samples must have fewer recursion frames
# and end in [truncated]. The report header's truncated count must drop.
# Also: --fp-mix without --call-graph dwarf is refused; and a DWARF walk
# and FP chain that disagree (the FP chain is not consulted when the frame
# at the cut does not match) is covered by the C unit test "unwind".
set -u
[ -x "$PRF" ] || { echo "no prf binary"; exit 2; }
command -v cc >/dev/null || { echo "no cc"; exit 2; }
dir=$(mktemp -d /tmp/prf-fpmix.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

cat > deep.c <<'SRC'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(void)
{
	for (unsigned long i = 0; i < 150000000UL; i++)
		sink += i;
}
__attribute__((noinline)) int recurse(int n)
{
	volatile char pad[48];

	pad[0] = (char)n;
	if (n == 0)
		spin();
	else
		recurse(n - 1);
	return pad[0];
}
int main(int argc, char **argv)
{
	return recurse(argc > 1 ? atoi(argv[1]) : 60) & 1;
}
SRC
cc -O1 -g -fno-omit-frame-pointer -o deep deep.c || { echo "cc failed"; exit 2; }

"$PRF" record -q -F 499 --call-graph dwarf,1024 --fp-mix -o mix.data ./deep 60 2>err.txt ||
	{ cat err.txt; fail "prf record --fp-mix failed"; }
"$PRF" record -q -F 499 --call-graph dwarf,1024 -o nomix.data ./deep 60 2>err.txt ||
	{ cat err.txt; fail "prf record failed"; }
if "$PRF" record -q --call-graph fp --fp-mix -o bad.data true 2>err.txt; then
	fail "--fp-mix without dwarf was accepted"
fi
grep -q "fp-mix" err.txt || fail "no message naming --fp-mix: $(cat err.txt)"

# per leaf sample: "<recurse frames> <main seen> <truncated seen>"
leaf_stats() {
	"$PRF" script -i "$1" -F ip,sym 2>/dev/null | awk '
		/^$/ { if (leaf) print nrec, m, t; leaf = 0; first = 1; next }
		{
			if (first && $0 ~ /spin/) { leaf = 1; nrec = 0; m = 0; t = 0 }
			first = 0
			if ($0 ~ / recurse/) nrec++
			if ($0 ~ / main/) m = 1
			if ($0 ~ /\[truncated\]/) t = 1
		}
		BEGIN { first = 1 }
		END { if (leaf) print nrec, m, t }'
}
leaf_stats mix.data > mix.txt
leaf_stats nomix.data > nomix.txt
nmix=$(wc -l < mix.txt)
nnomix=$(wc -l < nomix.txt)
[ "$nmix" -ge 20 ] || fail "only $nmix leaf samples with --fp-mix"
[ "$nnomix" -ge 20 ] || fail "only $nnomix leaf samples without --fp-mix"
# with mixing: (nearly) every leaf sample complete
full=$(awk '$1 >= 60 && $2 == 1 && $3 == 0' mix.txt | wc -l)
[ "$full" -ge $((nmix * 9 / 10)) ] ||
	{ head -5 mix.txt; fail "--fp-mix: only $full of $nmix leaf stacks complete (60+ recurse frames + main, no [truncated])"; }
# without: cut and marked
cut=$(awk '$1 < 60 && $2 == 0 && $3 == 1' nomix.txt | wc -l)
[ "$cut" -ge $((nnomix * 9 / 10)) ] ||
	{ head -5 nomix.txt; fail "no --fp-mix: only $cut of $nnomix leaf stacks truncated"; }
maxcut=$(awk 'BEGIN { m = 0 } $1 > m { m = $1 } END { print m }' nomix.txt)
echo "leaf samples: --fp-mix $full/$nmix complete; without: $cut/$nnomix truncated (at most $maxcut recurse frames)"

# the report header counts fewer truncated stacks
tr_count() { "$PRF" report -i "$1" --stdio 2>/dev/null | sed -n 's/^# Truncated DWARF stacks: \([0-9]*\) of.*/\1/p'; }
a=$(tr_count mix.data); b=$(tr_count nomix.data)
[ -n "$b" ] && [ "$b" -gt 0 ] || fail "no truncated count in the report header without --fp-mix ('$b')"
[ "${a:-0}" -lt "$b" ] || fail "report: $a truncated with --fp-mix, $b without"
echo "report: truncated stacks $a with --fp-mix, $b without"
exit 0
