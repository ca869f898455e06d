#!/bin/bash
# prf report TUI at 80x24: whole key help, H to the hottest entry, navigation keys, resize (SIGWINCH) redraws, SIGTERM/Ctrl-C restore the tty
# Records main -> a -> b -> leaf with /usr/bin/perf (-F 999 -g) and drives
# `prf report` in a tmux pane of 80x24, the smallest size the browser is
# made for:
#  - h shows the whole key help (21 lines, H and / included) with the
#    helpline still visible; any key closes it;
#  - H selects leaf, the entry with the most Self overhead; Down, End,
#    Home, PgDn move the selection (the black-on-yellow row);
#  - the pane resized to 80x14 while the help is open: the help scrolls
#    ("1-11/20" on its border, End shows the last line); resized to
#    100x30: the browser redraws with 100 columns and 27 list rows;
#  - Ctrl-C exits 0 and SIGTERM exits 143, both with `stty -a` unchanged
#    and the shell prompt back.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup tui-small
"$PERF" record -q -F 999 -g -o "$T/perf.data" -- "$T/tree" 300000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
# the entry with the most Self in --stdio
hot=$("$PRF" report -i perf.data --stdio -g none 2>/dev/null |
      awk '/^ +[0-9.]+% +[0-9.]+%/ { s = $2; sub("%", "", s); if (s + 0 > best) { best = s + 0; sym = $NF } } END { print sym }')
[ "$hot" = leaf ] || fail "the hottest Self entry of --stdio is '$hot', not leaf"

tui_start 80 24
# the selected row (black on yellow), without its colours
selected() {
	tmux -L "$SOCK" capture-pane -t t -p -e | grep $'\e\\[[0-9;]*43m' | head -1 | sed 's/\x1b\[[0-9;]*m//g'
}
start_tui() {
	rm -f pid exit.txt stty.after
	send_line "clear; stty -a > stty.before; sh -c 'echo \$\$ > pid; exec \"$PRF\" report -i perf.data'; echo EXIT=\$? > exit.txt; stty -a > stty.after; clear"
	wait_for '^Samples: ' 60 || fail "the browser did not start"
}
# $1: the exit status wanted
check_restored() {
	wait_for 'PRFTEST\$' 10 || fail "no shell prompt after the browser"
	wait_file stty.after
	[ "$(cat exit.txt 2>/dev/null)" = "EXIT=$1" ] || fail "exit status: $(cat exit.txt 2>/dev/null), wanted $1"
	# the window size is the pane's (resized here), the rest must be equal
	sed -i 's/rows [0-9]*; columns [0-9]*;//' stty.before stty.after
	cmp -s stty.before stty.after || { diff stty.before stty.after; fail "stty -a changed"; }
	grep -q '^Samples: ' "$T/screen" && fail "the browser is still on the screen"
	return 0
}

wait_for 'PRFTEST\$' 10 || fail "no shell prompt in tmux"
start_tui
[ "$(tail -1 "$T/screen")" = "Press '?' for help on key bindings" ] || fail "helpline at 80x24"
sed -n 2p "$T/screen" | grep -Eq '^  Children +Self +Command +Shared Object +Symbol' || fail "column headers at 80x24"
first=$(selected)
echo "$first" | grep -q '^[-+ ]  *[0-9.]*%' || fail "no selected first row: '$first'"

# ---- h: the whole help in the 80x24 box, the helpline below it ----
keys h
for l in 'h/?/F1        Show this window' 'HOME/END      First/last entry' \
	 'H             Go to the hottest entry' 'P             Print histograms to perf.hist.N' \
	 '/             Filter symbol by name'; do
	grep -qF "$l" "$T/screen" || fail "help at 80x24 lacks '$l'"
done
grep -q '┘\|+-----' "$T/screen" || grep -q 'mq' "$T/screen" || fail "no bottom border on the help box"
[ "$(tail -1 "$T/screen")" = "Press any key..." ] || fail "help helpline: $(tail -1 "$T/screen")"
keys x
grep -q 'Show this window' "$T/screen" && fail "a key did not close the help"

# ---- H and the navigation keys ----
keys H
selected | grep -q '\[\.\] leaf *$' || fail "H selected '$(selected)', not leaf"
keys Home
[ "$(selected)" = "$first" ] || fail "Home selected '$(selected)'"
keys Down
second=$(sed -n 4p "$T/screen")
[ "$(selected)" = "$second" ] || fail "Down selected '$(selected)', not the second row"
keys End
last=$(selected)
[ -n "$last" ] && [ "$last" != "$first" ] || fail "End did not move the selection"
keys Home NPage
[ "$(selected)" != "$first" ] || fail "PgDn did not move the selection"
keys Home

# ---- resize (SIGWINCH) with the help open: it scrolls at 80x14 ----
keys '?'
resize_pane 80 14
grep -q ' 1-11/21 ' "$T/screen" || fail "help at 80x14: no '1-11/21' scroll position"
grep -qF 'Filter symbol by name' "$T/screen" && fail "help at 80x14 shows its last line already"
keys End
grep -q ' 11-21/21 ' "$T/screen" || fail "help End: no '11-21/21'"
grep -qF '/             Filter symbol by name' "$T/screen" || fail "help End: last line not shown"
keys Escape
grep -q 'Filter symbol by name' "$T/screen" && fail "ESC did not close the scrolled help"

# ---- resize to 100x30: the browser redraws to the new size ----
resize_pane 100 30
[ "$(wc -l < "$T/screen")" -eq 30 ] || fail "pane is not 30 rows"
head -1 "$T/screen" | grep -q '^Samples: ' || fail "title not on row 1 after resize"
[ "$(tail -1 "$T/screen")" = "Press '?' for help on key bindings" ] || fail "helpline not on row 30 after resize"
nrows=$(grep -Ec '^[-+ ]  +[0-9]+\.[0-9]+%' "$T/screen")
nall=$("$PRF" report -i perf.data --stdio -g none 2>/dev/null | grep -Ec '^ +[0-9]+\.[0-9]+%')
want=$((nall < 27 ? nall : 27))
[ "$nrows" -eq "$want" ] || fail "after resize: $nrows entry rows, wanted $want"
# rows wider than 80 columns when the entries are
widest=$("$PRF" report -i perf.data --stdio -g none 2>/dev/null | grep -E '^ +[0-9]+\.[0-9]+%' | head -27 |
	 awk '{ sub(/ +$/, ""); if (length($0) > w) w = length($0) } END { print w + 0 }')
if [ "$widest" -gt 80 ]; then
	awk '{ if (length($0) > 80) n++ } END { exit !n }' "$T/screen" ||
		fail "after resize to 100 columns no row is wider than 80"
fi

# ---- Ctrl-C exits 0, terminal restored ----
keys C-c
check_restored 0

# ---- SIGTERM: exit by the signal, terminal restored ----
start_tui
keys E
[ -s pid ] || fail "no pid of the browser"
kill -TERM "$(cat pid)"
check_restored 143
exit 0
