#!/bin/bash
# prf flamegraph's heatmap and thread timeline in headless Chromium: the first second's cells flame phase A only, two lanes for two threads, --time/--tid give the selection's frame weights; screenshots have pixels
# prf-test: serial: headless Chromium takes blank screenshots on a loaded machine
# The screenshots (heatmap, timeline, selection) are kept in
# ${SCREENSHOT_DIR:-/tmp/prf-test-output/flamegraph-time}.
set -u
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "no $CHROMIUM (Debian package chromium) for the browser check"; exit 2; }
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup fg-time
OUT=${SCREENSHOT_DIR:-/tmp/prf-test-output/flamegraph-time}
mkdir -p "$OUT" || fail "mkdir $OUT"

# two threads, each spinning in phase_a until 1.2 s after start, then in
# phase_b until 2 s: the first second from the first sample is all A
cc_prog phases -O1 -pthread
perf_record "$T/p.data" -e cpu-clock -c 2000000 -g -- "$T/phases" 1.2 2.0
"$PRF" flamegraph -i "$T/p.data" -o "$T/p.html" || fail "flamegraph"
grep -q 'id="heatmap"' "$T/p.html" || fail "no #heatmap element"
grep -q 'id="timeline"' "$T/p.html" || fail "no #timeline element"

chrome() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/profile" --window-size=1000,900 "$@" 2>>"$T/chrome.log"
}
dom() {	# dom OUT URL: the rendered DOM, fail() on a script error
	chrome --dump-dom "$2" > "$1" || { tail -5 "$T/chrome.log"; fail "chromium failed on $2"; }
	grep -q 'id="prf-status">prf-error' "$1" &&
		fail "$2: script error: $(grep -o 'id="prf-status">prf-error[^<]*' "$1")"
	grep -q 'data-prf-rendered="1"' "$1" || fail "$2: page did not render"
}
# the frames drawn, one "name (weight, share)" a line, sorted
frames() { grep -o 'class="f[^"]*"[^>]*title="[^"]*"' "$1" | sed 's/.*title="//; s/"$//' | sort; }

dom "$T/all.dom" "file://$T/p.html"
grep -q 'title="phase_a (' "$T/all.dom" || fail "whole recording: no phase_a frame"
grep -q 'title="phase_b (' "$T/all.dom" || fail "whole recording: no phase_b frame"
n=$(grep -o 'class="lane[ "]' "$T/all.dom" | wc -l)
[ "$n" = 2 ] || fail "timeline: $n lanes, want 2 (two threads)"
read -r tid1 tid2 < <(grep -o 'class="lane[^>]*data-tid="[0-9]*"' "$T/all.dom" | sed 's/.*data-tid="//; s/"//' | tr '\n' ' ')

# cells 0-49: the first second (50 slices of 20 ms)
dom "$T/sel.dom" "file://$T/p.html#range=0-49"
grep -q 'title="phase_a (' "$T/sel.dom" || fail "first second: no phase_a frame"
grep -q 'title="phase_b (' "$T/sel.dom" && fail "first second: phase_b shown"
cmd=$(sed -n 's/.*id="range-cmd">prf flamegraph \(--time [0-9.]*,[0-9.]*\).*/\1/p' "$T/sel.dom")
[ -n "$cmd" ] || fail "no --time in #range-cmd"
echo "selection of cells 0-49 is $cmd; reacted in $(sed -n 's/.*data-prf-narrow-ms="\([0-9.]*\)".*/\1/p' "$T/sel.dom") ms"
# the same range from the command line: the same frames with the same weights
# shares
"$PRF" flamegraph -i "$T/p.data" $cmd -o "$T/t.html" || fail "flamegraph $cmd"
grep -q '"phase_b"' "$T/t.html" && fail "$cmd: phase_b in the graph"
dom "$T/t.dom" "file://$T/t.html"
frames "$T/sel.dom" > "$T/sel.frames"
frames "$T/t.dom" > "$T/t.frames"
[ -s "$T/sel.frames" ] || fail "no frames drawn for the selection"
diff "$T/sel.frames" "$T/t.frames" > "$T/frames.diff" ||
	fail "browser selection and $cmd differ: $(head -5 "$T/frames.diff")"

# a thread and a range: #range&tid in the page, --time --tid on the command line
dom "$T/tid.dom" "file://$T/p.html#range=0-49&tid=$tid2"
grep -q "id=\"range-cmd\">prf flamegraph $cmd --tid $tid2" "$T/tid.dom" || fail "#range-cmd does not give --tid $tid2"
"$PRF" flamegraph -i "$T/p.data" $cmd --tid "$tid2" -o "$T/tt.html" || fail "flamegraph $cmd --tid"
dom "$T/tt.dom" "file://$T/tt.html"
frames "$T/tid.dom" > "$T/tid.frames"
frames "$T/tt.dom" > "$T/tt.frames"
grep -q '^phase_a (' "$T/tid.frames" || fail "thread $tid2: no phase_a"
cmp -s "$T/tid.frames" "$T/sel.frames" && fail "thread $tid2 alone draws what both threads do"
diff "$T/tid.frames" "$T/tt.frames" > "$T/frames.diff" ||
	fail "browser thread $tid2 and $cmd --tid $tid2 differ: $(head -5 "$T/frames.diff")"
grep -q "data-tid=\"$tid1\"" "$T/tt.dom" && fail "--tid $tid2: a lane for thread $tid1"

# a process: #pid in the page, --pid on the command line (both threads)
pid=$(sed -n 's/.*class="lane-name" title="pid \([0-9]*\),.*/\1/p' "$T/all.dom" | head -1)
dom "$T/pid.dom" "file://$T/p.html#range=0-49&pid=$pid"
grep -q "id=\"range-cmd\">prf flamegraph $cmd --pid $pid" "$T/pid.dom" || fail "#range-cmd does not give --pid $pid"
frames "$T/pid.dom" > "$T/pid.frames"
diff "$T/pid.frames" "$T/sel.frames" > "$T/frames.diff" ||
	fail "process $pid (both threads) draws other frames than all threads: $(head -5 "$T/frames.diff")"

# perf's percent slices: the first quarter is all A, the second half has B
"$PRF" flamegraph -i "$T/p.data" --time 0%-25% -o "$T/pc.html" || fail "--time 0%-25%"
grep -q '"phase_a"' "$T/pc.html" || fail "--time 0%-25%: no phase_a"
grep -q '"phase_b"' "$T/pc.html" && fail "--time 0%-25%: phase_b"
"$PRF" flamegraph -i "$T/p.data" --time 50%/2 -o "$T/pc.html" || fail "--time 50%/2"
grep -q '"phase_b"' "$T/pc.html" || fail "--time 50%/2: no phase_b"
"$PRF" flamegraph -i "$T/p.data" --time 10%/1,10%/10 -o "$T/pc.html" || fail "--time 10%/1,10%/10"
grep -q '"phase_a"' "$T/pc.html" && grep -q '"phase_b"' "$T/pc.html" || fail "--time 10%/1,10%/10: not both phases"
# absolute ranges separated by a space: the first 0.3 s and from 1.6 s on
r=$(echo "${cmd#--time }" | awk -F, '{ printf "%.6f,%.6f %.6f,", $1, $1 + 0.3, $1 + 1.6 }')
"$PRF" flamegraph -i "$T/p.data" --time "$r" -o "$T/pc.html" || fail "--time '$r'"
grep -q '"phase_a"' "$T/pc.html" && grep -q '"phase_b"' "$T/pc.html" || fail "--time '$r': not both phases"
"$PRF" flamegraph -i "$T/p.data" --time "${r% *}" -o "$T/pc.html" || fail "--time '${r% *}'"
grep -q '"phase_b"' "$T/pc.html" && fail "--time '${r% *}': phase_b"
"$PRF" flamegraph -i "$T/p.data" --time 1,2,3 -o "$T/bad.html" 2>"$T/bad.err"
[ $? = 129 ] || fail "--time 1,2,3: exit status not 129 (usage)"
grep -q "invalid time '1,2,3'" "$T/bad.err" || fail "--time 1,2,3: $(cat "$T/bad.err")"

# screenshots of the selected page, cut to the heatmap, timeline and chart
# rectangles the page reports (body[data-prf-layout]); each must draw
cat > "$T/crop.py" <<'PY'
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[4])
import png
w, h, bpp, ctype, rows = png.read(sys.argv[1])
bad = 0
for item in sys.argv[2].split(';'):
    name, rect = item.split(':')
    x, y, cw, ch = [int(v) for v in rect.split(',')]
    x1, y1 = min(w, x + cw), min(h, y + ch)
    crop = [rows[yy][x * bpp:x1 * bpp] for yy in range(y, y1)]
    png.write('%s/%s.png' % (sys.argv[3], name), x1 - x, y1 - y, ctype, crop)
    # colored pixels: saturated (heat cells, lanes, frames), not page greys
    hot = sum(1 for r in crop for i in range(0, len(r), bpp)
              if max(r[i:i + 3]) - min(r[i:i + 3]) > 60)
    print('%s: %d colored pixels of %dx%d' % (name, hot, x1 - x, y1 - y))
    bad += hot < (50 if name == 'timeline' else 200)
sys.exit(1 if bad else 0)
PY
layout=$(sed -n 's/.*data-prf-layout="\([^"]*\)".*/\1/p' "$T/sel.dom")
[ -n "$layout" ] || fail "no data-prf-layout"
# headless Chromium on a loaded machine has taken blank screenshots of
# rendered pages: up to three shots, with more virtual time each
for budget in 3000 6000 12000; do
	rm -f "$T/shot.png"
	chrome --virtual-time-budget=$budget --screenshot="$T/shot.png" "file://$T/p.html#range=0-49" >/dev/null ||
		fail "screenshot"
	[ -s "$T/shot.png" ] || fail "no screenshot"
	cp "$T/shot.png" "$OUT/page.png"
	if python3 "$T/crop.py" "$T/shot.png" "$layout" "$OUT" "$PRF_SRCDIR/tests/shell/lib"; then
		mv "$OUT/chart.png" "$OUT/selection.png"
		echo "screenshots in $OUT"
		exit 0
	fi
done
fail "screenshots of the heatmap, timeline or selection show nothing (three tries; see $OUT)"
