#!/bin/bash
# prf stat groups and weak groups {..}:W where the PMU lacks events, EINVAL events (<not supported>), PMU aliases with modifiers, an unknown -M name and --topdown without topdown events: rows, messages and exit statuses against perf 6.1
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-weak-groups
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"

# a hardware PMU would count cycles: this test is about machines without one
if "$PERF" stat -e cycles true 2>&1 | grep -q "[0-9]  *cycles"; then
	echo "cycles counts here (hardware PMU): nothing to compare"
	exit 2
fi
[ -e /sys/bus/event_source/devices/msr/events/tsc ] && msr=1 || msr=0

# rows and exit status as perf's (numbers masked)
for e in '{cpu-clock,cycles}' '{cpu-clock,cycles}:W' 'cycles:W' '{cpu-clock,page-faults}:W' \
	'{page-faults,cpu-clock,instructions}:W'; do
	stat_both "g$e" -e "$e" true
done
grep -q "<not counted> msec cpu-clock" "$T/prf.g{cpu-clock,cycles}:W" ||
	fail "a group with an unsupported member counts: $(cat "$T/prf.g{cpu-clock,cycles}:W")"
if [ $msr = 1 ]; then
	for e in tsc:u msr/tsc/u '{cpu-clock,msr/tsc/u}' tsc; do
		stat_both "m$e" -e "$e" true
	done
	grep -q "<not supported>      tsc:u" "$T/prf.mtsc:u" || fail "tsc:u: $(cat "$T/prf.mtsc:u")"
fi

# an unsupported group leader: the run stops with the reason (perf: exit 255)
for e in '{cycles,instructions}' '{cycles,instructions}:W' '{cycles,cpu-clock}'; do
	"$PRF" stat -e "$e" true >"$T/out" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "^Error:" "$T/out" && grep -q "cycles event is not supported" "$T/out" &&
		! grep -q "Performance counter stats" "$T/out" || fail "$e: exit $rc: $(cat "$T/out")"
	"$PERF" stat -e "$e" true >/dev/null 2>&1 && fail "perf counts $e?"
done

# -M: perf's line for an unknown name, counting goes on (stat-metrics.sh has the rest)
for a in "-M nosuch,other -e page-faults" "-M nosuch"; do
	# shellcheck disable=SC2086
	stat_both "M$a" $a true
	grep -qx "Cannot find metric or group \`nosuch'" "$T/prf.M$a" || fail "-M: $(cat "$T/prf.M$a")"
done

# --topdown without topdown events
if [ ! -e /sys/bus/event_source/devices/cpu/events/topdown-retiring ] &&
   [ ! -e /sys/bus/event_source/devices/cpu/events/topdown-total-slots ]; then
	for a in "--topdown true:129" "--topdown --td-level 2 true:129" "-a --topdown sleep 0.1:1"; do
		want=${a##*:}
		a=${a%:*}
		# shellcheck disable=SC2086
		"$PERF" stat $a >/dev/null 2>"$T/perf.td"
		# shellcheck disable=SC2086
		"$PRF" stat $a >/dev/null 2>"$T/prf.td"
		rc=$?
		[ $rc = "$want" ] && cmp -s "$T/perf.td" "$T/prf.td" ||
			fail "stat $a: exit $rc: $(diff "$T/perf.td" "$T/prf.td")"
	done
fi
# topdown event names are syntax errors here (usage: 129)
for e in topdown-retiring '{slots,topdown-retiring}:W'; do
	"$PRF" stat -e "$e" true >"$T/out" 2>&1
	rc=$?
	[ $rc = 129 ] && grep -q "event syntax error" "$T/out" || fail "-e $e: exit $rc: $(cat "$T/out")"
done
exit 0
