// SPDX-License-Identifier: GPL-2.0
/*
 * syscall basic: LOOPS getppid() calls, a system call that does next to
 * nothing and that the C library does not cache: the cost of the entry
 * and exit itself.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bench.h"

int bench_syscall_basic(unsigned int loops, enum bench_format fmt)
{
	uint64_t start = bench_now_ns(), stop;

	for (unsigned int i = 0; i < loops; i++)
		syscall(SYS_getppid);
	stop = bench_now_ns();
	if (fmt == BENCH_FORMAT_DEFAULT)
		printf("# Executed %u getppid() calls\n", loops);
	bench_print_time(stop - start, loops, false, fmt);
	return 0;
}
