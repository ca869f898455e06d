#!/bin/bash
# prf flamegraph: HTML and SVG files parse, hold the known call tree with its sample counts; diff colors
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup flamegraph

cat > "$T/tree.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(void) { for (int i = 0; i < 2000; i++) sink += i * i; }
__attribute__((noinline)) void b(void) { leaf(); }
__attribute__((noinline)) void a(void) { b(); }
__attribute__((noinline)) void c2(void) { for (int i = 0; i < 6000; i++) sink += i; }
int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int with_c2 = argc > 2;
	for (long i = 0; i < n; i++) { a(); if (with_c2) c2(); }
	return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o "$T/tree" "$T/tree.c" || fail "cc"
"$PERF" record -q -F 999 -g -o "$T/a.data" -- "$T/tree" 120000 >/dev/null 2>&1 ||
	{ echo "perf record failed (perf_event_paranoid?)"; exit 2; }
"$PERF" record -q -F 999 -g -o "$T/b.data" -- "$T/tree" 60000 c2 >/dev/null 2>&1 || fail "record b"

"$PRF" flamegraph -i "$T/a.data" -o "$T/a.html" --title 'Tree <test>' || fail "html"
"$PRF" flamegraph -i "$T/a.data" -o "$T/a.svg" || fail "svg"
"$PRF" flamegraph -i "$T/a.data" -o "$T/inv.html" --inverted --minwidth 5 || fail "inverted"
"$PRF" flamegraph --diff "$T/a.data" "$T/b.data" -o "$T/diff.html" || fail "diff html"
"$PRF" flamegraph --diff "$T/a.data" "$T/b.data" -o "$T/diff.svg" || fail "diff svg"
"$PRF" script -i "$T/a.data" --folded > "$T/a.folded" || fail "folded a"
"$PRF" script -i "$T/b.data" --folded > "$T/b.folded" || fail "folded b"
"$PRF" flamegraph -i "$T/a.data" -o "$T/a2.html" --title 'Tree <test>' || fail "html again"
cmp -s "$T/a.html" "$T/a2.html" || fail "two runs give different files (colors not stable?)"

cat > "$T/check.py" <<'PY'
import html.parser, json, re, sys
import xml.etree.ElementTree as ET
T = sys.argv[1]

def folded(path):
    d = {}
    for line in open(path):
        k, v = line.rsplit(' ', 1)
        d[k] = int(v)
    return d

def total(fold, prefix):
    return sum(v for k, v in fold.items() if k == prefix or k.startswith(prefix + ';'))

class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts, self.cur, self.title, self.intitle = [], None, '', False
    def handle_starttag(self, tag, attrs):
        if tag == 'script':
            self.cur = ''
            if dict(attrs).get('src'):
                sys.exit('external script')
        if tag in ('link', 'img', 'iframe'):
            sys.exit('external resource <%s>' % tag)
        self.intitle = tag == 'title'
    def handle_endtag(self, tag):
        if tag == 'script':
            self.scripts.append(self.cur)
            self.cur = None
        self.intitle = False
    def handle_data(self, data):
        if self.cur is not None:
            self.cur += data
        if self.intitle:
            self.title += data

def load_html(path):
    text = open(path, encoding='utf-8').read()
    if re.search(r'https?://', text):
        sys.exit('%s refers to the network' % path)
    p = P()
    p.feed(text)
    p.close()
    data = [s for s in p.scripts if 'window.PRF_FG=' in s]
    if not data:
        sys.exit('%s: no data script' % path)
    s = data[0].split('window.PRF_FG=', 1)[1].strip().rstrip(';')
    g = json.loads(s)
    if len(g['views']) != 1:
        sys.exit('%s: %d views, want 1 (no off-CPU data)' % (path, len(g['views'])))
    d = g['views'][0]
    d['inverted'], d['diff'] = g['inverted'], g['diff']
    return p, d

def tree(d, a, depth=0):
    n = {'name': d['names'][a[0]][0], 'color': d['names'][a[0]][1], 'v': a[1], 'kids': []}
    if len(a) > 3:
        n['base'], n['color'] = a[3], a[4]
    n['kids'] = [tree(d, k) for k in a[2]]
    return n

def find(n, path):
    for name in path:
        m = [k for k in n['kids'] if k['name'] == name]
        if len(m) != 1:
            return None
        n = m[0]
    return n

def walk(n):
    yield n
    for k in n['kids']:
        yield from walk(k)

fa = folded(T + '/a.folded')
chain = ['tree', '__libc_start_call_main', 'main', 'a', 'b', 'leaf']

# HTML: every frame of the known tree with its sample count
p, d = load_html(T + '/a.html')
if p.title != 'Tree <test>':
    sys.exit('title %r' % p.title)
root = tree(d, d['tree'])
if root['v'] != sum(fa.values()):
    sys.exit('root %d != %d samples' % (root['v'], sum(fa.values())))
for i in range(1, len(chain) + 1):
    n = find(root, chain[:i])
    want = total(fa, ';'.join(chain[:i]))
    if n is None:
        sys.exit('html: no frame %s' % ';'.join(chain[:i]))
    if n['v'] != want:
        sys.exit('html: %s has %d samples, folded says %d' % (chain[i - 1], n['v'], want))
if fa.get(';'.join(chain), 0) < 20:
    sys.exit('too few leaf samples')
kinds = {n['name']: n['color'] for n in walk(root)}
if kinds['main'] == kinds['__libc_start_call_main']:
    print('note: program and library frames share a color')

# SVG: parses, same frames and counts in the tooltips
svg = ET.parse(T + '/a.svg').getroot()
ns = {'s': 'http://www.w3.org/2000/svg'}
titles = [g.find('s:title', ns).text for g in svg.iter('{http://www.w3.org/2000/svg}g')]
for name in chain:
    want = total(fa, ';'.join(chain[:chain.index(name) + 1]))
    if not any(t.startswith('%s (%d samples, ' % (name, want)) for t in titles):
        sys.exit('svg: no "%s (%d samples" frame' % (name, want))

# inverted + minwidth: flag set, nothing narrower than 5%
p, d = load_html(T + '/inv.html')
if d['inverted'] is not True:
    sys.exit('inverted flag not set')
r = tree(d, d['tree'])
small = [n['name'] for n in walk(r) if n['v'] * 100 < 5 * r['v']]
if small:
    sys.exit('minwidth 5: kept %s' % small[:5])

# diff: widths are B's, colors by change of share (c2 new: red; leaf shrank: blue)
fb = folded(T + '/b.folded')
p, d = load_html(T + '/diff.html')
if d['diff'] is not True:
    sys.exit('diff flag not set')
r = tree(d, d['tree'])
if r['v'] != sum(fb.values()) or r['base'] != sum(fa.values()):
    sys.exit('diff totals %d/%d' % (r['v'], r['base']))
c2 = find(r, ['tree', '__libc_start_call_main', 'main', 'c2'])
leaf = find(r, chain)
if not c2 or not leaf:
    sys.exit('diff: frames missing')
def rgb(c):
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
cr, cg, cb = rgb(c2['color'])
lr, lg, lb = rgb(leaf['color'])
if not (cr == 255 and cg < 200 and cb < 200):
    sys.exit('c2 grew but is colored %s' % c2['color'])
if not (lb == 255 and lr < 230):
    sys.exit('leaf shrank but is colored %s' % leaf['color'])
ET.parse(T + '/diff.svg')
print('ok')
PY
python3 "$T/check.py" "$T" || fail "file checks"

# errors
"$PRF" flamegraph -i "$T/a.data" >/dev/null 2>&1; [ $? -eq 129 ] || fail "no -o not a usage error"
"$PRF" flamegraph -i "$T/a.data" -o "$T/x.html" -e no-such-event >/dev/null 2>&1 && fail "unknown event succeeded"
"$PRF" flamegraph --diff "$T/a.data" -o "$T/x.html" >/dev/null 2>&1; [ $? -eq 129 ] || fail "--diff with one file"
exit 0
