#!/bin/bash
# prf annotate TUI in tmux: the hottest instruction first, TAB cycles hot ones, s/o toggle source and addresses, ENTER on a call annotates the callee, q back and q exits 0 (tty restored); 'a' in prf report's browser annotates the entry
# Records main -> a -> b -> leaf (-O0 -g) with /usr/bin/perf and drives
# `prf annotate` (no --stdio: the TUI on a terminal, as perf) in a tmux
# pane of 100x30. The selected row (black on yellow) is read with its
# colours. The browser draws perf's layout; with annotate.use_offset=false
# (a configuration file of the test's) it names every instruction by its
# address, as --stdio does, which finds the rows here.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup annotate-tui
"$PERF" record -q -F 999 -o "$T/perf.data" -- "$T/tree" 300000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
prf_out stdio.txt annotate --stdio -i perf.data -d tree
head -1 stdio.txt | grep -q 'Disassembly of tree' || fail "--stdio: no listing of tree"
# the hottest instruction of the first (hottest) symbol, and where b calls leaf
hot=$(awk 'NR > 2 && /^ *[0-9.]+ : / { if ($1 + 0 > best) { best = $1 + 0; a = $3 } } /^ Percent/ && NR > 1 { exit } END { print a }' stdio.txt)
[ -n "$hot" ] || fail "no hot instruction in the --stdio listing"
printf '[annotate]\n\tuse_offset = false\n' > "$T/addr.cfg"

tui_start 100 30
send_line "clear; stty -a > stty.before; PERF_CONFIG=$T/addr.cfg \"$PRF\" annotate -i perf.data -d tree; echo EXIT=\$? > exit.txt; stty -a > stty.after"
wait_for '^Annotate ' 60 || fail "the browser did not start"
first=$(head -1 "$T/screen" | awk '{print $2}')
selected | grep -q "│ *$hot" || { selected; fail "not on the hottest instruction $hot"; }
echo "ok: $first starts on its hottest instruction $hot"

keys Tab
sel=$(selected)
echo "$sel" | grep -q "│ *$hot" && fail "TAB did not move from the hottest instruction"
echo "$sel" | grep -Eq '^ +[0-9.]+ ' || fail "TAB went to a line without samples: $sel"
keys BTab
selected | grep -q "│ *$hot" || fail "shift-TAB did not come back to $hot"
echo "ok: TAB, shift-TAB"

src=$(grep -c '^ *: [0-9]* .*for (unsigned long' stdio.txt)
[ "$src" -gt 0 ] || fail "no source line in --stdio"
grep -q 'for (unsigned long' "$T/screen" || fail "no source line on the screen"
keys s
grep -q 'for (unsigned long' "$T/screen" && fail "s: source lines still shown"
selected | grep -q "│ *$hot" || fail "s: the selection moved"
keys s
grep -q 'for (unsigned long' "$T/screen" || fail "s again: no source lines"
# o: offsets (on jump targets only, as perf), no addresses
keys o
selected | grep -q "│ *$hot" && { selected; fail "o: still the address $hot"; }
grep -Eq '│ *[0-9a-f]{1,3}: ' "$T/screen" || fail "o: no offsets"
keys o
selected | grep -q "│ *$hot" || { selected; fail "o again: no address $hot"; }
echo "ok: s, o"

# to b (RIGHT through the symbols), then ENTER on its call to leaf
n=0
while ! head -1 "$T/screen" | grep -q '^Annotate b '; do
	keys Right
	n=$((n + 1))
	[ $n -le 6 ] || fail "RIGHT never reached b"
done
# (its row in the listing: lines after the header's rule, from 0)
row=$(awk '/^ Percent/ { cnt = -1; inb = 0; next } { cnt++ } /<b>:$/ { inb = 1 } inb && /call .*<leaf>/ { print cnt - 1; exit }' stdio.txt)
[ -n "$row" ] || fail "no call to leaf in b's --stdio listing"
keys Home
downs=()
for ((i = 0; i < row; i++)); do downs+=(Down); done
keys "${downs[@]}"
selected | grep -q 'call .*<leaf>' || { selected; fail "not on b's call to leaf"; }
keys Enter
head -1 "$T/screen" | grep -q '^Annotate leaf ' || fail "ENTER on the call did not annotate leaf"
keys q
head -1 "$T/screen" | grep -q '^Annotate b ' || fail "q did not come back to b"
selected | grep -q 'call .*<leaf>' || fail "back in b, not on the call"
echo "ok: ENTER on a call annotates the callee, q comes back"

keys q
wait_for 'PRFTEST\$' 10 || fail "no shell prompt after q"
wait_file stty.after
[ "$(cat exit.txt 2>/dev/null)" = "EXIT=0" ] || fail "exit status: $(cat exit.txt 2>/dev/null)"
cmp -s stty.before stty.after || fail "tty settings changed"
echo "ok: q exits 0, tty restored"

# 'a' in prf report's browser: the selected (hottest) entry's symbol in
# the annotate browser, on its hottest instruction; q comes back to the
# report, q again exits 0
send_line "clear; PERF_CONFIG=$T/addr.cfg \"$PRF\" report -i perf.data --no-children -s sym; echo EXIT=\$? > exit2.txt"
wait_for 'Samples: ' 60 || fail "the report browser did not start"
keys a
wait_for '^Annotate ' 30 || fail "a: no annotate browser"
title=$(head -1 "$T/screen" | awk '{print $2}')
[ "$title" = "$first" ] || fail "a: annotates $title, not the hottest symbol $first"
selected | grep -q "│ *$hot" || { selected; fail "a: not on the hottest instruction $hot"; }
keys q
wait_for 'Samples: ' 10 || fail "q did not come back to the report"
keys q
wait_for 'PRFTEST\$' 10 || fail "no shell prompt after the report's q"
wait_file exit2.txt
[ "$(cat exit2.txt 2>/dev/null)" = "EXIT=0" ] || fail "report exit status: $(cat exit2.txt 2>/dev/null)"
echo "ok: a in prf report annotates the hottest entry's symbol ($title), q back, q exits 0"
