#!/bin/bash
# record-overhead.sh [N] — cost of sampling a CPU-bound workload: its wall
# time alone, under `perf record` and under `prf record`, for -F 999 -g,
# -F 10000 -g and -F 999 --call-graph dwarf, runs interleaved round-robin
# so load changes hit all alike. Prints median times, overhead ratios
# (time under the recorder / time alone), lost samples (sum of
# PERF_RECORD_LOST, read with perf script -D) and median file sizes.
# Measures, never asserts.
#   PRF=path/to/prf PERF=/usr/bin/perf scripts/bench/record-overhead.sh 5
set -u
N=${1:-5}
. "$(dirname "$0")/lib.sh"
bench_setup

cat > "$tmp/work.c" <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void mid(unsigned long n) { leaf(n); }
int main(void) { for (int r = 0; r < 20; r++) mid(25000000UL); return 0; }
C
cc -O0 -fno-omit-frame-pointer -o "$tmp/work" "$tmp/work.c" || exit 1

lost_of() { "$PERF" script -D -i "$1" 2>/dev/null | awk '/PERF_RECORD_LOST / { for (i = 1; i <= NF; i++) if ($i == "lost:") s += $(i + 1) } END { print s + 0 }'; }

configs=("-F 999 -g" "-F 10000 -g" "-F 999 --call-graph dwarf")
echo "runs per column: $N; load: $(cut -d' ' -f1-3 /proc/loadavg); workload: $(basename "$tmp")/work (CPU-bound)"
printf "%-26s %9s %9s %9s %8s %8s %7s %7s %10s %10s\n" config "alone ms" "perf ms" "prf ms" "perf x" "prf x" "p.lost" "q.lost" "perf KB" "prf KB"
for c in "${configs[@]}"; do
	: > "$tmp/alone"; : > "$tmp/perf"; : > "$tmp/prf"; : > "$tmp/psz"; : > "$tmp/qsz"
	plost=0; qlost=0
	for ((i = 0; i < N; i++)); do
		run_us "$tmp/work" >> "$tmp/alone"
		# shellcheck disable=SC2086
		run_us "$PERF" record $c -o "$tmp/p.data" -- "$tmp/work" >> "$tmp/perf"
		# shellcheck disable=SC2086
		run_us "$PRF" record $c -o "$tmp/q.data" -- "$tmp/work" >> "$tmp/prf"
		stat -c %s "$tmp/p.data" >> "$tmp/psz"
		stat -c %s "$tmp/q.data" >> "$tmp/qsz"
		plost=$((plost + $(lost_of "$tmp/p.data")))
		qlost=$((qlost + $(lost_of "$tmp/q.data")))
	done
	a=$(median "$tmp/alone"); p=$(median "$tmp/perf"); q=$(median "$tmp/prf")
	printf "%-26s %9.1f %9.1f %9.1f %8.3f %8.3f %7d %7d %10.1f %10.1f\n" "$c" \
		"$(echo "$a / 1000" | bc -l)" "$(echo "$p / 1000" | bc -l)" "$(echo "$q / 1000" | bc -l)" \
		"$(echo "$p / $a" | bc -l)" "$(echo "$q / $a" | bc -l)" "$plost" "$qlost" \
		"$(echo "$(median "$tmp/psz") / 1024" | bc -l)" "$(echo "$(median "$tmp/qsz") / 1024" | bc -l)"
done
echo "perf x / prf x: wall time under the recorder divided by the workload alone (1.000 = free)."
echo "lost: samples reported lost by the kernel, summed over all runs."
