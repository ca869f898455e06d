#!/bin/bash
# Progress on a terminal for the read-side commands (script, script --folded, flamegraph, data dump): the bar appears on stderr and is cleared at the end; nothing when stderr is no terminal or the output goes to it
# The session calls perf_session.progress (ui_progress__reading, the one
# progress facility report uses too) about every 1024 records; the bar is
# drawn at most every 50 ms on a terminal's stderr, as
# "\rProcessing events... [###...]  NN%", and erased with "\r\033[K".
# script(1) gives the command a terminal; the recording, its data repeated,
# is made big enough for the read to take well over the first 50 ms.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup reader-progress script
cd "$T" || exit 1

perf_record one.data -F 2999 -g -- sh -c 'for i in 1 2; do ls -lR /usr/lib >/dev/null; done'
# the data section repeated to MB megabytes, so that every read takes well
# over the 50 ms before the first draw: the feature sections follow, moved
grow() { # MB
	python3 - one.data big.data "$1" <<'PY' || fail "making big.data"
import struct, sys
d = open(sys.argv[1], "rb").read()
doff, dsize = struct.unpack_from("<QQ", d, 40)
k = max(2, (int(sys.argv[3]) << 20) // max(dsize, 1))
feats = bin(int.from_bytes(d[72:104], "little")).count("1")
shift = (k - 1) * dsize
table = bytearray(d[doff + dsize:doff + dsize + 16 * feats])
for i in range(feats):
    off, size = struct.unpack_from("<QQ", table, 16 * i)
    struct.pack_into("<Q", table, 16 * i, off + shift)
head = bytearray(d[:doff])
struct.pack_into("<Q", head, 48, k * dsize)
open(sys.argv[2], "wb").write(bytes(head) + d[doff:doff + dsize] * k + bytes(table) + d[doff + dsize + 16 * feats:])
PY
}
# 12 MB, doubled while the fastest of the commands (script --folded)
# reads it in under 250 ms: prf's speed, and the machine's, vary
mb=12
while :; do
	grow $mb
	t0=$EPOCHREALTIME
	"$PRF" script --folded -i big.data > /dev/null 2>&1 || fail "script --folded -i big.data: exit $?"
	t1=$EPOCHREALTIME
	[ $(( (${t1/./} - ${t0/./}) / 1000 )) -ge 250 ] || [ $mb -ge 192 ] && break
	mb=$((mb * 2))
done
"$PRF" data header -i big.data > /dev/null 2> hdr.err || { cat hdr.err; fail "big.data unreadable"; }
[ -s hdr.err ] && { cat hdr.err; fail "big.data: messages reading the header"; }

# on_tty CMD: run CMD (a shell line) with a terminal as stdin/stdout/stderr; its screen in tty.log
on_tty() {
	script -qfec "$1" /dev/null > tty.log 2>&1 < /dev/null
}

for c in "script -i big.data > s.out" "script --folded -i big.data" "flamegraph -i big.data -o fg.html" \
	 "data dump -i big.data > d.out"; do
	on_tty "'$PRF' $c" || fail "prf $c on a terminal: exit $?"
	grep -a -q $'\rProcessing events\\.\\.\\. \\[[#.]*\\] *[0-9]*%' tty.log ||
		{ cat -v tty.log | tail -3; fail "prf $c: no progress bar on the terminal"; }
	# the last bar is erased, and nothing of it is drawn after that
	tail_after=$(python3 -c '
import sys
t = open("tty.log", "rb").read()
i = t.rfind(b"Processing events")
print(1 if i >= 0 and b"\r\x1b[K" in t[i:] else 0)')
	[ "$tail_after" = 1 ] || { cat -v tty.log | tail -3; fail "prf $c: the bar is not cleared at the end"; }
	echo "ok: prf $c: bar drawn and cleared"
done
[ -s s.out ] && [ -s d.out ] && [ -s fg.html ] || fail "no output written"

# stderr not a terminal: no bar; output on the terminal (script's samples): no bar
"$PRF" flamegraph -i big.data -o fg.html 2> err.txt || fail "flamegraph exit $?"
[ -s err.txt ] && { cat -v err.txt | head -3; fail "flamegraph: messages on a redirected stderr"; }
on_tty "'$PRF' script -i big.data --comms sh" || fail "prf script on a terminal: exit $?"
grep -a -q "Processing events" tty.log && fail "script: a bar among the samples printed on the terminal"
echo "ok: no bar on a redirected stderr, nor among script's lines on the terminal"
exit 0
