#!/bin/bash
# prf diff --stat flags the function whose share really changed and not the unchanged one, over 4+4 runs (Welch's t, Holm), --fail-above, --stat-period, --children, -j
# Compiles lib/hotfill.c, a program with three functions of one loop body: hot, filler
# and steady, each looping as long as its argument says. Runs A do
# hot=1 filler=2 steady=1 units, runs A' the same again, runs B hot=2
# filler=1 steady=1: the total stays, so in B hot's share rises from 25%
# to 50%, filler's falls from 50% to 25% and steady's stays 25%; with
# --stat-period hot's time doubles, filler's halves, steady's stays.
# hot is called through caller(), so with --children caller's share
# changes with hot's while main's (all the work) stays.
# Recordings are made by prf record -g, interleaved (A, A', B, ...) so that
# a drift of the machine hits all groups alike; alpha 0.001 keeps the
# chance of a false flag on unchanged code (the Holm-corrected rate)
# at one in a thousand.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup diff-stat

cc_prog hotfill -O1
A= A2= B=
for i in 1 2 3 4; do
	for g in a:"1 2 1" c:"1 2 1" b:"2 1 1"; do
		"$PRF" record -q -g -o "$T/${g%%:*}$i.data" -- "$T/hotfill" ${g#*:} >/dev/null 2>"$T/rec.err" ||
			{ cat "$T/rec.err"; fail "prf record"; }
	done
	A="$A${A:+,}$T/a$i.data" A2="$A2${A2:+,}$T/c$i.data" B="$B${B:+,}$T/b$i.data"
done

# verdict FILE SYMBOL: the verdict column of SYMBOL's line ("" if absent)
verdict() { awk -v s="[.] $2" 'index($0, s) && !/^#/ { for (i = 1; i <= NF; i++) if ($i == "changed" || $i == "noise") { print $i; exit } }' "$1"; }

# the same program in both groups: nothing changed, the gate passes
prf_out "$T/same.out" diff --stat --alpha 0.001 --fail-above 1 "$A" "$A2"
grep -q changed "$T/same.out" && { cat "$T/same.out"; fail "same binary: an entry flagged as changed"; }
[ "$(verdict "$T/same.out" hot)" = noise ] || { cat "$T/same.out"; fail "same binary: hot not tested"; }
echo "ok: same program in both groups: no entry changed, --fail-above exits 0"

# hot's and filler's shares changed, steady's did not
prf_out "$T/chg.out" diff --stat --alpha 0.001 "$A" "$B"
[ "$(verdict "$T/chg.out" hot)" = changed ] || { cat "$T/chg.out"; fail "hot (25% -> 50%) not flagged"; }
[ "$(verdict "$T/chg.out" filler)" = changed ] || { cat "$T/chg.out"; fail "filler (50% -> 25%) not flagged"; }
[ "$(verdict "$T/chg.out" steady)" = noise ] || { cat "$T/chg.out"; fail "steady (25% -> 25%) flagged or missing"; }
[ "$(grep -c changed "$T/chg.out")" -eq 2 ] || { cat "$T/chg.out"; fail "other entries flagged"; }
# the changed ones come first, hot's delta positive with an interval above 0
sed -n '/^#/!p' "$T/chg.out" | head -2 | grep -q '\[\.\] hot' || fail "hot not listed first"
grep '\[\.\] hot' "$T/chg.out" | grep -Eq '\+[0-9.]+%  \[\+[0-9.]+, \+[0-9.]+\]' ||
	{ grep hot "$T/chg.out"; fail "hot: delta and interval not positive"; }
echo "ok: hot and filler changed, steady is noise"

# --fail-above: hot rose by about 25 points
"$PRF" diff --stat --alpha 0.001 --fail-above 10 "$A" "$B" > /dev/null 2>&1
[ $? -eq 1 ] || fail "--fail-above 10 does not exit 1 on a 25-point rise"
prf_out "$T/gate.out" diff --stat --alpha 0.001 --fail-above 40 "$A" "$B"
echo "ok: --fail-above exits 1 above the rise, 0 beyond it"

# --stat-period: hot's and filler's time changed, steady's did not
prf_out "$T/per.out" diff --stat --stat-period --alpha 0.001 "$A" "$B"
[ "$(verdict "$T/per.out" hot)" = changed ] || { cat "$T/per.out"; fail "period: hot not flagged"; }
[ "$(verdict "$T/per.out" steady)" = noise ] || { cat "$T/per.out"; fail "period: steady flagged"; }
echo "ok: --stat-period: hot changed, steady is noise"

# --children: hot's caller changed with it, main (all of the work) did not
prf_out "$T/ch.out" diff --stat --children --alpha 0.001 "$A" "$B"
[ "$(verdict "$T/ch.out" caller)" = changed ] || { cat "$T/ch.out"; fail "children: caller of hot not flagged"; }
[ "$(verdict "$T/ch.out" hot)" = changed ] || { cat "$T/ch.out"; fail "children: hot not flagged"; }
[ "$(verdict "$T/ch.out" steady)" = noise ] || { cat "$T/ch.out"; fail "children: steady flagged"; }
[ "$(verdict "$T/ch.out" main)" = noise ] || { cat "$T/ch.out"; fail "children: main flagged"; }
prf_out "$T/self.out" diff --stat --alpha 0.001 "$A" "$B"
grep -q '\[\.\] caller' "$T/self.out" && fail "self: caller (no self time) shown"
echo "ok: --children: caller and hot changed, main and steady are noise"

# -j: the same verdicts as JSON
prf_out "$T/j.out" diff --stat -j --alpha 0.001 "$A" "$B"
python3 - "$T/j.out" <<'PY' || fail "-j output"
import json, sys
d = json.load(open(sys.argv[1]))
v = {e["symbol"]: e for e in d["entries"] if e.get("dso") == "hotfill"}
assert d["runs_a"] == 4 and d["runs_b"] == 4 and d["test"] == "welch-t", d
assert v["hot"]["verdict"] == "changed" and v["hot"]["delta"] > 15, v["hot"]
assert v["steady"]["verdict"] == "noise", v["steady"]
assert v["hot"]["ci_low"] > 0 and v["hot"]["p_adj"] < 0.001, v["hot"]
PY
echo "ok: -j"

# usage: one recording in a group, one group
"$PRF" diff --stat "$T/a1.data" "$B" > /dev/null 2>"$T/err"
[ $? -eq 129 ] && [ -s "$T/err" ] || fail "--stat with a one-run group: want 129 and a message"
"$PRF" diff --stat "$A" > /dev/null 2>"$T/err"
[ $? -eq 129 ] && [ -s "$T/err" ] || fail "--stat with one group: want 129 and a message"
echo "ok: usage errors"
