#!/bin/bash
# prf record option checks: -F 0/max/too high, -m rounding, lbr, FILE.old, bad workload, cycles fall back
set -u
fail() { echo "FAIL: $*"; exit 1; }
command -v perf >/dev/null || { echo "no /usr/bin/perf to judge the files"; exit 2; }
T=$(mktemp -d); IDLE=
cleanup() { [ -n "$IDLE" ] && kill "$IDLE" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T" || exit 1
# An idle process to attach to: high frequencies cost nothing on it
# (a busy workload at 100 kHz of cpu-clock takes tens of seconds on a VM).
sleep 120 & IDLE=$!

# no -o and stdout a pipe: the pipe stream goes to stdout, as perf
"$PRF" record -q -- true 2>/dev/null | head -c 8 >magic || fail "pipe to stdout"
[ "$(cat magic)" = PERFILE2 ] || fail "no pipe stream on a piped stdout"

"$PRF" record -F 0 -o x.data -- true 2>err; rc=$?
[ $rc -ne 0 ] || fail "-F 0 accepted"
grep -q "frequency and count are zero, aborting" err || fail "-F 0 message: $(cat err)"

max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$PRF" record -F $((max + 1)) -p $IDLE -o x.data -- sleep 0.1 2>err || fail "-F above max should throttle"
grep -q "Maximum frequency rate ($max Hz) exceeded, throttling" err || fail "no throttle warning: $(cat err)"
perf evlist -v -i x.data | grep -q "sample_freq }: $max," || fail "not throttled to $max"
"$PRF" record --strict-freq -F $((max + 1)) -p $IDLE -o x.data -- sleep 0.1 2>/dev/null && fail "--strict-freq accepted"
"$PRF" record -F max -p $IDLE -o x.data -- sleep 0.1 2>/dev/null || fail "-F max"
perf evlist -v -i x.data | grep -q "sample_freq }: $max," || fail "-F max is not $max"
"$PRF" record -c 100000 -o x.data -- true 2>/dev/null || fail "-c"
perf evlist -v -i x.data | grep -q "sample_period, sample_freq }: 100000," || fail "-c period"
perf evlist -v -i x.data | grep -q "freq: 1" && fail "-c left freq on"

"$PRF" record -m 3 -o x.data -- true 2>err || fail "-m 3"
grep -q "rounding mmap pages size to 16K (4 pages)" err || fail "-m 3 note: $(cat err)"
"$PRF" record -m 0 -o x.data -- true 2>/dev/null && fail "-m 0 accepted"

"$PRF" record --call-graph lbr -o x.data -- true 2>err && fail "lbr accepted on a machine without LBR"
grep -q "doesn't support branch stack sampling" err || fail "lbr message: $(cat err)"

# existing output renamed to .old
echo old >perf.data
"$PRF" record -q -- true >/dev/null || fail "default output"
[ "$(cat perf.data.old)" = old ] || fail "perf.data.old not the previous file"
perf report --stdio -i perf.data >/dev/null 2>&1 || fail "default perf.data unreadable"

"$PRF" record -o x.data -- ./no-such-program 2>err; rc=$?
[ $rc -eq 255 ] || fail "missing workload exit $rc"
grep -q "for the './no-such-program' workload: No such file or directory" err || fail "bad workload message: $(cat err)"

"$PRF" record 2>/dev/null; rc=$?
[ $rc -eq 129 ] || fail "no target: exit $rc"

# no hardware PMU: cycles falls back to cpu-clock (perf's note with -v)
if ! perf stat -e cycles -x, true 2>&1 | grep -q "^[0-9]"; then
	"$PRF" record -v -o x.data -- true 2>err || fail "default event"
	grep -q "trying to fall back to cpu-clock" err || fail "no fall back note: $(cat err)"
	perf evlist -i x.data | grep -q "^cpu-clock:ppp$" || fail "fall back event name: $(perf evlist -i x.data)"
fi
exit 0
