/*
 * Shared test program (cc_prog phases -O1 -pthread): main and one thread,
 * each spinning in phase_a until argv[1] seconds after start, then in
 * phase_b until argv[2] seconds (wall time, CLOCK_MONOTONIC); phase_a
 * spins argv[3] calls of down() deep (default 0). Used by
 * flamegraph-time.sh and flamegraph-mouse.sh (time-range selections).
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;
static double t0, a_end, b_end;
static int depth;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) int down(int n, double until)
{
	if (n)
		return down(n - 1, until) + 1;
	while (now() < until)
		for (int i = 0; i < 2000; i++)
			sink++;
	return 0;
}

__attribute__((noinline)) void phase_a(double until)
{
	down(depth, until);
}

__attribute__((noinline)) void phase_b(double until)
{
	while (now() < until)
		for (int i = 0; i < 2000; i++)
			sink += 3;
}

static void *run(void *arg)
{
	(void)arg;
	phase_a(t0 + a_end);
	phase_b(t0 + b_end);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 3)
		return 2;
	a_end = atof(argv[1]);
	b_end = atof(argv[2]);
	depth = argc > 3 ? atoi(argv[3]) : 0;
	t0 = now();
	if (pthread_create(&t, 0, run, 0))
		return 1;
	run(0);
	pthread_join(t, 0);
	return 0;
}
