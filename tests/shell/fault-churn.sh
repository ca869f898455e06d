#!/bin/bash
# Fault: churn (200 short-lived processes, 256 threads, dlopen/dlclose loop): samples on the right comm, thread and DSO, as perf attributes them
# One workload runs the three storms in turn. It is recorded by Linux perf
# and by prf; on each file prf report --sort comm,dso and prf script
# (comm, tid, ip, sym, dso per sample) must equal perf's, and no sample of the
# dlopen'ed libraries may land on a stale map (burn_a only in liba.so,
# burn_b only in libb.so, though they are loaded at the same address).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup fault-churn
cd "$T" || exit 1

cat >lib.c <<'C'
volatile unsigned long lib_sink;
__attribute__((noinline)) void BURN(unsigned long n) { for (unsigned long i = 0; i < n; i++) lib_sink += i; }
C
cat >churn.c <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) static void burn(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
static void *thread_fn(void *arg)
{
	char name[16];
	snprintf(name, sizeof(name), "thr%03ld", (long)arg);
	prctl(PR_SET_NAME, name);
	burn(400000);
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t th[256];
	/* 200 short-lived processes, each with its own comm */
	for (int i = 0; i < 200; i++) {
		pid_t p = fork();
		if (p == 0) {
			char name[16];
			snprintf(name, sizeof(name), "kid%03d", i);
			prctl(PR_SET_NAME, name);
			burn(300000);
			_exit(0);
		}
		if (i % 8 == 7)
			while (wait(NULL) > 0)
				;
	}
	while (wait(NULL) > 0)
		;
	/* one process, 256 threads */
	prctl(PR_SET_NAME, "threads");
	for (long i = 0; i < 256; i++)
		pthread_create(&th[i], NULL, thread_fn, (void *)i);
	for (int i = 0; i < 256; i++)
		pthread_join(th[i], NULL);
	/* dlopen/dlclose in a loop, two libraries taking turns at one address */
	prctl(PR_SET_NAME, "dlloop");
	for (int i = 0; i < 120; i++) {
		const char *lib = i & 1 ? argv[2] : argv[1];
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
		void (*fn)(unsigned long) = (void (*)(unsigned long))dlsym(h, i & 1 ? "burn_b" : "burn_a");
		fn(500000);
		dlclose(h);
	}
	return 0;
}
C
cc -O0 -fPIC -shared -DBURN=burn_a -o liba.so lib.c && cc -O0 -fPIC -shared -DBURN=burn_b -o libb.so lib.c &&
	cc -O0 -o churn churn.c -ldl -lpthread || fail "cc"

"$PERF" record -q -F 2999 -o perf.data -- ./churn "$T/liba.so" "$T/libb.so" >/dev/null 2>perf.rec ||
	{ cat perf.rec; fail "perf record failed"; }
"$PRF" record -q -F 2999 -o prf.data -- ./churn "$T/liba.so" "$T/libb.so" >/dev/null 2>prf.rec ||
	fail "prf record failed: $(head -3 prf.rec)"

rep() { # tool file -> sorted "pct comm dso" lines
	"$1" report --stdio --sort comm,dso -i "$2" 2>/dev/null | grep -v '^#' | grep '%' |
		awk '{ print $1, $2, $3 }' | sort
}
for f in perf.data prf.data; do
	rep "$PERF" $f >perf.rep
	rep "$PRF" $f >prf.rep
	[ "$(wc -l <perf.rep)" -gt 20 ] || fail "$f: perf report has only $(wc -l <perf.rep) comm/dso lines"
	diff perf.rep prf.rep >rep.diff || fail "$f: report --sort comm,dso differs from perf's: $(head -12 rep.diff)"
	kids=$(awk '$2 ~ /^kid[0-9]+$/' prf.rep | cut -d' ' -f2 | sort -u | wc -l)
	thr=$(awk '$2 ~ /^thr[0-9]+$/' prf.rep | cut -d' ' -f2 | sort -u | wc -l)

	"$PERF" script -F comm,tid,ip,sym,dso -i $f 2>/dev/null | sed 's/  */ /g; s/^ //' >perf.scr
	"$PRF" script -F comm,tid,ip,sym,dso -i $f 2>prf.scr.err | sed 's/  */ /g; s/^ //' >prf.scr
	[ -s perf.scr ] || fail "$f: perf script printed nothing"
	diff perf.scr prf.scr >scr.diff || fail "$f: script comm,tid,ip,sym,dso differs from perf's ($(grep -c '^<' scr.diff) lines): $(head -8 scr.diff)"
	# stale maps: a library function attributed to the other library
	bad=$(grep -c -e 'burn_a.*libb\.so' -e 'burn_b.*liba\.so' prf.scr)
	[ "$bad" -eq 0 ] || fail "$f: $bad samples on a stale library map"
	na=$(grep -c 'burn_a.*liba\.so' prf.scr)
	nb=$(grep -c 'burn_b.*libb\.so' prf.scr)
	# the storms were seen at all (else the comparisons prove little)
	[ "$kids" -ge 10 ] || fail "$f: samples in only $kids of the 200 kid processes"
	[ "$thr" -ge 10 ] || fail "$f: samples in only $thr of the 256 threads"
	[ "$na" -ge 3 ] && [ "$nb" -ge 3 ] || fail "$f: too few library samples (burn_a $na, burn_b $nb)"
	echo "ok: $f: $(wc -l <prf.scr) samples as perf attributes them; $kids kid comms, $thr thread comms, burn_a $na / burn_b $nb in the right library"
done
exit 0
