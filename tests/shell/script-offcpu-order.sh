#!/bin/bash
# prf script on a prf record --off-cpu file: offcpu-time samples at their switch-out time, all output in time order
# prf-test: serial: times a 200 ms off-CPU span and needs the spinner on a CPU during it
# main() starts a thread that spins for ~400 ms, then sleeps 200 ms in
# sleeper() (lib/sleeper.h). The 200 ms span is known only when main comes
# back (switch-in), after the spinner's cpu-clock samples taken meanwhile;
# prf script must still print the offcpu-time sample at its switch-out
# time, before those samples: times never decrease, and at least 10
# samples of the spinner with times inside the span follow the offcpu-time
# line.
set -u
. "$PRF_SRCDIR/tests/shell/lib/offcpu.sh"
offcpu_setup script-offcpu

cat > "$T/two.c" <<'C'
#include <pthread.h>
#include <time.h>
#include "sleeper.h"
volatile unsigned long sink;
static volatile int stop;

static void *spinner(void *arg)
{
	struct timespec t0, t;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			sink += i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 400000000L);
	return 0;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, 0, spinner, 0);
	for (unsigned long i = 0; i < 5000000; i++)
		sink += i;
	sleeper();
	pthread_join(t, 0);
	return 0;
}
C
cc_sleeper two -pthread
"$PRF" record -q --off-cpu -o "$T/oc.data" -- "$T/two" 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record --off-cpu"; }
"$PRF" script -i "$T/oc.data" --ns > "$T/script" 2>"$T/err" || { cat "$T/err"; fail "prf script"; }

python3 - "$T/script" <<'PY' || fail "prf script output order"
import re, sys
rows = []	# (tid, time ns, event, period, next line)
lines = open(sys.argv[1]).read().split('\n')
hdr = re.compile(r'^\s*(\S.*?)\s+(\d+)\s+(?:\[\d+\]\s+)?(\d+)\.(\d{9}):\s+(?:(\d+)\s+)?(\S+):')
for i, line in enumerate(lines):
    if not line or line[0] == '\t':
        continue
    m = hdr.match(line)
    if not m:
        continue
    comm, tid, s, ns, period, ev = m.groups()
    rows.append((int(tid), int(s) * 10**9 + int(ns), ev, int(period or 0), lines[i + 1] if i + 1 < len(lines) else ''))
if len(rows) < 20:
    sys.exit('only %d sample lines' % len(rows))
for a, b in zip(rows, rows[1:]):
    if b[1] < a[1]:
        sys.exit('not in time order: %d after %d' % (b[1], a[1]))
off = [r for r in rows if r[2] == 'offcpu-time' and 150e6 <= r[3] <= 260e6]
if not off:
    sys.exit('no ~200 ms offcpu-time sample: %s' % [(r[2], r[3]) for r in rows if r[2] == 'offcpu-time'])
tid, start, _, period, _ = off[0]
idx = rows.index(off[0])
inside = [r for r in rows[idx + 1:] if r[0] != tid and start < r[1] < start + period and r[2] != 'offcpu-time']
before = [r for r in rows[:idx] if r[0] != tid and start < r[1] < start + period]
print('offcpu-time %.1f ms; %d samples of other threads inside the span follow it, %d precede it' %
      (period / 1e6, len(inside), len(before)))
if before:
    sys.exit('samples taken during the span were printed before the offcpu-time sample')
if len(inside) < 10:
    sys.exit('only %d spinner samples inside the span' % len(inside))
PY
exit 0
