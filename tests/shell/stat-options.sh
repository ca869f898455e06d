#!/bin/bash
# prf stat -o/--append/--log-fd, --pre/--post, -D/--delay, --interval-clear, --no-merge as perf 6.1 (layout with digits masked, messages, exit status)
# prf-test: serial: -D and -I measure time
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-options
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"

cd "$T" || exit 1

# -o FILE, then --append: two blocks, each after perf's "# started on" line
for tool in perf prf; do
	if [ $tool = perf ]; then bin=$PERF; else bin=$PRF; fi
	"$bin" stat -e task-clock -o $tool.o true 2>$tool.err || fail "$tool stat -o"
	"$bin" stat -e task-clock -o $tool.o --append true 2>>$tool.err || fail "$tool stat -o --append"
	[ -s $tool.err ] && fail "$tool stat -o wrote to stderr: $(cat $tool.err)"
	"$bin" stat -e task-clock,page-faults -x, --log-fd 5 true 5>$tool.fd 2>$tool.err2 ||
		fail "$tool stat --log-fd"
	[ -s $tool.err2 ] && fail "$tool stat --log-fd wrote to stderr: $(cat $tool.err2)"
	"$bin" stat -e task-clock --log-fd 5 --append true 5>>$tool.fd 2>/dev/null || fail "$tool --log-fd --append"
done
[ "$(grep -c '^# started on ' prf.o)" = 2 ] || fail "prf -o --append: $(cat prf.o)"
stat_same "-o/--append file" perf.o prf.o
stat_same "--log-fd output" perf.fd prf.fd

# bad uses: one line, usage exit status (perf: nonzero)
"$PRF" stat -e task-clock -o x --log-fd 5 true 5>/dev/null 2>err; rc=$?
[ $rc = 129 ] || fail "-o with --log-fd: exit $rc"
grep -qx "prf stat: cannot use both --output and --log-fd" err || fail "-o with --log-fd: $(cat err)"
"$PRF" stat -e task-clock --log-fd 9 true 2>err; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 129 ] || fail "--log-fd 9 (closed): exit $rc"
grep -q "Bad file descriptor" err || fail "--log-fd 9: $(cat err)"
"$PRF" stat -e task-clock -o /nonexistent/dir/x true 2>err && fail "-o into a missing dir: exit 0"
grep -q "No such file or directory" err || fail "-o missing dir: $(cat err)"

# --pre/--post run with the shell around each of the -r runs, in order
for tool in perf prf; do
	if [ $tool = perf ]; then bin=$PERF; else bin=$PRF; fi
	"$bin" stat -e task-clock -r 3 --pre 'echo pre >>hooks.'$tool --post 'echo post >>hooks.'$tool \
		-- sh -c 'echo run >>hooks.'$tool 2>/dev/null || fail "$tool --pre/--post"
done
[ "$(cat hooks.prf | tr '\n' ' ')" = "pre run post pre run post pre run post " ] ||
	fail "hook order: $(cat hooks.prf)"
cmp -s hooks.perf hooks.prf || fail "hooks differ from perf: $(cat hooks.perf)"
# a failing --pre: no run is made and nothing counted
"$PRF" stat -e task-clock --pre 'exit 3' -- sh -c 'echo run >ran' 2>err; rc=$?
[ $rc = 1 ] || fail "failing --pre: exit $rc"
[ -e ran ] && fail "failing --pre: the workload ran"
grep -qx "prf stat: --pre command 'exit 3' failed (exit status 3)" err || fail "failing --pre: $(cat err)"
grep -q "Performance counter stats" err && fail "failing --pre printed counts"

# -D 300: "Events disabled/enabled", counting (and elapsed) starts after the delay
for tool in perf prf; do
	if [ $tool = perf ]; then bin=$PERF; else bin=$PRF; fi
	"$bin" stat -e task-clock -D 300 sleep 0.5 2>$tool.D || fail "$tool -D 300"
	"$bin" stat -e task-clock -D -1 sleep 0.1 2>$tool.D1 || fail "$tool -D -1"
done
stat_same "-D 300" perf.D prf.D
stat_same "-D -1" perf.D1 prf.D1
head -2 prf.D | tr '\n' ' ' | grep -qx "Events disabled Events enabled " || fail "-D messages: $(cat prf.D)"
el=$(awk '/seconds time elapsed/ { print $1 }' prf.D)
awk -v e="$el" 'BEGIN { exit !(e > 0.1 && e < 0.4) }' || fail "-D 300 elapsed $el, want about 0.2"
grep -q "<not counted> msec task-clock" prf.D1 || fail "-D -1 counted: $(cat prf.D1)"
"$PRF" stat -e task-clock -D x true 2>err; rc=$?
[ $rc = 129 ] || fail "-D x: exit $rc"

# --interval-clear: perf 6.1.192 clears only a terminal's screen: with the
# counts going to a file or pipe the same refusal and exit status
for tool in perf prf; do
	if [ $tool = perf ]; then bin=$PERF; else bin=$PRF; fi
	"$bin" stat -e task-clock -I 200 --interval-count 1 --interval-clear true >/dev/null 2>$tool.ic
	echo $? >>$tool.ic
done
[ "$(head -1 prf.ic)" = "--interval-clear does not work with output" ] &&
	[ "$(tail -1 prf.ic)" = "$(tail -1 perf.ic)" ] && [ "$(head -1 perf.ic)" = "$(head -1 prf.ic)" ] ||
	fail "--interval-clear without a terminal: $(cat prf.ic) / perf: $(cat perf.ic)"
# on a terminal (script(1) gives one): the clear sequence and the header
# before each interval, as perf's
if command -v script >/dev/null; then
	for tool in perf prf; do
		if [ $tool = perf ]; then bin=$PERF; else bin=$PRF; fi
		script -qec "$bin stat -e task-clock -I 200 --interval-count 3 --interval-clear -x, sleep 0.7" \
			/dev/null >$tool.tty || fail "$tool --interval-clear on a terminal"
		tr -d '\r' <$tool.tty >$tool.I
	done
	[ "$(grep -c $'^\e\[H\e\[2J$' prf.I)" = 3 ] || fail "clear sequences: $(cat -A prf.I)"
	stat_same "--interval-clear -x," perf.I prf.I
fi

# --no-merge: accepted, the same rows
"$PRF" stat -e task-clock,task-clock --no-merge true 2>prf.nm || fail "--no-merge"
"$PERF" stat -e task-clock,task-clock --no-merge true 2>perf.nm || fail "perf --no-merge"
stat_same "--no-merge" perf.nm prf.nm
exit 0
