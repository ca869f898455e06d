#!/bin/bash
# prf record --off-cpu: 200 ms slept in sleeper() shows as ~200 ms (+-20%) offcpu-time under main;sleeper (script --folded, report, flamegraph)
# prf-test: serial: times a 200 ms sleep (+-20%) from switch-out to switch-in
# sleeper() (lib/sleeper.h) makes the nanosleep system call itself (inline
# syscall, so the user stack at the switch-out starts in sleeper with
# frame pointers intact) and is called from main after some work. prf
# record --off-cpu records sched:sched_switch with callchains and switch
# records; prf script --folded must then put 160..240 ms of offcpu-time
# (ns) on stacks through main;sleeper, prf report must list the
# offcpu-time event with sleeper, prf flamegraph must draw it (blue
# off-CPU view, ~200 ms) next to the on-CPU view, and perf must still read
# the file. (Time order of prf script:
# tests/shell/script-offcpu-order.sh.)
set -u
. "$PRF_SRCDIR/tests/shell/lib/offcpu.sh"
offcpu_setup offcpu

cat > "$T/sl.c" <<'C'
#include "sleeper.h"
volatile unsigned long sink;

__attribute__((noinline)) void work(void)
{
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
}

int main(void)
{
	work();
	sleeper();
	work();
	return 0;
}
C
cc_sleeper sl

"$PRF" record -q --off-cpu -o "$T/oc.data" -- "$T/sl" 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record --off-cpu"; }

"$PRF" script -i "$T/oc.data" --folded > "$T/folded" 2>"$T/err" || { cat "$T/err"; fail "prf script --folded"; }
ns=$(awk '/;main;sleeper(;|$| )/ { s += $NF } END { print s + 0 }' "$T/folded")
echo "off-CPU under main;sleeper: $ns ns"
[ "$ns" -ge 160000000 ] && [ "$ns" -le 240000000 ] ||
	{ head -20 "$T/folded"; fail "off-CPU time under main;sleeper is $ns ns, expected 200 ms +-20%"; }

"$PRF" report -i "$T/oc.data" --stdio > "$T/report" 2>"$T/err" || { cat "$T/err"; fail "prf report"; }
grep -q "of event 'offcpu-time'" "$T/report" || { head -30 "$T/report"; fail "no offcpu-time in prf report"; }
# the sleeper entry carries (nearly) all off-CPU time of the program
awk "/of event 'offcpu-time'/ { on = 1 } on && / sleeper\$/ { print; exit }" "$T/report" | grep -q '%' ||
	{ sed -n "/offcpu-time/,\$p" "$T/report" | head -30; fail "sleeper missing from the offcpu-time report"; }

# prf flamegraph: both views by default, the off-CPU one in blue; --off-cpu alone
"$PRF" flamegraph -i "$T/oc.data" -o "$T/oc.html" 2>"$T/err" || { cat "$T/err"; fail "prf flamegraph"; }
"$PRF" flamegraph -i "$T/oc.data" -o "$T/oc.svg" --off-cpu 2>"$T/err" || { cat "$T/err"; fail "prf flamegraph --off-cpu"; }
"$PRF" flamegraph -i "$T/oc.data" -o "$T/on.svg" --on-cpu 2>"$T/err" || { cat "$T/err"; fail "prf flamegraph --on-cpu"; }
python3 - "$T" <<'PY' || fail "flamegraph off-CPU view"
import json, re, sys
import xml.etree.ElementTree as ET
T = sys.argv[1]
text = open(T + '/oc.html').read()
if re.search(r'https?://', text):
    sys.exit('html refers to the network')
g = json.loads(text.split('window.PRF_FG=', 1)[1].split('</script>', 1)[0].strip().rstrip(';'))
views = g['views']
if len(views) != 2 or views[0]['offcpu'] or not views[1]['offcpu'] or views[1]['unit'] != 'ns':
    sys.exit('want an on-CPU and an off-CPU (ns) view: %s' % [(v['name'], v['offcpu'], v['unit']) for v in views])
def find(d, a, name):
    if d['names'][a[0]][0] == name:
        yield a
    for k in a[2]:
        yield from find(d, k, name)
off = views[1]
hits = list(find(off, off['tree'], 'sleeper'))
ns = sum(a[1] for a in hits)
if not 160e6 <= ns <= 240e6:
    sys.exit('off-CPU view: sleeper has %d ns, want 200 ms +-20%%' % ns)
for a in hits:
    c = off['names'][a[0]][1]
    r, gr, b = int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
    if not (b > r + 60 and b >= gr):
        sys.exit('off-CPU sleeper frame colored %s, not blue' % c)
if not list(find(views[0], views[0]['tree'], 'work')) and views[0]['tree'][1] < 10:
    sys.exit('on-CPU view is empty')
svg = ET.parse(T + '/oc.svg').getroot()
t = [e.text for e in svg.iter('{http://www.w3.org/2000/svg}title')]
m = [x for x in t if x.startswith('sleeper (')]
if not m:
    sys.exit('--off-cpu svg has no sleeper frame')
ms = float(re.match(r'sleeper \(([0-9.]+) ms', m[0]).group(1))
if not 160 <= ms <= 240:
    sys.exit('--off-cpu svg: sleeper %.3f ms' % ms)
if any(' ms, ' in x for x in
       (e.text for e in ET.parse(T + '/on.svg').getroot().iter('{http://www.w3.org/2000/svg}title'))):
    sys.exit('--on-cpu svg has off-CPU (ms) frames')
print('flamegraph: sleeper %.3f ms off-CPU' % ms)
PY

if [ -x "$PERF" ]; then
	"$PERF" script -i "$T/oc.data" > "$T/perf.out" 2>"$T/perf.err" || { cat "$T/perf.err"; fail "perf cannot read the --off-cpu file"; }
	grep -q 'sched:sched_switch: prev_comm=sl ' "$T/perf.out" || fail "perf sees no sched_switch of the program"
fi
exit 0
