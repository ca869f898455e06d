#!/bin/bash
# prf report: samples in PLT stubs are named as perf names them (name@plt, or _init where perf's symbol tree finds the zero-size _init first)
# perf 6.1 sizes the zero-size _init up to the next ELF symbol before it
# adds the PLT entries, so _init overlaps them, and which of the two its
# lookup returns depends on the shape of its red-black tree of symbols
# (functions, labels and data objects, duplicates erased). prf rebuilds
# that tree (util/model/symbol-elf.c, plt__covered()). This records, with
# /usr/bin/perf, executables calling 2, 3 and 7 library functions through
# their PLT and a library calling its own exported functions through its
# PLT, and compares every PLT row of prf report with perf report's.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-plt

cd "$T" || fail "cd $T"
for k in 2 3 7; do
	: > "lib$k.c"
	{
		for ((i = 0; i < k; i++)); do echo "void f$i(volatile int *p);"; done
		echo 'int main(void) { volatile int x = 0; for (long j = 0; j < 1500000; j++) {'
		for ((i = 0; i < k; i++)); do echo "f$i(&x);"; echo "void f$i(volatile int *p) { (*p)++; }" >> "lib$k.c"; done
		echo '} return 0; }'
	} > "main$k.c"
	cc -O1 -shared -fPIC -o "libp$k.so" "lib$k.c" &&
		cc -O1 -o "main$k" "main$k.c" -L. "-lp$k" "-Wl,-rpath,$T" || fail "cc main$k"
done
# a library whose functions call each other through its PLT (interposable)
cat > libself.c <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void inner(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void outer(int n) { for (int i = 0; i < n; i++) inner(1); }
void work(int n) { outer(n); }
C
echo 'void work(int n); int main(void) { work(8000000); return 0; }' > mainself.c
cc -O1 -shared -fPIC -o libself.so libself.c &&
	cc -O1 -o mainself mainself.c -L. -lself "-Wl,-rpath,$T" || fail "cc mainself"

rows() { grep -E '@plt|_init' | sort; }
all=
for prog in main2 main3 main7 mainself; do
	perf_record "$prog.data" -F 4000 "./$prog"
	"$PERF" report -i "$prog.data" --stdio --no-children -s dso,sym 2>/dev/null | rows > "$prog.perf"
	"$PRF" report -i "$prog.data" --stdio --no-children -s dso,sym 2>"$prog.err" | rows > "$prog.prf" ||
		{ cat "$prog.err"; fail "prf report $prog"; }
	diff "$prog.perf" "$prog.prf" > "$prog.diff" ||
		{ cat "$prog.diff"; fail "$prog: PLT rows differ from perf report's"; }
	echo "ok: $prog: $(wc -l < "$prog.prf") PLT rows as perf names them"
	all+=$(cat "$prog.prf")$'\n'
done
# both outcomes must have been exercised
grep -q '\[\.\] _init' <<< "$all" || fail "no sample named _init in a PLT: nothing tested"
grep -q '@plt' <<< "$all" || fail "no sample named name@plt: nothing tested"
