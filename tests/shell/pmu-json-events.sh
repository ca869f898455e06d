#!/bin/bash
# JSON events of a core PMU as -e names: a fake Intel "cpu" PMU (type 4 and the format/ bits an Intel kernel exposes) bind-mounted over the kernel's PMU directory in a mount namespace, PERF_CPUID=GenuineIntel-6-55-4 (Skylake-X); for each spelling (lower and upper case, cpu/NAME/, modifiers, offcore_rsp/ldlat/frontend, cmask/inv/edge/any, -c and -F against the event's period, extra terms, a metric's NAME/metric-id=.../) prf record --dry-run -v shows the attr perf record -vv builds, and prf stat prints perf's rows and errors, also for -M --metric-no-group; without the PMU the errors stay perf's; and the attr rules of modifiers, -c, -P and -F against perf record -vv on events that open here
set -u
. "$PRF_SRCDIR/tests/shell/lib/fakepmu.sh"
fakepmu_setup pmu-json-events

# every perf_event_attr block of perf record -vv, one line each
perf_attr_all() {
	awk '/^perf_event_attr:/ { on = 1; s = ""; next }
	     on && /^-----/ { print s; on = 0 }
	     on { k = substr($0, 3, 32); sub(/ +$/, "", k)
		  s = s (s == "" ? "" : ", ") k ": " substr($0, 36) }'
}

n=0
# attr EVENT [RECORD OPTION...]: the same attr from perf and from prf
attr() {
	fakepmu_attr "$@"
	cmp -s "$T/perf.attr" "$T/prf.attr" ||
		fail "$*: attr differs: perf $(cat "$T/perf.attr") / prf $(cat "$T/prf.attr")"
	n=$((n + 1))
}
attr inst_retired.any
attr INST_RETIRED.ANY
attr Inst_Retired.Any:u
attr cpu/inst_retired.any/
attr cpu/inst_retired.any/k
attr cpu/inst_retired.any,period=5000/
attr cpu/inst_retired.any,name=retired/
attr inst_retired.any/metric-id=inst_retired.any/
attr inst_retired.any -c 1000
# period=/freq= terms and the alias's own period: the terms in their order
# (the alias after a NAME/terms/ event's terms), -c over the alias's
attr cpu/period=5000,inst_retired.any/ -F 99
attr cpu/freq=50,inst_retired.any/ -c 1000
attr inst_retired.any/period=5000/ -F 99
attr inst_retired.any/freq=50/
attr inst_retired.any -F 99
attr br_misp_retired.all_branches:pp
attr offcore_response.demand_data_rd.any_response
attr mem_trans_retired.load_latency_gt_4
attr frontend_retired.dsb_miss
attr cpu_clk_unhalted.thread_any
attr uops_retired.stall_cycles
attr uops_issued.stall_cycles
attr machine_clears.count
attr inst_retired.total_cycles_ps
attr mem-loads
attr cpu/event=0x3c,umask=0x1,cmask=2,inv/
# a group: the leader as perf's (perf stops at its failure), the member
# with the encoding it has alone
attr '{inst_retired.any,uops_issued.stall_cycles}'
fakepmu "$PRF" record --dry-run -v -e '{inst_retired.any,uops_issued.stall_cycles}:u' true \
	> "$T/group" || fail "group: exit $?"
grep -q '^uops_issued.stall_cycles: type: 4, size: 128, config: 0x180010e, ' "$T/group" ||
	fail "group member: $(cat "$T/group")"
grep -c 'exclude_kernel: 1' "$T/group" | grep -qx 2 || fail "group modifier: $(cat "$T/group")"

# the attr rules those rely on, on events that open here: an event's own
# k/h modifiers leave the guest counted (u and p exclude it, a group's
# modifiers keep what its events have), -c drops PERIOD from the samples,
# -P keeps it, -F wins over a tracepoint's period of 1; each event's attr
# as perf record -vv prints them (the side-band's is left out)
# (perf record takes a second to end whatever it records, most of it
# asleep: its runs go in the background, 16 at a time, compared after)
cases=()
for ev in cpu-clock:k cpu-clock:h cpu-clock:ku cpu-clock:kG software/config=0/k \
	  '{cpu-clock,task-clock}:k' '{cpu-clock:k,task-clock}:u' sched:sched_switch:k; do
	for o in "" "-c 100000" "-F 50" "-c 100000 -P"; do
		cases+=("$ev|$o")
	done
done
for ((i = 0; i < ${#cases[@]}; i++)); do
	ev=${cases[i]%%|*} o=${cases[i]#*|}
	# shellcheck disable=SC2086
	"$PERF" record -vv $o -e "$ev" -o "$T/perf.$i.data" true > "$T/perf.$i.out" 2>&1 &
	[ $((i % 16)) -eq 15 ] && wait
done
wait
for ((i = 0; i < ${#cases[@]}; i++)); do
	ev=${cases[i]%%|*} o=${cases[i]#*|}
	# shellcheck disable=SC2086
	"$PRF" record --dry-run -v $o -e "$ev" true > "$T/prf.out" 2>&1 || fail "$ev $o: exit $?"
	sed 's/^.*: type: /type: /' "$T/prf.out" > "$T/prf.attr"
	awk -v n="$(wc -l < "$T/prf.out")" '/^perf_event_attr:/ { if (++k > n) exit }
		{ print }' "$T/perf.$i.out" | perf_attr_all > "$T/perf.attr"
	cmp -s "$T/perf.attr" "$T/prf.attr" ||
		fail "$ev $o: attr differs: $(diff "$T/perf.attr" "$T/prf.attr")"
	n=$((n + 1))
done

# stat: the rows perf prints for events that cannot count here, names as
# typed, and the metric of JSON events (not grouped, so each row is there)
stat_rows() {
	grep -vE "seconds (time elapsed|user|sys)|^$" "$1" | sed -E 's/^ +[0-9]+ ns +duration_time.*/duration_time/'
}
# (only where the fake events cannot count: a real core PMU would count
# them, each run its own numbers)
"$PERF" stat -e cycles true 2>&1 | grep -q "[0-9]  *cycles" && { echo "$n cases as perf's"; exit 0; }
for a in "-e inst_retired.any,INST_RETIRED.ANY:u,cpu/uops_retired.stall_cycles/" \
	 "-e {inst_retired.any,cycles}:W" "--metric-no-group -M IPC" "--metric-no-group -M CPI" \
	 "-e inst_retired.any/foo=1/" "-e cpu/inst_retired.any,bar/"; do
	# shellcheck disable=SC2086
	fakepmu "$PERF" stat $a true > "$T/perf.stat" 2>&1
	pst=$?
	# shellcheck disable=SC2086
	fakepmu "$PRF" stat $a true > "$T/prf.stat" 2>&1
	st=$?
	[ "$pst" -eq 0 ] || [ "$pst" -eq 129 ] || [ "$pst" -eq 255 ] || fail "perf stat $a: exit $pst"
	[ $((pst == 0)) -eq $((st == 0)) ] || fail "stat $a: exit $st, perf's $pst: $(head -5 "$T/prf.stat")"
	if [ "$pst" -eq 0 ]; then
		cmp -s <(stat_rows "$T/perf.stat") <(stat_rows "$T/prf.stat") ||
			fail "stat $a: $(diff <(stat_rows "$T/perf.stat") <(stat_rows "$T/prf.stat"))"
	else
		# the same error line (perf's says perf)
		cmp -s <(head -3 "$T/perf.stat") <(head -3 "$T/prf.stat" | sed 's/prf list/perf list/') ||
			fail "stat $a: $(diff <(head -3 "$T/perf.stat") <(head -3 "$T/prf.stat"))"
	fi
	n=$((n + 1))
done

# without a core PMU (this machine's own directory, if it has none) the
# JSON names stay unknown: perf's "Cannot find PMU" for a metric's events
if [ ! -e "$DEVS/cpu" ]; then
	"$PERF" stat -e 'inst_retired.any/metric-id=inst_retired.any/' true > "$T/perf.np" 2>&1
	"$PRF" stat -e 'inst_retired.any/metric-id=inst_retired.any/' true > "$T/prf.np" 2>&1 &&
		fail "no PMU: prf exit 0"
	cmp -s <(head -3 "$T/perf.np") <(head -3 "$T/prf.np" | sed 's/prf list/perf list/') ||
		fail "no PMU: $(diff <(head -3 "$T/perf.np") <(head -3 "$T/prf.np"))"
	grep -q "Cannot find PMU \`inst_retired.any'" "$T/prf.np" || fail "no PMU: $(head -3 "$T/prf.np")"
	n=$((n + 1))
fi
echo "$n cases as perf's"
