/*
 * Shared test program (cc_prog spin): spins in spin_here() until killed.
 * Used by record-interrupt.sh and record-modes.sh.
 */
volatile unsigned long sink;
__attribute__((noinline)) void spin_here(void) { for (;;) sink++; }
int main(void) { spin_here(); return 0; }
