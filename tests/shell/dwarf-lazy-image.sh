#!/bin/bash
# A compressed separate debug file's .debug_info and .debug_line are inflated only as far as the samples need, with the same stacks, inline frames and srclines as inflating all (PRF_DEBUG_LAZY=0) and as libdw's own reading; a corrupt late part is survived
#
# A shared library is built from three files, linked in this order: early.c
# (a hot function with an always-inline helper, plus 1000 small functions
# whose DWARF gcc puts before the hot one's, 88 KB into the unit),
# filler.c (generated: about 1 MB of DWARF in 7000 functions nobody calls)
# and late.c (another hot function with an inline helper). Its DWARF goes
# to a .gnu_debuglink file with zlib-compressed sections, as distributions
# ship them. Linux perf records, with --call-graph dwarf, a program that
# calls early() only, and one that calls early() and late().
#  - early only: prf must not inflate all of .debug_info (-vv says when it
#    does: "all of .debug_info inflated"), and its report and script
#    -F +srcline must equal those with PRF_DEBUG_LAZY=0 and with
#    PRF_DEBUG_IMAGE=0 (libdw reads the file), with the inlined helper and
#    its early.c line shown.
#  - early and late: late.c's unit lies past an eighth of .debug_info, so
#    all of it is inflated; the same three-way comparison, with both
#    inlined helpers shown.
#  - the compressed .debug_info damaged past its first quarter: the early
#    only recording still shows the early inlined helper (its unit is in
#    the intact start), and the early+late one is still unwound and
#    printed (exit 0), without late.c's DWARF.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup dwlazy objcopy strip
cd "$T" || exit 1
export HOME=$T	# no ~/.debug copies: the debug file is found by debuglink

cat > early.c <<'SRC'
volatile unsigned long early_sink;
static inline __attribute__((always_inline)) unsigned long early_mix(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
__attribute__((noinline)) unsigned long early(unsigned long x)
{
	for (int i = 0; i < 3000; i++)
		x = early_mix(x) ^ early_sink;
	early_sink = x;
	return x;
}
SRC
python3 - >> early.c <<'PY'	# a big unit (88 KB): gcc puts early()'s DIE last,
				# past the 64 KB a first request inflates
for i in range(1000):
    print("struct early_s%d { long a%d; int c%d[%d]; };" % (i, i, i, i % 5 + 1))
    print("long early_f%d(struct early_s%d *p) { return p->a%d + p->c%d[0]; }" % (i, i, i, i))
PY
cat > late.c <<'SRC'
volatile unsigned long late_sink;
static inline __attribute__((always_inline)) unsigned long late_mix(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15UL;
	return x;
}
__attribute__((noinline)) unsigned long late(unsigned long x)
{
	for (int i = 0; i < 3000; i++)
		x = late_mix(x) ^ late_sink;
	late_sink = x;
	return x;
}
SRC
python3 - > filler.c <<'PY'
for i in range(7000):
    print("struct filler_s%d { long a%d, b%d; int c%d[%d]; };" % (i, i, i, i, i % 7 + 1))
    print("long filler_f%d(struct filler_s%d *p, long k) { long t = p->a%d + k;"
          " for (int j = 0; j < %d; j++) t += p->c%d[j %% %d] * j; return t ^ p->b%d; }"
          % (i, i, i, i % 5 + 2, i, i % 7 + 1, i))
PY
cat > main.c <<'SRC'
unsigned long early(unsigned long x);
unsigned long late(unsigned long x);
int main(int argc, char **argv)
{
	unsigned long s = 0;
	int both = argc > 1;

	for (unsigned long i = 0; i < 1200; i++)
		s += both && (i & 1) ? late(i) : early(i);
	return s == 42;	/* 0: perf record passes the exit status on */
}
SRC
cc -O2 -g -fPIC -shared -fomit-frame-pointer -o libdl.so early.c filler.c late.c ||
	{ echo "cc failed"; exit 2; }
objcopy --only-keep-debug --compress-debug-sections=zlib libdl.so libdl.so.debug &&
	strip --strip-debug libdl.so &&
	objcopy --add-gnu-debuglink=libdl.so.debug libdl.so || { echo "objcopy failed"; exit 2; }
readelf -SW libdl.so.debug | grep -q '\.debug_info .* C ' ||
	{ echo "objcopy did not compress the debug sections"; exit 2; }
# the premise: .debug_info big enough to be inflated on demand (256 KB),
# early.c's unit at its start, late.c's past its first eighth
info_size=$(python3 "$PRF_SRCDIR/tests/shell/lib/elf-section.py" libdl.so.debug .debug_info size)
[ "${info_size:-0}" -ge 400000 ] || fail "the test library's .debug_info is only ${info_size:-?} bytes"
cc -O2 -g -fomit-frame-pointer -o main main.c -L. -ldl -Wl,-rpath,"$T" || { echo "cc failed"; exit 2; }
perf_record early.data -e task-clock:u --call-graph dwarf -F 2000 --no-buildid-cache ./main
perf_record both.data -e task-clock:u --call-graph dwarf -F 2000 --no-buildid-cache ./main both

run() {	# name env... -- args
	local name=$1
	shift
	env "$@" > "$name" 2> "$name.err" || { cat "$name.err"; fail "$name: prf failed"; }
}
# compare DATA: report and script -F +srcline the same three ways
compare() {
	local d=$1 mode
	for mode in lazy eager libdw; do
		case $mode in
		lazy) set -- ;;
		eager) set -- PRF_DEBUG_LAZY=0 ;;
		libdw) set -- PRF_DEBUG_IMAGE=0 ;;
		esac
		run "$d.$mode.script" "$@" "$PRF" script -vv -i "$d.data" -F +srcline
		run "$d.$mode.report" "$@" "$PRF" report -i "$d.data" --stdio --no-children
	done
	for mode in eager libdw; do
		cmp -s "$d.lazy.script" "$d.$mode.script" ||
			{ diff "$d.lazy.script" "$d.$mode.script" | head; fail "$d: script differs from $mode"; }
		cmp -s "$d.lazy.report" "$d.$mode.report" ||
			{ diff "$d.lazy.report" "$d.$mode.report" | head; fail "$d: report differs from $mode"; }
	done
	grep -q "libdl.so.debug: .* the rest on demand" "$d.lazy.script.err" ||
		{ grep debuginfo "$d.lazy.script.err" | head; fail "$d: .debug_info was not left to be inflated on demand"; }
}

compare early
grep -q "libdl.so.debug: all of .debug_info inflated" early.lazy.script.err &&
	fail "early only: all of .debug_info was inflated"
grep -q "early_mix (inlined)" early.lazy.report || fail "early only: no inlined early_mix frame"
grep -A1 "early_mix+0x[0-9a-f]*\$" early.lazy.script | grep -q "early.c:[0-9]* (inlined)" ||
	fail "early only: no early.c srcline for the inlined frame"

compare both
grep -q "libdl.so.debug: all of .debug_info inflated" both.lazy.script.err ||
	fail "early and late: .debug_info was not inflated in full for late.c's unit"
grep -q "late_mix (inlined)" both.lazy.report || fail "early and late: no inlined late_mix frame"
grep -q "early_mix (inlined)" both.lazy.report || fail "early and late: no inlined early_mix frame"
grep -A1 "late_mix+0x[0-9a-f]*\$" both.lazy.script | grep -q "late.c:[0-9]* (inlined)" ||
	fail "early and late: no late.c srcline for the inlined frame"

# damage the compressed .debug_info past its first quarter
python3 "$PRF_SRCDIR/tests/shell/lib/elf-section.py" libdl.so.debug .debug_info damage 0.25 ||
	{ echo "cannot patch the debug file"; exit 2; }
run bad.early "$PRF" report -i early.data --stdio --no-children
grep -q "early_mix (inlined)" bad.early ||
	fail "damaged late part: the early unit's inlined frame is gone"
run bad.both "$PRF" script -i both.data
grep -q "late+0x[0-9a-f]* (.*libdl.so)" bad.both || fail "damaged late part: no late frame"
grep -A1 "late+0x[0-9a-f]* (.*libdl.so)" bad.both | grep -q "main+0x" ||
	fail "damaged late part: stacks not unwound"
echo "on demand: early only partial, early+late whole, both equal to eager and libdw; damage survived"
exit 0
