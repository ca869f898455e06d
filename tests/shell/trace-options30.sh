#!/bin/bash
# prf trace --call-graph fp|dwarf, --kernel-syscall-graph, --max-stack/--min-stack, --max-events, --sched as perf trace 6.1 prints them on the same program
# A program the test compiles (-g, frame pointers) opens a file three
# times from f() called by main(). prf trace and perf trace run it with
# each option; the lines (timestamps, durations, tids and pointer values
# masked) and the callchains under them must be identical. --max-events N
# prints N events and ends tracing with exit 0 while the workload goes on
# (it then writes a marker file); --sched adds each thread's runtime to
# the -s summary, as perf's ", N.NNN msec". Bad values exit 129.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup trace-options30
"$PRF" list 'raw_syscalls:sys_enter' 2>/dev/null | grep -q sys_enter ||
	{ echo "no raw_syscalls tracepoints (tracefs?)"; exit 2; }
cat > "$T/tg.c" <<'C'
#include <fcntl.h>
#include <unistd.h>
__attribute__((noinline)) void f(void) { close(open("/etc/hostname", O_RDONLY)); }
int main(void) { for (int i = 0; i < 3; i++) f(); return 0; }
C
cc -g -O0 -fno-omit-frame-pointer -o "$T/tg" "$T/tg.c" || fail "cc"

mask() { sed -E 's/^ *[0-9.]+ \( *[0-9.]+ ms\): tg\/[0-9]+ //; s/0x[0-9a-f]+/X/g; s/\) +=/) =/' "$1"; }
# openat only: glibc's close is assembly, which perf names from the
# debug file's symbol table (a documented naming difference)
for opts in "--call-graph fp" "--call-graph fp --kernel-syscall-graph" \
	    "--call-graph dwarf" "--call-graph dwarf --max-stack 2" "--min-stack 4" "--max-stack 1"; do
	"$PRF" trace $opts -e openat -- "$T/tg" > /dev/null 2> "$T/prf.out"
	rc=$?
	[ $rc -eq 0 ] || { cat "$T/prf.out"; fail "prf trace $opts: exit $rc"; }
	"$PERF" trace $opts -e openat -- "$T/tg" > /dev/null 2> "$T/perf.out" ||
		{ cat "$T/perf.out"; echo "perf trace $opts failed here"; exit 2; }
	mask "$T/prf.out" > "$T/prf.m"
	mask "$T/perf.out" > "$T/perf.m"
	cmp -s "$T/perf.m" "$T/prf.m" || { diff "$T/perf.m" "$T/prf.m"; fail "trace $opts differs from perf"; }
	echo "ok: trace $opts -e openat: $(wc -l < "$T/prf.m") lines as perf's"
done
"$PRF" trace --call-graph dwarf -e openat -- "$T/tg" 2> "$T/prf.out" > /dev/null
grep -qE '^ {39}f \(.*/tg\)$' "$T/prf.out" && grep -qE '^ {39}main \(.*/tg\)$' "$T/prf.out" ||
	{ cat "$T/prf.out"; fail "--call-graph dwarf: no f/main frames"; }
"$PRF" trace --call-graph fp --kernel-syscall-graph -e openat -- "$T/tg" 2> "$T/prf.out" > /dev/null
grep -q '(\[kernel.kallsyms\])$' "$T/prf.out" || { cat "$T/prf.out"; fail "--kernel-syscall-graph: no kernel frames"; }

# --max-events: three events printed, tracing ends, the workload goes on
"$PRF" trace --max-events 3 -- sh -c "sleep 0.3; touch '$T/marker'" > /dev/null 2> "$T/prf.out"
rc=$?
[ $rc -eq 0 ] || { cat "$T/prf.out"; fail "--max-events: exit $rc, not 0"; }
[ "$(wc -l < "$T/prf.out")" -eq 3 ] || { cat "$T/prf.out"; fail "--max-events 3: not 3 lines"; }
for i in $(seq 50); do [ -e "$T/marker" ] && break; sleep 0.1; done
[ -e "$T/marker" ] || fail "--max-events: the workload did not run on to its end"
echo "ok: --max-events 3: 3 lines, exit 0, the workload finished on its own"

# --sched: each thread's runtime in the summary, threads and calls as perf's
"$PRF" trace -s --sched -- "$T/tg" > /dev/null 2> "$T/prf.out" || fail "prf trace -s --sched"
"$PERF" trace -s --sched -- "$T/tg" > /dev/null 2> "$T/perf.out" || { echo "perf trace --sched failed"; exit 2; }
grep -qE '^ tg \([0-9]+\), [0-9]+ events, [0-9.]+%, [0-9]+\.[0-9]{3} msec$' "$T/prf.out" ||
	{ cat "$T/prf.out"; fail "--sched: no ', N.NNN msec' in the thread line"; }
rows() { awk '/^   [a-z_0-9]+ +[0-9]+ +[0-9]+ / { print $1, $2, $3 }' "$1" | sort; }
cmp -s <(rows "$T/perf.out") <(rows "$T/prf.out") ||
	{ diff <(rows "$T/perf.out") <(rows "$T/prf.out"); fail "--sched: syscall rows differ from perf"; }
echo "ok: -s --sched as perf"

# bad values
for bad in "--max-stack 0" "--min-stack -1" "--call-graph bogus"; do
	"$PRF" trace $bad -- true > /dev/null 2> "$T/err"
	rc=$?
	[ $rc -eq 129 ] && [ -s "$T/err" ] || { cat "$T/err"; fail "trace $bad: exit $rc, not 129 with a message"; }
done
echo "ok: bad values exit 129"
