#!/bin/bash
# Privilege: as an unprivileged user with perf_event_paranoid=2, stat/record count user space; -a fails naming perf_event_paranoid
# As perf 6.1 does, prf falls back to user-space-only events (":u",
# exclude_kernel) when the kernel refuses kernel counting (EACCES with
# perf_event_paranoid > 1). System-wide (-a) needs perf_event_paranoid <= 0:
# the error must name the setting and the value needed.
set -u
PERF=${PERF_BIN:-/usr/bin/perf}
[ "$(id -u)" -eq 0 ] || { echo "needs root to create the test user"; exit 2; }
par=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
[ "$par" = 2 ] || { echo "perf_event_paranoid is ${par:-unknown}, this test needs 2 (not changed by tests)"; exit 2; }
U=prftest
if ! id "$U" >/dev/null 2>&1; then
	useradd -M -s /bin/sh "$U" 2>/dev/null || { echo "cannot create user $U (useradd)"; exit 2; }
fi
command -v su >/dev/null || { echo "no su to switch user"; exit 2; }
T=$(mktemp -d /tmp/prf-privilege.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# a copy the user can reach whatever the permissions on the build tree
cp "$PRF" "$T/prf" && chmod 755 "$T" "$T/prf" && chown "$U" "$T" || fail "cannot copy $PRF"
as_user() { su "$U" -s /bin/sh -c "cd '$T' && $*"; }

# user-space counting works
as_user "timeout 30 ./prf stat -- true" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "prf stat -- true as $U: exit $rc: $(head -3 "$T/err")"
grep -q "task-clock:u" "$T/err" "$T/out" || fail "prf stat as $U: no task-clock:u line: $(cat "$T/err")"
pf=$(cat "$T/err" "$T/out" | awk '/page-faults:u/ { gsub(",", "", $1); print $1; exit }')
[ "${pf:-0}" -gt 0 ] 2>/dev/null || fail "prf stat as $U: page-faults:u not counted: $(grep page-faults "$T/err")"
if [ -x "$PERF" ]; then
	as_user "$PERF stat -- true" 2>"$T/perf.err" >/dev/null
	for ev in task-clock context-switches cpu-migrations page-faults; do
		if grep -q "$ev:u" "$T/perf.err"; then
			grep -q "$ev:u" "$T/err" || fail "perf counts $ev:u as $U, prf does not"
		fi
	done
fi
echo "ok: prf stat -- true as $U counts user space ($pf page-faults:u)"

# user-space sampling works too
as_user "timeout 30 ./prf record -q -o u.data -- sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done'" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "prf record as $U: exit $rc: $(head -3 "$T/err")"
"$T/prf" report --stdio --sort comm -i "$T/u.data" 2>/dev/null | grep -q -E "of event '[^']*:[a-zA-Z]*u[a-zA-Z]*'" ||
	fail "prf record as $U: no user-space (:u) event in the file"
echo "ok: prf record as $U samples user space"

# system-wide is refused with a message naming the setting and the value
for cmd in "stat -a -- true" "record -a -o a.data -- true"; do
	as_user "timeout 30 ./prf $cmd" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -ne 0 ] || fail "prf $cmd as $U with paranoid 2: exit 0"
	[ $rc -lt 124 ] || fail "prf $cmd as $U: exit $rc (hang or signal)"
	grep -q "perf_event_paranoid" "$T/err" || fail "prf $cmd: message does not name perf_event_paranoid: $(head -3 "$T/err")"
	grep -q -E "perf_event_paranoid.*(is 2|= 2|2\b)" "$T/err" || fail "prf $cmd: message does not give the current value 2"
	grep -q -E "0: cpu-wide|<= ?0|to 0|-1 or 0|0 or lower" "$T/err" || fail "prf $cmd: message does not say -a needs 0: $(head -3 "$T/err")"
	echo "ok: prf $cmd as $U -> exit $rc: $(grep -m1 perf_event_paranoid "$T/err" | cut -c1-140)"
done
exit 0
