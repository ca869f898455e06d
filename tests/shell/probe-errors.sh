#!/bin/bash
# prf probe fails clearly: missing function, bad argument expression, no debug info, unprivileged user, usage
# Each case: a message saying what is wrong (perf's words), a non-zero
# exit status, and no probe event left behind. Nothing is added, so the
# test runs beside others.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup probe-errors setpriv
# the cases past tracefs need root, and dropping privileges too
[ "$(id -u)" = 0 ] || { echo "not root"; exit 2; }

cc -g -O0 -o "$T/probed" "$PRF_SRCDIR/tests/shell/lib/probed.c" || fail "cc probed.c"
cc -O0 -o "$T/nodebug" "$PRF_SRCDIR/tests/shell/lib/probed.c" || fail "cc nodebug"

# fails WANT_STATUS MESSAGE_REGEX ARG...: prf probe ARG... exits WANT_STATUS
# with a line matching MESSAGE_REGEX on stderr
fails() {
	local want=$1 re=$2 rc
	shift 2
	"$PRF" probe "$@" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc -eq "$want" ] || { cat "$T/err"; fail "prf probe $*: exit $rc, want $want"; }
	grep -Eq "$re" "$T/err" || { cat "$T/err"; fail "prf probe $*: no '$re'"; }
	echo "ok: probe $* -> $rc, $(grep -E "$re" "$T/err" | head -1)"
}

fails 1 "^Probe point 'nosuch' not found\.$" -x "$T/probed" nosuch
fails 1 '^  Error: Failed to add events\.$' -x "$T/probed" -n nosuch
fails 1 '^p\(type:pt\) has no member zz\.$' -x "$T/probed" 'use p->zz'
fails 1 "^Failed to find the location of the 'nosuchvar' variable at this address\.$" -x "$T/probed" 'greet nosuchvar'
fails 1 "Semantic error: You can't specify \\\$retval on this probe point" -x "$T/probed" 'greet $retval'
fails 1 'has no debug information\.$' -x "$T/nodebug" 'greet who'
fails 1 'has no debug information\.$' -x "$T/nodebug" -V greet
fails 1 '^"probe_probed:nosuch\*" does not hit any event\.$' -d 'probe_probed:nosuch*'
fails 129 '^Failed to get the absolute path of .*/missing: No such file or directory$' -x "$T/missing" greet
fails 129 'No probe point or action is given' -x "$T/probed"
fails 129 'unknown option' --no-such-option

# without DWARF a symbol probe still works (a dry run: nothing added)
"$PRF" probe -n -x "$T/nodebug" greet > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "-n nodebug greet"; }
grep -q '^  probe_nodebug:greet  *(on greet in ' "$T/err" || { cat "$T/err"; fail "dry run output"; }
echo "ok: a symbol probe on a binary without DWARF (dry run)"

# an unprivileged user can neither read nor write tracefs
chmod 755 "$T"
fails_nobody() {
	local re=$1 rc
	shift
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PRF" probe "$@" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/err"; fail "unprivileged prf probe $*: exit $rc"; }
	grep -q "$re" "$T/err" || { cat "$T/err"; fail "unprivileged prf probe $*: no '$re'"; }
	echo "ok: unprivileged probe $* -> $rc, $re"
}
fails_nobody 'No permission to write tracefs.' -x "$T/probed" greet
fails_nobody 'No permission to read tracefs.' -l
fails_nobody 'No permission to write tracefs.' -d 'probe_probed:*'
"$PERF" probe -l 2>/dev/null | grep -q 'probe_probed:' && fail "an event was left behind"
echo "ok: nothing added"
