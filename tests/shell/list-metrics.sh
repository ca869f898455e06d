#!/bin/bash
# prf list metric / metricgroup / the "Metric Groups:" section of a full list, --details, --raw-dump and SYS:EVENT, byte for byte against perf 6.1 on this CPU and on other models named with PERF_CPUID (tables from the kernel's pmu-events JSON)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup list-metrics

"$PRF" version --build-options | grep -q 'pmu-events: \[ on' ||
	{ echo "prf built without the kernel source (linux-source-6.1): no metric tables"; exit 2; }

# same ARGS...: perf list and prf list, stdout and stderr, identical
same() {
	"$PERF" list "$@" >"$T/perf.out" 2>&1 || fail "perf list $*: exit $?"
	"$PRF" list "$@" >"$T/prf.out" 2>&1 || fail "prf list $*: exit $?: $(head -3 "$T/prf.out")"
	cmp -s "$T/perf.out" "$T/prf.out" ||
		fail "${PERF_CPUID:-this CPU}: list $*: $(diff "$T/perf.out" "$T/prf.out" | head -5)"
}

for a in metric metrics metricgroup metricgroups "--details metric" "--details metricgroup" \
	 "-v metric" "--raw-dump metric" "--raw-dump metricgroup" "--raw-dump metric metricgroup" \
	 "metric sw" "l2_cache:nothing" "cache:x"; do
	# shellcheck disable=SC2086
	same $a
done
# the whole list ends with the "Metric Groups:" section (the SDT events
# before it are sdt-events.sh's: compare from the section on)
"$PERF" list --details >"$T/perf.out" 2>&1
prf_out "$T/prf.out" list --details
diff <(sed -n '/^Metric Groups:/,$p' "$T/perf.out") <(sed -n '/^Metric Groups:/,$p' "$T/prf.out") \
	>"$T/diff" || fail "list --details, metric groups: $(head -5 "$T/diff")"

# other models, as perf picks them with PERF_CPUID: Intel Skylake-X (a
# stepping regex), Sapphire Rapids, Alder Lake (hybrid units), Haswell-X,
# AMD Zen 2, a model without metrics, an identifier without the stepping
# (perf's "Invalid CPUID" note per full-cpuid row) and an unknown CPU
n=0
for id in GenuineIntel-6-55-4 GenuineIntel-6-8F-0 GenuineIntel-6-97-0 GenuineIntel-6-3F-2 \
	  AuthenticAMD-23-31-0 GenuineIntel-6-57-1 GenuineIntel-6-55 Bogus-1-2-3; do
	for a in metric metricgroup "--details metricgroup" "--raw-dump metric metricgroup" \
		 "Pipeline:x"; do
		# shellcheck disable=SC2086
		PERF_CPUID=$id same $a
		n=$((n + $(wc -l <"$T/perf.out")))
	done
done
[ "$n" -gt 1000 ] || fail "only $n lines compared over the PERF_CPUID models"
exit 0
