#!/bin/bash
# prf bench runs each benchmark with small parameters in perf bench's lines (numbers masked), rejects bad options with 129, and serves as a workload for prf record
# Every benchmark (sched messaging over sockets and pipes, processes and
# threads; sched pipe with processes and threads; syscall basic; mem
# memcpy/memset with glibc's function; futex hash for one second on two
# threads; futex wake) runs with prf and with perf bench on the same
# parameters, in the default and the simple format; with every number (and
# address) masked the lines must be perf's, and prf must exit 0. The lists
# (collections, one collection's benchmarks) hold perf's lines for the
# benchmarks prf has. Usage errors (unknown option, bad size, bad format,
# unknown collection or benchmark) exit 129. Finally `prf record -- prf
# bench sched messaging` gives samples of its processes, and `prf record
# --off-cpu` of it offcpu-time samples of its tasks.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup bench

# (the throughput's unit follows its size: MB/sec or GB/sec, for both)
mask() { sed -E 's/0x[0-9a-f]+/X/g; s/ *([0-9]+(\.[0-9]+)?|inf)/ N/g; s/ N [KMGT]?B\/sec/ N xB\/sec/'; }

# compare ARG...: prf bench ARG... and perf bench ARG..., numbers masked
compare() {
	prf_out "$T/prf.out" bench "$@"
	"$PERF" bench "$@" > "$T/perf.out" 2>/dev/null || fail "perf bench $* failed"
	mask < "$T/prf.out" > "$T/prf.m"
	mask < "$T/perf.out" > "$T/perf.m"
	[ -s "$T/prf.m" ] || fail "prf bench $*: no output"
	diff -u "$T/perf.m" "$T/prf.m" || fail "prf bench $*: lines differ from perf bench's"
}

for fmt in default simple; do
	compare -f $fmt sched messaging -g 1 -l 5
	compare -f $fmt sched messaging -g 2 -l 5 -p
	compare -f $fmt sched messaging -g 1 -l 5 -t
	compare -f $fmt sched messaging --group 1 --nr_loops 3 --pipe --thread
	compare -f $fmt sched pipe -l 1000
	compare -f $fmt sched pipe -T --loop 1000
	compare -f $fmt syscall basic -l 10000
	compare -f $fmt mem memcpy -s 64KB -l 4 -f default
	compare -f $fmt mem memset --size 1mb -f default
done
compare mem memcpy -s 4096 -l 2 -f default
compare futex hash -r 1 -t 2 -f 64
compare futex wake -t 4
compare -f simple futex wake -t 3 -w 2 -s

# the figures are measured: messaging reports a time, pipe a rate
prf_out "$T/pipe.out" bench -f simple sched pipe -l 2000
grep -Eq '^[0-9]+\.[0-9]{3}$' "$T/pipe.out" || fail "simple format: $(cat "$T/pipe.out")"
prf_out "$T/sys.out" bench syscall basic -l 100000
ops=$(awk '/ops\/sec/ { print $1 }' "$T/sys.out")
[ "${ops:-0}" -gt 0 ] || fail "syscall basic: no ops/sec in $(cat "$T/sys.out")"

# -f all runs every function this machine has, each under its own header
prf_out "$T/all.out" bench mem memset -s 4KB -f all
[ "$(grep -c "^# function '" "$T/all.out")" -ge 1 ] || fail "mem -f all: $(cat "$T/all.out")"
prf_out "$T/help.out" bench mem memcpy -f help
grep -q '^	default \.\.\. Default memcpy() provided by glibc$' "$T/help.out" || fail "-f help: $(cat "$T/help.out")"

# the lists: perf's lines for what prf has
prf_out "$T/list" bench
"$PERF" bench > "$T/perf-list" 2>&1
for c in sched syscall mem futex internals all; do
	line=$(grep -E "^ +$c: " "$T/perf-list") || fail "perf bench lists no $c"
	grep -qxF "$line" "$T/list" || fail "prf bench list lacks '$line'"
done
prf_out "$T/sched-list" bench sched
"$PERF" bench sched > "$T/perf-sched-list" 2>&1
diff -u "$T/perf-sched-list" "$T/sched-list" || fail "prf bench sched: not perf's list"

# internals synthesize: perf's lines, records counted from this very
# process (a COMM and its executable maps at least), all processes with
# 1 and 2 threads finding about as many records
prf_out "$T/synth.out" bench internals synthesize -i 20 -I 2 -M 2
grep -qx "# Running 'internals/synthesize' benchmark:" "$T/synth.out" || fail "synthesize header: $(cat "$T/synth.out")"
grep -qE '^  Average synthesis took: [0-9]+\.[0-9]{3} usec \(\+- [0-9]+\.[0-9]{3} usec\)$' "$T/synth.out" ||
	fail "synthesize time line: $(cat "$T/synth.out")"
self=$(awk '/^  Average num. events:/ { print int($4); exit }' "$T/synth.out")
[ "${self:-0}" -ge 3 ] || fail "synthesize: $self records for prf itself (a COMM and maps expected)"
[ "$(grep -c '^  Number of synthesis threads: [12]$' "$T/synth.out")" -eq 2 ] || fail "synthesize: not 1 and 2 threads"
all=$(awk '/^    Average num. events:/ { print int($4) }' "$T/synth.out" | tr '\n' ' ')
set -- $all
[ "${1:-0}" -gt "$self" ] && [ "${2:-0}" -gt "$self" ] || fail "synthesize all processes: records $all, fewer than one process's"

# usage errors
for args in "sched messaging --bogus" "sched pipe -l x" "mem memcpy -s 1xx" \
	    "-f bogus sched pipe" "nope" "sched nope" "mem memcpy -f nope" "syscall basic extra" \
	    "internals synthesize -m 3 -M 2" "internals synthesize -i 0"; do
	# shellcheck disable=SC2086
	"$PRF" bench $args > "$T/bad.out" 2> "$T/bad.err"
	st=$?
	[ $st -eq 129 ] || fail "prf bench $args: exit $st, not 129"
	[ -s "$T/bad.err" ] || fail "prf bench $args: no message"
done

# a workload for record: samples of the messaging processes
"$PRF" record -q -o "$T/perf.data" -- "$PRF" bench sched messaging -l 5 > "$T/rec.out" 2> "$T/rec.err" ||
	fail "prf record -- prf bench: $(cat "$T/rec.err")"
grep -q 'Total time:' "$T/rec.out" || fail "the bench under record printed no time"
prf_out "$T/script.out" script -i "$T/perf.data" -F comm,pid
n=$(wc -l < "$T/script.out")
pids=$(awk '{ print $2 }' "$T/script.out" | sort -u | wc -l)
[ "$n" -gt 0 ] || fail "prf record -- prf bench: no samples"
[ "$pids" -gt 1 ] || fail "prf record -- prf bench: samples of $pids process(es) only"
echo "ok: $n samples of $pids processes"

# and for --off-cpu: every one of the 80 tasks of two groups blocks at least
# on the start pipe, so off-CPU samples come from (nearly) all of them
"$PRF" record --off-cpu -q -o "$T/oc.data" -- "$PRF" bench sched messaging -g 2 -l 5 > "$T/oc.out" 2> "$T/oc.err" ||
	fail "prf record --off-cpu -- prf bench: $(cat "$T/oc.err")"
prf_out "$T/oc.script" script -i "$T/oc.data" -F pid,event
ocpids=$(awk '/offcpu-time/ { print $1 }' "$T/oc.script" | sort -u | wc -l)
[ "$ocpids" -ge 40 ] || fail "prf record --off-cpu -- prf bench: offcpu-time samples of $ocpids processes"
echo "ok: offcpu-time samples of $ocpids processes"
