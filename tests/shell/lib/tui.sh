# Sourced by the TUI shell tests (not a test itself). Drives `prf report`
# in a tmux pane, a real terminal.
#   tui_setup NAME: test_setup's checks (perf, cc, python3, tmux), $T with
#     cwd there, $SOCK (a private tmux server, killed on exit), a fail()
#     that shows the last captured screen (and $T/trace when there is one),
#     and $T/tree: main -> a -> b -> leaf, built -O0 -g with frame pointers.
#   tui_start COLS ROWS: a tmux session "t" running a bare bash with the
#     prompt "PRFTEST$ ".
#   screen: capture the pane into $T/screen; keys K...: send keys one by
#   one, each once the one before is done, then capture (see keys());
#   wait_for REGEX [SECONDS]: until the pane shows it (status 1 on
#   time-out); send_line TEXT: type TEXT and Enter; wait_file FILE;
#   resize_pane COLS ROWS.
# Every prf in the pane writes the TUI's debug trace (PRF_TUI_TRACE, ui/tui/
# helpers.h) to $T/trace: keys() knows from it when prf has read a key and
# drawn what it asked for.
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"

tui_setup() {
	test_setup "$1" tmux
	SOCK="prf-$1-$$"
	trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
	cat > "$T/tree.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void b(unsigned long n) { leaf(n); for (unsigned long i = 0; i < n / 4; i++) sink ^= i; }
__attribute__((noinline)) void a(unsigned long n) { b(n); for (unsigned long i = 0; i < n / 8; i++) sink += i; }
int main(int argc, char **argv) { unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 300000000UL; a(n); return 0; }
C
	cc -O0 -g -fno-omit-frame-pointer -o "$T/tree" "$T/tree.c" || fail "cc"
	cd "$T" || fail "cd"
}

fail() {
	echo "FAIL: $*"
	[ -f "$T/screen" ] && { echo "--- last screen:"; cat "$T/screen"; }
	[ -f "$T/trace" ] && { echo "--- trace:"; grep -v -e ' progress [0-9]' -e ' wait$' "$T/trace"; }
	exit 1
}

tui_start() {
	tmux -L "$SOCK" -f /dev/null new-session -d -s t -x "$1" -y "$2" \
		"env PS1='PRFTEST\$ ' TERM=screen PRF_TUI_TRACE='$T/trace' bash --norc --noprofile" ||
		{ echo "tmux cannot start a session"; exit 2; }
	tmux -L "$SOCK" set-option -t t status off >/dev/null
}

screen() { tmux -L "$SOCK" capture-pane -t t -p > "$T/screen"; }
# keys K...: send the keys. While prf's TUI has the terminal (its trace's
# last event is not "exit"), each key is sent once prf is idle (its last
# event "wait": nothing pending, the screen drawn), and is done when prf
# has read it ("key") and is idle again or gone ("exit"); the screen is
# captured once tmux shows it unchanged for 0.05 s. Otherwise (perf or
# the shell has the terminal) the keys go 0.2 s apart, and the screen is
# captured 0.6 s after the last.
keys() {
	local k
	if ! prf_has_tty; then
		for k in "$@"; do tmux -L "$SOCK" send-keys -t t "$k"; sleep 0.2; done
		sleep 0.6
		screen
		return
	fi
	for k in "$@"; do
		prf_idle || echo "keys: prf is not idle before '$k' (10 s)"
		tmux -L "$SOCK" send-keys -t t "$k"
		prf_read_key || echo "keys: prf did not read '$k' and get idle (10 s)"
	done
	screen_settled
}
# trace_read: TRACE, the lines of $T/trace (none before it exists)
trace_read() {
	TRACE=()
	[ -f "$T/trace" ] && mapfile -t TRACE < "$T/trace"
}
prf_has_tty() {
	trace_read
	[ ${#TRACE[@]} -gt 0 ] && [[ ${TRACE[-1]} != *' exit' ]]
}
# prf_idle: until the trace ends with "wait" or "exit" (10 s; status 1 on
# time-out); TRACE_SEEN: the lines read then.
prf_idle() {
	local n=500
	while [ $n -gt 0 ]; do
		trace_read
		TRACE_SEEN=${#TRACE[@]}
		[[ $TRACE_SEEN -gt 0 && ( ${TRACE[-1]} == *' wait' || ${TRACE[-1]} == *' exit' ) ]] &&
			return 0
		sleep 0.02
		n=$((n - 1))
	done
	return 1
}
# prf_read_key: until the trace has, after its first TRACE_SEEN lines, a
# "key" and after it a "wait" or "exit" (10 s; status 1 on time-out)
prf_read_key() {
	local n=500 i key
	while [ $n -gt 0 ]; do
		trace_read
		key=0
		for ((i = TRACE_SEEN; i < ${#TRACE[@]}; i++)); do
			case ${TRACE[i]} in
			*' key '*) key=1 ;;
			*' wait' | *' exit') [ $key = 1 ] && return 0 ;;
			esac
		done
		sleep 0.02
		n=$((n - 1))
	done
	return 1
}
# screen_settled: capture until two captures 0.05 s apart are the same (what
# prf wrote is on tmux's screen), at most 2 s
screen_settled() {
	local n=40 prev
	screen
	while [ $n -gt 0 ]; do
		prev=$(< "$T/screen")
		sleep 0.05
		screen
		[ "$prev" = "$(< "$T/screen")" ] && return 0
		n=$((n - 1))
	done
}
wait_for() {
	local n=$(( ${2:-30} * 10 ))
	while [ $n -gt 0 ]; do
		screen
		grep -Eq "$1" "$T/screen" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
# resize_pane COLS ROWS: resize the pane with prf's TUI in it; done when
# prf has read the resize (a "key" in its trace) and drawn the new size
resize_pane() {
	prf_idle || echo "resize_pane: prf is not idle (10 s)"
	tmux -L "$SOCK" resize-window -t t -x "$1" -y "$2"
	prf_read_key || echo "resize_pane: prf did not redraw at $1x$2 (10 s)"
	screen_settled
}
# wait_file FILE: until FILE is not empty (what the shell in the pane writes
# after the command; 10 s, status 1 on time-out)
wait_file() {
	local n=100
	while [ $n -gt 0 ]; do
		[ -s "$1" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
# the selected row (black on yellow) of the pane, without its colours
selected() {
	tmux -L "$SOCK" capture-pane -t t -p -e | grep $'\e\\[[0-9;]*43m' | head -1 | sed 's/\x1b\[[0-9;]*m//g'
}
send_line() { tmux -L "$SOCK" send-keys -t t -l "$1"; tmux -L "$SOCK" send-keys -t t Enter; }
