/*
 * Shared test program (cc_prog hotwarm): for argv[1] seconds of wall
 * time (default 1), main calls mid() -> hot() and warm(), hot() three
 * times as long as warm(): about 3/4 of the samples in hot, 1/4 in warm.
 * Used by the top-*.sh tests.
 */
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) void hot(void) { for (int i = 0; i < 3000; i++) sink += i; }
__attribute__((noinline)) void mid(void) { hot(); }
__attribute__((noinline)) void warm(void) { for (int i = 0; i < 1000; i++) sink += i; }
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100; i++) {
			mid();
			warm();
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}
