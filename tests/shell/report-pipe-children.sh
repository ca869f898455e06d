#!/bin/bash
# prf report on pipe input shows what perf 6.1 shows: no children column (not even with --children, the events are unknown when perf decides), callchains in caller order unless -g says otherwise or --no-children
# perf record -g -o - streams of a program with a known call tree (perf's
# and prf's) are read by perf report and prf report with the same options,
# as a file path and on stdin, and compared entry by entry
# (lib/report-compare.py). Before, prf showed Children/Self columns on
# pipe input.
set -u
. "$PRF_SRCDIR/tests/shell/lib/report.sh"
test_setup report-pipe-children
cc_prog tree -g

"$PERF" record -q -F 999 -g -o - -- "$T/tree" 60000 2>/dev/null > "$T/perf-pipe.data" ||
	{ echo "perf record -o - failed (perf_event_paranoid?)"; exit 2; }
"$PRF" record -q -F 999 -g -o - -- "$T/tree" 60000 2>"$T/rec.err" > "$T/prf-pipe.data" ||
	{ cat "$T/rec.err"; fail "prf record -o - exited $?"; }

for f in perf-pipe prf-pipe; do
	for opts in "" "--children" "--no-children" "-g caller" "-g callee" "-G" "-n -s dso,sym"; do
		# shellcheck disable=SC2086
		report_check "$T/$f.data" $opts
	done
	grep -q '^# Overhead ' "$T/prf.out" || fail "$f: no Overhead column header"
	grep -q '^# Children ' "$T/prf.out" && fail "$f: a Children column on pipe input"
	# on stdin, as a real pipe
	"$PERF" report -i - --stdio < "$T/$f.data" > "$T/perf.stdin" 2>/dev/null || fail "perf report -i -"
	cat "$T/$f.data" | "$PRF" report -i - --stdio > "$T/prf.stdin" 2>"$T/prf.err"
	st=${PIPESTATUS[1]}
	[ "$st" -eq 0 ] || { cat "$T/prf.err"; fail "prf report -i - on a pipe exited $st"; }
	python3 "$REPORT_COMPARE" "$T/perf.stdin" "$T/prf.stdin" ||
		fail "$f on stdin: prf report differs from perf report"
done
exit 0
