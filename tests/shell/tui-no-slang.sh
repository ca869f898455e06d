#!/bin/bash
# libslang is loaded when the TUI starts, not at prf's start: prf runs without it, and prf report on a terminal then says so and prints the --stdio report
#
# prf no longer links libslang (ui/tui/slang-dl.h): every command paid
# for loading it at start-up, and only the TUI uses it. Checked:
#  - ldd lists no libslang for prf;
#  - in a tmux pane (stdin and stdout terminals) with libslang.so.2
#    hidden (a bind mount of /dev/null over it, in a private mount
#    namespace: unshare -m), `prf report` warns that the TUI needs
#    libslang, exits 0, and its output (through the pager, PAGER=cat >
#    file) is `prf report --stdio`'s;
#  - in the same pane without hiding it, the TUI starts.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup tui-no-slang
need unshare mount

ldd "$PRF" > ldd.txt 2>&1 || fail "ldd $PRF: $(cat ldd.txt)"
grep -q libslang ldd.txt && fail "prf is linked against libslang: $(grep libslang ldd.txt)"
echo "ok: prf is not linked against libslang"

sl=$(ldconfig -p 2>/dev/null | awk '/libslang\.so\.2 / { print $NF; exit }')
[ -n "$sl" ] && sl=$(readlink -f "$sl")
[ -n "$sl" ] && [ -f "$sl" ] || { echo "libslang.so.2 not found here"; exit 2; }
unshare -m sh -c "mount --bind /dev/null '$sl'" 2>/dev/null ||
	{ echo "cannot hide $sl in a private mount namespace (unshare -m, mount --bind)"; exit 2; }

"$PERF" record -q -F 999 -g -o "$T/perf.data" -- "$T/tree" 100000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
"$PRF" report -i perf.data --stdio > stdio.txt 2>/dev/null || fail "prf report --stdio"

tui_start 100 30
send_line "unshare -m sh -c \"mount --bind /dev/null '$sl' && PRF_PAGER='cat > paged.txt' exec '$PRF' report -i perf.data\" 2> err.txt; echo EXIT=\$? > exit.txt"
for _ in $(seq 100); do [ -s exit.txt ] && break; sleep 0.2; done
[ "$(cat exit.txt 2>/dev/null)" = "EXIT=0" ] || fail "prf report without libslang: $(cat exit.txt 2>/dev/null), $(cat err.txt)"
grep -q "The TUI needs libslang" err.txt || fail "no warning that the TUI needs libslang: $(cat err.txt)"
cmp -s stdio.txt paged.txt || { diff stdio.txt paged.txt | head; fail "the report printed is not --stdio's"; }
echo "ok: without libslang, prf report on a terminal warns and prints --stdio's $(grep -c '%' paged.txt) lines"

send_line "'$PRF' report -i perf.data"
wait_for '^Samples: ' 30 || fail "the TUI did not start with libslang there"
echo "ok: with libslang there the TUI starts"
exit 0
