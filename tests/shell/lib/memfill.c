/*
 * Shared test program (cc_prog memfill -O2 -g): fill() loops 6000000
 * times around an inlined memset of a global (SSE stores, RIP-relative
 * operands, a lea of a global) and a conditional jump inside the loop.
 * Used by annotate-stdio2.sh and config-annotate.sh.
 */
#include <string.h>
volatile unsigned long sink;
char buf[4096];
__attribute__((noinline)) void fill(long n)
{
	for (long i = 0; i < n; i++) {
		memset(buf, (int)i, 64);
		sink += buf[i & 63] * 3;
		if (sink & 1)
			sink--;
	}
}
int main(void) { fill(6000000); return 0; }
