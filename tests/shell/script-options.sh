#!/bin/bash
# prf script: pipe input, closed output pipe, filters, side-band events, --header (vs perf)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-opts

cat > "$T/w.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void) {
	pid_t p = fork();
	if (p == 0) { spin(60000000); _exit(0); }
	spin(60000000); waitpid(p, NULL, 0); return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o "$T/w" "$T/w.c" || fail "cc"
"$PERF" record -q -F 999 -g --sample-cpu -o "$T/w.data" -- "$T/w" >/dev/null 2>&1 ||
	{ echo "perf record failed (perf_event_paranoid?)"; exit 2; }

same() { # name args...: prf and perf print the same
	local name=$1; shift
	"$PERF" script -i "$T/w.data" "$@" > "$T/perf.txt" 2>/dev/null
	"$PRF" script -i "$T/w.data" "$@" > "$T/prf.txt" 2>"$T/err.txt" || { cat "$T/err.txt"; fail "$name: prf failed"; }
	[ -s "$T/perf.txt" ] || fail "$name: perf printed nothing"
	diff -q "$T/perf.txt" "$T/prf.txt" >/dev/null || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
}

same "default"
same "side-band" --show-task-events --show-mmap-events
grep -q 'PERF_RECORD_FORK(' "$T/prf.txt" || fail "no FORK record printed"
grep -q 'PERF_RECORD_MMAP2 ' "$T/prf.txt" || fail "no MMAP2 record printed"
grep -q 'PERF_RECORD_EXIT(' "$T/prf.txt" || fail "no EXIT record printed"
same "header" --header
grep -q '^# cmdline : ' "$T/prf.txt" || fail "--header printed no cmdline"

# filters: the child's tid, a comm, a cpu, a time window
child=$("$PRF" script -i "$T/w.data" --show-task-events | sed -n 's/.*PERF_RECORD_FORK(\([0-9]*\):.*/\1/p' | head -1)
[ -n "$child" ] || fail "no child pid"
same "--tid" --tid "$child"
same "--pid" --pid "$child"
n=$(grep -c "^w  *$child " "$T/prf.txt"); [ "$n" -gt 5 ] || fail "--pid $child kept $n samples"
grep -v "^w  *$child " "$T/prf.txt" | grep -q '^w ' && fail "--pid kept other processes"
same "--comms" --comms w
cpu=$("$PRF" script -i "$T/w.data" -F cpu | head -1 | tr -dc '0-9')
same "-C" -C "$((10#$cpu))"
t0=$("$PRF" script -i "$T/w.data" --ns -F time | sed -n '10p' | tr -d ' :')
t1=$("$PRF" script -i "$T/w.data" --ns -F time | sed -n '30p' | tr -d ' :')
same "--time" --time "$t0,$t1"
n=$("$PRF" script -i "$T/w.data" --time "$t0,$t1" -F time | wc -l)
[ "$n" -eq 21 ] || fail "--time $t0,$t1 kept $n samples, want 21"
same "--max-stack" --max-stack 2

# pipe input: perf record -o - | prf script -i -
"$PERF" record -q -F 999 -g -o - -- "$T/w" 2>/dev/null > "$T/pipe.data" || fail "pipe record"
"$PERF" script -i - < "$T/pipe.data" > "$T/perf.txt" 2>/dev/null
"$PRF" script -i - < "$T/pipe.data" > "$T/prf.txt" || fail "prf script -i - failed"
diff -q "$T/perf.txt" "$T/prf.txt" >/dev/null || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "pipe input differs"; }
cat "$T/pipe.data" | "$PRF" script | cmp -s - "$T/prf.txt" || fail "stdin pipe not read by default"

# a closed output pipe ends prf quietly with status 0
"$PRF" script -i "$T/w.data" 2>"$T/err.txt" | head -1 > /dev/null
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || fail "prf script | head: status $rc"
[ -s "$T/err.txt" ] && { cat "$T/err.txt"; fail "prf script | head printed errors"; }

# errors: one line, non-zero
out=$("$PRF" script -i "$T/nonexistent.data" 2>&1) && fail "missing file succeeded"
[ "$(echo "$out" | wc -l)" -le 2 ] || fail "missing file: long message: $out"
"$PRF" script -i "$T/w.data" -F comm,bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 129 ] || fail "-F bogus status $rc"
"$PRF" script -i "$T/w.data" --time abc >/dev/null 2>&1; rc=$?
[ $rc -eq 129 ] || fail "--time abc status $rc"
echo ok
exit 0
