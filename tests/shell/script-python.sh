#!/bin/bash
# prf script -s runs perf's shipped Python scripts and prints what perf script -s prints on the same files
# perf records (1) the syscall tracepoints of a small threaded workload
# (raw_syscalls, syscalls:*_futex, with callchains) and (2) cpu-clock with
# callchains of a program the test compiles. On them, prf script -s and
# perf script -s run the scripts Linux perf installs in
# $PERF_EXEC_PATH/scripts/python (found as perf finds them, unmodified):
# syscall-counts (also with a comm argument), syscall-counts-by-pid,
# failed-syscalls-by-pid, futex-contention, stackcollapse (plain,
# --include-tid, --kernel --include-pid), flamegraph -f json and
# event_analyzing_sample; the outputs and exit statuses must be the same.
# Each is run a second time with PERF_EXEC_PATH pointing at prf's own
# helper modules (scripting/exec: Core, Util, EventClass), which must give
# the same output too (when python3-audit is installed: without it perf's
# Util and prf's print different hints).
# sched-migration needs wxPython (its GUI) and is not run.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-python

. "$PRF_SRCDIR/tests/shell/lib/pyscript.sh"
py_need_plugin
S=$(for d in /usr/lib/perf-core /usr/libexec/perf-core; do
	[ -d "$d/scripts/python" ] && echo "$d/scripts/python" && break; done)
[ -n "$S" ] || { echo "no perf scripts directory (perf-core/scripts/python)"; exit 2; }
"$PRF" list 'raw_syscalls:sys_enter' 2>/dev/null | grep -q sys_enter ||
	{ echo "no raw_syscalls tracepoints (tracefs?)"; exit 2; }

# the syscall workload: threads contending for a mutex (futex waits), a
# failing open, a short-lived child
cat > "$T/work.c" <<'EOF'
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *work(void *arg)
{
	for (int i = 0; i < 100; i++) {
		pthread_mutex_lock(&lock);
		usleep(100);
		pthread_mutex_unlock(&lock);
	}
	return arg;
}
int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	open("/nonexistent/prf-test", O_RDONLY);
	return system("true");
}
EOF
cc -O1 -fno-omit-frame-pointer -pthread -o "$T/work" "$T/work.c" || fail "cc work.c"
perf_record "$T/sys.data" -g -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-e syscalls:sys_enter_futex -e syscalls:sys_exit_futex -- "$T/work"

py_record_cpu 2000

# same FILE ARGS...: perf script and prf script -i FILE ARGS... print the
# same and exit alike
same() {
	local file=$1 rc_perf rc_prf
	shift
	(cd "$T" && rm -f /dev/shm/perf.db && "$PERF" script -i "$file" "$@") > "$T/perf.out" 2>"$T/perf.err"
	rc_perf=$?
	(cd "$T" && rm -f /dev/shm/perf.db && "$PRF" script -i "$file" "$@") > "$T/prf.out" 2>"$T/prf.err"
	rc_prf=$?
	[ $rc_perf -eq $rc_prf ] || { cat "$T/prf.err"; fail "$*: prf exit $rc_prf, perf $rc_perf"; }
	[ -s "$T/perf.out" ] || { cat "$T/perf.err"; fail "$*: perf printed nothing"; }
	cmp -s "$T/perf.out" "$T/prf.out" ||
		{ diff "$T/perf.out" "$T/prf.out" | head -20; fail "$*: prf script differs from perf script"; }
	# again with prf's own Core/Util/EventClass instead of perf's
	if [ -n "$own" ]; then
		(cd "$T" && rm -f /dev/shm/perf.db && PERF_EXEC_PATH="$own" "$PRF" script -i "$file" "$@") \
			> "$T/own.out" 2>"$T/own.err"
		rc_prf=$?
		[ $rc_perf -eq $rc_prf ] || { cat "$T/own.err"; fail "$* (prf's modules): exit $rc_prf"; }
		cmp -s "$T/perf.out" "$T/own.out" ||
			{ diff "$T/perf.out" "$T/own.out" | head -20; fail "$*: differs with prf's modules"; }
	fi
	echo "ok: ${2##*/} ${*:3} ($(wc -l < "$T/prf.out") lines, exit $rc_prf${own:+; also with prf modules})"
}
trap 'rm -rf "$T"; rm -f /dev/shm/perf.db' EXIT
own=$prf_exec
# the interpreter prf embeds (python3 on PATH may be another one)
printf 'import audit\n' > "$T/audit.py"
"$PRF" script -i "$T/cpu.data" -s "$T/audit.py" > /dev/null 2>&1 ||
	{ echo "note: no python3-audit: prf's modules not compared"; own=""; }

same sys.data -s "$S/syscall-counts.py"
same sys.data -s "$S/syscall-counts.py" work
same sys.data -s "$S/syscall-counts-by-pid.py"
same sys.data -s "$S/failed-syscalls-by-pid.py"
same sys.data -s "$S/futex-contention.py"
grep -q 'contended' "$T/prf.out" || fail "futex-contention found no contended lock"
same cpu.data -s "$S/stackcollapse.py" -- --kernel --include-pid
same cpu.data -s "$S/stackcollapse.py"
grep -q 'leaf' "$T/prf.out" || fail "stackcollapse: no leaf frame"
same cpu.data -s "$S/stackcollapse.py" -- --include-tid
same cpu.data -s "$S/flamegraph.py" -- -f json -o -
same cpu.data -s "$S/event_analyzing_sample.py"
exit 0
