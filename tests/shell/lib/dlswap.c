/*
 * Shared test program (cc_prog dlswap): dlswap LIBA LIBB [ROUNDS [N]]
 * dlopen()s LIBA and LIBB in turn, ROUNDS times (default 6), calls its
 * work(N) (default 100000) 300 times through call_lib() and dlclose()s
 * it, so that the two libraries' code comes and goes at the same
 * addresses. Used by report-chain-cache.sh and dwarf-chain-cache.sh.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void call_lib(void (*fn)(int), int n)
{
	fn(n);
	__asm__ volatile("");	/* a frame of its own: no tail call */
}

int main(int argc, char **argv)
{
	int rounds = argc > 3 ? atoi(argv[3]) : 6;
	int n = argc > 4 ? atoi(argv[4]) : 100000;

	if (argc < 3) {
		fprintf(stderr, "usage: dlswap LIBA LIBB [ROUNDS [N]]\n");
		return 2;
	}
	for (int r = 0; r < rounds; r++) {
		void *h = dlopen(argv[1 + (r & 1)], RTLD_NOW);
		void (*fn)(int);

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		fn = (void (*)(int))dlsym(h, "work");
		for (int i = 0; i < 300; i++)
			call_lib(fn, n);
		dlclose(h);
	}
	return 0;
}
