#!/bin/bash
# prf report/script match perf on stripped non-PIE/PIE binaries (unresolved [.] 0x... form) and on multi-event files (synthesized side band, period column)
# prf-test: serial: records system-wide (-a)
# Records stripped non-PIE and PIE programs with /usr/bin/perf (Linux perf
# 6.1, the reference): an unresolved sample address is shown by perf as
# ip - map start + pgoff (file offset form, no ELF vaddr bias), callchain
# (children) entries as the raw ip. Then a file with two software events:
# synthesized records with sample id 0 are parsed with the first event
# (pid/tid 0, time 0.000000), and the period column is decided by the first
# event of a type only (perf record -a adds dummy:HG without PERIOD).
# A -c recording (no PERIOD in sample_type) still has the period column.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup compat-unres

cat > "$T/t.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void outer(long n) { spin(n); sink++; }
int main(int argc, char **argv) { outer(argc > 1 ? atol(argv[1]) : 100000000); return 0; }
C
cc -O1 -fno-pie -no-pie -fno-omit-frame-pointer -o "$T/np" "$T/t.c" || fail "cc non-PIE"
cc -O1 -fpie -pie -fno-omit-frame-pointer -o "$T/pie" "$T/t.c" || fail "cc PIE"
strip "$T/np" "$T/pie" || fail strip

# report: entries (not the tip line) must be identical
for b in np pie; do
	"$PERF" record -q -e cpu-clock -F 2000 -g -o "$T/$b.data" -- "$T/$b" >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; echo "perf record failed"; exit 2; }
	for o in "--no-children -g none" "--children -g none" "--no-children --sort sym -g none" "--children"; do
		"$PERF" report -i "$T/$b.data" --stdio $o 2>/dev/null | grep -v '^# (Tip' > "$T/perf.out"
		prf_out "$T/prf.report" report -i "$T/$b.data" --stdio $o
		grep -v '^# (Tip' "$T/prf.report" > "$T/prf.out"
		grep -q "\[\.\] 0x" "$T/perf.out" || fail "$b: perf shows no unresolved address (not stripped?)"
		diff "$T/perf.out" "$T/prf.out" > "$T/diff" || { head -20 "$T/diff"; fail "report $o differs from perf on stripped $b"; }
	done
done
# the self entry of a non-PIE binary is in file-offset form (0x1xxx, not 0x401xxx)
"$PRF" report -i "$T/np.data" --stdio --no-children -g none 2>/dev/null | grep -q '  np  .*\[\.\] 0x0000000000001' ||
	fail "non-PIE unresolved self entry not in file-offset form"

# script on the same files: identical output
for b in np pie; do
	"$PERF" script -i "$T/$b.data" > "$T/perf.out" 2>/dev/null
	"$PRF" script -i "$T/$b.data" > "$T/prf.out" 2>"$T/err" || { cat "$T/err"; fail "prf script $b"; }
	diff "$T/perf.out" "$T/prf.out" > "$T/diff" || { head -20 "$T/diff"; fail "script differs on $b"; }
done

# two events: synthesized side band (sample id 0) parses with the first evsel
"$PERF" record -q -e cpu-clock -e task-clock -o "$T/two.data" -- "$T/np" 20000000 >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record with two events failed"; exit 2; }
"$PERF" script -i "$T/two.data" --show-task-events --show-mmap-events > "$T/perf.out" 2>/dev/null
"$PRF" script -i "$T/two.data" --show-task-events --show-mmap-events > "$T/prf.out" 2>"$T/err" ||
	{ cat "$T/err"; fail "prf script two events"; }
grep -q ' 0     0.000000: PERF_RECORD_MMAP' "$T/perf.out" || fail "perf output lacks synthesized mmap at time 0"
diff "$T/perf.out" "$T/prf.out" > "$T/diff" || { head -20 "$T/diff"; fail "script --show-task-events differs (two events)"; }

# system wide: dummy:HG (no PERIOD) must not hide cpu-clock's period column
if "$PERF" record -q -a -e cpu-clock -F 1000 -o "$T/all.data" -- "$T/np" 20000000 >/dev/null 2>"$T/rec.err"; then
	# sample header lines only (other processes' frames are not under test)
	"$PERF" script -i "$T/all.data" 2>/dev/null | grep 'cpu-clock:' > "$T/perf.out"
	prf_out "$T/prf.script" script -i "$T/all.data"
	grep 'cpu-clock:' "$T/prf.script" > "$T/prf.out"
	grep -q ' cpu-clock:' "$T/perf.out" || fail "no cpu-clock samples in the -a file"
	grep -q 'dummy' <("$PERF" evlist -i "$T/all.data" 2>/dev/null) || fail "perf -a file without dummy event"
	diff "$T/perf.out" "$T/prf.out" > "$T/diff" || { head -20 "$T/diff"; fail "script differs on a -a file (dummy:HG)"; }
fi

# a fixed period (-c): no PERIOD in sample_type, yet perf 6.1 prints the
# period column (the attr's sample_period), also with -F period
perf_record "$T/c.data" -e cpu-clock -c 200000 -- "$T/np" 20000000
"$PERF" evlist -v -i "$T/c.data" 2>/dev/null | grep -q 'sample_type: [^,]*PERIOD' &&
	fail "perf -c file has PERIOD in sample_type: not the case under test"
for f in "" "-F comm,tid,period,event,ip,sym"; do
	"$PERF" script -i "$T/c.data" $f > "$T/perf.out" 2>/dev/null
	"$PRF" script -i "$T/c.data" $f > "$T/prf.out" 2>"$T/err" || { cat "$T/err"; fail "prf script $f (-c file)"; }
	grep -q ' 200000 cpu-clock:' "$T/perf.out" || { head -3 "$T/perf.out"; fail "perf shows no period 200000"; }
	diff "$T/perf.out" "$T/prf.out" > "$T/diff" || { head -20 "$T/diff"; fail "script $f differs on a -c file"; }
done
exit 0
