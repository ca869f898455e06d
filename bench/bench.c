// SPDX-License-Identifier: GPL-2.0
/*
 * What the benchmarks share: the clock and perf bench's result lines.
 */
#include <stdio.h>
#include <time.h>
#include "bench.h"

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void bench_print_time(uint64_t elapsed_ns, uint64_t ops, bool blank, enum bench_format fmt)
{
	uint64_t usec = elapsed_ns / 1000;
	unsigned long long sec = usec / 1000000, msec = usec % 1000000 / 1000;

	if (fmt == BENCH_FORMAT_SIMPLE) {
		printf("%llu.%03llu\n", sec, msec);
		return;
	}
	printf("%s     Total time: %llu.%03llu [sec]\n", blank ? "\n" : "", sec, msec);
	if (!ops)
		return;
	/* microseconds per operation, to the microsecond as perf measures */
	printf("\n %14f usecs/op\n", (double)usec / (double)ops);
	printf(" %14llu ops/sec\n", usec ? (unsigned long long)(ops * 1000000.0 / (double)usec)
					 : (unsigned long long)(ops * 1e9 / (double)(elapsed_ns ? elapsed_ns : 1)));
}
