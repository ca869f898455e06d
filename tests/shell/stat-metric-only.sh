#!/bin/bash
# prf stat --metric-only with -A and --per-core/-die/-socket/-node (human and CSV, with -I too) against perf 6.1: header indent or names, row labels, one cell per event of a metric kind; --per-thread refused as perf
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-metric-only
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"

# the events: software only, with unsupported hardware ones (empty cells,
# "Ghz" without a clock), a PMU alias where the msr PMU has it
sets="cpu-clock,page-faults cpu-clock,cycles,instructions,page-faults,branch-misses cycles,page-faults"
sets="$sets cpu-clock,L1-dcache-load-misses"
[ -e /sys/bus/event_source/devices/msr/events/tsc ] && sets="$sets msr/tsc/,cycles"
n=0
compare() {	# compare MODE-ARGS EVENT-SETS...
	local a=$1 e
	shift
	for e in "$@"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		stat_both "m$n" -a $a --metric-only -e "$e" sleep 0.01
	done
}
for a in "-A" "--per-core" "--per-socket" "--per-die" "--per-node"; do
	# shellcheck disable=SC2086
	compare "$a" $sets
done
for a in "-A -x," "--per-core -x," "--per-socket -x," "--per-die -x," "--per-node -x,"; do
	compare "$a" cpu-clock,cycles,instructions,page-faults,branch-misses cycles,page-faults
done
for a in "-A -I 10 --interval-count 1" "-A -x, -I 10 --interval-count 1" \
	"--per-socket -I 10 --interval-count 1"; do
	compare "$a" cpu-clock,cycles,instructions,page-faults,branch-misses
done
# the -A header names the cells of the metric kinds, as perf
grep -q "GHz  *insn per cycle branch-misses of all branches" "$T"/prf.m* ||
	fail "no -A metric-only header with cell names"
grep -qx "cpu,Ghz," "$T"/prf.m* || fail "no CSV -A header without a clock"

# --per-thread: refused as perf refuses it; -j with per-row modes: not yet (both 129)
for a in "--per-thread -p $$" "-a -A -j"; do
	# shellcheck disable=SC2086
	"$PRF" stat $a --metric-only -e cpu-clock sleep 0.05 >"$T/out" 2>&1
	rc=$?
	[ $rc = 129 ] && grep -q "metric-only" "$T/out" || fail "$a --metric-only: exit $rc: $(cat "$T/out")"
done
exit 0
