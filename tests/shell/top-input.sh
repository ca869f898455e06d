#!/bin/bash
# prf top: bad input (unknown event, bad -d, unknown option, dead pid) gives one line and a non-zero exit; -p of a process that exits ends top with a message; unprivileged -a gets perf top's paranoid hint, -p of one's own process works
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-input

# bad_input WANT ARG...: prf top ARG... exits WANT with one line on stderr
bad_input() {
	local want=$1 rc
	shift
	timeout 20 "$PRF" top --stdio "$@" > "$T/bad.out" 2> "$T/bad.err"
	rc=$?
	[ $rc -eq "$want" ] || { cat "$T/bad.err"; fail "prf top $*: exit $rc, want $want"; }
	[ "$(wc -l < "$T/bad.err")" -eq 1 ] || { cat "$T/bad.err"; fail "prf top $*: not one line"; }
	[ -s "$T/bad.out" ] && fail "prf top $*: wrote to stdout"
	echo "ok: $* -> $rc: $(cat "$T/bad.err")"
}
bad_input 129 -e no_such_event
bad_input 129 -d 0
bad_input 129 -d abc
bad_input 129 -m 3
true & dead=$!
wait $dead
bad_input 1 -p "$dead"
"$PRF" top --no-such-option > /dev/null 2> "$T/opt.err"
rc=$?
[ $rc -eq 129 ] || fail "unknown option: exit $rc"
grep -q "unknown option" "$T/opt.err" || { cat "$T/opt.err"; fail "unknown option message"; }

# -p of a process that exits: top ends by itself, status 0, with a message
cat > "$T/busy.c" <<'C'
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) void busy(void) { for (int i = 0; i < 1000; i++) sink += i; }
int main(void)
{
	time_t t0 = time(0);
	while (time(0) - t0 < 2)
		busy();
	return 0;
}
C
cc -O0 -o "$T/busy" "$T/busy.c" || fail "cc"
"$T/busy" & pid=$!
timeout 30 "$PRF" top --stdio -d 0.3 -p "$pid" > "$T/p.out" 2> "$T/p.err"
rc=$?
wait $pid
[ $rc -eq 0 ] || { cat "$T/p.err"; fail "-p of an exiting process: exit $rc"; }
grep -q "process $pid exited" "$T/p.err" || { cat "$T/p.err"; fail "no exit message"; }
grep -q "(target_pid: $pid)" "$T/p.out" || fail "no -p header"
grep -q '\[\.\] busy$' "$T/p.out" || fail "busy not shown for -p"
echo "ok: -p $pid ended with: $(cat "$T/p.err")"

# unprivileged: -a refused with perf top's text; -p of one's own process works
U=nobody
if [ "$(id -u)" -eq 0 ] && command -v su >/dev/null && id "$U" >/dev/null 2>&1 &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	cp "$PRF" "$T/prf" && cp "$T/busy" "$T/busy2" && chmod 755 "$T" "$T/prf" "$T/busy2" || fail "copy"
	su "$U" -s /bin/sh -c "$T/prf top --stdio -a -d 1" > "$T/u.out" 2> "$T/u.err"
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/u.err"; fail "unprivileged -a: exit $rc"; }
	su "$U" -s /bin/sh -c "$PERF top --stdio -a -d 1 < /dev/null" > /dev/null 2> "$T/perf-u.err"
	cmp -s "$T/perf-u.err" "$T/u.err" || { diff "$T/perf-u.err" "$T/u.err"; fail "hint differs from perf top's"; }
	su "$U" -s /bin/sh -c "$T/busy2 & exec $T/prf top --stdio -d 0.3 -p \$!" > "$T/u2.out" 2> "$T/u2.err"
	rc=$?
	[ $rc -eq 0 ] || { cat "$T/u2.err"; fail "unprivileged -p of own process: exit $rc"; }
	grep -q '\[\.\] busy$' "$T/u2.out" || { cat "$T/u2.out" | tail; fail "unprivileged -p: busy not shown"; }
	echo "ok: unprivileged -a refused as perf does, -p of own process works"
else
	echo "(unprivileged checks skipped: not root, no su/nobody, or paranoid < 1)"
fi
# perf-config(1) keys: top.children (one share column without it, two
# with -g by default), top.call-graph (the unwinding -g alone asks for,
# seen in --record's attributes)
cat > "$T/spin.c" <<'C'
#include <time.h>
volatile unsigned long s;
/* a second of cpu time, however fast the machine: several refreshes */
__attribute__((noinline)) void leaf(void)
{
	struct timespec t;

	do {
		for (long i = 0; i < 1000000; i++)
			s += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while (t.tv_sec < 1);
}
int main(void) { leaf(); return 0; }
C
cc -O1 -fno-omit-frame-pointer -o "$T/spin" "$T/spin.c" || fail "cc spin.c"
cols() { grep -m1 -E '^ +[0-9.]+%' "$1" | grep -o '%' | wc -l; }
printf '[top]\n\tchildren = false\n' > "$T/nochildren.cfg"
PERF_CONFIG="$T/nochildren.cfg" timeout 30 "$PRF" top --stdio -g -d 0.3 -- "$T/spin" > "$T/nc.out" 2>&1 ||
	fail "prf top with top.children = false"
timeout 30 "$PRF" top --stdio -g -d 0.3 -- "$T/spin" > "$T/c.out" 2>&1 || fail "prf top -g"
[ "$(cols "$T/nc.out")" -eq 1 ] && [ "$(cols "$T/c.out")" -eq 2 ] ||
	{ head -8 "$T/nc.out" "$T/c.out"; fail "top.children: share columns $(cols "$T/nc.out") and $(cols "$T/c.out"), want 1 and 2"; }
printf '[top]\n\tcall-graph = dwarf\n' > "$T/dwarf.cfg"
PERF_CONFIG="$T/dwarf.cfg" timeout 30 "$PRF" top --stdio -g -d 0.3 --record "$T/top.data" -- "$T/spin" > /dev/null 2>&1 ||
	fail "prf top with top.call-graph = dwarf"
"$PERF" evlist -v -i "$T/top.data" 2>/dev/null | grep -q 'sample_stack_user: 8192' ||
	fail "top.call-graph = dwarf: -g did not record user stacks"
echo "ok: top.children and top.call-graph of the config honoured"
exit 0
