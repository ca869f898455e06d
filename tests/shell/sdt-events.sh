#!/bin/bash
# SDT (USDT) events as perf 6.1 has them: buildid-cache's probes file byte for byte, list sdt, probe adds/lists/deletes them, record's hint, script of a recording
# A program built with <sys/sdt.h> (lib/sdt-prog.c + lib/sdt-sema.c,
# provider prfsdt_test: probes of every argument size and sign, registers
# and memory, odd operand strings, a semaphore) and the system's
# libstdc++/libruby/python are added to the build-id cache by prf and by
# perf in two temporary HOMEs: the trees and the probes files must be the
# same bytes; a file whose notes perf refuses (an argument size of 16)
# gets an empty probes file from both. In one cache both tools then list
# the SDT events alike (sdt, globs, and GROUP:EVENT@PATH(BUILDID) where
# two builds share events), probe them alike (messages on stderr, exit
# status, the lines in uprobe_events, probe -l), record -e before probing
# fails with perf's hint (129), and after probing prf script prints a
# recording of the program (prf's and perf's) as perf script does, the
# semaphore-guarded probe firing through the uprobe's reference counter.
# prf-test: serial: adds and deletes probe events in the machine-wide tracefs uprobe_events
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup sdt-events
[ -r /usr/include/sys/sdt.h ] || [ -r /usr/include/x86_64-linux-gnu/sys/sdt.h ] ||
	{ echo "no sys/sdt.h (systemtap-sdt-dev)"; exit 2; }
[ "$(uname -m)" = x86_64 ] || { echo "SDT operands are translated for x86-64 only"; exit 2; }
UPROBES=/sys/kernel/tracing/uprobe_events
[ -w $UPROBES ] || { echo "no writable uprobe_events (not root?)"; exit 2; }
cleanup() {
	"$PERF" probe -q -d 'sdt_prfsdt_test:*' 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
GROUP=sdt_prfsdt_test
"$PERF" probe -l "$GROUP:*" 2>/dev/null | grep -q . && { echo "$GROUP events exist already"; exit 2; }

LIB=$PRF_SRCDIR/tests/shell/lib
cc -O2 -g -o "$T/sdt-prog" "$LIB/sdt-prog.c" "$LIB/sdt-sema.c" || fail "cc sdt-prog"
cc -O2 -g -DVARIANT -o "$T/sdt-variant" "$LIB/sdt-prog.c" "$LIB/sdt-sema.c" || fail "cc variant"
cat > "$T/bad.c" <<'C'
#include <sys/sdt.h>
int main(void) { __asm__ __volatile__(STAP_PROBE_ASM(prfsdt_test, bad, 4@%eax -16@%rax)); return 0; }
C
cc -o "$T/bad" "$T/bad.c" || fail "cc bad.c"

# 1. buildid-cache --add: the same trees and probes files
files=("$T/sdt-prog" "$T/bad")
for f in libstdc++.so.6 libruby-3.1.so.3.1 libpython3.11.so.1.0; do
	p=/usr/lib/x86_64-linux-gnu/$f
	[ -e "$p" ] && readelf -n "$p" 2>/dev/null | grep -q stapsdt && files+=("$p")
done
tree() { (cd "$1" && find . -printf '%y %p %l\n' | sort); }
HOME=$T/h1 "$PRF" buildid-cache --add "$(IFS=,; echo "${files[*]}")" 2>"$T/err" ||
	{ cat "$T/err"; fail "prf buildid-cache --add"; }
HOME=$T/h2 "$PERF" buildid-cache --add "$(IFS=,; echo "${files[*]}")" 2>/dev/null
tree "$T/h1/.debug" > "$T/tree1"
tree "$T/h2/.debug" > "$T/tree2"
cmp -s "$T/tree2" "$T/tree1" || { diff "$T/tree2" "$T/tree1"; fail "cache trees differ"; }
n=0
while read -r p; do
	cmp "$T/h2/.debug/$p" "$T/h1/.debug/$p" || { diff "$T/h2/.debug/$p" "$T/h1/.debug/$p"; fail "$p differs"; }
	n=$((n + $(wc -l < "$T/h1/.debug/$p")))
done < <(cd "$T/h1/.debug" && find . -name probes -type f)
probes=$(ls "$T"/h1/.debug"$T"/sdt-prog/*/probes)
grep -qx "p:$GROUP/sema $T/sdt-prog:0x[0-9a-f]*(0x[0-9a-f]*) arg1=%di:s64 arg2=+8(%si):s32" "$probes" ||
	{ cat "$probes"; fail "no semaphore offset on sema's probe"; }
grep -q "^p:$GROUP/mid .* arg1=%r8:u16 arg2=%r9:s32 arg3=%r11:u32 arg4=%r10:s64$" "$probes" ||
	{ cat "$probes"; fail "mid's arguments"; }
[ ! -s "$(ls "$T"/h1/.debug"$T"/bad/*/probes)" ] || fail "a refused note left probes"
HOME=$T/h1 "$PRF" buildid-cache --add "$T/sdt-prog" 2>/dev/null || fail "prf re-add"
cmp -s "$probes" "$(ls "$T"/h2/.debug"$T"/sdt-prog/*/probes)" || fail "adding again changed probes"
echo "ok: ${#files[@]} files cached: the same trees, $n probes lines the same bytes as perf's"

# 2. list: the same SDT lines in the cache prf wrote, and with a second
# build whose events clash
export HOME=$T/h1
"$PRF" buildid-cache --add "$T/sdt-variant" 2>/dev/null || fail "prf add variant"
for args in "sdt" "$GROUP:m*" "sdt_*:sema" "noargs" "$GROUP:" ""; do
	"$PERF" list $args > "$T/want" 2>/dev/null
	prf_out "$T/got" list $args
	cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got" | head; fail "list '$args' differs"; }
done
grep -q "^  $GROUP:small@$T/sdt-variant([0-9a-f]\{12\}) \[SDT event\]$" "$T/got" ||
	fail "no GROUP:EVENT@PATH(BUILDID) line for a shared event"
grep -q "^  $GROUP:variant  *\[SDT event\]$" "$T/got" || fail "no plain line for a single event"
# -j (prf's): the same events, named as the text names them
prf_out "$T/sdt.json" list -j sdt
"$PRF" list sdt | sed 's/^  //; s/  *\[SDT event\]$//; s/ \[SDT event\]$//' > "$T/sdt.names"
python3 - "$T/sdt.json" "$T/sdt.names" <<'PY' || fail "list -j sdt"
import json, sys
ev = json.load(open(sys.argv[1]))
names = [l.rstrip("\n") for l in open(sys.argv[2])]
assert [e["EventName"] for e in ev] == names, (ev, names)
assert all(e["Unit"] == "sdt" and e["EventType"] == "SDT event" for e in ev), ev
PY
echo "ok: list (sdt, globs, the whole list) as perf's, events of two builds told apart"
"$PRF" buildid-cache -r "$T/sdt-variant" 2>/dev/null || fail "prf buildid-cache -r"

# 3. record before probing: perf's hint, a usage error
"$PRF" record -q -o "$T/x.data" -e $GROUP:small -- "$T/sdt-prog" > /dev/null 2>"$T/rec.err"
rc=$?
[ $rc -eq 129 ] || { cat "$T/rec.err"; fail "record of an unprobed SDT event: exit $rc"; }
grep -q "SDT event cannot be directly recorded on." "$T/rec.err" &&
	grep -q "Please first use 'prf probe $GROUP:small' before recording it." "$T/rec.err" ||
	{ cat "$T/rec.err"; fail "no hint to probe first"; }
"$PERF" record -q -o "$T/x.data" -e $GROUP:small -- "$T/sdt-prog" > /dev/null 2>&1
[ $? -eq 129 ] || fail "perf's exit status is not 129"
echo "ok: record -e $GROUP:small before probing: 129 and perf's hint"

# 4. probe: each spec by perf then by prf, compared
probed() { grep "^p:$GROUP/" $UPROBES; }
set -f	# the specs' globs are for probe
for spec in "$GROUP:small" "%$GROUP:sema" "-x $T/sdt-prog %$GROUP:mem" "$GROUP:m*" "%noargs" \
	    "-n %$GROUP:ops" "-D $GROUP:sema" "$GROUP:nosuch"; do
	"$PERF" probe $spec > "$T/perf.out" 2>"$T/perf.err"
	prc=$?
	probed > "$T/perf.u"
	"$PERF" probe -l "$GROUP:*" > "$T/perf.l" 2>&1
	[ -s "$T/perf.u" ] && "$PERF" probe -q -d "$GROUP:*" 2>/dev/null
	"$PRF" probe $spec > "$T/prf.out" 2>"$T/prf.err"
	rc=$?
	probed > "$T/prf.u"
	"$PRF" probe -l "$GROUP:*" > "$T/prf.l" 2>&1
	[ -s "$T/prf.u" ] && "$PERF" probe -q -d "$GROUP:*" 2>/dev/null
	# perf exits with -errno (254 for ENOENT), prf with 1
	[ $rc -eq 0 ] && [ $prc -eq 0 ] || { [ $rc -eq 1 ] && [ $prc -ne 0 ]; } ||
		{ cat "$T/prf.err"; fail "probe $spec: exit $rc, perf's $prc"; }
	for f in out err u l; do
		cmp -s "$T/perf.$f" "$T/prf.$f" || { diff "$T/perf.$f" "$T/prf.$f"; fail "probe $spec: $f differs"; }
	done
done
set +f
echo "ok: probe of SDT events: messages, exit status, uprobe_events and probe -l as perf's"

# 5. probed by prf (-f: again under a new name), recorded by both, script as perf's
prf_out "$T/add" probe -q -a $GROUP:small -a $GROUP:mid -a $GROUP:mem -a $GROUP:noargs -a $GROUP:ops \
	-a $GROUP:sema
prf_out "$T/add" probe -f $GROUP:small
grep -q "^  $GROUP:small_1 (on %small in $T/sdt-prog)$" "$T/add.err" || { cat "$T/add.err"; fail "-f"; }
prf_out "$T/del" probe -d $GROUP:small_1
grep -qx "Removed event: $GROUP:small_1" "$T/del.err" || fail "no 'Removed event'"
prf_out "$T/rec" record -q -o "$T/prf.data" -e "$GROUP:*" -- "$T/sdt-prog" 2
perf_record "$T/perf.data" -N -e "$GROUP:*" -- "$T/sdt-prog" 2
for d in prf perf; do
	"$PERF" script -i "$T/$d.data" > "$T/want" 2>/dev/null || fail "perf script $d.data"
	prf_out "$T/got" script -i "$T/$d.data"
	cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "script of $d.data differs"; }
	[ "$(grep -c " $GROUP:[a-z]*: (" "$T/got")" = 12 ] || { cat "$T/got"; fail "want 12 samples in $d.data"; }
done
grep -q " $GROUP:mid: ([0-9a-f]*) arg1=60000 arg2=-70000 arg3=4000000000 arg4=-5000000000$" "$T/got" ||
	{ cat "$T/got"; fail "mid's values"; }
grep -q " $GROUP:sema: ([0-9a-f]*) arg1=1 arg2=-3$" "$T/got" || { cat "$T/got"; fail "sema did not fire"; }
echo "ok: recorded by prf and perf: prf script = perf script (12 samples, values, the semaphore's probe)"
exit 0
