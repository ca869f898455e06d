#!/bin/bash
# prf diff matches perf diff byte for byte (default, -c delta/delta-abs/ratio/wdiff, -s, -p, -F, -b, -o, -t, --percentage, -d/-C/-S, --time in seconds and percent, -v, three files), on perf's and prf's recordings
# Compiles a program with three functions whose first one loops longer
# with a bigger argument, records it three times with a growing argument
# (so entries rise, fall and appear in one file only) with /usr/bin/perf
# (Linux perf 6.1, the reference) and with prf record, and compares
# `prf diff` with `perf diff` on the same files for each option set: the
# whole output, byte for byte, and the exit status.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup diff-compat

cat > "$T/w.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void hot(long n) { for (long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void warm(long n) { for (long i = 0; i < n; i++) sink ^= i; }
__attribute__((noinline)) void cold(long n) { for (long i = 0; i < n; i++) sink += i >> 1; }
int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 1;

	hot(15000000 * k);
	warm(10000000);
	cold(5000000);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -o "$T/w" "$T/w.c" || fail "cc"
for k in 1 2 3; do
	perf_record "$T/perf$k.data" -- "$T/w" $k
	"$PRF" record -q -o "$T/prf$k.data" -- "$T/w" $k >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "prf record"; }
done

n=0
prf_extra=
# diff_check FILES... -- OPTION...: perf diff and prf diff print the same
# and exit the same
diff_check() {
	local files=() rc_p rc_q
	while [ "$1" != "--" ]; do files+=("$1"); shift; done
	shift
	"$PERF" diff "$@" "${files[@]}" > "$T/perf.out" 2>/dev/null
	rc_p=$?
	"$PRF" diff $prf_extra "$@" "${files[@]}" > "$T/prf.out" 2>"$T/prf.err"
	rc_q=$?
	[ $rc_q -eq $rc_p ] || { cat "$T/prf.err"; fail "diff $* ${files[*]##*/}: exit $rc_q, perf $rc_p"; }
	cmp -s "$T/perf.out" "$T/prf.out" ||
		{ diff "$T/perf.out" "$T/prf.out" | head -20; fail "diff $* ${files[*]##*/}: output differs"; }
	[ -s "$T/prf.out" ] || fail "diff $*: no output"
	n=$((n + 1))
}

# every option set on perf's recordings; the main ones on prf's too
full_sets() {
	local A=$1 B=$2 C=$3
	diff_check "$A" "$B" --
	# perf 6.1's diff has no --stdio (its only interface is text); prf
	# takes it for report's sake
	prf_extra=--stdio diff_check "$A" "$B" --
	diff_check "$A" "$B" -- -c delta
	diff_check "$A" "$B" -- -c ratio
	diff_check "$A" "$B" -- -c wdiff:1,2
	diff_check "$A" "$B" -- -p
	diff_check "$A" "$B" -- -F
	diff_check "$A" "$B" -- -c ratio -F -p
	diff_check "$A" "$B" -- -c wdiff:3,1 -F
	diff_check "$A" "$B" -- -b
	diff_check "$A" "$B" -- -b -c ratio -p
	diff_check "$A" "$B" -- -q
	diff_check "$A" "$B" -- -t ,
	diff_check "$A" "$B" -- -c delta -t : -p -F
	diff_check "$A" "$B" -- -s sym
	diff_check "$A" "$B" -- -s dso
	diff_check "$A" "$B" -- -s comm,dso,sym
	diff_check "$A" "$B" -- -s pid
	diff_check "$A" "$B" -- -s cpu
	diff_check "$A" "$B" -- -s parent
	diff_check "$A" "$B" -- -o 0
	diff_check "$A" "$B" -- -d w
	diff_check "$A" "$B" -- -d w,ld-linux-x86-64.so.2 --percentage relative
	diff_check "$A" "$B" -- -d w,ld-linux-x86-64.so.2 --percentage absolute
	diff_check "$A" "$B" -- -S hot,warm
	diff_check "$A" "$B" -- -S hot,warm --percentage relative -c delta
	diff_check "$A" "$B" -- -C w -s comm,dso
	diff_check "$A" "$B" "$C" --
	diff_check "$A" "$B" "$C" -- -o 2 -p -F
	diff_check "$A" "$B" "$C" -- -c ratio -o 2
	diff_check "$A" "$B" "$C" -- -c delta -b -t ,
	diff_check "$B" "$A" --
	# -v: DSO paths, symbols with their address and symtab origin
	diff_check "$A" "$B" -- -v
	diff_check "$A" "$B" -- -v -c ratio -p -F
	diff_check "$A" "$B" -- -v -s sym,dso
	diff_check "$A" "$B" -- -v -s comm,dso -t ,
	diff_check "$A" "$B" "$C" -- -v -c delta
}
full_sets "$T/perf1.data" "$T/perf2.data" "$T/perf3.data"
A="$T/prf1.data" B="$T/prf2.data" C="$T/prf3.data"
diff_check "$A" "$B" --
diff_check "$A" "$B" -- -c ratio -F -p
diff_check "$A" "$B" -- -c wdiff:1,2 -b
diff_check "$A" "$B" -- -s comm,dso,sym -t ,
diff_check "$A" "$B" -- -d w,ld-linux-x86-64.so.2 --percentage relative
diff_check "$A" "$B" "$C" -- -o 2 -p
diff_check "$A" "$T/perf2.data" --

# --time: one range for every file, one range per file
ts() { "$PERF" script -i "$1" -F time 2>/dev/null | sed -n "${2}p" | tr -d ' :'; }
a0=$(ts "$T/perf1.data" 20) a1=$(ts "$T/perf1.data" 60) b1=$(ts "$T/perf2.data" 80)
[ -n "$a0" ] && [ -n "$a1" ] && [ -n "$b1" ] || fail "no sample times from perf script"
diff_check "$T/perf1.data" "$T/perf2.data" -- --time "$a0,$b1"
diff_check "$T/perf1.data" "$T/perf2.data" -- --time "$a0,$a1:,$b1"
diff_check "$T/perf1.data" "$T/perf2.data" -- --time ",$a1:$b1," -c ratio
"$PRF" diff --time "$a0,$a1" "$T/perf1.data" "$T/perf2.data" > "$T/t.out" || fail "diff --time"
"$PRF" diff "$T/perf1.data" "$T/perf2.data" > "$T/t0.out" || fail "diff"
cmp -s "$T/t.out" "$T/t0.out" && fail "--time changed nothing"
# percent slices of each file's own sample time span, for every file or
# per file
diff_check "$T/perf1.data" "$T/perf2.data" -- --time 10%/2
diff_check "$T/perf1.data" "$T/perf2.data" -- --time 10%/1,10%/3 -c ratio
diff_check "$T/perf1.data" "$T/perf2.data" -- --time 0%-50%
diff_check "$T/perf1.data" "$T/perf2.data" -- --time 0%-10%,60%-90% -p
diff_check "$T/perf1.data" "$T/perf2.data" -- --time 50%/1:50%/2
diff_check "$T/perf1.data" "$T/perf2.data" "$T/perf3.data" -- --time 25%/4
"$PRF" diff --time 30%/1 "$T/perf1.data" "$T/perf2.data" > "$T/t.out" || fail "diff --time 30%/1"
cmp -s "$T/t.out" "$T/t0.out" && fail "--time 30%/1 changed nothing"

# a stripped program (its functions unresolved addresses, one entry per
# DSO), and two events in each file (a table per event)
cp "$T/w" "$T/ws" && strip "$T/ws" || fail "strip"
perf_record "$T/s1.data" -- "$T/ws" 1
perf_record "$T/s2.data" -- "$T/ws" 2
diff_check "$T/s1.data" "$T/s2.data" --
diff_check "$T/s1.data" "$T/s2.data" -- -c ratio -s sym
diff_check "$T/s1.data" "$T/s2.data" -- -v
perf_record "$T/e1.data" -e cpu-clock -e task-clock -- "$T/w" 1
perf_record "$T/e2.data" -e cpu-clock -e task-clock -- "$T/w" 2
diff_check "$T/e1.data" "$T/e2.data" --
diff_check "$T/e1.data" "$T/perf2.data" -- -p
echo "ok: $n option sets byte-identical to perf diff (perf's and prf's recordings)"

# defaults: perf.data.old and perf.data in the current directory
cp "$T/perf1.data" "$T/perf.data.old" && cp "$T/perf2.data" "$T/perf.data"
(cd "$T" && "$PERF" diff > "$T/perf.out" 2>/dev/null && "$PRF" diff > "$T/prf.out") ||
	fail "diff without files"
cmp -s "$T/perf.out" "$T/prf.out" || fail "diff without files differs"
(cd "$T" && "$PRF" diff perf3.data > "$T/prf.out" && "$PERF" diff perf3.data > "$T/perf.out" 2>/dev/null) ||
	fail "diff with one file"
cmp -s "$T/perf.out" "$T/prf.out" || fail "diff NEW (baseline perf.data.old) differs"
echo "ok: default files"

# usage errors and bad inputs: a clear message and the exit status
expect_status() {
	local want=$1 what=$2
	shift 2
	"$PRF" diff "$@" > /dev/null 2> "$T/err"
	rc=$?
	[ $rc -eq "$want" ] || { cat "$T/err"; fail "$what: exit $rc, want $want"; }
	[ -s "$T/err" ] || fail "$what: no message"
}
expect_status 129 "-c unknown" -c bogus "$T/perf1.data" "$T/perf2.data"
expect_status 129 "-c wdiff without weights" -c wdiff "$T/perf1.data" "$T/perf2.data"
expect_status 129 "-o out of range" -o 2 "$T/perf1.data" "$T/perf2.data"
expect_status 129 "--time bogus" --time 1,x "$T/perf1.data" "$T/perf2.data"
expect_status 129 "--time percent and absolute" --time 10%/1:1,2 "$T/perf1.data" "$T/perf2.data"
expect_status 129 "--percentage bogus" --percentage bogus "$T/perf1.data" "$T/perf2.data"
expect_status 1 "missing file" "$T/nonexistent.data" "$T/perf2.data"
: > "$T/empty.data"
expect_status 1 "empty file" "$T/empty.data" "$T/perf2.data"
echo "ok: errors"

# files of different events, of different programs: the table as perf's,
# and a warning saying why it is one-sided
perf_record "$T/tc.data" -e task-clock -- "$T/w" 1
diff_check "$T/perf1.data" "$T/tc.data" --
grep -q "has no samples of event 'cpu-clock" "$T/prf.err" || { cat "$T/prf.err"; fail "no warning for different events"; }
printf 'volatile long s;\n__attribute__((noinline)) void other(void) { for (long i = 0; i < 50000000; i++) s += i; }\nint main(void) { other(); return 0; }\n' > "$T/o.c"
cc -O1 -o "$T/o" "$T/o.c" || fail "cc o.c"
perf_record "$T/o.data" -- "$T/o"
diff_check "$T/perf1.data" "$T/o.data" --
grep -q "almost no user-space entry in common" "$T/prf.err" || { cat "$T/prf.err"; fail "no warning for unrelated files"; }
grep -q "in common" < <("$PRF" diff "$T/perf1.data" "$T/perf2.data" 2>&1 >/dev/null) && fail "warned on related files"
echo "ok: different events and unrelated programs are named on stderr"
