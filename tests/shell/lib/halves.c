/*
 * Shared test program (cc_prog halves): time in libc (memset) at both
 * ends of the run, and between them first() and second() spinning in
 * the parent while a forked child runs second(): two processes, user
 * and libc samples in both halves of the recording (report --time
 * slices, -U on a stripped copy, filters, sort keys).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
static char buf[1 << 16];
__attribute__((noinline)) void first(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void second(long n) { for (long i = 0; i < n; i++) sink -= i; }
/* time in libc too: samples that resolve even in a stripped program */
__attribute__((noinline)) void fill(int n) { for (int i = 0; i < n; i++) { memset(buf, i, sizeof(buf)); sink += buf[i & 0xffff]; } }
int main(void) {
	pid_t p;

	fill(1500);	/* in both halves of the run (--time 0%-50%) */
	p = fork();
	if (p == 0) { second(40000000); _exit(0); }
	first(40000000); second(40000000); fill(1500); waitpid(p, NULL, 0); return 0;
}
