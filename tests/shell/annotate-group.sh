#!/bin/bash
# prf annotate --stdio of event groups prints what perf annotate --stdio prints: a recording of -e '{cpu-clock,task-clock}' listed with a column per member with and without --group, --group over ungrouped events, -n/--show-total-period/--percent-type/-l columns, --percent-limit choosing symbols
#
# A one-function hot loop, recorded by /usr/bin/perf with a group of two
# software events and with the same two events ungrouped. The listing of
# that function (the symbol named, so that no other code's disassembly
# is involved) must equal perf 6.1's byte for byte: the header with
# "anon group { cpu-clock, task-clock }" (or "cpu-clock, task-clock" for
# --group over ungrouped events) and the columns 8 (or 12) wide per event,
# the leader's and the member's shares on each instruction. Then
# --percent-limit, which perf applies to symbols, never lines: the
# listings printed over the whole recording are the same symbols.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/annotate.sh"
test_setup annotate-group
cd "$T" || fail "cd $T"

cat > hot.c <<'SRC'
volatile unsigned long sink;
__attribute__((noinline)) void work(long n)
{
	for (long i = 0; i < n; i++)
		sink += (i * 7) ^ (i >> 3);
}
int main(void)
{
	work(30000000);
	return 0;
}
SRC
cc -O1 -g -o hot hot.c || fail "cc hot.c"
perf_record grp.data -e '{cpu-clock,task-clock}' ./hot
perf_record two.data -e cpu-clock -e task-clock ./hot

compare() {	# compare FILE WHAT OPTION...
	annotate_same --stdio "$@"
	echo "ok: $2: $(grep -c '^ *[0-9.]* *[0-9.]* :  *[0-9a-f]*:' prf.txt) instruction lines"
}

compare grp.data "group recording" work
grep -q 'for anon group { cpu-clock, task-clock } (' prf.txt || fail "no group in the header"
awk '$3 == ":" && $1 + $2 > 10 { hot = 1 } END { exit !hot }' prf.txt ||
	{ head -30 prf.txt; fail "no instruction with shares in both columns"; }
compare grp.data "--group" --group work
compare grp.data "--group -n" --group -n work
compare grp.data "--group --show-total-period" --group --show-total-period work
compare grp.data "--group --percent-type local-hits" --group --percent-type local-hits work
compare grp.data "--group --percent-type global-period" --group --percent-type global-period work
compare grp.data "--group --percent-type global-hits" --group --percent-type global-hits work
compare grp.data "--group -l (the summary per event)" --group -l work
grep -Eq '^ +[0-9.]+ +[0-9.]+ hot\.c:[0-9]+$' prf.txt || fail "-l: no summary line with two columns"
compare two.data "--group over ungrouped events" --group work
grep -q 'for cpu-clock, task-clock (' prf.txt || fail "--group: no forced group in the header"
compare two.data "ungrouped: two listings" work
[ "$(grep -c 'Source code & Disassembly of hot for' prf.txt)" = 2 ] || fail "ungrouped: not one listing per event"

# --percent-limit picks symbols by their share (of every sample), as perf
for lim in 0.5 50; do
	"$PERF" annotate --stdio --percent-limit $lim -i grp.data 2>/dev/null | grep 'Source code' > perf.txt
	prf_out prf.txt annotate --stdio --percent-limit $lim -i grp.data
	grep 'Source code' prf.txt > prf.hdr
	cmp -s perf.txt prf.hdr || { diff perf.txt prf.hdr; fail "--percent-limit $lim: other symbols than perf's"; }
	echo "ok: --percent-limit $lim: $(wc -l < prf.hdr) symbols"
done
exit 0
