/*
 * Shared test program (cc_prog threads -pthread): main and two threads,
 * each in functions of its own: main -> work_main, thread_a -> work_a,
 * thread_b -> work_b; argv[1] calls of each work function (default
 * 20000), 3000 loop turns each. Used by the convert-*.sh tests for
 * per-thread profiles.
 */
#include <pthread.h>
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void work_main(void) { for (int i = 0; i < 3000; i++) sink += i; }
__attribute__((noinline)) void work_a(void) { for (int i = 0; i < 3000; i++) sink ^= i; }
__attribute__((noinline)) void work_b(void) { for (int i = 0; i < 3000; i++) sink -= i; }
__attribute__((noinline)) void *thread_a(void *n) { for (long i = 0; i < (long)n; i++) work_a(); return NULL; }
__attribute__((noinline)) void *thread_b(void *n) { for (long i = 0; i < (long)n; i++) work_b(); return NULL; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	pthread_t a, b;

	pthread_create(&a, NULL, thread_a, (void *)n);
	pthread_create(&b, NULL, thread_b, (void *)n);
	for (long i = 0; i < n; i++)
		work_main();
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
