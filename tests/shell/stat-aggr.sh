#!/bin/bash
# prf stat -d/-dd/-ddd detailed cache event sets and --per-core/--per-socket/--per-die/--per-node aggregation (sysfs topology, -A kept) as perf 6.1, human/CSV/JSON/-I
# prf-test: serial: system-wide counting
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-aggr
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"


# -d, -dd, -ddd: perf's cache events after the others (<not supported>
# without a PMU, exit status 0); also after -e events
stat_both d -e task-clock -d true
stat_both dd -e task-clock -dd true
stat_both ddd -e task-clock,page-faults -ddd -x, true
"$PRF" stat -ddd true 2>"$T/prf.def" || fail "-ddd: exit $?"
"$PERF" stat -ddd true 2>"$T/perf.def"
diff <(awk '{ print $NF }' "$T/perf.def" | grep -e cache -e TLB -e LLC) \
	<(awk '{ print $NF }' "$T/prf.def" | grep -e cache -e TLB -e LLC) >"$T/diff" ||
	fail "-ddd events: $(cat "$T/diff")"
[ "$(grep -c -e cache -e TLB -e LLC "$T/prf.def")" = 12 ] || fail "-ddd: $(cat "$T/prf.def")"

# the rows perf's topology gives this machine, from sysfs
cores=$(for c in /sys/devices/system/cpu/cpu[0-9]*/topology; do
	echo "S$(cat "$c/physical_package_id")-D$(cat "$c/die_id" 2>/dev/null || echo 0)-C$(cat "$c/core_id")"
done | sort -u | tr '\n' ' ')
for agg in --per-core --per-socket --per-die --per-node; do
	stat_both "h$agg" -e task-clock,page-faults $agg -a sleep 0.1
	stat_both "x$agg" -e task-clock,duration_time $agg -x, -a sleep 0.1
	stat_both "j$agg" -e task-clock $agg -j -a sleep 0.1
	stat_both "i$agg" -e task-clock $agg -I 100 --interval-count 2 -a sleep 0.3
	stat_both "A$agg" -e task-clock $agg -A -a sleep 0.1
done
got=$(awk -F, '$5 == "task-clock" { print $1 }' "$T/prf.x--per-core" | sort -u | tr '\n' ' ')
[ "$got" = "$cores" ] || fail "--per-core rows '$got', sysfs '$cores'"
grep -q '^CPU' "$T/prf.A--per-core" || fail "-A not kept with --per-core: $(cat "$T/prf.A--per-core")"
python3 - "$T/prf.j--per-node" <<'EOP' || fail "--per-node JSON: $(cat "$T/prf.j--per-node")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert rows and all(r["node"].startswith("N") and r["aggregate-number"] >= 1 for r in rows), rows
EOP
# -C: only the rows of those cpus
stat_both C1 -e task-clock --per-core -C 0 sleep 0.1
[ "$(grep -c task-clock "$T/prf.C1")" = 1 ] || fail "--per-core -C 0: $(cat "$T/prf.C1")"

# without -a/-C: a usage error
"$PRF" stat --per-core true 2>"$T/err"; rc=$?
[ $rc = 129 ] || fail "--per-core without -a: exit $rc"
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "system-wide mode" "$T/err" || fail "--per-core: $(cat "$T/err")"
exit 0
