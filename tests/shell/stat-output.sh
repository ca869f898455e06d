#!/bin/bash
# prf stat: perf 6.1 compatible counting output (CSV, JSON, -r, -p, -a -A, exit status)
# prf-test: serial: counts system-wide (-a -A), and times intervals (-I 100) and a busy process's CPU time (-p)
set -u
fail() { echo "FAIL: $*"; exit 1; }
PERF=${PERF_BIN:-/usr/bin/perf}
tmp=$(mktemp -d)
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT
busy=

# A workload with a known number of page faults: touch 2000 fresh pages.
cat > "$tmp/touch.c" <<'EOC'
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2000 * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 2000; i++)
		p[i * psz] = 1;
	return 0;
}
EOC
cc -O1 -o "$tmp/touch" "$tmp/touch.c" || { echo "cc failed"; exit 2; }

# Basic run must work at all (software events need no PMU).
"$PRF" stat -e task-clock true 2>"$tmp/basic" || fail "prf stat true: $(cat "$tmp/basic")"
grep -q "Performance counter stats for 'true':" "$tmp/basic" || fail "header: $(cat "$tmp/basic")"
grep -qE "^ +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized" "$tmp/basic" || fail "task-clock row: $(cat "$tmp/basic")"
grep -qE "^ +[0-9]\.[0-9]{9} seconds time elapsed$" "$tmp/basic" || fail "elapsed line"
grep -qE "^ +[0-9]\.[0-9]{9} seconds user$" "$tmp/basic" || fail "user line"

# Exit status is the workload's; a signal gives 128+sig.
"$PRF" stat -- sh -c 'exit 3' 2>/dev/null; rc=$?
[ $rc -eq 3 ] || fail "exit status $rc, want 3"
"$PRF" stat -e task-clock -- sh -c 'kill -TERM $$' 2>/dev/null; rc=$?
[ $rc -eq 143 ] || fail "signal exit status $rc, want 143"

# A workload that cannot run.
out=$("$PRF" stat -- /nonexistent/prf-no-such-binary 2>&1); rc=$?
[ $rc -ne 0 ] || fail "nonexistent workload exit 0"
echo "$out" | grep -qx "Workload failed: No such file or directory" || fail "workload failure text: $out"
echo "$out" | grep -q "Performance counter stats" && fail "printed counts for a failed workload"

# -j: one JSON object per line with perf's keys.
"$PRF" stat -j -e task-clock,page-faults true 2>"$tmp/json" || fail "-j"
python3 - "$tmp/json" <<'EOP' || fail "JSON output: $(cat "$tmp/json")"
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
assert len(lines) == 2, lines
for l in lines:
    o = json.loads(l)
    for k in ("counter-value", "unit", "event", "event-runtime", "pcnt-running", "metric-value", "metric-unit"):
        assert k in o, (k, o)
assert [json.loads(l)["event"] for l in lines] == ["task-clock", "page-faults"]
assert json.loads(lines[0])["unit"] == "msec"
EOP

# -r 3: mean with ( +- X% ) and the elapsed +- line.
"$PRF" stat -r 3 -e task-clock,page-faults "$tmp/touch" 2>"$tmp/rep" || fail "-r 3"
grep -q "(3 runs):" "$tmp/rep" || fail "-r header: $(cat "$tmp/rep")"
grep -qE "seconds time elapsed  \( \+- +[0-9.]+% \)" "$tmp/rep" || fail "-r elapsed: $(cat "$tmp/rep")"
grep -q " +- " "$tmp/rep" || fail "no +-"

# -o FILE, -I interval, -x CSV without perf
"$PRF" stat -o "$tmp/out.txt" -e page-faults true 2>"$tmp/err" || fail "-o"
grep -q "page-faults" "$tmp/out.txt" || fail "-o file lacks counts"
[ -s "$tmp/err" ] && fail "-o still wrote to stderr: $(cat "$tmp/err")"
"$PRF" stat -I 100 -e task-clock -- sleep 0.35 2>"$tmp/int" || fail "-I"
grep -q "^#           time             counts unit events$" "$tmp/int" || fail "-I header: $(cat "$tmp/int")"
n=$(grep -cE "^ +[0-9]+\.[0-9]{9} +([0-9.]+|<not counted>) msec task-clock" "$tmp/int")
[ "$n" -ge 3 ] || fail "-I printed $n intervals: $(cat "$tmp/int")"

# -p of a running busy process: counted, header names the pid.
sh -c 'while :; do :; done' & busy=$!
"$PRF" stat -p $busy -e task-clock -- sleep 0.3 2>"$tmp/pid" || fail "-p"
grep -q "for process id '$busy':" "$tmp/pid" || fail "-p header: $(cat "$tmp/pid")"
grep -qE "^ +[0-9]{2,}\.[0-9]{2} msec task-clock" "$tmp/pid" || fail "-p task-clock not counted: $(cat "$tmp/pid")"
kill $busy; wait $busy 2>/dev/null; busy=

# -p without a command ends when the process ends (it stays a zombie here).
sleep 0.3 & s=$!
timeout 20 "$PRF" stat -p $s -e task-clock 2>"$tmp/pidend"; rc=$?
[ $rc -ne 124 ] || fail "-p did not stop when the process exited"
grep -q "seconds time elapsed" "$tmp/pidend" || fail "-p end: $(cat "$tmp/pidend")"
wait $s

# -a -A: one row per online cpu.
ncpu=$(getconf _NPROCESSORS_ONLN)
"$PRF" stat -a -A -x, -e cpu-clock -- sleep 0.1 2>"$tmp/percpu" || fail "-a -A"
n=$(grep -c "^CPU[0-9]*,.*,msec,cpu-clock," "$tmp/percpu")
[ "$n" -eq "$ncpu" ] || fail "-a -A rows $n, cpus $ncpu: $(cat "$tmp/percpu")"

# ---- side by side with Linux perf ----
if ! "$PERF" stat -e task-clock true >/dev/null 2>&1; then
	echo "perf not usable here: compatibility part skipped"
	exit 0
fi

# CSV: same number of fields per line and same event names as perf.
"$PRF" stat -x, -e task-clock,page-faults,context-switches "$tmp/touch" 2>"$tmp/prf.csv" || fail "prf -x"
"$PERF" stat -x, -e task-clock,page-faults,context-switches "$tmp/touch" 2>"$tmp/perf.csv" || fail "perf -x"
diff <(awk -F, '{print NF}' "$tmp/prf.csv") <(awk -F, '{print NF}' "$tmp/perf.csv") >/dev/null ||
	fail "CSV field counts differ: prf $(cat "$tmp/prf.csv") perf $(cat "$tmp/perf.csv")"
diff <(cut -d, -f2,3 "$tmp/prf.csv") <(cut -d, -f2,3 "$tmp/perf.csv") >/dev/null ||
	fail "CSV units/events differ: prf $(cat "$tmp/prf.csv") perf $(cat "$tmp/perf.csv")"
# page-faults agree within 30% (same binary, >= 2000 faults)
a=$(awk -F, '$3=="page-faults"{print $1}' "$tmp/prf.csv")
b=$(awk -F, '$3=="page-faults"{print $1}' "$tmp/perf.csv")
[ "$a" -ge 2000 ] || fail "prf page-faults $a < pages touched"
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.3 * b) }' ||
	fail "page-faults prf $a vs perf $b differ by more than 30%"

# Default events: <not supported> exactly where perf has it, same event order.
"$PRF" stat true 2>"$tmp/prf.def" || fail "prf default"
"$PERF" stat true 2>"$tmp/perf.def" || fail "perf default"
ev() { grep -E "^ +([0-9.,]+|<not supported>|<not counted>) +(msec )? *[a-z]" "$1" |
	sed -E 's/^ +//; s/^([0-9.,]+) +msec /NUM /; s/^([0-9.,]+) +/NUM /; s/^(<not [a-z]+>) +/\1 /' |
	awk '{print $1, $2 ($1=="<not"? " " $3 : "")}' | sed -E 's/NUM (msec )?/NUM /'; }
diff <(ev "$tmp/prf.def") <(ev "$tmp/perf.def") ||
	fail "default rows differ from perf: $(cat "$tmp/prf.def") --- perf: $(cat "$tmp/perf.def")"
# Same column layout: the '#' of the metric column at the same offset.
c1=$(grep " task-clock " "$tmp/prf.def" | awk '{print index($0, "#")}')
c2=$(grep " task-clock " "$tmp/perf.def" | awk '{print index($0, "#")}')
[ "$c1" = "$c2" ] || fail "metric column at $c1, perf at $c2"
exit 0
