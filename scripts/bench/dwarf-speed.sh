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
#   through the unit test that reads the perf.data file (unwind-perf-data)
# and prints samples/s and the prf/perf ratio. Measures, never asserts.
# Note: the unwinder-only rows parse just the records they need and skip
# symbol/report work, so they bound prf's cost from below; the report and
# script rows compare like with like once prf report/script exist.
#   PRF=path/to/prf PERF=/usr/bin/perf scripts/bench/dwarf-speed.sh 3
# PYTHON=path picks the interpreter (default: /usr/bin/python3, the
# distribution's). Give a full path: perf record puts its own directory
# first in the workload's PATH when run as /usr/bin/perf, so a bare
# "python3" there is /usr/bin/python3 whatever PATH says.
# Two setups, which the script names ("interpreter DWARF:"):
# - no DWARF for the interpreter, glibc's from libc6-dbg: perf resolves
#   python's frames from .dynsym alone and is fast at report/script, but
#   its srcline output runs addr2line on a binary without lines;
# - the interpreter's detached DWARF installed (apt-get install
#   python3.11-dbg, or any interpreter built with -g): perf runs addr2line
#   on python's frames for inline frames in report and script too. Its
#   perf report (about 6,000 samples/s here, against 35,000 without) is
#   the nearer to the 2,800 samples/s issue #6 quotes.
#   Note: perf record copies the debug file it finds into its build-id
#   cache (~/.debug/.build-id/), where perf and prf keep finding it after
#   the package is removed: delete it there to go back to the first.
# RESULTS-BEGIN
# Stop 27 (2026-11-28 17:47-17:56 UTC, binary 15303ce, medians of 5, the
# same bench): python3.11's DWARF (perf's build-id cache, 7.7 K samples,
# 63 MB) report 45.4x, script 60.3x, srcline 52.5x (prf 50 ms, perf
# 2.62 s; the 1-thread row of the same run 59.6x, 44 ms), RSS
# 0.27-0.29x; no python DWARF (7.8 K samples) report 18.1x, script
# 20.7x, srcline 120.4x (prf 36 ms, perf 4.34 s), first runs 5.6x /
# 6.6x / 33.9x, RSS 0.23-0.25x. New this stop: the reader reads the
# data with pread() into 2 MB blocks, each one transparent huge page,
# used again once their records are delivered, a helper thread three
# blocks ahead, instead of mapping the file: in this VM a mapped page
# costs its page table entry, the hypervisor's first touch (shadow
# paging) and its take-down, 46-75 ms for a 62 MB file touched page by
# page, against 9-12 ms of pread() into a huge-page block (12 MB of
# fresh 4 KB pages: 53 ms to touch, as huge pages 0.8 ms). The stop 26
# attempt at blocks failed on exactly that fresh memory. `script -F
# +srcline` on a 62 MB recording: 66 -> 41 ms in turns, RSS 17.3 MB
# either way.
# Stop 26 (2026-11-28 15:40-15:45 UTC, binary ee5ec52, medians of 5, the
# same bench): no python DWARF (12.5 K samples, 101 MB) report 1.037 /
# 0.071 s 14.6x, script 16.9x, srcline 111.5x (prf 68 ms, perf 7.6 s),
# first runs 5.3x / 7.0x / 47.4x, RSS 0.16-0.17x; python3.11's DWARF
# (perf's build-id cache, 9.1 K samples, 74 MB) report 36.5x, script
# 45.8x, srcline 45.8x (prf 59 ms, perf 2.70 s; the 1-thread row of the
# same run 39.1x, 69 ms: runs here move by 10%), RSS 0.24-0.26x. New
# this stop: the map-ahead helper gives back up to 8 MB behind before the
# reader takes that over (it did half the 2 MB steps itself): 3-6% in
# turns. What is left is this VM's price of a file page: the helper
# maps (0.15-0.5 us a page), reads (the hypervisor's first touch, 1.6 us)
# and gives back each page, about as fast as the reader reads them, so
# the reader still maps and first-touches a third of the steps itself
# (about 250 faults of 64 KB on a 65 MB recording). Tried and dropped:
# a helper that pread()s the data ahead into 2 MB blocks used again
# (0.9 us a page here): records waiting in the ordered queue held 5
# blocks, 10 MB of fresh memory (3000 more page faults), and `script -F
# +srcline` took 87 ms where mapping takes 71.
# Stop 25 (2026-11-28 12:40-12:55 UTC, binary 8700510, medians of 5, the
# same bench): no python DWARF (8.1 K samples) report 0.696 / 0.056 s
# 12.4x, script 14.2x, srcline 90.4x (prf 58 ms, perf 5.2 s), first
# runs 4.9x / 5.4x / 33.3x, RSS 0.22-0.24x; python3.11's DWARF (perf's
# build-id cache, 7.8 K) report 35.4x, script 45.2x, srcline 38.1x
# (prf 55 ms, perf 2.10 s; the 1-thread row of the same run 42.0x, 50
# ms), RSS 0.25-0.27x. New this stop: cache tables that grow with use
# (they were sized for long runs, and in this VM a fresh page costs 4-10
# us: a 77-sample recording spent a fifth of its time making them) and
# libslang loaded by the TUI only (1.4 ms of every start). In turns
# against stop 24's binary: the 77-sample recording 25.6 -> 21.3 ms,
# 7.7 K samples 57.6 -> 55.7 ms (perf stat: 54.9 -> 50.8 ms with the
# tables grown against the same code at full size). Still short of 50x
# on srcline with the interpreter's DWARF: about 6 ms of each run is
# process start (exec, ld.so, 12 libraries), and fresh memory (about 4
# MB: memos, kept chains and their text, CFI rows) costs a page fault
# and the hypervisor's first touch a page.
# Stop 24 (2026-11-28 09:45-10:25 UTC, medians of 5, the same bench):
# no python DWARF (8.2 K samples, binary 5c6561f) report 0.685 / 0.053 s
# 12.9x, script 14.7x, srcline 111.0x (prf 66 ms, perf 7.3 s), first
# runs 4.7x / 5.0x / 37.6x, RSS 0.24-0.26x; python3.11's DWARF (perf's
# build-id cache, 7.8 K, binary 290fdfa) report 33.5x, script 42.4x,
# srcline 36.9x (prf 55 ms, perf 2.03 s), RSS 0.28-0.31x. New this
# stop: the walk memo (a walk that reads the same registers and stack
# words as an earlier one takes its frames: 95% of the walks of these
# recordings), the script text written 64 KB at a time without stdio's
# copy, per-thread memos made on first use instead of 369 KB of TLS.
# In turns on one file (12.2 K samples, python3.11's DWARF): srcline
# 80 -> 64 ms against stop 23's binary. What is left in that setup is
# mostly fixed: the same command on a 77-sample recording of the same
# program takes 26 ms (process start and loading 13 libraries, the
# kept symbol tables, debug images and line tables mapped and their
# pages first touched: 1.7 us a page in this VM), so 50x there needs
# the fixed part cut, not the per-sample one (4.4 us a sample now).
# Stop 23 (2026-11-28 06:05-06:50 UTC, binary 8c6d40a, medians of 5, the
# same bench): no python DWARF (7.5 K samples) report 0.601 / 0.052 s
# 11.6x, script 11.7x, srcline 76.1x, first runs 4.7x / 4.8x / 30.4x,
# RSS 0.26-0.28x; an earlier run of this stop, before the map-ahead
# helper read each page and before the start-up page faults were cut
# (7.8 K): report 10.2x, script 12.1x, srcline 77.9x. python3.11-dbg,
# two runs (8.4 K / 11.6 K samples): report 31.2x / 34.4x, script 35.2x /
# 32.5x, srcline 36.4x / 31.8x (prf 0.076 / 0.073 s, perf 2.77 / 2.32 s),
# RSS 0.21-0.29x. The srcline ratio is below stop 22's 56.1x, and not
# because prf got slower: on one file, in turns, stop 22's binary took
# 118 ms and this one 87 ms for `script -F +srcline`; the VM was slower
# for prf's kind of work this session (page cache dropped within
# seconds, costly first touches of pages) while perf's time stayed
# about the same. 1 / 2 unwinding threads: a second one still does not
# pay on 2 CPUs (report 10.4x / 9.0x, srcline 71.1x / 43.8x).
# Stop 22, recorded 2026-11-28 02:05-02:10 UTC (python3.11-dbg) and
# 01:25-01:35 (no python DWARF), 2 cores, medians of 5
# (wall s; the ratio is perf/prf wall, the goal's measure; cpu ratios lower
# because perf's addr2line children are not all waited for and counted).
# perf and prf take turns run by run, each bench run recording its own
# file. prf's rows map what its first run kept (debug images, line tables,
# PLT answers, symbol tables, inline chains); the "first run" rows start
# with nothing kept, as on a machine where prf never ran. Binaries of
# d3e4fcb (python3.11-dbg) and d53bff3 (no python DWARF; before the
# inline chains were kept, which only concerns glibc's frames there):
# setup / samples          task             perf s  prf s   wall  first run: prf s  wall
# no python DWARF, 14.5 K  report            0.646  0.062  10.4x             0.081  7.8x
#                          script            0.735  0.057  12.9x             0.097  7.9x
#                          script +srcline  23.794  0.064 371.8x             0.122 176.7x
# python3.11-dbg, 15.8 K   report            2.990  0.064  46.7x             0.228 10.6x
#                          script            2.501  0.056  44.7x             0.200 12.4x
#                          script +srcline   2.695  0.048  56.1x             0.182 15.3x
# peak RSS, perf / prf: no python DWARF 131.7 / 23.4 MB (0.18x) report,
# 0.17x script, 0.18x script +srcline; python3.11-dbg 143.7 / 24.4 MB
# (0.17x) report, 0.17x script, 25.8 MB (0.18x) script +srcline.
# Earlier runs of this stop (python3.11-dbg, before the inline chains
# were kept): srcline 48.4x / 41.0x / 40.2x (prf 0.068 / 0.070 / 0.065 s,
# perf 3.29 / 2.87 / 2.62 s: the ratio moves with perf's time as much as
# with prf's), report 39.2x / 45.0x / 53.8x, script 41.3x / 39.4x / 48.5x.
# What changed since stop 21: DWARF chains go through the callchain
# cache (util/model/callchain.h): the walk still runs per sample, but the
# chain is keyed by its unwound addresses, so a repeated stack's symbols,
# inline frames and srclines are resolved once (the python loop: 14 K
# samples, 600 distinct chains), and script prints a repeated chain by
# copying its text; the cache's table is written at once instead of
# taking copy-on-write faults with TLB-flush IPIs; the inline chains a
# run worked out are kept (util/model/inline-cache.h): later runs build
# no function or inline-scope index and read no line table (26 -> 10 ms
# on a 96-sample file, 58 -> 47 ms on 14 K samples, in turns with the
# binary before); the line table of python's crt units (empty) is kept
# too; CFI rows with only CFA+offset rules run a short loop; CU,
# function and scope indexes sorted by radix; the data mapping given
# back in whole 2 MB PMDs (no more PMD splits). Alternating with stop
# 21's binary on the same 14 K-sample file: 82 -> 66 ms before the
# inline chains were kept.
# 1 / 2 unwinding threads (rows timed one after the other, not in turns,
# so more exposed to the VM's swings: the 1-thread rows are the default's
# configuration): no python DWARF report 12.3x / 11.6x, script 14.7x /
# 13.1x; python3.11-dbg report 42.2x / 41.1x, script 36.8x / 31.3x,
# srcline 33.7x / 28.7x: a second unwinding thread still does not pay on
# 2 CPUs (the default stays one; the workers' resolution ahead does not
# use the chain cache).
# Stop 21 (same bench, medians of 5): no python DWARF (15.7 K) report
# 11.3x, script 10.7x, srcline 251x, first runs 6.1x / 7.5x / 160x;
# python3.11-dbg (13.8 K) report 37.8x, script 37.9x, srcline 33.5x.
# Stop 20 (same bench, medians of 5): no python DWARF (12.7 K) report
# 12.5x, script 12.6x, srcline 219x, first runs 4.8x / 7.0x / 137x;
# python3.11-dbg (14.5 K) report 34.9x, script 36.7x, srcline 30.3x.
# Stop 19 (same bench, medians of 5): no python DWARF (14.4 K) report
# 11.5x, script 12.3x, srcline 208x, first runs 5.6x / 8.0x;
# python3.11-dbg (15.1 K) report 33.4x, script 36.4x, srcline 25.3x.
# Stop 18: no python DWARF report 10.3x, script 9.5x, srcline 106x;
# python3.11-dbg report 27.5x, script 35.9x, srcline 19.6x.
# Where the time goes (perf record -e cpu-clock on prf, python3.11-dbg,
# script -F +srcline, with the cache): the walk (its own time mostly
# the first reads of each sample's stack copy) a quarter, the text output
# a tenth, inline chains (per-thread memos, the DSO's caches), the file
# mapping's page faults and the release of its consumed pages
# (MADV_DONTNEED, a few %), symbol and map lookups. The line programs of
# python's LTO units (a fifth of that run before, read once) now come
# from the kept line tables (util/model/line-cache.h): 98 -> 78 ms there,
# when measured in turns with the stop 19 binary. 50x on srcline in the
# python3.11-dbg setup would need prf under 60 ms.
# First runs pay for inflating glibc's compressed debug file and writing
# its image (the write alone is a tenth of a first report), and, for
# srcline, reading the line programs and writing the line tables.
# Two threads: the workers resolve whole samples ahead (callchain with
# symbols, inline frames, srclines) and take 70-80% of them, but the
# delivering thread's own part (parsing, ordering, printing, page
# faults, the file's page release) is now larger than what moves.
# pyenv 3.11.7 built with -g (PYTHON=its path), stop 17: report 13x.
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
elif [ -n "$bid" ] && [ -r "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/debug" ]; then
	# perf record copies a debug file it finds into its build-id cache,
	# where perf and prf keep finding it after python3.11-dbg is removed
	echo "interpreter DWARF: $HOME/.debug/.build-id/${bid:0:2}/${bid:2}/debug (perf's build-id cache)"
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
# prf keeps the inflated images of compressed debug files (glibc's), the
# line tables it read and its PLT naming answers in $PRF_DEBUG_CACHE, here
# a directory of this run: the first prf run (pair_row's check) keeps
# them, the measured ones map them, as any run after the first on a
# machine does (a srcline run after a plain one adds its line tables). With COLD=1 each prf run starts with
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
psrc=$p
COLD=1 pair_row "script +srcline, first run" script -i py.data -F +srcline
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
q=$(PRF_UNWIND_THREADS=1 prf_time script -i py.data -F +srcline)
row "srcline, 1 unwinding thread" "$psrc" "$q"
q=$(PRF_UNWIND_THREADS=2 prf_time script -i py.data -F +srcline)
row "srcline, 2 unwinding threads" "$psrc" "$q"
# compressed separate debug files (glibc's) read by libdw itself instead of
# prf's in-memory image of the needed sections (util/model/debuginfo.c)
q=$(PRF_DEBUG_IMAGE=0 prf_time report -i py.data --stdio --no-children)
row "report, PRF_DEBUG_IMAGE=0" "$p" "$q"
has_cmd report || echo "(prf report: not built yet, skipped)"
has_cmd script || echo "(prf script: not built yet, skipped)"

# the unwinder itself (perf's comparable number: script, which unwinds every sample)
q=$(PRF_UNWIND_BENCH=1 PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET=/usr/bin/python3 \
	median_s "$PRF" test unwind-perf-data)
row "unwind only (vs perf script)" "$pscript" "$q"
q=$(PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET="$targets" \
	median_s "$PRF" test unwind-perf-data)
row "unwind+srcline+inline (vs script)" "$pscript" "$q"
PRF_UNWIND_BENCH=1 PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET=/usr/bin/python3 \
	"$PRF" test -v unwind-perf-data 2>&1 | grep "samples/s" | sed 's/^/in-process, unwind only: /; s/ (unwind+srcline+inline)//'
PRF_UNWIND_DATA=py.data PRF_UNWIND_OUT=/dev/null PRF_UNWIND_TARGET="$targets" \
	"$PRF" test -v unwind-perf-data 2>&1 | grep "samples/s" | sed 's/^/in-process: /'
echo "(prf rows include starting prf and the test runner's fork; perf rows its own start-up)"
