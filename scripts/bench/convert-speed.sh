#!/bin/bash
# convert-speed.sh: prf data convert per format against prf report on the
# same recording, and perf data convert --to-json for scale.
#
# Input (recorded with /usr/bin/perf, kept in $BENCH_DIR for reuse): xz
# compressing 60 MB plus python3 running a json loop, under
# `perf record -F 20000 -g` (about 150 MB at SCALE=1).
# For `prf report --stdio --no-children`, `prf data convert --to-FORMAT`
# (json, pprof, gecko, speedscope) and `perf data convert --to-json`:
# median wall time of RUNS alternating runs, the output size, and the
# ratio to prf report's time (the issue's goal: pprof within 1.5x).
# Measures, never asserts.
#
# Environment:
#   PRF=path     prf binary (default: ./prf of this tree)
#   SCALE=x      workload size factor (default 1; 0.1 for a quick run)
#   RUNS=n       runs per measurement (default 3)
#   BENCH_DIR=d  where the input lives (default /tmp/prf-bench-convert)
# RESULTS-BEGIN recorded 2026-11-29 02:33-02:37 UTC, binary of commit
# "pprof: resolved chains seen before...", SCALE=0.3 (77 MB, FP), medians
# of 5, 2 cores at load 7-10: report 3916 ms, --to-pprof 1.38x.
# Recorded 2026-11-29 04:02-04:07 UTC, commit 3683a74 (exporters on one
# thread), SCALE=1 (301 MB, FP), medians of 3, machine otherwise idle:
# what                                   wall ms    out MB /report
# prf report --stdio --no-children        2079.1         -    1.00
# prf data convert --to-json              5758.2       805    2.77
# prf data convert --to-pprof             4283.4        11    2.06
# prf data convert --to-gecko             6515.8        92    3.13
# prf data convert --to-speedscope        3482.1        69    1.67
# perf data convert --to-json            10109.0       805    4.86
# Recorded 2026-11-29 09:02-09:09 UTC, the export feed and the pprof
# changes of that day, SCALE=1, medians of 3 alternating runs, 2 cores
# at load 13-23 (other jobs; wall times 5-10x an idle machine's, so
# report's hists feed and the export feed both mostly wait for a CPU):
# prf report --stdio --no-children       21172.3         -    1.00
# prf data convert --to-json             17772.0       805    0.84
# prf data convert --to-pprof            17949.9        11    0.85
# prf data convert --to-gecko            25953.4        92    1.23
# prf data convert --to-speedscope       10736.3        69    0.51
# perf data convert --to-json            48923.8       805    2.31
# CPU of --to-pprof by thread (perf record -F 1999, same load): the
# session's thread 3790 samples while the encoder thread runs (3828),
# then 3258 to pack its half and gzip (libdeflate 2094 of them: level 6
# of the 64 MB message in one call, which the byte-identical output
# fixes), the packing thread 730; report: 7083 + 904 on its feed.
# Recorded 2026-11-29 11:24-11:32 UTC, commit e98d98f (gzip at level 1,
# as Go's runtime/pprof), SCALE=1: the bench, medians of 3 at load 1-3:
# prf report --stdio --no-children        2350.0         -    1.00
# prf data convert --to-json              8444.4       805    3.59
# prf data convert --to-pprof             3648.6        11    1.55
# prf data convert --to-gecko             5051.4        92    2.15
# prf data convert --to-speedscope        3857.7        69    1.64
# perf data convert --to-json            13793.2       805    5.87
# and 5 alternating runs of report and --to-pprof alone right after, load
# 1-2.8: wall medians 2.41 s and 3.18 s (1.32x); CPU (user+sys) medians
# 2.17 s and 2.88 s (1.33x). Level 6 before: 11.4 vs 10.9 MB out, 1.61x.
# RESULTS-END
set -u
. "$(dirname "$0")/lib.sh"
bench_setup
SCALE=${SCALE:-1}
RUNS=${RUNS:-3}
BENCH_DIR=${BENCH_DIR:-/tmp/prf-bench-convert}
mkdir -p "$BENCH_DIR"
in=$BENCH_DIR/mix-$SCALE.data
if [ ! -s "$in" ]; then
	mb=$(awk -v s="$SCALE" 'BEGIN { printf "%d", 60 * s + 1 }')
	loops=$(awk -v s="$SCALE" 'BEGIN { printf "%d", 200000 * s + 1 }')
	head -c "${mb}M" /dev/urandom | base64 > "$BENCH_DIR/blob"
	"$PERF" record -q -F 20000 -g -o "$in" -- sh -c "xz -9 -c '$BENCH_DIR/blob' >/dev/null &
		python3 -c 'import json
x = 0
for i in range($loops): x += len(json.dumps({\"a\": i, \"b\": [i, str(i)]}))'; wait" >/dev/null 2>&1 ||
		{ echo "perf record failed"; exit 1; }
fi
echo "input: $in, $(du -m "$in" | cut -f1) MB"

# Runs alternate (report, each format, perf; RUNS times over), so that a
# shared machine's load falls on all of them alike; each command's median.
cmds=(report json pprof gecko speedscope perf)
run_cmd() {	# run_cmd NAME: one run, wall µs
	case $1 in
	report) run_us "$PRF" report -i "$in" --stdio --no-children ;;
	perf) run_us "$PERF" data convert -f -i "$in" --to-json "$tmp/perf.json" ;;
	*) run_us "$PRF" data convert -f -i "$in" --to-$1 "$tmp/out.$1" ;;
	esac
}
for i in $(seq "$RUNS"); do
	for c in "${cmds[@]}"; do run_cmd "$c" >> "$tmp/t.$c"; done
done
base=$(median "$tmp/t.report")
printf '%-36s %9s %9s %7s\n' what "wall ms" "out MB" "/report"
printf '%-36s %9.1f %9s %7s\n' "prf report --stdio --no-children" "$(ratio "$base" 1000 1)" - 1.00
for f in json pprof gecko speedscope; do
	t=$(median "$tmp/t.$f")
	printf '%-36s %9.1f %9s %7s\n' "prf data convert --to-$f" "$(ratio "$t" 1000 1)" \
		"$(du -m "$tmp/out.$f" | cut -f1)" "$(ratio "$t" "$base")"
done
t=$(median "$tmp/t.perf")
printf '%-36s %9.1f %9s %7s\n' "perf data convert --to-json" "$(ratio "$t" 1000 1)" \
	"$(du -m "$tmp/perf.json" | cut -f1)" "$(ratio "$t" "$base")"
