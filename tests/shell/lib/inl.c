/*
 * Shared test program (cc_prog inl -O2 -g): mid() is always inlined into
 * top(), leaf() is not: DWARF callchains of it show "mid (inlined)"
 * between leaf and top. Used by the convert-*.sh tests.
 */
volatile double x;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) x += i * 0.5; }
static inline __attribute__((always_inline)) void mid(int n) { leaf(n); leaf(n / 2); }
__attribute__((noinline)) void top(int n) { mid(n); x += 1; }
int main(void) { for (int k = 0; k < 100; k++) top(200000); return 0; }
