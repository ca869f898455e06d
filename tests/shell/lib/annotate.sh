# Helpers of the annotate tests (sourced after setup.sh).

# annotate_both FORMAT FILE WHAT OPTION...: perf annotate FORMAT -i FILE
# OPTION... into perf.txt and prf annotate the same into prf.txt (fail()
# when prf fails); skip (exit 2) when perf annotated nothing.
annotate_both() {
	local fmt=$1 f=$2 what=$3
	shift 3
	"$PERF" annotate "$fmt" -i "$f" "$@" > perf.txt 2>/dev/null
	prf_out prf.txt annotate "$fmt" -i "$f" "$@"
	grep -q -e 'Source code & Disassembly' -e '^Samples: ' perf.txt ||
		{ echo "perf annotated nothing ($what)"; exit 2; }
}

# annotate_same FORMAT FILE WHAT OPTION...: annotate_both, then the two
# outputs must be the same bytes (fail() with their first differences).
annotate_same() {
	local what=$3
	annotate_both "$@"
	cmp -s perf.txt prf.txt || { diff perf.txt prf.txt | head -20; fail "$what: differs from perf annotate $1"; }
}
