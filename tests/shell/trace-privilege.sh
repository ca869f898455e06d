#!/bin/bash
# prf trace as an unprivileged user who cannot read tracefs: perf trace's error and hint, exit 1, the command not run
# tracefs (/sys/kernel/tracing) is root-only here: perf trace names the
# tracepoint directory it cannot read and the remount hint; prf trace
# must print the same two lines, fail, and not run the command.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root to switch to an unprivileged user"; exit 2; }
need su
test_setup trace-privilege
U=nobody
id "$U" >/dev/null 2>&1 || { echo "no user $U"; exit 2; }
su "$U" -s /bin/sh -c "ls /sys/kernel/tracing/events/raw_syscalls" >/dev/null 2>&1 &&
	{ echo "$U can read tracefs here: nothing to test"; exit 2; }
cp "$PRF" "$T/prf" && chmod 755 "$T" "$T/prf" || fail "cannot copy $PRF"
as_user() { su "$U" -s /bin/sh -c "cd '$T' && $*"; }

as_user "./prf trace -- touch $T/ran" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/err"; fail "exit $rc, want 1"; }
[ -e "$T/ran" ] && fail "the command ran although nothing could be traced"
as_user "$PERF trace -- true" > /dev/null 2> "$T/perf.err"
grep -E '^(Error|Hint):' "$T/perf.err" > "$T/perf.msg"
[ -s "$T/perf.msg" ] || { cat "$T/perf.err"; echo "perf trace gave no Error/Hint here"; exit 2; }
cmp -s "$T/perf.msg" "$T/err" || { diff "$T/perf.msg" "$T/err"; fail "message differs from perf trace's"; }
echo "ok: $(head -1 "$T/err")"
exit 0
