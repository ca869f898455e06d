#!/usr/bin/env bash
# make demo: profile a real program with prf, end to end:
# list -> stat -> record -> report -> annotate -> script -> folded stacks
# -> flamegraph -> data convert -> trace.
set -u
cd "$(dirname "$0")/.."
PRF=${PRF:-$PWD/prf}
out=${DEMO_DIR:-$PWD/demo-out}
mkdir -p "$out"
export PRF_PAGER=cat

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# The workload: xz compressing generated text, a real program with shared
# libraries (liblzma, libc), plus a small C program with a known call tree
# built with frame pointers so callchains are complete.
head -c 3000000 /dev/urandom | base64 > "$out/input.txt"
cat > "$out/tree.c" <<'C'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void b(int n) { for (int i = 0; i < n / 4; i++) sink += i; leaf(n); }
__attribute__((noinline)) void a(int n) { for (int i = 0; i < n / 4; i++) sink += i; b(n); }
int main(int argc, char **argv) { int r = argc > 1 ? atoi(argv[1]) : 400; for (int i = 0; i < r; i++) a(1000000); return 0; }
C
cc -O0 -g -fno-omit-frame-pointer "$out/tree.c" -o "$out/tree"

step "prf list sw"
$PRF list sw

step "prf stat -- xz (counting; hardware events show <not supported> without a PMU)"
$PRF stat -- xz -6 -k -f -T1 "$out/input.txt"

step "prf record -F 999 -g -- ./tree   (main -> a -> b -> leaf)"
$PRF record -F 999 -g -o "$out/tree.data" -- "$out/tree"

step "prf report --stdio --no-children"
$PRF report --stdio --no-children -i "$out/tree.data" | head -40

step "prf record -F 999 -g -- xz"
$PRF record -F 999 -g -o "$out/xz.data" -- xz -6 -k -f -T1 "$out/input.txt"

step "prf report --stdio --sort dso,sym (top entries)"
$PRF report --stdio --no-children --sort dso,sym -g none -i "$out/xz.data" | grep -v '^$' | head -25

step "prf annotate --stdio leaf (hot instructions of tree's leaf(), with its source lines)"
$PRF annotate --stdio -i "$out/tree.data" leaf | head -30

step "prf script (first samples, the text FlameGraph and speedscope read)"
$PRF script -i "$out/xz.data" | head -20

step "prf script --folded (stacks for flamegraph tools, no Perl needed)"
$PRF script --folded -i "$out/tree.data" | sort -k2 -n -r | head -5

step "prf flamegraph"
$PRF flamegraph -i "$out/xz.data" -o "$out/xz-flame.html" --title "xz -6"
$PRF flamegraph -i "$out/tree.data" -o "$out/tree-flame.svg"
echo "open $out/xz-flame.html in a browser (self-contained, works offline; heatmap"
echo "     and thread timeline above the graph select time ranges)"
echo "     $out/tree-flame.svg"

step "prf data convert --to-pprof (for go tool pprof, Pyroscope, Parca) and --to-speedscope"
$PRF data convert -f -i "$out/xz.data" --to-pprof "$out/xz.pb.gz"
$PRF data convert -f -i "$out/xz.data" --to-speedscope "$out/xz.speedscope.json"

step "prf trace -s -- xz (syscall summary, as perf trace -s)"
$PRF trace -s -- xz -6 -k -f -T1 "$out/input.txt" 2>&1 | head -25
rm -f "$out/input.txt" "$out/input.txt.xz"
