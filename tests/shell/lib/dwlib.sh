# Sourced by shell tests: dwlib_build builds, in the current directory
# ($T), a shared library libdl.so whose DWARF is in a .gnu_debuglink file
# libdl.so.debug with zlib-compressed sections (as distributions ship
# them), a program main using it, and two Linux perf recordings with
# --call-graph dwarf: early.data (main calls early() only) and both.data
# (early() and late()). Needs test_setup (setup.sh) with objcopy and strip.
# The library is linked from three files in this order: early.c (a hot
# function with an always-inline helper, plus 1000 small functions whose
# DWARF gcc puts before the hot one's, 88 KB into the unit), filler.c
# (generated: about 1 MB of DWARF in 7000 functions nobody calls) and
# late.c (another hot function with an inline helper): early.c's unit is
# at the start of .debug_info, late.c's past its first eighth.
# The library takes long to compile and is the same for every test that
# uses it: it is built once per `prf test` run, in the run's shared
# directory ($PRF_TEST_SHARED, builtin/test.c) under a lock, and each test
# copies it (with its sources); main and the recordings are the test's own.
# Without that directory (the script run by hand) the test builds it.
# (Here-documents are not indented: their text and end words must start
# their lines.)
dwlib_build() {
	local d=${PRF_TEST_SHARED:-}/dwlib rc
	if [ -n "${PRF_TEST_SHARED:-}" ] && [ -d "$PRF_TEST_SHARED" ] && command -v flock >/dev/null; then
		(
			flock 9 || exit 1
			[ -f "$d/built" ] && exit 0
			rm -rf "$d" && mkdir "$d" && cd "$d" || exit 1
			dwlib_compile && touch built
		) 9> "$PRF_TEST_SHARED/dwlib.lock"
		rc=$?
		[ $rc -eq 0 ] || exit $rc
		cp "$d"/early.c "$d"/filler.c "$d"/late.c "$d"/main.c "$d"/libdl.so "$d"/libdl.so.debug . ||
			fail "cannot copy the library built in $d"
	else
		dwlib_compile
	fi
	dwlib_finish
}

# dwlib_compile: the sources, libdl.so and libdl.so.debug in the current
# directory (exit 2, a skip, when cc or objcopy fail)
dwlib_compile() {
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
}

# dwlib_finish: the premises checked on the library, main and the recordings
dwlib_finish() {
readelf -SW libdl.so.debug | grep -q '\.debug_info .* C ' ||
	{ echo "objcopy did not compress the debug sections"; exit 2; }
# the premise: .debug_info big enough to be inflated on demand (256 KB),
# early.c's unit at its start, late.c's past its first eighth
info_size=$(python3 "$PRF_SRCDIR/tests/shell/lib/elf-section.py" libdl.so.debug .debug_info size)
[ "${info_size:-0}" -ge 400000 ] || fail "the test library's .debug_info is only ${info_size:-?} bytes"
cc -O2 -g -fomit-frame-pointer -o main main.c -L. -ldl -Wl,-rpath,"$T" || { echo "cc failed"; exit 2; }
perf_record early.data -e task-clock:u --call-graph dwarf -F 2000 --no-buildid-cache ./main
perf_record both.data -e task-clock:u --call-graph dwarf -F 2000 --no-buildid-cache ./main both
}

# Helpers of the debug cache tests:
# dwlib_run NAME ENV...: run ENV... (an env(1) command line), its output
# in NAME and its messages in NAME.err; a failure fails the test.
dwlib_run() {
	local name=$1
	shift
	env "$@" > "$name" 2> "$name.err" || { cat "$name.err"; fail "$name: prf failed"; }
}
# dwlib_same A B WHAT: fail with WHAT unless files A and B are equal.
dwlib_same() {
	cmp -s "$1" "$2" || { diff "$1" "$2" | head; fail "$3"; }
}
