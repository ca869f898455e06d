# Sourced by the TUI shell tests (not a test itself). Drives `prf report`
# in a tmux pane, a real terminal.
#   tui_setup NAME: test_setup's checks (perf, cc, python3, tmux), $T with
#     cwd there, $SOCK (a private tmux server, killed on exit), a fail()
#     that shows the last captured screen (and $T/trace when there is one),
#     and $T/tree: main -> a -> b -> leaf, built -O0 -g with frame pointers.
#   tui_start COLS ROWS: a tmux session "t" running a bare bash with the
#     prompt "PRFTEST$ ".
#   screen: capture the pane into $T/screen; keys K...: send keys (0.2 s
#   apart), settle, capture; wait_for REGEX [SECONDS]: until the pane shows
#   it (status 1 on time-out); send_line TEXT: type TEXT and Enter.
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
	[ -f "$T/trace" ] && { echo "--- trace:"; grep -v ' progress [0-9]' "$T/trace"; }
	exit 1
}

tui_start() {
	tmux -L "$SOCK" -f /dev/null new-session -d -s t -x "$1" -y "$2" \
		"env PS1='PRFTEST\$ ' TERM=screen bash --norc --noprofile" ||
		{ echo "tmux cannot start a session"; exit 2; }
	tmux -L "$SOCK" set-option -t t status off >/dev/null
}

screen() { tmux -L "$SOCK" capture-pane -t t -p > "$T/screen"; }
keys() { for k in "$@"; do tmux -L "$SOCK" send-keys -t t "$k"; sleep 0.2; done; sleep 0.6; screen; }
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
# the selected row (black on yellow) of the pane, without its colours
selected() {
	tmux -L "$SOCK" capture-pane -t t -p -e | grep $'\e\\[[0-9;]*43m' | head -1 | sed 's/\x1b\[[0-9;]*m//g'
}
send_line() { tmux -L "$SOCK" send-keys -t t -l "$1"; tmux -L "$SOCK" send-keys -t t Enter; }
