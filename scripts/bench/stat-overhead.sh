#!/bin/bash
# stat-overhead.sh [N] — wall-clock cost of counting a short workload:
# each workload runs N times alone, under `perf stat` and under `prf stat`
# (default events, output discarded), the three interleaved round-robin so
# that load changes hit all of them alike; prints the median time per run
# in ms and the prf/perf ratio. Measures, never asserts.
#   PRF=path/to/prf PERF=/usr/bin/perf scripts/bench/stat-overhead.sh 30
set -u
N=${1:-30}
here=$(cd "$(dirname "$0")/../.." && pwd)
PRF=${PRF:-$here/prf}
PERF=${PERF:-/usr/bin/perf}
[ -x "$PRF" ] || { echo "no prf binary at $PRF (set PRF=)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall time in us of one run of "$@"
run_us() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000 ))
}

median_ms() {
	sort -n "$1" | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f", m / 1000 }'
}

workloads=("true" "ls -R /usr/include" "sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done'")
echo "runs per column: $N; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-58s %9s %9s %9s %9s\n" workload "alone ms" "perf ms" "prf ms" "prf/perf"
for w in "${workloads[@]}"; do
	: > "$tmp/alone"; : > "$tmp/perf"; : > "$tmp/prf"
	for ((i = 0; i < N; i++)); do
		run_us sh -c "$w" >> "$tmp/alone"
		run_us "$PERF" stat -- sh -c "$w" >> "$tmp/perf"
		run_us "$PRF" stat -- sh -c "$w" >> "$tmp/prf"
	done
	a=$(median_ms "$tmp/alone"); p=$(median_ms "$tmp/perf"); q=$(median_ms "$tmp/prf")
	printf "%-58s %9s %9s %9s %9s\n" "$w" "$a" "$p" "$q" \
		"$(awk -v a="$q" -v b="$p" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')"
done
