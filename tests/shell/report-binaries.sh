#!/bin/bash
# prf report symbolizes like perf report: stripped binary, PIE, shared library, C++ demangled names
# Each program is compiled here, recorded with /usr/bin/perf (Linux perf
# 6.1) and reported by both; entries above 0.5% must match perf's (same
# Command/Shared Object/Symbol text, same order, overheads within 0.05
# percentage points, same callchain lines). Also checks the expected
# symbol text directly (demangled C++ name, library symbol, stripped
# binary as perf shows it).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-bin

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


rec() { # OUT CMD...
	local out=$1; shift
	"$PERF" record -q -F 999 -g -o "$out" -- "$@" >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
}

cat > "$T/prog.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void work(long n) { for (long i = 0; i < n; i++) sink += i * 3; }
__attribute__((noinline)) void outer(long n) { for (long i = 0; i < n / 2; i++) sink ^= i; work(n); }
int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 100; for (int i = 0; i < 30; i++) outer(n); return 0; }
C
# PIE (the default on Debian) and non-PIE
cc -O0 -fno-omit-frame-pointer -pie -fPIE -o "$T/pie" "$T/prog.c" || fail "cc pie"
cc -O0 -fno-omit-frame-pointer -no-pie -o "$T/nopie" "$T/prog.c" || fail "cc no-pie"
cp "$T/pie" "$T/stripped" && strip "$T/stripped" || fail "strip"

# shared library
cat > "$T/lib.c" <<'C'
volatile unsigned long lsink;
__attribute__((noinline)) void lib_spin(long n) { for (long i = 0; i < n; i++) lsink += i; }
C
cat > "$T/uselib.c" <<'C'
#include <stdlib.h>
void lib_spin(long n);
int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 100; for (int i = 0; i < 30; i++) lib_spin(n); return 0; }
C
cc -O0 -fno-omit-frame-pointer -shared -fPIC -o "$T/libspin.so" "$T/lib.c" || fail "cc lib"
cc -O0 -fno-omit-frame-pointer -o "$T/uselib" "$T/uselib.c" -L"$T" -lspin || fail "cc uselib"

N=4000000
rec "$T/pie.data" "$T/pie" $N
rec "$T/nopie.data" "$T/nopie" $N
rec "$T/stripped.data" "$T/stripped" $N
LD_LIBRARY_PATH=$T rec "$T/lib.data" "$T/uselib" $N

for d in pie nopie stripped lib; do
	check "$T/$d.data" --no-children
	check "$T/$d.data" --children
done
"$PRF" report -i "$T/pie.data" --stdio --no-children -q 2>/dev/null | grep -q "pie  *\[\.\] work$" || fail "PIE: work not resolved"
"$PRF" report -i "$T/nopie.data" --stdio --no-children -q 2>/dev/null | grep -q "nopie  *\[\.\] work$" || fail "non-PIE: work not resolved"
"$PRF" report -i "$T/lib.data" --stdio --no-children -q 2>/dev/null | grep -q "libspin.so  *\[\.\] lib_spin$" || fail "library symbol lib_spin not resolved"

# C++ with demangled names (perf 6.1 prints them without the parameter list)
if command -v c++ >/dev/null; then
	cat > "$T/cxx.cc" <<'C'
#include <cstdlib>
#include <vector>
namespace ns {
volatile unsigned long sink;
template <typename T> struct Box {
	__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += (T)i; }
};
__attribute__((noinline)) void run(std::vector<int> &v, long n) { Box<int> b; for (int x : v) b.spin(n + x); }
}
int main(int argc, char **argv) { std::vector<int> v(30, 1); ns::run(v, argc > 1 ? atol(argv[1]) : 100); return 0; }
C
	c++ -O0 -fno-omit-frame-pointer -o "$T/cxx" "$T/cxx.cc" || fail "c++"
	rec "$T/cxx.data" "$T/cxx" $N
	check "$T/cxx.data" --no-children
	check "$T/cxx.data" --children
	"$PRF" report -i "$T/cxx.data" --stdio --no-children -q 2>/dev/null | grep -q "\[\.\] ns::Box<int>::spin$" ||
		fail "C++ name not demangled"
else
	echo "skip: no C++ compiler, demangling not covered"
fi
exit 0
