#!/bin/bash
# prf top lets go of processes that exited: over 300 short processes of 30 programs its model keeps a few threads and DSOs (-v's counts at the end), and the hists keep no more than their live entries need; also with -g and -z
# The workload runs 300 short processes one after the other (30
# copies of one program under their own names, in turn), then waits
# until top has printed 30 more screens (counted in top's output, not
# timed), so that every exit is a refresh behind and every entry of
# those processes has decayed. The page-faults event at -c 1 gives each
# sample a period of 1, gone at the next refresh; PRF_TOP_COMPACT_MIN=50
# makes top drop decayed entries once 50 are there; -s pid makes every
# entry name its own process, so the threads still kept (entries hold
# references to theirs) are few only if compaction released them. Then
# -g (callchain frames hold their maps: the DSOs are let go once the
# store is rebuilt without the chains that decayed) and -z (the hists
# start again every refresh) over the same workload.
# prf-test: serial: 300 processes and several top runs
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-memory
cat > "$T/short.c" <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void work(void) { for (long i = 0; i < 20000; i++) sink += i; }
int main(void) { work(); return 0; }
C
cc -O1 -fno-omit-frame-pointer -o "$T/short" "$T/short.c" || fail "cc short.c"
for i in $(seq 10 39); do cp "$T/short" "$T/short$i"; done

# the workload: 300 processes, then 30 more screens of top (at most 60 s)
cat > "$T/load.sh" <<SH
i=0
while [ \$i -lt 300 ]; do "$T/short\$((10 + i % 30))"; i=\$((i + 1)); done
n0=\$(grep -c PerfTop "$T/top.out")
while [ "\$(grep -c PerfTop "$T/top.out")" -lt \$((n0 + 30)) ] && [ \$SECONDS -lt 60 ]; do
	sleep 0.3
done
SH

# run_top OPT...: prf top -v OPT... on the workload; sets released, model, alive
run_top() {
	local line
	PRF_TOP_COMPACT_MIN=50 "$PRF" top --stdio -v -d 0.1 -e page-faults -c 1 "$@" \
		-- bash "$T/load.sh" > "$T/top.out" 2> "$T/top.err" ||
		{ tail -5 "$T/top.err"; fail "prf top $* exit $?"; }
	line=$(grep '^prf top: .* exited threads released' "$T/top.err") ||
		{ tail -5 "$T/top.err"; fail "prf top $*: no count of the model's threads at the end"; }
	read -r released model alive < <(echo "$line" |
		sed -E 's/^prf top: ([0-9]+) exited threads released, ([0-9]+) threads in the model, ([0-9]+) not yet freed$/\1 \2 \3/')
	echo "$* : $line"
	# nearly all: under load the ring can lose a short process's records
	# (CI's ASan run: 295 released, 4 threads in the model), so it never
	# had a thread; without the release this count is 0
	[ "$released" -ge 270 ] || fail "prf top $*: $released of the 300 exited processes released"
	[ "$model" -le 10 ] || fail "prf top $*: $model threads still in the model"
	# the DSOs (dsos_bounded): the 30 programs' files, each mapped by no
	# process once its runs are over, leave the model (a later run makes
	# it anew); what stays is bash, libc, ld.so, the kernel, [vdso], a few
	line=$(grep '^prf top: .* unused DSOs released' "$T/top.err") ||
		{ tail -5 "$T/top.err"; fail "prf top $*: no count of the model's DSOs at the end"; }
	read -r dsos_released dsos_model dsos_alive < <(echo "$line" |
		sed -E 's/^prf top: ([0-9]+) unused DSOs released, ([0-9]+) DSOs in the model, ([0-9]+) not yet freed$/\1 \2 \3/')
	echo "$* : $line"
}
# dsos_bounded OPT...: the model's DSOs of the last run_top are few
dsos_bounded() {
	[ "$dsos_released" -ge 30 ] || fail "prf top $*: $dsos_released DSOs released"
	[ "$dsos_model" -le 20 ] || fail "prf top $*: $dsos_model DSOs still in the model"
}

run_top -s pid,dso,sym
[ "$alive" -le 100 ] || fail "-s pid: $alive threads not freed after their entries decayed"
dsos_bounded -s pid,dso,sym
run_top -g -s pid,dso,sym
[ "$alive" -le 100 ] || fail "-g -s pid: $alive threads not freed after their entries decayed"
# the frames of the callchain store hold their maps until it is rebuilt
# without the chains that decayed
dsos_bounded -g -s pid,dso,sym
run_top -z
[ "$alive" -le 10 ] || fail "-z: $alive threads not freed with hists emptied every refresh"
dsos_bounded -z
grep -q '%.*\[[.k]\] ' "$T/top.out" || fail "-z: no entry on any screen"
exit 0
