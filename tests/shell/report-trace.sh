#!/bin/bash
# prf report --sort trace (and comm,trace / trace,comm) prints what perf report prints for tracepoint files
# prf-test: serial: records sched_switch system-wide (-a)
# A system-wide sched_switch + sched_wakeup recording by perf, and one by
# prf, reported by both with the "trace" sort key (the formatted payload,
# "Trace output"): the tables must be equal line for line (the random
# "Tip" line at the end excepted). Known model difference: a thread that
# never had a COMM record, forked from another such thread, is named
# ":PARENT_TID" by prf and ":TID" by perf, and a child forked during the
# recording may keep ":TID" where perf gives it the parent's comm; when
# tables differ, they are compared without the Command column, as sets of
# lines (overhead and trace text must still match entry for entry).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup trace-report

"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }

"$PERF" record -q -e sched:sched_switch -e sched:sched_wakeup -a -o "$T/perf.data" -- sleep 0.3 \
	>/dev/null 2>"$T/err" || { cat "$T/err"; echo "perf record failed"; exit 2; }
"$PRF" record -q -e sched:sched_switch -a -o "$T/prf.data" -- sleep 0.3 2>"$T/err" ||
	{ cat "$T/err"; fail "prf record"; }

for f in perf prf; do
	for s in trace comm,trace trace,comm; do
		"$PERF" report -i "$T/$f.data" --stdio --sort "$s" 2>/dev/null | grep -v '^# (Tip:' > "$T/ref"
		"$PRF" report -i "$T/$f.data" --stdio --sort "$s" 2>"$T/err" | grep -v '^# (Tip:' > "$T/out"
		grep -q 'Trace output' "$T/ref" || fail "perf printed no Trace output column ($f.data, $s)"
		if [ "$s" = comm,trace ] && ! cmp -s "$T/ref" "$T/out"; then
			# perf sizes the last "Trace output" column from the entries
			# whose text its rb-tree comparisons happened to format, and
			# cuts the others to that width; prf prints the whole text.
			# Compare both cut to perf's width, table by table (one per event).
			w=$(grep '^# \.\.\.' "$T/ref" | awk '{ printf "%s%d", NR > 1 ? "," : "", length }')
			for x in ref out; do
				awk -v w="$w" 'BEGIN { n = split(w, W, ",") }
					/^# \.\.\./ { t++ }
					{ if (t) $0 = substr($0, 1, W[t <= n ? t : n]); sub(/ +$/, ""); print }' \
					"$T/$x" > "$T/$x.cut"
				mv "$T/$x.cut" "$T/$x"
			done
		fi
		if ! cmp -s "$T/ref" "$T/out"; then
			nocomm() { # drop the Command column (the one that is not "prev_comm=...")
				if [ "$s" = trace ]; then cat "$1"; else
					sed -E 's/^( +[0-9.]+%  ).*  (prev_comm=|comm=)/\1\2/; s/(next_prio=[0-9]+|target_cpu=[0-9]+)  .*$/\1/' "$1"
				fi | grep -v '^#' | sort
			}
			nocomm "$T/ref" > "$T/ref.n"
			nocomm "$T/out" > "$T/out.n"
			if cmp -s "$T/ref.n" "$T/out.n"; then
				echo "note: $f.data --sort $s: only thread names differ (model)"
				continue
			fi
			diff "$T/ref" "$T/out" | head -10
			fail "prf report --sort $s differs from perf's on $f.data"
		fi
	done
done
exit 0
