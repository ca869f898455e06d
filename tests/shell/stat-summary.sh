#!/bin/bash
# prf stat --summary/--no-csv-summary with -I, --table with -r, --metric-only as perf 6.1 (layout with digits masked, field counts, usage errors)
# prf-test: serial: -I and --table measure time
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-summary
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"


# -I --summary: the intervals, then the whole run's block; CSV/JSON rows
# of that block start with "summary" (not with --no-csv-summary)
stat_both sum -e task-clock -I 100 --interval-count 2 --summary sleep 0.3
grep -q "Performance counter stats for 'sleep 0.3':" "$T/prf.sum" || fail "no summary block"
# --interval-count ends the intervals, not the command (as perf): the
# block covers the whole 0.3 s
el=$(awk '/seconds time elapsed/ { print $1 }' "$T/prf.sum")
awk -v e="$el" 'BEGIN { exit !(e >= 0.29) }' || fail "summary elapsed $el, want the command's 0.3 s"
stat_both sumx -e task-clock,page-faults -I 100 --interval-count 2 --summary -x, sleep 0.3
[ "$(grep -c '^ *summary,' "$T/prf.sumx")" = 2 ] || fail "summary rows: $(cat "$T/prf.sumx")"
awk -F, '{ print NF }' "$T/prf.sumx" | sort -u | tr '\n' ' ' | grep -qx "8 " || fail "CSV field counts"
stat_both sumnx -e task-clock,page-faults -I 100 --interval-count 2 --summary --no-csv-summary -x, sleep 0.3
grep -q summary "$T/prf.sumnx" && fail "--no-csv-summary printed summary"
stat_both sumj -e task-clock,page-faults -I 100 --interval-count 2 --summary -j sleep 0.3
python3 - "$T/prf.sumj" <<'EOP' || fail "JSON summary: $(cat "$T/prf.sumj")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
tail = rows[-2:]
assert all("interval" not in r for r in tail), tail
assert [r["event"] for r in tail] == ["task-clock", "page-faults"], tail
assert all("interval" in r for r in rows[:-2]), rows
EOP
stat_both sumx1 -e task-clock --summary -x, true

# --table with -r: the elapsed time of each run and the final result
stat_both table -e task-clock -r 4 --table sleep 0.01
[ "$(grep -cE '^ +[0-9.]+ \([-+][0-9.]+\) #+$' "$T/prf.table")" = 4 ] || fail "table rows: $(cat "$T/prf.table")"
grep -q "# Final result:" "$T/prf.table" || fail "no final result"
"$PRF" stat -e task-clock --table true 2>"$T/err"; rc=$?
[ $rc = 129 ] || fail "--table without -r: exit $rc"
grep -qx "prf stat: --table is only supported with -r" "$T/err" || fail "--table: $(cat "$T/err")"

# --metric-only: one line of metrics (none of rates or CPU use; an empty
# cell per event without a value), human, CSV, JSON, -I
stat_both mo -e task-clock,page-faults --metric-only true
stat_both mod --metric-only true
stat_both mox -e cycles,instructions,task-clock --metric-only -x, true
stat_both moj -e cycles,instructions,task-clock --metric-only -j true
stat_both moi -e cycles,task-clock --metric-only -I 100 --interval-count 2 sleep 0.3
stat_both moix -e cycles,task-clock --metric-only -I 100 --interval-count 2 -x, sleep 0.3
"$PRF" stat -e task-clock --metric-only -r 2 true 2>"$T/err"; rc=$?
[ $rc = 129 ] || fail "--metric-only -r: exit $rc"
grep -qx "prf stat: --metric-only is not supported with -r" "$T/err" || fail "--metric-only -r: $(cat "$T/err")"
exit 0
