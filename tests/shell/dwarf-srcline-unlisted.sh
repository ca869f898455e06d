#!/bin/bash
# srclines of a unit .debug_aranges does not list match perf's, without loading the rows of the listed units
#
# A program of two units, one (other.c) linked from an object whose
# .debug_aranges was removed, so no CU range claims its code, as for a
# unit of a compiler that writes no aranges. Recorded with -g by Linux
# perf. `prf script -F ip,sym,srcline` must print the same file:line as
# perf (addr2line) after every frame of the program's functions, the
# unlisted unit's included; and the table prf builds for addresses no
# CU range claims must leave out the listed unit (main.c): before, an
# address outside every range (crt1's _start in an LTO build of python3)
# loaded every row of the DSO, 820 K rows where none could match. An
# empty such table (unlisted units without rows) is kept too.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup srcline-unlisted objcopy readelf
cd "$T" || exit 1

cat > main.c <<'SRC'
#include <stdlib.h>
unsigned long other_work(unsigned long x);
static volatile unsigned long sink;
__attribute__((noinline)) unsigned long main_work(unsigned long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
	return x;
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		s += main_work(i) ^ other_work(i);
	return (int)(s & 1);
}
SRC
cat > other.c <<'SRC'
static volatile unsigned long osink;
__attribute__((noinline)) unsigned long other_work(unsigned long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	osink = x;
	return x;
}
SRC
cc -O2 -g -fno-omit-frame-pointer -c main.c other.c || fail "cc"
objcopy --remove-section=.debug_aranges other.o || fail "objcopy"
cc -o prog main.o other.o || fail "link"
[ "$(readelf --debug-dump=aranges prog 2>/dev/null | grep -c 'Offset into')" = 1 ] ||
	{ echo "the linked program does not have exactly one unit in .debug_aranges"; exit 2; }
perf_record fp.data -e cpu-clock -c 100000 -g ./prog 20000

frames() {
	awk '/^[^ \t]/ { w = 0; next }
	/^\t/ { w = ($2 ~ /^(other_work|main_work|main)$/); if (w) line = $2; next }
	/^  / { if (w) print line, substr($0, 3) }'
}
"$PERF" script -i fp.data -F ip,sym,srcline 2>/dev/null | frames > perf.src
prf_out script.fp script -vv -i fp.data -F ip,sym,srcline
frames < script.fp > prf.src
grep -q '^other_work other\.c:[0-9]' perf.src || { echo "perf shows no srcline in other.c"; exit 2; }
cmp -s perf.src prf.src || { diff perf.src prf.src | head; fail "script -F ip,sym,srcline differs from perf"; }
echo "$(wc -l < prf.src) program frames match perf, $(grep -c '^other_work' prf.src) in the unlisted unit"
grep -q 'prog: line table of the units without CU ranges loaded (1 units with ranges left out)' script.fp.err ||
	{ grep debuginfo script.fp.err | head; fail "the table for unclaimed addresses did not leave out the listed unit"; }
echo "the table for unclaimed addresses left out the listed unit"

# with the debug cache on, that table is kept: the next run maps it
# instead of reading the unlisted units' line programs (same frames)
C=$T/cache
for run in keeps maps; do
	PRF_DEBUG_CACHE=$C prf_out "$run.script" script -vv -i fp.data -F ip,sym,srcline
	frames < "$run.script" > "$run.src"
	cmp -s perf.src "$run.src" ||
		{ diff perf.src "$run.src" | head; fail "debug cache ($run): script differs from perf"; }
done
grep -q 'prog: line table of the units without CU ranges loaded' keeps.script.err ||
	fail "first run with the cache: the table was not read from the line programs"
grep -q 'prog: line tables kept in ' keeps.script.err || fail "first run with the cache: the tables were not kept"
grep -q 'prog: line table of the units without CU ranges from the kept tables' maps.script.err ||
	{ grep debuginfo maps.script.err | head; fail "second run: the table of the unlisted units was not the kept one"; }
grep -q 'prog: line tables kept in ' maps.script.err && fail "second run: the tables were kept again"
echo "kept and mapped by the next run with the same frames"

# units without CU ranges whose line programs have no rows (python3.11's
# crt units): the empty table is kept too, so the next run does not read
# those line programs again to find nothing. prog2: main.c and other.c
# listed, empty.c (no code) not; DWARF stacks end in crt1's _start, which
# no unit claims
cat > empty.c <<'SRC'
int empty_unit_var = 1;
SRC
cc -O2 -g -fno-omit-frame-pointer -c -o other2.o other.c && cc -O2 -g -c empty.c ||
	fail "cc empty.c"
objcopy --remove-section=.debug_aranges empty.o || fail "objcopy empty.o"
cc -o prog2 main.o other2.o empty.o || fail "link prog2"
perf_record dw.data -e cpu-clock -c 100000 --call-graph dwarf,4096 ./prog2 5000
C2=$T/cache2
for run in e1 e2; do
	PRF_DEBUG_CACHE=$C2 "$PRF" script -vv -i dw.data -F ip,sym,srcline > "$run.out" 2>"$run.err" ||
		{ cat "$run.err"; fail "prf script ($run)"; }
	rm -f "$C2"/*.inl	# kept inline chains would answer without any table
done
cmp -s e1.out e2.out || { diff e1.out e2.out | head; fail "empty table: the two runs differ"; }
grep -q 'prog2: line table of the units without CU ranges loaded (2 units with ranges left out)' e1.err ||
	{ grep 'prog2' e1.err | head; fail "empty table: first run did not read the unlisted unit"; }
grep -q 'prog2: line table of the units without CU ranges from the kept tables' e2.err ||
	{ grep 'prog2' e2.err | head; fail "empty table: not kept, read again by the second run"; }
echo "an empty table of unlisted units is kept and mapped"
exit 0
