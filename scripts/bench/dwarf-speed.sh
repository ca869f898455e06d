#!/bin/bash
# dwarf-speed.sh [N] — speed of handling a --call-graph dwarf recording:
# records python3 running a loop with Linux perf (--call-graph dwarf,
# about 10,000 samples), then times, median of N runs (default 3):
#   perf report --stdio --no-children, perf script, perf script -F +srcline
#   prf report / prf script (same options) when those commands exist (for
#   these rows perf and prf take turns, run by run; prf maps the debug
#   images its first run kept, and the "first run" rows start each prf run
#   with nothing kept: see pair_row),
#   by default and with PRF_UNWIND_THREADS=1 and =2 (parallel unwinding), and
#   with libdw reading compressed debug files itself (PRF_DEBUG_IMAGE=0)
#   prf's unwinder alone (unwind only) and with srclines + inline frames,
#   through the unit test that reads the perf.data file ("unwind a perf.data")
# and prints samples/s and the prf/perf ratio. Measures, never asserts.
# Note: the unwinder-only rows parse just the records they need and skip
# symbol/report work, so they bound prf's cost from below; the report and
# script rows compare like with like once prf report/script exist.
#   PRF=path/to/prf PERF=/usr/bin/perf scripts/bench/dwarf-speed.sh 3
# PYTHON=path picks the interpreter (default: /usr/bin/python3, the
# distribution's, without DWARF of its own: glibc's from libc6-dbg). Give
# a full path: perf record puts its own directory first in the workload's
# PATH when run as /usr/bin/perf, so a bare "python3" there is
# /usr/bin/python3 whatever PATH says (it was, for every run recorded
# below). One built with -g (its libpython has DWARF: inline frames,
# addr2line work for perf) is the case where perf is slowest.
# RESULTS-BEGIN recorded 2026-11-27 10:16-11:08 UTC, 2 cores, medians of 7
# (wall s; the ratio is perf/prf wall, the goal's measure; cpu ratios lower
# because perf's addr2line children are not all waited for and counted).
# /usr/bin/python3 (libc6-dbg only; every run below, this stop's and
# earlier ones', recorded it: see PYTHON above), perf and prf taking turns
# run by run, each run recording its own file. prf's rows map glibc's
# debug image its first run kept; the "first run" rows start with nothing
# kept, as on a machine where prf never ran. Final binary of the stop:
# samples   task                 perf s   prf s   wall   first run: prf s   wall
# 11.4 K    report                0.376   0.037  10.2x              0.077   5.4x
#           script                0.532   0.056   9.5x              0.082   5.8x
#           script +srcline       9.601   0.084 114.3x
# 9.9 K     report                0.320   0.037   8.6x              0.072   4.5x
#           script                0.362   0.042   8.6x              0.062   6.5x
#           script +srcline       7.470   0.090  83.0x
# peak RSS (9.9 K): report 93.6 / 17.3 MB (0.18x), script 93.5 / 17.5 MB
# (0.19x), script +srcline 94.8 / 19.8 MB (0.21x).
# Earlier binaries of the stop (before the aranges, radix sort, CFI row
# mask and script hex changes below): 10.5 K report 8.4x, script 7.1x,
# srcline 104.3x; 9.2 K 7.8x / 7.9x / 75.5x; 9.2 K 6.3x / 7.5x.
# The rows run back to back instead of taking turns ("script, 1 unwinding
# thread", the same thing on 2 CPUs) gave script 10.7x to 13.0x.
# Where the time goes (36 samples of python3 -c: 7-9 ms of fixed cost,
# down from 11-14; then about 2.2 us a sample against perf's 21): the
# walk, whose own time is mostly its first reads of each sample's stack
# copy, symbols, the hists; for script also the text.
# Since stop 16:
# - glibc's inflated debug image (8.6 MB) is kept on disk after the run
#   that inflated all of its .debug_info and mapped by later runs
#   (util/model/debug-cache.h): on one 10.7 K-sample file, 11 alternating
#   runs, report 68.9 -> 40.9 ms (the VM in a slow phase); the same
#   binary reading decompressed copies of the debug files instead, as an
#   upper bound: 57.8 -> 36.8 ms. The run that keeps it pays about 5-10
#   ms more (the rest of .debug_line inflated, 9 MB written).
# - fixed costs: every debug image's CU index read from .debug_aranges by
#   prf (libdw's touched a page of glibc's .debug_info per unit), symbol
#   tables sorted by a radix sort instead of qsort: a 36-sample report
#   13.0 -> 8.8 ms, a 10.7 K-sample one 39.1 -> 34.3 ms.
# - per frame: a CFI row carries masks of its same-value and rule
#   registers (a step no longer switches over every register), no getenv
#   per frame, the register layout of a dump worked out once per mask,
#   addresses printed a byte at a time: a DWARF script's instructions
#   240 -> 213 M (callgrind).
# - a bigger per-thread CFI row memo (512, 1024 entries) cut the locked
#   lookups from 45 K to 1.4 K and the instructions by 6%, but not the
#   time (15 alternating runs each): not kept.
# - timing from a python3 parent instead of `date` and /usr/bin/time
#   processes around each run, which added milliseconds to prf's runs.
# Two unwinding threads still do not pay on 2 CPUs ("report, 2 unwinding
# threads" above): the delivering thread waits for the worker on most
# samples. A worker's per-frame store to the line the delivering thread
# polls was removed (collect_cb's share of such a profile 9.8% -> 2.9%).
# Stop 16, same bench (system python3): report 5.7-6.9x, script 7.0-7.5x,
# srcline 70-82x. pyenv 3.11.7 built with -g (PYTHON=its path): stop 16
# report 1.175 / 0.119 s = 9.9x, script 9.8x, srcline 6.1x (perf prints
# those srclines as fast as plain script); this stop, one 10.7 K-sample
# file, 7 alternating runs: report 1.34 / 0.10 s = 13x.
# RESULTS-END
set -u
N=${1:-3}
here=$(cd "$(dirname "$0")/../.." && pwd)
PRF=${PRF:-$here/prf}
PERF=${PERF:-/usr/bin/perf}
LOOPS=${LOOPS:-600}
PYTHON=${PYTHON:-/usr/bin/python3}
PYTHON=$(command -v "$PYTHON") || { echo "no python3 at ${PYTHON}"; exit 1; }
[ -x "$PRF" ] || { echo "no prf binary at $PRF (set PRF=)"; exit 1; }
[ -x "$PERF" ] || { echo "no perf at $PERF"; exit 1; }
dir=$(mktemp -d /tmp/prf-dwarf-speed.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

cat > loop.py <<'PY'
import sys
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def work():
    return sum(fib(15) for _ in range(200))
t = 0
for _ in range(int(sys.argv[1])):
    t += work()
PY
echo "recording: perf record -e task-clock:u --call-graph dwarf -F 999 $PYTHON loop.py $LOOPS"
"$PERF" record -q -e task-clock:u --call-graph dwarf -F 999 -o py.data "$PYTHON" loop.py "$LOOPS" \
	>/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
# binaries whose frames get srclines + inline frames: python itself and libpython
targets=$("$PYTHON" -c 'import sys, os, sysconfig
t = [os.path.realpath(sys.executable)]
lib = os.path.join(sysconfig.get_config_var("LIBDIR") or "", sysconfig.get_config_var("LDLIBRARY") or "")
if ".so" in lib and os.path.exists(lib): t.append(os.path.realpath(lib))
print(":".join(t))')
sync	# the recording's dirty pages written back before anything is timed
samples=$("$PERF" script -i py.data -F time 2>/dev/null | grep -c .)
echo "samples: $samples ($(du -h py.data | cut -f1))"
# the interpreter's own DWARF (Debian: python3.11-dbg's detached file) is
# what makes perf run addr2line on its frames: say which case this is
pyreal=$(readlink -f "$PYTHON")
bid=$(readelf -n "$pyreal" 2>/dev/null | awk '/Build ID/ { print $3; exit }')
if readelf -S "$pyreal" 2>/dev/null | grep -q ' \.debug_info'; then
	echo "interpreter DWARF: in $pyreal"
elif [ -n "$bid" ] && [ -r "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ]; then
	echo "interpreter DWARF: /usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug (e.g. python3.11-dbg)"
else
	echo "interpreter DWARF: none (glibc's only, if libc6-dbg is installed)"
fi

# one_s CMD...: "WALL_US USER SYS" of one run, timed by a python3 parent
# around fork+exec+wait only (GNU time's %e has 10 ms steps, and timing
# `date` and /usr/bin/time processes around it added milliseconds to
# prf's runs of a few tens of ms); CPU = user + sys of the command and
# its children (e.g. perf's addr2line). med_s: "WALL CPU" seconds,
# medians of the lines on stdin. median_s CMD...: of N runs.
one_s() {
	python3 -c 'import os, resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t1 = time.perf_counter()
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%d %.3f %.3f" % ((t1 - t0) * 1e6, r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime))' "$@"
}
med_s() {
	awk '{ w[NR] = $1 / 1e6; c[NR] = $2 + $3 }
		function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { printf "%.3f %.3f", med(w, NR), med(c, NR) }'
}
median_s() {
	local i
	for ((i = 0; i < N; i++)); do one_s "$@"; done | med_s
}
rate() { awk -v n="$samples" -v t="$1" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }'; }
row() {	# name "perf_wall perf_cpu" "prf_wall prf_cpu" (or "-")
	local pw pc qw=- qc=- ratio=-
	read -r pw pc <<< "$2"
	if [ "$3" != "-" ]; then
		read -r qw qc <<< "$3"
		ratio=$(awk -v a="$pw" -v b="$qw" -v c="$pc" -v d="$qc" \
			'BEGIN { printf "%.1fx/%.1fx", (b > 0 ? a / b : 0), (d > 0 ? c / d : 0) }')
	fi
	printf "%-34s %7s %7s %9s %7s %7s %9s %13s\n" "$1" "$pw" "$pc" "$(rate "$pc")" \
		"$qw" "$qc" "$( [ "$qc" = - ] && echo - || rate "$qc")" "$ratio"
}
has_cmd() { "$PRF" help 2>/dev/null | awk '/^   [a-z]/ {print $1}' | grep -qx "$1"; }
# prf_time CMD ARGS...: like median_s, or "-" when prf lacks CMD or it fails
prf_time() {
	if ! has_cmd "$1"; then echo -; return; fi
	if ! "$PRF" "$@" >/dev/null 2>&1; then echo -; echo "(prf $*: failed, skipped)" >&2; return; fi
	median_s "$PRF" "$@"
}

printf "%-34s %7s %7s %9s %7s %7s %9s %13s\n" task "perf" "perf" "perf" "prf" "prf" "prf" "speedup"
printf "%-34s %7s %7s %9s %7s %7s %9s %13s\n" "" "wall s" "cpu s" "smp/cpu-s" "wall s" "cpu s" "smp/cpu-s" "wall/cpu"
# pair_row NAME ARGS...: perf and prf on the same ARGS, run alternately N
# times each (this VM's speed drifts by tens of % within minutes: taking
# turns keeps a drift from landing on one side only); sets p to perf's.
# prf keeps the inflated images of compressed debug files (glibc's) in
# $PRF_DEBUG_CACHE, here a directory of this run: the first prf run
# (pair_row's check) keeps them, the measured ones map them, as any run
# after the first on a machine does. With COLD=1 each prf run starts with
# an empty directory instead, as the first run on a machine.
export PRF_DEBUG_CACHE=$dir/debug-cache
pair_row() {
	local name=$1 i
	shift
	if ! has_cmd "$1" || ! "$PRF" "$@" >/dev/null 2>&1; then
		p=$(median_s "$PERF" "$@")
		row "$name" "$p" -
		return
	fi
	: > "$dir/p.runs"
	: > "$dir/q.runs"
	for ((i = 0; i < N; i++)); do
		one_s "$PERF" "$@" >> "$dir/p.runs"
		if [ -n "${COLD:-}" ]; then
			PRF_DEBUG_CACHE=$dir/cold one_s "$PRF" "$@" >> "$dir/q.runs"
			rm -rf "$dir/cold"
		else
			one_s "$PRF" "$@" >> "$dir/q.runs"
		fi
	done
	p=$(med_s < "$dir/p.runs")
	row "$name" "$p" "$(med_s < "$dir/q.runs")"
}
pair_row "report --stdio --no-children" report -i py.data --stdio --no-children
COLD=1 pair_row "report, first run (nothing kept)" report -i py.data --stdio --no-children
pair_row "script" script -i py.data
pscript=$p
COLD=1 pair_row "script, first run (nothing kept)" script -i py.data
pair_row "script -F +srcline" script -i py.data -F +srcline
# peak memory (the goal: no more than perf), one run each, images kept
rss_kb() { /usr/bin/time -f %M -o "$dir/rss.out" "$@" >/dev/null 2>&1; tail -1 "$dir/rss.out"; }
if [ -x /usr/bin/time ] && has_cmd report && has_cmd script; then
	for args in "report -i py.data --stdio --no-children" "script -i py.data" \
		    "script -i py.data -F +srcline"; do
		# shellcheck disable=SC2086
		a=$(rss_kb "$PERF" $args) b=$(rss_kb "$PRF" $args)
		awk -v n="$args" -v a="$a" -v b="$b" 'BEGIN { printf "peak RSS, %-26s perf %6.1f MB  prf %6.1f MB  %.2fx\n", n, a / 1024, b / 1024, (a > 0 ? b / a : 0) }'
	done
fi
# the same with 1 and with 2 unwinding threads: the default rows above use
# the idle CPUs beyond two (none on a 2-CPU machine; util/model/unwind.h)
p=$(median_s "$PERF" report -i py.data --stdio --no-children)
q=$(PRF_UNWIND_THREADS=1 prf_time report -i py.data --stdio --no-children)
row "report, 1 unwinding thread" "$p" "$q"
q=$(PRF_UNWIND_THREADS=2 prf_time report -i py.data --stdio --no-children)
row "report, 2 unwinding threads" "$p" "$q"
q=$(PRF_UNWIND_THREADS=1 prf_time script -i py.data)
row "script, 1 unwinding thread" "$pscript" "$q"
q=$(PRF_UNWIND_THREADS=2 prf_time script -i py.data)
row "script, 2 unwinding threads" "$pscript" "$q"
# compressed separate debug files (glibc's) read by libdw itself instead of
# prf's in-memory image of the needed sections (util/model/debuginfo.c)
q=$(PRF_DEBUG_IMAGE=0 prf_time report -i py.data --stdio --no-children)
row "report, PRF_DEBUG_IMAGE=0" "$p" "$q"
has_cmd report || echo "(prf report: not built yet, skipped)"
has_cmd script || echo "(prf script: not built yet, skipped)"

# the unwinder itself (perf's comparable number: script, which unwinds every sample)
q=$(PRF_UNWIND_BENCH=1 PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET=/usr/bin/python3 \
	median_s "$PRF" test "unwind a perf.data")
row "unwind only (vs perf script)" "$pscript" "$q"
q=$(PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET="$targets" \
	median_s "$PRF" test "unwind a perf.data")
row "unwind+srcline+inline (vs script)" "$pscript" "$q"
PRF_UNWIND_BENCH=1 PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET=/usr/bin/python3 \
	"$PRF" test -v "unwind a perf.data" 2>&1 | grep "samples/s" | sed 's/^/in-process, unwind only: /; s/ (unwind+srcline+inline)//'
PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET="$targets" \
	"$PRF" test -v "unwind a perf.data" 2>&1 | grep "samples/s" | sed 's/^/in-process: /'
echo "(prf rows include starting prf and the test runner's fork; perf rows its own start-up)"
