#!/bin/bash
# tsan-smoke.sh PRF_TSAN: ThreadSanitizer over report's threads. PRF_TSAN is
# a prf built with `make SANITIZE=thread`. Runs the hist unit tests (hists
# feed, parallel printing, collapse trees with the side thread), then
# prf report in both children modes on a recording Linux perf makes here
# of python3 running a json/regex loop (the feed's adding thread, the
# delivering thread's presort of the input tree while it waits, print
# helpers), and prf script/report with two unwinding threads on a
# --call-graph dwarf recording of the same program (workers resolving whole
# samples ahead: walks, symbols, inline frames, srclines; the delivering
# thread taking and stealing them; the per-thread memos in front of the
# DSO caches), also with the debug cache keeping and mapping line tables
# and symbol tables; and prf script on a bigger one, where the reader's
# helper thread reads the data into blocks ahead of it, or (mapped) maps
# the data's pages ahead and gives them back; prf top, whose symbols
# load on a thread of their own; and prf annotate of CPython's biggest
# function, whose listing's inputs are made on helper threads.
# Any ThreadSanitizer report, or a failing command, fails it.
# Used by .ci/run; needs python3 and /usr/bin/perf for the report part
# (skipped with a message when perf cannot record here).
set -u
PRF_TSAN=${1:?usage: tsan-smoke.sh PRF_TSAN}
PERF=${PERF:-/usr/bin/perf}
case $PRF_TSAN in /*) ;; *) PRF_TSAN=$PWD/$PRF_TSAN ;; esac
dir=$(mktemp -d /tmp/prf-tsan.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# each run inflates glibc's debug image itself (the inflate threads under
# TSan) instead of mapping one kept by an earlier run
export PRF_DEBUG_CACHE=0
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}
bad=0

check() { # NAME LOG: fail on a nonzero status (in $st) or a TSan report
	local n
	n=$(grep -c 'WARNING: ThreadSanitizer' "$2")
	if [ "$st" -ne 0 ] || [ "$n" -ne 0 ]; then
		grep -A30 'WARNING: ThreadSanitizer' "$2" | head -80
		echo "tsan: $1: exit $st, $n ThreadSanitizer reports"
		bad=1
	else
		echo "tsan: $1: clean"
	fi
}

"$PRF_TSAN" test hist > "$dir/unit.log" 2>&1
st=$?
tail -1 "$dir/unit.log"
check "prf test hist" "$dir/unit.log"

cat > "$dir/w.py" <<'PY'
import json, re, sys
def f(n):
    d = {"k%d" % i: [i, str(i) * 3] for i in range(n)}
    s = json.dumps(d)
    return len(re.findall(r'"k\d+"', s)) + len(json.loads(s))
t = 0
for i in range(int(sys.argv[1])):
    t += f(200 + i % 50)
PY
if "$PERF" record -q -F 15000 -g -o "$dir/t.data" -- python3 "$dir/w.py" 5000 \
	>/dev/null 2>"$dir/rec.err"; then
	for mode in --children --no-children; do
		"$PRF_TSAN" report -i "$dir/t.data" --stdio "$mode" -v > /dev/null 2> "$dir/r.log"
		st=$?
		grep -E '^(hists feed|collapse tree)' "$dir/r.log"
		check "prf report $mode" "$dir/r.log"
	done
else
	cat "$dir/rec.err"
	echo "tsan: perf record failed here: report part skipped"
fi
# prf top: the live thread resolving and the loader thread loading
# symbols (installed by the live thread, read by it afterwards)
"$PRF_TSAN" top --stdio -g -d 0.2 -- python3 "$dir/w.py" 300 > /dev/null 2> "$dir/top.log"
st=$?
check "prf top -g, symbols loaded on a thread of their own" "$dir/top.log"
if "$PERF" record -q -F 2000 --call-graph dwarf -o "$dir/d.data" -- python3 "$dir/w.py" 300 \
	>/dev/null 2>"$dir/rec.err"; then
	for cmd in "script" "script -F +srcline" "report --stdio --no-children"; do
		# shellcheck disable=SC2086
		PRF_UNWIND_THREADS=2 "$PRF_TSAN" $cmd -i "$dir/d.data" -v > /dev/null 2> "$dir/u.log"
		st=$?
		grep -E '^unwind:' "$dir/u.log"
		check "prf $cmd, 2 unwinding threads" "$dir/u.log"
	done
	# the debug cache on: line tables and PLT answers kept by the first
	# run, mapped by the second (both unwinding threads look them up)
	for run in keeps maps; do
		PRF_DEBUG_CACHE="$dir/cache" PRF_UNWIND_THREADS=2 "$PRF_TSAN" script -F +srcline \
			-i "$dir/d.data" -v > /dev/null 2> "$dir/u.log"
		st=$?
		check "prf script -F +srcline, 2 unwinding threads, debug cache ($run)" "$dir/u.log"
	done
	# annotate of a named symbol: its code, symbol table and DWARF
	# functions made on a helper thread while the samples are read, the
	# instructions decoded and their text made by two threads, the
	# kernel's names asked on a third; then from the kept disassembly
	for run in decodes maps; do
		PRF_DEBUG_CACHE="$dir/cache" "$PRF_TSAN" annotate --stdio -i "$dir/d.data" \
			_PyEval_EvalFrameDefault > "$dir/a.out" 2> "$dir/a.log"
		st=$?
		[ -s "$dir/a.out" ] || { echo "tsan: annotate printed nothing"; bad=1; }
		check "prf annotate _PyEval_EvalFrameDefault ($run)" "$dir/a.log"
	done
	ls "$dir"/cache/*.lines > /dev/null 2>&1 || { echo "tsan: no line tables were kept"; bad=1; }
	ls "$dir"/cache/*.syms > /dev/null 2>&1 || { echo "tsan: no symbol tables were kept"; bad=1; }
	# a recording big enough (16 MB and more) for the reader's helper
	# thread; where
	# sampling is throttled or samples are lost, once more with 4x the work
	for loops in 1500 6000; do
		"$PERF" record -q -F 4000 --call-graph dwarf -o "$dir/big.data" -- \
			python3 "$dir/w.py" $loops >/dev/null 2>"$dir/rec.err" || break
		[ "$(du -m "$dir/big.data" | cut -f1)" -ge 20 ] && break
	done
	mb=$(du -m "$dir/big.data" 2>/dev/null | cut -f1)
	if [ "${mb:-0}" -ge 20 ]; then
		# read into blocks ahead (where THP is not "never"), and mapped
		modes=mapped
		grep -qs '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled ||
			[ ! -e /sys/kernel/mm/transparent_hugepage/enabled ] || modes="blocks mapped"
		for mode in $modes; do
			case $mode in
			blocks) msg="the data is read ahead into blocks on another thread" env= ;;
			mapped) msg="page tables of the data mapped ahead" env=PRF_READ_MAPPED=1 ;;
			esac
			# shellcheck disable=SC2086
			env $env "$PRF_TSAN" script -i "$dir/big.data" -vv > /dev/null 2> "$dir/u.log"
			st=$?
			grep -q "$msg" "$dir/u.log" ||
				{ echo "tsan: no reader helper thread ($mode) on $mb MB"; bad=1; }
			check "prf script with the reader's helper thread ($mode)" "$dir/u.log"
		done
	else
		echo "tsan: the recording is only ${mb:-0} MB (sampling throttled?): helper thread part skipped"
	fi
else
	cat "$dir/rec.err"
	echo "tsan: perf record --call-graph dwarf failed here: unwinding part skipped"
fi
exit $bad
