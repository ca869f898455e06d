#!/bin/bash
# prf script -s: perf's Python interface (handlers, every dict key, perf_trace_context, flag tables, script arguments), errors, -l, -g python, record/report NAME, libpython loaded only for -s
# 1. Scripts of this test print everything perf hands a script: the
#    param_dict of process_event() (repr: every key, value and their
#    order, callchain frames with ip/sym/sym_off/dso), a tracepoint handler
#    with perf_sample_dict, one without, trace_unhandled() with
#    common_pc()/common_flags()/common_lock_depth(), sys.argv, the names
#    perf_trace_context offers, the flag tables Core.py is given and
#    flag_str(); on perf's recordings prf prints what perf prints.
#    Known difference (Documentation/prf-script-python.txt): the
#    dso_map_end of [kernel.kallsyms] (prf's kernel map reaches the next
#    kernel map or the top of the address space): masked on both sides.
#    perf_sample_srcline()/perf_sample_srccode() give perf's file, line
#    and source text for the samples in the test's program.
#    context_switch() gets what perf gives it for the PERF_RECORD_SWITCH
#    records of a --switch-events recording.
# 2. A script that raises: its traceback (file, line), a message naming
#    the handler, exit 1; a syntax error, a missing script, a .pl script:
#    a message and exit 1; sys.exit(3): exit 3.
# 3. prf script -l lists what perf script -l lists; -g python writes a
#    skeleton that runs.
# 4. prf does not link libpython, and plain script/report do not load it
#    (LD_DEBUG=files); -s does.
# 5. prf script record NAME runs perf's NAME-record with prf as `perf`
#    (the file is prf's), prf script report NAME prints what perf script
#    report NAME prints on it; an unknown NAME: exit 1.
# 6. prf's own helper modules (scripting/exec: Core, Util, EventClass,
#    used when perf's are not installed) give the results of perf's on
#    the same calls (flag and symbol tables, trace flags, task states, time
#    strings, statistics, errno and syscall names, event classes).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-python-api

. "$PRF_SRCDIR/tests/shell/lib/pyscript.sh"
py_need_plugin
"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch ||
	{ echo "no sched tracepoints (tracefs?)"; exit 2; }

py_record_cpu 1000
perf_record "$T/tp.data" -g -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-e sched:sched_switch -e sched:sched_process_exec -- sh -c 'sleep 0.05; ls /nonexistent-prf; true'

cat > "$T/api.py" <<'EOF'
import json, os, sys
sys.path.append(os.environ['PERF_EXEC_PATH'] + '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')
from perf_trace_context import *
from Core import *
print("argv", sys.argv[1:])
print("context", sorted(n for n in dir(sys.modules['perf_trace_context']) if not n.startswith('__')))
def trace_begin():
    print("trace_begin")
def trace_end():
    print("trace_end", json.dumps(flag_fields, sort_keys=True), json.dumps(symbolic_fields, sort_keys=True))
def process_event(param_dict):
    print(repr(param_dict))
def trace_unhandled(event_name, context, event_fields_dict):
    print("unhandled", event_name, common_pc(context), common_flags(context),
          common_lock_depth(context), repr(event_fields_dict))
def raw_syscalls__sys_exit(event_name, context, common_cpu, common_secs, common_nsecs,
                           common_pid, common_comm, common_callchain, id, ret, perf_sample_dict):
    print(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm, id, ret)
    print(repr(common_callchain))
    print(repr(perf_sample_dict))
def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs,
                        common_pid, common_comm, common_callchain, prev_comm, prev_pid,
                        prev_prio, prev_state, next_comm, next_pid, next_prio):
    print(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
          repr(prev_comm), prev_pid, prev_prio, prev_state,
          repr(flag_str(event_name, "prev_state", prev_state)), repr(next_comm), next_pid,
          next_prio, len(common_callchain))
EOF

mask() { sed -E "s/('dso': '\\[kernel\\.kallsyms\\]', 'dso_bid': '[0-9a-f]*', 'dso_map_start': [0-9]+, 'dso_map_end': )[0-9]+/\\1KERNEL_END/g" "$1"; }
# same FILE ARGS...: perf script and prf script -i FILE ARGS... print the same
same() {
	local file=$1
	shift
	"$PERF" script -i "$T/$file" "$@" > "$T/perf.out" 2>"$T/perf.err" ||
		{ cat "$T/perf.err"; fail "perf script -i $file $*"; }
	prf_out "$T/prf.out" script -i "$T/$file" "$@"
	mask "$T/perf.out" > "$T/perf.m"
	mask "$T/prf.out" > "$T/prf.m"
	cmp -s "$T/perf.m" "$T/prf.m" ||
		{ diff "$T/perf.m" "$T/prf.m" | head -10 | cut -c1-400; fail "$file $*: prf differs from perf"; }
	echo "ok: $file $* ($(wc -l < "$T/prf.out") lines)"
}

# --- 1. the interface, against perf ---
same cpu.data -s "$T/api.py"
grep -q "'callchain': \[{'ip': [0-9]*, 'sym': {'start'" "$T/prf.out" || fail "process_event: no callchain frames"
grep -q "'symbol': 'leaf'" "$T/prf.out" || fail "process_event: no sample in leaf()"
same tp.data -s "$T/api.py" one two
grep -q "^argv \['one', 'two'\]" "$T/prf.out" || fail "sys.argv: $(grep argv "$T/prf.out")"
grep -q "^raw_syscalls__sys_exit " "$T/prf.out" || fail "no raw_syscalls__sys_exit() call"
grep -q "^unhandled raw_syscalls__sys_enter " "$T/prf.out" || fail "no trace_unhandled() call"
grep -Eq "^sched__sched_switch .* '[SD]' " "$T/prf.out" || fail "flag_str(prev_state): no 'S' or 'D'"
grep -q '^trace_end {"raw_syscalls__sys_enter"' "$T/prf.out" || fail "trace_end or the flag tables"

cat > "$T/srcline.py" <<'EOF'
from perf_trace_context import *
def process_event(param_dict):
    if param_dict.get('dso', '').endswith('/spin'):
        print(param_dict.get('symbol'), perf_sample_srcline(perf_script_context),
              perf_sample_srccode(perf_script_context))
EOF
same cpu.data -s "$T/srcline.py"
grep -q "^leaf ('$T/spin.c', 2) ('$T/spin.c', 2, '__attribute__((noinline)) void leaf" "$T/prf.out" ||
	{ head -3 "$T/prf.out"; fail "perf_sample_srcline/srccode: no leaf() line"; }
# Two spinners sharing CPU 0 preempt each other, so the recording has
# switch-outs with the preempt flag set however idle the machine is.
perf_record "$T/sw.data" --switch-events -e cpu-clock -- \
	sh -c "taskset -c 0 '$T/spin' & taskset -c 0 '$T/spin'; wait"
cat > "$T/switch.py" <<'EOF'
def context_switch(*args):
    print("context_switch", args)
def process_event(param_dict):
    print(param_dict['sample']['time'])
EOF
same sw.data -s "$T/switch.py"
grep -q "^context_switch (.*, True, True, 0, -1)" "$T/prf.out" || fail "no preempted switch-out"

# --- 2. errors ---
printf 'def process_event(param_dict):\n    raise ValueError("prf-test-boom")\n' > "$T/raise.py"
"$PRF" script -i "$T/cpu.data" -s "$T/raise.py" > "$T/err.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/err.out"; fail "exception in a handler: exit $rc, not 1"; }
grep -q "File \"$T/raise.py\", line 2, in process_event" "$T/err.out" &&
	grep -q "ValueError: prf-test-boom" "$T/err.out" &&
	grep -q "handler process_event failed" "$T/err.out" ||
	{ cat "$T/err.out"; fail "exception: no traceback or message"; }
echo "ok: an exception in process_event: traceback, exit 1"
printf 'x = (\n' > "$T/syntax.py"
"$PRF" script -i "$T/cpu.data" -s "$T/syntax.py" > "$T/err.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "SyntaxError" "$T/err.out" && grep -q "syntax.py" "$T/err.out" ||
	{ cat "$T/err.out"; fail "syntax error: exit $rc"; }
"$PRF" script -i "$T/cpu.data" -s "$T/missing.py" > "$T/err.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "missing.py" "$T/err.out" || { cat "$T/err.out"; fail "missing script: exit $rc"; }
printf 'import sys\nsys.exit(3)\n' > "$T/exit3.py"
"$PRF" script -i "$T/cpu.data" -s "$T/exit3.py" > "$T/err.out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$T/err.out"; fail "sys.exit(3): exit $rc"; }
touch "$T/x.pl"
"$PRF" script -i "$T/cpu.data" -s "$T/x.pl" > "$T/err.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qi "perl" "$T/err.out" || { cat "$T/err.out"; fail ".pl: exit $rc"; }
echo "ok: syntax error, missing script, .pl: exit 1 with a message; sys.exit(3): exit 3"

# --- 3. -l, -g python ---
"$PERF" script -l > "$T/perf.l" 2>&1 || fail "perf script -l"
prf_out "$T/prf.l" script -l
cmp -s "$T/perf.l" "$T/prf.l" || { diff "$T/perf.l" "$T/prf.l" | head; fail "script -l differs"; }
echo "ok: script -l ($(wc -l < "$T/prf.l") lines, as perf)"
(cd "$T" && "$PRF" script -i tp.data -g python) > "$T/gen.out" 2>&1 || { cat "$T/gen.out"; fail "-g python"; }
grep -q "^def raw_syscalls__sys_enter(.*" "$T/perf-script.py" &&
	grep -q "^def sched__sched_switch(" "$T/perf-script.py" || fail "-g python: no handlers"
prf_out "$T/gen.run" script -i "$T/tp.data" -s "$T/perf-script.py"
grep -q "^sched__sched_switch .*prev_comm=" "$T/gen.run" || fail "the skeleton printed no sched_switch"
echo "ok: -g python: a skeleton that runs ($(wc -l < "$T/gen.run") lines)"

# --- 4. libpython only for -s ---
ldd "$(readlink -f "$PRF")" | grep -q libpython && fail "prf links libpython"
for cmd in "script -i $T/cpu.data" "report -i $T/cpu.data --stdio"; do
	LD_DEBUG=files "$PRF" $cmd > /dev/null 2> "$T/ld.err" || fail "prf $cmd"
	grep -q "libpython" "$T/ld.err" && fail "prf $cmd loads libpython"
done
LD_DEBUG=files "$PRF" script -i "$T/cpu.data" -s "$T/api.py" > /dev/null 2> "$T/ld.err" || fail "prf script -s"
grep -q "libpython" "$T/ld.err" || fail "script -s did not load libpython (LD_DEBUG shows none)"
echo "ok: libpython loaded by script -s only"

# --- 5. record/report NAME ---
mkdir "$T/rr"
(cd "$T/rr" && "$PRF" script record syscall-counts -- ls / > /dev/null 2> "$T/rr.err") ||
	{ cat "$T/rr.err"; fail "prf script record syscall-counts"; }
"$PERF" report -i "$T/rr/perf.data" --header-only 2>/dev/null | grep -q "cmdline : .*prf[^ ]* record -e raw_syscalls" ||
	fail "script record: perf.data not recorded by prf record"
(cd "$T/rr" && "$PERF" script report syscall-counts) > "$T/perf.rr" 2>&1 || fail "perf script report"
(cd "$T/rr" && "$PRF" script report syscall-counts) > "$T/prf.rr" 2>&1 ||
	{ cat "$T/prf.rr"; fail "prf script report syscall-counts"; }
grep -q "openat" "$T/prf.rr" && cmp -s "$T/perf.rr" "$T/prf.rr" ||
	{ diff "$T/perf.rr" "$T/prf.rr" | head; fail "script report syscall-counts differs from perf's"; }
"$PRF" script report no-such-script > "$T/err.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/err.out"; fail "script report no-such-script: exit $rc"; }
echo "ok: script record/report syscall-counts as perf's; unknown script: exit 1"

# --- 6. prf's helper modules against perf's ---
perf_lib=""
for d in /usr/lib/perf-core /usr/libexec/perf-core; do
	[ -f "$d/scripts/python/Perf-Trace-Util/lib/Perf/Trace/Core.py" ] &&
		perf_lib="$d/scripts/python/Perf-Trace-Util/lib/Perf/Trace" && break
done
if [ -z "$perf_lib" ]; then
	echo "note: perf's Perf-Trace-Util not installed: modules not compared"
	exit 0
fi
cat > "$T/modules.py" <<'EOF'
import importlib.util, io, contextlib, struct, sys

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path + "/" + name + ".py")
    mod = importlib.util.module_from_spec(spec)
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(mod)
    return mod

def calls(path):
    sys.modules.pop("Core", None)
    core, util, ev = load(path, "Core"), load(path, "Util"), load(path, "EventClass")
    out = []
    core.define_flag_field("ev", "f", "|")
    for v, n in ((0, "NONE"), (1, "A"), (2, "B"), (4, "C"), (16, "E")):
        core.define_flag_value("ev", "f", v, n)
    core.define_flag_field("ev", "g", "")
    core.define_flag_value("ev", "g", 1, "x")
    core.define_flag_value("ev", "g", 2, "y")
    core.define_symbolic_field("ev", "s")
    for v, n in ((0, "zero"), (3, "three"), (7, "seven")):
        core.define_symbolic_value("ev", "s", v, n)
    for v in (0, 1, 3, 7, 16, 21, 32, 255):
        out.append((core.flag_str("ev", "f", v), core.flag_str("ev", "g", v),
                    core.flag_str("ev", "none", v), core.symbol_str("ev", "s", v),
                    core.symbol_str("none", "s", v), core.trace_flag_str(v),
                    core.taskState(v)))
    h = core.EventHeaders(1, 12, 3456789, 42, "comm", [])
    out.append((h.ts(), h.ts_format(), core.autodict()["a"]["b"] == {}))
    for ns in (0, 999999999, 1000000000, 1234567890123):
        out.append((util.nsecs(ns // 10**9, ns % 10**9), util.nsecs_secs(ns),
                    util.nsecs_nsecs(ns), util.nsecs_str(ns), util.avg(ns + 1, 3)))
    st = {}
    for v in (5, 3, 9, 9, 1):
        util.add_stats(st, "k", v)
    out.append(st)
    out.append([util.strerror(n) for n in (2, -13, 0, 99999)])
    out.append([util.syscall_name(n) for n in (0, 1, 59, 100000)])
    out.append((util.FUTEX_WAIT, util.FUTEX_WAKE, util.FUTEX_CMD_MASK))
    for size in (8, 144, 176):
        e = ev.create_event("n", "c", "d", "s", struct.pack("22Q", *range(22))[:size])
        out.append((type(e).__name__, e.ev_type, sorted(vars(e).items())))
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            e.show()
        out.append(buf.getvalue())
    return out

a, b = calls(sys.argv[1]), calls(sys.argv[2])
for x, y in zip(a, b):
    if x != y:
        print("perf:", x)
        print("prf: ", y)
        sys.exit(1)
print("same", len(a))
EOF
prf_out "$T/mod.out" script -i "$T/cpu.data" -s "$T/modules.py" "$perf_lib" \
	"$prf_exec/scripts/python/Perf-Trace-Util/lib/Perf/Trace"
grep -q '^same ' "$T/mod.out" || { cat "$T/mod.out"; fail "prf's modules differ from perf's"; }
echo "ok: prf's Core/Util/EventClass give perf's results ($(cat "$T/mod.out"))"
exit 0
