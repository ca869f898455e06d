#!/bin/bash
# prf script -F tod, flags, misc, weight, addr, phys_addr, data_src, iregs, uregs, callindent, srccode and the -F type:fields form (hw:, sw:, trace:, +/-) against perf script on the same perf.data, recorded by perf and by prf (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/script.sh"
test_setup script-fields26

cat > "$T/pf.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void)
{
	char *p = malloc(4 << 20);
	for (long i = 0; i < (4 << 20); i += 4096)
		p[i] = 1;
	if (fork() == 0) { spin(20000000); _exit(0); }
	spin(30000000);
	wait(NULL);
	return 0;
}
C
cc -O0 -g -fno-omit-frame-pointer -o "$T/pf" "$T/pf.c" || fail "cc"


# page faults with their data address, weight, registers (and, from perf,
# physical addresses and the interrupt registers)
perf_record "$T/perf.data" -e page-faults -c 1 -d -W --phys-data --user-regs=ax,bx -I -- "$T/pf"
"$PRF" record -q -o "$T/prf.data" -e page-faults -c 1 --data --weight --user-regs=ax,bx -- "$T/pf" \
	> /dev/null 2> "$T/prec.err" || { cat "$T/prec.err"; fail "prf record"; }
for IN in "$T/perf.data" "$T/prf.data"; do
	for f in misc weight addr data_src uregs callindent \
		 comm,tid,misc,flags,event,addr,data_src,weight,ip,uregs,period; do
		same "-F $f" -F "$f"
	done
	same "-F +misc,+weight,+uregs -G" -F +misc,+weight,+uregs -G
	same "-F sw:comm,tid,uregs,addr" -F sw:comm,tid,uregs,addr
done
IN=$T/perf.data
same "-F iregs" -F iregs
same "-F phys_addr" -F phys_addr
same "-F comm,tid,time,misc,flags,event,addr,data_src,weight,ip,iregs,uregs,phys_addr,period" \
	-F comm,tid,time,misc,flags,event,addr,data_src,weight,ip,iregs,uregs,phys_addr,period
grep -q ' ABI:2    AX:0x[0-9a-f]*    BX:0x' "$T/prf.txt" || fail "no registers printed"
grep -q '|OP N/A|LVL N/A or N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A' "$T/prf.txt" || fail "no data_src printed"
"$PRF" script -i "$T/prf.data" -F +iregs > /dev/null 2> "$T/err"
rc=$?
[ $rc -ne 0 ] && grep -q "do not have IREGS attribute set. Cannot print 'iregs' field" "$T/err" ||
	fail "-F +iregs without them: exit $rc, $(cat "$T/err")"
"$PRF" script -i "$T/prf.data" -F flags > "$T/flags.txt" || fail "-F flags"
[ -s "$T/flags.txt" ] && fail "-F flags alone printed lines (perf prints none)"
echo "ok: missing fields, -F flags alone"

# tod: the wall clock of the recording's clock data (record -k)
perf_record "$T/k.data" -k mono -F 999 -g -- "$T/pf"
"$PRF" record -q -o "$T/pk.data" --clockid=mono -F 999 -g -- "$T/pf" > /dev/null 2>&1 || fail "prf record --clockid"
for IN in "$T/k.data" "$T/pk.data"; do
	same "-F +tod" -F +tod
	same "-F comm,misc,tod,time,event --ns" -F comm,misc,tod,time,event --ns
	# srccode: the source line of each sample, once per thread's line
	same "-F +srccode" -F +srccode
	same "-F +srccode -G" -F +srccode -G
	grep -q '^|[0-9] *  *__attribute__((noinline)) void spin' "$T/prf.txt" || fail "no source line printed"
	same "-F sw:comm,tid,ip,sym,srccode" -F sw:comm,tid,ip,sym,srccode
done
"$PRF" script -i "$T/perf.data" -F +tod > /dev/null 2> "$T/err" && fail "-F tod without clock data"
grep -q "missing clock data" "$T/err" || fail "-F tod: $(cat "$T/err")"
echo "ok: -F tod without clock data is an error"

# -F type:fields: tracepoints, software events, +/- per type
perf_record "$T/tp.data" -e cpu-clock -e sched:sched_process_fork -e sched:sched_process_exit -c 1000000 -- "$T/pf"
IN=$T/tp.data
same "-F trace:comm,tid,event,trace" -F trace:comm,tid,event,trace
same "-F trace:comm,event -F sw:comm,tid,ip,sym" -F trace:comm,event -F sw:comm,tid,ip,sym
same "-F sw:-period,+misc -F trace:+cpu" -F sw:-period,+misc -F trace:+cpu
same "-F hw:comm -F sw:comm,cpu (cpu not sampled: dropped)" -F hw:comm -F sw:comm,cpu
same "-F -period,+misc" -F -period,+misc
"$PRF" script -i "$IN" -F +cpu > /dev/null 2> "$T/err"
rc=$?
[ $rc -ne 0 ] && grep -q "do not have CPU attribute set" "$T/err" || fail "-F +cpu: exit $rc"
echo "ok: fields named for every type are required"
exit 0
