#!/bin/bash
# prf data convert --to-gecko: Firefox Profiler processed format, per-thread samples and stacks as prf script, off-CPU spans as markers
# prf-test: serial: times a 200 ms sleep (+-20%) in the off-CPU markers
# The structure is checked against the Firefox Profiler's documented
# processed format (version 56; its own loader opens the file in
# convert-gecko-profiler.sh): meta
# versions and categories with a grey default, every table's columns as
# long as its length, indices in range, stack prefixes before their
# stack, pid a string, sample times in order (convert-stacks.py). Then:
#  - a three-thread program (lib/threads.c, -g): one thread per recorded
#    thread whose samples, in order, have prf script's stacks;
#  - a DWARF recording of an -O2 program: the inlined function is a frame
#    of inlineDepth 1 under its caller at depth 0, at the same address;
#  - prf record --off-cpu of a program sleeping 200 ms: its thread has
#    one marker per offcpu-time sample of prf script, spanning 160..240 ms
#    in all.
set -u
. "$PRF_SRCDIR/tests/shell/lib/offcpu.sh"
offcpu_setup convert-gecko
[ -x "$PERF" ] || { echo "no $PERF (Linux perf) to record with"; exit 2; }

cc_prog threads -pthread
perf_record "$T/g.data" -F 999 -g -- "$T/threads" 15000
cc_prog inl -O2 -g	# leaf, mid inlined into top (lib/inl.c)
perf_record "$T/dw.data" -F 499 --call-graph dwarf -- "$T/inl"

for d in g dw; do
	prf_out "$T/$d.conv" data convert -i "$T/$d.data" --to-gecko "$T/$d.json"
	prf_out "$T/$d.script" script -i "$T/$d.data" -F comm,tid,ip,sym
	python3 "$PRF_SRCDIR/tests/shell/lib/convert-stacks.py" gecko "$T/$d.json" "$T/$d.script" ||
		fail "$d: gecko profile differs from prf script"
done

python3 - "$T/dw.json" <<'PY' || fail "inlined frames"
import json, sys
d = json.load(open(sys.argv[1]))
s = d['shared']['stringArray']
t = d['threads'][0]
fr, fn, st = t['frameTable'], t['funcTable'], t['stackTable']
name = lambda f: s[fn['name'][fr['func'][f]]]
hits = 0
for i in range(st['length']):
    f, p = st['frame'][i], st['prefix'][i]
    if name(f) == 'mid':
        pf = st['frame'][p]
        assert fr['inlineDepth'][f] == 1 and name(pf) == 'top' and fr['inlineDepth'][pf] == 0, 'mid not inlined in top'
        assert fr['address'][f] == fr['address'][pf], 'inlined frame at another address'
        hits += 1
assert hits, 'no mid frame'
print('ok: mid inlined into top (inlineDepth 1, same address)')
PY

cat > "$T/sl.c" <<'C'
#include "sleeper.h"
volatile unsigned long sink;
__attribute__((noinline)) void work(void) { for (unsigned long i = 0; i < 20000000; i++) sink += i; }
int main(void) { work(); sleeper(); work(); return 0; }
C
cc_sleeper sl
"$PRF" record -q --off-cpu -o "$T/oc.data" -- "$T/sl" 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record --off-cpu"; }
prf_out "$T/oc.conv" data convert -i "$T/oc.data" --to-gecko "$T/oc.json"
prf_out "$T/oc.script" script -i "$T/oc.data" -F tid,event
python3 - "$T/oc.json" "$T/oc.script" <<'PY' || fail "off-CPU markers"
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
want = Counter(int(l.split()[0]) for l in open(sys.argv[2]) if 'offcpu-time' in l)
s = d['shared']['stringArray']
got, total = Counter(), 0.0
for t in d['threads']:
    m = t['markers']
    for i in range(m['length']):
        assert s[m['name'][i]] == 'offcpu' and m['phase'][i] == 1, 'marker name/phase'
        got[t['tid']] += 1
        total += m['endTime'][i] - m['startTime'][i]
assert got == want, 'markers %s, prf script offcpu-time samples %s' % (dict(got), dict(want))
assert 160 <= total <= 240, 'off-CPU markers span %.1f ms, want ~200' % total
print('ok: %d off-CPU markers, %.1f ms' % (sum(got.values()), total))
PY
