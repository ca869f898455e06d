#!/usr/bin/env bash
# Run one libFuzzer harness of tests/fuzz/ for a while:
#   scripts/fuzz.sh TARGET SECONDS      (TARGET: session, parse-events, perf-map, elf)
# Builds the harnesses and seed corpora first (`make fuzz`). The working
# corpus grows in $FUZZ_O/work/TARGET (seeded from $FUZZ_O/corpus/TARGET),
# crashers land in $FUZZ_O/crashes/TARGET/; nothing under the source tree
# is written. Exit status: 0 no crash, 1 a crash/leak/timeout was found
# (its input is printed), 2 usage or build error. Extra libFuzzer options
# may follow SECONDS (e.g. -jobs=2 -workers=2). FUZZ_NO_BUILD=1 skips the
# rebuild when the harness exists.
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
FUZZ_O=${FUZZ_O:-.build-fuzz}
if [ ! -f "tests/fuzz/fuzz-$target.c" ]; then
	echo "fuzz.sh: no harness tests/fuzz/fuzz-$target.c" >&2
	exit 2
fi
# FUZZ_NO_BUILD=1: use the harness as built (long runs while the tree changes)
if [ -z "${FUZZ_NO_BUILD:-}" ] || [ ! -x "$FUZZ_O/fuzz-$target" ]; then
	make -s --no-print-directory FUZZ_O="$FUZZ_O" "$FUZZ_O/fuzz-$target" || exit 2
fi
[ -d "$FUZZ_O/corpus/$target" ] || make -s --no-print-directory FUZZ_O="$FUZZ_O" fuzz-corpus || exit 2
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
"$FUZZ_O/fuzz-$target" "${opts[@]}" "$@" "$work" "$FUZZ_O/corpus/$target" >"$log" 2>&1
rc=$?
runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
echo "fuzz $target: ${runs:-?} executions in ${secs}s, corpus $(ls "$work" | wc -l) inputs, exit $rc"
if [ $rc -ne 0 ]; then
	grep -m1 -A30 -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error' \
		-e 'ERROR: libFuzzer' -e 'ALARM' "$log" | head -40
	grep -e 'Test unit written to' "$log" | tail -1
	exit 1
fi
exit 0
