#!/bin/bash
# prf report --stdio matches perf report on a known call tree (children, no-children, -n, -s, --percent-limit, -g folded, --pid, pipe)
# Records a program whose call tree is main -> a -> b -> leaf (a and b burn
# self time too) with /usr/bin/perf (Linux perf 6.1, the reference) and
# compares `prf report --stdio` with `perf report --stdio` for several
# option sets: the same entries above 0.5% in the same order, overheads
# within 0.05 percentage points, the same column header, and the same
# callchain paths (graph lines and folded chains). Then the same on a
# recording made by `prf record`, if that command exists.
set -u
. "$PRF_SRCDIR/tests/shell/lib/report.sh"
test_setup report-compat

cat > "$T/tree.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(void) { for (int i = 0; i < 3000000; i++) sink += i; }
__attribute__((noinline)) void b(void) { for (volatile int i = 0; i < 2000000; i++) sink++; leaf(); }
__attribute__((noinline)) void a(void) { for (volatile int i = 0; i < 1000000; i++) sink++; b(); }
int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 40; for (int i = 0; i < n; i++) a(); return 0; }
C
cc -O0 -fno-omit-frame-pointer -o "$T/tree" "$T/tree.c" || fail "cc"
perf_record "$T/perf.data" -F 999 -g -- "$T/tree" 40
PID=$("$PERF" script -i "$T/perf.data" -F pid 2>/dev/null | awk '{print $1; exit}')

D="$T/perf.data"
report_check "$D" --no-children
report_check "$D" --children
report_check "$D"
report_check "$D" -n --no-children
report_check "$D" --sort dso,sym
report_check "$D" --sort dso,sym --no-children
report_check "$D" --percent-limit 5
report_check "$D" -g folded --no-children
report_check "$D" -g folded
report_check "$D" -g caller --no-children
report_check "$D" -s sym --no-children
report_check "$D" -s pid --no-children -g none
[ -n "$PID" ] && report_check "$D" --pid "$PID" --no-children

# the known tree itself: burn-free leaf called from b called from a
"$PRF" report -i "$D" --stdio --no-children -g folded -q > "$T/f.out" 2>&1 || fail "folded"
grep -q "% leaf;b;a;main" "$T/f.out" || { cat "$T/f.out"; fail "leaf;b;a;main chain missing"; }
grep -q "% b;a;main" "$T/f.out" || fail "b;a;main chain missing"
# children overheads nest along the tree: main >= a >= b >= leaf >= leaf's self
"$PRF" report -i "$D" --stdio --children -g none -q > "$T/c.out" 2>/dev/null || fail "children"
ch() { awk -v s="$1" '$NF == s {sub("%", "", $1); print $1; exit}' "$T/c.out"; }
self_leaf=$(awk '$NF == "leaf" {sub("%", "", $2); print $2; exit}' "$T/c.out")
python3 -c "import sys; v=[float(x) for x in sys.argv[1:]]; sys.exit(0 if all(v[i] >= v[i+1] for i in range(len(v)-1)) and v[-1] > 10 else 1)" \
	"$(ch main)" "$(ch a)" "$(ch b)" "$(ch leaf)" "$self_leaf" ||
	{ cat "$T/c.out"; fail "children overheads do not nest: main $(ch main) a $(ch a) b $(ch b) leaf $(ch leaf) self $self_leaf"; }

# pipe input: perf record -o - | prf report -i -
"$PERF" record -q -F 999 -g -o - -- "$T/tree" 10 2>/dev/null > "$T/pipe.data" || fail "perf record to a pipe"
"$PERF" report -i - --stdio --no-children < "$T/pipe.data" > "$T/perf.out" 2>/dev/null
"$PRF" report -i - --stdio --no-children < "$T/pipe.data" > "$T/prf.out" 2>"$T/prf.err" ||
	{ cat "$T/prf.err"; fail "prf report -i - failed"; }
python3 "$REPORT_COMPARE" "$T/perf.out" "$T/prf.out" || fail "pipe mode differs"
echo "ok: pipe mode"

# prf's own recordings
if "$PRF" record -h 2>&1 | grep -qi "usage: prf record"; then
	"$PRF" record -F 999 -g -o "$T/prf.data" -- "$T/tree" 20 >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "prf record failed"; }
	report_check "$T/prf.data" --no-children
	report_check "$T/prf.data" --children
else
	echo "skip: prf record is not available, own recordings not compared"
fi
exit 0
