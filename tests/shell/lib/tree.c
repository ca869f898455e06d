/*
 * Shared test program (cc_prog tree): the call tree main -> a -> b -> leaf,
 * all time in leaf; argv[1] calls of a() (default 100000), 2000 loop turns
 * in leaf each. Used by flamegraph-browser.sh and script-compat.sh.
 */
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(void) { for (int i = 0; i < 2000; i++) sink += i * i; }
__attribute__((noinline)) void b(void) { leaf(); }
__attribute__((noinline)) void a(void) { b(); }
int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 100000; for (long i = 0; i < n; i++) a(); return 0; }
