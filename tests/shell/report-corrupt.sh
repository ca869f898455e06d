#!/bin/bash
# prf report on truncated, bit-flipped and non-perf.data files: clear message, documented exit status, no crash
# Exit status (Documentation/prf-report.txt): 0 for a whole read (single
# bad records skipped and counted), 1 when the input cannot be used (not
# perf.data, header truncated, missing file) and 1 for a partial report
# (reading stopped at damage: the report of what was read, a summary;
# -f/--force exits 0 with it). Never a signal. Set PRF_ASAN to an ASan build
# of prf (make SANITIZE=address) to also run every case under ASan.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-corrupt

"$PERF" record -q -F 2999 -g -o "$T/good.data" -- sh -c 'for i in 1 2 3 4 5 6; do ls -lR /usr/lib >/dev/null; done' \
	>/dev/null 2>"$T/rec.err" || { cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
size=$(stat -c %s "$T/good.data")

BINS=("$PRF")
[ -n "${PRF_ASAN:-}" ] && [ -x "$PRF_ASAN" ] && BINS+=("$PRF_ASAN")

run() { # EXPECTED_RC FILE WHAT [pattern on stderr]
	local want=$1 f=$2 what=$3 pat=${4:-}
	for bin in "${BINS[@]}"; do
		timeout 60 "$bin" report -i "$f" --stdio > "$T/out" 2> "$T/err"; rc=$?
		[ $rc -lt 128 ] || { tail -5 "$T/err"; fail "$what: killed by a signal (rc $rc) [$bin]"; }
		grep -q "AddressSanitizer\|runtime error" "$T/err" && { head -20 "$T/err"; fail "$what: sanitizer report [$bin]"; }
		[ $rc -eq "$want" ] || { cat "$T/err"; fail "$what: exit $rc, want $want [$bin]"; }
		if [ -n "$pat" ]; then
			grep -q "$pat" "$T/err" || { cat "$T/err"; fail "$what: no message matching '$pat'"; }
		fi
		[ "$(wc -l < "$T/err")" -lt 200 ] || fail "$what: error flood on stderr"
	done
	echo "ok: $what (exit $rc)"
}

run 0 "$T/good.data" "intact file"
grep -q "^# Samples: " "$T/out" || fail "intact file: no report"

# truncated in the data section: the report of what was read, a summary,
# exit 1 (-f: 0)
head -c $((size / 2)) "$T/good.data" > "$T/half.data"
run 1 "$T/half.data" "truncated in the data" "partial result: reading stopped at offset 0x"
grep -q "^# Samples: " "$T/out" || fail "truncated: no partial report"
"$PRF" report -f -i "$T/half.data" --stdio > "$T/out" 2> "$T/err" || fail "truncated, -f: exit $?"
grep -q "^# Samples: " "$T/out" || fail "truncated, -f: no partial report"
grep -q "partial result" "$T/err" || fail "truncated, -f: no summary"

# truncated inside the file header: unusable
head -c 60 "$T/good.data" > "$T/hdr.data"
run 1 "$T/hdr.data" "truncated header" "hdr.data"

# empty and non-perf files
: > "$T/empty.data"
run 1 "$T/empty.data" "empty file" "empty.data"
head -c 4096 /dev/urandom > "$T/random.data"
run 1 "$T/random.data" "random bytes" "random.data"
run 1 "$T/missing.data" "missing file" "missing.data"

# bit flips in the data section: bad records skipped, no crash
for seed in 1 2 3 4 5; do
	python3 - "$T/good.data" "$T/flip$seed.data" "$seed" <<'PY'
import random, struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
r = random.Random(int(sys.argv[3]))
off, size = struct.unpack_from("<QQ", d, 40)   # data section
for _ in range(300):
    i = r.randrange(off, min(off + size, len(d)))
    d[i] ^= 1 << r.randrange(8)
open(sys.argv[2], "wb").write(d)
PY
	for bin in "${BINS[@]}"; do
		timeout 60 "$bin" report -i "$T/flip$seed.data" --stdio > "$T/out" 2> "$T/err"; rc=$?
		[ $rc -lt 128 ] || { tail -5 "$T/err"; fail "bit flips seed $seed: signal (rc $rc) [$bin]"; }
		grep -q "AddressSanitizer\|runtime error" "$T/err" && { head -20 "$T/err"; fail "bit flips seed $seed: sanitizer report"; }
		[ $rc -le 1 ] || fail "bit flips seed $seed: exit $rc"
	done
	echo "ok: bit flips seed $seed (exit $rc)"
done
exit 0
