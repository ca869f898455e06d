#!/bin/bash
# jitdump: a program writing a jitdump (jit-PID.dump) and running its code: prf report, script and flamegraph name the JIT functions without inject; prf inject --jit writes jitted-PID-N.so images that perf report names with their lines
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup jit-jitdump
[ "$(uname -m)" = x86_64 ] || { echo "the test JIT writes x86-64 code"; exit 2; }
cc_prog jitdump-writer
cd "$T" || fail "cd $T"

prf_out "$T/rec.out" record -k 1 -F 999 -o "$T/jit.data" -- "$T/jitdump-writer" 150
ls "$T"/jit-*.dump >/dev/null 2>&1 || fail "no jitdump written"

# without inject: the dump named by the process's mapping names the code
prf_out "$T/rep" report -i "$T/jit.data" --stdio --no-children -s dso,sym
for f in jitted_alpha_loop jitted_beta_loop; do
	grep -q "\[JIT\] tid [0-9]* *\[\.\] $f$" "$T/rep" || { cat "$T/rep"; fail "report: no $f"; }
done
prf_out "$T/script" script -i "$T/jit.data" -F ip,sym
grep -q ' jitted_beta_loop$' "$T/script" || fail "script: no jitted_beta_loop"
prf_out "$T/folded" script -i "$T/jit.data" --folded
grep -q 'jitted_alpha_loop' "$T/folded" || fail "script --folded: no jitted_alpha_loop"
prf_out "$T/fg.out" flamegraph -i "$T/jit.data" -o "$T/flame.html"
grep -q 'jitted_beta_loop' "$T/flame.html" || fail "flamegraph: no jitted_beta_loop"
echo "ok: report, script, folded and flamegraph name the JIT code from the dump"

# perf-PID.map is still read, beside the dump
pid=$(ls "$T"/jit-*.dump | sed 's/.*jit-\([0-9]*\)\.dump/\1/')
[ -e "/tmp/perf-$pid.map" ] && fail "/tmp/perf-$pid.map exists already"
trap 'rm -rf "$T" "/tmp/perf-$pid.map"' EXIT
addr=$(sed -n 's/^ *\([0-9a-f]*\) jitted_alpha_loop$/\1/p' "$T/script" | head -1)
[ -n "$addr" ] || fail "no address of jitted_alpha_loop"
printf '%x 1 map_named_alpha\n' "$((0x$addr))" > "/tmp/perf-$pid.map"
prf_out "$T/rep.map" report -i "$T/jit.data" --stdio --no-children -s sym
grep -q 'map_named_alpha' "$T/rep.map" || { cat "$T/rep.map"; fail "perf-PID.map not read beside the dump"; }
rm -f "/tmp/perf-$pid.map"

# inject --jit: perf report of prf's output as of perf's
prf_out "$T/inj.out" inject --jit -i "$T/jit.data" -o "$T/prf-jit.data"
ls "$T"/jitted-"$pid"-1.so "$T"/jitted-"$pid"-2.so >/dev/null || fail "no jitted-$pid-N.so images"
# the JIT images' entries only (the kernel's srclines are another matter)
jdsos="jitted-$pid-1.so,jitted-$pid-2.so"
report() { "$PERF" report --stdio --no-children -i "$1" -s dso,sym,srcline -d "$jdsos" 2>/dev/null | grep -v '^# (Tip:'; }
report "$T/prf-jit.data" > "$T/prf.rep"
grep -q "jitted-$pid-2.so *\[\.\] jitted_beta_loop *fake_jit.js:2[01]$" "$T/prf.rep" ||
	{ head -20 "$T/prf.rep"; fail "perf report: no jitted_beta_loop with its line"; }
prf_out "$T/prf.self" report --stdio --no-children -i "$T/prf-jit.data" -s dso,sym,srcline -d "$jdsos"
grep -v '^# (Tip:' "$T/prf.self" > "$T/prf.self2"
cmp -s "$T/prf.self2" "$T/prf.rep" || { diff "$T/prf.self2" "$T/prf.rep" | head; fail "prf report differs from perf report on the injected file"; }
# perf 6.1's images end each line table at its last entry (the loop after
# it has no line there: ??:0), prf's at the end of the code
# (Documentation/prf-inject.txt): perf's own output is compared by names
names() { "$PERF" report --stdio --no-children -i "$1" -s dso,sym 2>/dev/null | grep -v '^# (Tip:'; }
names "$T/prf-jit.data" > "$T/prf.names"
rm -f "$T"/jitted-*.so
"$PERF" inject --jit -i "$T/jit.data" -o "$T/perf-jit.data" || fail "perf inject --jit"
names "$T/perf-jit.data" > "$T/perf.names"
cmp -s "$T/prf.names" "$T/perf.names" || { diff "$T/prf.names" "$T/perf.names" | head; fail "perf report differs between prf's and perf's inject --jit"; }
echo "ok: inject --jit: $(grep -c jitted "$T/prf.rep") JIT entries, names and lines as perf inject --jit's"

# a dump moved away from where it was mapped is found under
# BUILDID_DIR/jit/*/ (~/.debug/jit, where perf's JVM agent writes them)
dump=$(ls "$T"/jit-*.dump)
mkdir -p "$T/home/.debug/jit/java-jit-test" && mv "$dump" "$T/home/.debug/jit/java-jit-test/"
HOME="$T/home" "$PRF" report -i "$T/jit.data" --stdio --no-children -s sym > "$T/rep.moved" 2>&1 ||
	fail "report with the dump moved"
grep -q '\[\.\] jitted_beta_loop$' "$T/rep.moved" || { head -20 "$T/rep.moved"; fail "dump under ~/.debug/jit not found"; }
"$PRF" report -i "$T/jit.data" --stdio --no-children -s sym > "$T/rep.gone" 2>&1 || fail "report with the dump gone"
grep -q 'jitted_beta_loop' "$T/rep.gone" && fail "names without the dump"
mv "$T/home/.debug/jit/java-jit-test/$(basename "$dump")" "$dump"
echo "ok: the dump is found under ~/.debug/jit when moved there"

# a damaged dump: what precedes the damage still names the code
dump=$(ls "$T"/jit-*.dump)
# header 40 bytes, alpha's CODE_DEBUG_INFO 98, its CODE_LOAD 90: cut in
# beta's records
head -c 250 "$dump" > "$T/cut" && cp "$T/cut" "$dump"
"$PRF" report -i "$T/jit.data" --stdio --no-children -s sym > "$T/rep.cut" 2>&1 || fail "report with a cut dump"
grep -q '\[\.\] jitted_alpha_loop$' "$T/rep.cut" || { head -20 "$T/rep.cut"; fail "cut dump: alpha not named"; }
grep -q 'jitted_beta_loop' "$T/rep.cut" && fail "cut dump: beta named"
echo "ok: a cut dump names the functions before the cut"
exit 0
