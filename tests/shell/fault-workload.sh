#!/bin/bash
# Fault: workload exits non-zero, segfaults, is killed or cannot exec: complete recording, exit status as perf's
# perf 6.1 passes the workload's fate on: exit N -> N, death by signal ->
# it kills itself with that signal. prf must give the same status as perf
# on the same workload, and the file must be complete (header finished:
# Linux perf reads it without the "data size field is 0" warning).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup fault-workload
cd "$T" || exit 1

cat >w.c <<'C'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void burn_before(void) { for (unsigned long i = 0; i < 60000000UL; i++) sink += i; }
int main(int argc, char **argv)
{
	burn_before();
	if (!strcmp(argv[1], "segv"))
		*(volatile int *)0 = 1;
	if (!strcmp(argv[1], "abort"))
		abort();
	if (!strcmp(argv[1], "term"))
		kill(getpid(), SIGTERM);
	return atoi(argv[1]);
}
C
cc -O0 -fno-omit-frame-pointer -o w w.c || fail "cc"

for how in 0 3 segv abort term noexec; do
	cmd=(./w "$how")
	[ $how = noexec ] && cmd=(./does-not-exist)
	# ulimit -c 0: no core files from the crashing cases
	# (an inner bash waits for the recorder, so its "Segmentation fault"
	# job message goes to /dev/null, not into the test's output)
	bash -c 'ulimit -c 0; timeout 60 "$@" >/dev/null 2>perf.rec' _ "$PERF" record -q -F 499 -o perf.data -- "${cmd[@]}" 2>/dev/null
	want=$?
	bash -c 'ulimit -c 0; timeout 60 "$@" >/dev/null 2>prf.rec' _ "$PRF" record -q -F 499 -o prf.data -- "${cmd[@]}" 2>/dev/null
	got=$?
	[ $got -eq 124 ] && fail "$how: prf record hung"
	[ $got -eq "$want" ] || fail "$how: prf record exit $got, perf record exit $want ($(head -2 prf.rec))"
	if [ $how = noexec ]; then
		grep -q "does-not-exist" prf.rec || fail "noexec: message does not name the program: $(head -2 prf.rec)"
		echo "ok: $how: exit $got as perf's: $(head -1 prf.rec)"
		continue
	fi
	timeout 60 "$PERF" report --stdio --sort sym -i prf.data >rep.out 2>rep.err || fail "$how: perf report failed on prf's file: $(head -3 rep.err)"
	grep -q -i "data size field is 0\|not properly terminated" rep.err && fail "$how: recording not finished: $(head -2 rep.err)"
	grep -q "burn_before" rep.out || fail "$how: workload samples missing (burn_before)"
	timeout 60 "$PRF" report --stdio --sort sym -i prf.data >prep.out 2>prep.err || fail "$how: prf report failed: $(head -3 prep.err)"
	grep -q "burn_before" prep.out || fail "$how: prf report: burn_before missing"
	echo "ok: $how: exit $got as perf's, recording complete"
done
exit 0
