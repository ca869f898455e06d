#!/bin/bash
# prf report -g ...,function|address|srcline keys and prints callchain nodes like perf 6.1 (FP and DWARF recordings)
#
# A static program without libc (its own _start; libc's DWARF line table
# is where addr2line, and so perf, and libdw disagree on file names) calls
# work() from two lines of site() and from an always_inline helper() in
# cmain(). It is recorded by /usr/bin/perf with -g (frame pointers) and
# with --call-graph dwarf. For each callchain key (function, address,
# srcline), in graph/folded/fractal/flat modes, caller and callee order,
# children and no-children, `prf report --stdio` must print what
# `perf report --stdio` prints on the same file, line for line (only the
# Tip line and prf's "Truncated DWARF stacks" header line are dropped);
# also for the program built without -g (all its lines "??:0", which
# perf's srcline key treats as one line).
# Then, on the DWARF recording: the address key splits site's two calls
# ("site t.c:LINE" for both call lines) and work's addresses, the srcline
# key merges work's addresses of one line, the inlined helper is shown as
# "helper t.c:LINE (inlined)", and the function key prints no srclines.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup cckey
cd "$T" || exit 1

cat > t.c <<'SRC'
static volatile unsigned long sink;

__attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		{ sink += i * 7; sink ^= i >> 3; }	/* a line of several instructions */
}

static inline __attribute__((always_inline)) void helper(unsigned long n)
{
	work(n); /* HELPER_CALL */
	sink++;
}

__attribute__((noinline)) void site(int k)
{
	if (k)
		work(3000000); /* SITE_CALL_1 */
	else
		work(1000000); /* SITE_CALL_2 */
	sink++;
}

__attribute__((noinline, used)) int cmain(void)
{
	for (int i = 0; i < 200; i++) {
		site(1);
		site(0);
		helper(2000000);
	}
	return 0;
}

__attribute__((naked)) void _start(void)
{
	__asm__ volatile(".cfi_undefined rip\n\t"
			 "xorl %ebp, %ebp\n\t"
			 "andq $-16, %rsp\n\t"
			 "call cmain\n\t"
			 "movl %eax, %edi\n\t"
			 "movl $60, %eax\n\t"
			 "syscall");
}
SRC
cc -O1 -g -fno-omit-frame-pointer -fno-stack-protector -static -nostdlib -fno-pie -no-pie \
	-Wl,--eh-frame-hdr -o t t.c 2>cc.err || { cat cc.err; echo "cannot build a static -nostdlib x86_64 program"; exit 2; }
./t || { echo "the test program does not run here"; exit 2; }
"$PERF" record -q -e cpu-clock -c 1000000 -g -o fp.data ./t >/dev/null 2>&1 ||
	{ echo "perf record -g failed"; exit 2; }
"$PERF" record -q -e cpu-clock -c 1000000 --call-graph dwarf -o dw.data ./t >/dev/null 2>&1 ||
	{ echo "perf record --call-graph dwarf failed"; exit 2; }
# the same without debug info: every frame of it is "??:0" for perf
cc -O1 -fno-omit-frame-pointer -fno-stack-protector -static -nostdlib -fno-pie -no-pie \
	-Wl,--eh-frame-hdr -o tn t.c || fail "cc without -g"
"$PERF" record -q -e cpu-clock -c 1000000 -g -o fpn.data ./tn >/dev/null 2>&1 || fail "perf record -g ./tn"
"$PERF" record -q -e cpu-clock -c 1000000 --call-graph dwarf -o dwn.data ./tn >/dev/null 2>&1 ||
	fail "perf record --call-graph dwarf ./tn"

norm() {
	sed -e '/^# (Tip:/d' -e '/^# Truncated DWARF stacks:/{N;d}'
}

n=0
compare() {
	local data=$1
	shift
	n=$((n + 1))
	"$PERF" report -i "$data" --stdio "$@" 2>/dev/null | norm > perf.$n &
	"$PRF" report -i "$data" --stdio "$@" 2>prf.err | norm > prf.$n
	wait
	grep -q '%' perf.$n || fail "perf report $* on $data printed no entries"
	if ! diff -u perf.$n prf.$n > diff.$n; then
		head -40 diff.$n
		fail "prf report $* on $data differs from perf report"
	fi
}

for data in fp.data dw.data; do
	for key in function address srcline; do
		compare "$data" --no-children -g "graph,0.5,caller,$key"
		compare "$data" --children -g "callee,$key"
	done
	compare "$data" --no-children -g folded,0,caller,address
	compare "$data" --no-children -g folded,0,caller,srcline
	compare "$data" --no-children -g fractal,0.5,callee,address,count
	compare "$data" --no-children -g flat,0.5,srcline
done
compare dw.data --no-children -g srcline
compare dw.data --no-children --call-graph=caller,address,period
compare dw.data --no-children --sort sym -g caller,srcline
# no line info: perf's srcline key merges different functions (all
# "??:0") into one node, printed as the frame of the first chain there
for data in fpn.data dwn.data; do
	compare "$data" --no-children -g graph,0.5,caller,srcline
	compare "$data" --children -g callee,srcline
done
compare dwn.data --no-children -g graph,0.5,caller,address

# what the keys do, on the DWARF recording (call sites: the line of the call)
l1=$(grep -n SITE_CALL_1 t.c | cut -d: -f1)
l2=$(grep -n SITE_CALL_2 t.c | cut -d: -f1)
lh=$(grep -n HELPER_CALL t.c | cut -d: -f1)
"$PRF" report -i dw.data --stdio --no-children -g caller,address > addr.out 2>&1 || fail "report -g caller,address"
"$PRF" report -i dw.data --stdio --no-children -g caller,srcline > src.out 2>&1 || fail "report -g caller,srcline"
"$PRF" report -i dw.data --stdio --no-children -g caller,function > func.out 2>&1 || fail "report -g caller,function"
grep -q "site t\.c:$l1\$" addr.out || fail "no 'site t.c:$l1' node with the address key"
grep -q "site t\.c:$l2\$" addr.out || fail "no 'site t.c:$l2' node with the address key"
grep -q "helper t\.c:$lh (inlined)\$" addr.out || fail "no 'helper t.c:$lh (inlined)' node"
grep -q "t\.c:" func.out && fail "the function key printed srclines"
na=$(grep -c -- "--work t\.c:" addr.out)
ns=$(grep -c -- "--work t\.c:" src.out)
[ "$ns" -gt 0 ] || fail "no 'work t.c:LINE' nodes with the srcline key"
[ "$ns" -lt "$na" ] || fail "the srcline key did not merge work's addresses of one line ($ns vs $na nodes)"
"$PRF" report -i dw.data --stdio -g caller,bogus >/dev/null 2>&1 && fail "-g caller,bogus accepted"
echo "ok: $n reports equal to perf's"
exit 0
