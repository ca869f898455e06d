#!/bin/bash
# prf top --record FILE: the live session also written to a perf.data that Linux perf and prf report read alike, with the program's build-id and command line
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-record
cat > "$T/hw.c" <<'C'
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) void hot(void) { for (int i = 0; i < 3000; i++) sink += i; }
__attribute__((noinline)) void warm(void) { for (int i = 0; i < 1000; i++) sink += i; }
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100; i++) { hot(); warm(); }
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}
C
cc -O0 -g -fno-omit-frame-pointer -Wl,--build-id -o "$T/hw" "$T/hw.c" || fail "cc"

echo old > "$T/top.data"
prf_out "$T/top.out" top --stdio -g -d 0.5 --record "$T/top.data" -- "$T/hw" 1.2
grep -q "^\[ prf top: wrote [0-9.]* MB to $T/top.data ([0-9]* samples) \]$" "$T/top.out.err" ||
	{ cat "$T/top.out.err"; fail "no summary line"; }
[ "$(cat "$T/top.data.old")" = old ] || fail "the old file was not kept as .old"
"$PERF" report -i "$T/top.data" --stdio -g none --no-children -s comm,dso,sym 2>/dev/null |
	grep -v '^#' | grep -v '^$' > "$T/perf.rep"
prf_out "$T/prf.rep.all" report -i "$T/top.data" --stdio -g none --no-children -s comm,dso,sym
grep -v '^#' "$T/prf.rep.all" | grep -v '^$' > "$T/prf.rep"
[ -s "$T/perf.rep" ] || fail "perf report read nothing"
diff "$T/perf.rep" "$T/prf.rep" > "$T/rep.diff" || { head -20 "$T/rep.diff"; fail "perf and prf report differ on the file"; }
head -1 "$T/prf.rep" | grep -Eq '^ +[0-9.]+%  hw +hw +\[\.\] hot$' || fail "first entry: $(head -1 "$T/prf.rep")"
# callchains recorded: perf shows main under hot
"$PERF" report -i "$T/top.data" --stdio --no-children -s sym 2>/dev/null | grep -q 'main' ||
	fail "no callchain with main in perf's report"
bid=$(file -L "$T/hw" | sed -n 's/.*BuildID\[sha1\]=\([0-9a-f]*\).*/\1/p')
"$PERF" buildid-list -i "$T/top.data" > "$T/bids" 2>/dev/null
[ -z "$bid" ] || grep -q "^$bid $T/hw$" "$T/bids" || { cat "$T/bids"; fail "no build-id of hw"; }
"$PERF" report -i "$T/top.data" --header-only 2>/dev/null | grep -q "^# cmdline : .* top --stdio -g -d 0.5 --record $T/top.data -- $T/hw 1.2" ||
	fail "cmdline: $("$PERF" report -i "$T/top.data" --header-only 2>/dev/null | grep cmdline)"
echo "ok: $(wc -l < "$T/prf.rep") report lines alike, build-id and cmdline"

# an unwritable file: one message, nothing started
"$PRF" top --stdio --record /nonexistent/dir/x.data -- "$T/hw" 0.2 > /dev/null 2> "$T/bad.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/bad.err"; fail "unwritable --record: exit $rc"; }
exit 0
