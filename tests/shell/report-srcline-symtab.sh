#!/bin/bash
# Source lines of code without a line table come from the symbol table as perf 6.1's addr2line gives them: "t.c:0" in a local function, nothing ("??:0") in a global one, "DSO[addr]" in a stripped program (script -F srcline, report -s srcline and -g srcline)
#
# A program built without -g has two functions of each kind: the local
# (static) ones sit after the symbol table's FILE symbol "t.c", and
# binutils' addr2line names that file with line 0 for them ("t.c:?",
# which perf shows as "t.c:0"); for the global ones it knows no file
# ("??:?": perf shows "??:0" in report and nothing in script). Recorded
# by Linux perf with -g (user space only), prf script -F +srcline and
# prf report -s srcline / sym,srcline / -g srcline must print what perf
# prints, and prf script must show "t.c:0" under the local functions.
# Recorded with --call-graph dwarf, perf 6.1 prints the line of its
# inline list for each unwound frame, "??:0" too: prf must as well.
# The same for the program stripped (.dynsym only: addr2line finds no
# function, and perf falls back to "ts[addr]" and "sym+off").
# Where glibc's debug info is installed, __libc_start_call_main's line
# differs as documented (prf-report(1)): the file name is mapped.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup srcline-symtab strip
cd "$T" || exit 1

cat > t.c <<'SRC'
#include <stdlib.h>
volatile unsigned long sink;
static __attribute__((noinline)) void s_leaf(void) { for (int i = 0; i < 3000; i++) sink += i; }
__attribute__((noinline)) void g_leaf(void) { for (int i = 0; i < 3000; i++) sink += i * 3; }
static __attribute__((noinline)) void s_mid(void) { g_leaf(); }
__attribute__((noinline)) void g_mid(void) { s_leaf(); }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 60000;

	for (long i = 0; i < n; i++) {
		g_mid();
		s_mid();
	}
	return 0;
}
SRC
cc -O0 -fno-omit-frame-pointer -o t t.c || fail "cc"
strip -o ts t || fail "strip"
readelf -sW t | grep -q ' FILE .* t\.c$' || { echo "no FILE symbol t.c in the program's symbol table"; exit 2; }

# glibc's documented difference (its debug info installed): the header's
# name where perf names the unit's file
filter() { sed 's/libc_start_call_main\.h:/libc-start.c:/'; }
# script output: the program's frames, each with the srcline line under
# it when there is one (other DSOs' lines differ where glibc's debug info
# puts a line in a header, as documented)
frames() {
	awk -v prog="($T/$1)" '
		/^[^ \t]/ { print "#"; keep = 0; next }
		/^\t/ { keep = index($0, prog) > 0; if (keep) print; next }
		/^  / && keep { print }'
}
# stripped and not have the same build-id: a build-id cache would give
# perf and prf the unstripped one for both. No cache (-N), and none from
# other runs (HOME)
export HOME=$T
for rec in t:-g ts:-g t:--call-graph=dwarf ts:--call-graph=dwarf; do
	prog=${rec%%:*}
	perf_record "$prog.data" -N -F 999 "${rec#*:}" --all-user -- "./$prog" 30000
	"$PERF" script -i "$prog.data" -F +srcline 2>/dev/null | frames "$prog" > "perf.$prog.script"
	prf_out "$prog.script" script -i "$prog.data" -F +srcline
	frames "$prog" < "$prog.script" > "prf.$prog.script"
	[ "$prog" = ts ] || grep -q 's_leaf+0x' "perf.$prog.script" || { echo "no sample in s_leaf"; exit 2; }
	cmp -s "perf.$prog.script" "prf.$prog.script" ||
		{ diff "perf.$prog.script" "prf.$prog.script" | head; fail "$prog: script -F +srcline differs from perf"; }
	# the program's entries (--dsos): perf cuts a srcline computed after
	# it sized the column (ld.so's, with glibc's debug info) short
	for opts in "-s srcline" "-s sym,srcline -g none" "-g srcline"; do
		# shellcheck disable=SC2086
		"$PERF" report -i "$prog.data" --stdio --no-children --dsos "$prog" $opts 2>/dev/null |
			grep -v '^#' | filter > perf.r
		# shellcheck disable=SC2086
		prf_out "$prog.report" report -i "$prog.data" --stdio --no-children --dsos "$prog" $opts
		grep -v '^#' "$prog.report" | filter > prf.r
		cmp -s perf.r prf.r || { diff perf.r prf.r | head; fail "$prog: report $opts differs from perf"; }
	done
	echo "$prog (${rec#*:}): script -F +srcline and report -s srcline, sym,srcline, -g srcline as perf"
	[ "$rec" = t:-g ] && cp prf.t.script prf.t.fp
done
# the local functions' file, under every frame of them; none for the
# global ones, nor anywhere in the stripped program
awk '/^\t/ { fr = $2 } /^  t\.c:0$/ { n[fr ~ /^s_/ ? "local" : "global"]++ }
     END { exit !(n["local"] > 0 && n["global"] == 0) }' prf.t.fp ||
	fail "prf script: no \"t.c:0\" under the local functions (or one under a global one)"
! grep -q '^  t\.c:0$' prf.ts.script || fail "stripped program: a file named without a symbol table"
exit 0
