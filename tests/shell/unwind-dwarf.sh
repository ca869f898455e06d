#!/bin/bash
# DWARF unwinding of a perf --call-graph dwarf recording matches perf script (stacks, inline frames, srclines, debuglink lib, truncation)
#
# Builds a program without frame pointers (main -> a -> b -> leaf, an
# always_inline function in leaf, and a call into a shared library whose
# DWARF *and CFI* live only in a separate .gnu_debuglink file), records it
# with /usr/bin/perf --call-graph dwarf, unwinds every sample with prf's
# unwinder (unit test unwind-perf-data reading the file) and compares
# each stack with `perf script`: return addresses of every frame, symbols,
# inline frames and srclines of the frames in the program. A second run
# recurses deeper than the 8 KB stack copy: its samples must end in a
# frame marked truncated.
set -u
PERF=/usr/bin/perf
[ -x "$PERF" ] || { echo "no $PERF"; exit 2; }
command -v cc >/dev/null || { echo "no cc"; exit 2; }
command -v python3 >/dev/null || { echo "no python3"; exit 2; }
command -v objcopy >/dev/null || { echo "no objcopy"; exit 2; }
"$PRF" test list unwind-perf-data 2>/dev/null | grep -q "unwind-perf-data" ||
	{ echo "$PRF has no unwind-perf-data unit test (stale binary?)"; exit 2; }
dir=$(mktemp -d /tmp/prf-unwind.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

cat > lib.c <<'SRC'
volatile unsigned long lib_sink;
__attribute__((noinline)) unsigned long lib_inner(unsigned long x)
{
	for (int i = 0; i < 300; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	lib_sink = x;
	return x;
}
__attribute__((noinline)) unsigned long lib_outer(unsigned long x)
{
	unsigned long r = lib_inner(x ^ 0x55) + 1;
	lib_sink += r;
	return r;
}
SRC
cat > prog.c <<'SRC'
#include <stdlib.h>
#include <string.h>
#include <time.h>
unsigned long lib_outer(unsigned long x);
volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 200; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}
__attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	sink = mix(x);
	return sink;
}
__attribute__((noinline)) unsigned long b(unsigned long x) { unsigned long r = leaf(x) + 1; sink += r; return r; }
__attribute__((noinline)) unsigned long a(unsigned long x) { unsigned long r = b(x) + 2; sink += r; return r; }
__attribute__((noinline)) unsigned long tick(void)
{
	struct timespec ts;
	unsigned long s = 0;
	for (int i = 0; i < 20; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);	/* [vdso] frames */
		s += ts.tv_nsec;
	}
	return s;
}
__attribute__((noinline)) unsigned long deep(int n, unsigned long x)
{
	volatile char pad[96];
	pad[0] = (char)x;
	if (n == 0) {
		for (long i = 0; i < 3000000; i++)
			sink += mix(i);
		return sink;
	}
	return deep(n - 1, x + 1) + pad[0];
}
int main(int argc, char **argv)
{
	long n = 150000;
	if (argc > 1 && !strcmp(argv[1], "deep"))
		return (int)deep(400, 1) & 1;
	for (long i = 0; i < n; i++) {
		a(i);
		lib_outer(i);
		sink += tick();
	}
	return 0;
}
SRC
# library: CFI only in .debug_frame, moved with the DWARF to a debuglink file
cc -O2 -g -fPIC -shared -fomit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-o libuw.so lib.c || fail "cc lib"
objcopy --only-keep-debug libuw.so libuw.so.debug &&
objcopy --strip-debug --add-gnu-debuglink=libuw.so.debug libuw.so || fail objcopy
readelf -S libuw.so | grep -q '\.debug_frame' && fail "libuw.so still has .debug_frame"
ehsize=$(readelf -SW libuw.so | awk '$2 == ".eh_frame" { print $6 }')
[ $((16#${ehsize:-0})) -lt 16 ] || fail "libuw.so .eh_frame has FDEs (size $ehsize)"
readelf -SW libuw.so.debug | grep -q '\.debug_frame' || fail "libuw.so.debug has no .debug_frame"
cc -O2 -g -fomit-frame-pointer -o prog prog.c -L. -luw -Wl,-rpath,"$dir" || fail "cc prog"

"$PERF" record -q -e task-clock:u --call-graph dwarf -F 999 -o tree.data ./prog \
	>/dev/null 2>perf.err || { cat perf.err; echo "perf record failed"; exit 2; }
"$PERF" script -i tree.data -F time,ip,sym,dso,srcline --ns > perf.txt 2>/dev/null ||
	fail "perf script"
PRF_UNWIND_DATA=tree.data PRF_UNWIND_OUT=prf.txt PRF_UNWIND_TARGET="$dir/prog:$dir/libuw.so" \
	"$PRF" test -v unwind-perf-data > test.log 2>&1 || { cat test.log; fail "prf unwind test"; }
grep "samples/s" test.log

cat > compare.py <<'PY'
import sys, re
targets = sys.argv[3].split(':')
def norm_sl(s):
    s = s.replace(' (inlined)', '').strip()
    return '-' if (not s or s.startswith('??') or s.startswith(':')) else s
vdso = set()
def parse_perf(path):
    out = {}; cur = None; frames = []
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'^\s*(\d+)\.(\d+):\s*$', line)
        if m:
            cur = int(m.group(1)) * 10**9 + int(m.group(2)); frames = []; out[cur] = frames; continue
        if line.startswith('\t'):
            m = re.match(r'^\t\s*([0-9a-f]+) (.*?)(?: \((/.*|\[.*\])\))?$', line)
            frames.append([int(m.group(1), 16), m.group(2), m.group(3), '-', False])
        elif line.startswith('  ') and frames:
            frames[-1][3] = norm_sl(line); frames[-1][4] = '(inlined)' in line
    res = {}
    for t, fr in out.items():
        for i, f in enumerate(fr):    # inlined frames: the dso of the real frame at that address
            if f[2] is None:
                f[2] = next((g[2] for g in fr[i + 1:] if g[0] == f[0] and g[2]), None)
        addrs = []
        for f in fr:
            if not addrs or addrs[-1] != f[0]: addrs.append(f[0])
        syms = [(f[1].replace(' (inlined)', ''), f[3]) for f in fr if f[2] in targets]
        res[t] = (addrs, syms)
        if any(f[2] == '[vdso]' for f in fr) and len(fr) > 3: vdso.add(t)
    return res
def parse_prf(path):
    res = {}; cur = None
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('S '):
            cur = int(line[2:]); res[cur] = ([], []); continue
        if not line or line.startswith('T ') or cur is None: continue
        parts = line.split(' ')
        addr = int(parts[0], 16)
        addrs, syms = res[cur]
        if not addrs or addrs[-1] != addr: addrs.append(addr)
        if len(parts) > 1:
            sym = ' '.join(parts[1:-1]).replace(' (inlined)', ''); syms.append((sym, norm_sl(parts[-1])))
    return res
perf = parse_perf(sys.argv[1]); prf = parse_prf(sys.argv[2])
# perf 6.1 does not find CFI kept only in a debuglink file: it stops in
# libuw.so; those samples are checked by the lib_inner->lib_outer->main count
n = 0; same_addr = same_sym = 0; shown = 0
for t, (pa, ps) in perf.items():
    if t not in prf or (ps and ps[0][0].startswith('lib_')): continue
    n += 1
    ma, ms = prf[t]
    same_addr += pa == ma
    same_sym += ps == ms
    if (pa != ma or ps != ms) and shown < 3:
        shown += 1
        print('differs at', t, '\n perf:', [hex(x) for x in pa], ps, '\n prf: ', [hex(x) for x in ma], ms)
vdso_ok = sum(1 for t in vdso if t in prf and prf[t][0] == perf[t][0])
chains = sum(1 for t, (pa, ps) in prf.items() if [s for s, _ in ps][:5] == ['mix', 'leaf', 'b', 'a', 'main'])
libs = sum(1 for t, (pa, ps) in prf.items() if [s for s, _ in ps][:3] == ['lib_inner', 'lib_outer', 'main'])
print(f'samples {n}, same return addresses {same_addr}, same symbols+srclines {same_sym}, '
      f'main->a->b->leaf->mix {chains}, main->lib_outer->lib_inner {libs}, '
      f'through [vdso] {vdso_ok} of {len(vdso)}')
ok = n > 20 and same_addr * 10 >= n * 8 and same_sym * 10 >= n * 8 and chains > 5 and libs > 5 and vdso_ok * 10 >= len(vdso) * 8
sys.exit(0 if ok else 1)
PY
python3 compare.py perf.txt prf.txt "$dir/prog:$dir/libuw.so" || fail "stacks differ from perf script"

# srcline of the leaf: the inlined mix() loop, as addr2line says
leafline=$(grep -m1 ' mix (inlined) ' prf.txt | awk '{print $NF}')
leafaddr=$(grep -m1 ' mix (inlined) ' prf.txt | awk '{print $1}')
want=$(addr2line -e prog "0x$leafaddr" 2>/dev/null | sed 's#.*/##; s/ (discriminator.*//')
[ -n "$leafline" ] && [ "$leafline" = "$want" ] || fail "leaf srcline '$leafline' != addr2line '$want'"
echo "leaf srcline $leafline = addr2line"

# a recursion deeper than the 8 KB stack copy: samples end truncated
"$PERF" record -q -e task-clock:u --call-graph dwarf,8192 -F 999 -o deep.data ./prog deep \
	>/dev/null 2>perf.err || { cat perf.err; echo "perf record failed"; exit 2; }
PRF_UNWIND_DATA=deep.data PRF_UNWIND_OUT=deep.txt PRF_UNWIND_TARGET="$dir/prog" \
	"$PRF" test -v unwind-perf-data > test.log 2>&1 || { cat test.log; fail "prf unwind test (deep)"; }
read -r _ nsamples ntrunc _ < <(grep '^T ' deep.txt)
echo "deep: $nsamples samples, $ntrunc truncated"
[ "$nsamples" -gt 20 ] && [ $((ntrunc * 10)) -ge $((nsamples * 8)) ] || fail "deep recursion not marked truncated"
# and the tree run (stacks fit) has none
read -r _ nsamples ntrunc _ < <(grep '^T ' prf.txt)
[ "$ntrunc" -eq 0 ] || fail "$ntrunc truncated samples in the shallow run"
exit 0
