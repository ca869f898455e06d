#!/bin/bash
# prf stat tool events duration_time, user_time, system_time as perf 6.1 (alone, with task-clock, in groups, -I; human, CSV, JSON) and their section in prf list
# prf-test: serial: compares run times
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-tool-events
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"


# A command with user and system time (so neither is <not counted>: the
# times come from ticks, so the system part is 1 GB of reads, about
# 100 ms, for no run to get none; 256 MB once gave perf 0)
cat > "$T/work.c" <<'C'
#include <fcntl.h>
#include <unistd.h>
static char buf[65536];
volatile unsigned long sink;
int main(void)
{
	int fd = open("/dev/zero", O_RDONLY);

	for (unsigned long i = 0; i < 60000000UL; i++)
		sink += i;
	for (int i = 0; i < 16000; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			return 1;
	return 0;
}
C
cc -O1 -o "$T/work" "$T/work.c" || { echo "cc failed"; exit 2; }
W=$T/work

stat_both human -e duration_time,user_time,system_time,task-clock "$W"
# duration_time is the elapsed time: the same ns as the "seconds time elapsed" line
d=$(awk '/ ns +duration_time/ { print $1 }' "$T/prf.human")
e=$(awk '/seconds time elapsed/ { sub(/\./, "", $1); sub(/^0+/, "", $1); print $1 }' "$T/prf.human")
[ -n "$d" ] && [ "$d" = "$e" ] || fail "duration_time $d ns, elapsed $e ns: $(cat "$T/prf.human")"
grep -qE "^ +[0-9]+ ns +user_time +# +[0-9.]+ [KMG]?/sec" "$T/prf.human" || fail "user_time row: $(cat "$T/prf.human")"
grep -qE "^ +[0-9]+ ns +system_time " "$T/prf.human" || fail "system_time row"

stat_both csv -e duration_time,user_time,system_time -x, "$W"
for t in perf prf; do
	awk -F, '{ print NF, $2, $3 }' "$T/$t.csv" >"$T/$t.csvf"
done
cmp -s "$T/perf.csvf" "$T/prf.csvf" || fail "CSV fields: $(cat "$T/prf.csvf")"
grep -qx "ns duration_time" <(cut -d' ' -f2- "$T/prf.csvf") || fail "CSV: $(cat "$T/prf.csv")"

stat_both json -e duration_time,user_time,system_time,task-clock -j "$W"
for t in perf prf; do
	python3 - "$T/$t.json" >"$T/$t.keys" <<'EOP' || fail "$t JSON: $(cat "$T/$t.json")"
import json, re, sys
for l in open(sys.argv[1]):
    if l.strip():
        o = json.loads(l)
        # the metric's prefix (K/M/G per sec) follows the run's own times
        print(sorted(o), o["event"], o["unit"], re.sub(r"^[KMG](?=/sec$)", "", o["metric-unit"]))
EOP
done
cmp -s "$T/perf.keys" "$T/prf.keys" || fail "JSON keys: $(diff "$T/perf.keys" "$T/prf.keys")"

# groups: a member is the dummy counter (0, the leader's run time); a
# tool leader reads no member (<not counted>), as perf
stat_both g1 -e '{task-clock,duration_time}' -x, "$W"
grep -qE "^0,ns,duration_time,[0-9]+,100.00," "$T/prf.g1" || fail "member: $(cat "$T/prf.g1")"
stat_both g2 -e '{duration_time,task-clock}' "$W"
grep -q "<not counted> msec task-clock" "$T/prf.g2" || fail "tool leader: $(cat "$T/prf.g2")"

# -I: duration_time is the interval's length; rusage is known only at the end
stat_both iv -e duration_time,user_time -I 100 --interval-count 2 sleep 0.3
[ "$(grep -c '<not counted> ns   user_time' "$T/prf.iv")" = 2 ] || fail "-I: $(cat "$T/prf.iv")"

# prf list: the Tool event section after the software events, as perf
for a in "" sw duration_time '*_time'; do
	# shellcheck disable=SC2086
	diff <("$PERF" list $a 2>/dev/null | sed -n '/Software event\|Tool event/p') \
		<("$PRF" list $a 2>/dev/null | sed -n '/Software event\|Tool event/p') >"$T/diff" ||
		fail "prf list $a: $(cat "$T/diff")"
done
"$PRF" list sw | grep -qx "  duration_time  *\[Tool event\]" || fail "no Tool event in prf list sw"
exit 0
