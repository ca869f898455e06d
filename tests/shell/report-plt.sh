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
# Then the answer kept between runs (the debug cache's .plt files,
# util/model/debug-cache.h): a first run keeps it, the next maps it, with
# the same rows; a damaged file and another file's answer are refused.
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
	prf_out "$prog.report" report -i "$prog.data" --stdio --no-children -s dso,sym
	rows < "$prog.report" > "$prog.prf"
	diff "$prog.perf" "$prog.prf" > "$prog.diff" ||
		{ cat "$prog.diff"; fail "$prog: PLT rows differ from perf report's"; }
	echo "ok: $prog: $(wc -l < "$prog.prf") PLT rows as perf names them"
	all+=$(cat "$prog.prf")$'\n'
done
# both outcomes must have been exercised
grep -q '\[\.\] _init' <<< "$all" || fail "no sample named _init in a PLT: nothing tested"
grep -q '@plt' <<< "$all" || fail "no sample named name@plt: nothing tested"

# kept between runs: PRF_DEBUG_CACHE=$C (prf test runs with it 0)
C=$T/cache
# The kept symbol tables (.syms, util/model/symbol-cache.h) would answer
# before the PLT names are asked: removed before each run, except with a
# third argument (then the rows come from the kept table).
keptrun() {	# prog name [syms]: rows of prf report with the cache, -vv in name.err
	[ $# -gt 2 ] || rm -f "$C"/*.syms
	PRF_DEBUG_CACHE="$C" prf_out "$2" report -vv -i "$1.data" --stdio --no-children -s dso,sym
	rows < "$2" > "$2.prf"
	diff "$1.perf" "$2.prf" > "$2.diff" ||
		{ cat "$2.diff"; fail "$2: PLT rows differ from perf report's"; }
}
# prf names a DSO's symbol file in its messages: the program itself, or
# the copy perf record put in its build-id cache (~/.debug/.build-id/)
symfile() {	# prog: a grep -E pattern for its symbol file
	local bid
	bid=$(readelf -n "$1" | awk '/Build ID/ { print $3; exit }')
	echo "(/$1|${bid:2}/elf)"
}
kept_file() {	# messages prog: the .plt file prog's answer was kept in
	grep -E "$(symfile "$2"): PLT names kept in " "$1" | head -1 |
		sed 's|.*: PLT names kept in \(.*\) ([0-9]* bytes)$|\1|'
}
said() {	# messages prog what: did prf say what about prog's symbol file?
	grep -qE "$(symfile "$2"): $3" "$1"
}
keptrun main7 k1
f7=$(kept_file k1.err main7)
[ -n "$f7" ] && [ -f "$f7" ] || { grep PLT k1.err; fail "main7: the PLT answer was not kept"; }
keptrun main7 k2
said k2.err main7 "PLT names from $f7" || { grep PLT k2.err; fail "main7: the kept answer was not used"; }
said k2.err main7 "PLT names kept" && fail "main7: kept again though it was used"
# a byte that is neither 0 nor 1: refused, answered anew (and kept again)
cp "$f7" f7.good
printf '\002' | dd of="$f7" bs=1 seek=24 conv=notrunc status=none
keptrun main7 k3
said k3.err main7 "PLT names from" || fail "main7: the damaged file was not even read"
said k3.err main7 "PLT names kept in $f7" || fail "main7: a damaged answer was not replaced"
cmp -s "$f7" f7.good || fail "main7: the answer kept anew differs from the first"
# main3's answer under main7's name (as a name collision would leave it):
# its trailer names another file, so it is ignored
keptrun main3 k4
f3=$(kept_file k4.err main3)
[ -n "$f3" ] && [ -f "$f3" ] || fail "main3: the PLT answer was not kept"
cp "$f3" "$f7"
keptrun main7 k5
said k5.err main7 "ignoring $f7: not the PLT names of this file" ||
	{ grep PLT k5.err; fail "main7: another file's answer was not refused"; }
# the symbol table kept with the PLT entries in it: the same rows
keptrun main7 k6 syms
keptrun main7 k7 syms
said k7.err main7 "symbols from $C/" || { grep symbols k7.err; fail "main7: the kept symbol table was not used"; }
echo "ok: the PLT answer kept, mapped with the same rows; damage and another file's refused; same rows from the kept symbol table"
