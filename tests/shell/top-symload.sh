#!/bin/bash
# prf top loads a DSO's symbols in the background: the first screens come on time while a program with a big symbol table (100000 C++ functions) loads, its samples are held back (no raw address shown for them), and later screens name its hot function first
# The program spins in hot_spin(); its symbol table is made big with
# tiny functions under mangled names (demangled as they load), so that
# loading it takes several -d periods. The kept-table cache is off
# (PRF_DEBUG_CACHE=0): every run reads the ELF file. With the symbols
# loaded on top's own thread no screen would come before them.
# prf-test: serial: the count of screens before the symbols depends on the refresh ticks being on time
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-symload as

python3 - "$T/big.s" <<'PY' || fail "generating big.s"
import sys
with open(sys.argv[1], 'w') as f:
    f.write('\t.text\n\t.globl hot_spin\n\t.type hot_spin,@function\nhot_spin:\n'
            '\tmov $50000000,%rcx\n1:\tdec %rcx\n\tjnz 1b\n\tret\n\t.size hot_spin,.-hot_spin\n')
    for i in range(100000):
        n = '_ZN5outer5inner%dfillEiPKcRSt6vectorIiSaIiEE' % i
        f.write('\t.globl %s\n\t.type %s,@function\n%s:\n\tret\n\t.size %s,1\n' % (n, n, n, n))
    f.write('\t.section .note.GNU-stack,"",@progbits\n')
PY
cat > "$T/main.c" <<'C'
#include <signal.h>
#include <stdlib.h>
#include <time.h>
void hot_spin(void);
static volatile sig_atomic_t stop;
static void on_usr1(int sig) { (void)sig; stop = 1; }
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec a, b;

	signal(SIGUSR1, on_usr1);
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		hot_spin();
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while (!stop && (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
	return 0;
}
C
as -o "$T/big.o" "$T/big.s" && cc -O1 -o "$T/big" "$T/main.c" "$T/big.o" || fail "building big"

# screens: "N HOT" per refresh, N its number, HOT the first entry's symbol
screens() {
	awk '/PerfTop:/ { n++; first = 1; next }
	     first && /%/ { print n, $NF; first = 0 }
	     /PerfTop:/ == 0 && /%/ && / big +\[\.\] 0x/ { print n, "RAW" }' "$1"
}

# The program spins for up to 60 s; once a screen named hot_spin and two
# more came (symbols loaded, later refreshes), SIGUSR1 ends it (its pid
# is the header's target_pid) and top with it. How long the symbols take
# depends on the machine's load (and on a sanitizer build), so the test
# waits for them instead of timing them.
start=$EPOCHREALTIME
PRF_DEBUG_CACHE=0 "$PRF" top --stdio -d 0.05 -E 5 -- "$T/big" 60 > "$T/top.out" 2> "$T/top.err" &
pid=$!
first=
for _ in $(seq 1200); do
	[ -z "$first" ] && grep -q 'PerfTop:' "$T/top.out" 2>/dev/null && first=$EPOCHREALTIME
	awk '/PerfTop:/ { n++ } / \[\.\] hot_spin$/ && !h { h = n } END { exit !(h && n >= h + 2) }' \
		"$T/top.out" 2>/dev/null && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
target=$(grep -m1 -o 'target_pid: [0-9]*' "$T/top.out" | cut -d' ' -f2)
[ -n "$target" ] && kill -USR1 "$target" 2>/dev/null
wait $pid || { cat "$T/top.err"; fail "prf top exit $?"; }
[ -n "$first" ] || fail "no screen"
screens "$T/top.out" > "$T/screens"
n=$(grep -c 'PerfTop:' "$T/top.out")
grep -q ' RAW$' "$T/screens" && { cat "$T/screens"; fail "an unresolved address of big was shown"; }
named=$(awk '$2 == "hot_spin" { print $1; exit }' "$T/screens")
[ -n "$named" ] || { cat "$T/screens"; fail "hot_spin never named in $n screens"; }
[ "$named" -ge 2 ] || { cat "$T/screens"; fail "the first screen waited for the symbols"; }
last=$(tail -1 "$T/screens")
[ "${last#* }" = hot_spin ] || { cat "$T/screens"; fail "last screen's first entry: $last"; }
echo "ok: first screen after $(awk -v a="$start" -v b="$first" 'BEGIN { printf "%.2f", b - a }') s, hot_spin named from screen $named of $n"
exit 0
