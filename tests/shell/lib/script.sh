# Sourced by the shell tests that compare prf script with perf script (not
# a test itself). Sources setup.sh (test_setup etc.).
#   same NAME ARG...: perf script and prf script -i "$IN" ARG... print the
#     same bytes; fail() unless prf exits 0, perf printed something and the
#     outputs are identical (the first differing lines shown). Outputs in
#     $T/perf.txt and $T/prf.txt.
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"

same() {
	local name=$1
	shift
	"$PERF" script -i "$IN" "$@" > "$T/perf.txt" 2>/dev/null
	prf_out "$T/prf.txt" script -i "$IN" "$@"
	[ -s "$T/perf.txt" ] || fail "$name: perf printed nothing"
	cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
	echo "ok: script $name ($(wc -l < "$T/prf.txt") lines, $(basename "$IN"))"
}
