# Sourced by the scripts/bench/*.sh benchmarks (not run by itself).
# bench_setup: PRF (default: the prf at the top of the tree), PERF
# (default /usr/bin/perf), both checked; a temp dir $tmp removed on exit;
# $here is the top of the tree. The helpers below measure, never assert.
bench_setup() {
	here=$(cd "$(dirname "${BASH_SOURCE[1]}")/../.." && pwd)
	PRF=${PRF:-$here/prf}
	PERF=${PERF:-/usr/bin/perf}
	[ -x "$PRF" ] || { echo "no prf binary at $PRF (set PRF=)"; exit 1; }
	[ -x "$PERF" ] || { echo "no perf at $PERF (set PERF=)"; exit 1; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# run_us CMD...: wall time of one run in microseconds (output discarded):
# bash's fork and exec of CMD, its run and exit. The clock is read with
# bash's $EPOCHREALTIME (bash 5), not by starting date(1) before and after:
# those two processes added about 1.4 ms to every figure here.
run_us() {
	local t0 t1
	if [ -n "${EPOCHREALTIME:-}" ]; then
		t0=${EPOCHREALTIME/[.,]/}
		"$@" >/dev/null 2>&1
		t1=${EPOCHREALTIME/[.,]/}
	else
		t0=$(( $(date +%s%N) / 1000 ))
		"$@" >/dev/null 2>&1
		t1=$(( $(date +%s%N) / 1000 ))
	fi
	echo $(( t1 - t0 ))
}

# median [FILE]: median of the numbers in FILE (or stdin), one per line
median() {
	sort -g "${1:--}" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# ratio A B [DIGITS]: A / B with DIGITS decimals (default 2); 0 when B is 0
ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f\n", d, (b > 0 ? a / b : 0) }'
}
