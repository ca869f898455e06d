#!/bin/bash
# prf top's browser in tmux: the hottest symbol on top with its share within a few points of prf report's, / filter, E expand, d/t zoom, f freeze, a annotate, refresh every -d, a resized terminal redrawn, q quits with status 0 and the tty restored
# prf-test: serial: keys are sent to the terminal and the screen read after fixed pauses, and shares are compared
# The program spends about 3/4 of its time in hot() (through mid()) and
# 1/4 in warm() for the wall time given. prf top -g -d 0.5 -- PROG runs
# in a tmux pane (a real terminal), which must show the report browser
# over the live entries; hot's share must be within 8 points of what prf
# report --stdio shows for a recording of the same program.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup top-tui
cc_prog hotwarm
"$PRF" record -q -o "$T/perf.data" -- "$T/hotwarm" 1.5 > /dev/null 2>&1 || fail "prf record"
"$PRF" report -i "$T/perf.data" --stdio --no-children -s dso,sym > "$T/rep.txt" 2>/dev/null || fail "prf report"
rep_hot=$(awk '$NF == "hot" && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' "$T/rep.txt")
[ -n "$rep_hot" ] || fail "no hot entry in prf report"
entry_re='^[-+ ] +[0-9]+\.[0-9]+% +[0-9]+\.[0-9]+%'

tui_start 120 30
wait_for 'PRFTEST\$' 10 || fail "no shell prompt in tmux"
send_line "cd $T; stty -a > stty.before; \"$PRF\" top -g -d 0.5 -- ./hotwarm 30; echo EXIT=\$? > exit.txt; stty -a > stty.after; clear"
wait_for "^Samples: .* of event '[^']+', 4000 Hz, Event count \(approx\.\): [0-9]+ lost: [0-9]+/[0-9]+ drop: 0/0" 20 ||
	fail "the browser did not start"
sed -n 2p "$T/screen" | grep -Eq '^  Children +Self +Shared Object +Symbol' || fail "column headers"
# a few refreshes, then the sample count in the title has grown
sleep 2
screen
s1=$(head -1 "$T/screen")
# hottest self entry: hot, its self share near prf report's
hot_line=$(grep -E "$entry_re"' +hotwarm +\[\.\] hot$' "$T/screen" | head -1)
[ -n "$hot_line" ] || fail "no hot entry"
top_hot=$(echo "$hot_line" | awk '{ sub("%", "", $3); print $3 }')
awk -v a="$top_hot" -v b="$rep_hot" 'BEGIN { d = a - b; exit !(d <= 8 && d >= -8) }' ||
	fail "hot self: top $top_hot% vs report $rep_hot%"
self_max=$(grep -E "$entry_re" "$T/screen" | awk '{ sub("%", "", $3); print $3 }' | sort -g | tail -1)
[ "$self_max" = "$top_hot" ] || fail "hot ($top_hot%) is not the hottest self entry ($self_max%)"
sleep 1
screen
[ "$(head -1 "$T/screen")" != "$s1" ] || fail "no refresh in 1 s at -d 0.5"
echo "ok: hot self $top_hot% (report $rep_hot%)"

# f: frozen, the screen stays; f again: refreshes go on
keys f
head -1 "$T/screen" | grep -q '\[frozen\]' || fail "f: title $(head -1 "$T/screen")"
frozen=$(cat "$T/screen")
sleep 1.2
screen
[ "$(cat "$T/screen")" = "$frozen" ] || fail "the frozen screen changed"
keys f

# E: every callchain expanded: mid under hot's chain
keys E
grep -Eq '^ +[-+ ]? *([0-9.]+% )?mid$' "$T/screen" || fail "E: no mid frame under an entry"
keys C
grep -Eq '^ +[-+ ]? *([0-9.]+% )?mid$' "$T/screen" && fail "C: frames still shown"

# / filter
keys /
wait_for 'Symbol to show' 5 || fail "/ did not open the filter prompt"
tmux -L "$SOCK" send-keys -t t -l "warm"
keys Enter
sleep 0.6
screen
grep -E "$entry_re" "$T/screen" > "$T/filtered"
[ -s "$T/filtered" ] || fail "filter warm: no entry"
grep -v 'warm$' "$T/filtered" && fail "filter left an entry without warm (after a refresh too)"
keys / BSpace BSpace BSpace BSpace Enter
grep -Eq "$entry_re"' +hotwarm +\[\.\] hot$' "$T/screen" || fail "/ + ENTER did not remove the filter"

# d: zoom into the selected entry's DSO (hot: hotwarm), and out
keys Home
row=$(grep -nE '\[\.\] hot$' "$T/screen" | head -1 | cut -d: -f1)
for ((i = 3; i < row; i++)); do tmux -L "$SOCK" send-keys -t t Down; done
keys d
head -1 "$T/screen" | grep -q ', DSO: hotwarm$' || fail "d: title $(head -1 "$T/screen")"
grep -q 'libc' "$T/screen" && fail "d: libc entries still shown"
keys d
head -1 "$T/screen" | grep -q 'DSO:' && fail "second d did not zoom out"
# t: zoom into the thread, ESC zooms out
keys t
head -1 "$T/screen" | grep -q ', Thread: hotwarm' || fail "t: title $(head -1 "$T/screen")"
keys Escape
head -1 "$T/screen" | grep -q 'Thread:' && fail "ESC did not zoom out of the thread"

# a: the selected entry (the first: hot, without children) annotated, q comes back
keys Home
row=$(grep -nE '\[\.\] hot$' "$T/screen" | head -1 | cut -d: -f1)
for ((i = 3; i < row; i++)); do tmux -L "$SOCK" send-keys -t t Down; done
keys a
head -1 "$T/screen" | grep -q '^Annotate hot  hotwarm  ' || fail "a: title $(head -1 "$T/screen")"
grep -Eq '^ +[0-9]+\.[0-9]+ +│ +[0-9a-f]+:' "$T/screen" || fail "a: no instruction with a share"
keys q
head -1 "$T/screen" | grep -q '^Samples: ' || fail "q did not return from annotate"

# a resized terminal is redrawn: the help line moves to the new last row
tmux -L "$SOCK" resize-window -t t -x 100 -y 20
sleep 1
screen
[ "$(wc -l < "$T/screen")" -eq 20 ] || fail "pane not resized"
sed -n 20p "$T/screen" | grep -q "Press '?' for help" || fail "no help line on row 20 after the resize"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/screen")" -le 100 ] ||
	fail "lines wider than the resized terminal"

# q: exit 0, terminal restored
keys q
wait_for 'PRFTEST\$' 10 || fail "no shell prompt after q"
sleep 0.5
[ "$(cat exit.txt 2>/dev/null)" = "EXIT=0" ] || fail "exit status: $(cat exit.txt 2>/dev/null)"
# the first line has the size, which the resize changed
cmp -s <(sed 1d stty.before) <(sed 1d stty.after) || { diff stty.before stty.after; fail "stty -a changed"; }
echo "ok: f, E/C, /, d, t, a, resize, q"
exit 0
