#!/bin/bash
# prf buildid-list prints what perf buildid-list prints (the header's list, -H hit DSOs, no build-ids with record -B, a pipe's stream, an ELF file, -k) on perf's and prf's recordings; prf record's build-ids (default, --buildid-all, --buildid-mmap) as perf record's
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

# record's build-id lists against perf record's on the same program: the
# DSOs hit and [vdso] (default), every DSO mapped (--buildid-all), and
# none in the header but one in each file map (--buildid-mmap)
for opt in "" --buildid-all; do
	# shellcheck disable=SC2086
	perf_record "$T/r-perf.data" $opt -e cpu-clock -- /bin/true
	# shellcheck disable=SC2086
	"$PRF" record -q -o "$T/r-prf.data" $opt -e cpu-clock -- /bin/true > /dev/null 2> "$T/rec.err" ||
		{ cat "$T/rec.err"; fail "prf record $opt"; }
	for f in perf prf; do "$PERF" buildid-list -i "$T/r-$f.data" | sort > "$T/r-$f.list"; done
	grep -q ' \[vdso\]$' "$T/r-prf.list" || fail "record $opt: no [vdso] build-id"
	# the DSOs hit vary from run to run: the whole list is compared for
	# --buildid-all only
	[ -z "$opt" ] || cmp -s "$T/r-perf.list" "$T/r-prf.list" ||
		{ diff "$T/r-perf.list" "$T/r-prf.list"; fail "record $opt: build-ids differ from perf record's"; }
done
[ "$(wc -l < "$T/r-prf.list")" -ge 4 ] || fail "--buildid-all: only $(wc -l < "$T/r-prf.list") DSOs"
maps_bids() {	# the build-id, protection and name of each MMAP2 with a build-id
	"$PERF" report -D -i "$1" 2>/dev/null | sed -n 's/.*PERF_RECORD_MMAP2 .* \(<[0-9a-f]*>\]: .*\)/\1/p' | sort
}
perf_record "$T/m-perf.data" --buildid-mmap -e cpu-clock -- /bin/true
"$PRF" record -q -o "$T/m-prf.data" --buildid-mmap -e cpu-clock -- /bin/true > /dev/null 2> "$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record --buildid-mmap"; }
maps_bids "$T/m-perf.data" > "$T/m-perf.list"
maps_bids "$T/m-prf.data" > "$T/m-prf.list"
grep -q 'r-xp /usr/bin/true$' "$T/m-prf.list" || fail "--buildid-mmap: no build-id in the program's map"
cmp -s "$T/m-perf.list" "$T/m-prf.list" ||
	{ diff "$T/m-perf.list" "$T/m-prf.list"; fail "--buildid-mmap: maps differ from perf record's"; }
"$PERF" report -i "$T/m-prf.data" --header-only 2>/dev/null | grep -q '^# event : .*build_id = 1' ||
	fail "--buildid-mmap: attr without build_id"
"$PERF" report -i "$T/m-prf.data" --header-only 2>/dev/null | grep -q '^# missing features: .*BUILD_ID' ||
	fail "--buildid-mmap: a BUILD_ID section written"
echo "ok: record's build-ids as perf record's (default, --buildid-all, --buildid-mmap)"

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
