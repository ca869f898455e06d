#!/bin/bash
# prf diff matches perf diff byte for byte on recordings whose model changes between samples of the same ips (a comm set by prctl, a thread, a library loaded mid-run, a fork, an exec), by comm, pid, DSO and symbol
# prf diff remembers each sample's entry by (event, pid, tid, cpu,
# cpumode, ip) until the next record that changes the model; a sample
# after a COMM, MMAP, FORK or EXIT with the same identity must land where
# perf puts it. Compiles a program that runs the same loop before and
# after each such change, records it twice with /usr/bin/perf (Linux perf
# 6.1, the reference) and compares `prf diff` with `perf diff`.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup diff-model

cat > "$T/m.c" <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i * 3; }
static void *thr(void *a) { spin((long)a); return NULL; }
int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 1;
	double (*c)(double);
	volatile double x = 0;
	pthread_t t;
	void *h;

	if (argc > 2) {			/* after the exec: new maps, new comm */
		spin(30000000);
		return 0;
	}
	spin(30000000 * k);		/* the same pid, tid and ips ... */
	prctl(PR_SET_NAME, "renamed");	/* ... under another comm */
	spin(30000000);
	pthread_create(&t, NULL, thr, (void *)(20000000L * k));
	pthread_join(t, NULL);
	h = dlopen("libm.so.6", RTLD_NOW);	/* a map added mid-run */
	c = h ? (double (*)(double))dlsym(h, "cos") : NULL;
	for (long i = 0; c && i < 2000000; i++)
		x += c((double)i);
	if (fork() == 0) {		/* a child: another pid, the same ips */
		spin(20000000);
		_exit(0);
	}
	wait(NULL);
	execl("/proc/self/exe", argv[0], "1", "again", (char *)NULL);
	return 1;
}
C
cc -O1 -fno-omit-frame-pointer -o "$T/m" "$T/m.c" -ldl -lpthread || fail "cc"
perf_record "$T/m1.data" -- "$T/m" 1
perf_record "$T/m2.data" -- "$T/m" 2

n=0
# check OPTION...: perf diff and prf diff print the same and exit the same
check() {
	local rc_p rc_q
	"$PERF" diff "$@" "$T/m1.data" "$T/m2.data" > "$T/perf.out" 2>/dev/null
	rc_p=$?
	"$PRF" diff "$@" "$T/m1.data" "$T/m2.data" > "$T/prf.out" 2>"$T/prf.err"
	rc_q=$?
	[ $rc_q -eq $rc_p ] || { cat "$T/prf.err"; fail "diff $*: exit $rc_q, perf $rc_p"; }
	cmp -s "$T/perf.out" "$T/prf.out" ||
		{ diff "$T/perf.out" "$T/prf.out" | head -20; fail "diff $*: output differs"; }
	n=$((n + 1))
}
# the comm change must show: the loop under both names
"$PERF" diff -s comm "$T/m1.data" "$T/m2.data" 2>/dev/null | grep -q 'renamed' ||
	fail "perf diff shows no entry of the renamed comm"
check
check -s comm
check -s comm,dso,sym
check -s pid,sym
check -s comm,pid -p -c ratio
check -s cpu,sym
check -s dso
check -C renamed
check -S spin -s comm
echo "ok: $n option sets byte-identical to perf diff"
