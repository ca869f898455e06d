#!/bin/bash
# prf flamegraph's page under the mouse (headless Chromium, DevTools protocol): a heatmap drag flames phase A only and stays in the address; a lane click narrows to its thread; root frame in view
# prf-test: serial: headless Chromium takes blank screenshots on a loaded machine
# The screenshots (heatmap, timeline, selection) are kept in
# ${SCREENSHOT_DIR:-/tmp/prf-test-output/flamegraph-mouse}.
set -u
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "no $CHROMIUM (Debian package chromium) for the browser check"; exit 2; }
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup fg-mouse
OUT=${SCREENSHOT_DIR:-/tmp/prf-test-output/flamegraph-mouse}
mkdir -p "$OUT" || fail "mkdir $OUT"

# two threads, each spinning in phase_a until 0.5 s after start, then in
# phase_b until 1 s: the first 0.4 s from the first sample are all A.
# phase_a spins 60 calls deep: the graph is taller than the window's room
# below the heatmap and timeline, and its base must still be in view
cc_prog phases -O1 -pthread
perf_record "$T/p.data" -e cpu-clock -c 1000000 -g -- "$T/phases" 0.5 1.0 60
"$PRF" flamegraph -i "$T/p.data" -o "$T/p.html" || fail "flamegraph"

cat > "$T/drive.py" <<'PY'
import os, subprocess, sys
sys.dont_write_bytecode = True
T, OUT, LIB = sys.argv[1:4]
sys.path.insert(0, LIB)
import cdp, png

b = None
def fail(msg):
    print('FAIL: ' + msg)
    if b:
        b.close()
    sys.exit(1)

def loaded(what):
    st = b.js("document.getElementById('prf-status').textContent")
    if st.startswith('prf-error'):
        fail('%s: script error: %s' % (what, st))
    if b.js("document.body.getAttribute('data-prf-rendered')") != '1':
        fail('%s: page did not render' % what)

# the frames drawn (not the dimmed callers of a zoom), "name (weight, share)"
FRAMES = "[...document.querySelectorAll('#chart .f:not(.anc)')].map(d=>d.title).sort()"
def names(frames):
    return set(f.split(' (')[0] for f in frames)

def rect(sel):	# viewport rectangle of an element: left, top, width, height
    return b.js("(r=>[r.left,r.top,r.width,r.height])(document.querySelector(%r).getBoundingClientRect())" % sel)

def shot(name, sel, minimum, blue=False):
    """A screenshot of the element, its saturated (drawn) pixels counted
    (blue: those under the selection's blue overlay; heat colors have
    full red)."""
    x, y, w, h = rect(sel)
    sx, sy = b.js('[scrollX,scrollY]')
    path = '%s/%s.png' % (OUT, name)
    for _ in range(3):	# a blank shot on a loaded machine is taken again
        b.shot(path, (x + sx, y + sy, w, h))
        pw, ph, bpp, _, rows = png.read(path)
        hot = sum(1 for r in rows for i in range(0, len(r), bpp)
                  if max(r[i:i + 3]) - min(r[i:i + 3]) > 60 and (not blue or r[i] < 200))
        if hot >= minimum:
            break
    print('%s: %d colored pixels of %dx%d' % (name, hot, pw, ph))
    if hot < minimum:
        fail('screenshot of %s shows nothing (%s)' % (sel, path))

url = 'file://%s/p.html' % T

# the flame graph opens with its base in view: the root frame's box is
# inside the window, in a window with room for the graph's box below the
# heatmap and timeline (900 pixels) and in one without (500: the page
# scrolls), for the flame graph and the icicle (--inverted)
def root_in_view(what):
    root = b.js("""(()=>{var d=[...document.querySelectorAll('#chart .f')].find(e=>e.prfNode&&!e.prfNode.parent);
      if(!d)return null;var r=d.getBoundingClientRect();return [r.top,r.bottom,innerHeight];})()""")
    if root is None:
        fail('%s: no root frame drawn' % what)
    print('%s: root frame at y %.0f-%.0f of a %d-pixel window' % ((what,) + tuple(root)))
    if root[0] < 0 or root[1] > root[2]:
        fail('%s: the root frame is out of view on load (y %.0f-%.0f, window %d)' % ((what,) + tuple(root)))

r = subprocess.run([os.environ['PRF'], 'flamegraph', '--inverted', '-i', T + '/p.data', '-o', T + '/inv.html'])
if r.returncode:
    fail('prf flamegraph --inverted: exit %d' % r.returncode)
b = cdp.Browser(os.environ.get('CHROMIUM', '/usr/bin/chromium'), T + '/profile-short', 1000, 500)
for page in ('p.html', 'inv.html'):
    b.goto('file://%s/%s' % (T, page))
    loaded(page)
    root_in_view(page + ', 500-pixel window')
b.close()

b = cdp.Browser(os.environ.get('CHROMIUM', '/usr/bin/chromium'), T + '/profile', 1000, 900)
print('page loaded in %.3f s' % b.goto(url))
loaded('p.html')
root_in_view('p.html, 900-pixel window')

whole = b.js(FRAMES)
if not {'phase_a', 'phase_b'} <= names(whole):
    fail('whole recording: phase_a and phase_b not both drawn')
shot('heatmap', '#heatmap', 200)
shot('timeline', '#timeline', 50)

# drag over the heatmap cells of slices 0..19 (the first 0.4 s): a column
# is a second, a row one of perSec slices
b.js("document.getElementById('heatmap').scrollIntoView()")
b.js("document.body.removeAttribute('data-prf-narrow-ms')")
b.drag(cdp.heatmap_cell(b, 0), cdp.heatmap_cell(b, 19))
hash_ = b.js('location.hash')
if 'range=0-19' not in hash_:
    fail('after the drag over slices 0-19 the address is %r' % hash_)
sel = b.js(FRAMES)
if 'phase_a' not in names(sel):
    fail('the first 0.4 s: no phase_a frame')
if 'phase_b' in names(sel):
    fail('the first 0.4 s: phase_b drawn')
# the page times its reaction to this selection (reported, not asserted)
ms = b.js("document.body.getAttribute('data-prf-narrow-ms')")
if ms is None:
    fail('the drag left no data-prf-narrow-ms (the reaction time)')
print('drag selected %s, %s; the graph redrawn in %s ms' % (hash_, b.js("document.getElementById('range-cmd').textContent"), ms))
shot('heatmap-selection', '#heatmap', 100, blue=True)
shot('selection', '#chart', 200)

# the address keeps the selection: a reload draws the same frames
print('reloaded in %.3f s' % b.reload())
loaded('p.html' + hash_)
if b.js('location.hash') != hash_:
    fail('reload: address %r, want %r' % (b.js('location.hash'), hash_))
if b.js(FRAMES) != sel:
    fail('reload with %s draws other frames than the drag did' % hash_)

# the timeline: a lane per thread; a click on the second lane's name
# narrows the graph to that thread (and the command line says so)
lanes = b.js("[...document.querySelectorAll('#timeline .lane')].map(e=>e.getAttribute('data-tid'))")
if len(lanes) != 2:
    fail('timeline: %d lanes, want 2 (two threads)' % len(lanes))
b.js("document.getElementById('timeline').scrollIntoView()")
lx, ly, lw, lh = rect("#timeline .lane:nth-child(2) .lane-name")
b.click(lx + lw / 2, ly + lh / 2)
if b.js("document.querySelector('#timeline .lane:nth-child(2)').className") != 'lane sel':
    fail('the clicked lane is not selected')
if 'tid=%s' % lanes[1] not in b.js('location.hash'):
    fail('after the lane click the address is %r, no tid=%s' % (b.js('location.hash'), lanes[1]))
one = b.js(FRAMES)
if one == sel:
    fail('thread %s alone draws what both threads do' % lanes[1])
cmd = b.js("document.getElementById('range-cmd').textContent").split(' (')[0].split()[2:]
if '--tid' not in cmd:
    fail('#range-cmd without --tid: %s' % cmd)
# the same narrowing from the command line draws the same frames
r = subprocess.run([os.environ['PRF'], 'flamegraph', '-i', T + '/p.data', '-o', T + '/tid.html'] + cmd)
if r.returncode:
    fail('prf flamegraph %s: exit %d' % (' '.join(cmd), r.returncode))
b.goto('file://%s/tid.html' % T)
loaded('tid.html')
if b.js(FRAMES) != one:
    fail('the lane click and prf flamegraph %s draw different frames' % ' '.join(cmd))
print('lane click on thread %s = prf flamegraph %s' % (lanes[1], ' '.join(cmd)))

# a drag along a lane selects a time range as the heatmap does: slices 30
# to the last (0.6 s on) draw phase B only, for all threads
b.goto(url.replace('#', '') + '#')
loaded('p.html#')
b.js("document.getElementById('timeline').scrollIntoView()")
last = b.js('PRF_FG.time.nSlices') - 1
def lane_at(s):
    x, y, w, h = rect('#timeline .lane:nth-child(1) canvas')
    return (x + (s + 0.5) * w / (last + 1), y + h / 2)
b.drag(lane_at(30), lane_at(last))
if 'range=30-%d' % last not in b.js('location.hash'):
    fail('after a drag along a lane over slices 30-%d the address is %r' % (last, b.js('location.hash')))
late = names(b.js(FRAMES))
if 'phase_b' not in late or 'phase_a' in late:
    fail('slices 30-%d (from 0.6 s): phase_a drawn or phase_b not' % last)
if 'tid=' in b.js('location.hash'):
    fail('a drag along a lane narrowed to its thread')
print('lane drag selected %s' % b.js('location.hash'))
b.close()
PY
python3 "$T/drive.py" "$T" "$OUT" "$PRF_SRCDIR/tests/shell/lib" || { tail -5 "$T/profile.log"; fail "browser checks"; }
echo "screenshots in $OUT"
