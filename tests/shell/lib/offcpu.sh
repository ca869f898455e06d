# Sourced by the off-CPU shell tests (not a test itself).
#   offcpu_setup NAME: skip (exit 2, reason last) off x86_64 (sleeper.h's
#     inline syscall), without cc or python3, or without the
#     sched:sched_switch tracepoint prf record --off-cpu needs; PERF (Linux
#     perf, optional here: test -x "$PERF" before using it), $T removed on
#     exit, and fail().
#   cc_sleeper NAME [CFLAG...]: compile $T/NAME.c, which includes
#     "sleeper.h", into $T/NAME (-O0, frame pointers); fail() if cc fails.
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"

offcpu_setup() {
	[ "$(uname -m)" = x86_64 ] || { echo "the test program's inline syscall is x86_64 only"; exit 2; }
	PERF=${PERF_BIN:-/usr/bin/perf}
	need cc python3
	tmp_dir "$1"
	"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
		{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }
}

cc_sleeper() {
	local name=$1
	shift
	cc -O0 -fno-omit-frame-pointer -I"$PRF_SRCDIR/tests/shell/lib" "$@" \
		-o "$T/$name" "$T/$name.c" || fail "cc $name.c"
}
