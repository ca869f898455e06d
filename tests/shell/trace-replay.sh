#!/bin/bash
# prf trace -i replays perf trace record's file as perf trace -i prints it (lines, -s/-S summaries, --failure, --duration, -T, --no-comm, page faults); the known syscalls decode
# A program doing known syscalls (openat of a missing file -> ENOENT,
# write, close(-1) -> EBADF, openat O_RDONLY|O_CLOEXEC, mmap, close,
# exit_group(3)) is recorded by `perf trace record`; prf trace -i must
# print exactly what perf trace -i prints on that file, with every option
# set whose output perf computes deterministically, and the lines of the
# known syscalls must be there. `prf trace record` must make a file that
# both read the same way.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup trace-replay
cat > "$T/sc.c" <<'C'
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void)
{
	int fd = open("/nonexistent/prf-trace", O_RDONLY);
	void *p;

	write(1, "hello\n", 6);
	close(fd);
	fd = openat(AT_FDCWD, "/etc/hostname", O_RDONLY | O_CLOEXEC);
	p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p, 8192);
	close(fd);
	return 3;
}
C
cc -O1 -o "$T/sc" "$T/sc.c" || fail "cc"
"$PERF" trace record -q -o "$T/perf.data" -- "$T/sc" > "$T/rec.out" 2>"$T/rec.err" ||
	[ $? -eq 3 ] || { cat "$T/rec.err"; echo "perf trace record failed (perf_event_paranoid?)"; exit 2; }

cmp_perf() { # options...
	"$PERF" trace -i "$T/perf.data" "$@" > "$T/perf.out" 2>&1
	"$PRF" trace -i "$T/perf.data" "$@" > "$T/prf.out" 2>"$T/prf.err"
	rc=$?
	[ $rc -eq 0 ] || { cat "$T/prf.err"; fail "prf trace -i $* exit $rc"; }
	cat "$T/prf.err" >> "$T/prf.out"
	cmp -s "$T/perf.out" "$T/prf.out" ||
		{ diff "$T/perf.out" "$T/prf.out" | head -20; fail "prf trace -i $* differs from perf's"; }
	echo "ok: trace -i $* ($(wc -l < "$T/prf.out") lines, as perf's)"
}
cmp_perf
cmp_perf -s
cmp_perf -S
cmp_perf -s --errno-summary
cmp_perf --failure
cmp_perf --duration 0.001
cmp_perf -T
cmp_perf --no-comm

# the known syscalls, decoded (perf trace prints to stderr)
"$PRF" trace -i "$T/perf.data" -o "$T/lines" || fail "prf trace -o"
want() { grep -qE "$1" "$T/lines" || { cat "$T/lines"; fail "no line matching: $1"; }; }
N='[0-9]+\.[0-9]{3} \( *[0-9]+\.[0-9]{3} ms\): sc/[0-9]+ '
want "$N"'openat\(dfd: CWD, filename: 0x[0-9a-f]+\) +\= -1 ENOENT \(No such file or directory\)$'
want "$N"'write\(fd: 1, buf: 0x[0-9a-f]+, count: 6\) +\= 6$'
want "$N"'close\(fd: -1\) +\= -1 EBADF \(Bad file descriptor\)$'
want "$N"'openat\(dfd: CWD, filename: 0x[0-9a-f]+, flags: RDONLY\|CLOEXEC\) +\= [0-9]+$'
want "$N"'mmap\(len: 8192, prot: READ\|WRITE, flags: PRIVATE\|ANONYMOUS\) +\= 0x[0-9a-f]+$'
want '\(         \): sc/[0-9]+ exit_group\(error_code: 3\) +\= \?$'
# the call is padded to 70 columns after the tid, then "= "
awk '/ close\(fd: -1\)/ { i = index($0, "close("); if (substr($0, i + 70, 2) != "= ") bad = 1 }
     END { exit bad }' "$T/lines" || fail "close line not padded to 70 columns"

# summary: the program's syscalls counted, errors too
"$PRF" trace -i "$T/perf.data" -s -o "$T/sum" || fail "prf trace -s"
row() { awk -v s="$1" '$1 == s { print $2, $3 }' "$T/sum"; }
[ "$(row write)" = "1 0" ] || { cat "$T/sum"; fail "write: $(row write), want 1 call 0 errors"; }
[ "$(row munmap | cut -d' ' -f1)" -ge 1 ] || fail "munmap not counted"
grep -qE '^ sc \([0-9]+\), [0-9]+ events, 100\.0%$' "$T/sum" || { cat "$T/sum"; fail "thread line"; }

# prf trace record: a file both read alike; the workload's status passes
"$PRF" trace record -q -o "$T/prf.data" -- "$T/sc" > "$T/prfrec.out" 2>"$T/prfrec.err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/prfrec.err"; fail "prf trace record exit $rc, want the workload's 3"; }
grep -qx hello "$T/prfrec.out" || fail "the workload's output is lost by trace record"
"$PRF" trace -i "$T/prf.data" > "$T/own.out" 2>&1 || fail "prf trace -i on prf's recording"
"$PERF" trace -i "$T/prf.data" > "$T/own.perf" 2>&1
cmp -s "$T/own.perf" "$T/own.out" || { diff "$T/own.perf" "$T/own.out" | head; fail "prf's recording read differently"; }
grep -q 'exit_group(error_code: 3)' "$T/own.out" || fail "prf trace record missed the exit"
echo "ok: prf trace record ($(wc -l < "$T/own.out") lines, perf reads it alike)"

# page faults (-F's events) in a recording: perf's lines and summary
"$PERF" record -q -c 1 -d -o "$T/pf.data" \
	-e raw_syscalls:sys_enter,raw_syscalls:sys_exit,major-faults,minor-faults -- "$T/sc" \
	> /dev/null 2>&1 || [ $? -eq 3 ] || fail "perf record of page faults"
"$PERF" trace -i "$T/pf.data" -S > "$T/pf.perf" 2>&1
"$PRF" trace -i "$T/pf.data" -S > "$T/pf.prf" 2>&1 || fail "prf trace -i on page faults"
cmp -s "$T/pf.perf" "$T/pf.prf" || { diff "$T/pf.perf" "$T/pf.prf" | head; fail "page faults differ from perf's"; }
grep -qE 'minfault \[[^]]+\] => .+ \([d?][.k]\)$' "$T/pf.prf" || fail "no minfault line"
grep -qE '^ sc \([0-9]+\), [0-9]+ events, 100\.0%, [0-9]+ minfaults$' "$T/pf.prf" || fail "no minfaults in the summary"
echo "ok: page faults ($(grep -c fault "$T/pf.prf") lines, as perf's)"

# usage errors
"$PRF" trace --no-such-option > /dev/null 2>&1; [ $? -eq 129 ] || fail "unknown option: not 129"
"$PRF" trace -i "$T/perf.data" -e no_such_syscall_x > /dev/null 2>&1
[ $? -eq 129 ] || fail "unknown syscall in -e: not 129"
exit 0
