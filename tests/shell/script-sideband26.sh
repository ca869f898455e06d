#!/bin/bash
# prf script --show-namespace-events, --show-cgroup-events, --show-round-events, --show-mmap-events of build-id MMAP2 records (record --buildid-mmap) against perf script on the same perf.data, recorded by perf and by prf (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/script.sh"
test_setup script-sideband26 taskset

cat > "$T/w.c" <<'C'
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void) {
	if (fork() == 0) { spin(20000000); _exit(0); }
	spin(30000000); wait(NULL); return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o "$T/w" "$T/w.c" || fail "cc"


perf_record "$T/perf.data" --namespaces --all-cgroups -F 999 -g -- taskset -c 0 "$T/w"
"$PRF" record -q -o "$T/prf.data" --namespaces --all-cgroups -F 999 -g -- taskset -c 0 "$T/w" \
	> /dev/null 2> "$T/prec.err" || { cat "$T/prec.err"; fail "prf record"; }
for IN in "$T/perf.data" "$T/prf.data"; do
	same "--show-namespace-events" --show-namespace-events
	grep -q 'PERF_RECORD_NAMESPACES [0-9]*/[0-9]* - nr_namespaces: 7' "$T/prf.txt" || fail "no NAMESPACES record"
	grep -q '4/user: [0-9]*/0x[0-9a-f]*, 5/mnt: ' "$T/prf.txt" || fail "namespaces not listed"
	same "--show-cgroup-events" --show-cgroup-events
	grep -q 'PERF_RECORD_CGROUP cgroup: [0-9]* /' "$T/prf.txt" || fail "no CGROUP record"
	same "--show-namespace-events --show-cgroup-events --show-task-events -F +misc -G" \
		--show-namespace-events --show-cgroup-events --show-task-events -F +misc -G
done

# rounds: perf 6.1 delivers the records in file order then (not sorted
# by time), the round lines among them
perf_record "$T/sw.data" -F 999 -g -- "$T/w"
for IN in "$T/perf.data" "$T/prf.data" "$T/sw.data"; do
	same "--show-round-events" --show-round-events
	grep -q '^PERF_RECORD_FINISHED_ROUND$' "$T/prf.txt" || fail "no FINISHED_ROUND"
	same "--show-round-events -G --deltatime --show-task-events" --show-round-events -G --deltatime --show-task-events
done
# MMAP2 records that carry a build-id instead of device and inode
perf_record "$T/bm.data" --buildid-mmap -F 999 -- "$T/w"
IN=$T/bm.data
same "--show-mmap-events (build-id MMAP2)" --show-mmap-events --show-task-events
grep -q 'PERF_RECORD_MMAP2 .* <[0-9a-f]\{40\}>\]: r-xp .*/w$' "$T/prf.txt" || fail "no build-id MMAP2 line"
"$PRF" script -i "$T/perf.data" --show-round-events --folded > /dev/null 2>&1
rc=$?
[ $rc -eq 129 ] || fail "--show-round-events --folded: exit $rc, want 129"
exit 0
