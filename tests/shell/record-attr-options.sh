#!/bin/bash
# prf record --all-user/--all-kernel, -T, --sample-cpu, -d, -P, -W, --switch-events, --namespaces, --all-cgroups, -k, --user-regs, -N, --mmap-flush, -D: the same perf_event_attr as perf 6.1 (perf evlist -v), records perf reads; --max-size stops; -o - with -z and dwarf; bad values exit 129
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-attr-options
cd "$T" || exit 1
cat > spin.c <<'C'
#include <stdlib.h>
#include <time.h>
static volatile long s;
/* spins for argv[1] ms of wall time (default 300), of its own cpu time
 * with a second argument "cpu" */
int main(int argc, char **argv)
{
	clockid_t clk = argc > 2 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
	struct timespec a, b;
	long ms = 300;

	if (argc > 1)
		ms = strtol(argv[1], 0, 10);
	clock_gettime(clk, &a);
	do {
		for (int i = 0; i < 100000; i++)
			s += i;
		clock_gettime(clk, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
	return 0;
}
C
cc -O1 -o spin spin.c || fail "cc"

# the attrs, perf's and prf's, for each option (ids differ by nature)
attrs() { "$PERF" evlist -v -i "$1" 2>&1 | sed 's/, id = {[^}]*}//' | sort; }
nr=0
for o in "" "--all-user" "--all-kernel" "-T" "--sample-cpu" "-d" "-P" "-W" "--switch-events" \
	 "--namespaces" "--all-cgroups" "-k mono" "-k CLOCK_BOOTTIME" "--user-regs=ax,bx,r15" "-N" \
	 "--mmap-flush=16K" "-D 50" "-d -T --sample-cpu -W" "--aio" "--aio=2"; do
	perf_record p.data $o -- ./spin 20
	"$PRF" record -q $o -o q.data -- ./spin 20 > /dev/null 2> q.err || { cat q.err; fail "prf record $o"; }
	attrs p.data > p.attrs
	attrs q.data > q.attrs
	cmp -s p.attrs q.attrs || { diff p.attrs q.attrs; fail "perf_event_attr differs with '$o'"; }
	# perf reads prf's file whole
	"$PERF" script -i q.data > /dev/null 2> q.err || { cat q.err; fail "perf script on prf's file ($o)"; }
	nr=$((nr + 1))
done
echo "ok: $nr option sets give perf's perf_event_attr"

# -k: the clock features perf prints
"$PRF" record -q -k mono -o k.data -- ./spin 20 || fail "prf record -k"
"$PERF" report -i k.data --header-only 2>/dev/null | grep -E '^# clockid' > k.prf
perf_record kp.data -k mono -- ./spin 20
"$PERF" report -i kp.data --header-only 2>/dev/null | grep -E '^# clockid' > k.perf
[ -s k.perf ] && cmp -s k.perf k.prf || { cat k.perf k.prf; fail "-k: CLOCKID/CLOCK_DATA headers"; }
echo "ok: -k headers: $(tr '\n' ' ' < k.prf)"

# --namespaces and --all-cgroups: synthesized records perf shows as it shows its own
for o in "--namespaces:--show-namespace-events:PERF_RECORD_NAMESPACES" \
	 "--all-cgroups:--show-cgroup-events:PERF_RECORD_CGROUP"; do
	IFS=: read -r opt show rec <<< "$o"
	"$PRF" record -q $opt -o n.data -- ./spin 20 || fail "prf record $opt"
	perf_record np.data $opt -- ./spin 20
	"$PERF" script $show -i n.data 2>/dev/null | grep "$rec" | sed 's/^ *[a-z-]* *[0-9]* *[0-9.]*: //; s/ [0-9]*\/[0-9]* / P\/T /' | sort -u > n.prf
	"$PERF" script $show -i np.data 2>/dev/null | grep "$rec" | sed 's/^ *[a-z-]* *[0-9]* *[0-9.]*: //; s/ [0-9]*\/[0-9]* / P\/T /' | sort -u > n.perf
	[ -s n.prf ] || fail "no $rec in prf's file"
	cmp -s n.perf n.prf || { diff n.perf n.prf | head; fail "$rec records differ"; }
done
"$PERF" report -i n.data --stdio -s cgroup 2>/dev/null | grep -E '^ +[0-9.]+%' > cg.prf
"$PERF" report -i np.data --stdio -s cgroup 2>/dev/null | grep -E '^ +[0-9.]+%' > cg.perf
[ "$(awk '{print $2}' cg.prf)" = "$(awk '{print $2}' cg.perf)" ] ||
	{ cat cg.perf cg.prf; fail "report -s cgroup names differ"; }
grep -q unknown cg.prf && fail "prf's samples' cgroup is unknown to perf"
echo "ok: namespaces and cgroup records"

# -D: the events start after the delay; the side-band is there from the exec
"$PRF" record -D 150 -F 999 -o d.data -- ./spin 400 > /dev/null 2> d.err || { cat d.err; fail "record -D"; }
grep -qx 'Events disabled' d.err && grep -qx 'Events enabled' d.err || { cat d.err; fail "-D messages"; }
exec_t=$("$PERF" script -i d.data --show-task-events -F comm,time,event 2>/dev/null | awk '/PERF_RECORD_COMM exec/ { sub(":", "", $2); print $2; exit }')
first_t=$("$PERF" script -i d.data -F time 2>/dev/null | head -1 | tr -d ' :')
[ -n "$exec_t" ] && [ -n "$first_t" ] || fail "-D: no exec ($exec_t) or no sample ($first_t)"
awk -v e="$exec_t" -v f="$first_t" 'BEGIN { exit !(f - e >= 0.14) }' ||
	fail "-D 150: first sample $first_t only $(awk -v e="$exec_t" -v f="$first_t" 'BEGIN{print f-e}') s after exec"
"$PRF" report -i d.data --stdio 2>/dev/null | grep -q '\[\.\] main' || fail "-D: samples not resolved to main"
echo "ok: -D 150 (first sample $(awk -v e="$exec_t" -v f="$first_t" 'BEGIN{printf "%.3f", f-e}') s after exec)"

# --max-size: stops near the limit, the file whole
"$PRF" record --max-size=64K -F 4000 -o m.data -- ./spin 3000 > /dev/null 2> m.err || { cat m.err; fail "record --max-size"; }
grep -q 'size limit reached' m.err || { cat m.err; fail "--max-size: no message"; }
size=$(stat -c %s m.data)
[ "$size" -lt $((64 * 1024 * 2)) ] || fail "--max-size=64K wrote $size bytes"
"$PERF" report -i m.data --stdio > /dev/null 2>&1 || fail "perf report on a --max-size file"
echo "ok: --max-size=64K: $size bytes"

# -o - with -z and with --call-graph dwarf: prf and perf read the stream
"$PRF" record -q -z -F 999 -g -o - -- ./spin 100 2>/dev/null > z.pipe || fail "record -z -o -"
"$PRF" report -i - --stdio < z.pipe 2>/dev/null | grep -q '\[\.\] main' || fail "prf report of -z pipe"
"$PERF" report -i - --stdio < z.pipe 2>/dev/null | grep -q '\[\.\] main' || fail "perf report of -z pipe"
"$PRF" record -q --call-graph dwarf -F 999 -o - -- ./spin 100 2>/dev/null > dw.pipe || fail "record dwarf -o -"
"$PRF" report -i - --stdio --no-children < dw.pipe 2>/dev/null | grep -q '\[\.\] main' || fail "prf report of dwarf pipe"
"$PERF" report -i - --stdio --no-children < dw.pipe 2>/dev/null | grep -q '\[\.\] main' || fail "perf report of dwarf pipe"
echo "ok: -o - with -z and with dwarf"

# --overwrite: a flight recorder; a 4 KB ring keeps the last ~100 samples
# of a run of 1.5 s of cpu time (~1500 samples however busy the machine), resolved (prf keeps the side-band in a dummy event's ring
# of its own; perf's file loses the exec's maps here)
# (on one cpu: a task that migrates leaves its early samples in the other
# cpu's ring, which nothing overwrites afterwards)
"$PRF" record -q --overwrite -m 1 -F 999 -o ow.data -- taskset -c 0 ./spin 1500 cpu 2> ow.err ||
	{ cat ow.err; fail "record --overwrite"; }
"$PERF" evlist -v -i ow.data | grep '^cpu-clock' | grep -q 'write_backward: 1' || fail "--overwrite: no write_backward"
n=$("$PERF" script -i ow.data 2>/dev/null | grep -c cpu-clock)
exec_t=$("$PERF" script -i ow.data --show-task-events -F comm,time,event 2>/dev/null | awk '/PERF_RECORD_COMM exec/ { sub(":", "", $2); print $2; exit }')
first_t=$("$PERF" script -i ow.data -F time 2>/dev/null | head -1 | tr -d ' :')
# at most a 4 KB ring of 48-byte samples per cpu
[ "$n" -gt 20 ] && [ "$n" -le $(( $(nproc) * 4096 / 48 )) ] || fail "--overwrite -m 1: $n samples"
last_t=$("$PERF" script -i ow.data -F time 2>/dev/null | tail -1 | tr -d ' :')
# the kept samples are the run's last ones: they begin in its second half
awk -v e="$exec_t" -v f="$first_t" -v l="$last_t" 'BEGIN { exit !(f - e > (l - e) / 2) }' ||
	fail "--overwrite: the kept samples are not the run's last (exec $exec_t, kept $first_t to $last_t)"
"$PERF" report -i ow.data --stdio 2>/dev/null | grep -q '\[\.\] main' || fail "--overwrite: perf resolves no main"
"$PRF" report -i ow.data --stdio 2>/dev/null | grep -q '\[\.\] main' || fail "--overwrite: prf resolves no main"
echo "ok: --overwrite: the last $n samples"

# --proc-map-timeout / core.proc-map-timeout: a process with 40000 maps,
# synthesized with a 1 ms limit, gets perf's warning and fewer maps
cat > maps.c <<'C'
#include <sys/mman.h>
#include <unistd.h>
int main(void)
{
	char *base = mmap(0, 40000 * 4096L, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	/* alternate protections: 40000 maps the kernel cannot merge */
	for (long i = 0; i < 40000; i += 2)
		mprotect(base + i * 4096, 4096, PROT_READ | PROT_EXEC);
	write(1, "ready\n", 6);
	pause();
	return 0;
}
C
cc -O1 -o maps maps.c || fail "cc maps.c"
./maps > maps.out &
mpid=$!
for i in $(seq 50); do grep -q ready maps.out && break; sleep 0.1; done
"$PRF" record -q -p $mpid --proc-map-timeout 1 -o pm.data -- sleep 0.1 2> pm.err || { cat pm.err; fail "record --proc-map-timeout"; }
printf '[core]\n\tproc-map-timeout = 100000\n' > pm.config
PERF_CONFIG=$T/pm.config "$PRF" record -q -p $mpid -o pmc.data -- sleep 0.1 2> pmc.err || { cat pmc.err; fail "record with core.proc-map-timeout"; }
kill $mpid
grep -q "Reading /proc/$mpid/maps time out" pm.err || { cat pm.err; fail "no time-out warning at 1 ms"; }
grep -q "time out" pmc.err && fail "time-out warning with core.proc-map-timeout = 100000"
few=$("$PERF" script -i pm.data --show-mmap-events 2>/dev/null | grep -c PERF_RECORD_MMAP2)
all=$("$PERF" script -i pmc.data --show-mmap-events 2>/dev/null | grep -c PERF_RECORD_MMAP2)
[ "$all" -ge 20000 ] && [ "$few" -lt "$all" ] || fail "maps synthesized: $few at 1 ms, $all without a limit"
echo "ok: --proc-map-timeout 1: $few maps; core.proc-map-timeout=100000: $all"

# bad values: one line naming the token, exit 129
for bad in "-k bogus:unknown clockid bogus" "--user-regs=ax,zz:Unknown register \"zz\"" \
	   "--max-size=12Q:Invalid --max-size value: '12Q'" "--mmap-flush=x:Invalid --mmap-flush value: 'x'" \
	   "-D -5:Invalid -D/--delay value: -5" "--all-user --all-kernel:exclude each other" \
	   "--aio=9:Invalid --aio value: '9'"; do
	opt=${bad%%:*}
	msg=${bad#*:}
	out=$("$PRF" record $opt -o b.data -- true 2>&1); rc=$?
	[ $rc -eq 129 ] || fail "'$opt': exit $rc"
	echo "$out" | grep -qF "$msg" || fail "'$opt': message '$out'"
done
echo "ok: bad values"
exit 0
