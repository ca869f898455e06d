#!/bin/bash
# prf data convert --to-pprof: go tool pprof reads it with prf report's top functions, counts and shares
# Records a known call tree (lib/tree.c, -g) and a Python run (many
# functions, libpython) with Linux perf, converts each to pprof and reads
# it with the real client, `go tool pprof`:
#  - -top per function: the sample counts (-sample_index=samples) equal
#    prf report -n --no-children -s sym's Samples column, and the flat
#    shares of the default type (cpu nanoseconds: the period) its
#    Overhead, for every named symbol (summed by name on both sides);
#  - -traces shows the call tree main -> a -> b -> leaf;
#  - -lines names the test program's source file and lines;
#  - labels pid, tid, comm; sample types samples/count, cpu/nanoseconds;
#  - -proto writes it back out with the same totals (round trip).
# The npm package pprof-format (a second, independent decoder, in node;
# scripts/install-deps.sh installs it) reads the same sample totals as prf
# report's header (samples, event count).
# A DWARF recording of an -O2 program with an inlined function shows it as
# an inlined Line of its caller's location. Every format is the same
# with $PRF_THREADS=1 (exporters called in line) as without.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup convert-pprof go

cc_prog tree -g
perf_record "$T/g.data" -F 999 -g -- "$T/tree" 60000
perf_record "$T/py.data" -F 999 -g -- python3 -c 'import json
x = 0
for i in range(30000): x += len(json.dumps({"a": i, "b": [i, str(i)]}))'

pprof() { go tool pprof -symbolize=none "$@" 2>"$T/pprof.err" || { cat "$T/pprof.err"; fail "go tool pprof $*"; }; }

cat > "$T/compare.py" <<'PY'
import re, sys
from collections import defaultdict
rep, top_n, top_pct = sys.argv[1:4]
want_n, want_pct, rows = defaultdict(int), defaultdict(float), defaultdict(int)
for l in open(rep):
    m = re.match(r'\s+([\d.]+)%\s+(\d+)\s+\[.\]\s+(.*\S)\s*$', l)
    if m and not m.group(3).startswith('0x'):
        want_n[m.group(3)] += int(m.group(2))
        want_pct[m.group(3)] += float(m.group(1))
        rows[m.group(3)] += 1
def top(path):
    rows, on = {}, False
    for l in open(path):
        if l.split()[:2] == ['flat', 'flat%']:
            on = True
            continue
        if on and l.strip():
            f = l.split(None, 5)
            rows[f[5].strip()] = (f[0], float(f[1].rstrip('%')))
    return rows
got_n, got_pct = top(top_n), top(top_pct)
bad = 0
for sym, n in want_n.items():
    g = got_n.get(sym)
    if g is None or int(float(g[0])) != n:
        print('%s: report %d samples, pprof %s' % (sym, n, g and g[0])); bad += 1
    p = got_pct.get(sym)
    # each side rounds to 0.01%: a sum of report rows by up to 0.005 each
    if p is None or abs(p[1] - want_pct[sym]) > 0.005 * (rows[sym] + 1) + 1e-9:
        print('%s: report %.2f%%, pprof %s' % (sym, want_pct[sym], p and p[1])); bad += 1
if not want_n or bad:
    sys.exit('%d differences in %d symbols' % (bad, len(want_n)))
print('ok: %d symbols, %d samples: same counts and shares' % (len(want_n), sum(want_n.values())))
PY

for d in g py; do
	prf_out "$T/$d.conv" data convert -i "$T/$d.data" --to-pprof "$T/$d.pb.gz"
	gzip -t "$T/$d.pb.gz" || fail "$d: not gzip"
	prf_out "$T/$d.rep" report -i "$T/$d.data" --stdio --no-children -n -s sym -g none
	pprof -top -nodecount=100000 -nodefraction=0 -sample_index=samples "$T/$d.pb.gz" > "$T/$d.top.n"
	pprof -top -nodecount=100000 -nodefraction=0 "$T/$d.pb.gz" > "$T/$d.top.pct"
	grep -q "^Type: cpu$" "$T/$d.top.pct" || fail "$d: default type is not cpu"
	python3 "$T/compare.py" "$T/$d.rep" "$T/$d.top.n" "$T/$d.top.pct" || fail "$d: pprof -top differs from prf report"
	# round trip through pprof's own writer
	pprof -proto "$T/$d.pb.gz" > "$T/$d.rt.pb.gz"
	pprof -top -nodecount=100000 -nodefraction=0 "$T/$d.rt.pb.gz" > "$T/$d.rt.top"
	diff <(grep -v '^File:\|^Build ID' "$T/$d.top.pct") <(grep -v '^File:\|^Build ID' "$T/$d.rt.top") ||
		fail "$d: -proto round trip changed -top"
done

# a second decoder: pprof-format in node, totals against report's header
NPM_ROOT=$(npm root -g 2>/dev/null)
if [ -n "$NPM_ROOT" ] && [ -d "$NPM_ROOT/pprof-format" ] && command -v node >/dev/null; then
	for d in g py; do
		NODE_PATH=$NPM_ROOT node -e '
const { Profile } = require("pprof-format");
const p = Profile.decode(require("zlib").gunzipSync(require("fs").readFileSync(process.argv[1])));
const str = p.stringTable.strings || p.stringTable;
const tot = p.sampleType.map(() => 0n);
for (const s of p.sample) s.value.forEach((v, i) => { tot[i] += BigInt(v); });
console.log(p.sampleType.map((t, i) => str[Number(t.type)] + "=" + tot[i]).join(" "));
' "$T/$d.pb.gz" > "$T/$d.node" || fail "$d: pprof-format cannot decode it"
		n=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' "$T/$d.rep")
		ev=$(sed -n 's/^# Event count (approx.): \([0-9]*\)/\1/p' "$T/$d.rep")
		[ "$(cat "$T/$d.node")" = "samples=$n cpu=$ev" ] ||
			fail "$d: pprof-format reads '$(cat "$T/$d.node")', report says $n samples, event count $ev"
		echo "ok: $d: pprof-format reads $n samples, $ev ns, as report"
	done
else
	echo "no npm package pprof-format or node: second decoder skipped"
fi

# the same files, byte for byte, from the exporters called in line
# ($PRF_THREADS=1) as from their second thread (the export feed) and the
# pprof message packed in two pieces
for d in g py; do
	for f in pprof gecko speedscope json; do
		prf_out "$T/$d.thr" data convert -i "$T/$d.data" --to-$f "$T/$d.thr.$f"
		PRF_THREADS=1 prf_out "$T/$d.one" data convert -i "$T/$d.data" --to-$f "$T/$d.one.$f"
		cmp "$T/$d.thr.$f" "$T/$d.one.$f" || fail "$d: --to-$f differs with PRF_THREADS=1"
	done
done
echo "ok: every format the same with the export feed as in line"

# the call tree, labels and sample types of the tree program
pprof -traces "$T/g.pb.gz" > "$T/g.traces"
grep -A4 -m1 '^ *[0-9.]*m\?s *leaf$' "$T/g.traces" | tr -s ' ' | sed 's/^ //' > "$T/g.stack"
[ "$(sed -n 2,4p "$T/g.stack" | tr '\n' ' ')" = "b a main " ] ||
	{ cat "$T/g.stack"; fail "traces: no leaf <- b <- a <- main"; }
grep -q "comm: *tree" "$T/g.traces" || fail "traces: no comm label"
grep -q "pid: *[0-9]" "$T/g.traces" && grep -q "tid: *[0-9]" "$T/g.traces" || fail "traces: no pid/tid labels"
pprof -raw "$T/g.pb.gz" > "$T/g.raw"
grep -q "^samples/count cpu/nanoseconds\[dflt\]" "$T/g.raw" || fail "raw: sample types"
pprof -top -lines "$T/g.pb.gz" > "$T/g.lines"
grep -q " leaf tree.c:[0-9]" "$T/g.lines" || { cat "$T/g.lines"; fail "-lines: no tree.c line of leaf"; }
echo "ok: traces leaf <- b <- a <- main, labels, sample types, source lines"

# inlined frames of a DWARF callchain: one location, two Lines
cc_prog inl -O2 -g	# leaf, mid inlined into top (lib/inl.c)
perf_record "$T/dw.data" -F 999 --call-graph dwarf -- "$T/inl"
prf_out "$T/dw.conv" data convert -i "$T/dw.data" --to-pprof "$T/dw.pb.gz"
pprof -traces "$T/dw.pb.gz" > "$T/dw.traces"
grep -A2 -m1 '^ *[0-9.]*m\?s *leaf$' "$T/dw.traces" | tr -s ' ' > "$T/dw.stack"
grep -q "mid (inline)" "$T/dw.stack" && grep -q "top" "$T/dw.stack" ||
	{ cat "$T/dw.stack"; fail "dwarf: no inlined mid in top"; }
echo "ok: inlined frames as Line entries"

# off-CPU (prf record --off-cpu): sample types samples + cpu, then
# offcpu_samples + offcpu nanoseconds, totals as report's offcpu-time event
if [ "$(uname -m)" = x86_64 ] && "$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch; then
	cat > "$T/sl.c" <<'C'
#include "sleeper.h"
volatile unsigned long sink;
__attribute__((noinline)) void work(void) { for (unsigned long i = 0; i < 5000000; i++) sink += i; }
int main(void) { work(); sleeper(); work(); return 0; }
C
	cc -O0 -fno-omit-frame-pointer -I"$PRF_SRCDIR/tests/shell/lib" -o "$T/sl" "$T/sl.c" || fail "cc sl.c"
	"$PRF" record -q --off-cpu -o "$T/oc.data" -- "$T/sl" 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "prf record --off-cpu"; }
	prf_out "$T/oc.conv" data convert -i "$T/oc.data" --to-pprof "$T/oc.pb.gz"
	pprof -raw "$T/oc.pb.gz" > "$T/oc.raw"
	grep -q "^samples/count cpu/nanoseconds\[dflt\] offcpu_samples/count offcpu/nanoseconds$" "$T/oc.raw" ||
		{ grep "count" "$T/oc.raw" | head -2; fail "off-CPU: sample types"; }
	prf_out "$T/oc.rep" report -i "$T/oc.data" --stdio --no-children
	want=$(sed -n '/of event .offcpu-time./{n;s/^# Event count (approx.): \([0-9]*\)/\1/p}' "$T/oc.rep")
	pprof -top -sample_index=offcpu -unit=ns "$T/oc.pb.gz" > "$T/oc.top"
	got=$(sed -n 's/.*Total samples = \([0-9]*\)ns.*/\1/p' "$T/oc.top")
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "off-CPU: pprof total '$got' ns, report '$want'"
	grep -q " sleeper$" "$T/oc.top" || fail "off-CPU: no sleeper"
	echo "ok: off-CPU: offcpu/nanoseconds, $got ns in sleeper as report"
else
	echo "no sched:sched_switch or not x86_64: off-CPU part skipped"
fi
