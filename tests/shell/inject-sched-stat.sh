#!/bin/bash
# prf inject -s: each sched_stat sample becomes the last sched_switch sample of its task (callchain where it slept) with the stat's time and period; perf reads the result (file and pipe)
# The kernel here may lack CONFIG_SCHEDSTATS (no sched_stat_sleep): the
# test uses sched_stat_runtime, which -s takes like every sched_stat_*, as
# perf does. perf 6.1's own inject -s output is not compared: its report
# of it crashes in this setting (Documentation/prf-inject.txt).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup inject-sched-stat
"$PRF" record -e sched:sched_stat_runtime -e sched:sched_switch -e sched:sched_process_exit -g \
	-o "$T/raw.data" -- sh -c 'for i in 1 2 3 4; do sleep 0.02; done' > /dev/null 2> "$T/rec.err" ||
	{ cat "$T/rec.err"; echo "cannot record the sched tracepoints here"; exit 2; }

prf_out "$T/inj.out" inject -s -i "$T/raw.data" -o "$T/merged.data"
"$PERF" script -i "$T/raw.data" -F event,time,period 2>/dev/null |
	awk '$NF == "sched:sched_stat_runtime:" { print $1, $2 }' | sort > "$T/stats"
"$PERF" script -i "$T/merged.data" -F event,time,period > "$T/merged" 2> "$T/merged.err" ||
	{ cat "$T/merged.err"; fail "perf script rejects prf inject -s's output"; }
[ -s "$T/merged" ] || fail "no sample in the merged output"
awk '$NF != "sched:sched_switch:"' "$T/merged" | grep -q . &&
	{ head "$T/merged"; fail "samples other than sched_switch in the output"; }
awk '{ print $1, $2 }' "$T/merged" | sort > "$T/merged.tp"
comm -23 "$T/merged.tp" "$T/stats" | grep -q . &&
	{ comm -23 "$T/merged.tp" "$T/stats" | head; fail "output samples whose time and period are no sched_stat's"; }
"$PERF" script -i "$T/merged.data" -F ip,sym 2>/dev/null | grep -q ' schedule$' ||
	fail "no callchain through schedule in the merged samples"
"$PERF" report -i "$T/merged.data" --stdio --show-total-period > "$T/rep" 2>&1 ||
	{ cat "$T/rep"; fail "perf report on the merged output"; }
echo "ok: $(wc -l < "$T/merged") sched_switch samples carry sched_stat times and periods"

# pipe in, pipe out: the same samples
"$PRF" inject -s < "$T/raw.data" > "$T/merged.pipe" 2> "$T/err" || { cat "$T/err"; fail "prf inject -s (pipe)"; }
"$PERF" script -i - -F event,time,period < "$T/merged.pipe" 2>/dev/null > "$T/merged.p"
# (perf script adds the callchains on a pipe, a tab before each frame: the
# sample lines are compared; they start with a blank while the time has
# fewer than 5 digits of seconds)
grep -v $'^\t\\|^$' "$T/merged.p" > "$T/merged.pl"
cmp -s "$T/merged" "$T/merged.pl" || { diff "$T/merged" "$T/merged.pl" | head; fail "pipe output differs"; }
exit 0
