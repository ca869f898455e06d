#!/bin/bash
# the annotate.* keys of a perfconfig change prf annotate's TUI as perf annotate --tui's in tmux: the listing rows on the screen equal perf's (offsets or addresses by use_offset, line numbers by show_linenr, jump counts by show_nr_jumps, offsets by offset_level, source by hide_src_code, values by show_total_period), with the selected jump's line to its target drawn or not (jump_arrows), and after the o k J j t s O keys
# prf-test: serial: keys are sent to perf's browser and its screen read after fixed pauses
#
# Records main -> a -> b -> leaf (-O0 -g, tests/shell/lib/tui.sh) with
# /usr/bin/perf; perf and prf annotate b in a tmux pane of 110x40, each
# with the same PERF_CONFIG file, go to b's forward jump (End, then up
# as many rows as --stdio lists after it) or stay on the hottest
# instruction, and their listing rows are compared: the screen below the
# titles (perf's two lines, prf's one), the value column's name on the
# first row blanked (it names the column of the first screen row), perf's
# scrollbar column cut, trailing blanks and empty rows dropped. perf
# scrolls the selected row to the middle, prf only as far as needed: the
# rows perf shows must be the last rows prf shows.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup annotate-tui-config
"$PERF" record -q -F 999 -o "$T/perf.data" -- "$T/tree" 100000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
PERF_CONFIG=/dev/null "$PRF" annotate --stdio -i perf.data b > stdio.txt 2>/dev/null ||
	fail "annotate --stdio b"
# listing lines after b's first jmp, all and instructions only
after=$(awk '/:  +[0-9a-f]+:  +jmp / { on = 1; next } on { n++ } END { print n + 0 }' stdio.txt)
after_ins=$(awk '/:  +[0-9a-f]+:  +jmp / { on = 1; next } on && /:  +[0-9a-f]+:  / { n++ } END { print n + 0 }' stdio.txt)
[ "$after" -gt 0 ] || fail "no jmp in b's --stdio listing"

cat > rows.py <<'PY'
import sys
lines = open(sys.argv[1], encoding='utf-8').read().split('\n')[int(sys.argv[2]):]
out = []
for l in lines:
    if l.startswith("Press 'h'"):
        continue
    l = l[:100].rstrip()	# perf's scrollbar is the last column
    if l.strip('\u2592\u25c6 ') == '':
        continue
    out.append(l)
for name in ('Percent', 'Period', 'Samples'):
    if out and out[0].startswith(name):
        out[0] = ' ' * len(name) + out[0][len(name):]
print('\n'.join(out))
PY

tui_start 110 40
# run TOOL CONFIG KEYS...: the screen of TOOL annotate b with the config
# lines in a file, after going to the jump (KEYS "jump") or not, then KEYS
run() {
	local tool=$1 cfg=$2 bin=$PERF
	shift 2
	[ "$tool" = prf ] && bin=$PRF
	printf '[annotate]\n' > cfg
	for kv in $cfg; do printf '\t%s = %s\n' "${kv%%=*}" "${kv#*=}" >> cfg; done
	send_line "clear; PERF_CONFIG=$T/cfg \"$bin\" annotate -i perf.data b 2>/dev/null"
	wait_for "^Press 'h'" 60 || fail "$tool: no browser ($cfg)"
	local seq=()
	for k in "$@"; do
		if [ "$k" = jump ]; then
			local n=$after
			case $cfg in *hide_src_code=true*) n=$after_ins ;; esac
			# (perf may drop the first key: End twice)
			seq+=(End End)
			for ((i = 0; i < n; i++)); do seq+=(Up); done
		else
			seq+=("$k")
		fi
	done
	if [ "$tool" = prf ]; then
		# prf's trace says when it has read each key and drawn the result
		prf_idle || fail "prf: not waiting for a key ($cfg)"
		if [ ${#seq[@]} -gt 0 ]; then keys "${seq[@]}"; else screen_settled; fi
	else
		sleep 0.5
		for k in "${seq[@]}"; do
			tmux -L "$SOCK" send-keys -t t "$k"
			[ "$k" = Up ] && sleep 0.05 || sleep 0.1
		done
		sleep 0.8
		screen
	fi
	cp "$T/screen" "screen.$tool"
	tmux -L "$SOCK" send-keys -t t q
	wait_for 'PRFTEST\$ *$' 10 || fail "$tool: no shell prompt after q ($cfg)"
}

# same CONFIG KEYS...: perf's rows are prf's last rows
same() {
	local n
	run perf "$@"
	run prf "$@"
	python3 rows.py screen.perf 2 > rows.perf && python3 rows.py screen.prf 1 > rows.prf ||
		fail "rows.py"
	n=$(wc -l < rows.perf)
	[ "$n" -gt 10 ] || { cat screen.perf; fail "perf shows $n rows ($1 / ${*:2})"; }
	tail -n "$n" rows.prf | cmp -s - rows.perf ||
		{ tail -n "$n" rows.prf | diff rows.perf - | head -20; fail "config '$1' keys '${*:2}': rows differ from perf's"; }
	echo "ok: '$1' ${*:2}: $n rows as perf's"
}

same ""
same "" jump
grep -q '┌──jmp' rows.prf || fail "no line from the selected forward jmp"
same "jump_arrows=false" jump
grep -q '┌──jmp' rows.prf && fail "jump_arrows=false: a line drawn"
same "use_offset=false" jump
same "show_linenr=true" jump
same "show_nr_jumps=true" jump
same "offset_level=3 show_nr_jumps=true"
same "hide_src_code=true show_total_period=true" jump
same "" jump o k J
same "" jump j t s
same "offset_level=2" jump O
exit 0
