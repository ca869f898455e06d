#!/bin/bash
# prf stat --summary/--no-csv-summary with -I, --table with -r, --metric-only as perf 6.1 (layout with digits masked, field counts, usage errors)
# prf-test: serial (-I and --table measure time)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-summary

# mask: numbers -> N (with the spaces before them; --table's signs, bars
# and indent too), so two runs compare
mask() { sed -e 's/[0-9][0-9]*/N/g' -e 's/  *N/ N/g' -e 's/##*$/#/' -e 's/^ *#/ #/' -e 's/([-+]N/(N/' "$@"; }
same() {	# same NAME PERF-FILE PRF-FILE
	diff <(mask "$2") <(mask "$3") >"$T/diff" || fail "$1 differs from perf: $(cat "$T/diff")"
}
# both TAG ARG...: perf and prf stat ARG... into $T/perf.TAG / $T/prf.TAG (stderr)
both() {
	local tag=$1
	shift
	"$PERF" stat "$@" 2>"$T/perf.$tag" || fail "perf stat $*: exit $?"
	"$PRF" stat "$@" 2>"$T/prf.$tag" || fail "prf stat $*: exit $? $(cat "$T/prf.$tag")"
	same "stat $*" "$T/perf.$tag" "$T/prf.$tag"
}

# -I --summary: the intervals, then the whole run's block; CSV/JSON rows
# of that block start with "summary" (not with --no-csv-summary)
both sum -e task-clock -I 100 --summary sleep 0.25
grep -q "Performance counter stats for 'sleep 0.25':" "$T/prf.sum" || fail "no summary block"
both sumx -e task-clock,page-faults -I 100 --summary -x, sleep 0.25
[ "$(grep -c '^ *summary,' "$T/prf.sumx")" = 2 ] || fail "summary rows: $(cat "$T/prf.sumx")"
awk -F, '{ print NF }' "$T/prf.sumx" | sort -u | tr '\n' ' ' | grep -qx "8 " || fail "CSV field counts"
both sumnx -e task-clock,page-faults -I 100 --summary --no-csv-summary -x, sleep 0.25
grep -q summary "$T/prf.sumnx" && fail "--no-csv-summary printed summary"
both sumj -e task-clock,page-faults -I 100 --summary -j sleep 0.25
python3 - "$T/prf.sumj" <<'EOP' || fail "JSON summary: $(cat "$T/prf.sumj")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
tail = rows[-2:]
assert all("interval" not in r for r in tail), tail
assert [r["event"] for r in tail] == ["task-clock", "page-faults"], tail
assert all("interval" in r for r in rows[:-2]), rows
EOP
both sumx1 -e task-clock --summary -x, true

# --table with -r: the elapsed time of each run and the final result
both table -e task-clock -r 4 --table sleep 0.01
[ "$(grep -cE '^ +[0-9.]+ \([-+][0-9.]+\) #+$' "$T/prf.table")" = 4 ] || fail "table rows: $(cat "$T/prf.table")"
grep -q "# Final result:" "$T/prf.table" || fail "no final result"
"$PRF" stat -e task-clock --table true 2>"$T/err"; rc=$?
[ $rc = 129 ] || fail "--table without -r: exit $rc"
grep -qx "prf stat: --table is only supported with -r" "$T/err" || fail "--table: $(cat "$T/err")"

# --metric-only: one line of metrics (none of rates or CPU use; an empty
# cell per event without a value), human, CSV, JSON, -I
both mo -e task-clock,page-faults --metric-only true
both mod --metric-only true
both mox -e cycles,instructions,task-clock --metric-only -x, true
both moj -e cycles,instructions,task-clock --metric-only -j true
both moi -e cycles,task-clock --metric-only -I 100 sleep 0.15
both moix -e cycles,task-clock --metric-only -I 100 -x, sleep 0.15
"$PRF" stat -e task-clock --metric-only -r 2 true 2>"$T/err"; rc=$?
[ $rc = 129 ] || fail "--metric-only -r: exit $rc"
grep -qx "prf stat: --metric-only is not supported with -r" "$T/err" || fail "--metric-only -r: $(cat "$T/err")"
exit 0
