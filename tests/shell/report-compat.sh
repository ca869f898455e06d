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
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
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
"$PERF" record -q -F 999 -g -o "$T/perf.data" -- "$T/tree" 40 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
PID=$("$PERF" script -i "$T/perf.data" -F pid 2>/dev/null | awk '{print $1; exit}')

# compare.py PERF_OUT PRF_OUT: entries, overheads, headers, callchain lines
cat > "$T/compare.py" <<'PY'
import re, sys
def parse(path):
    entries, chains, header, cur = [], {}, None, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# Overhead") or line.startswith("# Children"):
            header = line.rstrip()
        m = re.match(r"^ +((?:[0-9.]+%\s+)+)(.*)$", line)
        if m and not line.startswith("      "[:4] + "|"):
            pcts = [float(x) for x in re.findall(r"([0-9.]+)%", m.group(1))]
            key = re.sub(r"\s+", " ", m.group(2)).strip()
            entries.append((key, pcts))
            cur = key
            chains[cur] = []
            continue
        if cur is not None and line.strip() and not line.startswith("#"):
            chains[cur].append(line.rstrip())
    return header, entries, chains
ph, pe, pc = parse(sys.argv[1])
qh, qe, qc = parse(sys.argv[2])
if ph != qh:
    sys.exit("header differs:\n perf: %r\n prf:  %r" % (ph, qh))
top = [e for e in pe if e[1][0] >= 0.5]
if not top:
    sys.exit("perf printed no entries")
qd = dict(qe)
qkeys = [k for k, _ in qe]
for i, (k, p) in enumerate(top):
    if k not in qd:
        sys.exit("entry missing in prf: %s" % k)
    for a, b in zip(p, qd[k]):
        if abs(a - b) > 0.05:
            sys.exit("overhead of %s: perf %s prf %s" % (k, p, qd[k]))
    if qkeys.index(k) != [x for x, _ in pe].index(k):
        sys.exit("entry %s at position %d in perf, %d in prf" % (k, [x for x, _ in pe].index(k), qkeys.index(k)))
    # callchain text of the entry: same paths (percentages within 0.05)
    pl, ql = pc.get(k, []), qc.get(k, [])
    if len(pl) != len(ql):
        sys.exit("callchain of %s: %d lines in perf, %d in prf" % (k, len(pl), len(ql)))
    for a, b in zip(pl, ql):
        na, nb = re.sub(r"[0-9.]+%", "P", a), re.sub(r"[0-9.]+%", "P", b)
        if na != nb:
            sys.exit("callchain of %s differs:\n perf: %s\n prf:  %s" % (k, a, b))
        for x, y in zip(re.findall(r"([0-9.]+)%", a), re.findall(r"([0-9.]+)%", b)):
            if abs(float(x) - float(y)) > 0.05:
                sys.exit("callchain percent of %s: %s vs %s" % (k, a, b))
print("ok: %d entries compared" % len(top))
PY

check() { # DATA OPTS...
	local data=$1; shift
	"$PERF" report -i "$data" --stdio "$@" > "$T/perf.out" 2>/dev/null || fail "perf report $*"
	"$PRF" report -i "$data" --stdio "$@" > "$T/prf.out" 2>"$T/prf.err"; rc=$?
	[ $rc -eq 0 ] || { cat "$T/prf.err"; fail "prf report $* exit $rc"; }
	python3 "$T/compare.py" "$T/perf.out" "$T/prf.out" > "$T/cmp.out" 2>&1 ||
		{ cat "$T/cmp.out"; fail "prf report $* differs from perf report"; }
	echo "ok: report $* ($(cat "$T/cmp.out"))"
}

D="$T/perf.data"
check "$D" --no-children
check "$D" --children
check "$D"
check "$D" -n --no-children
check "$D" --sort dso,sym
check "$D" --sort dso,sym --no-children
check "$D" --percent-limit 5
check "$D" -g folded --no-children
check "$D" -g folded
check "$D" -g caller --no-children
check "$D" -s sym --no-children
check "$D" -s pid --no-children -g none
[ -n "$PID" ] && check "$D" --pid "$PID" --no-children

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
python3 "$T/compare.py" "$T/perf.out" "$T/prf.out" || fail "pipe mode differs"
echo "ok: pipe mode"

# prf's own recordings
if "$PRF" record -h 2>&1 | grep -qi "usage: prf record"; then
	"$PRF" record -F 999 -g -o "$T/prf.data" -- "$T/tree" 20 >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "prf record failed"; }
	check "$T/prf.data" --no-children
	check "$T/prf.data" --children
else
	echo "skip: prf record is not available, own recordings not compared"
fi
exit 0
