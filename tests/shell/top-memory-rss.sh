#!/bin/bash
# prf top -g keeps a flat resident memory while processes come and go: over 10 rounds of 100 short processes (30 programs, each dlopening its own library) VmRSS after the last round is within a few MB of the early rounds'
# Each round runs 100 processes one after the other (30 copies of one
# program under their own names, in turn, each dlopening its own copy of
# a library, so that every round maps files whose DSOs the model let go
# after the last one), then waits until top has printed 5 more screens
# (counted in top's output, not timed) and reads top's VmRSS (top is the
# workload's parent). The page-faults event at -c 1 gives each sample a
# period of 1, gone at the next refresh; PRF_TOP_COMPACT_MIN=50 makes top
# rebuild its hists (and callchain store) once 50 entries or nodes are
# there, so what a round leaves is soon dropped: the memory of the last
# rounds is that of the first ones. -s pid,dso,sym makes entries of every
# process; -g gives them callchains, whose frames hold their maps (and
# DSOs) until the store is rebuilt without the chains that decayed.
# Without that rebuild VmRSS grew by some 2 MB per round here.
# prf-test: serial: reads top's resident memory after every round
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-memory-rss
cat > "$T/short.c" <<'C'
#include <dlfcn.h>
volatile unsigned long sink;
__attribute__((noinline)) void work(void) { for (long i = 0; i < 20000; i++) sink += i; }
int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : 0;
	void (*f)(void) = h ? (void (*)(void))dlsym(h, "libwork") : 0;

	if (f)
		f();
	work();
	return 0;
}
C
cat > "$T/lib.c" <<'C'
volatile unsigned long lsink;
void libwork(void) { for (long i = 0; i < 20000; i++) lsink += i; }
C
cc -O1 -fno-omit-frame-pointer -o "$T/short" "$T/short.c" -ldl || fail "cc short.c"
cc -O1 -fno-omit-frame-pointer -shared -fPIC -o "$T/lib.so" "$T/lib.c" || fail "cc lib.c"
for i in $(seq 10 39); do cp "$T/short" "$T/short$i"; cp "$T/lib.so" "$T/lib$i.so"; done

ROUNDS=10
cat > "$T/load.sh" <<SH
: > "$T/rss"
for r in \$(seq 1 $ROUNDS); do
	i=0
	while [ \$i -lt 100 ]; do
		n=\$((10 + i % 30))
		"$T/short\$n" "$T/lib\$n.so"
		i=\$((i + 1))
	done
	n0=\$(grep -c PerfTop "$T/top.out")
	while [ "\$(grep -c PerfTop "$T/top.out")" -lt \$((n0 + 5)) ] && [ \$SECONDS -lt 60 ]; do
		sleep 0.1
	done
	awk '/^VmRSS/ { print \$2 }' /proc/\$PPID/status >> "$T/rss"
done
SH

PRF_TOP_COMPACT_MIN=50 "$PRF" top --stdio -v -d 0.1 -e page-faults -c 1 -g -s pid,dso,sym \
	-- bash "$T/load.sh" > "$T/top.out" 2> "$T/top.err" ||
	{ tail -5 "$T/top.err"; fail "prf top exit $?"; }
[ "$(wc -l < "$T/rss")" -eq "$ROUNDS" ] || fail "$(wc -l < "$T/rss") VmRSS readings of $ROUNDS"
echo "VmRSS kB after each round: $(tr '\n' ' ' < "$T/rss")"
grep '^prf top: .* DSOs' "$T/top.err"
# the early rounds' highest (round 1 is still warming up) against the
# last; not in a sanitizer build, whose allocator keeps freed blocks
# aside (ASan's quarantine) and whose VmRSS grows with them
early=$(sed -n 2,4p "$T/rss" | sort -n | tail -1)
last=$(tail -1 "$T/rss")
if grep -qa -e __asan_init -e __tsan_init "$PRF"; then
	echo "sanitizer build: VmRSS not compared"
else
	[ "$last" -le $((early + 4096)) ] ||
		fail "VmRSS grew from $early kB (rounds 2-4) to $last kB (round $ROUNDS)"
fi
# the DSOs of the 60 files (programs and libraries) were let go
line=$(grep '^prf top: .* unused DSOs released' "$T/top.err") || fail "no count of the DSOs"
read -r released model < <(echo "$line" |
	sed -E 's/^prf top: ([0-9]+) unused DSOs released, ([0-9]+) DSOs in the model.*/\1 \2/')
[ "$released" -ge 60 ] || fail "$released DSOs released"
[ "$model" -le 30 ] || fail "$model DSOs still in the model"
exit 0
