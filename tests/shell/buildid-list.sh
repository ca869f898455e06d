#!/bin/bash
# prf buildid-list prints what perf buildid-list prints (the header's list, -H hit DSOs, no build-ids with record -B, a pipe's stream, an ELF file, -k) on perf's and prf's recordings
# Records `ls` with perf (Linux perf 6.1, the reference): a plain file, one
# without build-ids (-B: both tools then read the samples for the hit
# DSOs, listed with a blank build-id), and a pipe's stream saved to a
# file; and with prf record. Compares `prf buildid-list` with `perf
# buildid-list` on each, with and without -H, byte for byte, and the exit
# status; then an ELF file as input, -k (the running kernel), and bad
# input: a missing file fails (1), an extra argument is a usage error.
# HOME is a temporary one: perf record writes ~/.debug.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup buildid-list
export HOME=$T/home
mkdir -p "$HOME"

perf_record "$T/perf.data" -e cpu-clock -- ls /
perf_record "$T/nobid.data" -B -e cpu-clock -- ls /
"$PERF" record -q -o - -e cpu-clock -- ls / 2>/dev/null > "$T/pipe.data" ||
	fail "perf record to a pipe"
"$PRF" record -q -o "$T/prf.data" -e cpu-clock -- ls / >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record"; }

n=0
for f in perf nobid pipe prf; do
	for opt in "" -H; do
		# shellcheck disable=SC2086 # an empty opt is no argument
		"$PERF" buildid-list -i "$T/$f.data" $opt > "$T/want" 2>/dev/null
		want=$?
		# shellcheck disable=SC2086
		"$PRF" buildid-list -i "$T/$f.data" $opt > "$T/got" 2>"$T/got.err"
		got=$?
		[ $got -eq $want ] || { cat "$T/got.err"; fail "$f.data $opt: exit $got, perf $want"; }
		cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "$f.data $opt differs"; }
		[ -s "$T/got" ] || fail "$f.data $opt: nothing listed"
		n=$((n + 1))
	done
done
grep -q '^[0-9a-f]\{40\} [/[]' "$T/got" || fail "prf.data -H: no DSO with its build-id"
grep -q '^ \{41\}\[kernel.kallsyms\]$' < <("$PRF" buildid-list -i "$T/nobid.data") ||
	fail "-B recording: no kernel line with a blank build-id"
"$PRF" buildid-list -i - < "$T/pipe.data" > "$T/got" || fail "buildid-list -i - (stdin)"
"$PERF" buildid-list -i - < "$T/pipe.data" > "$T/want" 2>/dev/null
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "stdin differs"; }
echo "ok: $n lists and stdin identical to perf's"

prf_out "$T/elf" buildid-list -i /bin/ls
"$PERF" buildid-list -i /bin/ls > "$T/want"
cmp -s "$T/want" "$T/elf" || fail "ELF input: '$(cat "$T/elf")', perf '$(cat "$T/want")'"
prf_out "$T/k" buildid-list -k
"$PERF" buildid-list -k > "$T/want"
cmp -s "$T/want" "$T/k" || fail "-k: '$(cat "$T/k")', perf '$(cat "$T/want")'"
echo "ok: ELF input and -k as perf"

"$PRF" buildid-list -i "$T/none.data" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "missing file: exit $rc, want 1"
grep -q "none.data" "$T/err" || fail "missing file: message does not name it"
"$PRF" buildid-list -i "$T/perf.data" extra >/dev/null 2>&1
rc=$?
[ $rc -eq 129 ] || fail "extra argument: exit $rc, want 129"
echo "ok: bad input (1, 129)"
