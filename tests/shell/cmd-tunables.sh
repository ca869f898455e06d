#!/bin/bash
# Tunables: prf version --build-options lists every PRF_* variable the source tree uses (each documented in prf-tunables.txt, each read through the table), with its value; a bad value is reported naming it and the default is used
# prf-test: needs-source: greps the source tree (cmd, builtin, util, scripts, Documentation, Makefile) for PRF_* names
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
tmp_dir tunables
S=$PRF_SRCDIR

# PRF_ words in the tree that are not variables prf reads: include guards
# (*_H), C macros (PRF_VERSION, PRF_DOC_DIR, PRF_LIB_DIR), the flamegraph page's
# script object (PRF_FG), a usage placeholder (PRF_OUT), the script
# plugin ABI's names (the macros of util/analysis/scripting-abi.h), and
# the test
# scripts' own variables (PRF_SRCDIR set by prf test, PRF_ASAN, PRF_TSAN;
# see prf-tunables(7), OTHER VARIABLES).
not_tunables='^PRF_([A-Z0-9_]*_H|VERSION|DOC_DIR|LIB_DIR|FG|OUT|SRCDIR|ASAN|TSAN|SCRIPT_[A-Z_]+|SV_[A-Z]+|DEFINE_[A-Z_]+)$'

"$PRF" version --build-options > "$T/list" 2> "$T/list.err" ||
	fail "prf version --build-options exit $?: $(cat "$T/list.err")"
[ -s "$T/list.err" ] && fail "messages without any PRF_ variable set: $(cat "$T/list.err")"
head -1 "$T/list" | grep -qE '^prf version [0-9]' || fail "no version line: $(head -1 "$T/list")"
grep -qE '^ +libdw: \[ on  \]  # ' "$T/list" || fail "no libdw line"
awk '/^  PRF_/ { print $1 }' "$T/list" | sort > "$T/listed"
[ "$(wc -l < "$T/listed")" -ge 14 ] || fail "only $(wc -l < "$T/listed") tunables listed"
[ "$("$PRF" version | wc -l)" -eq 1 ] || fail "prf version without --build-options prints more than its version"

# every PRF_ name in sources, scripts and documentation is listed
(cd "$S" && grep -rnoE '\bPRF_[A-Z0-9_]+\b' cmd builtin ui util arch tests scripts Documentation \
	README* Makefile --include='*.[ch]' --include='*.sh' --include='*.py' --include='*.txt' \
	--include='*.md' --include='README*' --include=Makefile) |
	awk -F: '{ print $3, $1 ":" $2 }' > "$T/used"
[ -s "$T/used" ] || fail "no PRF_ names found in $S"
while read -r name where; do
	[[ $name =~ $not_tunables ]] && continue
	grep -qx "$name" "$T/listed" || fail "$name ($where) is not in the tunables table (util/lib/tunables.c)"
done < "$T/used"

# every listed one is documented, and read through the table (or, until
# its file is switched over, by getenv())
for name in $(cat "$T/listed"); do
	grep -qE "^$name[ ,]|, $name \(" "$S/Documentation/prf-tunables.txt" ||
		fail "$name has no entry in Documentation/prf-tunables.txt"
	id=TUNABLE_${name#PRF_}
	(cd "$S" && grep -rqE "\\b$id\\b|getenv\\(\"$name\"\\)" cmd builtin ui util arch tests \
		--include='*.c' --exclude=tunables.c) ||
		fail "$name is in the table but nothing reads it ($id)"
done

# value() NAME: the value column of NAME's row in $T/out
value() { awk -v n="$1" '$1 == n { print $3 }' "$T/out"; }

# bad values: one message naming the variable and value, then the default
PRF_NO_CHAIN_CACHE=maybe PRF_DEBUG_CACHE_MAX=12X PRF_THREADS=lots \
	"$PRF" version --build-options > "$T/out" 2> "$T/err" || fail "bad values: exit $?"
grep -qx 'prf: PRF_NO_CHAIN_CACHE=maybe is not a boolean (0/1, no/yes, false/true, off/on): using the default, 0' \
	"$T/err" || fail "no bad boolean warning: $(cat "$T/err")"
grep -q '^prf: PRF_DEBUG_CACHE_MAX=12X is not a size .*using the default, 1G$' "$T/err" ||
	fail "no bad size warning: $(cat "$T/err")"
grep -q '^prf: PRF_THREADS=lots is not a decimal number' "$T/err" || fail "no bad int warning: $(cat "$T/err")"
[ "$(wc -l < "$T/err")" -eq 3 ] || fail "not one message per bad value: $(cat "$T/err")"
[ "$(value PRF_NO_CHAIN_CACHE)" = 0 ] || fail "bad boolean not the default: $(value PRF_NO_CHAIN_CACHE)"
[ "$(value PRF_DEBUG_CACHE_MAX)" = 1G ] || fail "bad size not the default: $(value PRF_DEBUG_CACHE_MAX)"

# good values, in each spelling
PRF_READ_MAPPED=On PRF_DEBUG_LAZY=no PRF_NO_WALK_MEMO=TRUE PRF_DEBUG_CACHE_MAX=64m PRF_THREADS=3 \
	PRF_UNWIND_THREADS=99 PRF_PAGER='less -S' "$PRF" version --build-options > "$T/out" 2> "$T/err" ||
	fail "good values: exit $?"
grep -q '^prf: PRF_UNWIND_THREADS=99 is outside 0..16: using 16$' "$T/err" ||
	fail "no range message: $(cat "$T/err")"
[ "$(wc -l < "$T/err")" -eq 1 ] || fail "messages for good values: $(cat "$T/err")"
for nv in PRF_READ_MAPPED=1 PRF_DEBUG_LAZY=0 PRF_NO_WALK_MEMO=1 PRF_DEBUG_CACHE_MAX=64M \
	  PRF_THREADS=3 PRF_UNWIND_THREADS=16 PRF_PAGER=less; do
	[ "$(value "${nv%%=*}")" = "${nv#*=}" ] || fail "${nv%%=*} shows '$(value "${nv%%=*}")', not ${nv#*=}"
done
exit 0
