#!/bin/bash
# prf record --switch-output (time, SIGUSR2 signal, size), --switch-max-files, --timestamp-filename: rotating files named OUTPUT.TIMESTAMP as perf's, each a whole perf.data that perf and prf resolve on its own; --control fifo: enable/disable/ping/stop with acks, as perf; bad uses exit 129
# prf-test: serial: switches by wall-clock time and by signals sent at fixed pauses
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-switch-output
cd "$T" || exit 1
cat > spin.c <<'C'
#include <stdlib.h>
#include <time.h>
static volatile long s;
__attribute__((noinline)) void work(void) { for (int i = 0; i < 100000; i++) s += i; }
/* spins for argv[1] ms of wall time */
int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], 0, 10) : 300;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		work();
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
	return 0;
}
C
cc -O1 -g -o spin spin.c || fail "cc"

# every file: a whole perf.data, its samples resolved by perf and by prf
check_files() { # DIR MIN
	local n=0 f
	for f in "$1"/perf.data.*; do
		[ -f "$f" ] || continue
		[[ $(basename "$f") =~ ^perf\.data\.[0-9]{16}$ ]] || fail "file name $(basename "$f")"
		"$PERF" report -i "$f" --stdio > r.perf 2> r.err || { cat r.err; fail "perf report $f"; }
		"$PRF" report -i "$f" --stdio > r.prf 2> r.err || { cat r.err; fail "prf report $f"; }
		if grep -q '^ *[0-9]' r.perf; then
			grep -q '\[\.\] work' r.perf || { head -20 r.perf; fail "$f: perf resolves no work()"; }
			grep -q '\[\.\] work' r.prf || fail "$f: prf resolves no work()"
			grep -q '\[unknown\]' r.perf && fail "$f: unresolved samples (no side-band in the file)"
		fi
		n=$((n + 1))
	done
	[ $n -ge "$2" ] || fail "$1: $n files, wanted at least $2"
	echo "$n"
}

# time: 2.3 s in files of 1 s
mkdir time && (cd time && "$PRF" record -o perf.data --switch-output=1s -F 999 -- ../spin 2300 > /dev/null 2> err) ||
	{ cat time/err; fail "--switch-output=1s"; }
[ -e time/perf.data ] && fail "perf.data left without a timestamp"
grep -q 'Captured and wrote .* perf.data.<timestamp> ]' time/err || { cat time/err; fail "summary line"; }
for f in time/perf.data.*; do grep -q "Dump $(basename "$f") ]" time/err || fail "no Dump line for $f"; done
echo "ok: time: $(check_files time 3) files"

# signal: two SIGUSR2 make three files
mkdir sig
(cd sig && exec "$PRF" record -o perf.data --switch-output -F 999 -- ../spin 1800 > /dev/null 2> err) &
pid=$!
sleep 0.5; kill -USR2 $pid; sleep 0.5; kill -USR2 $pid
wait $pid || { cat sig/err; fail "--switch-output (signal) exit $?"; }
[ "$(grep -c 'dump data: Woken up' sig/err)" -eq 2 ] || { cat sig/err; fail "two switches wanted"; }
echo "ok: signal: $(check_files sig 3) files"

# --switch-max-files=2: four signals, the last two files kept
mkdir max
(cd max && exec "$PRF" record -o perf.data --switch-output --switch-max-files=2 -F 999 -- ../spin 2000 > /dev/null 2> err) &
pid=$!
for i in 1 2 3 4; do sleep 0.35; kill -USR2 $pid; done
wait $pid || { cat max/err; fail "--switch-max-files exit"; }
[ "$(grep -c 'Dump perf.data' max/err)" -eq 5 ] || { cat max/err; fail "five dumps wanted"; }
[ "$(ls max/perf.data.* | wc -l)" -eq 2 ] || fail "--switch-max-files=2 kept $(ls max/perf.data.* | wc -l) files"
last=$(grep 'Dump perf.data' max/err | tail -1 | sed 's/.*Dump \(.*\) ]/\1/')
[ -f "max/$last" ] || fail "the newest file $last was removed"
echo "ok: max files: $(check_files max 2) kept"

# size: a new file each time the output passes 16 KB
mkdir size && (cd size && "$PRF" record -o perf.data --switch-output=16K -F 4000 -m 4 -- ../spin 1500 > /dev/null 2> err) ||
	{ cat size/err; fail "--switch-output=16K"; }
echo "ok: size: $(check_files size 2) files"

# --timestamp-filename: one file, named
mkdir ts && (cd ts && "$PRF" record -o perf.data --timestamp-filename -F 999 -- ../spin 200 > /dev/null 2> err) ||
	{ cat ts/err; fail "--timestamp-filename"; }
[ "$(check_files ts 1)" -eq 1 ] || fail "--timestamp-filename: not one file"
echo "ok: --timestamp-filename"

# --control with -D -1: samples only between 'enable' and 'disable', an
# ack for each command; 'stop' ends the recording as perf's does (143: the
# command was stopped)
mkfifo ctl ack
exec {cfd}<>ctl {afd}<>ack
ctl() { echo "$1" >&$cfd; read -r -t 10 -u $afd a || fail "no ack for '$1'"; [ "$a" = ack ] || fail "ack '$a'"; }
"$PRF" record -D -1 --control fifo:ctl,ack -F 999 -o c.data -- ./spin 1600 > /dev/null 2> c.err &
pid=$!
sleep 0.5; ctl enable; sleep 0.4; ctl disable; ctl ping
wait $pid || { cat c.err; fail "--control: exit $?"; }
[ "$(grep -c -e '^Events disabled$' -e '^Events enabled$' c.err)" -eq 3 ] || { cat c.err; fail "--control messages"; }
n=$("$PERF" script -i c.data 2>/dev/null | grep -c cpu-clock)
[ "$n" -gt 0 ] && [ "$n" -lt 900 ] || fail "--control: $n samples for a 0.4 s window of a 1.6 s run"
for tool in "$PERF" "$PRF"; do
	"$tool" record --control fifo:ctl,ack -F 999 -o s.data -- ./spin 5000 > /dev/null 2> s.err &
	pid=$!
	sleep 0.5; ctl stop
	wait $pid; rc=$?
	[ $rc -eq 143 ] || { cat s.err; fail "$tool --control stop: exit $rc"; }
done
echo "ok: --control ($n samples between enable and disable; stop)"

for bad in "-o - --switch-output|needs a file" "--switch-output=5x|Invalid --switch-output value: '5x'" \
	   "--control=pipe:x|neither fd:CTL" "--control=fd:99|bad or closed descriptor" \
	   "--control=fifo:$T/none|cannot open $T/none"; do
	out=$("$PRF" record ${bad%%|*} -- true 2>&1 > /dev/null); rc=$?
	[ $rc -eq 129 ] || fail "'${bad%%|*}': exit $rc"
	echo "$out" | grep -qF "${bad#*|}" || fail "'${bad%%|*}': $out"
done
echo "ok: bad uses"
exit 0
