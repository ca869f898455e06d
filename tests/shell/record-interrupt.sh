#!/bin/bash
# prf record ends cleanly on SIGINT, SIGTERM, a crashing workload, a full disk, and survives kill -9
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-interrupt
MNT=
cleanup() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T" || exit 1

cc_prog spin	# spins in spin_here() (lib/spin.c)
cat > segv.c <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void crash_soon(void) { for (unsigned long i = 0; i < 100000000UL; i++) sink += i; *(volatile int *)0 = 1; }
int main(void) { crash_soon(); return 0; }
C
cc -O0 -fno-omit-frame-pointer -o segv segv.c || fail "cc"

readable() { # file what
	"$PERF" report --stdio -i "$1" >rep.out 2>rep.err || fail "$2: perf report exit: $(cat rep.err)"
	[ -s rep.err ] && fail "$2: perf report warnings: $(cat rep.err)"
	grep -q "^# Samples: [1-9]" rep.out || fail "$2: no samples"
	grep -q "spin_here\|crash_soon" rep.out || fail "$2: workload symbol missing"
}
spin_pids() { # the spin processes started by this test (children of prf pid $1)
	pgrep -P "$1" -x spin
}
# wait (up to 60 s) until prf pid $1 runs a spin child that has used 0.3 s
# of CPU: under load or sanitizers a fixed sleep may end before any
# sample of spin_here exists
wait_spinning() {
	local i p ticks
	for i in $(seq 600); do
		for p in $(spin_pids "$1"); do
			ticks=$(awk '{ print $14 + $15 }' /proc/$p/stat 2>/dev/null)
			[ "${ticks:-0}" -ge 30 ] && return 0
		done
		sleep 0.1
	done
	fail "no spinning workload under prf after 60 s"
}

for sig in INT TERM; do
	"$PRF" record -g -o $sig.data -- ./spin 2>err & PR=$!
	wait_spinning $PR
	kill -$sig $PR
	wait $PR; rc=$?
	# the workload got SIGTERM from prf, as perf does: 128 + 15
	[ $rc -eq 143 ] || fail "SIG$sig: exit $rc, expected the workload's 143"
	grep -q "Captured and wrote" err || fail "SIG$sig: no summary"
	readable $sig.data "SIG$sig"
	"$PERF" report --header-only -i $sig.data | grep -q "^# hostname" || fail "SIG$sig: header features missing"
done

# workload that segfaults: status 139 like a shell, file complete
"$PRF" record -g -o segv.data -- ./segv 2>err; rc=$?
[ $rc -eq 139 ] || fail "segv: exit $rc"
readable segv.data "segfaulting workload"

# exit status of a workload is passed through
"$PRF" record -q -o st.data -- sh -c 'exit 3'; rc=$?
[ $rc -eq 3 ] || fail "exit status 3 came back as $rc"

# kill -9 of prf: what was drained (every 500 ms at the latest) is readable
"$PRF" record -g -o kill.data -- ./spin 2>/dev/null & PR=$!
wait_spinning $PR
sleep 1	# past one drain (every 500 ms at the latest)
SP=$(spin_pids $PR)
kill -9 $PR; wait $PR 2>/dev/null
[ -n "$SP" ] && kill $SP
readable kill.data "after kill -9"

# full disk: clear message, non-zero exit, file valid up to the last record
mkdir mnt
if mount -t tmpfs -o size=200k tmpfs mnt 2>/dev/null; then
	MNT=$T/mnt
	"$PRF" record -g -F 4000 -o mnt/f.data -- ./spin 2>err; rc=$?
	[ $rc -ne 0 ] || fail "ENOSPC: exit 0"
	grep -q "No space left on device" err || fail "ENOSPC: no message: $(cat err)"
	readable mnt/f.data "ENOSPC"
	umount mnt; MNT=
else
	echo "note: cannot mount a tmpfs, ENOSPC case not run"
fi
exit 0
