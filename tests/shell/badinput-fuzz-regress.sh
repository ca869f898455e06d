#!/bin/bash
# Fuzz regressions: replay the minimized fuzzer finds of tests/fuzz/regress/ through prf (file and pipe mode)
# prf-test: needs-source: replays the fuzzer finds kept in tests/fuzz/regress/
# Each input once made a harness of tests/fuzz/ crash, leak or hang. Through
# the normal prf binary every one must now end in time (timeout 20) with
# exit 0 or 1 (a message for what was bad), never a signal or a sanitizer
# report. Set PRF_ASAN to a `make SANITIZE=address,undefined` build to
# replay under the sanitizers too.
#   regress/session/*       perf.data: report, script, header, pipe mode
#   regress/parse-events/*  event strings: prf stat -e STRING -- true
#   regress/elf/*           ELF files: report --symfs on a recording
set -u
R=${PRF_SRCDIR:-.}/tests/fuzz/regress
[ -d "$R" ] || { echo "no $R"; exit 2; }
T=$(mktemp -d /tmp/prf-fuzz-regress.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
BINS=("$PRF")
[ -n "${PRF_ASAN:-}" ] && [ -x "$PRF_ASAN" ] && BINS+=("$PRF_ASAN")
n=0

check() { # WHAT CMD... (stdin from /dev/null unless redirected by caller)
	local what=$1 rc
	shift
	timeout 20 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 124 ] && fail "$what: hung (20 s)"
	[ $rc -le 1 ] || [ $rc -eq 129 ] || fail "$what: exit $rc: $(tail -3 "$T/err")"
	grep -q -e 'Sanitizer' -e 'runtime error:' "$T/err" && fail "$what: $(grep -m1 -e Sanitizer -e 'runtime error:' "$T/err")"
	return 0
}

for f in "$R"/session/*; do
	[ -f "$f" ] || continue
	for b in "${BINS[@]}"; do
		check "report $f [$b]" "$b" report --stdio -i "$f"
		check "script $f [$b]" "$b" script -i "$f"
		check "header $f [$b]" "$b" report --header-only -i "$f"
		check "pipe $f [$b]" sh -c "cat '$f' | '$b' report --stdio -i -"
	done
	n=$((n + 1))
done
for f in "$R"/parse-events/*; do
	[ -f "$f" ] || continue
	for b in "${BINS[@]}"; do
		check "stat -e $(head -c 60 "$f" | tr -dc '[:print:]') [$b]" "$b" stat -e "$(cat "$f")" -- true
	done
	n=$((n + 1))
done
for f in "$R"/elf/*; do
	[ -f "$f" ] || continue
	[ -x "${PERF_BIN:-/usr/bin/perf}" ] || break
	mkdir -p "$T/symfs/bin"
	# the file stands in for /bin/ls under --symfs
	cp "$f" "$T/symfs/bin/ls"
	[ -f "$T/ls.data" ] || "${PERF_BIN:-/usr/bin/perf}" record -q -o "$T/ls.data" -- /bin/ls -lR /usr/share/doc >/dev/null 2>&1
	for b in "${BINS[@]}"; do
		check "report --symfs with $f [$b]" "$b" report --stdio --symfs "$T/symfs" -i "$T/ls.data"
	done
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no regression inputs in $R"; exit 2; }
echo "ok: $n fuzzer finds replayed without a crash or hang (${#BINS[@]} build(s))"
exit 0
