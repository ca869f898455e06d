#!/bin/bash
# Parallel DWARF unwinding: prf report/script output is identical with 1 and 2 unwinding threads
# prf-test: serial: the second unwinding thread must get a CPU to unwind ahead (> 100 stacks)
#
# A two-threaded program (recursion, an inlined helper, a library loaded
# with dlopen halfway so that MMAP records sit between samples) is
# recorded by /usr/bin/perf --call-graph dwarf. prf script (also with
# -F +srcline) and prf report --stdio (callchains, --sort srcline) must
# print byte-identical output with PRF_UNWIND_THREADS=1 (serial) and
# PRF_UNWIND_THREADS=2, and the 2-thread run must really have unwound
# samples ahead on the workers and used them (its -v debug line
# "parallel unwinding: 2 threads, N stacks unwound ahead, M used", N > 0,
# M = N) while the 1-thread run must not have started any; those samples
# must mostly be hits in the unwinding threads' own chain caches.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup unwpar
dir=$T
cd "$dir" || exit 1

cat > par.c <<'SRC'
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	return x * 6364136223846793005UL + 1442695040888963407UL;
}
__attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	for (int i = 0; i < 20000; i++)
		x = mix(x);
	return x;
}
__attribute__((noinline)) unsigned long rec(int d, unsigned long x)
{
	volatile char pad[64];

	pad[0] = (char)d;
	if (!d)
		return leaf(x);
	return rec(d - 1, x + pad[0]) + 1;
}
static void *worker(void *arg)
{
	for (unsigned long i = 0; i < 12000; i++)
		sink += rec((int)(i % 12), i);
	return arg;
}
int main(void)
{
	pthread_t t;
	unsigned long (*crc)(unsigned long, const unsigned char *, unsigned int);
	unsigned char buf[4096] = { 1 };
	void *h;

	pthread_create(&t, NULL, worker, NULL);
	for (unsigned long i = 0; i < 6000; i++)
		sink += rec((int)(i % 7), i);
	h = dlopen("libz.so.1", RTLD_NOW);
	if (h && (crc = (unsigned long (*)(unsigned long, const unsigned char *, unsigned int))dlsym(h, "crc32")))
		for (int i = 0; i < 20000; i++)
			sink += crc(sink, buf, sizeof(buf));
	for (unsigned long i = 0; i < 6000; i++)
		sink += rec((int)(i % 5), i);
	pthread_join(t, NULL);
	return 0;
}
SRC
cc -O2 -g -fomit-frame-pointer -o par par.c -lpthread -ldl || { echo "cc failed"; exit 2; }
"$PERF" record -q -F 2000 --call-graph dwarf,4096 -o par.data ./par >/dev/null 2>&1 ||
	{ echo "perf record failed (perf_event_paranoid?)"; exit 2; }

run() {	# name threads args...
	local name=$1 t=$2
	shift 2
	PRF_UNWIND_THREADS=$t "$PRF" "$@" -i par.data > "$name.$t" 2> "$name.$t.err" ||
		{ cat "$name.$t.err"; fail "prf $* (threads $t) failed"; }
}
for t in 1 2; do
	run script "$t" script
	run srcline "$t" script -F +srcline
	run report "$t" report --stdio --no-children
	run repsrc "$t" report --stdio --no-children --sort srcline
	run verbose "$t" script -v
done
for name in script srcline report repsrc; do
	[ -s "$name.1" ] || fail "$name: empty output"
	cmp -s "$name.1" "$name.2" ||
		{ diff "$name.1" "$name.2" | head -20; fail "$name: output differs between 1 and 2 unwinding threads"; }
done
grep -q "rec" script.1 || fail "no rec frames in prf script"
grep -q "mix (inlined)\|leaf" script.1 || fail "no leaf/inlined frames in prf script"

line=$(grep "parallel unwinding:" verbose.2.err)
[ -n "$line" ] || fail "2 threads: no 'parallel unwinding' debug line"
ahead=$(sed -n 's/.* \([0-9]*\) stacks unwound ahead, \([0-9]*\) used.*/\1/p' <<< "$line")
used=$(sed -n 's/.* \([0-9]*\) stacks unwound ahead, \([0-9]*\) used.*/\2/p' <<< "$line")
[ "${ahead:-0}" -gt 100 ] || fail "2 threads: only '${ahead:-}' stacks unwound ahead ($line)"
[ "$ahead" = "$used" ] || fail "2 threads: $ahead unwound ahead but $used used"
grep -q "parallel unwinding:" verbose.1.err && fail "1 thread: parallel unwinding ran"
# samples resolved ahead go through the unwinding threads' own chain
# caches: the program's chains repeat, so most are hits. (How many are
# resolved ahead depends on the CPU the worker gets: with another load
# on the machine the delivering thread may do them all itself.)
cline=$(grep "callchain caches of the unwinding threads:" verbose.2.err)
hits=$(sed -n 's/.*: \([0-9]*\) hits in \([0-9]*\) samples.*/\1/p' <<< "$cline")
jobs=$(sed -n 's/.*: \([0-9]*\) hits in \([0-9]*\) samples.*/\2/p' <<< "$cline")
if [ "${jobs:-0}" -ge 100 ]; then
	[ "${hits:-0}" -gt $((jobs / 2)) ] || fail "2 threads: the unwinding threads' chain caches: $cline"
else
	cline="${jobs:-no} samples resolved ahead: their chain caches not checked"
fi
echo "identical output; $line; $cline"
exit 0
