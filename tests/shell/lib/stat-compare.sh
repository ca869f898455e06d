# shellcheck shell=bash
# Sourced by the stat-*.sh tests after setup.sh (needs $T, $PERF, $PRF,
# fail): compare prf stat's output layout with perf stat's on the same
# command, the run-to-run numbers masked.
#   stat_mask FILE...: numbers -> N (with the spaces before them), rate
#     prefixes (K/M/G/sec -> /sec) and trailing spaces dropped; --table's
#     signs, bars and indent too.
#   stat_same NAME PERF-FILE PRF-FILE: fail unless both mask the same.
#   stat_run TAG ARG...: perf stat ARG... and prf stat ARG... with their
#     stderr in $T/perf.TAG and $T/prf.TAG; fail unless both exit with the
#     same status.
#   stat_both TAG ARG...: stat_run, then fail unless both mask the same.
stat_mask() {
	sed -e 's/[0-9][0-9]*/N/g' -e 's/  *N/ N/g' -e 's/[KMG]\/sec/\/sec/g' \
		-e 's/\/sec *$/\/sec/' -e 's/##*$/#/' -e 's/^ *#/ #/' -e 's/([-+]N/(N/' "$@"
}
stat_same() {
	diff <(stat_mask "$2") <(stat_mask "$3") >"$T/diff" ||
		fail "$1 differs from perf: $(cat "$T/diff")"
}
stat_run() {
	local tag=$1 rc prc
	shift
	"$PERF" stat "$@" 2>"$T/perf.$tag"
	prc=$?
	"$PRF" stat "$@" 2>"$T/prf.$tag"
	rc=$?
	[ $rc = $prc ] || fail "stat $*: exit $rc, perf $prc: $(cat "$T/prf.$tag")"
}
stat_both() {
	stat_run "$@"
	stat_same "stat ${*:2}" "$T/perf.$1" "$T/prf.$1"
}
