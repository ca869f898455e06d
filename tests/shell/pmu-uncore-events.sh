#!/bin/bash
# Uncore JSON events as perf 6.1 takes them: the fake Intel "cpu" PMU plus two instances each of uncore_imc and uncore_cha (type, format/, cpumask, events/ with .scale/.unit) bind-mounted over the kernel's PMU directory, PERF_CPUID=GenuineIntel-6-55-4 (Skylake-X); an alias, NAME/terms/, pmu/terms/ with an abbreviated PMU name and groups make an evsel per instance: the attr perf record -vv prints and the types perf stat -vv opens against prf record --dry-run -v, the cpus (pid, cpu) each is opened on against prf stat -v, and the stat rows (merged, --no-merge, -A, -C, CSV, JSON), errors and exit status classes, and -M metrics on uncore events, against perf stat; a software PMU alias with .scale/.unit counts scaled
set -u
. "$PRF_SRCDIR/tests/shell/lib/fakepmu.sh"
fakepmu_setup pmu-uncore-events
fakepmu_uncore

n=0
# attr EVENT [RECORD OPTION...]: perf's attr of the first event (perf stops
# there) is prf's first evsel's but for the type (perf takes the PMUs in
# its directory order, prf in name order); the types of all of them (perf
# stat -vv opens each) are prf's
attr() {
	local ev=$1
	fakepmu_attr "$@"
	sed -i -E 's/^type: [0-9]+, //' "$T/perf.attr" "$T/prf.attr"
	shift
	cmp -s "$T/perf.attr" "$T/prf.attr" ||
		fail "$ev $*: attr differs: perf $(cat "$T/perf.attr") / prf $(cat "$T/prf.attr")"
	n=$((n + 1))
	# (a group stops perf stat at its leader)
	fakepmu "$PERF" stat -vv -e "$ev" true > "$T/perf.stat" 2>&1 || return 0
	awk '$1 == "type" { print $2 }' "$T/perf.stat" | sort > "$T/perf.types"
	grep -o ': type: [0-9]*' "$T/prf.out" | awk '{ print $3 }' | sort > "$T/prf.types"
	cmp -s "$T/perf.types" "$T/prf.types" ||
		fail "$ev: types: perf $(tr '\n' ' ' < "$T/perf.types") prf $(tr '\n' ' ' < "$T/prf.types")"
}
attr unc_m_cas_count.rd
attr UNC_M_CAS_COUNT.RD:u
attr unc_cha_clockticks
attr llc_misses.mem_read
attr unc_m_cas_count.rd -c 1000
attr unc_m_cas_count.rd/period=7/
attr unc_cha_clockticks/name=x,thresh=2/
attr uncore_imc/cas_count_read/
attr imc/event=1,umask=2/
attr cha/unc_cha_imc_reads_count.normal,filter_state=3/
attr cas_count_read
attr uncore_imc_0/unc_m_cas_count.rd/
attr '{unc_m_cas_count.rd,unc_m_cas_count.wr}'
attr 'unc_m_cas_count.rd,cpu-clock'
# a group per PMU, each in the group's order, with the group's modifier
fakepmu "$PRF" record --dry-run -v -e '{unc_m_cas_count.rd,unc_m_cas_count.wr}:u' true > "$T/group" ||
	fail "group: exit $?"
[ "$(grep -o '^[^:]*: type: [0-9]*' "$T/group" | tr '\n' ' ')" = "unc_m_cas_count.rd: type: 14 unc_m_cas_count.wr: type: 14 unc_m_cas_count.rd: type: 15 unc_m_cas_count.wr: type: 15 " ] ||
	fail "group: $(cat "$T/group")"
[ "$(grep -c 'exclude_kernel: 1' "$T/group")" = 4 ] || fail "group modifier: $(cat "$T/group")"

# where each evsel opens: perf stat -vv's sys_perf_event_open lines, prf
# stat -v's failures (the task's pid as "task"; every open fails here)
opens() {
	fakepmu "$PERF" stat -vv "$@" true 2>&1 | grep -o 'sys_perf_event_open: pid [-0-9]*  cpu [-0-9]*' |
		awk '{ print ($3 == -1 ? -1 : "task"), $5 }' | sort > "$T/perf.opens"
	fakepmu "$PRF" stat -v "$@" true 2>&1 | grep -o '^perf_event_open(.*, pid [-0-9]*, cpu [-0-9]*' |
		sed -E 's/.*pid ([-0-9]*), cpu ([-0-9]*)$/\1 \2/' |
		awk '{ print ($1 == -1 ? -1 : "task"), $2 }' | sort > "$T/prf.opens"
	[ -s "$T/perf.opens" ] || fail "opens $*: none from perf"
	cmp -s "$T/perf.opens" "$T/prf.opens" ||
		fail "opens $*: perf $(tr '\n' ' ' < "$T/perf.opens") prf $(tr '\n' ' ' < "$T/prf.opens")"
	n=$((n + 1))
}
opens -e unc_m_cas_count.rd
opens -a -e unc_m_cas_count.rd,unc_cha_clockticks
opens -C 1 -e unc_m_cas_count.rd

# stat: perf's rows, sorted (perf goes through the PMU directory in its
# order, prf in name order), with the values that vary left out
stat_rows() {
	grep -vE "seconds (time elapsed|user|sys)|^$" "$1" |
		sed -E 's/^ *[0-9]+( ns +duration_time)/N\1/; s/^([0-9.]+),ns,duration_time,[0-9]+/N,ns,duration_time,N/;
			s/"counter-value" : "[0-9.]+", "unit" : "ns", "event" : "duration_time", "event-runtime" : [0-9]+/duration_time/' |
		sort
}
for a in "-e unc_m_cas_count.rd" "--no-merge -e unc_m_cas_count.rd" "-e UNC_M_CAS_COUNT.RD:u,unc_cha_clockticks" \
	 "--no-merge -e unc_m_cas_count.rd:u,unc_m_cas_count.rd/name=y/,unc_cha_clockticks" \
	 "-e uncore_imc/cas_count_read/,imc/cas_count_write/" "--no-merge -e imc/cas_count_read/,cas_count_read" \
	 "-x, -e unc_m_cas_count.rd,llc_misses.mem_read" "-x, --no-merge -e unc_m_cas_count.rd" \
	 "-j -e unc_m_cas_count.rd,cas_count_read" "-a -A -e unc_m_cas_count.rd" "-a -A --no-merge -e unc_cha_clockticks" \
	 "-C 0,1 -A -e unc_m_cas_count.rd" "-e unc_m_cas_count.rd,unc_m_cas_count.rd" "-e unc_m_cas_count.rd,duration_time" \
	 "-e {unc_m_cas_count.rd}" "-e {unc_m_cas_count.rd,unc_m_cas_count.wr}" "-e {unc_m_cas_count.rd,unc_m_cas_count.wr}:W" \
	 "--no-merge -e inst_retired.any,cpu/event=1/,cpu/event=1,name=x/,uncore_imc_0/event=1/" \
	 "--metric-no-group -M memory_bandwidth_total" "-M memory_bandwidth_total" "-M uncore_frequency" \
	 "--metric-no-group -M DRAM_BW_Use" "-M MEM_Read_Latency" \
	 "--metric-no-group -M llc_data_read_mpi_demand_plus_prefetch"; do
	# shellcheck disable=SC2086
	fakepmu "$PERF" stat $a true > "$T/perf.stat" 2>&1
	pst=$?
	# shellcheck disable=SC2086
	fakepmu "$PRF" stat $a true > "$T/prf.stat" 2>&1
	st=$?
	[ "$pst" -eq 0 ] || [ "$pst" -eq 255 ] || fail "perf stat $a: exit $pst"
	[ $((pst == 0)) -eq $((st == 0)) ] || fail "stat $a: exit $st, perf's $pst: $(head -5 "$T/prf.stat")"
	cmp -s <(stat_rows "$T/perf.stat") <(stat_rows "$T/prf.stat") ||
		fail "stat $a: $(diff <(stat_rows "$T/perf.stat") <(stat_rows "$T/prf.stat"))"
	n=$((n + 1))
done

# an alias's .scale and .unit on a PMU that counts here (software's type,
# page-faults): the scaled value with two decimals, the unit column as wide
# as its unit, the metric of the scaled value; the digits left out
mkdir -p "$T/pmus/swfake/events"
echo 1 > "$T/pmus/swfake/type"
echo 'config=2' > "$T/pmus/swfake/events/pf"
echo 0.5 > "$T/pmus/swfake/events/pf.scale"
echo halves > "$T/pmus/swfake/events/pf.unit"
echo 'config=7' > "$T/pmus/swfake/events/dummy0"
echo 3 > "$T/pmus/swfake/events/dummy0.scale"
shape() {
	grep -vE "seconds (time elapsed|user|sys)|^$" "$1" | awk '{ print length($0) }' | tr '\n' ' '
	grep -vE "seconds (time elapsed|user|sys)|^$" "$1" | sed -E 's/[0-9]+\.[0-9]+|[0-9]+/N/g; s/ +/ /g'
}
for a in "-e swfake/pf/,pf,swfake/dummy0/,cpu-clock" "-x, -e swfake/pf/,swfake/dummy0/"; do
	# shellcheck disable=SC2086
	fakepmu "$PERF" stat $a true > "$T/perf.stat" 2>&1 || fail "perf stat $a: exit $?"
	# shellcheck disable=SC2086
	fakepmu "$PRF" stat $a true > "$T/prf.stat" 2>&1 || fail "prf stat $a: exit $?"
	cmp -s <(shape "$T/perf.stat") <(shape "$T/prf.stat") ||
		fail "stat $a: $(diff <(shape "$T/perf.stat") <(shape "$T/prf.stat"))"
	grep -qE '^ *[0-9]+\.[05]0( halves swfake/pf/ |,halves,swfake/pf/,)' "$T/prf.stat" ||
		fail "stat $a: $(cat "$T/prf.stat")"
	n=$((n + 1))
done
echo "$n cases as perf's"
