#!/bin/bash
# Conflicting options and misdirected errors: record -F with -c refused as perf does, -p over -a/-C with perf's warning, -C naming an offline CPU and the online ones, no target said; script's --folded options
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup exit-options
cd "$T" || exit 1

# -F and -c: a usage error with perf's message; perf refuses it too
"$PRF" record -F 1000 -c 100000 -o x.data -- true > /dev/null 2> err; rc=$?
[ $rc -eq 129 ] || fail "-F with -c: exit $rc, want 129: $(cat err)"
grep -q "^cannot set frequency and period at the same time$" err || fail "-F with -c: message: $(cat err)"
[ -e x.data ] && fail "-F with -c: a file was written"
"$PERF" record -F 1000 -c 100000 -o p.data -- true > /dev/null 2> perr && fail "perf accepts -F with -c (test premise)"
grep -q "cannot set frequency and period at the same time" perr || fail "perf's message differs: $(cat perr)"
echo "ok: -F with -c refused (129), as perf"

# -p with -a: the process wins, with perf's warning; its samples are recorded
cc -O0 -o spin -x c - <<'C' || fail "cc"
int main(void) { volatile unsigned long i; for (i = 0; i < 3000000000UL; i++) ; return 0; }
C
./spin & spin=$!
# the command only times the recording (1 s once prf is set up): -p is the target
"$PRF" record -p $spin -a -o pa.data -- sleep 1 > /dev/null 2> err; rc=$?
kill $spin 2>/dev/null
[ $rc -eq 0 ] || fail "-p with -a: exit $rc: $(cat err)"
grep -q "PID/TID switch overriding SYSTEM" err || fail "-p with -a: no warning: $(cat err)"
n=$("$PRF" script -i pa.data -F pid 2>/dev/null | grep -c "^ *$spin *$")
[ "$n" -gt 0 ] || fail "-p with -a: no sample of pid $spin recorded"
others=$("$PRF" script -i pa.data -F pid 2>/dev/null | grep -v -c "^ *$spin *$")
[ "$others" -eq 0 ] || fail "-p with -a: $others samples of other processes (system-wide)"
"$PRF" record -p $$ -C 0 -o pc.data -- true > /dev/null 2> err
grep -q "PID/TID switch overriding CPU" err || fail "-p with -C: no warning: $(cat err)"
echo "ok: -p over -a ($n samples of the process only) and over -C, with perf's warnings"

# -C with a CPU that is not online: named, with the online ones
online=$(cat /sys/devices/system/cpu/online)
"$PRF" record -C 999 -o c.data -- true > /dev/null 2> err; rc=$?
[ $rc -eq 1 ] || fail "-C 999: exit $rc: $(cat err)"
grep -q "^-C: CPU 999 is not online (online CPUs: $online)$" err || fail "-C 999: message: $(cat err)"
grep -q "event attributes" err && fail "-C 999: blames the event attributes"
echo "ok: $(head -1 err)"

# script: options of --folded without it, and the sample printer's with it
perf_record s.data -F 999 -- true
for a in "--weight period:--weight applies to --folded output only" \
	 "--annotate-kernel:--annotate-kernel applies to --folded output only" \
	 "--folded -F ip:-F/--fields does not apply to --folded output" \
	 "--folded --show-mmap-events:--show-mmap-events does not apply to --folded output"; do
	# shellcheck disable=SC2086
	"$PRF" script ${a%%:*} -i s.data > out 2> err; rc=$?
	[ $rc -eq 129 ] || fail "script ${a%%:*}: exit $rc"
	grep -q "^prf script: ${a#*:}$" err || fail "script ${a%%:*}: message: $(cat err)"
	[ -s out ] && fail "script ${a%%:*}: printed output"
done
echo "ok: script's --folded-only options and the printer's refused with --folded or without it (129)"

# no command and no target: say why before the usage
"$PRF" record > /dev/null 2> err; rc=$?
[ $rc -eq 129 ] || fail "no target: exit $rc"
grep -q "^prf record: nothing to record: give a command, -p/-t" err || fail "no target: no reason: $(head -3 err)"
grep -q "Usage: prf record" err || fail "no target: no usage"
echo "ok: no command nor target: $(head -1 err)"
exit 0
