#!/bin/bash
# prf script --time (ranges, percent slices), --reltime, --deltatime, --show-switch-events, --show-lost-events against perf script on the same perf.data (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/script.sh"
test_setup script-opts26

cat > "$T/w.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void) {
	pid_t p = fork();
	if (p == 0) { spin(40000000); _exit(0); }
	spin(60000000); waitpid(p, NULL, 0); return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o "$T/w" "$T/w.c" || fail "cc"
perf_record "$T/w.data" -F 999 -g --sample-cpu -- "$T/w"
IN=$T/w.data


times=$("$PRF" script -i "$T/w.data" --ns -F time | tr -d ' :')
nr=$(echo "$times" | wc -l)
[ "$nr" -gt 40 ] || fail "only $nr samples"
t() { echo "$times" | sed -n "${1}p"; }
a=$(t $((nr / 10))); b=$(t $((nr / 3))); c=$(t $((nr / 2))); d=$(t $((nr * 4 / 5)))

same "--time A,B" --time "$a,$b"
same "--time A," --time "$a,"
same "--time ,B" --time ",$b"
same "--time two ranges" --time "$a,$b $c,$d"
same "--time 10%/2" --time 10%/2
same "--time 10%/1,10%/5" --time 10%/1,10%/5
same "--time 0%-10%" --time 0%-10%
same "--time 0%-10%,50%-70%" --time 0%-10%,50%-70%
n=$("$PRF" script -i "$T/w.data" -F time --time "$a,$b" | wc -l)
[ "$n" -eq $((nr / 3 - nr / 10 + 1)) ] || fail "--time $a,$b kept $n samples"

"$PRF" script -i "$T/w.data" --time 1,2,3 > /dev/null 2> "$T/bad.err"
rc=$?
[ $rc -eq 129 ] || fail "--time 1,2,3: exit $rc, want 129"
grep -q "invalid time '1,2,3'" "$T/bad.err" || fail "--time 1,2,3: $(cat "$T/bad.err")"
echo "ok: bad --time is a usage error"

# --reltime, --deltatime (also with --ns and side-band records)
same "--reltime" --reltime
same "--deltatime" --deltatime
same "--reltime --ns" --reltime --ns
same "--deltatime --ns --show-task-events" --deltatime --ns --show-task-events
head -1 "$T/prf.txt" | grep -q ' 0\.000000000: ' || fail "--deltatime: first record not at 0"
"$PRF" script -i "$T/w.data" --reltime --deltatime > /dev/null 2>&1
rc=$?
[ $rc -eq 129 ] || fail "--reltime --deltatime: exit $rc, want 129"

# --show-switch-events: a recording with --switch-events (per task and -a)
perf_record "$T/sw.data" --switch-events -F 999 -- sh -c 'sleep 0.05; exec "$1"' sh "$T/w"
IN=$T/sw.data
same "--show-switch-events" --show-switch-events
grep -q 'PERF_RECORD_SWITCH OUT' "$T/prf.txt" || fail "no switch-out printed"
same "--show-switch-events --reltime --show-task-events" --show-switch-events --reltime --show-task-events
perf_record "$T/swa.data" --switch-events -a -F 999 -- sleep 0.1
IN=$T/swa.data
same "--show-switch-events -a" --show-switch-events
grep -q 'PERF_RECORD_SWITCH_CPU_WIDE OUT' "$T/prf.txt" || fail "no cpu-wide switch-out printed"
same "--show-switch-events -a -C 0 --deltatime" --show-switch-events -C 0 --deltatime

# --show-lost-events: page faults one sample each into a one-page buffer lose some
cat > "$T/pf.c" <<'C'
#include <stdlib.h>
int main(void) { for (int r = 0; r < 4; r++) { char *p = malloc(32 << 20); for (long i = 0; i < (32 << 20); i += 4096) p[i] = 1; free(p); } return 0; }
C
cc -O0 -o "$T/pf" "$T/pf.c" || fail "cc pf.c"
perf_record "$T/lost.data" -e page-faults -c 1 -m 1 -g -- "$T/pf"
IN=$T/lost.data
same "--show-lost-events" --show-lost-events
n=$(grep -c 'PERF_RECORD_LOST lost ' "$T/prf.txt")
[ "$n" -gt 0 ] || fail "--show-lost-events: no LOST record (perf printed $(grep -c LOST "$T/perf.txt"))"
same "--show-lost-events -G --deltatime" --show-lost-events -G --deltatime
