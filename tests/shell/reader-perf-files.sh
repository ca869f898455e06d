#!/bin/bash
# perf.data reader: files from Linux perf (fp, two events, -a, dwarf, -z, pipe) read like perf reads them
# prf-test: serial: records system-wide (-a)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup reader
cd "$T" || exit 1

cat > w.c <<'C'
#include <stdlib.h>
volatile unsigned long x;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) x += i; }
__attribute__((noinline)) void mid(int n) { leaf(n); leaf(n / 2); }
int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 100000; for (int i = 0; i < 1500; i++) mid(n); return 0; }
C
cc -O1 -g -fno-omit-frame-pointer -o w w.c || fail "cc"

rec() { # name perf-record-args...
	local name=$1; shift
	"$PERF" record -q -o "$name.data" "$@" >/dev/null 2>"$name.rec.err" || { echo "perf record $* failed: $(cat "$name.rec.err")"; return 1; }
}

files=()
rec fp -F 999 -g -- ./w 100000 && files+=(fp)
rec two -e cpu-clock,task-clock -F 999 -- ./w 100000 && files+=(two)
rec sys -a -F 499 -- sleep 0.3 && files+=(sys)
rec dwarf --call-graph dwarf -F 199 -- ./w 100000 && files+=(dwarf)
rec group -e '{cpu-clock,task-clock}' -k mono -F 499 -- ./w 100000 && files+=(group)
if "$PERF" version --build-options 2>/dev/null | grep -q 'zstd: \[ on'; then
	rec z -z -F 999 -g -- ./w 100000 && files+=(z)
fi
[ ${#files[@]} -ge 3 ] || fail "perf record made only ${#files[@]} files"

check_file() { # name
	local f=$1.data a b
	# every sample, as perf report -D counts them
	a=$("$PRF" data dump -i "$f" 2>"$1.err" | grep -c 'PERF_RECORD_SAMPLE')
	b=$("$PERF" report -D -i "$f" 2>/dev/null | grep -c 'RECORD_SAMPLE')
	[ "$a" -gt 0 ] || fail "$1: no samples read"
	[ "$a" = "$b" ] || fail "$1: $a samples, perf reads $b"
	[ -s "$1.err" ] && fail "$1: messages while reading: $(head -3 "$1.err")"
	# record type counts
	"$PRF" data stats -i "$f" >"$1.stats" 2>&1 || fail "$1: data stats exit"
	"$PERF" report --stats -i "$f" >"$1.pstats" 2>/dev/null
	diff -u "$1.pstats" "$1.stats" >/dev/null || fail "$1: --stats differ: $(diff "$1.pstats" "$1.stats" | head -5)"
	# header, short and full
	"$PRF" data header -i "$f" >"$1.hdr" 2>&1 || fail "$1: data header exit"
	"$PERF" report --header-only -i "$f" >"$1.phdr" 2>/dev/null
	diff -u "$1.phdr" "$1.hdr" >/dev/null || fail "$1: --header-only differs: $(diff "$1.phdr" "$1.hdr" | head -6)"
	"$PRF" data header -I -i "$f" >"$1.hdrI" 2>&1
	"$PERF" report --header-only -I -i "$f" >"$1.phdrI" 2>/dev/null
	diff -u "$1.phdrI" "$1.hdrI" >/dev/null || fail "$1: --header-only -I differs: $(diff "$1.phdrI" "$1.hdrI" | head -6)"
	# event names as perf evlist prints them
	"$PERF" evlist -i "$f" 2>/dev/null | grep -v '^#' >"$1.pev"
	sed -n 's/^# event : name = \([^,]*\),.*/\1/p' "$1.hdr" >"$1.ev"
	diff -u "$1.pev" "$1.ev" >/dev/null || fail "$1: event names differ: $(paste -d' ' "$1.pev" "$1.ev" | head -3)"
	# time order: every timestamp delivered non-decreasing, samples in perf script's order
	"$PRF" data dump --ordered --no-callchain -i "$f" >"$1.ord" 2>&1 || fail "$1: ordered dump exit"
	grep -o ' time [0-9]*' "$1.ord" | awk '$2 < last { bad++ } { last = $2 } END { exit bad > 0 }' ||
		fail "$1: timestamps go backwards in ordered delivery"
	grep PERF_RECORD_SAMPLE "$1.ord" | grep -o ' time [0-9]*' |
		awk '{ printf "%d.%06d\n", $2 / 1000000000, ($2 % 1000000000) / 1000 }' >"$1.t"
	"$PERF" script -G -F time -i "$f" 2>/dev/null | tr -d ' :' >"$1.pt"
	cmp -s "$1.t" "$1.pt" || fail "$1: sample time sequence differs from perf script"
}

for f in "${files[@]}"; do
	check_file "$f"
done

# pipe mode, from a pipe and from a saved pipe file
"$PERF" record -q -F 999 -g -o - -- ./w 100000 2>/dev/null >pipe.data
[ -s pipe.data ] || fail "perf record -o - wrote nothing"
a=$("$PERF" record -q -F 999 -g -o - -- ./w 100000 2>/dev/null | "$PRF" data dump -i - | grep -c PERF_RECORD_SAMPLE)
[ "$a" -gt 0 ] || fail "pipe: no samples from stdin"
a=$("$PRF" data dump -i - <pipe.data | grep -c PERF_RECORD_SAMPLE)
b=$("$PERF" report -D -i pipe.data 2>/dev/null | grep -c RECORD_SAMPLE)
[ "$a" = "$b" ] || fail "pipe: $a samples from stdin, perf reads $b"
a=$("$PRF" data dump -i pipe.data | grep -c PERF_RECORD_SAMPLE)
[ "$a" = "$b" ] || fail "pipe file: $a samples, perf reads $b"
"$PRF" data stats -i - <pipe.data >pipe.stats 2>&1
"$PERF" report --stats -i pipe.data >pipe.pstats 2>/dev/null
diff -u pipe.pstats pipe.stats >/dev/null || fail "pipe: --stats differ: $(diff pipe.pstats pipe.stats | head -5)"
# in pipe mode the features arrive as records; only "captured on" may differ
"$PRF" data header -i - <pipe.data | grep -v '^# captured on' >pipe.hdr
"$PERF" report --header-only -i pipe.data 2>/dev/null | grep -v '^# captured on' >pipe.phdr
diff -u pipe.phdr pipe.hdr >/dev/null || fail "pipe: header differs: $(diff pipe.phdr pipe.hdr | head -5)"
grep -q '^# event : name = cpu-clock' pipe.hdr || fail "pipe: no event desc"

echo "checked: ${files[*]} pipe"
exit 0
