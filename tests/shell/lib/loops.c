/*
 * Shared test program (cc_prog loops -g): main -> a -> b -> leaf, each
 * with a loop of its own after its call (forward and backward jumps,
 * calls, returns for annotate's layouts); leaf turns argv[1] times
 * (default 3000000), b a quarter as many, a an eighth. Used by
 * annotate-stdio2.sh and config-annotate.sh.
 */
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void b(unsigned long n) { leaf(n); for (unsigned long i = 0; i < n / 4; i++) sink ^= i; }
__attribute__((noinline)) void a(unsigned long n) { b(n); for (unsigned long i = 0; i < n / 8; i++) sink += i; }
int main(int argc, char **argv) { unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 3000000UL; a(n); return 0; }
