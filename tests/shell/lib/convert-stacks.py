#!/usr/bin/env python3
"""Shared by the convert-*.sh tests: check an exported profile's structure
and that its per-thread samples and stacks are prf script's.

convert-stacks.py FORMAT FILE SCRIPT_TXT
  FORMAT: speedscope | gecko
  SCRIPT_TXT: prf script -F comm,tid,ip,sym output of the same recording
Exits non-zero with the first difference; prints per-thread counts."""
import json, sys
from collections import defaultdict

fmt, path, script = sys.argv[1:4]


def norm(name):
    # script marks inlined calls "f (inlined)"; an unresolved frame is
    # "[unknown]" there and "[dso]" in the exports
    if name.endswith(' (inlined)'):
        name = name[:-len(' (inlined)')]
    return '[unknown]' if name.startswith('[') else name


def script_stacks():
    per_tid, cur = defaultdict(list), None
    for line in open(script):
        if not line.strip():
            continue
        if not line.startswith('\t'):
            cur = []
            per_tid[int(line.split()[-1])].append(cur)
            continue
        f = line.split(None, 1)
        cur.insert(0, norm(f[1].strip() if len(f) > 1 else '[unknown]'))
    return per_tid


def fail(msg):
    sys.exit('%s: %s' % (fmt, msg))


def speedscope(d):
    for k in ('$schema', 'shared', 'profiles'):
        if k not in d:
            fail('no ' + k)
    frames = d['shared']['frames']
    per_tid = {}
    for p in d['profiles']:
        if p['type'] != 'sampled' or p['unit'] not in ('nanoseconds', 'none'):
            fail('profile %s: type %s unit %s' % (p['name'], p['type'], p['unit']))
        if len(p['samples']) != len(p['weights']):
            fail('profile %s: %d samples, %d weights' % (p['name'], len(p['samples']), len(p['weights'])))
        if p['endValue'] - p['startValue'] != sum(p['weights']):
            fail('profile %s: endValue is not the total weight' % p['name'])
        per_tid[int(p['name'].split()[-1])] = [[norm(frames[i]['name']) for i in s] for s in p['samples']]
    return per_tid


def column_lengths(name, table):
    n = table['length']
    for k, v in table.items():
        if isinstance(v, list) and len(v) != n:
            fail('%s.%s: %d entries, length %d' % (name, k, len(v), n))
    return n


def gecko(d):
    meta = d['meta']
    if meta.get('preprocessedProfileVersion') != 56 or not isinstance(meta.get('version'), int):
        fail('meta versions')
    cats = meta['categories']
    if not any(c['color'] == 'grey' for c in cats) or any(not c['subcategories'] for c in cats):
        fail('categories need a grey default and subcategories')
    strings = d['shared']['stringArray']
    per_tid = {}
    for t in d['threads']:
        for k in ('samples', 'stackTable', 'frameTable', 'funcTable', 'resourceTable', 'nativeSymbols', 'markers'):
            column_lengths(k, t[k])
        if not isinstance(t['pid'], str) or not isinstance(t['tid'], int):
            fail('pid must be a string, tid a number')
        st, fr, fn, rs = t['stackTable'], t['frameTable'], t['funcTable'], t['resourceTable']
        for i, (f, p) in enumerate(zip(st['frame'], st['prefix'])):
            if not 0 <= f < fr['length'] or not (p is None or 0 <= p < i):
                fail('stack %d: frame %s prefix %s' % (i, f, p))
        for i in range(fr['length']):
            if not 0 <= fr['func'][i] < fn['length'] or not 0 <= fr['category'][i] < len(cats):
                fail('frame %d: func or category out of range' % i)
        for i in range(fn['length']):
            if not 0 <= fn['name'][i] < len(strings) or not -1 <= fn['resource'][i] < rs['length']:
                fail('func %d: name or resource out of range' % i)
        for i in range(rs['length']):
            if not 0 <= rs['lib'][i] < len(d['libs']):
                fail('resource %d: lib out of range' % i)
        times = t['samples']['time']
        if times != sorted(times):
            fail('thread %s: sample times not in order' % t['tid'])
        stacks = []
        for s in t['samples']['stack']:
            names = []
            while s is not None:
                names.insert(0, norm(strings[fn['name'][fr['func'][st['frame'][s]]]]))
                s = st['prefix'][s]
            stacks.append(names)
        per_tid[t['tid']] = stacks
    return per_tid


got = {'speedscope': speedscope, 'gecko': gecko}[fmt](json.load(open(path)))
want = script_stacks()
if sorted(got) != sorted(want):
    fail('threads %s, prf script has %s' % (sorted(got), sorted(want)))
for tid in sorted(want):
    if len(got[tid]) != len(want[tid]):
        fail('tid %d: %d samples, prf script %d' % (tid, len(got[tid]), len(want[tid])))
    for i, (g, w) in enumerate(zip(got[tid], want[tid])):
        if g != w:
            fail('tid %d sample %d:\n  %s\n  prf script: %s' % (tid, i, ';'.join(g), ';'.join(w)))
print('ok: %s: %d threads (%s samples), stacks as prf script' %
      (fmt, len(want), ' '.join(str(len(want[t])) for t in sorted(want))))
