# Sourced by shell tests (not a test itself: the runner only runs
# tests/shell/*.sh). test_setup NAME [TOOL...]: PERF (Linux perf to compare
# with), skip (exit 2, reason last) when perf, cc, python3 or a named tool is
# missing, a temp dir $T removed on exit, and fail().
test_setup() {
	local name=$1 tool
	shift
	PERF=${PERF_BIN:-/usr/bin/perf}
	[ -x "$PERF" ] || { echo "no $PERF (Linux perf) to compare with"; exit 2; }
	for tool in cc python3 "$@"; do
		command -v "$tool" >/dev/null || { echo "no $tool"; exit 2; }
	done
	T=$(mktemp -d "/tmp/prf-$name.XXXXXX")
	trap 'rm -rf "$T"' EXIT
}
fail() { echo "FAIL: $*"; exit 1; }
