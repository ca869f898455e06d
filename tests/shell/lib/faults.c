/*
 * Shared test program (cc_prog faults): touches argv[1] MiB (default 16)
 * of fresh pages, one write a page (page-fault events with their data
 * addresses), then spins argv[2] million turns (default 30) in touch()'s
 * caller (cpu-clock samples). Used by report-sort-keys26.sh.
 */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) static void touch(char *p, long len)
{
	for (long i = 0; i < len; i += 4096)
		p[i] = 1;
}

__attribute__((noinline)) static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 16, turns = argc > 2 ? atol(argv[2]) : 30;
	char *p = malloc(mib << 20);

	if (!p)
		return 1;
	touch(p, mib << 20);
	spin(turns * 1000000);
	free(p);
	return 0;
}
