#!/bin/bash
# prf stat --per-thread as perf 6.1: with -a every task counts (rows by count, highest first, zero rows left out); with -p the threads by count; CSV and JSON rows too
# prf-test: serial: counts system-wide (-a): other tests' tasks would show up in the rows
# A program runs three threads: two spin briefly between sleeps, one
# never sleeps. prf stat -a --per-thread must list its threads among every
# task of the machine (perf refuses nothing here: it counts per thread
# system-wide), with the busiest of them first, as perf sorts; perf's own
# run on the same program gives the reference layout of a row.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-per-thread
trap 'kill $prog 2>/dev/null; rm -rf "$T"' EXIT
prog=

cat > "$T/thr.c" <<'C'
#include <pthread.h>
#include <unistd.h>
volatile unsigned long sink;
static void *spin(void *arg)
{
	long n = (long)arg;

	for (;;) {
		for (long i = 0; i < (n ? n : 1000) * 10000; i++)
			sink += i;
		if (n)
			usleep(2000);
	}
	return NULL;
}
int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, spin, (void *)1);
	pthread_create(&t, NULL, spin, (void *)0);
	pthread_create(&t, NULL, spin, (void *)5);
	sleep(60);
	return 0;
}
C
cc -O1 -pthread -o "$T/thrprog" "$T/thr.c" || fail "cc"
"$T/thrprog" &
prog=$!
sleep 0.3
tids=$(ls /proc/$prog/task | sort -n | tr '\n' ' ')
set -- $tids
[ $# -eq 4 ] || fail "program has $# tasks, want 4"
busy=$3		# the second thread made never sleeps

"$PRF" stat -a --per-thread -e task-clock -- sleep 0.5 > "$T/out" 2>&1
st=$?
cat "$T/out"
[ $st -eq 0 ] || fail "prf stat -a --per-thread exited $st"
grep -q "Performance counter stats for 'system wide':" "$T/out" || fail "header"
grep -E '^ *[^ ].*-[0-9]+ +[0-9.]+ msec task-clock' "$T/out" > "$T/rows" || fail "no rows"
[ "$(wc -l < "$T/rows")" -ge 3 ] || fail "fewer than 3 thread rows"
# rows by count, highest first, none zero
awk '{ for (i = 1; i <= NF; i++) if ($(i + 1) == "msec") { print $i; break } }' "$T/rows" > "$T/vals"
sort -g -r "$T/vals" | cmp -s - "$T/vals" || fail "rows are not sorted by count"
# (0.00 msec here can be a real task that ran a few microseconds: the
# JSON rows below, in nanosecond precision, are where zero rows are ruled out)
grep -q "thrprog-$busy " "$T/rows" || fail "busiest thread $busy of the program not listed"
first=$(grep -m1 'thrprog-' "$T/rows" | sed -E 's/.*thrprog-([0-9]+) .*/\1/')
[ "$first" = "$busy" ] || fail "first of the program's rows is $first, want the busiest $busy"

# a row is laid out as perf lays it out (comm-tid, count, unit, event, metric)
"$PERF" stat -a --per-thread -e task-clock -- sleep 0.2 > "$T/perf.out" 2>&1 ||
	{ cat "$T/perf.out"; echo "perf stat -a --per-thread failed here"; exit 2; }
row_shape() { sed -E 's/^ *[^ ]+-[0-9]+ +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized +$/ROW/' "$1" | grep -c '^ROW$'; }
[ "$(row_shape "$T/perf.out")" -ge 1 ] || fail "perf's rows have another shape (test out of date)"
[ "$(row_shape "$T/out")" -eq "$(wc -l < "$T/rows")" ] || fail "prf's rows differ in layout from perf's"

# -p: the program's threads, busiest first
"$PRF" stat -p $prog --per-thread -e task-clock -- sleep 0.3 > "$T/p.out" 2>&1 ||
	{ cat "$T/p.out"; fail "prf stat -p --per-thread exited $?"; }
first=$(grep -m1 'thrprog-' "$T/p.out" | sed -E 's/.*thrprog-([0-9]+) .*/\1/')
[ "$first" = "$busy" ] || { cat "$T/p.out"; fail "-p: first row is $first, want $busy"; }

# CSV and JSON
"$PRF" stat -a --per-thread -x, -e task-clock -- sleep 0.2 > "$T/csv" 2>&1 || fail "-x, exited $?"
grep -q "^thrprog-$busy,[0-9.]*,msec,task-clock," "$T/csv" || { cat "$T/csv"; fail "CSV row of $busy"; }
"$PRF" stat -a --per-thread -j -e task-clock -- sleep 0.2 > "$T/json" 2>&1 || fail "-j exited $?"
grep "thrprog-$busy" "$T/json" | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' ||
	{ cat "$T/json"; fail "JSON rows"; }
grep '^{"thread"' "$T/json" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert len(rows) >= 3, "fewer than 3 JSON rows"
zero = [r["thread"] for r in rows if float(r["counter-value"]) == 0]
assert not zero, "zero rows shown: %s" % zero' || { cat "$T/json"; fail "JSON: zero rows or too few"; }
exit 0
