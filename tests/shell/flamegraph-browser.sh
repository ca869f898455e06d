#!/bin/bash
# prf flamegraph HTML renders in headless Chromium without script errors; the chart is as tall as the frames it draws; screenshot shows the graph
# prf-test: serial: headless Chromium takes blank screenshots on a loaded machine
set -u
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "no $CHROMIUM (Debian package chromium) for the browser check"; exit 2; }
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup fg-browser

cc_prog tree	# main -> a -> b -> leaf (lib/tree.c)
# user frames only: a sample taken deep in the kernel would make the graph
# taller than the 500-pixel window and push its wide base out of the shot
perf_record "$T/a.data" -F 999 -g --all-user -- "$T/tree" 100000
"$PRF" flamegraph -i "$T/a.data" -o "$T/a.html" || fail "flamegraph"
"$PRF" flamegraph --diff "$T/a.data" "$T/a.data" -o "$T/d.html" --inverted || fail "flamegraph --diff"

chrome() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/profile" --window-size="${WIN:-1000,500}" "$@" 2>>"$T/chrome.log"
}
for f in a d; do
	chrome --dump-dom "file://$T/$f.html" > "$T/$f.dom" || { tail -5 "$T/chrome.log"; fail "chromium failed on $f.html"; }
	grep -q 'id="prf-status">prf-error' "$T/$f.dom" &&
		fail "$f.html: script error: $(grep -o 'id="prf-status">prf-error[^<]*' "$T/$f.dom")"
	grep -q 'data-prf-rendered="1"' "$T/$f.dom" || fail "$f.html: page did not render"
	n=$(sed -n 's/.*id="prf-status">rendered \([0-9]*\) frames.*/\1/p' "$T/$f.dom")
	[ "${n:-0}" -ge 7 ] || fail "$f.html: rendered ${n:-no} frames"
	grep -q '>leaf<' "$T/$f.dom" || fail "$f.html: no leaf box"
done

# search and zoom through the address (#search=REGEX&zoom=NAME): the
# matched share is leaf's share of all samples; zoomed into main, its
# three callers (all, tree, __libc_start_call_main) stay as dimmed boxes
"$PRF" script -i "$T/a.data" --folded > "$T/a.folded" || fail "folded"
want=$(awk '{ t += $NF } $1 ~ /;leaf(;|$)/ { l += $NF } END { printf "%.2f%%", 100 * l / t }' "$T/a.folded")
chrome --dump-dom "file://$T/a.html#search=%5Eleaf%24&zoom=main" > "$T/s.dom" || fail "chromium (search)"
got=$(sed -n 's/.*id="matched">Matched: \([0-9.]*%\).*/\1/p' "$T/s.dom")
[ "$got" = "$want" ] || fail "search ^leaf\$: page says ${got:-nothing}, folded stacks give $want"
n=$(grep -o 'class="f anc"' "$T/s.dom" | wc -l)
[ "$n" = 3 ] || fail "zoomed into main: $n dimmed caller boxes, want 3 (all, tree, __libc_start_call_main)"
grep -q '>main</div>' "$T/s.dom" || fail "zoomed into main: no main box"

# the chart is as tall as the frames it draws: a 100-frame stack that took
# a few samples of 20000 is under 0.4 pixel wide at the root and adds no
# rows; zoomed into it, it is drawn and the chart grows
cat > "$T/rare.c" <<'C'
#include <time.h>
volatile unsigned long sink;
static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
__attribute__((noinline)) void spin(double s) { double t = cpu_s() + s; do for (int i = 0; i < 4096; i++) sink++; while (cpu_s() < t); }
__attribute__((noinline)) int deep(int n) { if (n) return deep(n - 1) + 1; spin(0.0003); return 0; }
int main(void) { deep(100); spin(2.0); return 0; }
C
cc -O0 -fno-omit-frame-pointer -o "$T/rare" "$T/rare.c" || fail "cc rare.c"
rows() { sed -n 's/.*id="chart" style="height: \([0-9]*\)px;.*/\1/p' "$1" | awk '{ print int($1 / 17) }'; }
for try in 1 2 3; do	# 3 samples expected in deep(); none is rare, retried
	# 100 us of CPU time a sample (10 kHz): a fixed period, not subject
	# to perf_event_max_sample_rate's check on -F
	perf_record "$T/rare.data" -e cpu-clock -c 100000 -g --all-user -- "$T/rare"
	"$PRF" script -i "$T/rare.data" --folded > "$T/rare.folded" || fail "folded (rare)"
	grep -q ';deep;deep;deep' "$T/rare.folded" && break
done
read -r nall ndeep < <(awk '{ t += $NF } /;deep;deep;deep/ { d += $NF } END { print t, d + 0 }' "$T/rare.folded")
if [ "$ndeep" -gt 0 ] && [ $((980 * ndeep * 10 / nall)) -lt 4 ]; then
	"$PRF" flamegraph -i "$T/rare.data" -o "$T/rare.html" || fail "flamegraph (rare)"
	chrome --dump-dom "file://$T/rare.html" > "$T/rare.dom" || fail "chromium (rare)"
	chrome --dump-dom "file://$T/rare.html#zoom=deep" > "$T/rare-z.dom" || fail "chromium (rare, zoomed)"
	r=$(rows "$T/rare.dom") z=$(rows "$T/rare-z.dom")
	[ "${r:-999}" -lt 20 ] || fail "$ndeep of $nall samples 100 frames deep (not drawn) made the chart ${r:-?} rows tall"
	[ "${z:-0}" -gt 100 ] || fail "zoomed into deep: chart ${z:-?} rows, want the 100-frame stack drawn"
else
	echo "note: no chart height check ($ndeep of $nall samples in deep())"
fi

# an off-CPU recording: on-CPU and off-CPU views on one page; #view=1 shows
# the off-CPU one alone
if "$PRF" record -q --off-cpu -o "$T/oc.data" -- sh -c 'sleep 0.1; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	>/dev/null 2>"$T/oc.err"; then
	"$PRF" flamegraph -i "$T/oc.data" -o "$T/oc.html" || fail "flamegraph of the off-CPU recording"
	grep -q '"offcpu":true' "$T/oc.html" || fail "oc.html: no off-CPU view"
	chrome --dump-dom "file://$T/oc.html" > "$T/oc.dom" || fail "chromium (off-CPU page)"
	grep -q 'id="prf-status">prf-error' "$T/oc.dom" && fail "oc.html: script error"
	grep -q 'data-prf-rendered="1"' "$T/oc.dom" || fail "oc.html: page did not render"
	[ "$(grep -o 'class="f' "$T/oc.dom" | wc -l)" -ge 4 ] || fail "oc.html: too few boxes"
	chrome --dump-dom "file://$T/oc.html#view=1" > "$T/oc1.dom" || fail "chromium (#view=1)"
	grep -q 'id="fg-view" style="display: none;"' "$T/oc1.dom" || fail "#view=1: the on-CPU view is still shown"
	grep -q 'id="fg-view-1" style="display: none;"' "$T/oc1.dom" && fail "#view=1: the off-CPU view is hidden"
else
	echo "note: no off-CPU page check (prf record --off-cpu: $(tail -1 "$T/oc.err"))"
fi

# decode the PNG (8-bit RGB/RGBA, non-interlaced) and count flame-colored pixels
cat > "$T/count.py" <<'PY'
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[2])
import png
w, h, bpp, _, rows = png.read(sys.argv[1])
hot = 0
for line in rows:
    for x in range(0, w * bpp, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        if r > 180 and bl < 140 and r - bl > 80:
            hot += 1
print('%d flame-colored pixels of %dx%d' % (hot, w, h))
sys.exit(0 if hot > 10000 else 1)
PY
# the window is as tall as the page: a sample whose frame-pointer chain
# ran through garbage (ld.so at start, no frame pointers) can be dozens of
# frames deep and wide enough to draw, and then the graph's wide base sits
# below a 500-pixel window (a CI run took three blank shots of it)
h=$(( $(rows "$T/a.dom") * 17 + 300 ))
[ "$h" -ge 500 ] || h=500
# headless Chromium on a loaded machine has taken a blank screenshot of a
# page whose DOM was rendered (once in a full suite run beside other
# work): up to three shots, with more virtual time each, before failing
for budget in 3000 6000 12000; do
	rm -f "$T/shot.png"
	WIN=1000,$h chrome --virtual-time-budget=$budget --screenshot="$T/shot.png" "file://$T/a.html" >/dev/null ||
		fail "screenshot"
	[ -s "$T/shot.png" ] || fail "no screenshot"
	python3 "$T/count.py" "$T/shot.png" "$PRF_SRCDIR/tests/shell/lib" && exit 0
done
fail "screenshot shows no graph (three tries)"
