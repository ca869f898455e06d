#!/bin/bash
# prf list -v/--long-desc, --details, --deprecated, --cputype and the metric/metricgroup sections against perf 6.1 (list-metrics.sh compares the metrics in depth)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup list-details

# the options add text only to entries of perf's JSON tables: for the
# symbolic and tool events perf's output is the plain one, and so is prf's
for a in "-v sw" "--long-desc hw" "--details sw" "--deprecated sw" "--details --long-desc cache" "-v tool"; do
	# shellcheck disable=SC2086
	"$PERF" list $a >"$T/perf.out" 2>&1 || fail "perf list $a failed"
	# shellcheck disable=SC2086
	"$PRF" list $a >"$T/prf.out" 2>&1 || fail "prf list $a: exit $?: $(cat "$T/prf.out")"
	cmp -s "$T/perf.out" "$T/prf.out" || fail "list $a: $(diff "$T/perf.out" "$T/prf.out" | head)"
done
grep -q "duration_time  *\[Tool event\]" <("$PRF" list -v sw) || fail "no tool events in list -v sw"

# --cputype on a machine that is not hybrid: perf's warning on stderr, the list on stdout
if [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	"$PERF" list --cputype core sw >"$T/perf.out" 2>"$T/perf.err"
	"$PRF" list --cputype core sw >"$T/prf.out" 2>"$T/prf.err" || fail "--cputype: exit $?"
	cmp -s "$T/perf.out" "$T/prf.out" && cmp -s "$T/perf.err" "$T/prf.err" ||
		fail "--cputype: $(cat "$T/prf.err")"
fi

# metric, metricgroup: as perf's (empty sections when prf was built without
# the kernel's tables and perf knows no metric for this CPU)
for a in metric metricgroup; do
	"$PRF" list $a >"$T/prf.out" 2>&1 || fail "list $a: exit $?"
	if "$PRF" version --build-options | grep -q 'pmu-events: \[ on'; then
		cmp -s <("$PERF" list $a 2>/dev/null) "$T/prf.out" || fail "list $a: $(head -5 "$T/prf.out")"
	else
		cmp -s <(printf '\n%s:\n\n' "$([ $a = metric ] && echo Metrics || echo Metric Groups)") \
			"$T/prf.out" || fail "list $a without tables: $(cat -A "$T/prf.out")"
	fi
done
"$PRF" list metric sw | grep -q "cpu-clock  *\[Software event\]" || fail "list metric sw lost sw"

# a bad option: usage, 129
"$PRF" list --bogus >"$T/out" 2>&1
rc=$?
[ $rc = 129 ] && grep -q "bogus" "$T/out" || fail "--bogus: exit $rc: $(cat "$T/out")"
exit 0
