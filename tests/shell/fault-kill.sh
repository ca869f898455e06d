#!/bin/bash
# Fault: prf record killed with SIGKILL mid-run leaves a file prf report and perf report both read
# The recorder gets no chance to finish the header (data size stays as
# written at start, no feature sections): both readers must still show the
# samples written so far, attributed to the workload's function.
set -u
PERF=${PERF_BIN:-/usr/bin/perf}
[ -x "$PERF" ] || { echo "no $PERF (Linux perf) to cross-check"; exit 2; }
command -v cc >/dev/null || { echo "no C compiler"; exit 2; }
T=$(mktemp -d /tmp/prf-fault-kill.XXXXXX)
WPID=
cleanup() { [ -n "$WPID" ] && kill -9 "$WPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

cat >spin.c <<'C'
#include <stdio.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin_victim(void) { for (;;) sink++; }
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "w");
	fprintf(f, "%d\n", getpid());
	fclose(f);
	spin_victim();
	return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o spin spin.c || fail "cc"

for mode in plain callgraph; do
	opt=()
	[ $mode = callgraph ] && opt=(-g)
	rm -f k.data pid
	"$PRF" record -q -F 999 "${opt[@]}" -o k.data -- ./spin pid >rec.out 2>&1 &
	prf_pid=$!
	for _ in $(seq 100); do [ -s pid ] && break; sleep 0.1; done
	[ -s pid ] || { kill -9 $prf_pid; fail "$mode: workload did not start: $(cat rec.out)"; }
	WPID=$(cat pid)
	sleep 1.5
	kill -9 $prf_pid
	wait $prf_pid 2>/dev/null
	kill -9 "$WPID" 2>/dev/null
	WPID=
	[ -s k.data ] || fail "$mode: nothing written before SIGKILL"

	timeout 60 "$PRF" report --stdio --sort comm,sym -i k.data >prf.rep 2>prf.err
	rc=$?
	[ $rc -eq 0 ] || fail "$mode: prf report exit $rc: $(head -3 prf.err)"
	# exact counts from script (report's header says "1K" past 999)
	n=$(timeout 60 "$PRF" script -F comm -i k.data 2>/dev/null | grep -c .)
	[ "${n:-0}" -gt 10 ] || fail "$mode: prf report shows ${n:-no} samples: $(head -20 prf.rep)"
	grep -q "spin.*spin_victim" prf.rep || fail "$mode: prf report: spin_victim missing: $(grep % prf.rep | head -5)"

	timeout 60 "$PERF" report --stdio --sort comm,sym -i k.data >perf.rep 2>perf.err
	rc=$?
	[ $rc -eq 0 ] || fail "$mode: perf report exit $rc: $(head -3 perf.err)"
	pn=$(timeout 60 "$PERF" script -F comm -i k.data 2>/dev/null | grep -c .)
	[ "${pn:-0}" -gt 10 ] || fail "$mode: perf report shows ${pn:-no} samples: $(head -5 perf.err)"
	grep -q "spin.*spin_victim" perf.rep || fail "$mode: perf report: spin_victim missing"
	# same file, same samples: the two readers must agree on the count
	[ "$n" -eq "$pn" ] || fail "$mode: prf read $n samples, perf read $pn"
	echo "ok: $mode: killed recording read by prf and perf: $n samples each"
done
exit 0
