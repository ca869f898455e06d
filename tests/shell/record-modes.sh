#!/bin/bash
# prf record -a, -p, --per-thread, -C with two events, pipe mode and -z: perf reads every file
# prf-test: serial: records system-wide (-a), and its spinner must show in the -a report
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-modes
SPIN=
cleanup() { [ -n "$SPIN" ] && kill "$SPIN" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T" || exit 1

cc_prog spin	# spins in spin_here() (lib/spin.c)

perf_reads() { # file what
	"$PERF" report --stdio -i "$1" >rep.out 2>rep.err || fail "$2: perf report exit: $(cat rep.err)"
	[ -s rep.err ] && fail "$2: perf report warnings: $(cat rep.err)"
	"$PERF" script -i "$1" >script.out 2>script.err || fail "$2: perf script exit"
	[ -s script.err ] && fail "$2: perf script warnings: $(cat script.err)"
	"$PERF" report --header-only -i "$1" >/dev/null 2>hdr.err || fail "$2: header-only exit"
	[ -s hdr.err ] && fail "$2: header-only warnings: $(cat hdr.err)"
	grep -q "^# Samples: [1-9]" rep.out || fail "$2: no samples"
}

./spin & SPIN=$!

# -a: system-wide, CPU in sample_type, our spinner is seen by name
"$PRF" record -a -g -F 499 -o a.data -- sleep 1 2>err || fail "-a: $(cat err)"
perf_reads a.data "-a"
"$PERF" evlist -v -i a.data | grep -q "sample_type: IP|TID|TIME|CALLCHAIN|CPU|PERIOD" || fail "-a sample_type"
grep -q "spin_here" rep.out || fail "-a: spin_here not in the report (synthesized maps?)"

# -p: an existing process; synthesized COMM and MMAP2 name it
"$PRF" record -p "$SPIN" -g -o p.data -- sleep 0.5 2>err || fail "-p: $(cat err)"
perf_reads p.data "-p"
grep -q "spin  *spin  *\[\.\] spin_here" rep.out || fail "-p: spin_here not resolved: $(grep % rep.out | head -3)"

# --per-thread on a tid: no time, no inherit, as perf
"$PRF" record -t "$SPIN" --per-thread -o t.data -- sleep 0.3 2>err || fail "-t: $(cat err)"
perf_reads t.data "-t --per-thread"
"$PERF" evlist -v -i t.data | grep -q "sample_type: IP|TID|PERIOD," || fail "--per-thread sample_type"

# -C with two events: sample ids, both events in the file
"$PRF" record -C 0 -e cpu-clock,task-clock -o c.data -- sleep 0.3 2>err || fail "-C: $(cat err)"
perf_reads c.data "-C two events"
[ "$("$PERF" evlist -i c.data | wc -l)" -eq 2 ] || fail "-C: not two events"
"$PERF" evlist -v -i c.data | grep -q "IP|TID|TIME|ID|CPU|PERIOD" || fail "-C: sample_type lacks ID|CPU"

kill "$SPIN"; wait "$SPIN" 2>/dev/null; SPIN=

cat > work.c <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void work(void) { for (unsigned long i = 0; i < 150000000UL; i++) sink += i; }
int main(void) { work(); return 0; }
C
cc -O0 -fno-omit-frame-pointer -o work work.c || fail "cc work"

# pipe mode: prf | perf report -i -
"$PRF" record -g -o - -- ./work 2>err | "$PERF" report -i - --stdio >rep.out 2>rep.err || fail "pipe: perf report exit"
[ -s rep.err ] && fail "pipe: perf report warnings: $(cat rep.err)"
grep -q "\[\.\] work" rep.out || fail "pipe: work not in the report"
"$PRF" record -o - -- ./work 2>/dev/null >pipe.data
[ "$(head -c 8 pipe.data)" = "PERFILE2" ] || fail "pipe: no magic"
[ "$(od -An -t u8 -j 8 -N 8 pipe.data | tr -d ' ')" = 16 ] || fail "pipe: header size is not 16"
"$PERF" script -i - <pipe.data >/dev/null 2>script.err || fail "pipe: perf script"
[ -s script.err ] && fail "pipe: perf script warnings: $(cat script.err)"

# -z: zstd PERF_RECORD_COMPRESSED
"$PRF" record -z -g -o z.data -- ./work 2>err || fail "-z: $(cat err)"
perf_reads z.data "-z"
grep -q "\[\.\] work" rep.out || fail "-z: work not in the report"
"$PERF" report --header-only -i z.data | grep -q "compressed : Zstd, level = 1" || fail "-z: no COMPRESSED feature"
"$PRF" record -g -o plain.data -- ./work 2>/dev/null || fail "plain recording"
zs=$(stat -c %s z.data); ps=$(stat -c %s plain.data)
[ $((zs * 2)) -lt "$ps" ] || fail "-z: file not smaller ($zs vs $ps bytes uncompressed)"
"$PRF" record --compression-level=5 -o z5.data -- ./work 2>/dev/null || fail "--compression-level=5"
"$PERF" report --header-only -i z5.data | grep -q "level = 5" || fail "level 5 not recorded"

# tracepoints: HEADER_TRACING_DATA lets perf decode the raw payload
if [ -r /sys/kernel/tracing/events/sched/sched_switch/format ] ||
   [ -r /sys/kernel/debug/tracing/events/sched/sched_switch/format ]; then
	"$PRF" record -e sched:sched_switch -a -o tp.data -- sleep 0.2 2>err || fail "tracepoint: $(cat err)"
	perf_reads tp.data "tracepoint"
	grep -q "prev_comm=.*next_comm=" script.out || fail "tracepoint: raw fields not decoded by perf script"
	"$PERF" evlist -v -i tp.data | grep -q "sample_period, sample_freq }: 1, sample_type: IP|TID|TIME|CPU|PERIOD|RAW" ||
		fail "tracepoint attr: $("$PERF" evlist -v -i tp.data)"
	"$PRF" record -e sched:sched_switch -a -o - -- sleep 0.2 2>/dev/null | "$PERF" script -i - >script.out 2>script.err ||
		fail "tracepoint pipe: perf script"
	grep -q "prev_comm=" script.out || fail "tracepoint pipe: not decoded"
else
	echo "note: tracefs not mounted, tracepoint case not run"
fi
exit 0
