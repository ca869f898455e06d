#!/bin/bash
# prf data convert --to-gecko: the Firefox Profiler's own loader (npm @firefox-devtools/profiler-cli) opens the file with prf script's threads, names and sample counts
# The npm package @firefox-devtools/profiler-cli (installed by
# scripts/install-deps.sh) is the Firefox Profiler's profile loading and
# call tree code behind a command line: `load` starts a daemon that
# imports the file as profiler.firefox.com does (format detection, the
# processed-profile upgraders, the thread tables), the other commands
# query it. A three-thread program naming two of its threads
# (pthread_setname_np) is recorded with -g and converted; then:
#  - the load succeeds (a file the loader rejects fails the test: its
#    status names the error);
#  - its threads are prf script's (comm, tid) pairs, all in the
#    recorded process;
#  - each thread has as many samples as prf script prints for its tid;
#  - each thread's hottest function (self samples) is its own spin
#    function.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup convert-gecko-profiler node npm
PQ_JS=$(npm root -g 2>/dev/null)/@firefox-devtools/profiler-cli/dist/profiler-cli.js
[ -f "$PQ_JS" ] || { echo "no npm package @firefox-devtools/profiler-cli"; exit 2; }
export PROFILER_CLI_SESSION_DIR=$T/pq
SESSION=prf$$
mkdir -p "$PROFILER_CLI_SESSION_DIR"
pq() { node "$PQ_JS" "$@" --session "$SESSION"; }
# the daemon this test started: stopped through its socket, else by its pid
stop_daemon() {
	local pid
	pq stop >/dev/null 2>&1 && return
	pid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pid"])' \
		"$PROFILER_CLI_SESSION_DIR/$SESSION.json" 2>/dev/null) && kill "$pid" 2>/dev/null
}
trap 'stop_daemon; rm -rf "$T"' EXIT

cat > "$T/named.c" <<'C'
#define _GNU_SOURCE
#include <pthread.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin_main(void) { for (int i = 0; i < 3000; i++) sink += i; }
__attribute__((noinline)) void spin_a(void) { for (int i = 0; i < 3000; i++) sink ^= i; }
__attribute__((noinline)) void spin_b(void) { for (int i = 0; i < 3000; i++) sink -= i; }
static void *run(void *fn)
{
	pthread_setname_np(pthread_self(), fn == (void *)spin_a ? "worker-a" : "worker-b");
	for (int i = 0; i < 15000; i++)
		((void (*)(void))fn)();
	return 0;
}
int main(void)
{
	pthread_t a, b;

	pthread_create(&a, 0, run, (void *)spin_a);
	pthread_create(&b, 0, run, (void *)spin_b);
	for (int i = 0; i < 15000; i++)
		spin_main();
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
C
cc -O0 -fno-omit-frame-pointer -pthread -o "$T/named" "$T/named.c" || fail "cc named.c"
perf_record "$T/g.data" -F 999 -g -- "$T/named"
prf_out "$T/g.conv" data convert -i "$T/g.data" --to-gecko "$T/g.json"
prf_out "$T/g.script" script -i "$T/g.data" -F comm,pid,tid

# load: the client waits 500 ms for its daemon to listen, which a busy
# machine may miss ("did not become ready ... retrying often works");
# then the daemon is asked until it answers that the profile is loaded
# or why not
pq load "$T/g.json" > "$T/load.out" 2>&1 ||
	grep -q "did not become ready" "$T/load.out" || { cat "$T/load.out"; fail "profiler-cli load"; }
for i in $(seq 120); do
	pq status > "$T/status.out" 2>&1 && break
	grep -q "load failed" "$T/status.out" && { cat "$T/status.out"; fail "the Firefox Profiler cannot load prf's file"; }
	sleep 0.5
done
pq status > "$T/status.out" 2>&1 || { cat "$T/load.out" "$T/status.out"; fail "profiler-cli: no loaded session"; }

pq thread list --json > "$T/threads.json" 2>"$T/pq.err" || { cat "$T/pq.err"; fail "profiler-cli thread list"; }
handles=$(python3 -c 'import json, sys
print(" ".join(t["threadHandle"] for t in json.load(open(sys.argv[1]))["threads"]))' "$T/threads.json") ||
	fail "thread list: not the JSON expected"
for h in $handles; do
	pq thread info --thread "$h" --json > "$T/info.$h.json" 2>"$T/pq.err" ||
		{ cat "$T/pq.err"; fail "profiler-cli thread info $h"; }
	pq thread samples --thread "$h" --json > "$T/samples.$h.json" 2>"$T/pq.err" ||
		{ cat "$T/pq.err"; fail "profiler-cli thread samples $h"; }
done

python3 - "$T" "$handles" <<'PY' || fail "the loaded profile differs from prf script"
import json, sys
from collections import Counter
T, handles = sys.argv[1], sys.argv[2].split()
want, names, pids = Counter(), {}, set()
for l in open(T + '/g.script'):
    comm, pid_tid = l.split()
    pid, tid = pid_tid.split('/')
    want[int(tid)] += 1
    names[int(tid)] = comm
    pids.add(pid)
spin = {'named': 'spin_main', 'worker-a': 'spin_a', 'worker-b': 'spin_b'}
assert len(pids) == 1, 'prf script: pids %s' % pids
threads = {t['threadHandle']: t for t in json.load(open(T + '/threads.json'))['threads']}
got = {}
for h in handles:
    t = threads[h]
    info = json.load(open('%s/info.%s.json' % (T, h)))
    top = json.load(open('%s/samples.%s.json' % (T, h)))['topFunctionsBySelf'][0]['name']
    assert str(t['pid']) in pids, '%s: pid %s, prf script %s' % (h, t['pid'], pids)
    assert names.get(t['tid']) == t['name'], '%s: tid %d named %r, prf script %r' % (h, t['tid'], t['name'], names.get(t['tid']))
    assert top.endswith('!' + spin[t['name']]), '%s (%s): hottest function %s' % (h, t['name'], top)
    got[t['tid']] = info['sampleCount']
    print('ok: %s %s tid %d: %d samples, hottest %s' % (h, t['name'], t['tid'], info['sampleCount'], top))
assert got == dict(want), 'samples per tid %s, prf script %s' % (got, dict(want))
PY
echo "ok: the Firefox Profiler's loader opens prf's gecko file: $(echo $handles | wc -w) threads, samples as prf script"
