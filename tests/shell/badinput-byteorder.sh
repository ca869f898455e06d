#!/bin/bash
# Byte order: a perf.data written big-endian (converted from a Linux perf recording) reads as perf reads it
# The converter rewrites a recording of a compiled workload as a big-endian
# writer would have produced it: header, attr (bitfield bits reversed per
# byte, as perf's reader expects), ids, and every COMM/EXIT/FORK/MMAP/MMAP2/
# SAMPLE record with its sample_id trailer; other records and the feature
# sections are dropped (also from a native copy used as the reference).
# Linux perf must read the big-endian file exactly as the native copy (the
# converter is right), and prf's report and script on it must equal perf's.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup byteorder
cd "$T" || exit 1

cat >w.c <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void bo_work(void) { for (unsigned long i = 0; i < 100000000UL; i++) sink += i; }
int main(void) { bo_work(); return 0; }
C
cc -O0 -o w w.c || fail "cc"
"$PERF" record -q -F 999 -o src.data -- ./w >/dev/null 2>rec.err || { cat rec.err; fail "perf record"; }

cat >swap.py <<'PY'
import struct, sys
src, native_out, swapped_out = sys.argv[1:4]
d = open(src, 'rb').read()
magic, hsize, attr_size = struct.unpack_from('<QQQ', d, 0)
a_off, a_size, d_off, d_size, e_off, e_size = struct.unpack_from('<6Q', d, 24)
assert magic == 0x32454c4946524550
entry = attr_size
attr_size -= 16   # header's attr_size is sizeof(perf_file_attr)
attrs = []
for i in range(a_size // entry):
    o = a_off + i * entry
    attr = d[o:o + attr_size]
    ids_off, ids_size = struct.unpack_from('<QQ', d, o + attr_size)
    ids = struct.unpack_from('<%dQ' % (ids_size // 8), d, ids_off)
    attrs.append((attr, ids))
sample_type = struct.unpack_from('<Q', attrs[0][0], 24)[0]
assert sample_type == (1 | 2 | 4 | 256), hex(sample_type)   # IP|TID|TIME|PERIOD
recs = []
p, end = d_off, d_off + d_size
while p + 8 <= end:
    typ, misc, size = struct.unpack_from('<IHH', d, p)
    if size < 8: break
    recs.append((typ, misc, d[p:p + size]))
    p += size
keep = {1, 3, 4, 7, 9, 10, 68, 82}
recs = [r for r in recs if r[0] in keep]

def rev(b):
    return int('{:08b}'.format(b)[::-1], 2)

def conv_attr(a, be):
    if not be: return a
    a = bytearray(a)
    f = lambda fmt, off: struct.pack_into('>' + fmt, a, off, *struct.unpack_from('<' + fmt, a, off))
    f('II', 0); f('QQQQ', 8)
    for i in range(40, 48): a[i] = rev(a[i])
    f('II', 48); f('QQQQ', 56); f('I', 88); f('i', 92); f('Q', 96); f('I', 104); f('H', 108)
    if len(a) >= 120: f('I', 112)
    return bytes(a)

def conv_rec(typ, misc, r, be):
    if not be: return r
    r = bytearray(r)
    f = lambda fmt, off: struct.pack_into('>' + fmt, r, off, *struct.unpack_from('<' + fmt, r, off))
    size = len(r)
    f('IHH', 0)
    trailer = lambda: (f('II', size - 16), f('Q', size - 8))
    if typ == 9:                      # SAMPLE: ip, pid/tid, time, period
        f('Q', 8); f('II', 16); f('QQ', 24)
    elif typ == 3:                    # COMM
        f('II', 8); trailer()
    elif typ in (4, 7):               # EXIT, FORK
        f('IIIIQ', 8); trailer()
    elif typ == 1:                    # MMAP
        f('IIQQQ', 8); trailer()
    elif typ == 10:                   # MMAP2
        f('IIQQQ', 8)
        if not (misc & (1 << 14)):
            f('IIQQ', 40)
        f('II', 64); trailer()
    return bytes(r)

def write(out, be):
    E = '>' if be else '<'
    body = bytearray()
    hdr = 104
    attr_tab = hdr
    ids_base = attr_tab + len(attrs) * entry
    ids_blob = b''
    tab = b''
    for a, ids in attrs:
        off = ids_base + len(ids_blob)
        tab += conv_attr(a, be) + struct.pack(E + 'QQ', off, 8 * len(ids))
        ids_blob += struct.pack(E + '%dQ' % len(ids), *ids)
    data = b''.join(conv_rec(t, m, r, be) for t, m, r in recs)
    data_off = ids_base + len(ids_blob)
    h = struct.pack(E + 'QQQ6Q4Q', 0x32454c4946524550, hdr, entry,
                    attr_tab, len(tab), data_off, len(data), 0, 0, 0, 0, 0, 0)
    open(out, 'wb').write(h + tab + ids_blob + data)

write(native_out, False)
write(swapped_out, True)
print(len(recs), "records")
PY
python3 swap.py src.data native.data swapped.data >/dev/null || fail "converter"
[ "$(head -c 8 swapped.data | od -An -c | tr -d ' ')" = "2ELIFREP" ] || fail "swapped file has no big-endian magic"

rep() { "$1" report --stdio --sort comm,dso,sym -i "$2" 2>/dev/null | grep -v -e '^# To display' -e '^# (Tip' | grep -v '^#$' | grep -v '^$'; }
scr() { "$1" script -F comm,tid,time,ip,sym,dso,period -i "$2" 2>/dev/null; }
rep "$PERF" native.data >perf.native
rep "$PERF" swapped.data >perf.swapped
grep -q bo_work perf.native || fail "perf: no bo_work samples in the native copy"
diff perf.native perf.swapped >conv.diff || fail "converter wrong: perf reads the two copies differently: $(head -6 conv.diff)"
rep "$PRF" swapped.data >prf.swapped
diff perf.swapped prf.swapped >rep.diff || fail "prf report on the big-endian file differs from perf's: $(head -10 rep.diff)"
scr "$PERF" swapped.data >perf.scr
scr "$PRF" swapped.data >prf.scr
[ -s perf.scr ] || fail "perf script printed nothing"
diff perf.scr prf.scr >scr.diff || fail "prf script on the big-endian file differs from perf's: $(head -6 scr.diff)"
"$PRF" report --header-only -i swapped.data >hdr.out 2>&1 || fail "prf report --header-only failed: $(head -3 hdr.out)"
echo "ok: big-endian perf.data: report and script ($(wc -l <prf.scr) samples) equal perf's"
exit 0
