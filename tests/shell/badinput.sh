#!/bin/bash
# Bad input everywhere: missing/non-perf/foreign files, dead pid, unknown event, bad -F/-m, read-only output: one clear error, non-zero exit, no crash or hang
# Every command runs under `timeout 20`: a hang (124) or a signal (>= 130)
# fails, as does any sanitizer report. Where Linux perf accepts the input
# with a note (-m 3 is rounded up to a power of two; a file whose HEADER_ARCH
# names another architecture is read), prf must behave as perf does.
set -u
PERF=${PERF_BIN:-/usr/bin/perf}
T=$(mktemp -d /tmp/prf-badinput.XXXXXX)
MNT=
cleanup() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# run WHAT CMD...: sets rc, err (stderr), out (stdout); fails on hang/signal/sanitizer
run() {
	local what=$1
	shift
	timeout 20 "$@" >out.txt 2>err.txt </dev/null
	rc=$?
	[ $rc -eq 124 ] && fail "$what: hung (killed after 20 s): $*"
	# prf exits 0, 1, 128 (fatal) or 129 (usage); 130 and up is a signal
	[ $rc -ge 130 ] && fail "$what: killed by signal $((rc - 128)): $(tail -3 err.txt)"
	grep -q -e 'Sanitizer' -e 'runtime error:' err.txt && fail "$what: sanitizer: $(grep -m1 -e Sanitizer -e 'runtime error:' err.txt)"
	return 0
}
# must_fail WHAT REGEX CMD...: non-zero exit and a stderr line matching REGEX
must_fail() {
	local what=$1 re=$2
	shift 2
	run "$what" "$@"
	[ $rc -ne 0 ] || fail "$what: exit 0 for bad input: $*"
	grep -q -E -- "$re" err.txt || fail "$what: no line matching '$re' in: $(head -5 err.txt)"
	echo "ok: $what -> exit $rc: $(grep -m1 -E -- "$re" err.txt)"
}

# --- input files ------------------------------------------------------------
must_fail "report, missing -i file" "does-not-exist\.data.*No such file" "$PRF" report --stdio -i does-not-exist.data
must_fail "script, missing -i file" "does-not-exist\.data.*No such file" "$PRF" script -i does-not-exist.data
printf 'this is a text file, certainly not a profile\n' >text.data
must_fail "report, text file" "text\.data.*not a perf\.data" "$PRF" report --stdio -i text.data
must_fail "script, text file" "text\.data.*not a perf\.data" "$PRF" script -i text.data
must_fail "report, text on a pipe" "not a perf\.data" sh -c "cat text.data | '$PRF' report --stdio -i -"
printf 'PERFILE2' >short.data
must_fail "report, 8-byte file" "short\.data.*not a perf\.data" "$PRF" report --stdio -i short.data
mkdir adir
must_fail "report, a directory" "adir.*Is a directory" "$PRF" report --stdio -i adir

if [ -x "$PERF" ] && "$PERF" record -q -F 999 -o good.data -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
	# other byte order, header only: magic and header fields byte-swapped,
	# the rest left as it is, so the file is inconsistent: a clean error or
	# a read of what makes sense, never a crash
	python3 - <<'PY' || fail "python"
import struct
d = bytearray(open('good.data', 'rb').read())
n = 13  # magic, size, attr_size, attrs/data/event_types sections (3 x 2)
vals = struct.unpack_from('<13Q', d, 0)
struct.pack_into('>13Q', d, 0, *vals)
# the feature bitmap (4 x u64) as a big-endian writer stores it
bits = struct.unpack_from('<4Q', d, 104)
struct.pack_into('>4Q', d, 104, *bits)
open('swapped-header.data', 'wb').write(d)
PY
	run "report, header in the other byte order" "$PRF" report --stdio -i swapped-header.data
	[ $rc -le 1 ] || fail "swapped header: exit $rc"
	[ $rc -eq 0 ] || [ -s err.txt ] || fail "swapped header: failed without a message"
	echo "ok: swapped header -> exit $rc: $(head -1 err.txt)"

	# another architecture: HEADER_ARCH says arm64; perf reads it; prf must
	# give the same report
	python3 - <<'PY' || fail "python"
d = bytearray(open('good.data', 'rb').read())
i = d.find(b"\x40\x00\x00\x00x86_64\x00")
if i < 0:
    raise SystemExit(0)
d[i + 4:i + 11] = b"arm64\x00\x00"
open('arch.data', 'wb').write(d)
PY
	if [ -f arch.data ]; then
		"$PRF" report --header-only -i arch.data 2>/dev/null | grep -q "^# arch : arm64" || fail "arch patch not seen by prf --header-only"
		run "report, file from another arch" "$PRF" report --stdio -i arch.data
		[ $rc -eq 0 ] || fail "arm64 file: exit $rc: $(head -3 err.txt)"
		"$PERF" report --stdio -i arch.data 2>/dev/null | grep -v '^#' | grep -v '^$' >perf.rep
		grep -v '^#' out.txt | grep -v '^$' >prf.rep
		[ -s perf.rep ] || fail "perf read nothing from arch.data"
		diff perf.rep prf.rep >arch.diff || fail "arm64 file: prf and perf reports differ: $(head -10 arch.diff)"
		echo "ok: file from another arch reads as perf reads it"
	fi
else
	echo "note: no Linux perf recording; swapped/arch cases not run"
fi

# --- record/stat options -------------------------------------------------------
sleep 0 & dead=$!
wait $dead
must_fail "record -p dead pid" "$dead.*(No such process|not found|find)" "$PRF" record -o p.data -p "$dead"
must_fail "stat -p dead pid" "$dead.*(No such process|not found|find)" "$PRF" stat -p "$dead"
must_fail "record, unknown event" "unknown event 'bogus_event_xyz'|bogus_event_xyz" "$PRF" record -e bogus_event_xyz -o e.data -- true
must_fail "stat, unknown event" "bogus_event_xyz" "$PRF" stat -e bogus_event_xyz -- true
must_fail "record -F 0" "frequency" "$PRF" record -F 0 -o f.data -- true
must_fail "record -F 10000000 --strict-freq" "Maximum frequency rate.*exceeded" "$PRF" record -F 10000000 --strict-freq -o f.data -- true
grep -q perf_event_max_sample_rate err.txt || fail "-F 10000000: message does not say which limit (perf_event_max_sample_rate)"
must_fail "record -F garbage" "freq|-F" "$PRF" record -F 12abc -o f.data -- true
must_fail "record -m 0" "mmap|-m" "$PRF" record -m 0 -o m.data -- true
must_fail "record -m garbage" "mmap|-m" "$PRF" record -m 3x -o m.data -- true
# -m 3 is not a power of two: perf 6.1 rounds it up to 4 pages with a note
run "record -m 3" "$PRF" record -m 3 -o m3.data -- true
prc=$rc
grep -q -E "rounding mmap pages size to 16K \(4 pages\)|power of two" err.txt ||
	fail "-m 3: no note about the page count: $(head -3 err.txt)"
if [ -x "$PERF" ]; then
	"$PERF" record -m 3 -o pm3.data -- true >/dev/null 2>perf.err
	perc=$?
	[ $prc -eq $perc ] || fail "-m 3: prf exit $prc, perf exit $perc"
fi
echo "ok: record -m 3 -> exit $prc: $(head -1 err.txt)"

# --- output that cannot be written --------------------------------------------------
must_fail "record into a missing directory" "no/such/dir/x\.data.*No such file" "$PRF" record -o no/such/dir/x.data -- true
mkdir ro
if mount -t tmpfs -o ro,size=1M tmpfs ro 2>/dev/null; then
	MNT=$T/ro
	must_fail "record into a read-only directory" "ro/x\.data.*Read-only file system" "$PRF" record -o ro/x.data -- true
	umount ro && MNT=
else
	chmod 555 ro
	if [ "$(id -u)" -ne 0 ]; then
		must_fail "record into a read-only directory" "ro/x\.data.*Permission denied" "$PRF" record -o ro/x.data -- true
	else
		echo "note: cannot mount a read-only tmpfs; read-only output not checked"
	fi
fi
exit 0
