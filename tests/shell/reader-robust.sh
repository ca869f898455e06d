#!/bin/bash
# perf.data reader robustness: truncated, bit-flipped, empty and non-perf files give a message, never a crash
# prf-test: serial: records system-wide (-a)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup reader-robust
cd "$T" || exit 1

perf_record good.data -a -F 999 -g -- sleep 0.3
size=$(stat -c %s good.data)

# exit status must be 0 or 1 with a message, never a signal (>= 128) or a sanitizer report
run() { # what file
	local rc
	for sub in "dump --ordered" header stats; do
		# shellcheck disable=SC2086
		"$PRF" data $sub -i "$2" >out.txt 2>err.txt
		rc=$?
		[ $rc -le 1 ] || fail "$1: prf data $sub exit $rc: $(tail -3 err.txt)"
		grep -q -e 'Sanitizer' -e 'runtime error' err.txt && fail "$1: prf data $sub: $(grep -m1 -e Sanitizer -e 'runtime error' err.txt)"
	done
	return 0
}

: >empty.data
"$PRF" data dump -i empty.data >/dev/null 2>err.txt && fail "empty file accepted"
grep -q 'empty' err.txt || fail "empty file: no clear message: $(cat err.txt)"
echo "just text, not a profile" >text.data
"$PRF" data dump -i text.data >/dev/null 2>err.txt && fail "text file accepted"
grep -q 'not a perf.data file' err.txt || fail "text file: no clear message: $(cat err.txt)"
"$PRF" data dump -i does-not-exist.data >/dev/null 2>err.txt && fail "missing file accepted"
grep -q 'does-not-exist' err.txt || fail "missing file: message does not name it"

# truncated at several offsets; a cut inside the data reports the offset and keeps what was read
total=$("$PRF" data dump -i good.data | grep -c PERF_RECORD_SAMPLE)
for cut in 8 64 104 200 300 $((size / 4)) $((size / 2)) $((size - 300)) $((size - 1)); do
	head -c "$cut" good.data >cut.data
	run "cut at $cut" cut.data
done
# cut inside the sample in the middle of the data, off a record boundary
mid=$("$PRF" data dump -i good.data | grep PERF_RECORD_SAMPLE | sed -n "$((total / 2))p" | cut -d' ' -f1)
[ -n "$mid" ] || fail "no middle sample in the recording ($total samples)"
head -c $((mid + 5)) good.data >half.data
n=$("$PRF" data dump -i half.data 2>err.txt | grep -c PERF_RECORD_SAMPLE)
grep -q 'bad record at offset 0x[0-9a-f]*' err.txt || fail "half file: no 'bad record at offset' message: $(cat err.txt)"
grep -q 'data section truncated' err.txt || fail "half file: truncation not reported: $(cat err.txt)"
[ "$n" -gt 0 ] && [ "$n" -lt "$total" ] || fail "half file: $n of $total samples delivered"
"$PRF" data dump -i half.data >/dev/null 2>&1 && fail "half file: exit status 0"

# data size 0 in the header (killed recorder): read to the end of the file
python3 - good.data zero.data <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', d, 40)
d = d[:off + size]                    # drop the features, as a killed perf leaves it
struct.pack_into('<Q', d, 48, 0)      # data.size = 0
struct.pack_into('<4Q', d, 72, 0, 0, 0, 0)
open(sys.argv[2], 'wb').write(d)
PY
n=$("$PRF" data dump -i zero.data 2>err.txt | grep -c PERF_RECORD_SAMPLE)
[ "$n" = "$total" ] || fail "data size 0: $n of $total samples: $(head -2 err.txt)"

# bit flips and random bytes
python3 - good.data <<'PY'
import random, sys
d = open(sys.argv[1], 'rb').read()
r = random.Random(4)
for i in range(40):
    m = bytearray(d)
    if i % 2:
        for _ in range(r.randint(1, 6)):
            p = r.randrange(len(m)); m[p] ^= 1 << r.randrange(8)
    else:
        p = r.randrange(min(len(m), 512)); m[p] = r.randrange(256)
    open('flip%02d.data' % i, 'wb').write(m)
PY
for f in flip*.data; do
	run "$f" "$f"
done
echo "truncated, bit-flipped, empty, text and zero-size files handled"
exit 0
