#!/bin/bash
# sched-speed.sh [N] — `perf sched latency` / `timehist` (and timehist's
# -w, -V, -s, --state variants) against prf's on one sched recording of
# about 100 MB: `perf sched record` of `perf bench sched messaging`
# (10 groups, LOOPS loops; context switches and wakeups on every CPU),
# made in $BENCH_DIR/sched.data and reused when there. Side by side in
# one run: N runs per tool (default 5), perf and prf alternating, output
# to a file on each run; the median wall and CPU (user+sys) seconds,
# their ratios perf/prf, the peak RSS of each, and whether the two
# outputs are the same bytes (cmp). Nothing asserted.
#   PRF=path/to/prf PERF=/usr/bin/perf BENCH_DIR=/tmp/prf-bench-sched
#   LOOPS=2600 (about 100 MB; fewer for a smaller file)
#   VARIANTS="latency|timehist -w|..." (the default list below)
#
# RESULTS-BEGIN (recorded by helper schedspeed, 2026-11-29, 2 cores shared
# with CI and other helpers: load average 14-25, every wall time inflated
# several times; medians of 5 alternating runs; 96 MB perf sched record of
# messaging -g 10 -l 2600, 916 K samples; output identical in every run)
# ratio perf/prf  wall (cpu), three runs at rising load 16 -> 20 -> 25
# latency           9.5x (5.4x)   3.9x (3.9x)   4.2x (4.2x)
# latency -p        5.2x (4.8x)   3.7x (4.5x)   3.9x (4.0x)
# timehist          7.2x (5.1x)   6.1x (5.6x)   4.6x (5.6x)
# timehist -w       5.3x (5.0x)   5.4x (5.3x)   4.0x (4.2x)
# timehist -V       3.9x (4.9x)   5.3x (4.5x)   5.1x (4.8x)
# timehist -s       6.8x (4.7x)   3.9x (4.1x)   3.8x (3.6x)
# timehist --state  6.4x (5.1x)   4.5x (5.3x)   3.9x (4.6x)
# before this work (same file, load ~10): latency 1.5x, timehist 1.5x wall.
# peak RSS: perf 121-126 MB, prf 18-19 MB.
# Quiet machine (2026-11-29 11:24 UTC, load 0.6, nothing else running,
# medians of 3, binary of commit aa778b3), perf s / prf s = wall (cpu):
# latency           0.61 / 0.11 = 5.5x (4.5x)
# latency -p        0.50 / 0.10 = 5.0x (4.1x)
# timehist          0.81 / 0.13 = 6.2x (5.3x)
# timehist -w       0.98 / 0.24 = 4.1x (3.7x)
# timehist -V       0.76 / 0.13 = 5.8x (5.4x)
# timehist -s       0.36 / 0.08 = 4.5x (4.0x)
# timehist --state  0.78 / 0.15 = 5.2x (4.6x)
# RESULTS-END
set -u
N=${1:-5}
. "$(dirname "$0")/lib.sh"
bench_setup
BENCH_DIR=${BENCH_DIR:-/tmp/prf-bench-sched}
LOOPS=${LOOPS:-2600}
VARIANTS=${VARIANTS:-"latency|latency -p|timehist|timehist -w|timehist -V|timehist -s|timehist --state"}
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed"; exit 1; }

data=$BENCH_DIR/sched.data
if [ ! -s "$data" ]; then
	mkdir -p "$BENCH_DIR" || exit 1
	echo "recording $data: perf sched record of perf bench sched messaging -g 10 -l $LOOPS ..." >&2
	"$PERF" sched record -o "$data" -- "$PERF" bench sched messaging -g 10 -l "$LOOPS" \
		>/dev/null 2>"$tmp/record.err" || { cat "$tmp/record.err"; exit 1; }
fi

# run TOOL ARGS... -> "wall_s cpu_s maxrss_kb" (output in $tmp/out.TOOL)
run() {
	local tool=$1 name
	shift
	name=$(basename "$tool")
	/usr/bin/time -o "$tmp/time.out" -f '%e %U %S %M' "$tool" "$@" >"$tmp/out.$name" 2>"$tmp/err.$name" ||
		echo "warning: failed: $tool $*: $(head -c 200 "$tmp/err.$name")" >&2
	read -r e u s m < <(tail -1 "$tmp/time.out")
	echo "$e $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') $m"
}

echo "== recorded results (see the script header; re-measure below) =="
sed -n '/^# RESULTS-BEGIN/,/^# RESULTS-END/p' "$0" | sed '1d;$d;s/^# \{0,1\}//'
echo "== this run: $(du -mL "$data" | cut -f1) MB input, load $(cut -d' ' -f1-3 /proc/loadavg), runs per tool: $N =="
printf "%-18s | %-15s %-15s | %-15s %-15s | %6s %6s | %-17s | %s\n" variant "perf wall s" "perf cpu s" \
	"prf wall s" "prf cpu s" wall cpu "RSS MB perf/prf" output
IFS='|' read -r -a variants <<< "$VARIANTS"
for v in "${variants[@]}"; do
	read -r -a args <<< "$v"
	for k in pw pc pm fw fc fm; do : > "$tmp/$k"; done
	same=same
	for ((i = 0; i < N; i++)); do
		read -r w c m < <(run "$PERF" sched "${args[@]}" -i "$data")
		echo "$w" >> "$tmp/pw"; echo "$c" >> "$tmp/pc"; echo "$m" >> "$tmp/pm"
		read -r w c m < <(run "$PRF" sched "${args[@]}" -i "$data")
		echo "$w" >> "$tmp/fw"; echo "$c" >> "$tmp/fc"; echo "$m" >> "$tmp/fm"
		cmp -s "$tmp/out.$(basename "$PERF")" "$tmp/out.$(basename "$PRF")" || same=DIFFERENT
	done
	for k in pw pc pm fw fc fm; do eval "$k=$(median "$tmp/$k")"; done
	printf "%-18s | %-15s %-15s | %-15s %-15s | %5sx %5sx | %7s / %-7s | %s\n" "$v" "$pw" "$pc" "$fw" "$fc" \
		"$(ratio "$pw" "$fw" 1)" "$(ratio "$pc" "$fc" 1)" "$((${pm%.*} / 1024))" "$((${fm%.*} / 1024))" "$same"
done
echo "ratio: perf time / prf time (goal: latency and timehist >= 5x, the same output)."
