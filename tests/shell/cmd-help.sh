#!/bin/bash
# prf multiplexer: help, version, unknown command and option exit codes
set -u
fail() { echo "FAIL: $*"; exit 1; }

out=$("$PRF" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "bare prf exit $rc"
echo "$out" | grep -q "usage: prf" || fail "bare prf shows no usage"
echo "$out" | grep -qE "^ +stat +" || fail "command list lacks stat"

"$PRF" --help | grep -q "usage: prf" || fail "--help"
"$PRF" help | grep -q "usage: prf" || fail "help"
"$PRF" --version | grep -qE "^prf version [0-9]+\.[0-9]+" || fail "--version"
"$PRF" version | grep -qE "^prf version" || fail "version"

out=$("$PRF" stst 2>&1); rc=$?
[ $rc -eq 1 ] || fail "unknown command exit $rc"
echo "$out" | grep -q "prf: 'stst' is not a prf command. Did you mean 'stat'?" || fail "no suggestion: $out"
out=$("$PRF" zzzzzzzz 2>&1)
echo "$out" | grep -q "Did you mean" && fail "suggested for a far name: $out"

# every command in the table has a manual page reachable two ways
for cmd in $("$PRF" help | awk '/^   [a-z]/ {print $1}'); do
	"$PRF" help "$cmd" | grep -q "prf-$cmd" || fail "prf help $cmd shows no page"
	"$PRF" "$cmd" --help | grep -q "prf-$cmd" || fail "prf $cmd --help shows no page"
done

# unknown option: usage and 129, like perf
out=$("$PRF" test --no-such-option 2>&1); rc=$?
[ $rc -eq 129 ] || fail "unknown option exit $rc"
echo "$out" | grep -q "Usage: prf test" || fail "unknown option shows no usage: $out"
exit 0
