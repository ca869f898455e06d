#!/bin/bash
# prf record --off-cpu --call-graph dwarf: offcpu-time stacks carry the user frames (usleep;nap;loop;main), unwound from the switch-out's user stack as perf's sched_switch --call-graph dwarf samples show them
# A program sleeps 15 times in usleep() called from nap() from loop().
# Recorded by prf with --off-cpu --call-graph dwarf, its offcpu-time
# samples must unwind through libc to main like any DWARF sample (before,
# they had kernel frames only), in script --folded, script and report,
# and their time must add up to the sleeps. perf recording
# sched:sched_switch with --call-graph dwarf on the same program is the
# reference for the user part of the stack.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-offcpu-dwarf
"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched:sched_switch tracepoint (tracefs?)"; exit 2; }

cat > "$T/p.c" <<'C'
#include <unistd.h>
__attribute__((noinline)) void nap(void) { usleep(2000); __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void loop(void) { for (int i = 0; i < 15; i++) nap(); }
int main(void) { loop(); return 0; }
C
cc -O1 -g -o "$T/p" "$T/p.c" || fail "cc"

# has_chain FILE: some stack of perf-script-like FILE (-F comm,ip,sym)
# reads usleep, nap, loop, main, one frame after the other
has_chain() {
	awk '/^\t/ { print $2 }' "$1" | tr '\n' ' ' | grep -q ' usleep nap loop main '
}

# the reference: perf's own DWARF stacks of the program's switch-outs
perf_record "$T/perf.data" -e sched:sched_switch --call-graph dwarf -- "$T/p"
"$PERF" script -i "$T/perf.data" -F comm,ip,sym 2>/dev/null > "$T/perf.txt"
has_chain "$T/perf.txt" ||
	{ echo "perf script shows no usleep/nap/loop/main stack here"; exit 2; }

"$PRF" record -q --off-cpu --call-graph dwarf -o "$T/oc.data" -- "$T/p" 2> "$T/rec.err" ||
	{ cat "$T/rec.err"; fail "prf record --off-cpu --call-graph dwarf exited $?"; }

"$PRF" script -i "$T/oc.data" --folded > "$T/folded" 2> "$T/err" ||
	{ cat "$T/err"; fail "prf script --folded exited $?"; }
grep -q '^p;.*main;loop;nap;usleep' "$T/folded" ||
	{ cat "$T/folded"; fail "no offcpu-time stack main;loop;nap;usleep"; }
ns=$(awk '/;main;loop;nap;usleep/ { s += $NF } END { print s + 0 }' "$T/folded")
# 15 sleeps of at least 2 ms
[ "$ns" -ge 25000000 ] && [ "$ns" -le 500000000 ] ||
	fail "off-CPU time under nap: $ns ns, want 30 ms or a little more"

"$PRF" script -i "$T/oc.data" > "$T/script" 2> "$T/err" || { cat "$T/err"; fail "prf script exited $?"; }
grep -A12 'offcpu-time:' "$T/script" | grep -q '^	 *[0-9a-f]* nap+0x[0-9a-f]* (.*/p)$' ||
	{ head -30 "$T/script"; fail "prf script: no nap frame under an offcpu-time sample"; }
"$PRF" report --stdio -i "$T/oc.data" --no-children --comm p > "$T/report" 2> "$T/err" ||
	{ cat "$T/err"; fail "prf report exited $?"; }
grep -q 'offcpu-time' "$T/report" || fail "report lists no offcpu-time event"
sed -n '/offcpu-time/,$p' "$T/report" | grep -A4 -- '---.*usleep\|usleep$' | tr -d ' |-' | tr '\n' ' ' |
	grep -q 'usleep nap loop main' || { cat "$T/report"; fail "report: no usleep/nap/loop/main chain"; }

# perf reads prf's file and unwinds the recorded switch-outs to main too
"$PERF" script -i "$T/oc.data" -F comm,ip,sym 2>/dev/null > "$T/perf-of-prf.txt"
has_chain "$T/perf-of-prf.txt" ||
	fail "perf script of prf's file: no usleep/nap/loop/main stack"
exit 0
