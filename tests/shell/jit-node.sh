#!/bin/bash
# node --perf-prof (a real JIT writing jit-PID.dump): prf report names the JavaScript functions without inject, and after prf inject --jit perf report names them too, as after perf inject --jit
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup jit-node node
cd "$T" || fail "cd $T"
cat > "$T/hot.js" <<'JS'
function prfHotAlpha(n) { let s = 0; for (let i = 0; i < n; i++) s += (i * i) % 7; return s; }
function prfHotBeta(n) { let s = 0; for (let i = 0; i < n; i++) s ^= (i * 31) % 11; return s; }
let t = 0; const end = Date.now() + 700;
while (Date.now() < end) { t += prfHotAlpha(200000); t += prfHotBeta(200000); }
if (t === 0) console.log("never");
JS
node --perf-prof --interpreted-frames-native-stack -e 0 >/dev/null 2>&1 ||
	{ echo "node has no --perf-prof"; exit 2; }
rm -f "$T"/jit-*.dump
prf_out "$T/rec.out" record -k 1 -F 999 -o "$T/node.data" -- \
	node --perf-prof --interpreted-frames-native-stack "$T/hot.js"
ls "$T"/jit-*.dump >/dev/null 2>&1 || fail "node wrote no jitdump"

# without inject
prf_out "$T/rep" report -i "$T/node.data" --stdio --no-children -s dso,sym
for f in prfHotAlpha prfHotBeta; do
	grep -q "\[JIT\] tid [0-9]* *\[\.\] JS:[*~^]\?$f $T/hot.js:" "$T/rep" ||
		{ head -30 "$T/rep"; fail "prf report: no $f"; }
done
prf_out "$T/script" script -i "$T/node.data" -F ip,sym
grep -q "JS:.*prfHotAlpha" "$T/script" || fail "prf script: no prfHotAlpha"
echo "ok: prf report and script name the JavaScript functions from node's jitdump"

# inject --jit, read by perf; the same entries as perf inject --jit's
prf_out "$T/inj.out" inject --jit -i "$T/node.data" -o "$T/prf-jit.data"
names() { "$PERF" report --stdio --no-children -i "$1" -s dso,sym 2>/dev/null | grep -v '^# (Tip:'; }
names "$T/prf-jit.data" > "$T/prf.rep"
for f in prfHotAlpha prfHotBeta; do
	grep -q "jitted-[0-9]*-[0-9]*\.so *\[\.\] JS:[*~^]\?$f $T/hot.js:" "$T/prf.rep" ||
		{ head -30 "$T/prf.rep"; fail "perf report after prf inject --jit: no $f"; }
done
rm -f "$T"/jitted-*.so
"$PERF" inject --jit -i "$T/node.data" -o "$T/perf-jit.data" || fail "perf inject --jit"
names "$T/perf-jit.data" > "$T/perf.rep"
cmp -s "$T/prf.rep" "$T/perf.rep" || { diff "$T/prf.rep" "$T/perf.rep" | head; fail "perf report differs between prf's and perf's inject --jit"; }
echo "ok: perf report after prf inject --jit: $(grep -c 'jitted-' "$T/prf.rep") JIT entries, as after perf inject --jit"
exit 0
