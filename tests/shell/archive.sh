#!/bin/bash
# prf archive writes the tar perf archive writes and prints its hint; a prf recording's archive unpacked into an empty ~/.debug lets perf and prf report name a removed program's symbols; --unpack; bad input
# A temporary HOME holds the build-id cache. perf record (Linux perf 6.1,
# the reference) fills the cache; perf archive and prf archive of that
# recording must list the same members and print the same. prf record
# fills no cache: prf archive adds the hit DSOs first, so after unpacking
# its tar into a fresh HOME's .debug and removing the program, both
# reports name the program's spin_here() (without the archive they
# cannot: checked too). prf archive --unpack gives the tree tar x gives.
# Bad input: a missing file and a recording without build-ids fail (1), two
# files are a usage error (129).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup archive tar bzip2
export HOME=$T/home
mkdir -p "$HOME"

cat > "$T/w.c" <<'C'
#include <stdlib.h>
volatile long sink;
__attribute__((noinline)) void spin_here(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void) { spin_here(60000000); return 0; }
C
cc -O0 -o "$T/w" "$T/w.c" || fail "cc"
cd "$T" || fail "cd $T"

perf_record "$T/perf.data" -e cpu-clock -- "$T/w"
# (stdout only: tar may warn of a system library whose hard link in a
# cache changes meanwhile)
"$PERF" archive "$T/perf.data" > "$T/want" 2>/dev/null || fail "perf archive"
tar tjf "$T/perf.data.tar.bz2" | sort > "$T/want.lst"
rm "$T/perf.data.tar.bz2"
prf_out "$T/got" archive "$T/perf.data"
tar tjf "$T/perf.data.tar.bz2" | sort > "$T/got.lst" || fail "prf's archive is no tar.bz2"
cmp -s "$T/want.lst" "$T/got.lst" || { diff "$T/want.lst" "$T/got.lst"; fail "archive members differ"; }
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "archive output differs"; }
grep -q "^\.build-id/../[0-9a-f]*$" "$T/got.lst" || fail "no .build-id link in the archive"
grep -q "^${T#/}/w/[0-9a-f]*/elf$" "$T/got.lst" || fail "the program's elf is not in the archive"
echo "ok: the same $(wc -l < "$T/got.lst") members and output as perf archive"

export HOME=$T/home2
mkdir -p "$HOME"
"$PRF" record -q -o "$T/prf.data" -e cpu-clock -- "$T/w" >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record"; }
prf_out "$T/got" archive "$T/prf.data"
mv "$T/w" "$T/w.gone"
export HOME=$T/empty
mkdir -p "$HOME/.debug"
"$PERF" report -i "$T/prf.data" --stdio -s sym > "$T/none" 2>/dev/null
grep -q spin_here "$T/none" && fail "perf report names spin_here without the program or an archive"
export HOME=$T/home3
mkdir -p "$HOME/.debug"
tar xf "$T/prf.data.tar.bz2" -C "$HOME/.debug" || fail "tar x of prf's archive"
"$PERF" report -i "$T/prf.data" --stdio -s sym > "$T/rep" 2>/dev/null
grep -q 'spin_here' "$T/rep" || { head -20 "$T/rep"; fail "perf report: no spin_here from the unpacked archive"; }
prf_out "$T/rep" report -i "$T/prf.data" --stdio -s sym
grep -q 'spin_here' "$T/rep" || { head -20 "$T/rep"; fail "prf report: no spin_here from the unpacked archive"; }
echo "ok: prf's archive of prf's recording unpacked: both reports name spin_here"

export HOME=$T/home4
prf_out "$T/out" archive --unpack "$T/prf.data.tar.bz2"
(cd "$T/home3/.debug" && find . | sort) > "$T/tree3"
(cd "$T/home4/.debug" && find . | sort) > "$T/tree4"
cmp -s "$T/tree3" "$T/tree4" || { diff "$T/tree3" "$T/tree4"; fail "--unpack differs from tar x"; }
echo "ok: --unpack"

mv "$T/w.gone" "$T/w"
"$PRF" archive "$T/none.data" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "none.data" "$T/err" || fail "missing file: exit $rc, $(cat "$T/err")"
perf_record "$T/nobid.data" -B -e cpu-clock -- "$T/w"
"$PRF" archive "$T/nobid.data" > "$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "no build-ids found" "$T/out" || fail "no build-ids: exit $rc, $(cat "$T/out")"
"$PRF" archive "$T/perf.data" "$T/prf.data" >/dev/null 2>&1
rc=$?
[ $rc -eq 129 ] || fail "two files: exit $rc, want 129"
echo "ok: bad input (1, 129)"
