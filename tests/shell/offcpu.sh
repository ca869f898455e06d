#!/bin/bash
# prf record --off-cpu: 200 ms slept in sleeper() shows as ~200 ms (+-20%) offcpu-time under main;sleeper (script --folded, report)
# sleeper() makes the nanosleep system call itself (inline syscall, so
# the user stack at the switch-out starts in sleeper with frame pointers
# intact) and is called from main after some work. prf record --off-cpu
# records sched:sched_switch with callchains and switch records; prf
# script --folded must then put 160..240 ms of offcpu-time (ns) on stacks
# through main;sleeper, prf report must list the offcpu-time event with
# sleeper, and perf must still read the file.
set -u
PERF=${PERF_BIN:-/usr/bin/perf}
[ "$(uname -m)" = x86_64 ] || { echo "the test program's inline syscall is x86_64 only"; exit 2; }
command -v cc >/dev/null || { echo "no C compiler"; exit 2; }
T=$(mktemp -d /tmp/prf-offcpu.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }

cat > "$T/sl.c" <<'C'
#include <sys/syscall.h>
#include <time.h>
volatile unsigned long sink;

__attribute__((noinline)) void work(void)
{
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
}

__attribute__((noinline)) void sleeper(void)
{
	struct timespec ts = { 0, 200000000 };	/* 200 ms */
	long ret;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"((long)SYS_nanosleep), "D"(&ts), "S"(0L)
			 : "rcx", "r11", "memory");
	sink += (unsigned long)ret;
}

int main(void)
{
	work();
	sleeper();
	work();
	return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o "$T/sl" "$T/sl.c" || fail "cc"

"$PRF" record -q --off-cpu -o "$T/oc.data" -- "$T/sl" 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record --off-cpu"; }

"$PRF" script -i "$T/oc.data" --folded > "$T/folded" 2>"$T/err" || { cat "$T/err"; fail "prf script --folded"; }
ns=$(awk '/;main;sleeper(;|$| )/ { s += $NF } END { print s + 0 }' "$T/folded")
echo "off-CPU under main;sleeper: $ns ns"
[ "$ns" -ge 160000000 ] && [ "$ns" -le 240000000 ] ||
	{ head -20 "$T/folded"; fail "off-CPU time under main;sleeper is $ns ns, expected 200 ms +-20%"; }

"$PRF" report -i "$T/oc.data" --stdio > "$T/report" 2>"$T/err" || { cat "$T/err"; fail "prf report"; }
grep -q "of event 'offcpu-time'" "$T/report" || { head -30 "$T/report"; fail "no offcpu-time in prf report"; }
# the sleeper entry carries (nearly) all off-CPU time of the program
awk "/of event 'offcpu-time'/ { on = 1 } on && / sleeper\$/ { print; exit }" "$T/report" | grep -q '%' ||
	{ sed -n "/offcpu-time/,\$p" "$T/report" | head -30; fail "sleeper missing from the offcpu-time report"; }

if [ -x "$PERF" ]; then
	"$PERF" script -i "$T/oc.data" > "$T/perf.out" 2>"$T/perf.err" || { cat "$T/perf.err"; fail "perf cannot read the --off-cpu file"; }
	grep -q 'sched:sched_switch: prev_comm=sl ' "$T/perf.out" || fail "perf sees no sched_switch of the program"
fi
exit 0
