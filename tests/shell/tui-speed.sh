#!/bin/bash
# prf report TUI on a 1M-sample file: progress box while loading, first screen no later than --stdio finishes
# prf-test: serial: asserts a speed ratio (first screen against the --stdio run time)
# A real recording (/usr/bin/perf, cpu-clock -g, a test program with a
# known call tree) is grown to ~1M samples by repeating its samples, the
# timestamps of each copy shifted past the previous copy (the header and
# feature sections are kept, their offsets moved; EXIT records are dropped
# so the thread stays alive). Recording 1M samples directly would take
# minutes on a loaded 2-CPU machine.
#
# In a tmux pane of 80x24 (a real terminal), with PRF_TUI_TRACE (the TUI's
# debug trace, ui/tui/helpers.h):
#  - the progress box is on the screen while the file is processed (seen
#    with capture-pane), and the trace shows it drawn with a partial count
#    (0 < done < total) before it is removed and the first screen drawn;
#  - the first screen shows "Samples: 1000K of event 'cpu-clock'" and the top
#    entries of `prf report --stdio`;
#  - time: from the launch in the pane to the first screen (trace stamp),
#    against the run time of `prf report --stdio > /dev/null` launched the
#    same way in the same pane. The issue asks that the first screen comes
#    no later than the stdio report finishes; the machine is shared, so
#    this is a ratio with a margin, on the best of up to 3 alternated
#    runs each: TUI <= 1.25 * stdio + 0.2 s.
set -u
. "$PRF_SRCDIR/tests/shell/lib/tui.sh"
tui_setup tui-speed
"$PERF" record -q -B -N -e cpu-clock -c 50000 -g -o "$T/base.data" -- "$T/tree" 200000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }

# grow base.data to >= 1M samples (little-endian perf.data, one sample type)
cat > "$T/grow.py" <<'PY'
import struct, sys
from array import array
src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
f = open(src, 'rb').read()
magic, hsize, attr_size = struct.unpack_from('<8sQQ', f, 0)
if magic != b'PERFILE2':
    sys.exit('not a little-endian perf.data file')
a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQ', f, 24)
kinds = set()
for i in range(a_size // attr_size):
    o = a_off + i * attr_size
    st, = struct.unpack_from('<Q', f, o + 24)
    flags, = struct.unpack_from('<Q', f, o + 40)
    kinds.add((st, (flags >> 18) & 1))        # sample_type, sample_id_all
if len(kinds) != 1:
    sys.exit('events with different sample types')
st, id_all = kinds.pop()
IP, TID, TIME, IDENT = 1, 2, 4, 1 << 16
if not st & TIME:
    sys.exit('no timestamps')
s_time = 8 + 8 * sum(1 for b in (IDENT, IP, TID) if st & b)
data = f[d_off:d_off + d_size]
first = bytearray()     # the recording but its EXIT records (the thread lives on)
rep = bytearray()       # SAMPLE and FINISHED_ROUND records: repeated
tidx = []               # the sample timestamps, as u64 indexes into rep
nsamp, tmin, tmax, p = 0, None, 0, 0
while p + 8 <= len(data):
    typ, misc, size = struct.unpack_from('<IHH', data, p)
    if size < 8 or size % 8:
        sys.exit('bad record at %d' % p)
    rec = data[p:p + size]
    if typ != 4:
        first += rec
    if typ == 9:
        v, = struct.unpack_from('<Q', rec, s_time)
        tmin = v if tmin is None else min(tmin, v)
        tmax = max(tmax, v)
        tidx.append((len(rep) + s_time) // 8)
        nsamp += 1
    if typ in (9, 68):
        rep += rec
    p += size
if not nsamp:
    sys.exit('no samples')
k = -(-want // nsamp)
span = tmax - tmin + 1
out = first
base = array('Q', bytes(rep))
for c in range(1, k):
    cp = array('Q', base)
    for i in tidx:
        cp[i] += c * span
    out += cp.tobytes()
tail = bytearray(f[d_off + d_size:])
delta = len(out) - d_size
for i in range(bin(int.from_bytes(f[72:104], 'little')).count('1')):
    o, s = struct.unpack_from('<QQ', tail, 16 * i)
    struct.pack_into('<Q', tail, 16 * i, o + delta)
head = bytearray(f[:d_off])
struct.pack_into('<Q', head, 48, len(out))
open(dst, 'wb').write(head + out + tail)
print(nsamp * k)
PY
nsamples=$(python3 "$T/grow.py" "$T/base.data" "$T/big.data" 1000000) || fail "growing the recording"
rm -f "$T/base.data"
[ "$nsamples" -ge 1000000 ] || fail "grown file has $nsamples samples"

# the sample count as perf prints it (convert_unit: "1000K", "1M")
v=$nsamples unit=' '
[ "$v" -gt 1000 ] && { v=$((v / 1000)); unit=K; }
[ "$v" -gt 1000 ] && { v=$((v / 1000)); unit=M; }
count="$v$unit"

# the stdio report of the grown file: 1M samples, the call tree on top
"$PRF" report -i "$T/big.data" --stdio > "$T/stdio.txt" 2>"$T/stdio.err" || fail "prf report --stdio"
grep -q "^# Samples: $count of event 'cpu-clock'" "$T/stdio.txt" ||
	{ head -8 "$T/stdio.txt"; fail "--stdio header of the grown file"; }
grep -q '\[\.\] leaf' "$T/stdio.txt" || fail "no leaf entry in --stdio output"

tui_start 80 24
# until the trace has a first screen (no capture-pane polling: it would load the CPUs)
wait_trace() {
	local n=600
	while [ $n -gt 0 ]; do
		grep -q ' screen ' "$T/trace" 2>/dev/null && return 0
		sleep 0.05
		n=$((n - 1))
	done
	return 1
}
quit_tui() {
	tmux -L "$SOCK" send-keys -t t q
	wait_for 'TUIDONE' 10 || fail "no prompt after q"
}
wait_for 'PRFTEST\$' 10 || fail "no shell prompt in tmux"

# ---- 1: the progress box while the file is processed, then the first screen ----
rm -f "$T/trace"
send_line "clear; PRF_TUI_TRACE=$T/trace \"$PRF\" report -i big.data; clear; echo TUIDONE"
wait_for 'Processing time ordered events' 60 ||
	fail "no progress box on the screen while processing"
wait_trace || fail "no first screen in 30 s"
wait_for '^Samples: ' 10 || fail "the browser did not start"
head -1 "$T/screen" | grep -q "^Samples: $count of event 'cpu-clock', Event count (approx.): " ||
	fail "title: $(head -1 "$T/screen")"
# the trace: partial progress drawn, the box removed, then the first screen
awk '$2 == "progress" && $3 > 0 && $3 < $4 { p = 1 } $2 == "progress-end" { e = p } $2 == "screen" { s = e }
     END { exit !s }' "$T/trace" || fail "trace: no partial progress, progress-end, screen in order"
# top entries equal --stdio's entry lines (cut to the 80 columns of the pane)
grep -E '^ +[0-9]+\.[0-9]+%' "$T/stdio.txt" | head -5 | sed 's/^  //' | cut -c1-78 | sed 's/ *$//' > "$T/stdio.top"
sed -n 3,7p "$T/screen" | sed 's/^[-+ ] //' | cut -c1-78 | sed 's/ *$//' > "$T/tui.top"
diff "$T/stdio.top" "$T/tui.top" || fail "first screen differs from --stdio"
quit_tui

# ---- 2: first screen vs the stdio report, best of up to 3 alternated runs ----
best_tui=0 best_stdio=0
for run in 1 2 3; do
	rm -f "$T/trace" "$T/s0" "$T/s1" "$T/t0" "$T/s.cpu"
	send_line "clear; TIMEFORMAT='%U %S'; date +%s%N > s0; { time \"$PRF\" report --stdio -i big.data > /dev/null; } 2> s.cpu; date +%s%N > s1"
	n=600
	while [ ! -s "$T/s1" ] && [ $n -gt 0 ]; do sleep 0.05; n=$((n - 1)); done
	[ -s "$T/s1" ] || fail "stdio run $run did not finish in 30 s"
	stdio_ms=$(( ($(cat "$T/s1") - $(cat "$T/s0")) / 1000000 ))
	stdio_cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$T/s.cpu" 2>/dev/null)
	send_line "clear; date +%s%N > t0; PRF_TUI_TRACE=$T/trace \"$PRF\" report -i big.data; clear; echo TUIDONE"
	wait_trace || fail "TUI run $run: no first screen in 30 s"
	t1=$(awk '$2 == "screen" { print $1; exit }' "$T/trace")
	tui_ms=$(( (t1 - $(cat "$T/t0")) / 1000000 ))
	tui_cpu=$(awk '$2 == "screen" { printf "%d", $4 / 1000000; exit }' "$T/trace")
	quit_tui
	echo "run $run: TUI first screen ${tui_ms} ms (CPU ${tui_cpu} ms), stdio report ${stdio_ms} ms (CPU ${stdio_cpu} ms)"
	[ "$best_tui" -eq 0 ] || [ "$tui_ms" -lt "$best_tui" ] && best_tui=$tui_ms
	[ "$best_stdio" -eq 0 ] || [ "$stdio_ms" -lt "$best_stdio" ] && best_stdio=$stdio_ms
	[ $((best_tui * 100)) -le $((best_stdio * 125 + 20000)) ] && break
done
echo "best: TUI first screen ${best_tui} ms, stdio ${best_stdio} ms (limit 1.25 x stdio + 200 ms)"
[ $((best_tui * 100)) -le $((best_stdio * 125 + 20000)) ] ||
	fail "the first screen came after ${best_tui} ms, the stdio report took ${best_stdio} ms"
exit 0
