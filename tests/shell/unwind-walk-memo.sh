#!/bin/bash
# DWARF walks that read the same registers and stack words are taken from the walk memo: stacks that differ only far up (same pc and stack pointer at the sample) stay apart, output equals PRF_NO_WALK_MEMO=1's and perf script's
#
# The program (-O2 -fomit-frame-pointer, no sibling calls) runs leaf()
# under mid() under either top_a() or top_b(), the two built to the same
# frame size, in turns: so samples in leaf() have the same pc and stack
# pointer whichever top function called, and only the return address two
# frames up tells them apart. leaf() saves the callee-saved registers,
# which hold main()'s round counter and sum, new at nearly every sample
# (a round takes about a tenth of the sampling period): a walk loads them
# but never uses them, and the memo must not require them to repeat (it
# would then miss most walks).
# Checked, on a Linux perf --call-graph dwarf recording:
#  - the memo answers most walks (-v counts), so the rest tests it;
#  - script (default, -F +srcline) and report output is byte-identical
#    with PRF_NO_WALK_MEMO=1;
#  - per sample, the program's frames equal perf script's, and both
#    top_a and top_b stacks through leaf are there.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup walk-memo

cat > "$T/w.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	unsigned long v[14] = { 1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41 };

	for (unsigned long i = 0; i < n; i++) {
#pragma GCC unroll 14
		for (int k = 0; k < 14; k++)
			v[k] = v[k] * (2 * k + 3) + (v[(k + 1) % 14] >> 3) + i;
		sink = v[0] ^ v[13];
	}
	unsigned long s = 0;
	for (int k = 0; k < 14; k++)
		s += v[k];
	return s;
}
__attribute__((noinline)) unsigned long mid(unsigned long n) { return leaf(n) + 1; }
__attribute__((noinline)) unsigned long top_a(unsigned long n) { return mid(n) * 3; }
__attribute__((noinline)) unsigned long top_b(unsigned long n) { return mid(n) * 5; }
int main(int argc, char **argv)
{
	unsigned long s = 0, rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 400;

	for (unsigned long r = 0; r < rounds; r++)
		s += (r & 1) ? top_b(20000) : top_a(20000);
	return s == 42;
}
C
cc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o "$T/w" "$T/w.c" || fail "cc w.c"
perf_record "$T/perf.data" -e cpu-clock -F 2000 --call-graph dwarf,4096 -- "$T/w" 4000

# the memo answers most walks
most_hits "walk memo"

for opts in "script" "script -F +srcline" "report --stdio --no-children" \
	    "report --stdio --children"; do
	# shellcheck disable=SC2086
	same_output PRF_NO_WALK_MEMO=1 $opts
done

# per sample, the program's frames as perf unwinds them
frames() { # script output -> per sample, the program's symbols, one line
	awk '/^[^ \t]/ { if (s != "") print s; s = "#" }
		/^\t/ && /\(.*\/w\)$/ { l = $0; sub(/^\t *[0-9a-f]+ /, "", l)
			sub(/\+0x[0-9a-f]+.*/, "", l); s = s ";" l }
		END { if (s != "") print s }'
}
"$PERF" script -i "$T/perf.data" 2>/dev/null | frames > "$T/perf.frames"
"$PRF" script -i "$T/perf.data" 2>/dev/null | frames > "$T/prf.frames"
for top in top_a top_b; do
	grep -q "^#;leaf;mid;$top;main" "$T/perf.frames" ||
		{ sort "$T/perf.frames" | uniq -c | sort -rn | head; echo "perf shows no leaf under $top"; exit 2; }
done
cmp -s "$T/perf.frames" "$T/prf.frames" ||
	{ diff "$T/perf.frames" "$T/prf.frames" | head -20; fail "frames differ from perf script's"; }
echo "ok: $(wc -l < "$T/prf.frames") samples' program frames equal perf script's" \
	"($(grep -c ';leaf;mid;top_a;' "$T/prf.frames") under top_a," \
	"$(grep -c ';leaf;mid;top_b;' "$T/prf.frames") under top_b)"
exit 0
