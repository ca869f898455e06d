#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the kernel's PMU event/metric JSON files into prf's C tables.

Usage: pmu-events-gen.py ARCH ARCH_ROOT OUT.c

ARCH_ROOT is a copy of the kernel tree's tools/perf/pmu-events/arch/;
ARCH its subdirectory for the machine prf is built for (x86, arm64,
powerpc, s390). The output defines the tables declared in
util/kernel/pmu-events.h: every model directory's events and metrics
(one record each, text fields as offsets into one string pool, so the
tables need no relocations) and the rows of ARCH/mapfile.csv mapping a
CPU identifier regex to a model.

What the text fields hold, as perf 6.1 shows them (read from the JSON
files' documented fields; see Documentation/prf-list.txt):
- a description loses one trailing ".  ", ". " or "." (in that order);
  "Data_LA", "Errata" and "PEBS" add their notes; an event of a named
  Unit gets ". Unit: PMU " after it;
- EventName is lower-cased; Unit is mapped to the kernel PMU name;
- "ArchStdEvent" fills the fields an event leaves out from the event of
  that name in ARCH's top-level JSON files;
- the event encoding is "event=0x..,umask=0x.." style terms;
- records are ordered on (has a description, topic, name, pmu, metric
  name), the order perf iterates them in.
"""
import csv
import json
import os
import sys

FIELDS = ['name', 'pmu', 'topic', 'desc', 'long_desc', 'event', 'metric_name',
          'metric_group', 'metric_expr', 'metric_constraint', 'unit', 'compat',
          'perpkg', 'deprecated', 'aggr_mode']

UNIT_PMU = {
    'CBO': 'uncore_cbox', 'QPI LL': 'uncore_qpi', 'SBO': 'uncore_sbox',
    'iMPH-U': 'uncore_arb', 'CPU-M-CF': 'cpum_cf', 'CPU-M-SF': 'cpum_sf',
    'PAI-CRYPTO': 'pai_crypto', 'UPI LL': 'uncore_upi',
    'hisi_sicl,cpa': 'hisi_sicl,cpa', 'hisi_sccl,ddrc': 'hisi_sccl,ddrc',
    'hisi_sccl,hha': 'hisi_sccl,hha', 'hisi_sccl,l3c': 'hisi_sccl,l3c',
    'imx8_ddr': 'imx8_ddr', 'L3PMC': 'amd_l3', 'DFPMC': 'amd_df',
    'cpu_core': 'cpu_core', 'cpu_atom': 'cpu_atom',
}
MSR_TERM = {0x3F6: 'ldlat=', 0x1A6: 'offcore_rsp=', 0x1A7: 'offcore_rsp=', 0x3F7: 'frontend='}
# events perf encodes by name rather than from their JSON fields
FIXED_EVENTS = {
    'inst_retired.any': 'event=0xc0,period=2000003',
    'inst_retired.any_p': 'event=0xc0,period=2000003',
    'cpu_clk_unhalted.ref': 'event=0x0,umask=0x03,period=2000003',
    'cpu_clk_unhalted.thread': 'event=0x3c,period=2000003',
    'cpu_clk_unhalted.core': 'event=0x3c,period=2000003',
    'cpu_clk_unhalted.thread_any': 'event=0x3c,any=1,period=2000003',
}
TERMS = [('AnyThread', 'any='), ('PortMask', 'ch_mask='), ('CounterMask', 'cmask='),
         ('EdgeDetect', 'edge='), ('FCMask', 'fc_mask='), ('Invert', 'inv='),
         ('SampleAfterValue', 'period='), ('UMask', 'umask=')]


def strip_suffix(s, suf):
    return s[:-len(suf)] if s.endswith(suf) else s


def tidy_desc(s):
    if s is None:
        return None
    for suf in ('.  ', '. ', '.'):
        s = strip_suffix(s, suf)
    return s


def hexnum(v):
    return '0' if v == 0 else hex(v)


def make_event(jd, topic, std):
    """One JSON object -> dict of FIELDS (None where absent)."""
    e = dict.fromkeys(FIELDS)
    code = 0
    if 'EventCode' in jd:
        code = int(jd['EventCode'].split(',', 1)[0], 0)
    if 'ExtSel' in jd:
        code |= int(jd['ExtSel']) << 8
    e['name'] = jd['EventName'].lower() if 'EventName' in jd else None
    e['topic'] = topic
    e['compat'] = jd.get('Compat')
    e['desc'] = tidy_desc(jd.get('BriefDescription'))
    e['long_desc'] = tidy_desc(jd.get('PublicDescription'))
    notes = ''
    if 'Data_LA' in jd:
        notes += '  Supports address when precise'
        if 'Errata' in jd:
            notes += '.'
    if 'Errata' in jd:
        notes += '  Spec update: ' + jd['Errata']
    unit = jd.get('Unit')
    if unit:
        e['pmu'] = UNIT_PMU.get(unit, 'uncore_' + unit.lower())
    e['unit'] = jd.get('ScaleUnit')
    e['perpkg'] = jd.get('PerPkg')
    e['aggr_mode'] = {'PerChip': '1', 'PerCore': '2'}.get(jd.get('AggregationMode') or '')
    e['deprecated'] = jd.get('Deprecated')
    for k, f in (('MetricName', 'metric_name'), ('MetricGroup', 'metric_group'),
                 ('MetricConstraint', 'metric_constraint'), ('MetricExpr', 'metric_expr')):
        e[f] = jd.get(k)
    pebs = jd.get('PEBS')
    if pebs and e['desc'] and '(Precise Event)' not in e['desc']:
        notes += ' (Must be precise)' if pebs == '2' else ' (Precise event)'
    if 'ConfigCode' in jd:
        ev = 'config=' + hexnum(int(jd['ConfigCode'], 0))
    else:
        ev = 'event=' + hexnum(code)
    for key, term in TERMS:
        if key in jd and jd[key] != '0':
            ev += ',' + term + jd[key]
    if jd.get('Filter'):
        ev += ',' + jd['Filter']
    if jd.get('MSRIndex'):
        ev += ',' + MSR_TERM[int(jd['MSRIndex'].split(',', 1)[0], 0)] + str(jd.get('MSRValue'))
    if notes:
        if e['desc']:
            e['desc'] += notes
        if e['long_desc']:
            e['long_desc'] += notes
    if e['pmu']:
        if e['desc'] and not e['desc'].endswith('. '):
            e['desc'] += '. '
        e['desc'] = (e['desc'] or '') + 'Unit: ' + e['pmu'] + ' '
    arch_std = jd.get('ArchStdEvent')
    if arch_std and std is not None and arch_std.lower() in std:
        base = std[arch_std.lower()]
        ev = base['event']
        for f in FIELDS:
            if not e[f] and base[f]:
                e[f] = base[f]
    e['event'] = FIXED_EVENTS.get(e['name'], ev) if e['name'] else None
    return e


def topic_of(fname):
    if fname.endswith('metrics.json'):
        return 'metrics'
    return strip_suffix(fname, '.json').replace('-', ' ')


def read_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def arch_std_events(archdir):
    std = {}
    for fn in sorted(os.listdir(archdir)):
        p = os.path.join(archdir, fn)
        if os.path.isfile(p) and fn.endswith('.json'):
            for jd in read_json(p):
                e = make_event(jd, '', None)
                if e['name']:
                    std[e['name']] = e
    return std


def model_dirs(archdir):
    """Leaf directories under ARCH (relative paths), sorted as a walk in name order."""
    out = []

    def walk(d, rel, depth):
        for fn in sorted(os.listdir(d)):
            p = os.path.join(d, fn)
            if not os.path.isdir(p):
                continue
            r = rel + [fn]
            if not any(os.path.isdir(os.path.join(p, x)) for x in os.listdir(p)):
                out.append('/'.join(r))
            if depth < 4:
                walk(p, r, depth + 1)
    walk(archdir, [], 1)
    return out


def c_str(s):
    out = []
    for ch in s.encode('utf-8'):
        c = chr(ch)
        if c in '\\"':
            out.append('\\' + c)
        elif 32 <= ch < 127 and c != '?':
            out.append(c)
        else:
            out.append('\\%03o' % ch)
    return ''.join(out)


def main():
    arch, root, outp = sys.argv[1:4]
    archdir = os.path.join(root, arch)
    std = arch_std_events(archdir)
    pool = ['']
    offsets = {'': 0}
    size = 1

    def off(s):
        nonlocal size
        if not s:
            return 0
        if s not in offsets:
            offsets[s] = size
            pool.append(s)
            size += len(s.encode('utf-8')) + 1
        return offsets[s]

    tables = []
    for rel in model_dirs(archdir):
        evs = []
        for fn in sorted(os.listdir(os.path.join(archdir, rel))):
            if fn.endswith('.json'):
                for jd in read_json(os.path.join(archdir, rel, fn)):
                    evs.append(make_event(jd, topic_of(fn), std))
        evs.sort(key=lambda e: (e['desc'] is not None, e['topic'] or '', e['name'] or '',
                                e['pmu'] or '', e['metric_name'] or ''))
        tables.append((rel, [[off(e[f]) for f in FIELDS] for e in evs]))

    maps = []
    with open(os.path.join(archdir, 'mapfile.csv'), encoding='utf-8') as f:
        for i, row in enumerate(csv.reader(f)):
            if i == 0 or not row or row[0].startswith('#'):
                continue
            maps.append((row[0], row[2]))
    known = {rel for rel, _ in tables}

    with open(outp, 'w', encoding='utf-8') as o:
        o.write('/* Generated by scripts/pmu-events-gen.py from the kernel\'s '
                'tools/perf/pmu-events/arch/%s: do not edit. */\n' % arch)
        o.write('#include "util/kernel/pmu-events.h"\n\n')
        o.write('static const char pool[] =\n\t"\\0"\n')
        for s in pool[1:]:
            o.write('\t"%s\\0"\n' % c_str(s))
        o.write('\t;\n\n')
        for idx, (rel, rows) in enumerate(tables):
            o.write('static const struct pmu_events_rec t%d[] = {\n' % idx)
            for r in rows:
                o.write('\t{ { %s } },\n' % ', '.join(str(x) for x in r))
            o.write('};\n\n')
        o.write('static const struct pmu_events_model models[] = {\n')
        for cpuid, fname in maps:
            if fname not in known:
                continue
            idx = [rel for rel, _ in tables].index(fname)
            o.write('\t{ "%s", "%s", "%s", t%d, %d },\n' % (c_str(arch), c_str(cpuid), c_str(fname),
                                                           idx, len(tables[idx][1])))
        o.write('\t{ 0 }\n};\n\n')
        o.write('const struct pmu_events_data pmu_events_data = {\n'
                '\t.pool = pool, .models = models,\n};\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
