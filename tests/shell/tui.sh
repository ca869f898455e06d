#!/bin/bash
# prf report TUI in tmux: first screen matches --stdio, E/+/filter/zoom keys, P dump vs perf's, q restores the tty, progress
# prf-test: serial: keys are sent to the terminal and the screen read after fixed pauses
# Records main -> a -> b -> leaf with /usr/bin/perf (-F 999 -g), then drives
# `prf report` inside a tmux pane (a real terminal): the first screen shows
# the same entry lines as `prf report --stdio`; E expands every callchain
# (leaf's chain shows a and b), P writes the view to perf.hist.N and the
# expanded leaf/b/a/main blocks equal Linux perf's own perf.hist.N dump;
# / filters by symbol; d and t zoom into the DSO/thread and out again;
# q exits 0 with `stty -a` unchanged and the shell prompt back. Without a
# terminal on stdout `prf report` prints what --stdio prints, and the
# progress bar goes to stderr only when stderr is a terminal.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup tui
"$PERF" record -q -F 999 -g -o "$T/perf.data" -- "$T/tree" 300000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }

"$PRF" report -i "$T/perf.data" --stdio > "$T/stdio.txt" 2>"$T/stdio.err" || fail "prf report --stdio"
grep -q '\[\.\] leaf' "$T/stdio.txt" || fail "no leaf entry in --stdio output"

# ---- not a terminal: same as --stdio, no progress on a redirected stderr ----
"$PRF" report -i "$T/perf.data" > "$T/plain.txt" 2>"$T/plain.err" || fail "prf report > file"
cmp -s "$T/stdio.txt" "$T/plain.txt" || { diff "$T/stdio.txt" "$T/plain.txt" | head; fail "prf report > file differs from --stdio"; }
[ -s "$T/stdio.err" ] && { cat "$T/stdio.err"; fail "--stdio with stderr to a file wrote to stderr"; }

# ---- the TUI in tmux ----
tui_start 120 40

wait_for 'PRFTEST\$' 10 || fail "no shell prompt in tmux"
send_line "cd $T; stty -a > stty.before; \"$PRF\" report -i perf.data; echo EXIT=\$? > exit.txt; stty -a > stty.after; clear"
wait_for '^Samples: ' 60 || fail "the browser did not start"
head -1 "$T/screen" | grep -q "of event 'cpu-clock" || fail "title line: $(head -1 "$T/screen")"
grep -q 'Event count (approx.): ' "$T/screen" || fail "no event count in the title"
sed -n 2p "$T/screen" | grep -Eq '^  Children +Self +Command +Shared Object +Symbol' || fail "column headers"

# first screen: the top entries are the --stdio entry lines (fold sign + space instead of 2 blanks)
grep -E '^ +[0-9]+\.[0-9]+%' "$T/stdio.txt" | head -10 | sed 's/^  //' | cut -c1-110 | sed 's/ *$//' > "$T/stdio.top"
ntop=$(wc -l < "$T/stdio.top")
[ "$ntop" -ge 5 ] || fail "too few --stdio entries"
sed -n "3,$((2 + ntop))p" "$T/screen" | sed 's/^[-+ ] //' | cut -c1-110 | sed 's/ *$//' > "$T/tui.top"
diff "$T/stdio.top" "$T/tui.top" > "$T/top.diff" || { cat "$T/top.diff"; fail "first screen differs from --stdio"; }

# E: every callchain expanded; P: the view to perf.hist.0
keys E
grep -Eq '^-   .*\[\.\] leaf' "$T/screen" || grep -q '^- ' "$T/screen" || fail "E did not unfold entries"
rm -f perf.hist.*
keys P
wait_for 'perf.hist.0 written!' 5 || fail "P did not report perf.hist.0"
[ -s perf.hist.0 ] || fail "perf.hist.0 empty"
# leaf's own entry: its chain goes through a and b
awk '/^[-+ ] .*\[\.\] leaf$/{on=1; next} /^[-+ ]  +[0-9.]+%  /{on=0} on' perf.hist.0 > leaf.chain
grep -Eq '^ +[-+ ] (([0-9.]+% )?)a$' leaf.chain || { cat leaf.chain; fail "a not under leaf's chain"; }
grep -Eq '^ +[-+ ] (([0-9.]+% )?)b$' leaf.chain || { cat leaf.chain; fail "b not under leaf's chain"; }
mv perf.hist.0 prf.hist

# '+' folds the entry under the cursor again, one level
keys Home +
sed -n 3p "$T/screen" | grep -q '^+ ' || fail "+ did not fold the first entry"
sed -n 4p "$T/screen" | grep -Eq '^- +[0-9.]+%' || fail "+ folded more than the first entry (the second should stay unfolded)"
keys C

# / filter
n_before=$(grep -Ec '^[-+ ]  +[0-9]+\.[0-9]+%' "$T/screen")
keys /
wait_for 'Symbol to show' 5 || fail "/ did not open the filter prompt"
tmux -L "$SOCK" send-keys -t t -l "lea"
keys Enter
n_after=$(grep -Ec '^[-+ ]  +[0-9]+\.[0-9]+%' "$T/screen")
[ "$n_after" -ge 1 ] && [ "$n_after" -lt "$n_before" ] || fail "filter: $n_before -> $n_after entries"
grep -E '^[-+ ]  +[0-9]+\.[0-9]+%' "$T/screen" | grep -v 'lea' && fail "filter left an entry without 'lea'"
keys / BSpace BSpace BSpace Enter
[ "$(grep -Ec '^[-+ ]  +[0-9]+\.[0-9]+%' "$T/screen")" -eq "$n_before" ] || fail "/ + ENTER did not remove the filter"

# d: zoom into the DSO of the selected entry (main: the test program), and out
keys Home
row=$(grep -nE '\[\.\] main$' "$T/screen" | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "no main entry on screen"
for ((i = 3; i < row; i++)); do tmux -L "$SOCK" send-keys -t t Down; done
keys d
head -1 "$T/screen" | grep -q ', DSO: tree$' || fail "d: title $(head -1 "$T/screen")"
grep -q 'libc' "$T/screen" && fail "d: libc entries still shown"
sed -n 2p "$T/screen" | grep -q 'Shared Object' && fail "d: DSO column still shown"
keys d
head -1 "$T/screen" | grep -q 'DSO:' && fail "second d did not zoom out"
grep -q 'libc' "$T/screen" || fail "zoom out: libc entries missing"
# t: zoom into the thread, ESC zooms out
keys t
head -1 "$T/screen" | grep -q ', Thread: tree' || fail "t: title $(head -1 "$T/screen")"
keys Escape
head -1 "$T/screen" | grep -q 'Thread:' && fail "ESC did not zoom out of the thread"

# Enter: perf's action menu
keys Enter
grep -q '^Zoom into tree thread' "$T/screen" || fail "action menu: no thread zoom"
grep -q '^Exit' "$T/screen" || fail "action menu: no Exit"
keys Escape

# q: exit 0, terminal restored
keys q
wait_for 'PRFTEST\$' 10 || fail "no shell prompt after q"
sleep 0.5
[ "$(cat exit.txt 2>/dev/null)" = "EXIT=0" ] || fail "exit status: $(cat exit.txt 2>/dev/null)"
cmp -s stty.before stty.after || { diff stty.before stty.after; fail "stty -a changed"; }

# the same expanded view from Linux perf's browser (perf.hist.N), blocks of
# the four entries of the call tree
send_line "clear; \"$PERF\" report -i perf.data; clear"
if wait_for '^Samples: ' 60; then
	keys E P
	wait_for 'perf.hist.0 written' 5
	keys q
	wait_for 'PRFTEST\$' 10
	[ -s perf.hist.0 ] || fail "Linux perf's browser wrote no perf.hist.0"
	if [ -s perf.hist.0 ]; then
		block() { awk -v s="$2" '$0 ~ "^[-+ ]  +[0-9.]+%.*\\[\\.\\] "s"$" {on=1; print; next} /^[-+ ]  +[0-9.]+%  /{on=0} on' "$1"; }
		for s in main a b leaf; do
			block prf.hist "$s" > "prf.$s"
			block perf.hist.0 "$s" > "perf.$s"
			[ -s "prf.$s" ] || fail "no $s block in prf's dump"
			diff "perf.$s" "prf.$s" > "$s.diff" || { cat "$s.diff"; fail "expanded $s differs from perf's browser"; }
		done
	fi
fi

# ---- progress: on a terminal stderr while a larger file is processed ----
# The bar is drawn from 50 ms after the start (quick reports do not flash);
# prf reads a -g file of this size in well under that, so the larger file
# is a DWARF recording (about 60 MB, some 0.2 s of unwinding here).
"$PERF" record -q -e cpu-clock -c 50000 --call-graph dwarf,2048 -o "$T/big.data" -- \
	"$T/tree" 300000000 >/dev/null 2>&1 || fail "perf record of the larger file"
"$PRF" report --stdio -i "$T/big.data" > /dev/null 2> "$T/big.err" || fail "report of the larger file"
[ -s "$T/big.err" ] && { head -c 300 "$T/big.err"; fail "progress written to a redirected stderr"; }
if command -v script >/dev/null; then
	t0=$(date +%s%N)
	script -qec "\"$PRF\" report --stdio -i \"$T/big.data\" > /dev/null" "$T/tty.log" >/dev/null 2>&1 ||
		fail "report under script(1)"
	ms=$((($(date +%s%N) - t0) / 1000000))
	if ! grep -aq 'Processing time ordered events\.\.\. \[' "$T/tty.log"; then
		cat -v "$T/tty.log" | head -5
		# only a report shorter than about two draw intervals may skip it
		[ "$ms" -lt 120 ] || fail "no progress bar on a terminal stderr (report took $ms ms)"
		echo "note: report took $ms ms, too quick for a progress bar"
	else
		grep -aq $'\r\033\[K' "$T/tty.log" || fail "the progress line was not erased"
	fi
fi
# and the TUI draws its box while processing (seen if the capture is quick enough)
send_line "clear; PRF_PAGER=cat \"$PRF\" --no-pager report -i big.data; clear"
wait_for '^Samples: ' 60 || fail "the browser did not start on the larger file"
keys q
wait_for 'PRFTEST\$' 10 || fail "no prompt after the larger file"
exit 0
