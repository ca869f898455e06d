#!/bin/bash
# prf stat counts tracepoints like perf stat (sched_switch, sys_enter_openat: N opens give >= N, perf +-2; --filter)
# prf-test: serial: compares sched_switch counts of two runs, which other tests' load changes
# A program opening /dev/null N times runs under prf stat and perf stat
# with the same two tracepoints. sys_enter_openat depends only on the
# program (its N opens plus the dynamic loader's), so prf's count must be
# at least N and within 2 of perf's; sched_switch depends on the
# scheduler, so it must only be non-zero and within 10 + 100% of perf's
# (in one of up to 3 pairs of runs: other work on the machine preempts
# the program in one run and not the other).
# --filter 'flags == 0' keeps only the program's O_RDONLY opens: prf and
# perf must count the same; a bad filter fails with perf's message.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup trace-stat

"$PRF" list 'syscalls:sys_enter_openat' 2>/dev/null | grep -q sys_enter_openat ||
	{ echo "no syscalls:sys_enter_openat tracepoint (tracefs?)"; exit 2; }

cat > "$T/openn.c" <<'C'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;

	for (int i = 0; i < n; i++) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			close(fd);
	}
	usleep(2000);	/* at least one switch */
	return 0;
}
C
cc -O2 -o "$T/openn" "$T/openn.c" || fail "cc"
N=700
EV='sched:sched_switch,syscalls:sys_enter_openat'

count() { # file event
	awk -F, -v e="$2" '$3 == e { print $1 }' "$1"
}
# sched_switch counts the program's preemptions too, which other work on
# the machine adds to one run and not the other: up to 3 tries for the
# counts to agree within the bound (openat must agree in each)
for try in 1 2 3; do
	"$PRF" stat -x, -e "$EV" -o "$T/prf.csv" -- "$T/openn" $N >/dev/null 2>"$T/prf.err" ||
		{ cat "$T/prf.err"; fail "prf stat failed"; }
	"$PERF" stat -x, -e "$EV" -o "$T/perf.csv" -- "$T/openn" $N >/dev/null 2>"$T/perf.err" ||
		{ cat "$T/perf.err"; echo "perf stat failed (perf_event_paranoid?)"; exit 2; }
	p_open=$(count "$T/prf.csv" syscalls:sys_enter_openat)
	r_open=$(count "$T/perf.csv" syscalls:sys_enter_openat)
	p_sw=$(count "$T/prf.csv" sched:sched_switch)
	r_sw=$(count "$T/perf.csv" sched:sched_switch)
	echo "sys_enter_openat: prf $p_open perf $r_open; sched_switch: prf $p_sw perf $r_sw"
	[[ "$p_open" =~ ^[0-9]+$ && "$r_open" =~ ^[0-9]+$ ]] || { cat "$T/prf.csv"; fail "no openat count"; }
	[[ "$p_sw" =~ ^[0-9]+$ && "$r_sw" =~ ^[0-9]+$ ]] || { cat "$T/prf.csv"; fail "no sched_switch count"; }
	[ "$p_open" -ge $N ] || fail "prf counted $p_open sys_enter_openat for $N opens"
	d=$((p_open - r_open)); d=${d#-}
	[ $d -le 2 ] || fail "openat: prf $p_open vs perf $r_open"
	[ "$p_sw" -ge 1 ] || fail "no sched_switch counted (the program sleeps)"
	lim=$((10 + 2 * r_sw))
	[ "$p_sw" -le $lim ] && break
	[ $try -lt 3 ] || fail "sched_switch: prf $p_sw vs perf $r_sw, 3 times"
done

# --filter: only the program's own opens have flags == 0 (O_RDONLY; the
# loader adds O_CLOEXEC): exactly N, as perf counts
"$PRF" stat -x, -e syscalls:sys_enter_openat --filter 'flags == 0' -o "$T/f.csv" -- "$T/openn" $N \
	>/dev/null 2>"$T/prf.err" || { cat "$T/prf.err"; fail "prf stat --filter"; }
"$PERF" stat -x, -e syscalls:sys_enter_openat --filter 'flags == 0' -o "$T/pf.csv" -- "$T/openn" $N \
	>/dev/null 2>&1 || fail "perf stat --filter"
p_f=$(count "$T/f.csv" syscalls:sys_enter_openat)
r_f=$(count "$T/pf.csv" syscalls:sys_enter_openat)
echo "with --filter 'flags == 0': prf $p_f perf $r_f"
[ "$p_f" = "$r_f" ] && [ "$p_f" -ge $N ] && [ "$p_f" -lt "$p_open" ] || fail "filtered openat: prf $p_f perf $r_f"
"$PRF" stat -e syscalls:sys_enter_openat --filter 'nope = =' -- true >/dev/null 2>"$T/bad.err" &&
	fail "prf stat accepted a bad filter"
grep -q 'failed to set filter "nope = =" on event syscalls:sys_enter_openat with 22 (Invalid argument)' "$T/bad.err" ||
	{ cat "$T/bad.err"; fail "bad filter message"; }

# a glob works in stat too
"$PRF" stat -x, -e 'syscalls:sys_enter_open*' -o "$T/glob.csv" -- "$T/openn" 10 >/dev/null 2>&1 ||
	fail "prf stat with a tracepoint glob"
grep -q ',syscalls:sys_enter_openat,' "$T/glob.csv" || { cat "$T/glob.csv"; fail "glob lacks sys_enter_openat"; }
exit 0
