#!/bin/bash
# source tree: no file includes a header of a layer above its own (scripts/check-layers.py), and the check catches one that does
# prf-test: needs-source: runs scripts/check-layers.py over the tree's sources
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
need python3
tmp_dir source-layers
check=$PRF_SRCDIR/scripts/check-layers.py

python3 "$check" "$PRF_SRCDIR" > "$T/out" 2>&1
st=$?
cat "$T/out"
[ $st -eq 0 ] || fail "upward includes in the tree (exit $st)"
grep -qx '0 upward includes' "$T/out" || fail "no count line"

# a copy of the tree's headers and sources with one planted upward include
# (the data layer including the session) and one arch include the rules
# forbid (arch including the model) must fail with both named
mkdir -p "$T/tree"
(cd "$PRF_SRCDIR" && tar cf - cmd builtin ui util arch) | tar xf - -C "$T/tree" ||
	fail "copy of the tree"
echo '#include "../session/session.h"' >> "$T/tree/util/format/data.c"
echo '#include "../../util/model/machine.h"' >> "$T/tree/arch/x86/unwind-regs.c"
python3 "$check" "$T/tree" > "$T/bad" 2>&1
st=$?
cat "$T/bad"
[ $st -eq 1 ] || fail "planted upward includes: exit $st, want 1"
grep -q '^util/format/data.c:[0-9]*: includes util/session/session.h (util/session above util/format)$' "$T/bad" ||
	fail "the format -> session include not reported"
grep -q '^arch/x86/unwind-regs.c:[0-9]*: includes util/model/machine.h' "$T/bad" ||
	fail "the arch -> model include not reported"
grep -qx '2 upward includes' "$T/bad" || fail "count of planted includes"
exit 0
