#!/bin/bash
# prf probe -V, -L, -F and -D print what perf probe prints (-O0 and -O2 programs, an inline site, libc, kernel symbols)
# Read-only: -D prints definitions without adding, so nothing reaches
# tracefs and the test runs beside others.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup probe-compat

cc -g -O0 -o "$T/probed" "$PRF_SRCDIR/tests/shell/lib/probed.c" || fail "cc probed.c"
LIBC=$(ldd "$T/probed" | awk '/libc\.so/ { print $3 }')

# same ARG...: perf probe and prf probe print the same (stdout and stderr)
# and both succeed
same() {
	"$PERF" probe "$@" > "$T/perf.out" 2> "$T/perf.err" || { cat "$T/perf.err"; echo "perf probe $* failed"; exit 2; }
	"$PRF" probe "$@" > "$T/prf.out" 2> "$T/prf.err" || { cat "$T/prf.err"; fail "prf probe $*"; }
	diff "$T/perf.out" "$T/prf.out" || fail "prf probe $*: stdout differs from perf's"
	diff "$T/perf.err" "$T/prf.err" || fail "prf probe $*: stderr differs from perf's"
	[ -s "$T/prf.out" ] || [ -s "$T/prf.err" ] || fail "prf probe $*: no output"
	echo "ok: probe $* ($(cat "$T/prf.out" "$T/prf.err" | wc -l) lines)"
}

X=(-x "$T/probed")
same "${X[@]}" -V greet
same "${X[@]}" -V use
same "${X[@]}" -V greet --filter '!*i*'
same "${X[@]}" -L greet
same "${X[@]}" -L use
same "${X[@]}" -F
same "${X[@]}" -F 'g*'
same "${X[@]}" -D 'greet who:string times'
same "${X[@]}" -D 'greet%return $retval'
same "${X[@]}" -D 'use p->y arr[2] p->name:string x=p->x:u8'
same "${X[@]}" -D 'greet $params'
same "${X[@]}" -D 'greet:4 $vars'
same "${X[@]}" -D 'greet+4'
same "${X[@]}" -D 'probed.c:19'
same "${X[@]}" -D 'greet;sum*'
"$PRF" probe "${X[@]}" -D 'greet who:string' > "$T/d.out" 2>/dev/null || fail "prf probe -D"
grep -Eq '^p:probe_probed/greet .*/probed:0x[0-9a-f]+ who_string=\+0\(-[0-9]+\(%bp\)\):string$' "$T/d.out" ||
	{ cat "$T/d.out"; fail "-D 'greet who:string' is not a string fetch at a frame offset"; }
echo "ok: -D gives who_string=+0(-N(%bp)):string"

# optimized: arguments in registers and location lists
cc -g -O2 -o "$T/probed" "$PRF_SRCDIR/tests/shell/lib/probed.c" || fail "cc -O2 probed.c"
same "${X[@]}" -D greet
same "${X[@]}" -D 'greet who:string times'
same "${X[@]}" -D 'use p->y arr[2]'
same "${X[@]}" -D 'greet%return $retval'
same "${X[@]}" -D 'greet $params'
same "${X[@]}" -D 'probed.c:38'
same "${X[@]}" -V greet
same "${X[@]}" -V greet --range
same "${X[@]}" -V main
same "${X[@]}" -V main --range
same "${X[@]}" -L main
# an inline-only function: a probe at its inline site in top();
# --no-inlines finds none
cc_prog inl -O2 -g
same -x "$T/inl" -D mid
same -x "$T/inl" -D 'mid n'
same -x "$T/inl" -V mid
same -x "$T/inl" -L top
"$PRF" probe -x "$T/inl" --no-inlines -D mid > /dev/null 2> "$T/err" && fail "--no-inlines found mid"
grep -q "^Probe point 'mid' not found.$" "$T/err" || { cat "$T/err"; fail "--no-inlines mid: message"; }
echo "ok: --no-inlines leaves the inline site out"
same -x "$LIBC" -D inet_pton
same -x "$LIBC" -V inet_pton

# kernel probes by symbol (no DWARF for the kernel here): _text+OFFSET
same -D vfs_read
same -D 'vfs_read%return'
same -D 'vfs_read+4 %di:x64'
same -F 'vfs_*'
same -F '!*a* & !*e* & !*i*'
