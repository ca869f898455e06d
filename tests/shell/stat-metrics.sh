#!/bin/bash
# prf stat -M against perf 6.1 with the kernel's metric tables: on a CPU without a hardware PMU perf's event syntax error for each metric and group of this CPU, an unknown name, lists and modifiers, then the default counters and perf's exit status; the event strings perf builds (perf -v) for other models by PERF_CPUID; a metric whose events do count (a constant metric with duration_time) with its value in the metric column, human, CSV, JSON and --metric-only, and on a line of its own when the row has its usual metric (with task-clock: a rate)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-metrics
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"

"$PRF" version --build-options | grep -q 'pmu-events: \[ on' ||
	{ echo "prf built without the kernel source (linux-source-6.1): no metric tables"; exit 2; }
# with a hardware PMU perf counts the metrics' JSON events, which prf does
# not resolve: this test is about machines without one
if "$PERF" stat -e cycles true 2>&1 | grep -q "[0-9]  *cycles"; then
	echo "cycles counts here (hardware PMU): prf does not resolve JSON event aliases"
	exit 2
fi

# this CPU's metrics and groups, names perf does not know, several at
# once, a modifier, "all": the same messages, rows and exit status
names=$("$PRF" list --raw-dump metric metricgroup) || fail "list --raw-dump: exit $?"
n=0
for m in $names nosuch "nosuch,${names%% *}" "${names%% *},nosuch" "${names##* }:u" all ALL; do
	stat_both "M$m" -M "$m" true
	n=$((n + 1))
done
[ -n "$names" ] && grep -q "event syntax error" "$T/prf.M${names%% *}" || [ -z "$names" ] ||
	fail "no event syntax error for ${names%% *}: $(head -3 "$T/prf.M${names%% *}")"
grep -qx "Cannot find metric or group \`nosuch'" "$T/prf.Mnosuch" || fail "nosuch: $(head -3 "$T/prf.Mnosuch")"
grep -q "task-clock" "$T/prf.Mnosuch" || fail "no default counters after an unknown metric"

# the event strings perf builds: every 30th metric of three models, with
# their error lines (perf prints none for its own topdown-* spellings)
parsing() {
	grep -E "^Parsing metric events|syntax error|\\\\___|Cannot find|recursion" "$@"
}
for id in GenuineIntel-6-55-4 GenuineIntel-6-8F-0 AuthenticAMD-23-31-0; do
	for m in $(PERF_CPUID=$id "$PRF" list --raw-dump metric | tr ' ' '\n' | awk 'NR % 30 == 1'); do
		PERF_CPUID=$id "$PERF" stat -v -M "$m" true 2>&1 >/dev/null | parsing >"$T/perf.v"
		PERF_CPUID=$id "$PRF" stat -v -M "$m" true 2>&1 >/dev/null | parsing >"$T/prf.v"
		cmp -s "$T/perf.v" "$T/prf.v" || fail "$id -M $m: $(diff "$T/perf.v" "$T/prf.v" | cut -c1-200)"
		n=$((n + 1))
	done
done
# groups, lists with a modifier, --metric-no-group (no braces, one string)
# and --metric-no-merge (no sharing) on Skylake-X
for a in "-M TopdownL1" "-M IPC:u,CPI" "--metric-no-group -M Summary" \
	 "--metric-no-merge -M Frontend_Bound,IPC"; do
	# shellcheck disable=SC2086
	PERF_CPUID=GenuineIntel-6-55-4 "$PERF" stat -v $a true 2>&1 >/dev/null | parsing >"$T/perf.v"
	# shellcheck disable=SC2086
	PERF_CPUID=GenuineIntel-6-55-4 "$PRF" stat -v $a true 2>&1 >/dev/null | parsing >"$T/prf.v"
	cmp -s "$T/perf.v" "$T/prf.v" || fail "$a: $(diff "$T/perf.v" "$T/prf.v" | cut -c1-200)"
	n=$((n + 1))
done
[ $n -gt 25 ] || fail "only $n metric runs compared"

# Haswell's L3_Cache_Access_BW_1T is the constant 0: perf counts only
# duration_time for it, and prints the metric's value on that row
export PERF_CPUID=GenuineIntel-6-3C-1
for o in "" "-x," "-j" "--metric-only" "-x, --metric-only"; do
	# shellcheck disable=SC2086
	stat_both "c$o" $o -M L3_Cache_Access_BW_1T true
done
grep -q "duration_time  *#  *0.00 L3_Cache_Access_BW_1T" "$T/prf.c" || fail "value: $(cat "$T/prf.c")"

# with task-clock, duration_time's row has its usual rate: perf prints the
# metric on a line of its own under the metric column (CSV: empty fields,
# JSON: a record with the metric only; -r's noise after it; --metric-only
# a column); byte for byte on the metric's lines
for o in "" "-x," "-j" "-r 2" "-a -A" "-I 100" "-x, -I 100" "-j -I 100" "--metric-only" \
	 "-x, --metric-only"; do
	tag="x${o// /}"
	# shellcheck disable=SC2086
	stat_both "$tag" $o -e task-clock -M L3_Cache_Access_BW_1T sleep 0.15
	grep "L3_Cache" "$T/perf.$tag" | sed -E 's/^ *[0-9]+\.[0-9]+//; s/\+- *[0-9.]+%/+- N%/; s/"interval" : [0-9.]+/"interval" : N/' > "$T/perf.line"
	grep "L3_Cache" "$T/prf.$tag" | sed -E 's/^ *[0-9]+\.[0-9]+//; s/\+- *[0-9.]+%/+- N%/; s/"interval" : [0-9.]+/"interval" : N/' > "$T/prf.line"
	[ -s "$T/prf.line" ] || fail "stat $o: no metric line: $(cat "$T/prf.$tag")"
	cmp -s "$T/perf.line" "$T/prf.line" ||
		fail "stat $o: metric line: $(diff "$T/perf.line" "$T/prf.line" | cat -A)"
done
grep -qx ' \{50\}#     0.00 L3_Cache_Access_BW_1T  ' "$T/prf.x" || fail "line: $(cat -A "$T/prf.x")"
exit 0
