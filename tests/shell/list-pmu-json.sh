#!/bin/bash
# prf list with a core PMU's JSON events (a fake Intel "cpu" PMU, and uncore_imc_0/1, uncore_cha_0/1, bind-mounted over the kernel's PMU directory, PERF_CPUID=GenuineIntel-6-55-4): the events/ aliases as NAME OR cpu/NAME/, the model's events under their topics with perf's wrapped descriptions, --details' encodings, -v/--long-desc, --deprecated, --raw-dump, topic and glob arguments (any case) and $COLUMNS, byte for byte against perf list 6.1 on the same directory
set -u
. "$PRF_SRCDIR/tests/shell/lib/fakepmu.sh"
fakepmu_setup list-pmu-json
fakepmu_uncore

n=0
# same ARG...: prf list ARG... prints what perf list ARG... prints (minus
# the SDT events of the build-id cache, sdt-events.sh's; both through the
# same grep, which ends --raw-dump's line)
same() {
	fakepmu "$PERF" list "$@" 2>&1 | grep -v 'SDT event' > "$T/perf.out"
	fakepmu "$PRF" list "$@" > "$T/prf.raw" 2>&1 || fail "prf list $*: exit $?"
	grep -v 'SDT event' "$T/prf.raw" > "$T/prf.out"
	grep -q . "$T/perf.out" || fail "perf list $*: nothing"
	cmp -s "$T/perf.out" "$T/prf.out" ||
		fail "prf list $*: $(diff "$T/perf.out" "$T/prf.out" | head -20 | cut -c1-200)"
	n=$((n + 1))
}
same
same --details
same -v
same --long-desc --details
same --deprecated
same --no-desc
same -d pipeline
same pipeline
same 'inst_retired.*'
same 'INST_RETIRED.ANY*'
same 'floating point'
same pmu
same --raw-dump pmu
same mem-loads
same 'cpu/*'
# uncore PMUs' JSON events: once, under their topic, the first instance's
# encoding and an event record's metric with --details
same 'unc_m_cas_count*'
grep -q '^  unc_m_cas_count.rd  ' "$T/prf.out" || fail "no unc_m_cas_count.rd in prf list"
same --details 'uncore memory'
same -v 'unc_cha_clock*'
same 'uncore_imc*'
COLUMNS=100 same frontend
# the fake PMU's JSON events are there at all
grep -q '^  idq.dsb_uops  ' "$T/prf.out" || fail "no idq.dsb_uops in prf list frontend"
echo "$n lists as perf's"
