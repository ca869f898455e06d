#!/bin/bash
# script-python.sh [N] — `perf script -s` vs `prf script -s`: on one FP
# recording, perf's stackcollapse.py and a process_event script that reads
# every key of each sample's dict (the per-sample cost of building them);
# on a raw_syscalls recording (a shell running ls SYSCALL_LOOPS times,
# default 300), perf's syscall-counts-by-pid.py (tracepoint handlers).
# The input is $BENCH_DIR/mix.data when there (scripts/bench/script-speed.sh's
# mix), else recorded here: python3 + xz for SECS seconds (default 8) at
# -F 20000 -g with perf. Median of N runs (default 3), interleaved; wall and
# CPU (user+sys) ratios printed, nothing asserted.
#   PRF=path/to/prf PERF=/usr/bin/perf BENCH_DIR=/tmp/prf-bench-report SECS=8
#
# RESULTS-BEGIN
# recorded by helper pyscript, 2026-11-29, 2 cores shared with other jobs
# (load average ~10: wall times inflated); CPU = user+sys, medians of 3;
# inputs recorded here: SECS=6 (8.5 MB, 123 K samples), 300 ls runs
# script                    perf s (cpu)    prf s (cpu)    wall  cpu
# stackcollapse.py          8.34 (2.46)     2.89 (0.93)    2.9x  2.6x
# keys.py                   7.13 (2.01)     2.10 (0.63)    3.4x  3.2x
# syscall-counts-by-pid.py  1.99 (0.53)     0.71 (0.21)    2.8x  2.5x
# RESULTS-END
set -u
N=${1:-3}
SECS=${SECS:-8}
. "$(dirname "$0")/lib.sh"
bench_setup
BENCH_DIR=${BENCH_DIR:-/tmp/prf-bench-report}
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed"; exit 1; }
S=""
for d in /usr/lib/perf-core /usr/libexec/perf-core; do
	[ -f "$d/scripts/python/stackcollapse.py" ] && S="$d/scripts/python" && break
done
[ -n "$S" ] || { echo "no perf scripts directory (perf-core/scripts/python)"; exit 1; }

if [ -f "$BENCH_DIR/mix.data" ]; then
	data="$BENCH_DIR/mix.data"
else
	data="$tmp/mix.data"
	echo "recording python3 + xz for ${SECS}s with perf -F 20000 -g ..." >&2
	"$PERF" record -q -F 20000 -g -o "$data" -- bash -c "
		python3 -c 'import json, time
t = time.time() + $SECS
x = 0
while time.time() < t: x += len(json.dumps({\"k\": list(range(50))}))' &
		end=\$((\$(date +%s) + $SECS))
		while [ \$(date +%s) -lt \$end ]; do head -c 4000000 /dev/urandom | xz -1 > /dev/null; done
		wait" >/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
fi

sys_data="$tmp/sys.data"
echo "recording raw_syscalls of ${SYSCALL_LOOPS:-300} ls runs with perf ..." >&2
"$PERF" record -q -o "$sys_data" -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -- \
	sh -c "for i in \$(seq ${SYSCALL_LOOPS:-300}); do ls / > /dev/null; done" >/dev/null 2>&1 ||
	{ echo "perf record of raw_syscalls failed"; exit 1; }

cat > "$tmp/keys.py" <<'EOF'
n = 0
def process_event(d):
    global n
    s = d['sample']
    n += len(d) + len(s) + s['period'] % 7
    for f in d['callchain']:
        n += len(f)
def trace_end():
    print(n)
EOF

run() { # command -> "wall_s cpu_s"
	/usr/bin/time -o "$tmp/time.out" -f '%e %U %S' bash -c "$1" >/dev/null 2>"$tmp/run.err" ||
		echo "warning: failed: $1: $(head -c 200 "$tmp/run.err")" >&2
	read -r e u s < <(tail -1 "$tmp/time.out")
	echo "$e $(echo "$u + $s" | bc -l)"
}

echo "== recorded results (see the script header) =="
sed -n '/^# RESULTS-BEGIN/,/^# RESULTS-END/p' "$0" | sed '1d;$d;s/^# \{0,1\}//'
ns=$("$PRF" report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events/ && !done { print $3; done = 1 }')
echo "== this run: load $(cut -d' ' -f1-3 /proc/loadavg), $(du -h "$data" | cut -f1), ${ns:-?} samples, runs: $N =="
printf "%-24s | %-21s %-21s %6s %6s\n" script "perf s (cpu)" "prf s (cpu)" wall cpu
for s in "$S/stackcollapse.py" "$tmp/keys.py" "$S/syscall-counts-by-pid.py"; do
	d=$data
	[ "${s##*/}" = syscall-counts-by-pid.py ] && d=$sys_data
	: > "$tmp/a.w"; : > "$tmp/a.c"; : > "$tmp/b.w"; : > "$tmp/b.c"
	for ((i = 0; i < N; i++)); do
		read -r w c < <(run "'$PERF' script -i '$d' -s '$s' > /dev/null"); echo "$w" >> "$tmp/a.w"; echo "$c" >> "$tmp/a.c"
		read -r w c < <(run "'$PRF' script -i '$d' -s '$s' > /dev/null"); echo "$w" >> "$tmp/b.w"; echo "$c" >> "$tmp/b.c"
	done
	wa=$(median "$tmp/a.w"); ca=$(median "$tmp/a.c"); wb=$(median "$tmp/b.w"); cb=$(median "$tmp/b.c")
	printf "%-24s | %8.2f (%8.2f)   %8.2f (%8.2f)   %5sx %5sx\n" "${s##*/}" "$wa" "$ca" "$wb" "$cb" \
		"$(ratio "$wa" "$wb" 1)" "$(ratio "$ca" "$cb" 1)"
done
echo "ratio: perf time / prf time (goal: >= 2x)."
