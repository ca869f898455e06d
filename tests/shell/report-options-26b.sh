#!/bin/bash
# prf report --percentage, -t/--field-separator, --ns and the time key, --tasks, --mmaps, sort keys (value fields in -s, dso_size, symbol_size, srcfile, the IPC column) against perf report on the same perf.data, recorded by perf and by prf (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-opts26b

cc_prog halves
perf_record_bg "$T/perf.data" -F 999 -g --sample-cpu -- "$T/halves"
perf_record_bg "$T/nog.data" -F 999 -- "$T/halves"
"$PRF" record -q -o "$T/prf.data" -F 999 -g -- "$T/halves" > /dev/null 2> "$T/prfrec.err" ||
	{ cat "$T/prfrec.err"; fail "prf record"; }
perf_record_wait

# same NAME ARGS...: prf report --stdio and perf report --stdio print the
# same (tips aside) on $data
same() {
	local name=$1; shift
	"$PERF" report -i "$data" --stdio "$@" 2>/dev/null | grep -av '^# (Tip:' | perf_gi_names > "$T/perf.txt"
	prf_out "$T/prf.raw" report -i "$data" --stdio "$@"
	grep -av '^# (Tip:' "$T/prf.raw" | perf_gi_names > "$T/prf.txt"
	[ -s "$T/perf.txt" ] || fail "$name: perf printed nothing"
	cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
	echo "ok: report $name on $(basename "$data")"
}

# --percentage: relative makes the shown entries the 100%
for data in "$T/perf.data" "$T/nog.data" "$T/prf.data"; do
	for m in relative absolute; do
		same "--dsos halves --percentage $m" --dsos halves --percentage $m
		same "--dsos halves,libc.so.6 --no-children --percentage $m" --dsos halves,libc.so.6 --no-children --percentage $m
		[ "$data" = "$T/nog.data" ] ||
			same "-S second -g fractal --percentage $m" -S second -g fractal --percentage $m
		same "--dsos [kernel.kallsyms] --percent-limit 3 --percentage $m" \
			--dsos '[kernel.kallsyms]' --percent-limit 3 --percentage $m
	done
done
data=$T/nog.data
prf_out "$T/rel.txt" report -i "$data" --stdio --dsos halves --percentage relative
prf_out "$T/abs.txt" report -i "$data" --stdio --dsos halves
sum=$(awk '/%/ && !/^#/ { s += $1 } END { printf "%.0f", s }' "$T/rel.txt")
[ "$sum" = 100 ] || fail "--percentage relative: the shown entries add up to $sum%"
cmp -s "$T/rel.txt" "$T/abs.txt" && fail "--percentage relative changed nothing"
"$PRF" report -i "$data" --stdio --percentage half > /dev/null 2> "$T/bad.err"
rc=$?
[ $rc -eq 129 ] || fail "--percentage half: exit $rc, want 129"
grep -q "invalid --percentage 'half'" "$T/bad.err" || fail "--percentage half: $(cat "$T/bad.err")"
echo "ok: --percentage relative adds up to 100%, a bad value is a usage error"

# -t/--field-separator: columns joined by the separator, no rulers, the
# separator's first character turned to '.' inside the columns, folded
# callchains joined by it too
for data in "$T/perf.data" "$T/nog.data" "$T/prf.data"; do
	same "-t ," -t ,
	same "-t , --no-children -n" -t , --no-children -n
	same "-t | -s dso,sym,cpu --show-total-period --no-children" -t '|' -s dso,sym,cpu --show-total-period --no-children
	same "-t ; -s pid,comm -n" -t ';' -s pid,comm -n
	same "-t : -F sym,overhead,sample" -t : -F sym,overhead,sample
	same "-t x. -s sym,dso --no-children" -t x. -s sym,dso --no-children
	same "-t _ -q --no-children" -t _ -q --no-children
	[ "$data" = "$T/nog.data" ] || same "-t , -g folded" -t , -g folded
done
prf_out "$T/sep.txt" report -i "$T/nog.data" --stdio -t _ --no-children -s dso,sym
grep -q '^ [0-9.]*% *_halves *_\[\.\] first$' "$T/sep.txt" || fail "-t _: no ' N%_halves_[.] first' line"
grep -q '__memset' "$T/sep.txt" && fail "-t _: the separator was left inside a column"
"$PRF" report -i "$T/nog.data" --stdio -t . > /dev/null 2> "$T/bad.err"
rc=$?
[ $rc -eq 129 ] || fail "-t .: exit $rc, want 129"
grep -q "'.' is the only non valid --field-separator argument" "$T/bad.err" || fail "-t .: $(cat "$T/bad.err")"
echo "ok: -t _ separates, -t . is a usage error"

# the time sort key (cut to --time-quantum, default 100ms) and --ns; in
# children mode perf adds every frame of a chain to the time entry
for data in "$T/perf.data" "$T/nog.data" "$T/prf.data"; do
	same "-s time" -s time
	same "-s time --no-children" -s time --no-children
	same "-s time,sym --ns" -s time,sym --ns
	same "-s sym,time --ns -n" -s sym,time --ns -n
	same "-F time,overhead,sym --no-children" -F time,overhead,sym --no-children
	same "-s time,cpu --ns --time-quantum 5ms" -s time,cpu --ns --time-quantum 5ms
	[ "$data" = "$T/nog.data" ] ||
		same "-s time,comm --time-quantum 1s -g caller" -s time,comm --time-quantum 1s -g caller
	same "-s dso,time --time-quantum 20 --no-children" -s dso,time --time-quantum 20 --no-children
	same "-s time -t , --ns" -s time -t , --ns
	same "--ns" --ns
done
for q in 0 2x; do
	"$PRF" report -i "$T/nog.data" --stdio -s time --time-quantum $q > /dev/null 2> "$T/bad.err"
	rc=$?
	[ $rc -eq 129 ] || fail "--time-quantum $q: exit $rc, want 129"
done
echo "ok: --time-quantum 0 and 2x are usage errors"

# --tasks and --mmaps: the task tree (threads of a process, a forked
# child's child), and a system-wide recording whose running processes
# perf record synthesized (their maps start empty, not the parent's)
cat > "$T/thr.c" <<'C'
#include <pthread.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
void *spin(void *a) { for (long i = 0; i < 5000000; i++) sink += i; return a; }
int main(void) {
	pthread_t t[3];

	if (fork() == 0) { if (fork() == 0) { spin(0); _exit(0); } spin(0); wait(NULL); _exit(0); }
	for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, spin, NULL);
	for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
	wait(NULL);
	return 0;
}
C
cc -O0 -pthread -o "$T/thr" "$T/thr.c" || fail "cc thr.c"
perf_record_bg "$T/thr.data" -F 999 -- "$T/thr"
perf_record_bg "$T/all.data" -a -F 49 -- sleep 0.2
"$PRF" record -q -o "$T/prfthr.data" -F 999 -- "$T/thr" > /dev/null 2> "$T/prfrec.err" ||
	{ cat "$T/prfrec.err"; fail "prf record thr"; }
perf_record_wait
for data in "$T/perf.data" "$T/prf.data" "$T/thr.data" "$T/prfthr.data" "$T/all.data"; do
	# perf 6.1 --tasks leaves out a thread known only from its EXIT
	# record (a system-wide recording may have one) that --mmaps shows
	[ "$data" = "$T/all.data" ] || same "--tasks" --tasks
	same "--mmaps" --mmaps
done
prf_out "$T/tasks.txt" report -i "$T/thr.data" --tasks
[ "$(grep -c '|  thr$' "$T/tasks.txt")" -eq 1 ] || { cat "$T/tasks.txt"; fail "--tasks: no child's child"; }
[ "$(grep -c '| thr$' "$T/tasks.txt")" -eq 4 ] || { cat "$T/tasks.txt"; fail "--tasks: not a child and 3 threads under thr"; }
echo "ok: --tasks shows the threads and the nested children"

# sort keys: value fields in -s (perf prefixes overhead_children/overhead
# unless the -s text names them), dso_size, symbol_size, srcfile, and the
# IPC column perf 6.1 adds ("-" without branch data) when -s names "symbol"
cc -O0 -g -fno-omit-frame-pointer -o "$T/wg" "$PRF_SRCDIR/tests/shell/lib/halves.c" || fail "cc -g"
perf_record "$T/wg.data" -F 999 -g -- "$T/wg"
for data in "$T/perf.data" "$T/nog.data" "$T/prf.data" "$T/wg.data"; do
	for k in overhead_sys,dso dso,overhead_us,period +overhead_us symbol,dso symbol_size,dso \
		 overhead sample period overhead_sys overhead_us comm,sample sample,comm symbol \
		 dso,symbol sym,symbol_size; do
		same "-s $k" -s $k
	done
	# symbol_size last: in children mode with call graphs the order of
	# entries with equal Children may differ (see prf-report.txt)
	same "-s symbol_size --no-children" -s symbol_size --no-children
	same "-s comm,symbol_size -g none" -s comm,symbol_size -g none
	# srcfile: first (perf sizes it by every file only then), without
	# children (see prf-report.txt), past the start (ld.so's inlined
	# code is named by another file than perf's, as with srcline)
	for k in srcfile srcfile,sym; do
		same "-s $k --no-children --time 5%-100%" -s $k --no-children --time 5%-100%
	done
	# the kernel map's size is not perf's (see prf-report.txt)
	same "-s dso_size,dso --dsos libc.so.6,halves,wg" -s dso_size,dso --dsos libc.so.6,halves,wg
	same "-s overhead_sys,symbol -t ," -s overhead_sys,symbol -t ,
done
prf_out "$T/sf.txt" report -i "$T/wg.data" --stdio -s srcfile --no-children
grep -q '% *halves\.c$' "$T/sf.txt" || fail "-s srcfile: no halves.c entry"
prf_out "$T/ipc.txt" report -i "$T/nog.data" --stdio -s symbol
grep -q '^# Overhead  Symbol  *IPC   \[IPC Coverage\]$' "$T/ipc.txt" || fail "-s symbol: no IPC column"
echo "ok: -s srcfile names halves.c, -s symbol has the IPC column"
