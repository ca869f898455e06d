#!/bin/bash
# stat-overhead.sh [N] — wall-clock cost of counting a short workload:
# each workload runs N times alone, under `perf stat` and under `prf stat`
# (default events, output discarded), the three interleaved round-robin so
# that load changes hit all of them alike; prints the median time per run
# in ms and the prf/perf ratio. Measures, never asserts.
#   PRF=path/to/prf PERF=/usr/bin/perf scripts/bench/stat-overhead.sh 30
set -u
N=${1:-30}
. "$(dirname "$0")/lib.sh"
bench_setup

median_ms() { awk -v m="$(median "$1")" 'BEGIN { printf "%.3f", m / 1000 }'; }

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
