#!/bin/bash
# trace-overhead.sh [N] [CALLS] — how much tracing slows a syscall-heavy
# workload: a program making CALLS getppid() calls (default 300000) runs N
# times (default 5) alone, under `strace -f -c` (when installed), `perf
# trace -s` and `prf trace -s`, interleaved round-robin so that load
# changes hit all of them alike. Prints each median wall time in ms, the
# slowdown against the program alone, and prf's slowdown over perf's.
# Measures, never asserts. Needs root (or a paranoid setting that lets
# both tools open the syscall tracepoints).
#   PRF=path/to/prf PERF=/usr/bin/perf scripts/bench/trace-overhead.sh 5
set -u
N=${1:-5}
CALLS=${2:-300000}
. "$(dirname "$0")/lib.sh"
bench_setup

cat > "$tmp/getppid.c" <<EOC
#include <unistd.h>
int main(void) { for (int i = 0; i < $CALLS; i++) getppid(); return 0; }
EOC
cc -O2 -o "$tmp/getppid" "$tmp/getppid.c" || { echo "cc failed"; exit 1; }
w="$tmp/getppid"

tools=(alone perf prf)
STRACE=$(command -v strace || true)
[ -n "$STRACE" ] && tools+=(strace)
for t in "${tools[@]}"; do : > "$tmp/$t"; done
for ((i = 0; i < N; i++)); do
	run_us "$w" >> "$tmp/alone"
	run_us "$PERF" trace -s -- "$w" >> "$tmp/perf"
	run_us "$PRF" trace -s -- "$w" >> "$tmp/prf"
	[ -n "$STRACE" ] && run_us "$STRACE" -f -c -- "$w" >> "$tmp/strace"
done

echo "workload: $CALLS getppid() calls; runs per column: $N; load: $(cut -d' ' -f1-3 /proc/loadavg)"
alone=$(median "$tmp/alone")
printf "%-16s %10s %10s\n" tool "median ms" slowdown
for t in "${tools[@]}"; do
	m=$(median "$tmp/$t")
	printf "%-16s %10s %10s\n" "$t" "$(awk -v m="$m" 'BEGIN { printf "%.1f", m / 1000 }')" \
		"$(ratio "$m" "$alone" 1)x"
done
[ -n "$STRACE" ] || echo "(strace not installed: its column is left out)"
echo "prf slowdown / perf slowdown: $(ratio "$(median "$tmp/prf")" "$(median "$tmp/perf")")"
