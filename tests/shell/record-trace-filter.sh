#!/bin/bash
# prf record --filter sets tracepoint filters (prev_pid > 0; prev_comm == "X" keeps only X's switches); a bad filter fails as perf's does
# prf-test: serial: records sched_switch system-wide (-a)
# System-wide sched_switch while a uniquely named program sleeps in a
# loop: without a filter other tasks' switches are recorded too; with
# --filter 'prev_comm == "NAME"' every record is the program's and there
# are fewer; with 'prev_pid > 0' (perf's usual example) every record has
# prev_pid > 0. A filter the kernel rejects must fail with perf's message
# and a non-zero exit.
set -u
T=$(mktemp -d /tmp/prf-trace-filter.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }
command -v cc >/dev/null || { echo "no C compiler"; exit 2; }
cat > "$T/nap.c" <<'C'
#include <unistd.h>
int main(void) { for (int i = 0; i < 100; i++) usleep(2000); return 0; }
C
cc -O2 -o "$T/prfnapper" "$T/nap.c" || fail "cc"

rec() { # out [options]
	local out=$1; shift
	"$PRF" record -q -e sched:sched_switch "$@" -a -o "$out" -- "$T/prfnapper" 2>"$T/err" ||
		{ cat "$T/err"; fail "prf record $*"; }
	"$PRF" script -i "$out" -F trace > "$out.txt" 2>"$T/err" || { cat "$T/err"; fail "prf script"; }
}
rec "$T/all.data"
rec "$T/comm.data" --filter 'prev_comm == "prfnapper"'
rec "$T/pid.data" --filter 'prev_pid > 0'
all=$(wc -l < "$T/all.data.txt")
all_mine=$(grep -c '^prev_comm=prfnapper ' "$T/all.data.txt")
comm=$(wc -l < "$T/comm.data.txt")
comm_mine=$(grep -c '^prev_comm=prfnapper ' "$T/comm.data.txt")
pid=$(wc -l < "$T/pid.data.txt")
pid0=$(grep -c 'prev_pid=0 ' "$T/pid.data.txt")
echo "unfiltered: $all records ($all_mine of prfnapper); prev_comm filter: $comm ($comm_mine); prev_pid > 0: $pid ($pid0 with prev_pid=0)"
[ "$all_mine" -ge 50 ] || fail "prfnapper's 100 sleeps gave only $all_mine switches"
[ "$all" -gt "$all_mine" ] || fail "no other task switched in the unfiltered run: cannot test"
[ "$comm_mine" -ge 50 ] || fail "the prev_comm filter dropped prfnapper's switches"
[ "$comm" -eq "$comm_mine" ] || fail "prev_comm filter not applied: $((comm - comm_mine)) other records"
[ "$comm" -lt "$all" ] || fail "filtered run has no fewer records"
[ "$pid" -gt 0 ] && [ "$pid0" -eq 0 ] || fail "prev_pid > 0 filter"

# a bad filter: perf's message, non-zero exit
"$PRF" record -q -e sched:sched_switch --filter 'no_such_field == 1' -a -o "$T/bad.data" -- true \
	>/dev/null 2>"$T/bad.err" && fail "a bad filter was accepted"
grep -q 'failed to set filter "no_such_field == 1" on event sched:sched_switch with 22 (Invalid argument)' \
	"$T/bad.err" || { cat "$T/bad.err"; fail "bad filter message"; }
# --filter after a non-tracepoint event is a usage error
"$PRF" record -q -e cpu-clock --filter 'x > 1' -o "$T/bad2.data" -- true >/dev/null 2>"$T/bad2.err" &&
	fail "--filter after a non-tracepoint event was accepted"
exit 0
