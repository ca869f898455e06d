#!/bin/bash
# prf probe adds, lists and deletes uprobes that perf sees (and the reverse); recorded with -g, prf script prints them as perf script
# A -g -O0 program (lib/probed.c) and libc's inet_pton: probes added by
# prf are listed by perf probe -l and prf probe -l alike, a probe perf
# adds is listed by prf (also on the inlined copies of a -O2 function); each is recorded with a callchain while the
# program runs, and prf script prints the file as perf script does; the
# arguments greet(who, times) were called with come out as perf prints
# them; deleting with prf removes the events from perf's list.
# prf-test: serial: adds and deletes probe events in the machine-wide tracefs uprobe_events
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup probe-uprobe

cc -g -O0 -o "$T/probed" "$PRF_SRCDIR/tests/shell/lib/probed.c" || fail "cc probed.c"
LIBC=$(readlink -f "$(ldd "$T/probed" | awk '/libc\.so/ { print $3 }')")
[ -w /sys/kernel/tracing/uprobe_events ] || { echo "no writable uprobe_events (not root?)"; exit 2; }
"$PERF" probe -l 2>/dev/null | grep -q 'probe_libc:inet_pton ' &&
	{ echo "probe_libc:inet_pton exists already"; exit 2; }
cleanup() {
	"$PERF" probe -q -d 'probe_probed:*' 2>/dev/null
	"$PERF" probe -q -d 'probe_libc:inet_pton' 2>/dev/null
	"$PERF" probe -q -d 'probe_globals:*' 2>/dev/null
	"$PERF" probe -q -d 'probe_inl:*' 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# listed NAME: perf probe -l and prf probe -l both list NAME, the same way
listed() {
	"$PERF" probe -l > "$T/perf.l" 2>&1 || fail "perf probe -l"
	prf_out "$T/prf.l" probe -l
	grep -q "^  $1 " "$T/perf.l" || { cat "$T/perf.l"; fail "perf probe -l does not list $1"; }
	diff "$T/perf.l" "$T/prf.l" || fail "prf probe -l differs from perf probe -l"
}

# script_same DATA: prf script prints what perf script prints for DATA
script_same() {
	"$PERF" script -i "$1" > "$T/perf.s" 2>/dev/null || fail "perf script -i $1"
	prf_out "$T/prf.s" script -i "$1"
	diff "$T/perf.s" "$T/prf.s" || fail "prf script differs from perf script on $1"
	[ -s "$T/prf.s" ] || fail "no samples in $1"
}

# 1. prf adds a probe on greet(); perf and prf list it alike
prf_out "$T/add" probe -x "$T/probed" greet
grep -q '^  probe_probed:greet  *(on greet in .*/probed)$' "$T/add.err" ||
	{ cat "$T/add.err"; fail "no 'Added new event' line"; }
grep -q '^	perf record -e probe_probed:greet -aR sleep 1$' "$T/add.err" || fail "no hint line"
listed probe_probed:greet
echo "ok: prf's probe_probed:greet listed by perf probe -l"

# 2. a probe perf adds, listed by prf as perf lists it
"$PERF" probe -q -x "$T/probed" 'use p->y arr[2]' 2>"$T/perf.add" || { cat "$T/perf.add"; fail "perf probe use"; }
listed probe_probed:use
echo "ok: perf's probe_probed:use listed by prf probe -l"

# 3. recorded with a callchain while the program runs (prf record and perf record)
prf_out "$T/rec" record -o "$T/prf.data" -e probe_probed:greet -g -- "$T/probed"
script_same "$T/prf.data"
[ "$(grep -c 'probe_probed:greet:' "$T/prf.s")" = 2 ] || { cat "$T/prf.s"; fail "want 2 greet samples"; }
grep -q ' main+0x[0-9a-f]* (.*/probed)$' "$T/prf.s" || fail "no main frame in the callchain"
perf_record "$T/perf.data" -e probe_probed:use -g -- "$T/probed"
script_same "$T/perf.data"
grep -q 'probe_probed:use: ([0-9a-f]*) y=2 arr=3$' "$T/prf.s" || { cat "$T/prf.s"; fail "use's y=2 arr=3"; }
echo "ok: greet and use recorded with -g; prf script = perf script"

# 4. deleting with prf removes the event from perf's list
prf_out "$T/del" probe -d probe_probed:greet
grep -qx 'Removed event: probe_probed:greet' "$T/del.err" || { cat "$T/del.err"; fail "no 'Removed event'"; }
"$PERF" probe -l > "$T/perf.l" 2>&1
grep -q 'probe_probed:greet ' "$T/perf.l" && fail "perf probe -l still lists probe_probed:greet"
grep -q 'probe_probed:use ' "$T/perf.l" || fail "deleting greet took use too"
echo "ok: prf probe -d removed it from perf probe -l"

# 5. arguments from DWARF: the values main() passes
prf_out "$T/add" probe -x "$T/probed" greet who:string times
listed probe_probed:greet
prf_out "$T/rec" record -o "$T/args.data" -e probe_probed:greet -- "$T/probed"
script_same "$T/args.data"
grep -q ': probe_probed:greet: ([0-9a-f]*) who_string="world" times=3$' "$T/prf.s" &&
	grep -q ': probe_probed:greet: ([0-9a-f]*) who_string="prf" times=5$' "$T/prf.s" ||
	{ cat "$T/prf.s"; fail "greet's arguments are not who_string=\"world\" times=3, \"prf\" 5"; }
echo "ok: greet who:string times recorded world/3 and prf/5"

# -f names a second probe greet_1; -n only says so, -q says nothing
prf_out "$T/dry" probe -n -f -x "$T/probed" greet
grep -q '^  probe_probed:greet_1 ' "$T/dry.err" || { cat "$T/dry.err"; fail "-n -f: no greet_1"; }
"$PERF" probe -l 2>&1 | grep -q 'probe_probed:greet_1 ' && fail "-n added greet_1"
"$PRF" probe -x "$T/probed" greet 2> "$T/dup.err" && fail "a second greet without -f succeeded"
grep -q '^Error: event "greet" already exists.$' "$T/dup.err" || { cat "$T/dup.err"; fail "no 'already exists'"; }
prf_out "$T/quiet" probe -q -f -x "$T/probed" greet
[ -s "$T/quiet.err" ] && { cat "$T/quiet.err"; fail "-q printed messages"; }
listed probe_probed:greet_1
echo "ok: -f adds greet_1 (-n: not really), -q quietly"

# 6. libc's inet_pton, with a callchain into the program
prf_out "$T/add" probe -x "$LIBC" inet_pton
grep -q '^  probe_libc:inet_pton (on inet_pton in ' "$T/add.err" || { cat "$T/add.err"; fail "libc add"; }
listed probe_libc:inet_pton
prf_out "$T/rec" record -o "$T/libc.data" -e probe_libc:inet_pton -g -- "$T/probed"
script_same "$T/libc.data"
# (at the entry the frame pointer still is the caller's: the chain goes on
# from main's caller, in perf's file as in prf's)
grep -q '^probed .*: probe_libc:inet_pton: ' "$T/prf.s" && grep -q ' [0-9a-f]* __GI___inet_pton+0x0 (.*libc.so.6)$' "$T/prf.s" ||
	{ cat "$T/prf.s"; fail "no inet_pton sample of the program"; }
echo "ok: probe_libc:inet_pton recorded with its callchain"

# 7. global variables (data and .bss, a member of a global struct) are
# fetched at their offsets in the file: perf 6.1 writes "@counter+0",
# which this kernel's uprobes refuse
cat > "$T/globals.c" <<'C'
#include <stdio.h>
int counter = 5;
static long total;
struct cfg { int level; char name[16]; } config = { 3, "hi" };
int bump(int by) { int old = counter; counter += by; total += counter; return old; }
int main(void) { for (int i = 0; i < 3; i++) bump(i); printf("%d %ld\n", counter, total); return 0; }
C
cc -g -O0 -o "$T/globals" "$T/globals.c" || fail "cc globals.c"
prf_out "$T/add" probe -q -x "$T/globals" 'bump counter total config.level config.name:string'
prf_out "$T/rec" record -o "$T/glob.data" -e probe_globals:bump -- "$T/globals"
script_same "$T/glob.data"
"$PRF" probe -q -d 'probe_globals:*' || fail "delete probe_globals:*"
sed 's/.*: probe_globals:bump: ([0-9a-f]*) //' "$T/prf.s" > "$T/vals"
printf '%s\n' 'counter=5 total=0 level=3 name="hi"' 'counter=5 total=5 level=3 name="hi"' \
	'counter=6 total=11 level=3 name="hi"' | diff - "$T/vals" || fail "globals' values"
echo "ok: globals recorded with their values"

# 8. a function inlined twice (-O2): perf probe puts a probe on each copy,
# and lists each by the innermost function holding it: "mid:5", the line
# in the inlined mid() it sits in, and "main:3", the call site's line
# where the copy starts; prf probe -l lists them as perf does
cat > "$T/inl.c" <<'C'
volatile int sink;
static int leaf(int x)
{
	sink = x;
	return x * 3 + 1;
}
static inline int mid(int x)
{
	int r = x + 2;

	if (x > 5)
		r += leaf(r);
	return r;
}
__attribute__((noinline)) int outer(int x)
{
	return mid(x) * 5;
}
int main(int argc, char **argv)
{
	(void)argv;
	return outer(argc + 10) + leaf(argc) > 0 ? 0 : 1;
}
C
cc -g -O2 -o "$T/inl" "$T/inl.c" || fail "cc inl.c"
"$PERF" probe -q -x "$T/inl" leaf 2>"$T/perf.add" || { cat "$T/perf.add"; fail "perf probe leaf"; }
listed probe_inl:leaf
[ "$(grep -c 'probe_inl:leaf ' "$T/prf.l")" -ge 2 ] || { cat "$T/prf.l"; fail "leaf: not two copies"; }
"$PERF" probe -q -d 'probe_inl:*' 2>/dev/null
echo "ok: the inlined copies of leaf() listed as perf lists them"

# 9. globs delete the rest; perf lists none of them
prf_out "$T/del" probe -d 'probe_probed:*' -d probe_libc:inet_pton
[ "$(grep -c '^Removed event: ' "$T/del.err")" = 4 ] || { cat "$T/del.err"; fail "want 4 removed"; }
"$PERF" probe -l 2>&1 | grep -E 'probe_probed:|probe_libc:inet_pton' && fail "perf still lists them"
echo "ok: all deleted"
