#!/bin/bash
# prf record -o - with a workload that writes 2 MB to stdout: the stream stays a perf.data stream (the workload's stdout goes to stderr, as perf does); prf report and perf report read it
# Before, the workload's lines went into the stream and the reader stopped
# at "bad record ... unknown type" (ASCII digits read as a record type).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-pipe-chatty

cat > "$T/chatty.c" <<'C'
#include <stdio.h>
volatile unsigned long sink;
__attribute__((noinline)) void talk(int i)
{
	printf("line %06d of what the workload prints on its stdout\n", i);
	for (int j = 0; j < 300; j++)
		sink += j;
}
int main(void)
{
	for (int i = 0; i < 40000; i++)
		talk(i);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -o "$T/chatty" "$T/chatty.c" || fail "cc"

"$PRF" record -F 999 -g -o - -- "$T/chatty" > "$T/pipe.data" 2> "$T/err"
st=$?
[ $st -eq 0 ] || { tail -3 "$T/err"; fail "prf record -o - exited $st"; }
# the 40000 lines (2.1 MB) are on stderr, none in the stream
[ "$(grep -c '^line [0-9]* of what the workload prints' "$T/err")" -eq 40000 ] ||
	fail "the workload's 40000 lines are not on stderr"
grep -q 'of what the workload prints' "$T/pipe.data" && fail "workload output inside the perf.data stream"

"$PRF" report -i - --stdio --no-children < "$T/pipe.data" > "$T/report" 2> "$T/rerr"
st=$?
cat "$T/rerr"
[ $st -eq 0 ] || fail "prf report -i - exited $st"
grep -q 'bad record' "$T/rerr" && fail "prf report found bad records"
grep -q '\[\.\] talk' "$T/report" || { head -30 "$T/report"; fail "no talk entry in prf's report"; }

"$PERF" report -i - --stdio --no-children < "$T/pipe.data" > "$T/perf.report" 2> "$T/perr" ||
	{ cat "$T/perr"; fail "perf report rejects prf's stream"; }
grep -q '\[\.\] talk' "$T/perf.report" || fail "no talk entry in perf's report of the stream"
exit 0
