#!/bin/bash
# script-speed.sh [N] — `perf script > /dev/null` vs `prf script > /dev/null`,
# and `perf script | stackcollapse-perf.pl` vs `prf script --folded`, on the
# inputs of the report benchmark: the generated deep workload
# (../shared/bench/gen_deep.py) and the real mix (xz + python3), as
# recorded by scripts/bench/report-speed.sh into $BENCH_DIR (reused when
# there; otherwise recorded here the same way, see below). Median of N runs
# (default 5), interleaved; wall and CPU (user+sys of the whole pipeline)
# ratios printed, nothing asserted.
#   SCALE=0.1 shrinks workloads recorded here (1 = the report benchmark's size).
#   PRF=path/to/prf PERF=/usr/bin/perf BENCH_DIR=/tmp/prf-bench-report
#   FLAMEGRAPH_DIR=dir-with-stackcollapse-perf.pl. Without the Perl script
#   the folded column compares against `perf script | awk` running the
#   same collapse rules (process name root, callers first, `;` joined,
#   +offsets dropped): awk is faster than Perl, so that ratio is a lower
#   bound of the real one.
#
# RESULTS-BEGIN (recorded by helper perftune, 2026-11-23, 2 cores shared
# with other jobs: load average 11-17, wall times inflated; CPU = user+sys,
# medians of 3; deep input of report-speed.sh: 133 MB, 767 K samples)
# input  perf script  prf script before -> after  cpu ratio before -> after
# deep     6.11 s       0.87 s  ->  0.79 s          7.0x  ->  7.7x
# input  perf|awk-collapse  prf --folded before -> after  cpu ratio before -> after
# deep     15.9 s (1 run)     0.73 s  ->  0.66 s          22x   ->  24x (lower bound:
#          stackcollapse-perf.pl is slower than the awk stand-in; outputs identical)
# RESULTS-END
set -u
N=${1:-5}
SCALE=${SCALE:-1}
. "$(dirname "$0")/lib.sh"
bench_setup
BENCH_DIR=${BENCH_DIR:-/tmp/prf-bench-report}
GEN=${GEN_DEEP:-$here/../shared/bench/gen_deep.py}
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed"; exit 1; }
collapse=""
for d in "${FLAMEGRAPH_DIR:-}" "$(dirname "$(command -v stackcollapse-perf.pl 2>/dev/null || echo /nonexistent/x)")"; do
	[ -n "$d" ] && [ -f "$d/stackcollapse-perf.pl" ] && command -v perl >/dev/null && collapse="$d/stackcollapse-perf.pl" && break
done

# stackcollapse-perf.pl's rules, in awk (stand-in when the Perl script is absent)
cat > "$tmp/collapse.awk" <<'AWK'
/^#/ { next }
/^[^ \t]/ {
	comm = $0; sub(/[ \t]+[0-9]+(\/[0-9]+)?[ \t].*$/, "", comm); gsub(/ /, "_", comm)
	n = 0; insample = 1; next
}
/^[ \t]*$/ {
	if (insample) {
		s = comm
		for (i = n; i >= 1; i--) s = s ";" f[i]
		cnt[s]++
	}
	insample = 0; next
}
{
	sym = $2
	for (i = 3; i < NF; i++) sym = sym " " $i
	sub(/\+0x[0-9a-f]+$/, "", sym)
	if (sym == "" || sym ~ /^\(/) sym = "[unknown]"
	if (sym == "[unknown]" && $NF ~ /^\(.*\)$/) {	# the DSO's basename instead
		d = $NF; gsub(/^\(|\)$/, "", d); sub(/.*\//, "", d)
		if (d != "[unknown]") sym = "[" d "]"
	}
	f[++n] = sym
}
END { for (s in cnt) print s, cnt[s] }
AWK

input() { # name -> path of a perf.data for it
	local name=$1 reps secs
	if [ -f "$BENCH_DIR/$name.data" ]; then
		echo "$BENCH_DIR/$name.data"
		return 0
	fi
	case $name in
	deep)
		[ -f "$GEN" ] || { echo "no gen_deep.py at $GEN (set GEN_DEEP=)" >&2; return 1; }
		python3 "$GEN" > "$tmp/deep.c" &&
		gcc -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "$tmp/deep" "$tmp/deep.c" || return 1
		reps=$(python3 -c "print(max(1000, int(2000000 * $SCALE)))")
		echo "recording deep (2 x $reps reps) with perf -F 25000 -g ..." >&2
		"$PERF" record -q -F 25000 -g -o "$tmp/deep.data" -- \
			sh -c "'$tmp/deep' $reps >/dev/null & '$tmp/deep' $reps >/dev/null; wait" >/dev/null 2>&1 || return 1
		;;
	mix)
		secs=$(python3 -c "print(max(0.5, 16 * $SCALE))")
		cat > "$tmp/mix.sh" <<SH
#!/bin/bash
end=\$((\$(date +%s%N) + \$(python3 -c "print(int($secs * 1e9))")))
python3 -c 'import json, time
t = time.time() + $secs
x = 0
while time.time() < t: x += len(json.dumps({"k": list(range(50))}))' &
while [ \$(date +%s%N) -lt \$end ]; do head -c 4000000 /dev/urandom | xz -1 > /dev/null; done
wait
SH
		chmod +x "$tmp/mix.sh"
		echo "recording mix (${secs}s) with perf -F 20000 -g ..." >&2
		"$PERF" record -q -F 20000 -g -o "$tmp/mix.data" -- "$tmp/mix.sh" >/dev/null 2>&1 || return 1
		;;
	esac
	echo "$tmp/$name.data"
}

run() { # command -> "wall_s cpu_s" (cpu: user+sys of the pipeline)
	/usr/bin/time -o "$tmp/time.out" -f '%e %U %S' bash -o pipefail -c "$1" >/dev/null 2>"$tmp/run.err" ||
		echo "warning: failed: $1: $(head -c 200 "$tmp/run.err")" >&2
	read -r e u s < <(tail -1 "$tmp/time.out")
	echo "$e $(echo "$u + $s" | bc -l)"
}

echo "== recorded results (see the script header; re-measure below) =="
sed -n '/^# RESULTS-BEGIN/,/^# RESULTS-END/p' "$0" | sed '1d;$d;s/^# \{0,1\}//'
echo "== this run: load $(cut -d' ' -f1-3 /proc/loadavg), runs per column: $N =="
if [ -n "$collapse" ]; then
	cname="perf|collapse"; ccmd="perl '$collapse'"
else
	cname="perf|awk"; ccmd="awk -f '$tmp/collapse.awk'"
	echo "note: stackcollapse-perf.pl not found (set FLAMEGRAPH_DIR=): using the awk stand-in (a lower bound)"
fi
printf "%-5s %8s | %-21s %-21s %6s %6s | %-21s %-21s %6s %6s\n" input samples \
	"perf script s (cpu)" "prf script s (cpu)" wall cpu "$cname s (cpu)" "prf --folded s (cpu)" wall cpu
for in in deep mix; do
	d=$(input "$in") || { echo "$in: no input"; continue; }
	for k in a b c e; do : > "$tmp/$k.w"; : > "$tmp/$k.c"; done
	for ((i = 0; i < N; i++)); do
		read -r w c < <(run "'$PERF' script -i '$d' > /dev/null"); echo "$w" >> "$tmp/a.w"; echo "$c" >> "$tmp/a.c"
		read -r w c < <(run "'$PRF' script -i '$d' > /dev/null"); echo "$w" >> "$tmp/b.w"; echo "$c" >> "$tmp/b.c"
		read -r w c < <(run "'$PERF' script -i '$d' 2>/dev/null | $ccmd > /dev/null"); echo "$w" >> "$tmp/c.w"; echo "$c" >> "$tmp/c.c"
		read -r w c < <(run "'$PRF' script -i '$d' --folded > /dev/null"); echo "$w" >> "$tmp/e.w"; echo "$c" >> "$tmp/e.c"
	done
	for k in a b c e; do eval "w_$k=$(median "$tmp/$k.w"); c_$k=$(median "$tmp/$k.c")"; done
	ns=$("$PRF" report -i "$d" --stats 2>/dev/null | awk '/SAMPLE events/ && !done { print $3; done = 1 }')
	printf "%-5s %8s | %8.2f (%8.2f)   %8.2f (%8.2f)   %5sx %5sx | %8.2f (%8.2f)   %8.2f (%8.2f)   %5sx %5sx\n" \
		"$in" "${ns:-?}" "$w_a" "$c_a" "$w_b" "$c_b" "$(ratio "$w_a" "$w_b" 1)" "$(ratio "$c_a" "$c_b" 1)" \
		"$w_c" "$c_c" "$w_e" "$c_e" "$(ratio "$w_c" "$w_e" 1)" "$(ratio "$c_c" "$c_e" 1)"
done
echo "ratio: perf time / prf time (goal: script >= 3x, folded >= 20x vs perf script | stackcollapse-perf.pl)."
