#!/bin/bash
# A big perf.data is read ahead on a second thread, into blocks or mapped (page tables made ahead, given back behind): same report and script output as on one CPU and either way, and the memory read is given back (peak RSS far below the file)
# prf-test: serial: asserts peak RSS bounds
#
# A --call-graph dwarf recording of about 100 MB (8 KB of stack per
# sample): with two CPUs prf script and report say (-vv) that a helper
# thread reads the data into 2 MB blocks ahead of the reader (3 blocks,
# used again once their records are delivered), or with
# PRF_READ_MAPPED=1 maps the data's pages ahead and gives back the ones
# read; on one CPU (taskset -c 0) the reader does without. Outputs must
# be equal; the peak RSS on one CPU must stay below half the file above
# that of the same command on a small recording of the same program (the
# heap, DWARF and, under ASan, its shadow memory: 60 MB there), and with
# the helper within 18 MB of that (mapped: it maps up to 4 MB ahead of
# the reader's last 2 MB step; it gives back behind, or the reader does
# once it lags 8 MB: 14 MB at most, and a margin; blocks: 6 MB ahead).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup mapahead taskset
[ "$(nproc)" -gt 1 ] || { echo "one CPU: no helper thread to test"; exit 2; }
cd "$T" || exit 1
cc_prog tree
# the file's size follows the CPU time the program gets: twice the work
# once more where the first recording stays small
for n in 1300000 2600000; do
	perf_record big.data -e task-clock:u --call-graph dwarf -F 4000 ./tree $n
	size_kb=$(( $(stat -c %s big.data) / 1024 ))
	[ "$size_kb" -ge 60000 ] && break
done
[ "$size_kb" -ge 60000 ] || { echo "the recording is only $size_kb KB (sampling throttled?): the test needs 60 MB"; exit 2; }
perf_record small.data -e task-clock:u --call-graph dwarf -F 4000 ./tree 20000

# peak RSS in KB of a command, its output in $1 and messages in $1.err
peak() {
	local out=$1
	shift
	python3 - "$out" "$@" <<'PY'
import resource, subprocess, sys
out = sys.argv[1]
with open(out, "wb") as o, open(out + ".err", "wb") as e:
    rc = subprocess.run(sys.argv[2:], stdout=o, stderr=e).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -1)
PY
}

# libdw reads the debug files itself: with prf's debug images, two CPUs
# also inflate glibc's .debug_info ahead on another thread (8 MB more);
# and no callchain cache: its kept chains and their text are heap this
# test does not measure (a few MB, more under ASan, where the one-CPU
# run came within 1 MB of half the file)
export PRF_DEBUG_IMAGE=0 PRF_NO_CHAIN_CACHE=1
# the data is read into 2 MB blocks (transparent huge pages: not with
# THP "never"), or mapped (PRF_READ_MAPPED=1, and without THP)
modes=mapped
grep -qs '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled ||
	[ ! -e /sys/kernel/mm/transparent_hugepage/enabled ] || modes="blocks mapped"
for mode in $modes; do
	case $mode in
	blocks) unset PRF_READ_MAPPED; msg="the data is read ahead into blocks on another thread" ;;
	mapped) export PRF_READ_MAPPED=1; msg="page tables of the data mapped ahead" ;;
	esac
	for cmd in script report; do
		case $cmd in
		script) set -- script -vv -i ;;
		report) set -- report -vv --stdio --no-children -i ;;
		esac
		base=$(peak "$cmd.small" taskset -c 0 "$PRF" "$@" small.data)
		[ "$base" -gt 0 ] || { cat "$cmd.small.err"; fail "$cmd on the small file failed"; }
		set -- "$@" big.data
		rss=$(peak "$cmd.two" "$PRF" "$@")
		[ "$rss" -gt 0 ] || { cat "$cmd.two.err"; fail "$cmd failed"; }
		grep -q "big.data: $msg" "$cmd.two.err" ||
			fail "$cmd on two CPUs ($mode): no helper thread ('$msg')"
		one=$(peak "$cmd.one" taskset -c 0 "$PRF" "$@")
		[ "$one" -gt 0 ] || { cat "$cmd.one.err"; fail "$cmd on one CPU failed"; }
		grep -q "$msg" "$cmd.one.err" &&
			fail "$cmd on one CPU ($mode): a helper thread was started"
		cmp -s "$cmd.two" "$cmd.one" ||
			{ diff "$cmd.two" "$cmd.one" | head; fail "$cmd ($mode): output differs with the helper thread"; }
		[ -e "$cmd.first" ] || cp "$cmd.two" "$cmd.first"
		cmp -s "$cmd.two" "$cmd.first" ||
			{ diff "$cmd.first" "$cmd.two" | head; fail "$cmd: output differs between blocks and mapping"; }
		[ "$one" -lt $((base + size_kb / 2)) ] ||
			fail "$cmd ($mode): peak RSS $one KB on one CPU, $base KB on a small file, the file is $size_kb KB: pages not given back"
		[ "$rss" -lt $((one + 18 * 1024)) ] ||
			fail "$cmd ($mode): peak RSS $rss KB with the helper, $one KB without: pages not given back"
		echo "$cmd ($mode): same output, peak RSS $rss KB with the helper (one CPU: $one KB, small file: $base KB), file $size_kb KB"
	done
done
[ "$(grep -c '^tree ' script.two)" -ge 2000 ] || fail "fewer than 2000 samples in the script output"
exit 0
