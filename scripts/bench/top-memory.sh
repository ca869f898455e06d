#!/bin/bash
# top-memory.sh — resident memory of a long-running top while processes
# come and go: `prf top --stdio -a -d 1` and `perf top --stdio -a -d 1`
# run side by side for DURATION seconds (default 600) while a shell loop
# starts short processes (`sh -c` running small compiled programs of
# NAMES different names, each spinning a few ms, so that samples hit
# them); VmRSS of each top is read from /proc/PID/status every EVERY
# seconds. Reports VmRSS at the start (the first reading after WARMUP
# seconds, once the first screens and symbol tables are in), the middle
# and the end, and the growth per minute between the start and the end.
# Measures, never asserts.
#   DURATION=60 scripts/bench/top-memory.sh          # a quick look
#   PRF=path/to/prf PERF=/usr/bin/perf DURATION=300 scripts/bench/top-memory.sh
#   TOOLS=prf ... only prf (TOOLS="prf perf" is the default)
#   TOP_OPTS=-g ... options given to both tops (default none)
# The last column, the growth from the middle reading to the end, is the
# steady state once entries live their full ageing time (~90 refreshes).
# RESULTS-BEGIN recorded 2026-11-29 09:24-09:35 UTC, branch topmem,
# DURATION=600 EVERY=10, 2 CPUs shared with other jobs compiling and
# testing (load 23-28): VmRSS of each top.
# tool     start kB  middle kB     end kB  growth kB/min
# prf         24524      59388      84828         6000
# perf        57900     189588     202548        14300
# Before the model let exited threads go (same machine, DURATION=60):
# prf 28720 -> 51808 kB, 22700 kB/min; perf 56200 kB/min.
# What still grows in prf here is mostly hist entries of the other
# jobs' processes (unresolved addresses of stripped compilers, one
# entry per address, as perf keeps them), each living some 90 refreshes
# before it decays to 0 and is dropped; `prf top -v` prints at the end
# how many threads the model let go and still holds.
# Recorded 2026-11-29 11:50-12:20 UTC, branch topsym (unused DSOs let
# go, unresolved addresses aged by half once their count is 0, symbols
# loaded on their own threads), same machine, EVERY=10:
# tool     start kB  middle kB     end kB  growth kB/min
# prf         32964     116984     131308         9786  (600 s, prf alone, load 19-21)
# prf         34428      60808     101472        13276  (300 s, side by side, load 8-11)
# perf        83672     217168     320584        46913  (the same run)
# prf         28672      51020      52912         5912  (240 s, side by side, load 12-16)
# perf        68956     191180     260780        46786  (the same run)
# What prf keeps follows the other jobs' processes: `prf top -vv` on
# this workload alone held some 7500 live entries and 36 MB after a
# minute, flat for the next one.
# Recorded 2026-11-29 14:57-15:08 UTC, branch topmem (hists rebuilt with
# the callchain store's live nodes, the heap trimmed after each rebuild,
# held samples keeping their maps, 'a' ageing), DURATION=600 EVERY=10,
# load 10-15 (other helpers building): two runs side by side, this
# branch's prf with perf, and main's prf alone, each with its own loop
# (so every top saw both loops):
# tool         start kB  middle kB     end kB  growth kB/min
# prf              30248      61264      47352         1685
# perf             69096     238924     240208        16858
# prf (main)       29316      59500      65452         3566
# The start reading (10 s) is before the entries' ageing horizon (~90
# refreshes): what follows is the ramp to the live set, then flat. With
# -g (not measured by this script; VmRSS read every second, -a -d 1
# -g beside the same loop, 180 s, the two side by side):
# prf (main)  67216 kB at 20 s, 165112 at 80 s, 305496 at 180 s
# prf         63124 kB at 20 s, 153128 at 80 s, a sawtooth of 150-187 MB
#             from 80 s to 180 s (the store rebuilt as it doubles)
# Recorded 2026-11-29 15:41-15:52 UTC, main after the topmem merge,
# TOP_OPTS=-g DURATION=600 EVERY=10 WARMUP=60, side by side, load 2-5
# (the first minutes beside other jobs' builds, whose entries aged out):
# tool     start kB  middle kB     end kB  growth kB/min readings  late kB/min
# prf        271020     149452     115796       -15496.6       61      -6708.8
# perf       772840    1478088    1754856        98038.2       61      55169.7
# RESULTS-END
set -u
DURATION=${DURATION:-600}
EVERY=${EVERY:-5}
WARMUP=${WARMUP:-10}
NAMES=${NAMES:-50}
TOOLS=${TOOLS:-prf perf}
TOP_OPTS=${TOP_OPTS:-}
. "$(dirname "$0")/lib.sh"
bench_setup

cat > "$tmp/short.c" <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void work(void) { for (long i = 0; i < 2000000; i++) sink += i; }
int main(void) { work(); return 0; }
C
cc -O1 -o "$tmp/short" "$tmp/short.c" || exit 1
for i in $(seq -w 1 "$NAMES"); do cp "$tmp/short" "$tmp/short$i"; done

pids=()
loop_pid=
cleanup() {
	[ -n "$loop_pid" ] && kill "$loop_pid" 2>/dev/null
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# the tops, each with a stdin kept open and its screens discarded
declare -A top_pid
for tool in $TOOLS; do
	case $tool in
	prf) bin=$PRF ;;
	perf) bin=$PERF ;;
	*) echo "unknown tool $tool"; exit 1 ;;
	esac
	# shellcheck disable=SC2086 # TOP_OPTS: several words
	sleep $((DURATION + WARMUP + 30)) | "$bin" top --stdio -a -d 1 $TOP_OPTS > /dev/null 2> "$tmp/$tool.err" &
	top_pid[$tool]=$!
	pids+=($!)
	: > "$tmp/$tool.rss"
done

# processes coming and going: one after the other, names in turn
(
	n=0
	while :; do
		n=$((n % NAMES + 1))
		sh -c "$tmp/short$(printf "%0${#NAMES}d" "$n")"
	done
) &
loop_pid=$!

sleep "$WARMUP"
t0=$(date +%s)
end=$((t0 + DURATION))
while :; do
	now=$(date +%s)
	for tool in $TOOLS; do
		rss=$(awk '/VmRSS/ { print $2 }' "/proc/${top_pid[$tool]}/status" 2>/dev/null)
		[ -n "$rss" ] && echo "$((now - t0)) $rss" >> "$tmp/$tool.rss"
	done
	[ "$now" -ge "$end" ] && break
	sleep "$EVERY"
done
kill "$loop_pid" 2>/dev/null
wait "$loop_pid" 2>/dev/null
loop_pid=

echo "duration: ${DURATION}s, VmRSS every ${EVERY}s after ${WARMUP}s of warm-up; $NAMES program names;" \
     "options: ${TOP_OPTS:-none}; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-6s %10s %10s %10s %14s %8s %12s\n" tool "start kB" "middle kB" "end kB" "growth kB/min" readings \
	"late kB/min"
for tool in $TOOLS; do
	f=$tmp/$tool.rss
	n=$(wc -l < "$f")
	if [ "$n" -lt 2 ]; then
		printf "%-6s %s\n" "$tool" "no readings (did it start? $(head -c 200 "$tmp/$tool.err"))"
		continue
	fi
	read -r s0 r0 < <(head -1 "$f")
	read -r sm rm < <(sed -n "$(( (n + 1) / 2 ))p" "$f")
	read -r s1 r1 < <(tail -1 "$f")
	printf "%-6s %10d %10d %10d %14s %8d %12s\n" "$tool" "$r0" "$rm" "$r1" \
		"$(ratio $(( (r1 - r0) * 60 )) $((s1 - s0)) 1)" "$n" \
		"$(ratio $(( (r1 - rm) * 60 )) $((s1 - sm)) 1)"
done
