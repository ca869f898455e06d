#!/bin/bash
# prf stat record / stat report (file and pipe) against perf 6.1: each reads the other's file and prints the same bytes; -A/--per-* and -I recordings; the records perf writes; bad input
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-record
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"

# both_report NAME FILE [OPT...]: perf stat report and prf stat report of
# FILE, exit statuses and every byte the same (the same file: same counts)
both_report() {
	local name=$1 f=$2 rc prc
	shift 2
	"$PERF" stat report -i "$f" "$@" >"$T/perf.$name" 2>&1
	prc=$?
	"$PRF" stat report -i "$f" "$@" >"$T/prf.$name" 2>&1
	rc=$?
	[ $rc = 0 ] && [ $prc = 0 ] || fail "$name: exit $rc, perf $prc: $(cat "$T/prf.$name")"
	grep -q "Performance counter stats\|counts unit events" "$T/prf.$name" ||
		fail "$name: no counts: $(cat "$T/prf.$name")"
	cmp -s "$T/perf.$name" "$T/prf.$name" ||
		fail "$name: stat report $* differs from perf's: $(diff "$T/perf.$name" "$T/prf.$name")"
}

# record types of a file as perf report -D counts them (perf's MMAP of the kernel aside)
rec_types() {
	"$PERF" report -D -i "$1" 2>/dev/null | sed -n '/Aggregated stats/,$p' |
		awk '$1 != "TOTAL" && $1 != "MMAP" && $2 == "events:" { print $1, $3 }'
}

# 1. the default event set for a command: prf's file, perf's file
"$PRF" stat record -o "$T/prf.data" true 2>"$T/rec.err" || fail "prf stat record: $(cat "$T/rec.err")"
grep -q "Performance counter stats for 'true'" "$T/rec.err" || fail "no counts while recording: $(cat "$T/rec.err")"
"$PERF" stat record -o "$T/perf.data" true 2>/dev/null || fail "perf stat record failed"
both_report prf-default "$T/prf.data"
both_report perf-default "$T/perf.data"
grep -q "for '[^']*prf[^ ]* stat record -o $T/prf.data true':" "$T/prf.prf-default" ||
	fail "header names the recording's command line: $(head -3 "$T/prf.prf-default")"
[ "$(rec_types "$T/prf.data")" = "$(rec_types "$T/perf.data")" ] ||
	fail "records: $(rec_types "$T/prf.data") vs perf's $(rec_types "$T/perf.data")"
"$PERF" report --header-only -i "$T/prf.data" 2>/dev/null | grep -q "contains stat data" ||
	fail "no HEADER_STAT"

# 2. system-wide per cpu with a tool event, reported as recorded and per topology
"$PRF" stat record -o "$T/prf-a.data" -a -A -e cpu-clock,duration_time sleep 0.05 2>/dev/null ||
	fail "prf stat record -a -A"
"$PERF" stat record -o "$T/perf-a.data" -a -A -e cpu-clock,duration_time sleep 0.05 2>/dev/null ||
	fail "perf stat record -a -A"
for f in prf-a perf-a; do
	for opt in "" -A --per-core --per-socket --per-die --per-node; do
		both_report "$f$opt" "$T/$f.data" $opt
	done
done
grep -q "^CPU0 .*cpu-clock" "$T/prf.prf-a-A" || fail "-A rows: $(cat "$T/prf.prf-a-A")"

# 3. intervals, groups, -p --per-thread
"$PRF" stat record -o "$T/prf-i.data" -I 100 -e task-clock,page-faults sleep 0.25 2>/dev/null ||
	fail "prf stat record -I"
both_report prf-interval "$T/prf-i.data"
[ "$(grep -c ' page-faults' "$T/prf.prf-interval")" -ge 2 ] || fail "-I: $(cat "$T/prf.prf-interval")"
"$PERF" stat record -o "$T/perf-i.data" -I 100 -e task-clock,page-faults sleep 0.25 2>/dev/null
both_report perf-interval "$T/perf-i.data"
"$PRF" stat record -o "$T/prf-g.data" -e '{task-clock,page-faults}',context-switches true 2>/dev/null ||
	fail "prf stat record with a group"
both_report prf-group "$T/prf-g.data"
sleep 0.6 &
spid=$!
# counting starts once the child is sleep, not the shell forking it
for _ in $(seq 100); do
	[ "$(cat /proc/$spid/comm 2>/dev/null)" = sleep ] && break
	sleep 0.01
done
"$PRF" stat record -o "$T/prf-t.data" --per-thread -p $spid -e task-clock,context-switches 2>/dev/null ||
	fail "prf stat record -p"
both_report prf-thread "$T/prf-t.data"
grep -q "sleep-[0-9]" "$T/prf.prf-thread" || fail "--per-thread rows: $(cat "$T/prf.prf-thread")"

# 4. pipe mode both ways; a workload writing 2 MB to stdout does not corrupt the stream
"$PRF" stat record -o - true 2>/dev/null | "$PRF" stat report -i - >"$T/pipe.out" 2>&1
[ "${PIPESTATUS[*]}" = "0 0" ] || fail "pipe: exit ${PIPESTATUS[*]}: $(cat "$T/pipe.out")"
grep -q "Performance counter stats for 'pipe':" "$T/pipe.out" || fail "pipe: $(cat "$T/pipe.out")"
grep -q " page-faults " "$T/pipe.out" || fail "pipe counts: $(cat "$T/pipe.out")"
"$PRF" stat record -o - -e task-clock,page-faults,duration_time -- sh -c 'yes | head -c 2000000' \
	>"$T/prf.pipe" 2>"$T/chatty.err" || fail "prf stat record -o - (chatty)"
[ "$(wc -c <"$T/chatty.err")" -ge 2000000 ] || fail "the workload's stdout did not go to stderr"
"$PERF" stat report -i - <"$T/prf.pipe" >"$T/perf.pipe-prf" 2>&1 || fail "perf stat report of prf's pipe"
"$PRF" stat report -i - <"$T/prf.pipe" >"$T/prf.pipe-prf" 2>&1 || fail "prf stat report of prf's pipe"
cmp -s "$T/perf.pipe-prf" "$T/prf.pipe-prf" || fail "pipe: $(diff "$T/perf.pipe-prf" "$T/prf.pipe-prf")"
"$PERF" stat record -o - -e task-clock,page-faults,duration_time true >"$T/perf.pipe" 2>/dev/null
"$PERF" stat report -i - <"$T/perf.pipe" >"$T/perf.pipe-perf" 2>&1
"$PRF" stat report -i - <"$T/perf.pipe" >"$T/prf.pipe-perf" 2>&1 || fail "prf stat report of perf's pipe"
cmp -s "$T/perf.pipe-perf" "$T/prf.pipe-perf" || fail "perf's pipe: $(diff "$T/perf.pipe-perf" "$T/prf.pipe-perf")"
# stdin a pipe and no -i: the pipe is read
"$PRF" stat record -o - true 2>/dev/null | "$PRF" stat report 2>&1 | grep -q "for 'pipe':" ||
	fail "stat report without -i does not read its stdin pipe"

# 5. bad input: one clear line, usage errors 129
"$PRF" stat report -i "$T/nonexistent" >"$T/bad.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "nonexistent" "$T/bad.out" || fail "missing file: exit $rc: $(cat "$T/bad.out")"
head -c 200 /dev/urandom >"$T/junk"
"$PRF" stat report -i "$T/junk" >"$T/bad.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "junk" "$T/bad.out" || fail "junk file: exit $rc: $(cat "$T/bad.out")"
"$PRF" stat report --bogus >"$T/bad.out" 2>&1
rc=$?
[ $rc = 129 ] && grep -q "bogus" "$T/bad.out" || fail "bad option: exit $rc: $(cat "$T/bad.out")"
"$PRF" stat record -o "$T/r.data" -r 2 true >"$T/bad.out" 2>&1
rc=$?
[ $rc = 129 ] && grep -q -- "-r" "$T/bad.out" && [ ! -e "$T/r.data" ] ||
	fail "record -r 2: exit $rc, file left: $(ls "$T"): $(cat "$T/bad.out")"
"$PRF" stat record -o "$T/r.data" -e no-such-event true >"$T/bad.out" 2>&1
rc=$?
[ $rc = 129 ] && grep -q "no-such-event" "$T/bad.out" && [ ! -e "$T/r.data" ] ||
	fail "bad event: exit $rc: $(cat "$T/bad.out")"
exit 0
