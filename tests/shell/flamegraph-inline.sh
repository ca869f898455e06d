#!/bin/bash
# inlined frames in prf script --folded and prf flamegraph (DWARF recording by perf): as stackcollapse-perf.pl folds perf script; --no-inline drops them
# A -O2 -g program whose outer() has middle() and inner() forced inline is
# recorded by Linux perf with --call-graph dwarf. perf script prints the
# inlined calls as "inner+0x.. (inlined)" frame lines; stackcollapse-perf.pl
# turns such a line into a plain "inner" frame (offset dropped, the
# "(inlined)" taken as the DSO). The reference folder below is this test's
# own, written from those documented rules (FlameGraph's current
# stackcollapse-perf.pl; used instead when $STACKCOLLAPSE names it or it
# is in PATH). Checked: prf script --folded equals the reference folding of
# prf script; on perf script the stacks through main agree exactly (the
# frames below main, in libc, may be named differently by the resolvers);
# --no-inline folds inner/middle into outer; the flamegraph has the
# inlined frames by default and not with --no-inline.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup flame-inline

cat > "$T/inl.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
static inline __attribute__((always_inline)) void inner(long n)
{
	for (long i = 0; i < n; i++)
		sink += i * i;
}
static inline __attribute__((always_inline)) void middle(long n)
{
	inner(n);
	sink ^= 1;
}
__attribute__((noinline)) void outer(long n) { middle(n); sink += 3; }
__attribute__((noinline)) void other(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000;

	for (long i = 0; i < n; i++) {
		outer(20000);
		other(10000);
	}
	return 0;
}
C
cc -O2 -g -fomit-frame-pointer -o "$T/inl" "$T/inl.c" || fail "cc"
"$PERF" record -q -F 999 --call-graph dwarf,16384 -e cpu-clock -o "$T/d.data" -- "$T/inl" 12000 >/dev/null 2>&1 ||
	{ echo "perf record --call-graph dwarf failed (perf_event_paranoid?)"; exit 2; }

cat > "$T/collapse.py" <<'PY'
# stackcollapse-perf.pl's rules, default options (process name root)
import re, sys
hdr = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+')
frm = re.compile(r'^\s*(\w+)\s*(.+) \((\S*)\)')
stacks, stack, pname = {}, [], None
for line in sys.stdin:
    if line.startswith('#'):
        continue
    line = line.rstrip('\n')
    if line == '':
        k = ';'.join([pname if pname is not None else ''] + stack)
        stacks[k] = stacks.get(k, 0) + 1
        stack, pname = [], None
        continue
    m = hdr.match(line)
    if m:
        pname = m.group(1).replace(' ', '_')
        continue
    m = frm.match(line)
    if not m:
        continue
    pc, raw, mod = m.groups()
    raw = re.sub(r'\+0x[\da-f]+$', '', raw)
    if raw.startswith('('):
        continue
    parts = []
    for func in raw.split('->'):
        if func == '[unknown]' and mod != '[unknown]':
            func = '[' + re.sub(r'.*/', '', mod) + ']'
        func = func.replace(';', ':')
        if not re.search(r'\.\(.*\)\.', func):
            func = re.sub(r'\((?!anonymous namespace\)).*', '', func)
        func = func.replace('"', '').replace("'", '')
        if parts:
            func += '_[i]'
        parts.append(func)
    stack[0:0] = parts
for k in sorted(stacks, key=lambda s: s.encode()):
    print(k, stacks[k])
PY
collapse() { python3 "$T/collapse.py"; }
# FlameGraph's own folder, where $STACKCOLLAPSE names it or it is on PATH
# (optional: the reference above stands in for it)
SC=${STACKCOLLAPSE:-}
if [ -z "$SC" ] && command -v stackcollapse-perf.pl >/dev/null; then
	SC=$(command -v stackcollapse-perf.pl)
fi
if [ -n "$SC" ] && command -v perl >/dev/null; then
	echo "reference: $SC"
	collapse() { perl "$SC"; }
fi

"$PERF" script -i "$T/d.data" 2>/dev/null > "$T/perf.txt" || fail "perf script"
grep -q '^[[:space:]]*[0-9a-f]* inner+0x[0-9a-f]* (inlined)$' "$T/perf.txt" ||
	{ echo "perf script shows no inlined inner() frame (no debug info support?)"; exit 2; }
"$PRF" script -i "$T/d.data" > "$T/prf.txt" || fail "prf script"
"$PRF" script -i "$T/d.data" --folded > "$T/folded.txt" || fail "prf script --folded"
"$PRF" script -i "$T/d.data" --folded --no-inline > "$T/folded-noinl.txt" || fail "--folded --no-inline"
collapse < "$T/perf.txt" > "$T/ref-perf.txt"
collapse < "$T/prf.txt" > "$T/ref-prf.txt"

# 1. exactly the reference folding of prf's own script output
diff -u "$T/ref-prf.txt" "$T/folded.txt" || fail "--folded != reference collapse of prf script"

# 2. perf script | collapse: the same stacks from main up, same counts
# (not through atol: glibc's frames there are named by their hidden aliases
# by perf, a documented difference, Documentation/prf-report.txt)
from_main() { awk '$1 ~ /^inl;/ && $1 ~ /;main(;|$)/ && $1 !~ /;main;atol(;|$)/ { k = $1; sub(/^.*;main(;|$)/, "main;", k); s[k] += $NF } END { for (k in s) print k, s[k] }' "$1" | LC_ALL=C sort; }
from_main "$T/ref-perf.txt" > "$T/m-perf.txt"
from_main "$T/folded.txt" > "$T/m-prf.txt"
diff -u "$T/m-perf.txt" "$T/m-prf.txt" || fail "stacks from main differ: perf script | collapse vs prf --folded"
n=$(awk '$1 == "main;outer;middle;inner" { print $2 }' "$T/m-prf.txt")
[ "${n:-0}" -ge 20 ] || fail "main;outer;middle;inner has ${n:-no} samples"
if ! diff -q "$T/ref-perf.txt" "$T/folded.txt" >/dev/null; then
	echo "note: frames below main named differently (resolver):"
	diff "$T/ref-perf.txt" "$T/folded.txt" | grep '^[<>]' | head -4
fi
rt=$(awk '{ s += $NF } END { print s }' "$T/ref-perf.txt")
pt=$(awk '{ s += $NF } END { print s }' "$T/folded.txt")
[ "$rt" = "$pt" ] || fail "total samples: perf+collapse $rt, prf --folded $pt"

# 3. --no-inline: no inlined frames; their samples stay on outer
grep -q ';middle\|;inner' "$T/folded-noinl.txt" && fail "--no-inline still has inlined frames"
a=$(awk '$1 ~ /;main;outer;middle;inner$/ { s += $NF } END { print s + 0 }' "$T/folded.txt")
b=$(awk '$1 ~ /;main;outer(;|$)/ { s += $NF } END { print s + 0 }' "$T/folded-noinl.txt")
c=$(awk '$1 ~ /;main;outer(;|$)/ { s += $NF } END { print s + 0 }' "$T/folded.txt")
[ "$b" = "$c" ] && [ "$b" -ge "$a" ] || fail "--no-inline: main;outer has $b samples, with inlining $c (inner $a)"

# 4. flamegraph: inlined frames by default, none with --no-inline
"$PRF" flamegraph -i "$T/d.data" -o "$T/i.svg" || fail "flamegraph"
"$PRF" flamegraph -i "$T/d.data" -o "$T/n.svg" --no-inline || fail "flamegraph --no-inline"
i=$(awk '$1 ~ /;main;outer;middle;inner(;|$)/ { s += $NF } END { print s + 0 }' "$T/folded.txt")
grep -q "<title>inner ($i samples, " "$T/i.svg" || fail "flamegraph: no inner frame with $i samples"
grep -q "<title>middle (" "$T/i.svg" || fail "flamegraph: no middle frame"
grep -q "<title>inner (\|<title>middle (" "$T/n.svg" && fail "flamegraph --no-inline has inlined frames"
grep -q "<title>outer ($c samples, " "$T/n.svg" || fail "flamegraph --no-inline: outer is not $c samples"
echo ok
exit 0
