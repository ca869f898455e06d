#!/bin/bash
# prf report TUI honours ui.show-headers and colors.* of ~/.perfconfig: no column headers row, the selected row in the configured colours
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup tui-config
"$PERF" record -q -F 999 -g -o "$T/perf.data" -- "$T/tree" 100000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
printf '[ui]\n\tshow-headers = false\n[colors]\n\tselected = white, red\n' > "$T/perfconfig"

tui_start 80 24
wait_for 'PRFTEST\$' 10 || fail "no shell prompt in tmux"
send_line "PERF_CONFIG=$T/perfconfig \"$PRF\" report -i perf.data"
wait_for '^Samples: ' 60 || fail "the browser did not start"
prf_idle || fail "the browser does not wait for a key"
screen_settled
sed -n 2p "$T/screen" | grep -q 'Children' && fail "column headers shown with ui.show-headers=false"
sed -n 2p "$T/screen" | grep -Eq '^[-+ ]  *[0-9.]+%' || fail "row 2 is not the first entry: $(sed -n 2p "$T/screen")"
# the selected row: white (37) on red (41), not black on yellow
tmux -L "$SOCK" capture-pane -t t -p -e | grep -q $'\e\\[[0-9;]*43m' && fail "selected row still yellow"
tmux -L "$SOCK" capture-pane -t t -p -e | grep -q $'\e\\[[0-9;]*41m' || fail "no red selected row"
keys q
wait_for 'PRFTEST\$' 10 || fail "no shell prompt after q"

# without the file: headers on row 2, as before
send_line "clear; PERF_CONFIG=/dev/null \"$PRF\" report -i perf.data"
wait_for '^Samples: ' 60 || fail "the browser did not start (no config)"
prf_idle || fail "the browser does not wait for a key"
screen_settled
sed -n 2p "$T/screen" | grep -Eq '^  Children +Self' || fail "no column headers without the file"
keys q
exit 0
