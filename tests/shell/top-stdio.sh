#!/bin/bash
# prf top --stdio on a program it runs: perf top's header line per refresh, the hottest symbol first with its share within a few points of prf report's, -E/-z/--percent-limit/-K/-U/--symbols
# The program spends about 3/4 of its time in hot() and 1/4 in warm()
# for a given wall time. prf top -- PROG prints a screen every -d
# seconds; the last one must start with hot, its share within 8 points
# of what prf report --stdio shows for a prf record of the same program
# (entries decay between refreshes, so the share is a recent average).
# prf-test: serial: the number of screens in a fixed wall time depends on the refresh ticks being on time
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup top-stdio
cc_prog hotwarm

# last_screen FILE: the lines after the last header line
last_screen() { awk '/PerfTop:/ { n = NR } { l[NR] = $0 } END { for (i = n + 1; i <= NR; i++) print l[i] }' "$1"; }
share() { awk -v s="$2" '$NF == s && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' "$1"; }

prf_out "$T/top.out" top --stdio -d 0.3 -E 6 -- "$T/hotwarm" 1.6
n=$(grep -c 'PerfTop:' "$T/top.out")
[ "$n" -ge 2 ] || { cat "$T/top.out"; fail "$n screens in 1.6 s at -d 0.3"; }
grep -m1 'PerfTop:' "$T/top.out" | grep -Eq '^   PerfTop: +[0-9]+ irqs/sec  kernel: *[0-9.]+%  exact: +[0-9.]+% lost: [0-9]+/[0-9]+ drop: 0/0 \[4000Hz [a-z-]+(:[a-z]+)?\],  \(target_pid: [0-9]+\)$' ||
	fail "header: $(grep -m1 PerfTop "$T/top.out")"
grep -q $'^\e\[H\e\[2J$' "$T/top.out" || fail "no clear-screen line before a header"
last_screen "$T/top.out" > "$T/last"
sed -n 1p "$T/last" | grep -q '^-\{79\}$' || fail "no 79-dash ruler under the header"
first=$(grep -m1 '%' "$T/last")
echo "$first" | grep -Eq '^ +[0-9.]+%  hotwarm +\[\.\] hot$' || { cat "$T/last"; fail "hottest entry: $first"; }
[ "$(grep -c '%' "$T/last")" -le 6 ] || fail "-E 6 printed more rows"
top_hot=$(share "$T/last" hot)

prf_out "$T/rec.out" record -q -o "$T/perf.data" -- "$T/hotwarm" 1.6
prf_out "$T/rep.out" report -i "$T/perf.data" --stdio --no-children -s dso,sym
rep_hot=$(share "$T/rep.out" hot)
[ -n "$top_hot" ] && [ -n "$rep_hot" ] || fail "no hot share (top '$top_hot', report '$rep_hot')"
awk -v a="$top_hot" -v b="$rep_hot" 'BEGIN { d = a - b; exit !(d <= 8 && d >= -8) }' ||
	fail "hot: top $top_hot% vs report $rep_hot%"
echo "ok: $n screens, hot $top_hot% (report $rep_hot%)"

# -z, --percent-limit, -E: only entries of the last interval at or above the limit
prf_out "$T/z.out" top --stdio -z -d 0.3 -E 3 --percent-limit 10 -- "$T/hotwarm" 1
last_screen "$T/z.out" | grep '%' > "$T/zlast"
[ "$(wc -l < "$T/zlast")" -ge 1 ] && [ "$(wc -l < "$T/zlast")" -le 3 ] || { cat "$T/zlast"; fail "-z -E 3 rows"; }
awk '{ sub("%", "", $1); if ($1 < 10) bad = 1 } END { exit bad }' "$T/zlast" || { cat "$T/zlast"; fail "--percent-limit 10"; }

# -K: no kernel entries; -U: no user entries; --symbols: only that symbol
prf_out "$T/k.out" top --stdio -K -d 0.3 -- "$T/hotwarm" 0.8
grep -q '\[k\]' "$T/k.out" && fail "-K showed kernel entries"
prf_out "$T/u.out" top --stdio -U -d 0.3 -- "$T/hotwarm" 0.8
grep -q '\[\.\]' "$T/u.out" && fail "-U showed user entries"
prf_out "$T/s.out" top --stdio --symbols warm -d 0.3 -- "$T/hotwarm" 0.8
grep '%' "$T/s.out" | grep -v 'PerfTop' | grep -vq 'warm$' && { cat "$T/s.out"; fail "--symbols warm showed others"; }
grep -q '\[\.\] warm$' "$T/s.out" || fail "--symbols warm: no warm entry"
echo "ok: -z/--percent-limit/-E, -K, -U, --symbols"
exit 0
