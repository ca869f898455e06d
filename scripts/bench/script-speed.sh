#!/bin/bash
# script-speed.sh [N] — `perf script > /dev/null` vs `prf script > /dev/null`,
# and `perf script | stackcollapse-perf.pl` vs `prf script --folded`, on the
# inputs of the report benchmark: the generated deep workload
# (../shared/bench/gen_deep.py) recorded by perf -F 25000 -g, and a real mix
# (python3 + xz + sort, with shared libraries and kernel frames) recorded
# the same way. Median of N runs (default 5), interleaved; ratios printed,
# nothing asserted.
#   SCALE=0.1 shrinks the workloads (1 = the report benchmark's size).
#   PRF=path/to/prf PERF=/usr/bin/perf FLAMEGRAPH_DIR=dir-with-stackcollapse-perf.pl
set -u
N=${1:-5}
SCALE=${SCALE:-1}
here=$(cd "$(dirname "$0")/../.." && pwd)
PRF=${PRF:-$here/prf}
PERF=${PERF:-/usr/bin/perf}
GEN=${GEN_DEEP:-$here/../shared/bench/gen_deep.py}
[ -x "$PRF" ] || { echo "no prf binary at $PRF (set PRF=)"; exit 1; }
[ -x "$PERF" ] || { echo "no perf at $PERF (set PERF=)"; exit 1; }
[ -f "$GEN" ] || { echo "no gen_deep.py at $GEN (set GEN_DEEP=)"; exit 1; }
collapse=""
for d in "${FLAMEGRAPH_DIR:-}" "$(dirname "$(command -v stackcollapse-perf.pl 2>/dev/null || echo /nonexistent/x)")"; do
	[ -n "$d" ] && [ -f "$d/stackcollapse-perf.pl" ] && command -v perl >/dev/null && collapse="$d/stackcollapse-perf.pl" && break
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$GEN" 300 > "$tmp/deep.c" && cc -O1 -fno-omit-frame-pointer -o "$tmp/deep" "$tmp/deep.c" || exit 1
# deep 2.7M reps ~ 32 s of CPU ~ 800 K samples at 25 kHz (the report benchmark's size)
reps=$(python3 -c "print(max(1000, int(2700000 * $SCALE)))")
secs=$(python3 -c "print(max(0.5, 16 * $SCALE))")
echo "recording deep workload (reps $reps) and mix (${secs}s) with perf -F 25000 -g ..."
"$PERF" record -q -F 25000 -g -o "$tmp/deep.data" -- "$tmp/deep" "$reps" >/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
cat > "$tmp/mix.sh" <<SH
#!/bin/bash
end=\$((\$(date +%s%N) + \$(python3 -c "print(int($secs * 1e9))")))
python3 -c 'import json, time
t = time.time() + $secs
x = 0
while time.time() < t: x += len(json.dumps({"k": list(range(50))}))' &
while [ \$(date +%s%N) -lt \$end ]; do head -c 4000000 /dev/urandom | xz -1 > /dev/null; done &
while [ \$(date +%s%N) -lt \$end ]; do seq 1 200000 | sort -R > /dev/null; done
wait
SH
chmod +x "$tmp/mix.sh"
"$PERF" record -q -F 25000 -g -o "$tmp/mix.data" -- "$tmp/mix.sh" >/dev/null 2>&1 || { echo "perf record failed"; exit 1; }

run_ms() { # command: prints wall ms; a failing command is reported on stderr
	local t0 t1 rc
	t0=$(date +%s%N)
	bash -o pipefail -c "$1" >/dev/null 2>"$tmp/run.err"
	rc=$?
	t1=$(date +%s%N)
	[ $rc -eq 0 ] || echo "warning: exit status $rc: $1: $(head -c 200 "$tmp/run.err")" >&2
	echo $(( (t1 - t0) / 1000000 ))
}
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
nsamples() { "$PRF" script -i "$1" -F time 2>/dev/null | wc -l; }

echo "runs per column: $N; load: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$collapse" ] || echo "note: stackcollapse-perf.pl not found (set FLAMEGRAPH_DIR=): folded comparison skipped"
printf "%-6s %9s %11s %10s %8s %14s %12s %8s\n" input samples "perf script" "prf script" ratio "perf+collapse" "prf --folded" ratio
for in in deep mix; do
	d="$tmp/$in.data"
	: > "$tmp/a"; : > "$tmp/b"; : > "$tmp/c"; : > "$tmp/e"
	for ((i = 0; i < N; i++)); do
		run_ms "'$PERF' script -i '$d' > /dev/null" >> "$tmp/a"
		run_ms "'$PRF' script -i '$d' > /dev/null" >> "$tmp/b"
		if [ -n "$collapse" ]; then
			run_ms "'$PERF' script -i '$d' | perl '$collapse' > /dev/null" >> "$tmp/c"
		fi
		run_ms "'$PRF' script -i '$d' --folded > /dev/null" >> "$tmp/e"
	done
	a=$(median "$tmp/a"); b=$(median "$tmp/b"); e=$(median "$tmp/e")
	if [ -n "$collapse" ]; then
		c=$(median "$tmp/c")
		cc_col=$(printf "%11s ms" "$c"); r2=$(echo "scale=1; $c / ($e + 0.001)" | bc -l)x
	else
		cc_col=$(printf "%14s" "skipped"); r2="-"
	fi
	printf "%-6s %9d %8s ms %7s ms %7.1fx %s %9s ms %8s\n" "$in" "$(nsamples "$d")" "$a" "$b" \
		"$(echo "$a / ($b + 0.001)" | bc -l)" "$cc_col" "$e" "$r2"
done
echo "ratio: perf time / prf time (goal: script >= 3x, folded >= 20x)."
