#!/bin/bash
# prf script -s sched-migration.py (a wxPython GUI) fails or runs as perf script -s does: without wx, and with a stand-in wx that prints the time slices it would draw
# sched-migration.py draws per-CPU runqueues over time in a wx window; it
# has no text output of its own but one message (a sched_switch whose
# prev task is not the one last switched in), whose format is broken in
# perf's script (TypeError). So what can be compared without a display:
#  - without wxPython (Debian's python3-wxgtk4.0 is not a dependency):
#    both fail in SchedGui's import with the same traceback;
#  - with tests/shell/lib/wx-stub on PYTHONPATH (an inert wx whose
#    App.MainLoop() prints the time slices and runqueues the frame holds
#    instead of drawing them): both run the handlers over a system-wide
#    recording of sched_switch and sched_migrate_task (sched_wakeup is left
#    out: the script's handler still expects the "success" field kernels
#    dropped, and fails on it in both) and print the same, or fail with the
#    same traceback when the broken message is reached.
# Exit statuses: perf aborts (134) or returns 255, prf exits 1.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-sched-migration

. "$PRF_SRCDIR/tests/shell/lib/pyscript.sh"
py_need_plugin
py_perf_scripts sched-migration.py
"$PRF" list 'sched:sched_migrate_task' 2>/dev/null | grep -q sched_migrate_task ||
	{ echo "no sched tracepoints (tracefs?)"; exit 2; }

cc_prog threads -pthread
perf_record "$T/sched.data" -a -e sched:sched_switch -e sched:sched_migrate_task -- "$T/threads"

# the Python frames and the exception of a traceback in FILE
traceback() { grep -E '^  File |^[A-Za-z_.]*(Error|Exception): ' "$1"; }

# run WHAT [ENV...]: sched-migration.py by perf and by prf with ENV; the
# same output, and the same traceback when both fail
run() {
	local what=$1 rc_perf rc_prf
	shift
	env "$@" "$PERF" script -i "$T/sched.data" -s "$S/sched-migration.py" > "$T/perf.out" 2> "$T/perf.err"
	rc_perf=$?
	env "$@" "$PRF" script -i "$T/sched.data" -s "$S/sched-migration.py" > "$T/prf.out" 2> "$T/prf.err"
	rc_prf=$?
	cmp -s "$T/perf.out" "$T/prf.out" ||
		{ diff "$T/perf.out" "$T/prf.out" | head; fail "$what: prf's output differs from perf's"; }
	if [ $rc_perf -eq 0 ]; then
		[ $rc_prf -eq 0 ] || { cat "$T/prf.err"; fail "$what: prf exit $rc_prf, perf 0"; }
		[ -s "$T/perf.out" ] || fail "$what: no time slices printed"
		echo "ok: $what: both print the same $(grep -c '^[0-9]' "$T/perf.out") time slices"
		return
	fi
	[ $rc_prf -eq 1 ] || { cat "$T/prf.err"; fail "$what: prf exit $rc_prf (perf $rc_perf), not 1"; }
	traceback "$T/perf.err" > "$T/perf.tb"
	traceback "$T/prf.err" > "$T/prf.tb"
	[ -s "$T/perf.tb" ] || { cat "$T/perf.err"; fail "$what: perf failed ($rc_perf) without a traceback"; }
	cmp -s "$T/perf.tb" "$T/prf.tb" ||
		{ diff "$T/perf.tb" "$T/prf.tb"; fail "$what: prf's traceback differs from perf's"; }
	echo "ok: $what: both fail (perf $rc_perf, prf 1) with: $(tail -1 "$T/perf.tb")"
}

if /usr/bin/python3 -c 'import wx' 2>/dev/null; then
	echo "wxPython is installed: no run without it"
else
	run "without wx"
fi
run "stand-in wx" PYTHONPATH="$PRF_SRCDIR/tests/shell/lib/wx-stub" DISPLAY=
exit 0
