#!/usr/bin/env bash
# Run one libFuzzer harness of tests/fuzz/ for a while:
#   scripts/fuzz.sh TARGET SECONDS      (TARGET: a tests/fuzz/fuzz-TARGET.c harness)
# Builds the harnesses and seed corpora first (`make fuzz`). The working
# corpus grows in $FUZZ_O/work/TARGET (seeded from $FUZZ_O/corpus/TARGET
# and the regression inputs tests/fuzz/regress/TARGET, replayed first),
# crashers land in $FUZZ_O/crashes/TARGET/; nothing under the source tree
# is written. Exit status: 0 no crash, 1 a crash/leak/timeout was found
# (its input is printed), 2 usage or build error. Extra libFuzzer options
# may follow SECONDS (e.g. -runs=N to stop after N executions). FUZZ_NO_BUILD=1
# skips the rebuild when the harness exists. FUZZ_SAN=undefined uses the
# throughput build (no ASan, in .build-fuzz-undefined) for long runs; the
# default is address,undefined as in CI. The last line printed is always
#   fuzz TARGET [SANITIZERS]: N executions in S s (R exec/s), corpus C inputs, ...
# with N from libFuzzer's final stats (or its last status line after a crash).
set -u
cd "$(dirname "$0")/.." || exit 2
target=${1:-}
secs=${2:-}
if [ -z "$target" ] || [ -z "$secs" ] || ! [ "$secs" -ge 1 ] 2>/dev/null; then
	echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options]" >&2
	echo "targets: $(cd tests/fuzz && ls fuzz-*.c | sed 's/^fuzz-//; s/\.c$//' | tr '\n' ' ')" >&2
	exit 2
fi
shift 2
FUZZ_SAN=${FUZZ_SAN:-address,undefined}
if [ "$FUZZ_SAN" = address,undefined ]; then
	FUZZ_O=${FUZZ_O:-.build-fuzz}
else
	FUZZ_O=${FUZZ_O:-.build-fuzz-${FUZZ_SAN//,/-}}
fi
mk=(make -s --no-print-directory FUZZ_SAN="$FUZZ_SAN" FUZZ_O="$FUZZ_O")
if [ ! -f "tests/fuzz/fuzz-$target.c" ]; then
	echo "fuzz.sh: no harness tests/fuzz/fuzz-$target.c" >&2
	exit 2
fi
# FUZZ_NO_BUILD=1: use the harness as built (long runs while the tree changes)
if [ -z "${FUZZ_NO_BUILD:-}" ] || [ ! -x "$FUZZ_O/fuzz-$target" ]; then
	"${mk[@]}" "$FUZZ_O/fuzz-$target" || exit 2
fi
# seeds: this build's corpus, else the default build's (same files)
seeds="$FUZZ_O/corpus/$target"
[ -d "$seeds" ] || [ ! -d ".build-fuzz/corpus/$target" ] || seeds=".build-fuzz/corpus/$target"
[ -d "$seeds" ] || "${mk[@]}" fuzz-corpus || exit 2
work="$FUZZ_O/work/$target"
crashes="$FUZZ_O/crashes/$target"
mkdir -p "$work" "$crashes"
opts=(-max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 -print_final_stats=1
      -close_fd_mask=2 -artifact_prefix="$crashes/")
[ -f "tests/fuzz/$target.dict" ] && opts+=(-dict="tests/fuzz/$target.dict")
case $target in
parse-events) opts+=(-max_len=512) ;;
perf-map) opts+=(-max_len=4096) ;;
esac
log="$FUZZ_O/fuzz-$target.log"
start=$(date +%s)
# the minimized crashers of tests/fuzz/regress/TARGET are run first, as seeds
regress=()
[ -d "tests/fuzz/regress/$target" ] && regress=("tests/fuzz/regress/$target")
"$FUZZ_O/fuzz-$target" "${opts[@]}" "$@" "$work" "$seeds" "${regress[@]}" >"$log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))
# executions: the final stats, else the last "#N ..." status line (a crash)
runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
[ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)
[ -z "$done_line" ] || elapsed=$(echo "$done_line" | awk '{print $5}')
rate=$(( ${runs:-0} / (elapsed > 0 ? elapsed : 1) ))
# Ctrl-C / SIGINT: libFuzzer prints its stats and exits 72; not a crash
if [ $rc -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
	echo "fuzz $target [$FUZZ_SAN]: ${runs:-?} executions in ${elapsed} s (${rate} exec/s)," \
	     "corpus $(ls "$work" | wc -l) inputs, interrupted, no crash"
	exit 0
fi
if [ $rc -ne 0 ]; then
	grep -m1 -A30 -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error' \
		-e 'ERROR: libFuzzer' -e 'ALARM' "$log" | head -40
	grep -e 'Test unit written to' "$log" | tail -1
fi
echo "fuzz $target [$FUZZ_SAN]: ${runs:-?} executions in ${elapsed} s (${rate} exec/s)," \
     "corpus $(ls "$work" | wc -l) inputs, $([ $rc -eq 0 ] && echo 'no crash' || echo "CRASH (exit $rc)")"
[ $rc -eq 0 ] || exit 1
exit 0
