#!/bin/bash
# prf sched record/latency/timehist/map print what perf sched prints on the same file (perf's and prf's recordings of a pipe ping-pong and a sleeper)
# prf-test: serial: records the sched tracepoints system-wide (-a)
# A program compiled here runs two threads that pass a byte back and forth
# over two pipes (every pass a wakeup and a switch) and a third that sleeps
# 2 ms twenty times. It is recorded once by `perf sched record` and once by
# `prf sched record`; on both files `prf sched latency|timehist|map` with
# their options must print byte for byte what `perf sched ... -i` prints.
# Also compared: a perf record of sched_wakeup and sched_waking both
# (timehist reads only sched_waking then, latency only sched_wakeup), and
# `sched record -g` files (timehist prints each switch's kernel stack).
# latency --callchain, which perf has not, prints perf's table with the
# stack of the event each task's worst delay began with under its row.
# replay: the event counts and the task list it rebuilds are perf's (the
# round times that follow are measurements); script: prf script's lines.
# Not compared: map --color-pids and map -v, where perf 6.1 crashes.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup sched-compat

"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }

cat > "$T/pingpong.c" <<'EOF'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static int ab[2], ba[2], rounds;
static void *pong(void *arg)
{
	char c;
	for (int i = 0; i < rounds; i++)
		if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
			exit(1);
	return arg;
}
static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 2000000 };
	for (int i = 0; i < 20; i++)
		nanosleep(&ts, NULL);
	return arg;
}
int main(int argc, char **argv)
{
	pthread_t t, s;
	char c = 'x';
	rounds = argc > 1 ? atoi(argv[1]) : 300;
	if (pipe(ab) || pipe(ba))
		return 1;
	pthread_create(&t, NULL, pong, NULL);
	pthread_create(&s, NULL, sleeper, NULL);
	for (int i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
	pthread_join(t, NULL);
	pthread_join(s, NULL);
	return 0;
}
EOF
cc -O1 -pthread -o "$T/pingpong" "$T/pingpong.c" || fail "cc pingpong.c"

"$PERF" sched record -o "$T/perf.data" -- "$T/pingpong" 300 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf sched record failed"; exit 2; }
"$PRF" sched record -o "$T/prf.data" -- "$T/pingpong" 300 >/dev/null 2>"$T/prec.err" ||
	{ cat "$T/prec.err"; fail "prf sched record exit $?"; }
"$PERF" evlist -i "$T/prf.data" > "$T/evlist" 2>/dev/null || fail "perf cannot read prf sched record's file"
for ev in sched_switch sched_stat_runtime sched_process_fork sched_wakeup_new sched_migrate_task; do
	grep -q "^sched:$ev\$" "$T/evlist" || { cat "$T/evlist"; fail "prf sched record did not record $ev"; }
done
grep -q '^sched:sched_wak\(ing\|eup\)$' "$T/evlist" || fail "prf sched record recorded no wakeups"

"$PERF" record -q -a -o "$T/both.data" -e sched:sched_switch -e sched:sched_wakeup \
	-e sched:sched_waking -e sched:sched_wakeup_new -e sched:sched_stat_runtime \
	-- "$T/pingpong" 100 >/dev/null 2>"$T/rec.err" || { cat "$T/rec.err"; fail "perf record of sched_wakeup"; }
"$PERF" sched record -g -o "$T/perf-g.data" -- "$T/pingpong" 100 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "perf sched record -g"; }
"$PRF" sched record -g -o "$T/prf-g.data" -- "$T/pingpong" 100 >/dev/null 2>"$T/prec.err" ||
	{ cat "$T/prec.err"; fail "prf sched record -g exit $?"; }

# same FILE SUBCOMMAND OPT...: prf prints what perf prints
same() {
	local file=$1
	shift
	"$PERF" sched "$@" -i "$file" > "$T/ref" 2>/dev/null
	prf_out "$T/out" sched "$@" -i "$file"
	cmp -s "$T/ref" "$T/out" ||
		{ diff "$T/ref" "$T/out" | head -10; fail "sched $* on $(basename "$file") differs from perf"; }
	[ -s "$T/out" ] || fail "sched $* printed nothing"
}

for f in "$T/perf.data" "$T/prf.data"; do
	same "$f" latency
	same "$f" latency -p
	same "$f" latency -s max
	same "$f" latency -s switch,runtime
	same "$f" latency -s pid -p
	same "$f" latency -C 0
	same "$f" timehist
	same "$f" timehist -w
	same "$f" timehist -V -M -n
	same "$f" timehist --state -w
	same "$f" timehist -S
	same "$f" timehist -s --state
	same "$f" timehist -C 0 -S
	same "$f" timehist -I -S
	same "$f" timehist -I -V --state
	same "$f" map
	same "$f" map --compact
	same "$f" map --cpus 0
	pid=$("$PRF" sched timehist -i "$f" 2>/dev/null | sed -n 's/.* pingpong\[[0-9]*\/\([0-9]*\)\].*/\1/p' | head -1)
	[ -n "$pid" ] || fail "timehist shows no pingpong thread in $(basename "$f")"
	same "$f" timehist -p "$pid" -S
	# the workload is there: its threads were switched out about once a pass
	"$PRF" sched timehist -i "$f" > "$T/th" 2>/dev/null
	sw=$(grep -c " pingpong\[" "$T/th")
	[ "$sw" -ge 300 ] || fail "timehist: $sw switches of pingpong threads (want >= 300)"
	"$PRF" sched latency -i "$f" > "$T/lat" 2>/dev/null
	grep -q '^  pingpong:(3) ' "$T/lat" || { cat "$T/lat"; fail "latency: no row of the 3 pingpong threads"; }
done
same "$T/both.data" latency
same "$T/both.data" timehist -w -S
for f in "$T/perf-g.data" "$T/prf-g.data"; do
	same "$f" timehist
	same "$f" timehist --max-stack 2 -w
	same "$f" timehist --no-call-graph -S
	grep -q ' <- ' "$T/out" && fail "timehist --no-call-graph printed stacks"
	same "$f" timehist -I -S
	"$PRF" sched timehist -i "$f" 2>/dev/null | grep -q ' <- ' || fail "timehist printed no stacks of $(basename "$f")"
done
# latency --callchain (beyond perf): the same table, each row followed by
# the stack where its worst delay began
for f in "$T/perf-g.data" "$T/prf-g.data"; do
	prf_out "$T/lat" sched latency -i "$f"
	prf_out "$T/latcc" sched latency --callchain -i "$f"
	grep -v '^      ' "$T/latcc" | cmp -s - "$T/lat" || fail "latency --callchain changed the table"
	grep -q '^      worst delay began: \(preempted\|woken by .*\[[0-9]*\]\) at [0-9.]* s, in$' "$T/latcc" ||
		{ head -20 "$T/latcc"; fail "latency --callchain shows no delay start"; }
	# each delay start is followed by its stack, one function a line, and
	# some stack resolves to a kernel function (wakeup or scheduler path)
	awk '/worst delay began/ { want = 1; next } want && !/^          [^ ]/ { bad = 1 } { want = 0 }
	     END { exit bad }' "$T/latcc" || { head -20 "$T/latcc"; fail "latency --callchain: a delay start without a stack"; }
	grep -q '^          \(__schedule\|schedule\|try_to_wake_up\|wake_up_new_task\|.*_sys_.*\)$' "$T/latcc" ||
		{ head -20 "$T/latcc"; fail "latency --callchain shows no kernel frame"; }
done
"$PRF" sched latency --callchain -i "$T/perf.data" > "$T/lat" 2>"$T/lat.err" || fail "latency --callchain without callchains"
grep -q 'no callchains' "$T/lat.err" || fail "latency --callchain: no word that the file has no callchains"

# replay: counts and task list as perf's, then the replayed rounds
for f in "$T/perf.data" "$T/prf.data"; do
	"$PERF" sched replay -r 1 -i "$f" > "$T/ref" 2>/dev/null
	prf_out "$T/out" sched replay -r 2 -i "$f"
	sed -n '/^nr_run_events:/,/^-----/p' "$T/ref" > "$T/ref.c"
	sed -n '/^nr_run_events:/,/^-----/p' "$T/out" > "$T/out.c"
	grep -q '^task .*pingpong' "$T/out.c" || fail "replay lists no pingpong task"
	cmp -s "$T/ref.c" "$T/out.c" || { diff "$T/ref.c" "$T/out.c" | head; fail "replay: counts or tasks differ from perf"; }
	[ "$(grep -c '^#[12] *: [0-9.]*, ravg: [0-9.]*, cpu: [0-9.]* / [0-9.]*$' "$T/out")" -eq 2 ] ||
		{ tail -3 "$T/out"; fail "replay -r 2 did not report 2 rounds"; }
	same "$f" script
done
echo "ok: latency, timehist, map as perf on perf's and prf's recordings ($sw switches of the pingpong threads)"

# a recording without sched events: perf's messages, perf's (empty) tables
"$PRF" record -q -o "$T/cpu.data" -- "$T/pingpong" 20 >/dev/null 2>&1 || fail "prf record of cpu-clock"
for sub in latency map; do
	"$PERF" sched $sub -i "$T/cpu.data" > "$T/ref" 2>"$T/ref.err"
	prf_out "$T/out" sched $sub -i "$T/cpu.data"
	cmp -s "$T/ref" "$T/out" && cmp -s "$T/ref.err" "$T/out.err" ||
		{ diff "$T/ref.err" "$T/out.err"; fail "sched $sub of a file without tracepoints differs from perf"; }
done
"$PRF" sched timehist -i "$T/cpu.data" > /dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^No sched_switch events found" "$T/err" ||
	{ cat "$T/err"; fail "timehist without sched_switch: exit $rc"; }

# usage errors and a missing file
"$PRF" sched latency -s bogus -i "$T/perf.data" >/dev/null 2>&1; rc=$?
[ $rc -eq 129 ] || fail "latency -s bogus: exit $rc (want 129)"
"$PRF" sched timehist -s -w -i "$T/perf.data" >/dev/null 2>&1; rc=$?
[ $rc -eq 129 ] || fail "timehist -s -w: exit $rc (want 129, as perf: mutually exclusive)"
"$PRF" sched nosuch >/dev/null 2>&1; rc=$?
[ $rc -eq 129 ] || fail "sched nosuch: exit $rc (want 129)"
"$PRF" sched timehist -i "$T/none.data" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || fail "timehist of a missing file: exit $rc (want 1)"
echo "ok: usage errors 129, missing input 1"
