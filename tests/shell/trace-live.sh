#!/bin/bash
# prf trace -- PROG traces live: known syscalls decoded, the workload's output kept and its exit status passed on, -s call/error counts equal perf trace -s's, -e/--failure/-o/-p/-F
# A program doing known syscalls (openat of a missing file -> ENOENT,
# write of "hello", close(-1) -> EBADF, openat, read, close, exit 3) runs under
# prf trace: its stdout must be exactly "hello", the trace (stderr) must
# hold the decoded lines, the exit status must be 3 (143 for a command
# killed by SIGTERM). prf trace -s and perf trace -s on the same program
# must count the same calls and errors per syscall. -e keeps only the
# named syscalls, '!' drops them, --failure keeps only errors, -o writes
# the trace to a file, -p of a dead pid fails with a message.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup trace-live
cat > "$T/sc.c" <<'C'
#include <fcntl.h>
#include <unistd.h>
int main(void)
{
	int fd = open("/nonexistent/prf-trace", O_RDONLY);
	char buf[1];

	write(1, "hello\n", 6);
	close(fd);
	fd = openat(AT_FDCWD, "/etc/hostname", O_RDONLY | O_CLOEXEC);
	read(fd, buf, 1);
	close(fd);
	return 3;
}
C
cc -O1 -o "$T/sc" "$T/sc.c" || fail "cc"
"$PRF" list 'raw_syscalls:sys_enter' 2>/dev/null | grep -q sys_enter ||
	{ echo "no raw_syscalls tracepoints (tracefs?)"; exit 2; }

"$PRF" trace -- "$T/sc" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err"; fail "exit status $rc, want the workload's 3"; }
[ "$(cat "$T/out")" = hello ] || { cat "$T/out"; fail "the workload's stdout is not just its own"; }
want() { grep -qE "$1" "$2" || { cat "$2"; fail "no line matching: $1"; }; }
N='^ +[0-9]+\.[0-9]{3} \( *[0-9]+\.[0-9]{3} ms\): sc/[0-9]+ '
want "$N"'openat\(dfd: CWD, filename: 0x[0-9a-f]+\) +\= -1 ENOENT \(No such file or directory\)$' "$T/err"
want "$N"'write\(fd: 1(<[^>]*>)?, buf: 0x[0-9a-f]+, count: 6\) +\= 6$' "$T/err"
want "$N"'close\(fd: -1\) +\= -1 EBADF \(Bad file descriptor\)$' "$T/err"
want "$N"'openat\(dfd: CWD, filename: 0x[0-9a-f]+, flags: RDONLY\|CLOEXEC\) +\= [0-9]+$' "$T/err"
want "$N"'read\(fd: [0-9]+(<[^>]*>)?, buf: 0x[0-9a-f]+, count: 1\) +\= (1|0)$' "$T/err"
want 'sc/[0-9]+ exit_group\(error_code: 3\) +\= \?$' "$T/err"
echo "ok: live lines ($(wc -l < "$T/err")), stdout kept, exit status 3"

# -s: the same calls and errors per syscall as perf trace -s
counts() { awk '/^   [a-z_0-9]+ +[0-9]+ +[0-9]+ / { print $1, $2, $3 }' "$1" | sort; }
"$PRF" trace -s -- "$T/sc" > /dev/null 2> "$T/prf.s"
[ $? -eq 3 ] || { cat "$T/prf.s"; fail "prf trace -s exit status"; }
"$PERF" trace -s -- "$T/sc" > /dev/null 2> "$T/perf.s" ||
	[ $? -eq 3 ] || { cat "$T/perf.s"; echo "perf trace -s failed here"; exit 2; }
counts "$T/prf.s" > "$T/prf.c"
counts "$T/perf.s" > "$T/perf.c"
[ -s "$T/prf.c" ] || { cat "$T/prf.s"; fail "no summary rows"; }
cmp -s "$T/perf.c" "$T/prf.c" || { diff "$T/perf.c" "$T/prf.c"; fail "-s counts differ from perf trace -s"; }
grep -q '^openat .* 1$' "$T/prf.c" && grep -q '^close .* 1$' "$T/prf.c" ||
	{ cat "$T/prf.c"; fail "openat/close errors not counted"; }
grep -qE '^ sc \([0-9]+\), [0-9]+ events, [0-9.]+%$' "$T/prf.s" || fail "thread line of -s"
echo "ok: -s counts equal perf trace -s ($(wc -l < "$T/prf.c") syscalls)"

# -e, '!', --failure, -o
"$PRF" trace -e openat,close -o "$T/e.out" -- "$T/sc" > /dev/null 2>&1
[ $? -eq 3 ] || fail "-e: exit status"
[ "$(grep -cvE ' (openat|close)\(' "$T/e.out")" -eq 0 ] || { cat "$T/e.out"; fail "-e let other syscalls through"; }
[ "$(grep -c ' close(' "$T/e.out")" -ge 2 ] || { cat "$T/e.out"; fail "-e lost close calls"; }
"$PRF" trace -e '!openat,close' -- "$T/sc" > /dev/null 2> "$T/ne.out"
grep -qE ' (openat|close)\(' "$T/ne.out" && { cat "$T/ne.out"; fail "-e ! kept them"; }
grep -q ' write(' "$T/ne.out" || fail "-e ! dropped write"
"$PRF" trace --failure -- "$T/sc" > /dev/null 2> "$T/f.out"
[ "$(grep -c ' = -1 ' "$T/f.out")" -eq "$(grep -c . "$T/f.out")" ] || { cat "$T/f.out"; fail "--failure kept successes"; }
grep -q 'EBADF' "$T/f.out" || fail "--failure lost the EBADF"
echo "ok: -e, -e !, --failure, -o"

# -F: page faults, with or without the syscalls
"$PRF" trace -F all -- "$T/sc" > /dev/null 2> "$T/pf.out"
[ $? -eq 3 ] || { cat "$T/pf.out"; fail "-F all: exit status"; }
grep -qE 'sc/[0-9]+ minfault \[[^]]+\] => ' "$T/pf.out" || { cat "$T/pf.out"; fail "-F all: no minfault"; }
grep -q ' openat(' "$T/pf.out" && fail "-F alone traced syscalls too (perf does not)"
"$PRF" trace -F min --syscalls -- "$T/sc" > /dev/null 2> "$T/pfs.out"
grep -q 'minfault' "$T/pfs.out" && grep -q ' openat(' "$T/pfs.out" || fail "-F min --syscalls"
echo "ok: -F all, -F min --syscalls"

# the exit status of a killed command; a dead pid
"$PRF" trace -o /dev/null -- sh -c 'kill -TERM $$'
rc=$?
[ $rc -eq 143 ] || fail "killed workload: exit $rc, want 143"
"$PRF" trace -p 999999999 > /dev/null 2> "$T/dead.err"
rc=$?
[ $rc -eq 1 ] || fail "-p of a dead pid: exit $rc"
grep -q "Couldn't find process '999999999'" "$T/dead.err" || { cat "$T/dead.err"; fail "dead pid message"; }
echo "ok: exit 143 for a killed command, -p of a dead pid fails"
exit 0
