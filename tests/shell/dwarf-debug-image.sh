#!/bin/bash
# DWARF from a zlib-compressed separate debug file: prf's in-memory image gives the same stacks, inline frames and srclines as libdw's own reading; a corrupt one is survived
#
# A shared library with an always-inline helper is built with -g, its
# DWARF moved to a .gnu_debuglink file with zlib-compressed sections
# (objcopy --compress-debug-sections=zlib, as distributions ship them),
# and a program calling it is recorded by /usr/bin/perf --call-graph
# dwarf. prf script -F +srcline and prf report must print the same with
# prf's in-memory image of the debug file (default; -vv says it inflated
# the sections) and with PRF_DEBUG_IMAGE=0 (libdw reads the file), and
# show the inlined helper with its source line from the debug file. Then
# the compressed .debug_info of the debug file is damaged: prf must still
# print the stacks (symbols from the library itself) and exit 0.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup dwimg objcopy strip
cd "$T" || exit 1
export HOME=$T	# no ~/.debug copies: the debug file is found by debuglink

cat > lib.c <<'SRC'
volatile unsigned long lib_sink;
static inline __attribute__((always_inline)) unsigned long mixer(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
__attribute__((noinline)) unsigned long lib_work(unsigned long x)
{
	for (int i = 0; i < 4000; i++)
		x = mixer(x) ^ lib_sink;
	lib_sink = x;
	return x;
}
SRC
cat > main.c <<'SRC'
unsigned long lib_work(unsigned long x);
__attribute__((noinline)) unsigned long caller(unsigned long i)
{
	return lib_work(i) + 1;
}
int main(void)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < 1500; i++)
		s += caller(i);
	return (int)(s & 1);
}
SRC
cc -O2 -g -fPIC -shared -fomit-frame-pointer -o libdi.so lib.c || { echo "cc failed"; exit 2; }
objcopy --only-keep-debug --compress-debug-sections=zlib libdi.so libdi.so.debug &&
	strip --strip-debug libdi.so &&
	objcopy --add-gnu-debuglink=libdi.so.debug libdi.so || { echo "objcopy failed"; exit 2; }
readelf -SW libdi.so.debug | grep -q '\.debug_info .* C ' ||
	readelf -tW libdi.so.debug | grep -A3 '\.debug_info' | grep -q COMPRESSED ||
	{ echo "objcopy did not compress the debug sections"; exit 2; }
readelf -SW libdi.so | grep -q '\.debug_info' && fail "libdi.so still has .debug_info"
cc -O2 -g -fomit-frame-pointer -o main main.c -L. -ldi -Wl,-rpath,"$T" || { echo "cc failed"; exit 2; }
perf_record py.data -e task-clock:u --call-graph dwarf -F 2000 --no-buildid-cache ./main

run() {	# name env... -- args
	local name=$1
	shift
	env "$@" > "$name" 2> "$name.err" || { cat "$name.err"; fail "$name: prf failed"; }
}
run img.script "$PRF" script -vv -i py.data -F +srcline
run lib.script PRF_DEBUG_IMAGE=0 "$PRF" script -i py.data -F +srcline
run img.report "$PRF" report -i py.data --stdio --no-children
run lib.report PRF_DEBUG_IMAGE=0 "$PRF" report -i py.data --stdio --no-children
grep -q "libdi.so.debug: [0-9]* sections inflated in memory" img.script.err ||
	{ grep debuginfo img.script.err | head; fail "the debug file was not read through the in-memory image"; }
grep -q "DWARF from $T/libdi.so.debug" img.script.err || fail "DWARF not taken from libdi.so.debug"
cmp -s img.script lib.script || { diff img.script lib.script | head; fail "script output differs with PRF_DEBUG_IMAGE=0"; }
cmp -s img.report lib.report || { diff img.report lib.report | head; fail "report output differs with PRF_DEBUG_IMAGE=0"; }
run img.plain "$PRF" script -i py.data
grep -q "mixer+0x[0-9a-f]* (inlined)" img.plain || fail "no inlined mixer frame in prf script"
grep -A1 "mixer+0x[0-9a-f]*\$" img.script | grep -q "lib.c:[0-9]* (inlined)" ||
	fail "no lib.c srcline for the inlined frame"
grep -q "lib_work+0x[0-9a-f]* (.*libdi.so)" img.plain || fail "no lib_work frame in prf script"
grep -A1 "lib_work+0x[0-9a-f]* (.*libdi.so)" img.plain | grep -q "caller+0x" ||
	fail "the stack does not continue from lib_work into main's caller()"

# damage the compressed .debug_info (its zlib stream) of the debug file
python3 "$PRF_SRCDIR/tests/shell/lib/elf-section.py" libdi.so.debug .debug_info damage 0 ||
	{ echo "cannot patch the debug file"; exit 2; }
run bad.script "$PRF" script -i py.data
grep -q "lib_work+0x[0-9a-f]* (.*libdi.so)" bad.script || fail "damaged debug file: no lib_work frame"
grep -A1 "lib_work+0x[0-9a-f]* (.*libdi.so)" bad.script | grep -q "caller+0x" ||
	fail "damaged debug file: stacks not unwound"
echo "image and libdw agree ($(grep -c 'mixer+' img.plain) inlined mixer frames); damaged debug file survived"
exit 0
