#!/bin/bash
# diff-speed.sh: prf diff vs Linux perf diff on two frame-pointer
# recordings, side by side.
#
# Input (recorded with /usr/bin/perf -F 20000 -g, kept in $BENCH_DIR for
# reuse): a program of 64 functions called through two levels of callers,
# run twice with different weights (old.data, new.data; about 150 MB
# each at SCALE=1). Measures the median wall time and peak RSS
# (/usr/bin/time) of RUNS runs of `diff old.data new.data` for each
# compute mode, prints perf/prf ratios and whether the outputs are
# byte-identical. No assertions: it measures.
#
# Environment: PRF, PERF (binaries), SCALE (workload factor, default 1;
# 0.1 for a quick run), RUNS (default 3), BENCH_DIR (default
# /tmp/prf-bench-diff), MODES (default "delta-abs ratio").
# RESULTS-BEGIN recorded 2026-11-29 09:05 UTC, 2 cores shared with CI and
# other sessions (load 14-20 during the runs), SCALE=1 (two files of 201
# and 249 MB), RUNS=3 alternating; wall = perf/prf, mem = prf/perf peak RSS.
# mode         perf s    prf s    wall   perf MB   prf MB    mem  output
# delta-abs     38.45     6.10    6.3x     516.6     46.4  0.09x  identical
# ratio         35.35     5.33    6.6x     516.5     46.2  0.09x  identical
# CPU time (user+sys) at SCALE=1: perf 4.2 s; prf 0.9-1.2 s, against
# 1.1-1.5 s before each file's hists were fed through report's hist feed
# and the per-sample struct clears left rep stos (alternating runs at
# load ~28: wall 12.4 s before, 7.8 s after, medians of 5). The walls
# follow the load: under contention prf's threads get more of the CPUs
# than perf's one; a second delta-abs run at load ~28 (09:18) gave perf
# 18.01 s, prf 4.31 s: 4.2x. The issue's goal (10x) is not met.
# RESULTS-END
set -u
. "$(dirname "$0")/lib.sh"
bench_setup
SCALE=${SCALE:-1}
RUNS=${RUNS:-3}
BENCH_DIR=${BENCH_DIR:-/tmp/prf-bench-diff}
MODES=${MODES:-delta-abs ratio}
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed for peak RSS"; exit 2; }
mkdir -p "$BENCH_DIR" && cd "$BENCH_DIR" || exit 2

record() {
	local iters
	[ -f new.data ] && [ "$(cat scale 2>/dev/null)" = "$SCALE" ] && return 0
	iters=$(awk -v s="$SCALE" 'BEGIN { n = int(2500000 * s); print (n > 0 ? n : 1) }')
	{
		echo '#include <stdlib.h>'
		echo 'volatile unsigned long sink;'
		for i in $(seq 0 63); do
			echo "__attribute__((noinline)) void f$i(long n) { for (long i = 0; i < n; i++) sink += i * $((i + 1)); }"
		done
		echo 'typedef void (*fn)(long);'
		printf 'static fn fns[64] = {'
		for i in $(seq 0 63); do printf ' f%d,' "$i"; done
		echo ' };'
		echo '__attribute__((noinline)) void mid(int k, long n) { fns[k & 63](n); }'
		echo '__attribute__((noinline)) void top(int k, long n) { mid(k, n); }'
		echo 'int main(int argc, char **argv) { int w = atoi(argv[1]); long it = atol(argv[2]);'
		echo '	for (long i = 0; i < it; i++) top((int)(i * 7), 20000 + (i % w == 0) * 60000); return 0; }'
	} > prog.c
	cc -O1 -fno-omit-frame-pointer -o prog prog.c || return 1
	echo "recording: ./prog 5 $iters and ./prog 3 $iters at -F 20000 -g ..."
	"$PERF" record -q -F 20000 -g -o old.data -- ./prog 5 "$iters" >/dev/null 2>&1 &&
	"$PERF" record -q -F 20000 -g -o new.data -- ./prog 3 "$iters" >/dev/null 2>&1 || return 1
	echo "$SCALE" > scale
}

# one TOOL MODE OUT: "wall_s kb" of one run
one() {
	/usr/bin/time -o time.out -f '%e %M' "$1" diff -c "$2" old.data new.data > "$3" 2>/dev/null
	tail -1 time.out
}

record || { echo "recording failed"; exit 1; }
echo "inputs: $(du -m old.data | cut -f1) MB + $(du -m new.data | cut -f1) MB; load $(cut -d' ' -f1-3 /proc/loadavg), RUNS=$RUNS, SCALE=$SCALE"
printf "%-10s %8s %8s %7s %9s %8s %6s  %s\n" mode "perf s" "prf s" wall "perf MB" "prf MB" mem output
for mode in $MODES; do
	: > pt; : > pm; : > qt; : > qm
	for ((r = 0; r < RUNS; r++)); do
		read -r t m < <(one "$PERF" "$mode" perf.out); echo "$t" >> pt; echo "$m" >> pm
		read -r t m < <(one "$PRF" "$mode" prf.out); echo "$t" >> qt; echo "$m" >> qm
	done
	same=identical
	cmp -s perf.out prf.out || same="DIFFERENT ($(diff perf.out prf.out | grep -c '^[<>]') lines)"
	printf "%-10s %8.2f %8.2f %6.1fx %9.1f %8.1f %5.2fx  %s\n" "$mode" "$(median pt)" "$(median qt)" \
		"$(ratio "$(median pt)" "$(median qt)" 1)" "$(ratio "$(median pm)" 1024 1)" \
		"$(ratio "$(median qm)" 1024 1)" "$(ratio "$(median qm)" "$(median pm)")" "$same"
done
echo "(wall = perf time / prf time; mem = prf peak RSS / perf peak RSS; the issue's goal: wall >= 10x, mem <= 1)"
