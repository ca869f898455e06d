/*
 * Shared test program (cc_prog hotfill -O1): main calls caller() -> hot(),
 * then filler() and steady(), each looping argv[1], argv[2] and argv[3]
 * units of UNIT turns (default 25000000; -DUNIT=... to change). The loop
 * keeps to registers (a loop storing to memory each turn varies by run);
 * the call to done() gives each function a frame of its own, so that frame
 * pointers name its caller. Used by diff-stat.sh and
 * flamegraph-diff-groups.sh.
 */
#include <stdlib.h>
#ifndef UNIT
#define UNIT 25000000L
#endif
volatile unsigned long sink;
__attribute__((noinline)) void done(unsigned long x) { sink = x; }
#define SPIN(n) do { unsigned long x = (n); \
	for (long i = 0; i < (n) * UNIT; i++) \
		x = x * 6364136223846793005ul + 1442695040888963407ul; \
	done(x); } while (0)
__attribute__((noinline)) void hot(long n) { SPIN(n); }
__attribute__((noinline)) void filler(long n) { SPIN(n); }
__attribute__((noinline)) void steady(long n) { SPIN(n); }
__attribute__((noinline)) void caller(long n) { hot(n); sink++; }
int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	caller(atol(argv[1]));
	filler(atol(argv[2]));
	steady(atol(argv[3]));
	return 0;
}
