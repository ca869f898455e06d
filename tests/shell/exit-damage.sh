#!/bin/bash
# Damaged perf.data at known offsets (zeroed block, truncation, bad header fields, one unknown record): every read-side command prints what was read, the summary, and exits 1 (0 with -f) for a partial read, 0 with a count for skipped records
# The rule (session.h: perf_session__read_status(), the commands' EXIT
# STATUS): reading stopped before the end of the data -> the output of the
# records read, "partial result: reading stopped at offset 0x..." with the
# bytes not read, exit 1, -f/--force exit 0 with the same output; single
# records skipped with reading going on -> "N of M records skipped", exit
# 0; a header field out of the format's limits -> the field and its offset
# named, exit 1. Linux perf 6.1 on the same files: perf script exits
# non-zero on the zeroed block and the truncation, and refuses the
# impossible header.size, as prf does.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup exit-damage
cd "$T" || exit 1

perf_record good.data -F 999 -g -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls -lR /usr/share/doc >/dev/null'

# data section and the record offsets of the intact file
read -r doff dsize < <(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
print(*struct.unpack_from("<QQ", d, 40))' good.data)
"$PRF" data dump -i good.data > good.dump 2>good.err || { cat good.err; fail "data dump of the intact file"; }
nsamples=$(grep -c PERF_RECORD_SAMPLE good.dump)
[ "$nsamples" -gt 40 ] || fail "only $nsamples samples recorded"

# the read-side commands, as "name|arguments" (the input follows -i)
CMDS=("report|report --stdio" "stats|report --stdio --stats" "script|script" "folded|script --folded"
      "flamegraph|flamegraph -o fg.html" "dump|data dump" "dstats|data stats")

# check_all FILE WANT: every command on FILE exits WANT, never by a signal
check_all() {
	local f=$1 want=$2 c name args rc
	for c in "${CMDS[@]}"; do
		name=${c%%|*}
		args=${c#*|}
		# shellcheck disable=SC2086
		timeout 60 "$PRF" $args -i "$f" > "$name.out" 2> "$name.err"
		rc=$?
		[ $rc -lt 124 ] || fail "$f: prf $args: exit $rc (signal or hang): $(tail -2 "$name.err")"
		[ $rc -eq "$want" ] || { cat "$name.err"; fail "$f: prf $args: exit $rc, want $want"; }
	done
}

# the intact file: exit 0, no summary
check_all good.data 0
for c in "${CMDS[@]}"; do
	name=${c%%|*}
	[ -s "$name.err" ] && { cat "$name.err"; fail "intact file: prf ${c#*|} printed messages"; }
done
echo "ok: intact file, $nsamples samples: every command exits 0 without a message"

# every_err WHAT PATTERN: every command's messages have a line matching PATTERN
every_err() {
	local c
	for c in "${CMDS[@]}"; do
		grep -q -- "$2" "${c%%|*}.err" || { cat "${c%%|*}.err"; fail "$1: prf ${c#*|}: no line matching '$2'"; }
	done
}

# partial FILE: the summary of a partial read on every command; its stop offset (hex)
partial() {
	every_err "$1" "partial result: reading stopped at offset 0x[0-9a-f]* "
	every_err "$1" "exit status 1 for a partial result (-f/--force: 0)"
	every_err "$1" "$1"
	sed -n 's/.*partial result: reading stopped at offset \(0x[0-9a-f]*\) .*/\1/p' script.err | head -1
}

# samples_before OFF: samples of the intact file at offsets below OFF
samples_before() {
	python3 -c '
import sys
lim = int(sys.argv[1], 0)
print(sum(1 for l in open("good.dump") if "PERF_RECORD_SAMPLE" in l and int(l.split()[0], 16) < lim))' "$1"
}

# --- a 4 KB zeroed block in the data section ------------------------------
zoff=$((doff + 4000))
python3 -c '
import sys
d = bytearray(open("good.data", "rb").read())
o = int(sys.argv[1]); d[o:o + 4096] = bytes(4096)
open("zero.data", "wb").write(d)' $zoff
check_all zero.data 1
stop=$(partial zero.data) || exit 1
[ $((stop)) -ge $zoff ] && [ $((stop)) -lt $((zoff + 4096)) ] || fail "zeroed block at $zoff: stop at $stop"
grep -q "(record size too small)" script.err || fail "zeroed block: reason: $(cat script.err)"
# the bytes not read and their share: from the stop to the end of the data section
left=$((doff + dsize - stop))
pct=$(python3 -c "print('%.1f' % (100.0 * $left / $dsize))")
grep -q "; $left of $dsize bytes of the data section ($pct%) not read, about [0-9]* records; [0-9]* records read$" script.err ||
	{ cat script.err; fail "zeroed block: summary does not say $left of $dsize bytes ($pct%)"; }
# what was read is printed: the samples before the block, all of them
want=$(samples_before "$stop")
[ "$want" -gt 0 ] || fail "zeroed block: no sample before $stop"
got=$(grep -c PERF_RECORD_SAMPLE dump.out)
[ "$got" -eq "$want" ] || fail "zeroed block: data dump printed $got samples, $want precede the block"
got=$("$PRF" script -f -F tid,time -i zero.data 2>/dev/null | grep -c .)
[ "$got" -eq "$want" ] || fail "zeroed block: script printed $got samples, $want precede the block"
grep -q "^# Samples: " report.out || fail "zeroed block: no partial report"
[ -s fg.html ] && [ -s folded.out ] || fail "zeroed block: no partial flame graph or folded stacks"
# -f: the same output, exit 0, the summary without the exit-status line
"$PRF" script -i zero.data > s1.out 2>/dev/null
"$PRF" script -f -i zero.data > s2.out 2> s2.err || fail "zeroed block: script -f exit $?"
cmp -s s1.out s2.out || fail "zeroed block: script -f prints another output"
grep -q "partial result" s2.err || fail "zeroed block: script -f: no summary"
grep -q "exit status 1" s2.err && fail "zeroed block: script -f says exit status 1"
for a in "report --stdio" "flamegraph -o fg.html" "data dump" "data stats" "script --folded"; do
	# shellcheck disable=SC2086
	"$PRF" $a -f -i zero.data > /dev/null 2>&1 || fail "zeroed block: prf $a -f: exit $?"
done
# Linux perf: script fails on the same file too
"$PERF" script -i zero.data > /dev/null 2>&1 && fail "zeroed block: perf script exits 0 (test premise)"
echo "ok: zeroed block at $zoff: stop at $stop, $want of $nsamples samples printed, exit 1 (perf script: non-zero), -f exit 0"

# --- truncated in the middle of the data section --------------------------
cut=$((doff + dsize / 2 + 3))
head -c $cut good.data > half.data
check_all half.data 1
stop=$(partial half.data) || exit 1
grep -q "(file truncated)" script.err || fail "truncation: reason: $(cat script.err)"
grep -q "data section truncated (header says $dsize bytes" script.err || fail "truncation: not named"
left=$((doff + dsize - stop))
grep -q "; $left of $dsize bytes of the data section" script.err || { cat script.err; fail "truncation: $left of $dsize bytes not said"; }
want=$(samples_before "$stop")
got=$(grep -c PERF_RECORD_SAMPLE dump.out)
[ "$got" -eq "$want" ] && [ "$got" -gt 0 ] || fail "truncation: $got samples dumped, $want before $stop"
cp dump.out half.dump
"$PERF" script -i half.data > /dev/null 2>&1 && fail "truncation: perf script exits 0 (test premise)"
# through a pipe: the stream ends inside a record
"$PRF" report --stdio -i - < half.data > /dev/null 2>pipe.err
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "truncated file on stdin: exit $rc"
"$PERF" record -q -o - -F 999 -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' > pipe.data 2>/dev/null ||
	fail "perf record -o -"
psize=$(stat -c %s pipe.data)
head -c $((psize - 5)) pipe.data > pipe-cut.data
cat pipe-cut.data | "$PRF" script -i - > /dev/null 2> pipe.err
rc=${PIPESTATUS[1]}
[ $rc -eq 1 ] || { cat pipe.err; fail "cut stream: exit $rc, want 1"; }
grep -q "partial result: reading stopped at offset 0x[0-9a-f]* (stream ended inside a record); the rest of the input not read" pipe.err ||
	{ cat pipe.err; fail "cut stream: summary"; }
cat pipe-cut.data | "$PRF" script -f -i - > /dev/null 2>/dev/null || fail "cut stream: script -f exit $?"
echo "ok: truncation at $cut: stop at $stop, $got samples, exit 1; a cut stream exits 1 (-f 0)"

# --- a killed recorder's file (data size 0) ending inside a record: its
# incomplete last record is skipped and counted, exit 0 --------------------
python3 -c '
import struct, sys
d = bytearray(open("good.data", "rb").read())
off, size = struct.unpack_from("<QQ", d, 40)
struct.pack_into("<Q", d, 48, 0)
struct.pack_into("<4Q", d, 72, 0, 0, 0, 0)
open("killed.data", "wb").write(d[:int(sys.argv[1])])' $cut
check_all killed.data 0
every_err "killed recorder" "killed.data: incomplete last record at offset 0x[0-9a-f]* ([0-9]* bytes) in a file without data size"
every_err "killed recorder" "warning: killed.data: 1 of [0-9]* records skipped"
got=$(grep -c PERF_RECORD_SAMPLE dump.out)
want=$(grep -c PERF_RECORD_SAMPLE half.dump)
[ "$got" -eq "$want" ] || fail "killed recorder: $got samples, the truncated file gave $want"
echo "ok: a killed recorder's file ending inside a record: $got samples, the last record skipped, exit 0"

# --- one record of unknown type: skipped, reading goes on, exit 0 ----------
mid=$(grep PERF_RECORD_SAMPLE good.dump | sed -n "$((nsamples / 2))p" | cut -d' ' -f1)
python3 -c '
import struct, sys
d = bytearray(open("good.data", "rb").read())
struct.pack_into("<I", d, int(sys.argv[1], 16), 60)   # type 60: none prf or perf knows
open("skip.data", "wb").write(d)' "$mid"
check_all skip.data 0
every_err "unknown record" "skip.data: bad record at offset $mid: unknown type 60"
every_err "unknown record" "warning: skip.data: 1 of [0-9]* records skipped (bad or unprocessable, see above); the rest was read"
for c in "${CMDS[@]}"; do
	grep -q "partial result" "${c%%|*}.err" && fail "unknown record: prf ${c#*|} calls it partial"
done
got=$(grep -c PERF_RECORD_SAMPLE dump.out)
[ "$got" -eq $((nsamples - 1)) ] || fail "unknown record: $got samples read, want $((nsamples - 1))"
echo "ok: one record of unknown type at $mid: skipped and counted, $got samples, exit 0"

# --- header fields out of the format's limits: field and offset named -----
bad_header() { # NAME PYTHON-EDIT MESSAGE
	python3 -c "
import struct
d = bytearray(open('good.data', 'rb').read())
aoff, asz = struct.unpack_from('<QQ', d, 24)
$2
open('$1', 'wb').write(d)"
	check_all "$1" 1
	for c in "${CMDS[@]}"; do
		name=${c%%|*}
		grep -q "^$1: not a valid perf.data file: $3" "$name.err" ||
			{ cat "$name.err"; fail "$1: prf ${c#*|}: want '$1: not a valid perf.data file: $3'"; }
		[ -s "$name.out" ] && [ "$name" != flamegraph ] && fail "$1: prf ${c#*|} printed output"
	done
	"$PRF" data header -i "$1" > /dev/null 2>&1 && fail "$1: data header exits 0"
	echo "ok: $1: $(head -1 script.err)"
}
bad_header hsize.data "struct.pack_into('<Q', d, 8, 65640)" \
	"header.size at offset 0x8 is 65640 (0x10068): want 104"
"$PERF" report --stdio -i hsize.data > /dev/null 2>&1 && fail "perf accepts header.size 65640 (test premise)"
bad_header asize.data "struct.pack_into('<Q', d, 16, 0xffffffff)" \
	"header.attr_size at offset 0x10 is 4294967295 (0xffffffff)"
bad_header zattr.data "d[aoff:aoff + asz] = bytes(asz)" \
	"attr 0 attr.size at offset 0x[0-9a-f]* is 0: want 64 to"
bad_header doff.data "struct.pack_into('<Q', d, 40, 8)" \
	"header.data.offset at offset 0x28 is 8: outside the file or inside its header"
exit 0
