#!/bin/bash
# prf script --folded: the stacks stackcollapse-perf.pl's rules make of perf script output
# The reference folder below is this test's own, written from the rules
# stackcollapse-perf.pl documents (process name root, frames caller first
# joined by ';', +0x offsets dropped, "[dso]" for symbol-less frames,
# names tidied, _[k] on kernel frames with --kernel, first event only,
# bytewise sort). It runs on perf script output and on prf script output.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-folded

cat > "$T/tree.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(void) { for (int i = 0; i < 2000; i++) sink += i * i; }
__attribute__((noinline)) void b(void) { leaf(); }
__attribute__((noinline)) void a(void) { b(); }
__attribute__((noinline)) void c2(void) { for (int i = 0; i < 4000; i++) sink += i; }
int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 100000; for (long i = 0; i < n; i++) { a(); if (i % 2) c2(); } return 0; }
C
cc -O0 -fno-omit-frame-pointer -o "$T/tree" "$T/tree.c" || fail "cc"
"$PERF" record -q -F 999 -g -e cpu-clock -e task-clock -o "$T/g.data" -- "$T/tree" 120000 >/dev/null 2>&1 ||
	{ echo "perf record failed (perf_event_paranoid?)"; exit 2; }

cat > "$T/collapse.py" <<'PY'
import re, sys
kernel = '--kernel' in sys.argv
hdr = re.compile(r'^(\S.*?)\s+(\d+)/*(\d+)*\s+')
evre = re.compile(r':\s*(\d+)*\s+(\S+):\s*$')
frm = re.compile(r'^\s*(\w+)\s*(.+) \((\S*)\)')
stacks, stack, pname, first, skip = {}, [], None, None, False
def tidy(f):
    f = f.replace(';', ':')
    if not re.search(r'\.\(.*\)\.', f):
        f = re.sub(r'\((?!anonymous namespace\)).*', '', f)
    return f.replace('"', '').replace("'", '')
for line in sys.stdin:
    line = line.rstrip('\n')
    if line.startswith('#'):
        continue
    if line == '':
        if pname is not None and not skip:
            k = ';'.join([pname] + stack)
            stacks[k] = stacks.get(k, 0) + 1
        stack, pname, skip = [], None, False
        continue
    m = hdr.match(line)
    if m and not line.startswith('\t'):
        pname = m.group(1).replace(' ', '_')
        e = evre.search(line)
        if e:
            first = first or e.group(2)
            skip = e.group(2) != first
        continue
    m = frm.match(line)
    if m:
        pc, func, mod = m.groups()
        func = re.sub(r'\+0x[\da-f]+$', '', func)
        # --kernel: "_[k]" by the DSO name, before the [unknown] rename
        if kernel and re.search(r'(kernel\.|vmlinux$)', mod):
            func += '_[k]'
        if func.startswith('('):
            continue
        if func == '[unknown]' and mod != '[unknown]':
            func = '[' + re.sub(r'.*/', '', mod) + ']'
        func = tidy(func)
        stack.insert(0, func)
for k in sorted(stacks, key=lambda s: s.encode()):
    print(k, stacks[k])
PY

"$PERF" script -i "$T/g.data" 2>/dev/null > "$T/perf.txt" || fail "perf script"
"$PRF" script -i "$T/g.data" > "$T/prf.txt" || fail "prf script"
"$PRF" script -i "$T/g.data" --folded > "$T/folded.txt" || fail "prf script --folded"
"$PRF" script -i "$T/g.data" --folded --annotate-kernel > "$T/folded-k.txt" || fail "--annotate-kernel"
python3 "$T/collapse.py" < "$T/perf.txt" > "$T/ref-perf.txt"
python3 "$T/collapse.py" < "$T/prf.txt" > "$T/ref-prf.txt"
python3 "$T/collapse.py" --kernel < "$T/prf.txt" > "$T/ref-prf-k.txt"

# 1. exactly the reference folding of prf's own script output
diff -u "$T/ref-prf.txt" "$T/folded.txt" || fail "--folded != reference collapse of prf script"
diff -u "$T/ref-prf-k.txt" "$T/folded-k.txt" || fail "--annotate-kernel != reference --kernel collapse"
# 2. the same stacks as the reference folding of perf script output: the
#    known call tree exactly; in total the same number of samples
for stack in "tree;__libc_start_call_main;main;a;b;leaf" "tree;__libc_start_call_main;main;c2"; do
	r=$(awk -v s="$stack" '$1 == s {print $2}' "$T/ref-perf.txt")
	p=$(awk -v s="$stack" '$1 == s {print $2}' "$T/folded.txt")
	[ -n "$r" ] || fail "perf collapse has no $stack"
	[ "$r" = "$p" ] || fail "$stack: perf+collapse $r, prf --folded ${p:-none}"
	[ "$r" -gt 10 ] || fail "$stack: only $r samples"
done
rt=$(awk '{s += $NF} END {print s}' "$T/ref-perf.txt")
pt=$(awk '{s += $NF} END {print s}' "$T/folded.txt")
[ "$rt" = "$pt" ] || fail "total samples: perf+collapse $rt, prf --folded $pt"
if ! diff -q "$T/ref-perf.txt" "$T/folded.txt" >/dev/null; then
	echo "note: stacks outside the test program differ in symbol choice:"
	diff "$T/ref-perf.txt" "$T/folded.txt" | head -4
fi
# only the first event (cpu-clock) is folded, as stackcollapse-perf.pl does
n=$(grep -c ' cpu-clock: $' "$T/prf.txt")
[ "$pt" = "$n" ] || fail "folded $pt samples, cpu-clock has $n"
grep -q '_\[k\] [0-9]*$' "$T/folded-k.txt" || echo "note: no kernel frames sampled"
grep -q '_\[k\]' "$T/folded.txt" && fail "_[k] without --annotate-kernel"

# --event picks another event
n2=$(grep -c ' task-clock: $' "$T/prf.txt")
t2=$("$PRF" script -i "$T/g.data" --folded --event task-clock | awk '{s += $NF} END {print s}')
[ "$t2" = "$n2" ] || fail "--event task-clock folded $t2 samples, task-clock has $n2"
"$PRF" script -i "$T/g.data" --folded --event no-such >/dev/null 2>&1 && fail "--event no-such succeeded"

# --weight period sums the periods
w=$("$PRF" script -i "$T/g.data" --folded --weight period | awk '{s += $NF} END {print s}')
e=$("$PRF" script -i "$T/g.data" -F period,event | awk '$2 == "cpu-clock:" {s += $1} END {print s}')
[ "$w" = "$e" ] || fail "--weight period total $w, periods of cpu-clock $e"
"$PRF" script -i "$T/g.data" --folded --weight bogus >/dev/null 2>&1
[ $? -eq 129 ] || fail "--weight bogus not a usage error"
echo ok
exit 0
