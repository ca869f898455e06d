#!/usr/bin/env python3
"""Compare `perf annotate --stdio` and `prf annotate --stdio` output.

Used by tests/shell/annotate-*.sh: annotate-compare.py PERF.txt PRF.txt.
Per symbol (in order): the header line and its rule exactly; the same
instruction addresses with the same percent (or sample count) column;
the instruction text equal after normalising what the disassemblers
legitimately spell differently (Documentation/prf-annotate.txt: the
symbol named in a "# addr <sym>" comment and IRELATIVE PLT names; -l's
" // file:line" suffixes, which perf 6.1 decides against a freed string
after the first symbol); -l's summaries exactly; the
source, function and position lines equal, except positions with a
relative file name (libbfd composes DWARF 5 names differently). Exit 0
when equal, 1 with the differences listed.
"""
import re
import sys

ASM = re.compile(r'^ +([0-9.]+) : +([0-9a-f]+):(.*)$')
HDR = re.compile(r'^ (Percent|Samples|Period) +\|\t')
SUMMARY = re.compile(r'^ +[0-9.]+ \S+$|^ Nothing higher than')
REL_POS = re.compile(r'^ +: \d+ +[^/ ]\S*:\d+( \(discriminator \d+\))?$')


def parse(path):
    syms = []
    cur = None
    pending = []            # -l's summary, before the header it belongs to
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line == '' or line.startswith('Sorted summary') or SUMMARY.match(line) or \
                line.startswith('-----') and (cur is None or len(cur['hdr']) == 2):
            pending.append(line)
            continue
        if HDR.match(line):
            cur = {'hdr': [line], 'asm': [], 'text': pending}
            pending = []
            syms.append(cur)
            continue
        if cur is None:
            continue
        if len(cur['hdr']) == 1:
            cur['hdr'].append(line)
            continue
        m = ASM.match(line)
        if m:
            cur['asm'].append((m.group(2), m.group(1), norm_asm(m.group(3))))
            cur['text'].append('@' + m.group(2))
        elif not REL_POS.match(line):
            cur['text'].append(line)
    return syms


def norm_asm(text):
    text = re.sub(r' // \S+$', '', text)
    text = re.sub(r'(# [0-9a-f]+) <[^>]*>$', r'\1', text)
    return re.sub(r'<\*ABS\*\+0x[0-9a-f]+@plt>', '<@plt>', text)


def main():
    a, b = parse(sys.argv[1]), parse(sys.argv[2])
    errs = []
    if len(a) != len(b):
        errs.append('%d symbols in perf, %d in prf' % (len(a), len(b)))
    for sa, sb in zip(a, b):
        if sa['hdr'] != sb['hdr']:
            errs.append('header:\n  perf %r\n  prf  %r' % (sa['hdr'], sb['hdr']))
            continue
        name = sa['hdr'][0][:110]
        if [x[0] for x in sa['asm']] != [x[0] for x in sb['asm']]:
            errs.append('%s: instruction addresses differ' % name)
            continue
        for (addr, pa, ta), (_, pb, tb) in zip(sa['asm'], sb['asm']):
            if pa != pb:
                errs.append('%s: %s: perf %s, prf %s' % (name, addr, pa, pb))
            if ta != tb:
                errs.append('%s: %s: perf %r, prf %r' % (name, addr, ta, tb))
        if sa['text'] != sb['text']:
            for i, (x, y) in enumerate(zip(sa['text'], sb['text'])):
                if x != y:
                    errs.append('%s: line %d: perf %r, prf %r' % (name, i, x, y))
                    break
            else:
                errs.append('%s: %d lines in perf, %d in prf' % (name, len(sa['text']), len(sb['text'])))
    for e in errs[:30]:
        print(e)
    n = sum(len(s['asm']) for s in a)
    print('%d symbols, %d instructions compared, %d differences' % (len(a), n, len(errs)))
    return 1 if errs else 0


sys.exit(main())
