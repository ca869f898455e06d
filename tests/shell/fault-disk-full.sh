#!/bin/bash
# Fault: recording into a full disk (2M tmpfs) stops with 'No space left on device', exits non-zero, file reads back
# The file must end at a complete record: prf report reads it without a
# "bad record" complaint, and Linux perf reads the same number of samples.
# The "Captured and wrote" summary counts the samples the file holds.
set -u
PERF=${PERF_BIN:-/usr/bin/perf}
[ -x "$PERF" ] || { echo "no $PERF (Linux perf) to cross-check"; exit 2; }
command -v cc >/dev/null || { echo "no C compiler"; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root to mount a tmpfs"; exit 2; }
T=$(mktemp -d /tmp/prf-fault-full.XXXXXX)
MNT= WPID=
cleanup() {
	[ -n "$WPID" ] && kill -9 "$WPID" 2>/dev/null
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

cat >spin.c <<'C'
#include <stdio.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin_full(void) { for (;;) sink++; }
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "w");
	fprintf(f, "%d\n", getpid());
	fclose(f);
	spin_full();
	return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o spin spin.c || fail "cc"
mkdir full
mount -t tmpfs -o size=2M tmpfs full || { echo "cannot mount a tmpfs here"; exit 2; }
MNT=$T/full

# DWARF callchains copy 8 KB of stack per sample: 2 MB fill in well under a second of CPU
timeout 50 "$PRF" record -F 1000 --call-graph dwarf -o full/f.data -- ./spin "$T/pid" >rec.out 2>rec.err
rc=$?
[ -s pid ] && WPID=$(cat pid)
[ $rc -eq 124 ] && fail "prf record did not stop on a full disk"
[ $rc -ne 0 ] || fail "prf record exit 0 on a full disk: $(cat rec.err)"
[ $rc -lt 128 ] || fail "prf record killed by signal $((rc - 128)): $(tail -3 rec.err)"
grep -q "full/f.data.*No space left on device" rec.err ||
	fail "no 'No space left on device' message naming the file: $(head -5 rec.err)"
# the workload is not left spinning
if [ -n "$WPID" ]; then
	for _ in $(seq 50); do kill -0 "$WPID" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$WPID" 2>/dev/null && fail "workload $WPID still running after prf record stopped"
	WPID=
fi

timeout 60 "$PRF" report --stdio --no-children --sort comm,sym -i full/f.data >prf.rep 2>prf.err
rc=$?
[ $rc -eq 0 ] || fail "prf report exit $rc: $(head -3 prf.err)"
grep -q -i "bad record" prf.err && fail "file does not end at a complete record: $(grep -m1 -i 'bad record' prf.err)"
n=$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' prf.rep | head -1)
[ "${n:-0}" -gt 10 ] || fail "prf report: ${n:-no} samples in a 2 MB file"
grep -q "spin.*spin_full" prf.rep || fail "prf report: spin_full missing: $(grep % prf.rep | head -3)"
# the summary counts the samples that reached the file, not those drained
summ=$(sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples) \]$/\1/p' rec.err)
held=$("$PRF" data dump -i full/f.data 2>/dev/null | grep -c PERF_RECORD_SAMPLE)
[ "${summ:-none}" = "$held" ] || fail "summary says ${summ:-no} samples, the file holds $held: $(grep Captured rec.err)"

timeout 60 "$PERF" report --stdio --no-children --sort comm,sym -i full/f.data >perf.rep 2>perf.err
rc=$?
[ $rc -eq 0 ] || fail "perf report exit $rc: $(head -3 perf.err)"
pn=$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' perf.rep | head -1)
[ "$n" = "$pn" ] || fail "prf read ${n} samples, perf read ${pn:-none}"
echo "ok: full disk: '$(grep -m1 'No space' rec.err)', exit non-zero, $n samples read back by prf and perf"
exit 0
