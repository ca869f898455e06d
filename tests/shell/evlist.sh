#!/bin/bash
# prf evlist prints what perf evlist prints (names, -v, -g, -F, --trace-fields and their mixes) on perf's and prf's recordings with several events, a group and a tracepoint
# Records `sleep` with perf (Linux perf 6.1, the reference) and with prf
# record, with two single events, a group of two and sched:sched_switch
# at -F 999 (and one plain -c recording for sample_period), and compares
# `prf evlist` with `perf evlist` on each file: the whole output, byte for
# byte, and the exit status. Then bad input: -g with -v is a usage error
# (129), a missing file fails (1) with one line naming it.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup evlist

events=(-e cpu-clock,task-clock -e '{cpu-clock,task-clock}' -e sched:sched_switch -F 999)
perf_record "$T/perf.data" "${events[@]}" -- sleep 0.01
perf_record "$T/perfc.data" -e cpu-clock -c 100000 -- sleep 0.01
# a pipe's events come as attr records in the stream (no tracepoint: perf
# 6.1 names one "unknown tracepoint" there; nor -g: it shows no group
# there; both documented differences, prf shows the names and groups)
"$PERF" record -q -o - -e cpu-clock -e '{cpu-clock,task-clock}' -- sleep 0.01 \
	2>/dev/null > "$T/pipe.data" || fail "perf record to a pipe"
"$PRF" record -q -o "$T/prf.data" "${events[@]}" -- sleep 0.01 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record"; }

n=0
for f in perf perfc pipe prf; do
	for opts in "" "-v" "-g" "-F" "--trace-fields" "-v --trace-fields" "-F --trace-fields" \
		    "-g --trace-fields"; do
		[ $f = pipe ] && [[ "$opts" == -g* ]] && continue
		# shellcheck disable=SC2086 # opts are several words
		"$PERF" evlist -i "$T/$f.data" $opts > "$T/want" 2>/dev/null
		want=$?
		# shellcheck disable=SC2086
		"$PRF" evlist -i "$T/$f.data" $opts > "$T/got" 2>"$T/got.err"
		got=$?
		[ $got -eq $want ] || { cat "$T/got.err"; fail "$f.data evlist $opts: exit $got, perf $want"; }
		cmp -s "$T/want" "$T/got" ||
			{ diff "$T/want" "$T/got" | head; fail "$f.data evlist $opts differs"; }
		n=$((n + 1))
	done
done
grep -q '^{cpu-clock,task-clock}$' < <("$PRF" evlist -i "$T/perf.data" -g) ||
	fail "perf's recording has no group line"
grep -q '^{cpu-clock,task-clock}$' < <("$PRF" evlist -i "$T/pipe.data" -g) ||
	fail "the pipe's group is not shown"
grep -q 'trace_fields: prev_comm,prev_pid' < <("$PRF" evlist -i "$T/perf.data" --trace-fields) ||
	fail "no sched_switch fields"
echo "ok: $n evlist outputs identical to perf's"

"$PRF" evlist -i "$T/perf.data" -g -v >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 129 ] || fail "evlist -g -v: exit $rc, want 129"
grep -q "not compatible" "$T/err" || fail "evlist -g -v: no message"
"$PRF" evlist -i "$T/none.data" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "evlist of a missing file: exit $rc, want 1"
grep -q "none.data" "$T/err" || fail "evlist of a missing file: message does not name it"
echo "ok: bad input (129, 1)"
