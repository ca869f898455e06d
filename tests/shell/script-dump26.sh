#!/bin/bash
# prf report -D/--dump-raw-trace and prf script -D print every record as perf 6.1 does (offsets, bytes, record fields, samples with callchains, registers and user stacks, the --stats block, script's samples between), byte for byte, on FP, tracepoint, DWARF, side-band rich, pipe and prf-written recordings (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-dump26

cat > "$T/d.c" <<'C'
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void) {
	for (int i = 0; i < 20; i++) { spin(3000000); usleep(2000); }
	return 0;
}
C
cc -O0 -g -fno-omit-frame-pointer -o "$T/d" "$T/d.c" || fail "cc d.c"
cd "$T" || fail "cd"
perf_record fp.data -F 999 -g -- ./d
perf_record tp.data -e sched:sched_switch -e sched:sched_stat_runtime -g -- ./d
perf_record dw.data -F 499 --call-graph dwarf,2048 -- ./d
perf_record sb.data -F 999 --switch-events --namespaces -s -e cpu-clock,task-clock -- ./d
"$PERF" record -q -o - -F 999 -g -- ./d > pipe.data 2> rec.err || { cat rec.err; fail "perf record -o -"; }
"$PRF" record -q -o prf.data -F 999 -g -- ./d > /dev/null 2> prfrec.err || { cat prfrec.err; fail "prf record"; }

# same CMD FILE [ARG...]: prf CMD -D and perf CMD -D print the same on FILE
same() {
	local cmd=$1 data=$2
	shift 2
	"$PERF" "$cmd" -D -i "$data" "$@" > perf.txt 2> perf.err
	prf_out prf.txt "$cmd" -D -i "$data" "$@"
	[ -s perf.txt ] || fail "$cmd -D $data: perf printed nothing"
	cmp -s perf.txt prf.txt || { diff perf.txt prf.txt | head -20; fail "$cmd -D on $data differs"; }
	echo "ok: $cmd -D on $data ($(wc -l < prf.txt) lines, $(grep -c 'PERF_RECORD_SAMPLE' prf.txt) samples)"
}
for data in fp.data tp.data dw.data sb.data pipe.data prf.data; do
	same report "$data"
	# script's own sample lines of DWARF chains name some libc frames
	# otherwise than perf (Documentation/prf-report.txt, "Names of some
	# libc functions"): there without the chains
	if [ "$data" = dw.data ]; then
		same script "$data" -G
	else
		same script "$data"
	fi
done
prf_out dw.txt report -D -i dw.data
grep -q '^\.\.\. user regs: mask 0x[0-9a-f]* ABI 64-bit$' dw.txt || fail "no user regs in the DWARF dump"
grep -q '^\.\.\.\. IP    0x' dw.txt || fail "no IP register line in the DWARF dump"
grep -q '^\.\.\. ustack: size [0-9]*, offset 0x' dw.txt || fail "no ustack line in the DWARF dump"
grep -q 'PERF_RECORD_SWITCH' <("$PRF" report -D -i sb.data) || fail "no SWITCH record in the dump"
# a pipe on stdin is named "pipe", its offsets counted from its first record
"$PRF" report -D -i - < pipe.data > stdin.txt 2> stdin.err || { cat stdin.err; fail "report -D -i -"; }
"$PERF" report -D -i - < pipe.data > perf-stdin.txt 2> /dev/null
cmp -s perf-stdin.txt stdin.txt || { diff perf-stdin.txt stdin.txt | head; fail "report -D of a pipe on stdin differs"; }
grep -q '^0@pipe ' stdin.txt || fail "the pipe's first record is not 0@pipe"
echo "ok: report -D of a pipe on stdin"
