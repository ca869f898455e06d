# Sourced by the shell tests that compare prf report with perf report (not
# a test itself). Sources setup.sh (test_setup etc.).
#   REPORT_COMPARE: report-compare.py, which compares a perf and a prf
#     `report --stdio` output (python3 "$REPORT_COMPARE" PERF_OUT PRF_OUT).
#   report_check DATA OPT...: perf report and prf report -i DATA --stdio
#     OPT..., fail() unless prf exits 0 and REPORT_COMPARE finds them alike;
#     outputs in $T/perf.out and $T/prf.out.
#   report_same NAME OPT...: perf report and prf report -i $data --stdio
#     OPT... print the same text, tips aside (byte for byte); fail()
#     otherwise (perf's report made twice), or when perf printed nothing
#     or prf did not exit 0.
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"

REPORT_COMPARE=$PRF_SRCDIR/tests/shell/lib/report-compare.py

report_check() {
	local data=$1 rc
	shift
	"$PERF" report -i "$data" --stdio "$@" > "$T/perf.out" 2>/dev/null || fail "perf report $*"
	"$PRF" report -i "$data" --stdio "$@" > "$T/prf.out" 2>"$T/prf.err"; rc=$?
	[ $rc -eq 0 ] || { cat "$T/prf.err"; fail "prf report $* exit $rc"; }
	python3 "$REPORT_COMPARE" "$T/perf.out" "$T/prf.out" > "$T/cmp.out" 2>&1 ||
		{ cat "$T/cmp.out"; fail "prf report $* differs from perf report"; }
	echo "ok: report $* ($(cat "$T/cmp.out"))"
}

report_same() {
	local name=$1
	shift
	"$PERF" report -i "$data" --stdio "$@" 2>"$T/perf.err" | grep -av '^# (Tip:' > "$T/perf.txt"
	prf_out "$T/prf.raw" report -i "$data" --stdio "$@"
	grep -av '^# (Tip:' "$T/prf.raw" > "$T/prf.txt"
	[ -s "$T/perf.txt" ] || fail "$name: perf printed nothing"
	# perf's srclines come from addr2line children it stops waiting for
	# under load (an entry cut to another's column width, seen in CI):
	# perf's side is made once more before prf's is called different
	if ! cmp -s "$T/perf.txt" "$T/prf.txt"; then
		"$PERF" report -i "$data" --stdio "$@" 2>"$T/perf.err" | grep -av '^# (Tip:' > "$T/perf.txt"
		cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
		echo "note: $name: perf's first report differed from its second"
	fi
	echo "ok: report $name on $(basename "$data") ($(wc -l < "$T/prf.txt") lines)"
}
