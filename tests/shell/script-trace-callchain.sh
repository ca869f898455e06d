#!/bin/bash
# prf script prints tracepoint samples with their callchains as perf script does (file and pipe, prf's and perf's files, -F +ip without a trailing space, -G, pipe ip/sym defaults)
# A program that sleeps in a known call path is recorded with
# -e sched:sched_switch -g by prf (file and pipe) and by perf (with a
# cpu-clock event beside it); prf script and perf script must print the
# same text for each field selection. Before, prf printed the tracepoint
# line without the stack under it, and "-F +ip" left a space after the
# payload.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-trace-callchain
"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }

cat > "$T/p.c" <<'C'
#include <unistd.h>
__attribute__((noinline)) void nap(void) { usleep(2000); }
__attribute__((noinline)) void loop(void) { for (int i = 0; i < 15; i++) nap(); }
int main(void) { loop(); return 0; }
C
cc -O1 -g -fno-omit-frame-pointer -o "$T/p" "$T/p.c" || fail "cc"

"$PRF" record -q -e sched:sched_switch -g -o "$T/prf.data" -- "$T/p" > "$T/rec.out" 2>&1 ||
	{ cat "$T/rec.out"; fail "prf record exited $?"; }
"$PRF" record -q -e sched:sched_switch -g -o - -- "$T/p" > "$T/pipe.data" 2> "$T/rec.out" ||
	{ cat "$T/rec.out"; fail "prf record -o - exited $?"; }
perf_record "$T/perf.data" -e sched:sched_switch -e cpu-clock -g -- "$T/p"

# the stack is really there: loop (nap has no frame of its own once in libc)
"$PRF" script -i "$T/prf.data" > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "prf script exited $?"; }
grep -q 'sched:sched_switch:.*prev_comm=p ' "$T/out" || fail "no sched_switch line of the program"
grep -A12 'prev_comm=p .*prev_state=S' "$T/out" | grep -q "^	 *[0-9a-f]* loop+0x[0-9a-f]* (.*/p)$" ||
	{ head -20 "$T/out"; fail "no user frame loop under a switch-out of p"; }

n=0
check() { # FILE ARGS...: prf script and perf script print the same
	local f=$1
	shift
	n=$((n + 1))
	if [ "$f" = "$T/pipe.data" ]; then
		"$PERF" script -i - "$@" < "$f" > "$T/perf.$n" 2>/dev/null
		"$PRF" script -i - "$@" < "$f" > "$T/prf.$n" 2> "$T/err.$n"
	else
		"$PERF" script -i "$f" "$@" > "$T/perf.$n" 2>/dev/null
		"$PRF" script -i "$f" "$@" > "$T/prf.$n" 2> "$T/err.$n"
	fi
	local st=$?
	[ $st -eq 0 ] || { cat "$T/err.$n"; fail "prf script $* on $f exited $st"; }
	[ -s "$T/perf.$n" ] || fail "perf script $* on $f printed nothing"
	diff -u "$T/perf.$n" "$T/prf.$n" > "$T/diff.$n" ||
		{ head -30 "$T/diff.$n"; fail "script $* on $(basename "$f") differs from perf"; }
}
for f in "$T/prf.data" "$T/perf.data" "$T/pipe.data"; do
	check "$f"
	check "$f" -F +ip
	check "$f" -G
	check "$f" -F trace:comm,tid,event,trace,ip,sym
done
check "$T/pipe.data" -F -sym
check "$T/pipe.data" -F comm,tid
grep -q ' $' "$T/prf.2" && fail "-F +ip: a line ends in a space"
exit 0
