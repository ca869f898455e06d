#!/bin/bash
# The inline chains a run worked out are kept on disk and later runs answer inline frames and srclines from them with the same output, without reading line tables; positions are added when asked; a damaged record and a changed debug file are refused
#
# lib/dwlib.sh builds libdl.so (its DWARF in libdl.so.debug, always-inline
# helpers early_mix/late_mix) and main, recorded with --call-graph dwarf;
# clone.c adds a function gcc clones (helper.constprop.0: perf names its
# frames after the DWARF function, "helper (inlined)", renamed) with an
# inlined one in it. The
# reference output is prf's with the debug cache off (PRF_DEBUG_CACHE=0,
# as every other test runs); util/model/inline-cache.h describes the file.
#  - script without srclines keeps chains without positions; script -F
#    +srcline then works the positions out and keeps them; a third run
#    answers every frame from the kept chains: no unit's line table is
#    even opened (no "line rows" message) and the output is the same.
#  - report (-g srcline) from the kept chains equals the reference.
#  - a record whose string offset is past the strings: that chain is
#    worked out again (-v says so), the output is the same.
#  - the debug file touched: the old chains are not used.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/dwlib.sh"
test_setup dwinlcache objcopy strip
cd "$T" || exit 1
export HOME=$T	# no ~/.debug copies: the debug file is found by debuglink
unset XDG_CACHE_HOME

dwlib_build
cat > clone.c <<'SRC'
volatile unsigned long clone_sink;
volatile int clone_k = 3;
static inline __attribute__((always_inline)) unsigned long spin(unsigned long x, int k)
{
	for (int i = 0; i < 200; i++)
		x = x * 6364136223846793005UL + (unsigned long)k;
	return x;
}
__attribute__((noinline)) unsigned long helper(unsigned long x, int k)
{
	return spin(x, k) ^ clone_sink;
}
int main(void)
{
	unsigned long s = helper(1, clone_k);	/* keeps the general one */

	for (unsigned long i = 0; i < 40000; i++)
		s += helper(i, 7);	/* a constant argument: helper.constprop.0 */
	clone_sink = s;
	return 0;
}
SRC
cc -O3 -g -fomit-frame-pointer -o clone clone.c || fail "cc clone.c"
perf_record clone.data -e task-clock:u --call-graph dwarf -F 2000 --no-buildid-cache ./clone

kept() {	# messages file, debug file: the .inl file its chains were kept in
	sed -n "s|.*/$2: inline chains kept in \\(.*\\) ([0-9]* bytes)\$|\\1|p" "$1"
}

C=$T/cache
for d in both clone; do
	dwlib_run ref.$d PRF_DEBUG_CACHE=0 "$PRF" script -i $d.data -F +srcline
	dwlib_run refp.$d PRF_DEBUG_CACHE=0 "$PRF" script -i $d.data
done
grep -q 'early_mix+0x[0-9a-f]* (inlined)' refp.both || { grep -m5 early refp.both; fail "reference: no inlined early_mix"; }
nm clone | grep -q 'helper\.constprop' || fail "gcc made no helper.constprop clone"
grep -q 'helper+0x[0-9a-f]* (inlined)' refp.clone ||
	{ head refp.clone; fail "reference: helper.constprop.0 not shown renamed"; }

# no positions first, then positions added, then everything from the file
dwlib_run p1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data
dwlib_same refp.both p1 "first run (no srclines): script differs from the reference"
f=$(kept p1.err libdl.so.debug)
[ -n "$f" ] && [ -f "$f" ] || { grep debuginfo p1.err | head; fail "libdl.so.debug's chains were not kept"; }
dwlib_run s1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both s1 "srcline run: script differs from the reference"
grep -q "libdl.so.debug: inline chains from $f\$" s1.err || fail "srcline run: the kept chains were not read"
[ "$(kept s1.err libdl.so.debug)" = "$f" ] || fail "srcline run: the chains with positions were not kept"
dwlib_run s2 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both s2 "third run: script differs from the reference"
grep -q "line rows" s2.err && { grep "line rows" s2.err | head -3; fail "third run: a line table was read"; }
[ -n "$(kept s2.err libdl.so.debug)" ] && fail "third run: kept again with nothing new"
dwlib_run s3 PRF_DEBUG_CACHE="$C" "$PRF" script -i both.data
dwlib_same refp.both s3 "no srclines, from chains with positions: script differs"
dwlib_run r0 PRF_DEBUG_CACHE=0 "$PRF" report -i both.data --stdio --no-children -g srcline
dwlib_run r2 PRF_DEBUG_CACHE="$C" "$PRF" report -i both.data --stdio --no-children -g srcline
dwlib_same r0 r2 "report -g srcline from kept chains differs"

# a clone's frames are named against the ELF symbol at each run
for i in 1 2; do
	dwlib_run c$i PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i clone.data -F +srcline
	dwlib_same ref.clone c$i "clone, run $i: script differs from the reference"
done
grep -q "/clone: inline chains from" c2.err || fail "clone: its kept chains were not read"
dwlib_run cp PRF_DEBUG_CACHE="$C" "$PRF" script -i clone.data
dwlib_same refp.clone cp "clone, no srclines: script differs from the reference"

# the first record's first string offset (after the 24-byte header, the
# entries, and the record's n and flags) points past the strings
python3 - "$f" <<'PY' || fail "could not damage the kept chains"
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
nr, = struct.unpack_from('<I', d, 0)
rec_off, = struct.unpack_from('<Q', d, 24 + 8)
struct.pack_into('<I', d, rec_off + 8, 0x7ffffff0)	# its file string
open(p, 'wb').write(d)
PY
dwlib_run d1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both d1 "damaged record: script differs from the reference"
grep -q "libdl.so.debug: kept inline chain at 0x[0-9a-f]* is damaged" d1.err ||
	{ grep debuginfo d1.err | head; fail "the damaged record was not reported"; }

# a changed debug file is not answered from the old chains
touch -d '+1 minute' libdl.so.debug
dwlib_run t1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both t1 "touched debug file: script differs from the reference"
grep -q "libdl.so.debug: inline chains from" t1.err && fail "touched debug file: old chains used"
echo "kept without and with positions, answered with equal output, damage and a change refused"
exit 0
