/*
 * Workload for scripts/compare-output.sh: a few call paths, some of them
 * inlined (static inline and always_inline) so that DWARF recordings carry
 * inline frames, and a mode that sleeps between slices of work for off-CPU
 * and scheduler tracepoint recordings.
 *
 * Prints nothing: a pipe recording (record -o - > file) shares its stdout.
 *
 * usage: work [MILLISECONDS [sleep]]
 *   MILLISECONDS  how long to run, wall clock (default 1000)
 *   sleep         alternate busy slices with usleep() and nanosleep()
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

static inline unsigned long hash_block(const unsigned char *p, size_t n)
{
	unsigned long h = 1469598103934665603UL;

	for (size_t i = 0; i < n; i++)
		h = mix(h ^ p[i]);
	return h;
}

__attribute__((noinline)) static unsigned long leaf_sum(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += mix(i);
	return s;
}

__attribute__((noinline)) static unsigned long hasher(unsigned long rounds)
{
	unsigned char buf[256];
	unsigned long h = 0;

	memset(buf, 7, sizeof(buf));
	for (unsigned long r = 0; r < rounds; r++) {
		buf[r & 255] = (unsigned char)r;
		h += hash_block(buf, sizeof(buf));
	}
	return h;
}

__attribute__((noinline)) static unsigned long middle(unsigned long n)
{
	return leaf_sum(n) + hasher(n / 256);
}

__attribute__((noinline)) static unsigned long top(unsigned long n)
{
	return middle(n) + leaf_sum(n / 2);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void nap(int i)
{
	if (i & 1) {
		usleep(2000);
	} else {
		struct timespec ts = { 0, 3000000 };

		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000;
	int sleepy = argc > 2 && !strcmp(argv[2], "sleep");
	double end = now_ms() + ms;

	for (int i = 0; now_ms() < end; i++) {
		sink += top(20000);
		if (sleepy)
			nap(i);
	}
	return 0;
}
