#!/bin/bash
# prf data convert --to-json writes what perf data convert --to-json writes (byte for byte)
# Records with /usr/bin/perf (the reference) with and without -g, converts
# with both, and compares the files whole: header, every sample, every
# callchain frame (ip, symbol, DSO). Also: an existing output needs
# --force, an unwritable output leaves no file, bad option sets exit 129.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup convert-json

cc_prog tree	# main -> a -> b -> leaf (lib/tree.c)
perf_record "$T/g.data" -F 999 -g -- "$T/tree" 60000
perf_record "$T/nog.data" -F 999 -- "$T/tree" 30000

for d in g nog; do
	"$PERF" data convert -i "$T/$d.data" --to-json "$T/$d.perf.json" >/dev/null 2>&1 ||
		fail "perf data convert $d"
	prf_out "$T/$d.out" data convert -i "$T/$d.data" --to-json "$T/$d.json"
	grep -q "Converted and wrote .* MB ([0-9]* samples)" "$T/$d.out.err" || fail "no summary line"
	cmp -s "$T/$d.perf.json" "$T/$d.json" ||
		{ diff "$T/$d.perf.json" "$T/$d.json" | head -20; fail "$d: JSON differs from perf's"; }
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["samples"]' "$T/$d.json" ||
		fail "$d: not JSON with samples"
	echo "ok: $d: $(grep -c '"timestamp"' "$T/$d.json") samples, identical to perf's"
done
# the leaf function of the test program is in the callchains
grep -q '"symbol": "leaf"' "$T/g.json" || fail "no leaf frame"

# --time: the samples perf script --time selects (percent slices and an
# absolute range)
first=$("$PERF" script -i "$T/g.data" -F time 2>/dev/null | head -1 | tr -d ' :')
last=$("$PERF" script -i "$T/g.data" -F time 2>/dev/null | tail -1 | tr -d ' :')
mid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (a + b) / 2 }')
for t in "0%-50%" "10%/2" "$first,$mid"; do
	want=$("$PERF" script -i "$T/g.data" --time "$t" 2>/dev/null | grep -c 'cpu-clock')
	prf_out "$T/t.out" data convert -i "$T/g.data" --to-json "$T/t.json" -f --time "$t"
	got=$(grep -c '"timestamp"' "$T/t.json")
	[ "$got" -eq "$want" ] && [ "$got" -gt 0 ] || fail "--time $t: $got samples, perf script $want"
done
"$PRF" data convert -i "$T/g.data" --to-json "$T/t.json" -f --time bogus 2>/dev/null
[ $? -eq 129 ] || fail "--time bogus: want 129"
echo "ok: --time as perf script's"

# an existing output file is kept unless --force
echo keep > "$T/exists.json"
"$PRF" data convert -i "$T/nog.data" --to-json "$T/exists.json" 2>"$T/exists.err"
rc=$?
[ $rc -eq 1 ] || fail "existing output: exit $rc, want 1"
grep -q "use --force" "$T/exists.err" || fail "existing output: no hint at --force"
[ "$(cat "$T/exists.json")" = keep ] || fail "existing output overwritten"
prf_out "$T/force.out" data convert -i "$T/nog.data" --to-json "$T/exists.json" --force
cmp -s "$T/exists.json" "$T/nog.json" || fail "--force output differs"

# an output that cannot be written: exit 1, a message, no file left behind
"$PRF" data convert -i "$T/nog.data" --to-json "$T/no/such/dir/x.json" 2>"$T/nodir.err"
rc=$?
[ $rc -eq 1 ] || fail "unwritable output: exit $rc, want 1"
grep -q "no/such/dir" "$T/nodir.err" || fail "unwritable output: message does not name it"
ls "$T" | grep -q '\.tmp\.' && fail "temporary file left behind"

# usage errors
"$PRF" data convert -i "$T/nog.data" 2>/dev/null
[ $? -eq 129 ] || fail "no format: want 129"
"$PRF" data convert -i "$T/nog.data" --to-json "$T/a.json" --to-pprof "$T/a.pb.gz" 2>/dev/null
[ $? -eq 129 ] || fail "two formats: want 129"
[ -e "$T/a.json" ] && fail "usage error wrote a file"
echo "ok: --force, unwritable output, usage errors"

# a truncated input converts what was read, with the reader's summary:
# exit 1 for the partial result, 0 with -f (which also overwrites)
# (cut in the middle of the data section, wherever the recording's
# side-band records put it)
python3 - "$T/g.data" "$T/trunc.data" <<'PY' || fail "truncating g.data"
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)	# the header's data section
assert size > 1000, size
open(sys.argv[2], 'wb').write(b[:off + size // 2])
PY
"$PRF" data convert -i "$T/trunc.data" --to-json "$T/trunc.json" 2>"$T/trunc.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/trunc.err"; fail "truncated input: exit $rc, want 1"; }
grep -q "partial result" "$T/trunc.err" || { cat "$T/trunc.err"; fail "truncated input: no summary"; }
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["samples"]' "$T/trunc.json" ||
	fail "truncated input: no valid JSON with samples"
"$PRF" data convert -f -i "$T/trunc.data" --to-json "$T/trunc.json" 2>"$T/trunc.err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/trunc.err"; fail "truncated input with -f: exit $rc, want 0"; }
# pipe input
"$PERF" record -q -F 999 -g -o - -- "$T/tree" 20000 2>/dev/null |
	"$PRF" data convert -i - --to-json "$T/pipe.json" 2>"$T/pipe.err" || { cat "$T/pipe.err"; fail "pipe input"; }
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["samples"]' "$T/pipe.json" ||
	fail "pipe input: no valid JSON with samples"
echo "ok: truncated and pipe input"
