#!/bin/bash
# prf record --kernel-callchains, --user-callchains, --sample-identifier, --running-time, --phys-data, --data-page-size, --code-page-size, -R, --no-bpf-event, -n, --no-buffering, --group, --timestamp-boundary and --dry-run set the perf_event_attr bits perf record sets (perf evlist -v of both files identical), and perf report and prf report read prf's files alike
# The program is tree (lib/tree.c) with a short run; page-faults gives
# data addresses for the address and page-size sample fields.
set -u
. "$PRF_SRCDIR/tests/shell/lib/report.sh"
test_setup record-attr-options
cc_prog tree

n=0
for opt in "--kernel-callchains -g" "--user-callchains -g" "--sample-identifier" \
	"--sample-identifier -e task-clock" "--running-time" "-R" "--no-bpf-event" "-n" \
	"--no-buffering" "--group -e task-clock" "--timestamp-boundary" \
	"-e page-faults -d --phys-data --data-page-size --code-page-size"; do
	# shellcheck disable=SC2086 # the options are words
	perf_record "$T/perf.data" -e cpu-clock $opt -- "$T/tree" 3000
	# shellcheck disable=SC2086
	"$PRF" record -q -o "$T/prf.data" -e cpu-clock $opt -- "$T/tree" 3000 > /dev/null 2> "$T/prf.err" ||
		{ cat "$T/prf.err"; fail "prf record $opt"; }
	"$PERF" evlist -v -i "$T/perf.data" > "$T/perf.ev" 2>&1
	"$PERF" evlist -v -i "$T/prf.data" > "$T/prf.ev" 2>&1
	grep -q 'sample_type' "$T/prf.ev" || { cat "$T/prf.ev"; fail "$opt: perf evlist cannot read prf's file"; }
	cmp -s "$T/perf.ev" "$T/prf.ev" || { diff "$T/perf.ev" "$T/prf.ev"; fail "$opt: attrs differ from perf record's"; }
	data=$T/prf.data
	case $opt in --group*)
		"$PERF" report -i "$data" --header-only 2> /dev/null | grep -q '^# group: {cpu-clock,task-clock}' ||
			fail "--group: no group in the header";;
	esac
	case $opt in --kernel-callchains*)
		# user-mode samples carry an empty callchain: every consumer
		# takes it (under ASan/UBSan too)
		for fmt in json pprof gecko speedscope; do
			prf_out "$T/conv.out" data convert -i "$data" --force --to-$fmt "$T/conv.$fmt"
		done
		prf_out "$T/fold.out" script -i "$data" --folded
		prf_out "$T/fg.out" flamegraph -i "$data" -o "$T/fg.html";;
	esac
	if [ "$opt" = -n ]; then
		"$PRF" report -i "$data" --stdio > "$T/n.out" 2>&1 || fail "-n: prf report failed"
		grep -q '^# Samples' "$T/n.out" && fail "-n: samples recorded"
	else
		report_same "record $opt" -s comm,dso,sym
	fi
	n=$((n + 1))
done
echo "ok: $n option sets: attrs as perf record's, prf's files reported alike"

# --dry-run: the options are parsed, nothing is recorded
rm -f "$T/dry.data"
"$PRF" record --dry-run -q -o "$T/dry.data" -e cpu-clock -- "$T/tree" 3000 || fail "--dry-run: non-zero exit"
[ -e "$T/dry.data" ] && fail "--dry-run wrote a file"
"$PRF" record --dry-run -q -o "$T/dry.data" -e no-such-event -- true > /dev/null 2>&1
rc=$?
[ $rc -eq 129 ] || fail "--dry-run with a bad event: exit $rc, want 129"
echo "ok: --dry-run records nothing, checks the options"
exit 0
