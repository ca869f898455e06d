#!/bin/bash
# prf top --record FILE: the live session also written to a perf.data that Linux perf and prf report read alike, with the program's build-id and command line
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-record
cc_prog hotwarm -g -Wl,--build-id

echo old > "$T/top.data"
prf_out "$T/top.out" top --stdio -g -d 0.5 --record "$T/top.data" -- "$T/hotwarm" 1.2
grep -q "^\[ prf top: wrote [0-9.]* MB to $T/top.data ([0-9]* samples) \]$" "$T/top.out.err" ||
	{ cat "$T/top.out.err"; fail "no summary line"; }
[ "$(cat "$T/top.data.old")" = old ] || fail "the old file was not kept as .old"
"$PERF" report -i "$T/top.data" --stdio -g none --no-children -s comm,dso,sym 2>/dev/null |
	grep -v '^#' | grep -v '^$' > "$T/perf.rep"
prf_out "$T/prf.rep.all" report -i "$T/top.data" --stdio -g none --no-children -s comm,dso,sym
grep -v '^#' "$T/prf.rep.all" | grep -v '^$' > "$T/prf.rep"
[ -s "$T/perf.rep" ] || fail "perf report read nothing"
diff "$T/perf.rep" "$T/prf.rep" > "$T/rep.diff" || { head -20 "$T/rep.diff"; fail "perf and prf report differ on the file"; }
head -1 "$T/prf.rep" | grep -Eq '^ +[0-9.]+%  hotwarm +hotwarm +\[\.\] hot$' || fail "first entry: $(head -1 "$T/prf.rep")"
# callchains recorded: perf shows main under hot
"$PERF" report -i "$T/top.data" --stdio --no-children -s sym 2>/dev/null | grep -q 'main' ||
	fail "no callchain with main in perf's report"
bid=$(file -L "$T/hotwarm" | sed -n 's/.*BuildID\[sha1\]=\([0-9a-f]*\).*/\1/p')
"$PERF" buildid-list -i "$T/top.data" > "$T/bids" 2>/dev/null
[ -z "$bid" ] || grep -q "^$bid $T/hotwarm$" "$T/bids" || { cat "$T/bids"; fail "no build-id of hotwarm"; }
"$PERF" report -i "$T/top.data" --header-only 2>/dev/null | grep -q "^# cmdline : .* top --stdio -g -d 0.5 --record $T/top.data -- $T/hotwarm 1.2" ||
	fail "cmdline: $("$PERF" report -i "$T/top.data" --header-only 2>/dev/null | grep cmdline)"
echo "ok: $(wc -l < "$T/prf.rep") report lines alike, build-id and cmdline"

# an unwritable file: one message, nothing started
"$PRF" top --stdio --record /nonexistent/dir/x.data -- "$T/hotwarm" 0.2 > /dev/null 2> "$T/bad.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/bad.err"; fail "unwritable --record: exit $rc"; }
exit 0
