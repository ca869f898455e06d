#!/bin/bash
# prf record -g and --call-graph dwarf: perf reads the file, stacks leaf;b;a;main and shares match
set -u
fail() { echo "FAIL: $*"; exit 1; }
command -v perf >/dev/null || { echo "no /usr/bin/perf to judge the files"; exit 2; }
command -v cc >/dev/null || { echo "no C compiler"; exit 2; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# Known call tree: main -> a -> b -> leaf; leaf does 3 units of work, b 1 unit.
cat > prog.c <<'C'
volatile unsigned long sink;
#define UNIT 60000000UL
__attribute__((noinline)) void leaf(void) { for (unsigned long i = 0; i < 3 * UNIT; i++) sink += i; }
__attribute__((noinline)) void b(void) { for (unsigned long i = 0; i < UNIT; i++) sink += i; leaf(); }
__attribute__((noinline)) void a(void) { b(); }
int main(void) { a(); return 0; }
C
cc -O0 -g -fno-omit-frame-pointer -o prog prog.c || fail "cc"

check_perf_reads() { # file
	perf report --stdio -i "$1" >rep.out 2>rep.err || fail "perf report exit on $1: $(cat rep.err)"
	[ -s rep.err ] && fail "perf report warnings on $1: $(cat rep.err)"
	perf script -i "$1" >script.out 2>script.err || fail "perf script exit on $1"
	[ -s script.err ] && fail "perf script warnings on $1: $(cat script.err)"
	perf report --header-only -i "$1" >hdr.out 2>hdr.err || fail "perf report --header-only on $1"
	[ -s hdr.err ] && fail "header-only warnings on $1: $(cat hdr.err)"
	grep -q "^# hostname" hdr.out || fail "no HOSTNAME feature in $1"
	grep -q "^# cmdline .*record" hdr.out || fail "no CMDLINE feature in $1"
	grep -q "^# event : name = cpu-clock\|^# event : name = cycles" hdr.out || fail "no EVENT_DESC in $1"
	grep -q "time of first sample" hdr.out || fail "no SAMPLE_TIME in $1"
}

# --- frame pointers ---
"$PRF" record -F 999 -g -o fp.data -- ./prog 2>rec.err || fail "prf record -g exit $?: $(cat rec.err)"
grep -q "^\[ prf record: Woken up [0-9]* times to write data \]" rec.err || fail "no wakeup summary: $(cat rec.err)"
grep -qE "^\[ prf record: Captured and wrote [0-9]+\.[0-9]{3} MB fp.data \([0-9]+ samples\) \]" rec.err ||
	fail "no capture summary: $(cat rec.err)"
check_perf_reads fp.data
perf evlist -v -i fp.data | grep -q "sample_type: IP|TID|TIME|CALLCHAIN|PERIOD" || fail "sample_type for -g"
# callchains: a sample in leaf whose next frames are b, a, main
perf script -F ip,sym -i fp.data 2>/dev/null | awk '
	/^$/ { if (s ~ /^leaf;b;a;main/) ok++; s=""; next }
	{ s = s (s=="" ? "" : ";") $2 }
	END { exit !(ok >= 10) }' || fail "no leaf;b;a;main stacks in perf script"
# build-id of the program is in the file
perf buildid-list -i fp.data 2>/dev/null | grep -q "$T/prog" || fail "no build-id for prog"
# shares: leaf ~75%, b ~25% of the program's samples
perf report --stdio --no-children --sort sym -i fp.data 2>/dev/null |
	awk '/\] leaf$/ {l=$1+0} /\] b$/ {b=$1+0} END { if (l+b == 0) exit 1; r = l/(l+b); exit !(r > 0.6 && r < 0.9) }' ||
	fail "leaf/b split not near 3:1: $(perf report --stdio --no-children --sort sym -i fp.data 2>/dev/null | grep -E '\] (leaf|b)$')"

# --- DWARF ---
"$PRF" record -F 999 --call-graph dwarf -o dw.data -- ./prog 2>rec.err || fail "prf record dwarf: $(cat rec.err)"
check_perf_reads dw.data
perf evlist -v -i dw.data | grep -q "sample_regs_user: 0xff0fff, sample_stack_user: 8192" || fail "dwarf attr"
perf script -F ip,sym -i dw.data 2>/dev/null | awk '
	/^$/ { if (s ~ /^leaf;b;a;main/) ok++; s=""; next }
	{ s = s (s=="" ? "" : ";") $2 }
	END { exit !(ok >= 10) }' || fail "no leaf;b;a;main stacks from dwarf unwinding"
"$PRF" record --call-graph dwarf,100000 -o x.data -- true 2>err.out && fail "dwarf size above 65528 accepted"
grep -q "max 65528" err.out || fail "no max size message: $(cat err.out)"
exit 0
