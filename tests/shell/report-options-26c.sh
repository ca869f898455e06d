#!/bin/bash
# prf report -T/--threads, -I/--show-info, --show-cpu-utilization, --demangle/--no-demangle, --samples/--prefix/--prefix-strip accepted, and a report left without samples (--time, -U) printing what perf prints, against perf report on the same perf.data (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-opts26c g++

cat > "$T/cx.cc" <<'C'
#include <cstring>
#include <vector>
volatile unsigned long sink;
static char buf[1 << 16];
namespace ns { template <class T> struct W { __attribute__((noinline)) static void spin(T n) { for (T i = 0; i < n; i++) sink += i; } }; }
__attribute__((noinline)) void work(std::vector<int> &v, long n) { ns::W<long>::spin(n); v.push_back(1); }
int main() {
	std::vector<int> v;

	for (int i = 0; i < 1500; i++) { memset(buf, i, sizeof(buf)); sink += buf[i]; }
	work(v, 40000000);
	return 0;
}
C
g++ -O0 -fno-omit-frame-pointer -o "$T/cx" "$T/cx.cc" || fail "g++"
perf_record "$T/cx.data" -F 999 -g -- "$T/cx"
"$PRF" record -q -o "$T/prfcx.data" -F 999 -- "$T/cx" > /dev/null 2> "$T/prfrec.err" ||
	{ cat "$T/prfrec.err"; fail "prf record"; }

# same NAME ARGS...: prf report --stdio and perf report --stdio print the
# same (tips aside), and the same messages, on $data
same() {
	local name=$1; shift
	"$PERF" report -i "$data" --stdio "$@" 2>"$T/perf.err" | grep -av '^# (Tip:' > "$T/perf.txt"
	prf_out "$T/prf.raw" report -i "$data" --stdio "$@"
	grep -av '^# (Tip:' "$T/prf.raw" > "$T/prf.txt"
	[ -s "$T/perf.txt" ] || fail "$name: perf printed nothing"
	cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
	echo "ok: report $name on $(basename "$data")"
}

for data in "$T/cx.data" "$T/prfcx.data"; do
	same "--show-cpu-utilization" --show-cpu-utilization
	same "--show-cpu-utilization -s dso -n" --show-cpu-utilization -s dso -n
	same "--show-cpu-utilization -s overhead_sys,dso" --show-cpu-utilization -s overhead_sys,dso
	same "--show-cpu-utilization -t ," --show-cpu-utilization -t ,
	same "--no-demangle" --no-demangle
	same "--no-demangle --no-children -s sym" --no-demangle --no-children -s sym
	same "--demangle" --demangle
	same "--samples 5 --prefix /x --prefix-strip 2" --samples 5 --prefix /x --prefix-strip 2
done
prf_out "$T/mangled.txt" report -i "$T/cx.data" --stdio --no-children --no-demangle
grep -q '_ZN2ns1WIlE4spinEl' "$T/mangled.txt" || fail "--no-demangle: no mangled ns::W<long>::spin"
prf_out "$T/demangled.txt" report -i "$T/cx.data" --stdio --no-children
grep -q 'ns::W<long>::spin' "$T/demangled.txt" || fail "no demangled ns::W<long>::spin"
echo "ok: --no-demangle shows the mangled name"

# -T/--threads: the per-thread counts of the PERF_RECORD_READs perf
# record -s writes (two events, a process with threads and a child)
cat > "$T/thr.c" <<'C'
#include <pthread.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
void *spin(void *a) { for (long i = 0; i < 5000000; i++) sink += i; return a; }
int main(void) {
	pthread_t t[2];

	if (fork() == 0) { spin(0); _exit(0); }
	for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, spin, NULL);
	for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
	wait(NULL);
	return 0;
}
C
cc -O0 -pthread -o "$T/thr" "$T/thr.c" || fail "cc thr.c"
perf_record "$T/s.data" -s -e cpu-clock,task-clock -F 999 -- "$T/thr"
for data in "$T/s.data" "$T/cx.data"; do
	same "-T" -T
	same "--threads --no-children -q" --threads --no-children -q
done
prf_out "$T/t.txt" report -i "$T/s.data" --stdio -T
grep -q '^#  *PID  *TID  *cpu-clock  *task-clock$' "$T/t.txt" || fail "-T: no counter header"
[ "$(grep -c '^  *[0-9][0-9]*  *[0-9][0-9]*  *[0-9][0-9]*  *[0-9][0-9]*$' "$T/t.txt")" -ge 3 ] ||
	{ tail "$T/t.txt"; fail "-T: not 3 threads counted"; }
echo "ok: -T counts cpu-clock and task-clock per thread"

# -I/--show-info: the header's topology, cache and memory sections in full
for data in "$T/cx.data" "$T/s.data"; do
	same "--header-only -I" --header-only -I
	same "--header -I --no-children" --header -I --no-children
done
prf_out "$T/i.txt" report -i "$T/cx.data" --stdio --header-only -I
grep -q 'info available, use -I' "$T/i.txt" && fail "-I: a section left out"
grep -q '^# CPU 0: Core ID' "$T/i.txt" || fail "-I: no CPU topology"
echo "ok: -I shows the full header"

# nothing left to show: the header lines on stdout, perf's error on stderr
data=$T/cx.data
for o in "--time 1,2" "-U --dsos nonexistent --time 1,2"; do
	# shellcheck disable=SC2086
	{
	"$PERF" report -i "$data" --stdio $o > "$T/perf.txt" 2> "$T/perf.err"
	prf_out "$T/prf.txt" report -i "$data" --stdio $o
	}
	cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt"; fail "$o: stdout differs"; }
	cmp -s "$T/perf.err" "$T/prf.txt.err" || { diff "$T/perf.err" "$T/prf.txt.err"; fail "$o: stderr differs"; }
	grep -q "Total Lost" "$T/prf.txt" && fail "$o: a lost-samples block without samples"
	echo "ok: $o leaves no samples, as perf says"
done
