#!/bin/bash
# prf report symbolizes like perf report: stripped binary, PIE, shared library, C++ demangled names
# Each program is compiled here, recorded with /usr/bin/perf (Linux perf
# 6.1) and reported by both; entries above 0.5% must match perf's (same
# Command/Shared Object/Symbol text, same order, overheads within 0.05
# percentage points, same callchain lines). Also checks the expected
# symbol text directly (demangled C++ name, library symbol, stripped
# binary as perf shows it).
set -u
. "$PRF_SRCDIR/tests/shell/lib/report.sh"
test_setup report-bin

# rec OUT CMD...: perf record -F 999 -g of CMD into OUT (skip if perf cannot)
rec() { perf_record "$1" -F 999 -g -- "${@:2}"; }

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
	report_check "$T/$d.data" --no-children
	report_check "$T/$d.data" --children
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
	report_check "$T/cxx.data" --no-children
	report_check "$T/cxx.data" --children
	"$PRF" report -i "$T/cxx.data" --stdio --no-children -q 2>/dev/null | grep -q "\[\.\] ns::Box<int>::spin$" ||
		fail "C++ name not demangled"
else
	echo "skip: no C++ compiler, demangling not covered"
fi
exit 0
