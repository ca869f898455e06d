#!/bin/bash
# symbol resolution matches perf script: PIE, non-PIE, shared lib, stripped+debuglink, C++, kernel frames
# Records one run of several compiled programs with Linux perf (-g, frame
# pointers) and compares every callchain frame line ("\tADDR sym+off (dso)")
# of `perf script` and `prf script` on the same perf.data.
set -u
PERF=${PERF_BIN:-/usr/bin/perf}
command -v "$PERF" >/dev/null || { echo "perf not installed"; exit 2; }
command -v cc >/dev/null && command -v c++ >/dev/null || { echo "cc/c++ not installed"; exit 2; }
"$PRF" script -h >/dev/null 2>&1
[ $? -eq 129 ] || "$PRF" script --help >/dev/null 2>&1 || { echo "prf script not available"; exit 2; }

T=$(mktemp -d /tmp/prf-model-resolve.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

cat > lib.c <<'E'
__attribute__((noinline)) long lib_work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i ^ (s >> 3); return s; }
__attribute__((noinline)) long lib_entry(long n) { return lib_work(n) + 1; }
E
cat > prog.c <<'E'
#include <stdio.h>
#include <stdlib.h>
long lib_entry(long n);
__attribute__((noinline)) long leaf(long n) { long s = 1; for (long i = 0; i < n; i++) s = s * 3 + i; return s; }
__attribute__((noinline)) static long middle(long n) { return leaf(n) + lib_entry(n / 2); }
__attribute__((noinline)) long top(long n) { return middle(n) ^ 7; }
int main(int argc, char **argv) { long r = 0; for (int k = 0; k < 40; k++) r += top(argc > 1 ? atol(argv[1]) : 2000000); printf("%ld\n", r); return 0; }
E
cat > cxx.cc <<'E'
#include <cstdio>
namespace ns { template <typename T> struct Acc { T v;
  __attribute__((noinline)) T run(long n) { for (long i = 0; i < n; i++) v = v * 3 + i; return v; } };
  __attribute__((noinline)) long drive(long n) { Acc<long> a{1}; return a.run(n); } }
int main() { long r = 0; for (int k = 0; k < 40; k++) r += ns::drive(2000000); std::printf("%ld\n", r); return 0; }
E
FP="-O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
cc $FP -fPIC -shared -o libmr.so lib.c || exit 1
cc $FP -fPIE -pie -o pie prog.c -L. -lmr -Wl,-rpath,"$T" || exit 1
cc $FP -fno-pie -no-pie -o nopie prog.c -L. -lmr -Wl,-rpath,"$T" || exit 1
cc $FP -fPIE -pie -o dbg prog.c -L. -lmr -Wl,-rpath,"$T" || exit 1
objcopy --only-keep-debug dbg dbg.debug && strip -s dbg && objcopy --add-gnu-debuglink=dbg.debug dbg || exit 1
c++ $FP -o cxx cxx.cc || exit 1

"$PERF" record -q -g -F 999 -o perf.data -- sh -c "./pie; ./nopie; ./dbg; ./cxx" >/dev/null 2>record.err || {
	echo "perf record failed: $(tail -1 record.err)"; exit 2; }

"$PERF" script -i perf.data 2>/dev/null | grep -P '^\t' > perf.frames
"$PRF" script -i perf.data 2>prf.err | grep -P '^\t' > prf.frames
[ -s perf.frames ] || { echo "perf script shows no callchains"; exit 2; }

fail=0
for f in leaf middle top lib_work 'ns::Acc<long>::run'; do
	grep -qF " $f+" perf.frames || { echo "perf shows no $f frame (unexpected)"; fail=1; }
	grep -qF " $f+" prf.frames || { echo "FAIL: prf shows no $f frame"; fail=1; }
done
for b in pie nopie dbg cxx libmr.so; do
	grep -qF "($T/$b)" prf.frames || { echo "FAIL: no frames in $b"; fail=1; }
done
if ! cmp -s perf.frames prf.frames; then
	echo "FAIL: callchain frames differ from perf script ($(wc -l < perf.frames) vs $(wc -l < prf.frames) lines):"
	diff perf.frames prf.frames | head -20
	fail=1
fi
[ $fail -eq 0 ] || { head -5 prf.err; exit 1; }
echo "ok: $(wc -l < prf.frames) frame lines identical"
exit 0
