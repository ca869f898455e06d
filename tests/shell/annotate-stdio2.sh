#!/bin/bash
# prf annotate --stdio2 prints what perf annotate --stdio2 prints: perf's browser layout as text (title, value column, jump-target offsets, arrows, jumps by offset, calls by name, RIP-relative operands by symbol, padding), with -n and --show-total-period, -O0 and -O2 code
#
# Two programs the test compiles: main -> a -> b -> leaf at -O0 (calls,
# forward and backward jumps, returns) and an -O2 loop around an inlined
# memset (SSE stores to a global, lea of a global, a conditional jump
# inside the loop), recorded by /usr/bin/perf. The --stdio2 listings of
# their symbols by name (no other code's disassembly involved) and of the
# whole program (-d) must equal perf 6.1's byte for byte.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/annotate.sh"
test_setup annotate-stdio2
cd "$T" || fail "cd $T"

cc_prog loops -g
cc_prog memfill -O2 -g
mv loops tree && mv memfill loop || fail "mv"
perf_record tree.data ./tree 60000000
perf_record loop.data ./loop

compare() {	# compare FILE WHAT OPTION...
	annotate_same --stdio2 "$@"
	echo "ok: $2: $(wc -l < prf.txt) lines"
}

for s in leaf b a; do
	compare tree.data "$s" $s
done
# the layout's marks are there: arrows, jump-target offsets, a call by name
grep -Eq '→ call +b +$' prf.txt || fail "no '→ call b' in a's listing"
grep -Eq '^ +[0-9a-f]+: +(mov|add|cmp)' prf.txt || fail "no jump-target offset in a's listing"
grep -q '↑ j' prf.txt || fail "no backward-jump arrow"
grep -q '← ret' prf.txt || fail "no return arrow"
compare tree.data "-n" -n b
compare tree.data "--show-total-period" --show-total-period b
compare tree.data "-d tree" -d tree
compare loop.data "-O2 fill" fill
grep -Eq 'mov[a-z]* +%xmm0,buf\+0x' prf.txt || fail "no RIP-relative store shown by symbol"
exit 0
