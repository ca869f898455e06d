# Sourced by shell tests (not a test itself: the runner only runs
# tests/shell/*.sh). test_setup NAME [TOOL...]: PERF (Linux perf to compare
# with), skip (exit 2, reason last) when perf, cc, python3 or a named tool is
# missing, a temp dir $T removed on exit, and fail().
#   need TOOL...: skip unless every TOOL is on PATH; tmp_dir NAME: $T only.
#   perf_record OUT ARG...: perf record -q -o OUT ARG..., skip if it fails;
#     perf_record_bg OUT ARG... and perf_record_wait: the same, overlapped.
#   cc_prog NAME [CFLAG...]: build a shared test program of this folder.
#   prf_out OUT ARG...: "$PRF" ARG... into OUT (messages in OUT.err), fail()
#     unless it exits 0; for filtering prf's output without losing its status.
test_setup() {
	local name=$1
	shift
	PERF=${PERF_BIN:-/usr/bin/perf}
	[ -x "$PERF" ] || { echo "no $PERF (Linux perf) to compare with"; exit 2; }
	need cc python3 "$@"
	tmp_dir "$name"
}
fail() { echo "FAIL: $*"; exit 1; }

# need TOOL...: skip (exit 2, "no TOOL" last) unless every TOOL is on PATH.
need() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null || { echo "no $tool"; exit 2; }
	done
}

# tmp_dir NAME: a fresh temp dir $T (/tmp/prf-NAME.XXXXXX) removed on exit.
# A test that sets its own EXIT trap must remove $T there itself.
tmp_dir() {
	T=$(mktemp -d "/tmp/prf-$1.XXXXXX")
	trap 'rm -rf "$T"' EXIT
}

# perf_record OUT ARG...: record with Linux perf ("$PERF" record -q -o OUT
# ARG..., output to /dev/null, messages to $T/rec.err); when perf cannot
# record here (perf_event_paranoid, no such event) show why and skip.
perf_record() {
	local out=$1
	shift
	"$PERF" record -q -o "$out" "$@" >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }
}

# perf_record_bg OUT ARG...: perf_record in the background: perf record
# lingers about a second after its workload ends, asleep, so recordings
# that do not depend on each other overlap; perf_record_wait waits for all
# of them and skips, as perf_record does, when one failed (its messages
# are in OUT.rec.err).
PERF_BG=()
perf_record_bg() {
	local out=$1
	shift
	"$PERF" record -q -o "$out" "$@" >/dev/null 2>"$out.rec.err" &
	PERF_BG+=("$!:$out")
}
perf_record_wait() {
	local p bad=0
	for p in "${PERF_BG[@]}"; do
		wait "${p%%:*}" || { cat "${p#*:}.rec.err"; bad=1; }
	done
	PERF_BG=()
	[ $bad -eq 0 ] || { echo "perf record failed (perf_event_paranoid?)"; exit 2; }
}

# cc_prog NAME [CFLAG...]: compile the test program NAME.c of this folder
# (the programs several tests share; see the comment at the top of each)
# into $T/NAME, -O0 with frame pointers plus CFLAGs; fail() if cc fails.
cc_prog() {
	local name=$1
	shift
	cc -O0 -fno-omit-frame-pointer "$@" -o "$T/$name" \
		"$PRF_SRCDIR/tests/shell/lib/$name.c" || fail "cc $name.c"
}

# config_home: HOME=$T/home (made), whose ~/.perfconfig the test writes:
# perf's and prf's configuration from then on (prf test sets
# PERF_CONFIG=/dev/null for every test; a system file is skipped).
config_home() {
	unset PERF_CONFIG PERF_CONFIG_NOSYSTEM
	export HOME=$T/home
	mkdir -p "$HOME" || fail "mkdir $HOME"
	if [ -e /etc/perfconfig ]; then export PERF_CONFIG_NOSYSTEM=1; fi
}

# prf_out OUT ARG...: run "$PRF" ARG... with its output in OUT and its
# messages in OUT.err; fail() with them and the exit status unless it is 0.
# A test that filters prf's output filters OUT afterwards: a pipe from prf
# would check only the filter's status.
prf_out() {
	local out=$1 rc
	shift
	"$PRF" "$@" > "$out" 2> "$out.err"
	rc=$?
	[ $rc -eq 0 ] || { cat "$out.err"; fail "prf $* exit $rc"; }
}

# same_output VAR=VALUE WHAT OPT...: prf WHAT -i $T/perf.data OPT... prints
# the same with VAR=VALUE in its environment (a cache or memo turned off)
# as without; fail() otherwise. The output (without) is left in $T/same.out.
same_output() {
	local env=$1 what=$2
	shift 2
	"$PRF" "$what" -i "$T/perf.data" "$@" > "$T/same.out" 2>"$T/same.err" ||
		{ cat "$T/same.err"; fail "prf $what $*"; }
	env "$env" "$PRF" "$what" -i "$T/perf.data" "$@" > "$T/same.off" 2>/dev/null ||
		fail "prf $what $* ($env)"
	cmp -s "$T/same.off" "$T/same.out" ||
		{ diff "$T/same.off" "$T/same.out" | head -20; fail "$what $*: differs with $env"; }
	echo "ok: $what $* ($(wc -l < "$T/same.out") lines, the same with $env)"
}

# most_hits NAME: prf script -v on $T/perf.data reports "NAME: N hits" with
# N over half the samples (more than 100 of them); fail() otherwise.
most_hits() {
	local name=$1 nr hits
	"$PRF" script -i "$T/perf.data" -v 2>"$T/v.err" >/dev/null || fail "prf script -v"
	nr=$("$PRF" script -i "$T/perf.data" -F tid 2>/dev/null | wc -l)
	hits=$(sed -n "s/^$name: \\([0-9]*\\) hits.*/\\1/p" "$T/v.err" | head -1)
	[ -n "$hits" ] && [ "$nr" -gt 100 ] && [ "$hits" -gt $((nr / 2)) ] ||
		{ grep "$name" "$T/v.err"; fail "$name hits '${hits:-none}' of $nr samples"; }
	echo "ok: $hits of $nr samples from the $name"
}

# perf_gi_names: a filter for perf and prf report/script text, applied to
# both sides. perf 6.1 names some glibc functions by their hidden alias and
# marks them inlined ("__GI_exit (inlined)" for exit, whose DWARF linkage
# name is __GI_exit); prf shows the function itself, a documented
# difference (Documentation/prf-report.txt, "Names of some libc
# functions"). Where the DWARF itself names the code so (an assembler
# unit's DW_TAG_subprogram per alias of a syscall stub, last
# __GI_mprotect in ld.so), both print "__GI_mprotect (inlined)"; mapping
# only perf's side would make that a difference.
perf_gi_names() { sed -E 's/__GI_([A-Za-z_][A-Za-z0-9_]*) \(inlined\)/\1/g'; }
