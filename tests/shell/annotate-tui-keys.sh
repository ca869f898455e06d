#!/bin/bash
# prf annotate TUI keys of perf's annotate browser, in tmux: h lists them, H goes to the hottest instruction, t circulates percent/period/samples, k line numbers (source lines), j the selected jump's line to its target, J jump-source counts, p/b percent type in the title, / ? n search, P prints SYMBOL.annotation as --stdio prints it
# Records main -> a -> b -> leaf (-O0 -g, tests/shell/lib/tui.sh) with
# /usr/bin/perf and drives `prf annotate -s leaf` in a tmux pane of
# 110x40: leaf's loop is one backward jump, whose target is the loop's
# first instruction. What each key changes is read from the screen (the
# selected row in black on yellow); P's file is compared with --stdio.
# The browser runs with annotate.use_offset=false (a configuration file of
# the test's): every instruction by its address, as in --stdio.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup annotate-tui-keys
"$PERF" record -q -F 999 -o "$T/perf.data" -- "$T/tree" 200000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
prf_out stdio.txt annotate --stdio -i perf.data leaf
prf_out stdio-n.txt annotate --stdio -n -i perf.data leaf
prf_out stdio-p.txt annotate --stdio --show-total-period -i perf.data leaf
hot=$(awk '/^ *[0-9.]+ : / { if ($1 + 0 > best) { best = $1 + 0; a = $3 } } END { print a }' stdio.txt)
[ -n "$hot" ] || fail "no hot instruction in the --stdio listing"
hot_n=$(awk -v a="$hot" '$3 == a { print $1 }' stdio-n.txt)
hot_p=$(awk -v a="$hot" '$3 == a { print $1 }' stdio-p.txt)
# the backward jump of leaf's loop (its last jump)
jmp=$(awk '/:   *[0-9a-f]+:   *j[a-z]+ +[0-9a-f]+ <leaf\+/ { j = $3 } END { print j }' stdio.txt)
[ -n "$jmp" ] || fail "no jump inside leaf"

printf '[annotate]\n\tuse_offset = false\n' > "$T/addr.cfg"
tui_start 110 40
send_line "clear; PERF_CONFIG=$T/addr.cfg \"$PRF\" annotate -i perf.data leaf; echo EXIT=\$? > exit.txt"
wait_for '^Annotate leaf' 60 || fail "the browser did not start"

keys h
for k in 'H  *Go to hottest' 'j  *Toggle showing jump' 'J  *Toggle showing number of jump sources' \
	 't  *Circulate percent' 'k  *Toggle line numbers' 'P  *Print to' 'p  *Toggle percent type' \
	 'b  *Toggle percent base' '/  *Search string' '\?  *Search string backwards' 'n  *Search next'; do
	grep -Eq "$k" "$T/screen" || fail "h: no '$k' in the help"
done
keys Escape
echo "ok: h lists perf's keys"

keys Home
selected | grep -q "│ *$hot" && fail "Home stayed on the hottest instruction"
keys H
selected | grep -q "│ *$hot" || { selected; fail "H: not on the hottest instruction $hot"; }
echo "ok: H goes to $hot"

keys t
selected | grep -Eq "^ *$hot_p │ *$hot" || { selected; fail "t: no period $hot_p on $hot"; }
keys t
selected | grep -Eq "^ *$hot_n │ *$hot" || { selected; fail "t: no sample count $hot_n on $hot"; }
keys t
selected | grep -Eq '^ *[0-9]+\.[0-9]{2} │' || { selected; fail "t: not back to percentages"; }
echo "ok: t circulates percent ($hot), period ($hot_p), samples ($hot_n)"

# k: perf's line numbers before the source lines
grep -Eq '│[0-9]+ +__attribute__' "$T/screen" && fail "line numbers before k"
keys k
grep -Eq '│[0-9]+ +__attribute__' "$T/screen" || fail "k: no line numbers on the source lines"
keys k
echo "ok: k toggles line numbers"

# J: with offsets (o), the number of jumps to each target before it
keys o J
grep -Eq '│ *1 [0-9a-f]+: ' "$T/screen" || fail "J: no jump-source count on the loop's target"
keys J o
grep -Eq '│ *1 [0-9a-f]+: ' "$T/screen" && fail "J again: still jump-source counts"
echo "ok: J jump sources"

head -1 "$T/screen" | grep -q 'percent: local period' || fail "title: not local period"
keys p
head -1 "$T/screen" | grep -q 'percent: global period' || fail "p: not global period"
keys b
head -1 "$T/screen" | grep -q 'percent: global hits' || fail "b: not global hits"
keys p b
head -1 "$T/screen" | grep -q 'percent: local period' || fail "p b: not back to local period"
echo "ok: p, b toggle the percent type"

# the text searched is the instruction's: leaf's jumps name "<leaf+"
first_jmp=$(awk '/:   *[0-9a-f]+:   *j[a-z]+ +[0-9a-f]+ <leaf\+/ { print $3; exit }' stdio.txt)
keys Home /
tmux -L "$SOCK" send-keys -t t -l "<leaf+"; keys Enter
selected | grep -q "│ *$first_jmp" || { selected; fail "/: not on the first jump $first_jmp"; }
keys n
selected | grep -q "│ *$jmp" || { selected; fail "n: not on the next jump $jmp"; }
keys End ?
keys Enter
selected | grep -q "│ *$jmp" || { selected; fail "?: not on the last jump $jmp"; }
echo "ok: / ? n search"

# j: on the selected backward jump, a line from it up to its target (as
# perf draws it); j hides it, the up arrow comes back
grep -q "│ *$jmp└──j" "$T/screen" || fail "no line from the selected jump $jmp"
grep -q '┌─→' "$T/screen" || fail "no arrow into the jump's target"
keys j
grep -Eq "│ *$jmp ↑ j[a-z]+ " "$T/screen" || fail "j: no up arrow on the jump at $jmp"
grep -q '┌─→' "$T/screen" && fail "j: the line is still drawn"
keys j
grep -q "│ *$jmp└──j" "$T/screen" || fail "j again: no line from the jump"
echo "ok: j toggles the selected jump's line"

rm -f leaf.annotation
keys P
[ -f leaf.annotation ] || fail "P: no leaf.annotation"
grep -q 'Printed to leaf.annotation' "$T/screen" || fail "P: no message"
keys Escape
cmp -s leaf.annotation stdio.txt || { diff leaf.annotation stdio.txt | head; fail "P: not the --stdio listing"; }
echo "ok: P prints leaf.annotation as --stdio"

keys q
wait_for 'PRFTEST\$' 10 || fail "no shell prompt after q"
wait_file exit.txt
[ "$(cat exit.txt 2>/dev/null)" = "EXIT=0" ] || fail "exit status: $(cat exit.txt 2>/dev/null)"
echo "ok: q exits 0"
exit 0
