#!/bin/bash
# The line tables a run read are kept on disk and later runs use them with the same output; units are added run by run; a damaged unit, another file's tables and a changed debug file are refused
#
# lib/dwlib.sh builds libdl.so, whose DWARF is in libdl.so.debug, and
# main (its own DWARF), with two recordings: early.data looks source lines
# up in early.c's unit only, both.data in late.c's too. The reference
# output is prf's with the debug cache off (PRF_DEBUG_CACHE=0, as every
# other test runs); util/model/line-cache.h describes the file. The kept
# inline chains are removed before every run (they would answer the
# srclines without the line tables).
#  - early.data, empty cache: libdl.so.debug's tables are kept (one unit);
#    both.data then reads early.c's unit from them, runs late.c's line
#    program and keeps both; a third run reads both units from the file
#    and keeps nothing new. Every output equals the reference.
#  - main's own DWARF is kept too, under main's name.
#  - a unit entry whose names run past the file: that unit's line
#    program is read again (-v says so), the output is the same, and the
#    tables are kept anew, whole.
#  - another file's tables under this name, and the debug file touched:
#    not used.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/dwlib.sh"
test_setup dwlinecache objcopy strip
cd "$T" || exit 1
export HOME=$T	# no ~/.debug copies: the debug file is found by debuglink
unset XDG_CACHE_HOME

dwlib_build

kept() {	# messages file: the .lines file file's tables were kept in
	sed -n "s|.*/$2: line tables kept in \\(.*\\) ([0-9]* bytes)\$|\\1|p" "$1"
}
units_kept() {	# messages: units whose rows came from kept tables
	grep -c 'line rows, kept$' "$1"
}

C=$T/cache
# the kept inline chains (dwarf-inline-cache.sh) answer srclines without
# any line table: each run here starts without them
lrun() {
	rm -f "$C"/*.inl
	dwlib_run "$@"
}
for d in early both; do
	dwlib_run ref.$d PRF_DEBUG_CACHE=0 "$PRF" script -i $d.data -F +srcline
done
grep -q 'late.c:' ref.both || fail "reference: no source line in late.c"

lrun e1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i early.data -F +srcline
dwlib_same ref.early e1 "first run: script differs from the reference"
f=$(kept e1.err libdl.so.debug)
[ -n "$f" ] && [ -f "$f" ] || { grep debuginfo e1.err | head; fail "libdl.so.debug's tables were not kept"; }
[ "$(units_kept e1.err)" = 0 ] || fail "first run: rows from kept tables in an empty cache"
m=$(kept e1.err main)
[ -n "$m" ] && [ -f "$m" ] || fail "main's own line tables were not kept"

lrun b1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both b1 "both, second run: script differs from the reference"
grep -q "libdl.so.debug: line tables from $f\$" b1.err || fail "both: the kept tables were not read"
[ "$(units_kept b1.err)" -ge 1 ] || fail "both: no unit's rows came from the kept tables"
[ "$(kept b1.err libdl.so.debug)" = "$f" ] || fail "both: late.c's new unit was not added"
n1=$(units_kept b1.err)

lrun b2 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both b2 "both, third run: script differs from the reference"
[ "$(units_kept b2.err)" -gt "$n1" ] || fail "third run: no more units from the kept tables ($n1 before)"
grep -q "line rows, sorted by" b2.err && fail "third run: a line program was read again"
[ -n "$(kept b2.err libdl.so.debug)" ] && fail "third run: kept again with nothing new"
lrun r2 PRF_DEBUG_CACHE="$C" "$PRF" report -i both.data --stdio --no-children -g srcline
dwlib_run r0 PRF_DEBUG_CACHE=0 "$PRF" report -i both.data --stdio --no-children -g srcline
dwlib_same r0 r2 "report -g srcline from kept tables differs"

# the first unit's entry (after the 8-byte header) says its names are
# 2^56 bytes long: refused, read again, kept anew
cp "$f" lines.good
printf '\377\377\377\377\377\377\377\000' | dd of="$f" bs=1 seek=40 conv=notrunc status=none
lrun d1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both d1 "damaged unit: script differs from the reference"
grep -q "libdl.so.debug: kept line table of the unit at 0x[0-9a-f]* is damaged" d1.err ||
	{ grep debuginfo d1.err | head; fail "the damaged unit was not reported"; }
[ "$(kept d1.err libdl.so.debug)" = "$f" ] || fail "damaged unit: the tables were not kept anew"
cmp -s "$f" lines.good || fail "damaged unit: the tables kept anew differ from the first ones"

# main's tables under libdl.so.debug's name: another file's, ignored
cp "$m" "$f"
lrun o1 PRF_DEBUG_CACHE="$C" "$PRF" script -v -i both.data -F +srcline
dwlib_same ref.both o1 "another file's tables: script differs from the reference"
grep -q "libdl.so.debug: ignoring $f: not the line tables of this file" o1.err ||
	{ grep debuginfo o1.err | head; fail "another file's tables were not refused"; }

# a changed debug file is not answered from the old tables
touch -d '+1 minute' libdl.so.debug
lrun t1 PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
dwlib_same ref.both t1 "touched debug file: script differs from the reference"
grep -q "libdl.so.debug: line tables from" t1.err && fail "touched debug file: old tables used"
f2=$(kept t1.err libdl.so.debug)
[ -n "$f2" ] && [ "$f2" != "$f" ] || fail "touched debug file: no new tables kept (${f2:-none})"
echo "kept, added to and read with equal output; damage, another file's and a change refused"
exit 0
