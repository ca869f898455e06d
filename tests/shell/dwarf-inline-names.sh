#!/bin/bash
# Inlined C++ levels are named as perf names them: by the demangled DWARF linkage name (ns::W::inner), not DW_AT_name (inner)
#
# perf 6.1 takes the function names of a DWARF address from addr2line,
# which prints an inlined level's DW_AT_linkage_name where it has one;
# perf demangles it. A -O2 -g -fomit-frame-pointer C++ program with
# ns::W::inner() inlined into ns::outer(), recorded with perf --call-graph
# dwarf: perf names the inlined level ns::W::inner; prf named it inner.
# Every sample's frames in the program must equal perf script's, with the
# level's srcline too, and prf report must show ns::W::inner (inlined).
# (C linkage names, glibc's __GI_ aliases, are a documented difference:
# Documentation/prf-report.txt.)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup inline-names g++

cat > "$T/cxx.cc" <<'C'
volatile unsigned long sink;
namespace ns {
struct W {
	static inline __attribute__((always_inline)) void inner(int n)
	{
		for (int i = 0; i < n; i++)
			sink += i;
	}
};
__attribute__((noinline)) void outer(int n) { W::inner(n); sink++; }
}
int main() { for (int k = 0; k < 300; k++) ns::outer(1000000); return 0; }
C
g++ -O2 -g -fomit-frame-pointer -o "$T/cxxprog" "$T/cxx.cc" || fail "g++"

frames() { # PROG: per sample, the frames in PROG ("sym (dso)", "ns::... (inlined)")
	# (not ld.so's and libc's inlined levels: glibc's hidden-alias names
	# are a documented difference)
	awk -v bin="$T/$1" '/^[^ \t]/ { if (s != "") print s; s = "#" }
		/^\t/ && (index($0, "(" bin ")") || / ns::[^ ]* \(inlined\)$/) {
			l = $0; sub(/^\t *[0-9a-f]+ /, "", l); s = s ";" l }
		END { if (s != "") print s }'
}
check() { # PROG WANT: PROG's samples framed as perf frames them; WANT among them
	local prog=$1 want=$2
	perf_record "$T/$prog.data" -e cpu-clock -F 1000 --call-graph dwarf -- "$T/$prog"
	"$PERF" script -i "$T/$prog.data" 2>/dev/null | frames "$prog" > "$T/$prog.perf"
	prf_out "$T/$prog.script" script -i "$T/$prog.data"
	frames "$prog" < "$T/$prog.script" > "$T/$prog.prf"
	grep -q -- "$want" "$T/$prog.perf" ||
		{ head -3 "$T/$prog.perf"; echo "perf shows no '$want' here: cannot compare"; exit 2; }
	cmp -s "$T/$prog.perf" "$T/$prog.prf" ||
		{ diff "$T/$prog.perf" "$T/$prog.prf" | head; fail "$prog: frames differ from perf script's"; }
	echo "ok: $prog: $(grep -c -- "$want" "$T/$prog.prf") samples show '$want', as perf script"
}
check cxxprog ';ns::W::inner+0x[0-9a-f]* (inlined);ns::outer+'
"$PERF" script -i "$T/cxxprog.data" -F +srcline 2>/dev/null | grep -A1 'ns::W::inner' > "$T/perf.src"
"$PRF" script -i "$T/cxxprog.data" -F +srcline 2>/dev/null | grep -A1 'ns::W::inner' > "$T/prf.src"
grep -q 'cxx.cc:[0-9]' "$T/perf.src" || { head -4 "$T/perf.src"; fail "perf shows no srcline for ns::W::inner"; }
cmp -s "$T/perf.src" "$T/prf.src" || { diff "$T/perf.src" "$T/prf.src" | head; fail "-F +srcline differs"; }
"$PRF" report -i "$T/cxxprog.data" --stdio --no-children 2>/dev/null | grep -q 'ns::W::inner (inlined)' ||
	fail "prf report shows no ns::W::inner (inlined)"
echo "ok: srclines as perf script's, report shows ns::W::inner (inlined)"
exit 0
