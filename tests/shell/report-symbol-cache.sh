#!/bin/bash
# ELF symbol tables are kept on disk and later runs map them with the same report and script output; another demangling mode, a changed runtime file, a damaged table and PRF_DEBUG_CACHE=0 are honoured
#
# A C++ program (demangled names, PLT calls into libm) whose symbols come
# from a .gnu_debuglink debug file, recorded with Linux perf -g. Every
# prf output is compared with the one made with PRF_DEBUG_CACHE=0:
#  - first run: the debug file's symbols are kept (-vv names the file);
#  - second run: they come from the kept table, nothing is kept anew;
#  - another demangling mode (without -v: no C++ parameter lists): the
#    kept table is not used, the output is the uncached one of that mode,
#    and the table is kept anew (then refused by a -vv run again);
#  - the runtime file touched (its PLT entries and text offset come from
#    it): the kept table is not used;
#  - a damaged record (a bool that is not 0 or 1): refused with a -v
#    message, the symbols are read again and kept anew.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/dwlib.sh"	# dwlib_run, dwlib_same
test_setup symcache objcopy c++
cd "$T" || exit 1

cat > prog.cc <<'C'
#include <cmath>
#include <cstdlib>
namespace geo {
volatile double sink;
template <typename T> struct Shape {
	__attribute__((noinline)) void grow(long n) { for (long i = 0; i < n; i++) sink += std::sqrt((T)i); }
};
__attribute__((noinline)) void run(long n) { Shape<double> s; for (int k = 0; k < 20; k++) s.grow(n); }
}
int main(int argc, char **argv) { geo::run(argc > 1 ? atol(argv[1]) : 100); return 0; }
C
c++ -O1 -g -fno-omit-frame-pointer -o prog prog.cc -lm || fail "c++ failed"
objcopy --only-keep-debug prog prog.debug && objcopy --strip-debug --strip-unneeded prog &&
	objcopy --add-gnu-debuglink=prog.debug prog || fail "objcopy failed"
export HOME=$T	# no ~/.debug copy of prog (it would shadow the debug file)
perf_record prog.data -g -F 2000 --no-buildid-cache ./prog 3000000

C=$T/cache
# run NAME [ENV=VALUE...] CMD...: dwlib_run with the cache in $C unless
# an ENV says otherwise (the later assignment wins)
run() { dwlib_run "$1" PRF_DEBUG_CACHE="$C" "${@:2}"; }
S=("$PRF" script -vv -i prog.data)
R=("$PRF" report -i prog.data --stdio --no-children)
kept_msg="prog.debug: symbols kept in $C/"
from_msg="prog.debug: symbols from $C/"

run ref.script PRF_DEBUG_CACHE=0 "${S[@]}"
run ref.report PRF_DEBUG_CACHE=0 "${R[@]}"
grep -q "geo::Shape<double>::grow" ref.script || fail "no demangled geo::Shape<double>::grow in the reference"

run s1 "${S[@]}"
grep -q "$kept_msg" s1.err || { grep -i symbols s1.err | head; fail "first run: the symbols were not kept"; }
dwlib_same ref.script s1 "first run: script differs from the reference"
run s2 "${S[@]}"
grep -q "$from_msg" s2.err || { grep -i symbols s2.err | head; fail "second run: the kept symbols were not used"; }
grep -q "$kept_msg" s2.err && fail "second run: the symbols were kept again"
dwlib_same ref.script s2 "from the kept symbols: script differs from the reference"
run r2 "${R[@]}"
dwlib_same ref.report r2 "from the kept symbols: report differs from the reference"

# another demangling mode (-v shows C++ parameter lists, as perf does):
# the table kept by a -vv run is not used by a run without -v, and back
run nv.ref PRF_DEBUG_CACHE=0 "$PRF" script -i prog.data
grep -q "geo::Shape<double>::grow+" nv.ref || fail "no geo::Shape<double>::grow without -v"
grep -q "geo::Shape<double>::grow(long)+" ref.script || fail "no geo::Shape<double>::grow(long) with -vv"
run nv "$PRF" script -i prog.data
dwlib_same nv.ref nv "without -v, after a -vv run kept its table: script differs"
run nv2 "${S[@]}"
grep -q "prog.debug: kept symbols were made for another runtime file or demangling" nv2.err ||
	fail "-vv after a run without -v: the other mode's table was not refused"
dwlib_same ref.script nv2 "-vv after a run without -v: script differs from the reference"

# the runtime file changed: its PLT entries and text offset may have too
run t0 "${S[@]}"
touch -d '+1 minute' prog
run t1 "${S[@]}"
grep -q "prog.debug: kept symbols were made for another runtime file" t1.err ||
	fail "touched runtime file: the kept table was used"
dwlib_same ref.script t1 "touched runtime file: script differs from the reference"
grep -q "$kept_msg" t1.err || fail "touched runtime file: the table was not kept anew"

# a damaged record: refused, read again, kept anew
syms=$(sed -n "s|.*prog.debug: symbols kept in \\($C/[^ ]*\\.syms\\).*|\\1|p" t1.err | head -1)
[ -f "$syms" ] || fail "no kept symbol file named in the messages"
python3 - "$syms" <<'PY' || fail "cannot damage $syms"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
rt_len = struct.unpack_from("<I", b, 60)[0]
first = 64 + (rt_len + 7) // 8 * 8
b[first + 18] = 7	# struct symbol's inlined (a bool)
open(p, "wb").write(b)
PY
run d1 "${S[@]}"
grep -q "prog.debug: kept symbols are damaged: made again" d1.err ||
	{ grep -i symbols d1.err | head; fail "damaged table: not refused"; }
dwlib_same ref.script d1 "damaged table: script differs from the reference"
grep -q "$kept_msg" d1.err || fail "damaged table: not kept anew"
run d2 "${S[@]}"
grep -q "$from_msg" d2.err || fail "after the damage: the table kept anew was not used"
dwlib_same ref.script d2 "after the damage: script differs from the reference"

# no cache: nothing kept
rm -rf "$C"
run n0 PRF_DEBUG_CACHE=0 "${S[@]}"
[ -e "$C" ] && fail "PRF_DEBUG_CACHE=0: a cache directory was made"
echo "kept, mapped, refused for another demangling mode, a touched runtime file and a damaged record; outputs equal"
exit 0
