#!/bin/bash
# prf script -s runs perf's check-perf-trace.py (symbolic fields, common_pc/common_flags/common_lock_depth, trace_flag_str, trace_unhandled) as perf does
# prf-test: serial: records irq:softirq_entry system-wide (-a)
# perf records irq:softirq_entry system-wide for a moment (softirqs come
# from timers and RCU on any busy machine); perf's check-perf-trace.py
# prints each with its common_* values through perf_trace_context,
# trace_flag_str() of common_flags and symbol_str() of vec (the table prf
# hands to define_symbolic_*() from the event's print fmt). prf script -s
# prints what perf script -s prints, with perf's helper modules and with
# prf's own.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-python-check
. "$PRF_SRCDIR/tests/shell/lib/pyscript.sh"
py_need_plugin
S=""
for d in /usr/lib/perf-core /usr/libexec/perf-core; do
	[ -f "$d/scripts/python/check-perf-trace.py" ] && S="$d/scripts/python" && break
done
[ -n "$S" ] || { echo "no perf scripts directory with check-perf-trace.py"; exit 2; }
"$PRF" list 'irq:softirq_entry' 2>/dev/null | grep -q softirq_entry ||
	{ echo "no irq:softirq_entry tracepoint (tracefs?)"; exit 2; }

perf_record "$T/irq.data" -a -e irq:softirq_entry -- sleep 0.3
"$PERF" script -i "$T/irq.data" -s "$S/check-perf-trace.py" > "$T/perf.out" 2>"$T/perf.err" ||
	{ cat "$T/perf.err"; fail "perf script -s check-perf-trace.py"; }
grep -q '^vec=[A-Z]' "$T/perf.out" || { head "$T/perf.out"; echo "no softirq recorded"; exit 2; }
prf_out "$T/prf.out" script -i "$T/irq.data" -s "$S/check-perf-trace.py"
cmp -s "$T/perf.out" "$T/prf.out" ||
	{ diff "$T/perf.out" "$T/prf.out" | head; fail "check-perf-trace.py: prf differs from perf"; }
echo "ok: check-perf-trace.py ($(grep -c '^vec=' "$T/prf.out") softirqs, as perf)"
PERF_EXEC_PATH="$prf_exec" \
	prf_out "$T/own.out" script -i "$T/irq.data" -s "$S/check-perf-trace.py"
cmp -s "$T/perf.out" "$T/own.out" ||
	{ diff "$T/perf.out" "$T/own.out" | head; fail "check-perf-trace.py with prf's modules differs"; }
echo "ok: the same with prf's Core"
exit 0
