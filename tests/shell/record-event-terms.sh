#!/bin/bash
# prf record takes perf's per-event config terms on symbolic events and tracepoints (period, freq, time, call-graph, stack-size, max-stack, inherit, no-inherit, name; sys:name/max-stack=N/): perf evlist -v of prf's file equals that of perf's own recording, unknown terms are refused
# For each event string, prf record and perf record write a file and
# `perf evlist -v` (perf's own reader) must print the same attributes for
# both. A tracepoint with max-stack=3 (no -g) gets callchains of at most
# three frames in perf script. A group's members are opened as perf opens
# them (not disabled, not enable_on_exec). Unknown terms, bad values and
# terms a tracepoint does not take: perf's "unknown term" error with the
# valid terms, exit 129.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-event-terms

attrs() { "$PERF" evlist -v -i "$1" 2>/dev/null | tr ',' '\n' | sed 's/^ *//'; }
events=('cpu-clock/period=100000,max-stack=4,call-graph=dwarf/'
	'cpu-clock/freq=99,time=0/'
	'cpu-clock/freq=99,period=5000/'
	'cpu-clock/period=5000,freq=99/'
	'cpu-clock/name=mine,no-inherit/u'
	'task-clock/call-graph=fp,max-stack=5/'
	'cpu-clock/call-graph=dwarf,stack-size=4096/'
	'{cpu-clock/max-stack=2/,task-clock}'
	'sched:sched_switch/max-stack=3/'
	'sched:sched_switch/call-graph=fp,no-inherit/')
have_tp=1
"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch || have_tp=0
# (perf record lingers about a second after its workload, asleep: its
# runs go in the background, all at once, and are compared after)
pids=()
i=0
for e in "${events[@]}"; do
	case "$e" in sched:*) [ $have_tp = 1 ] || continue ;; esac
	for g in "" "-g"; do
		"$PERF" record -q $g -o "$T/perf.$i.data" -e "$e" -- sleep 0.01 > /dev/null 2>&1 &
		pids[i]=$!
		i=$((i + 1))
	done
done
i=0
for e in "${events[@]}"; do
	case "$e" in sched:*) [ $have_tp = 1 ] || continue ;; esac
	for g in "" "-g"; do
		"$PRF" record -q $g -o "$T/prf.data" -e "$e" -- sleep 0.01 > "$T/err" 2>&1 ||
			{ cat "$T/err"; fail "prf record -e '$e' $g"; }
		wait "${pids[i]}" || { echo "perf record -e '$e' failed here"; exit 2; }
		attrs "$T/prf.data" > "$T/prf.a"
		attrs "$T/perf.$i.data" > "$T/perf.a"
		i=$((i + 1))
		[ -s "$T/prf.a" ] || fail "perf evlist cannot read prf's file for '$e'"
		cmp -s "$T/perf.a" "$T/prf.a" || { diff "$T/perf.a" "$T/prf.a"; fail "attributes of -e '$e' $g differ from perf's"; }
	done
	echo "ok: -e '$e' (with and without -g): perf evlist -v as for perf's own file"
done

# terms on raw and cache events (counted or not, named as perf names them)
for e in 'r1234/name=x/' 'L1-dcache-loads/name=x/' 'r1234/period=3/u'; do
	"$PERF" stat -x, -e "$e" true 2>&1 >/dev/null | grep -v '^$' | cut -d, -f2,3 > "$T/stat.perf"
	"$PRF" stat -x, -e "$e" true 2>&1 >/dev/null | grep -v '^$' | cut -d, -f2,3 > "$T/stat.prf"
	[ -s "$T/stat.perf" ] || { echo "perf stat -e '$e' printed no row here"; exit 2; }
	cmp -s "$T/stat.perf" "$T/stat.prf" ||
		{ diff "$T/stat.perf" "$T/stat.prf"; fail "prf stat -e '$e': not perf's row"; }
done
echo "ok: terms on raw and cache events"

if [ $have_tp = 1 ]; then
	"$PRF" record -q -o "$T/tp.data" -e 'sched:sched_switch/max-stack=3/' -- sh -c 'sleep 0.01; sleep 0.01' ||
		fail "record sched_switch/max-stack=3/"
	"$PERF" script -i "$T/tp.data" -F ip > "$T/tp.out" 2>/dev/null || fail "perf script of prf's file"
	awk 'NF == 0 { if (n > 3) bad = 1; n = 0; next } { n++ } END { exit bad }' "$T/tp.out" ||
		{ head -20 "$T/tp.out"; fail "max-stack=3: a callchain longer than 3 frames"; }
	[ "$(grep -c . "$T/tp.out")" -gt 0 ] || fail "max-stack=3: no callchains"
	echo "ok: sched:sched_switch/max-stack=3/ records callchains of at most 3 frames"
fi

for bad in 'cpu-clock/bogus=3/' 'cpu-clock/call-graph=foo/' 'cpu-clock/max-stack=0/' 'cpu-clock/period=x/' \
	   'sched:sched_switch/name=x/' 'cpu-clock/period=1'; do
	"$PRF" record -q -o "$T/bad.data" -e "$bad" -- true > /dev/null 2> "$T/err"
	rc=$?
	[ $rc -eq 129 ] && grep -q "event syntax error" "$T/err" ||
		{ cat "$T/err"; fail "-e '$bad': exit $rc, not 129 with an event syntax error"; }
done
"$PRF" record -q -o "$T/bad.data" -e 'cpu-clock/bogus=3/' -- true 2>&1 | grep -q '^valid terms: .*max-stack' ||
	fail "unknown term: no list of the valid terms"
echo "ok: bad terms exit 129 with perf's error"
