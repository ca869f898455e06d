#!/bin/bash
# prf script -S/--symbols, -L, --dsos, --comms, --pid, --tid, --cpu, --max-stack, --inline/--no-inline, --symfs, --header-only, --per-event-dump against perf script on the same perf.data, recorded by perf and by prf (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/script.sh"
test_setup script-opts26b

cat > "$T/w.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void spin2(long n) { for (long i = 0; i < n; i++) sink += i; }
static inline __attribute__((always_inline)) void twice(long n) { spin2(n); spin2(n); }
int main(void) {
	pid_t p = fork();
	if (p == 0) { spin(30000000); _exit(0); }
	for (int i = 0; i < 500000; i++) close(dup(1));	/* kernel samples */
	twice(20000000); waitpid(p, NULL, 0); return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -o "$T/w" "$T/w.c" || fail "cc"
perf_record "$T/perf.data" -e cpu-clock,task-clock -F 999 -g --sample-cpu -- "$T/w"
"$PRF" record -q -o "$T/prf.data" -e cpu-clock,task-clock -F 999 -g --sample-cpu -- "$T/w" > /dev/null 2> "$T/prec.err" ||
	{ cat "$T/prec.err"; fail "prf record"; }


for IN in "$T/perf.data" "$T/prf.data"; do
	pid=$("$PRF" script -i "$IN" -F pid,ip,sym -G | awk '$3 == "spin" { print $1; exit }')
	ppid=$("$PRF" script -i "$IN" -F pid,ip,sym -G | awk '$3 == "spin2" { print $1; exit }')
	[ -n "$pid" ] && [ -n "$ppid" ] || fail "no spin/spin2 samples in $IN"
	same "-S spin2" -S spin2
	same "-S spin,main -G" -S spin,main -G
	same "--symbols spin2 --dsos w" --symbols spin2 --dsos w
	same "--dsos w -G" --dsos w -G
	same "--dsos [kernel.kallsyms]" --dsos '[kernel.kallsyms]'
	same "--dsos $T/w (long name)" --dsos "$T/w" -G
	same "--comms w -S spin" --comms w -S spin
	same "--pid child" --pid "$pid" -G
	same "--tid parent,child" --tid "$ppid,$pid"
	cpu=$("$PRF" script -i "$IN" -F cpu -S spin2 | head -1 | tr -d ' []')
	cpu=$((10#$cpu))
	same "--cpu $cpu" --cpu "$cpu" -G
	same "-C 0-1 -S spin2" -C 0-1 -S spin2
	same "-C $cpu -S spin2" -C "$cpu" -S spin2
	same "--max-stack 2" --max-stack 2
	same "--no-inline" --no-inline
	same "--inline" --inline
	same "--header-only" --header-only
	same "-L" -L
	same "-L --show-task-events -G -F +cpu" -L --show-task-events -G -F +cpu
	same "--symfs /" --symfs / -G
	n=$("$PRF" script -i "$IN" -S spin2 -G | grep -vc ' spin2+')
	[ "$n" -eq 0 ] || fail "-S spin2 kept $n other samples"

	# --per-event-dump: INPUT.EVENT.dump files, their sizes announced on stdout
	for opts in "" "-F comm,tid,event,ip,sym --show-task-events"; do
		rm -f "$IN".*.dump
		# shellcheck disable=SC2086
		prf_out "$T/prf.txt" script -i "$IN" --per-event-dump $opts
		for e in cpu-clock task-clock; do
			mv "$IN.$e.dump" "$T/prf.$e" || fail "--per-event-dump $opts: no $IN.$e.dump"
		done
		# shellcheck disable=SC2086
		"$PERF" script -i "$IN" --per-event-dump $opts > "$T/perf.txt" 2>/dev/null
		cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "--per-event-dump $opts: stdout differs"; }
		for e in cpu-clock task-clock; do
			cmp -s "$IN.$e.dump" "$T/prf.$e" || { diff "$IN.$e.dump" "$T/prf.$e" | head; fail "--per-event-dump $opts: $e.dump differs"; }
		done
		grep -q "Wrote .* $IN.task-clock.dump ([0-9]* samples)" "$T/prf.txt" || fail "--per-event-dump: $(cat "$T/prf.txt")"
		echo "ok: --per-event-dump $opts ($(wc -l < "$T/prf.cpu-clock") lines in cpu-clock.dump)"
	done
done
"$PRF" script -i "$T/perf.data" --per-event-dump --folded > /dev/null 2>&1
rc=$?
[ $rc -eq 129 ] || fail "--per-event-dump --folded: exit $rc, want 129"

# --symfs: a stripped program recorded, its unstripped copy under DIR/PATH
# (a build of its own, outside the build-id cache: -N)
sed 's/unsigned long sink;/unsigned long sink, ws;/; /close(dup/d' "$T/w.c" > "$T/ws.c"
mkdir -p "$T/sym$T" && cc -O1 -g -fno-omit-frame-pointer -o "$T/sym$T/ws" "$T/ws.c" &&
	cp "$T/sym$T/ws" "$T/ws" && strip "$T/ws" || fail "strip"
perf_record "$T/ws.data" -N -F 999 -g -- "$T/ws"
IN=$T/ws.data
same "stripped, no --symfs" --dsos ws -G
grep -q ' spin' "$T/prf.txt" && fail "the stripped program names spin"
same "--symfs DIR" --symfs "$T/sym" --dsos ws -G
grep -q ' spin2+' "$T/prf.txt" || fail "--symfs DIR: no spin2 from the unstripped copy"

# -L: tracepoints and samples with perf's latency-format comm and cpu
perf_record "$T/tp.data" -e sched:sched_process_fork -e cpu-clock -c 1000000 --sample-cpu -- "$T/w"
IN=$T/tp.data
same "-L (tracepoints)" -L
same "-L -F comm,cpu,event,trace" -L -F comm,cpu,event,trace
grep -q '^       w   [0-9] sched:sched_process_fork: comm=w' "$T/prf.txt" || fail "-L: $(head -2 "$T/prf.txt")"
exit 0
