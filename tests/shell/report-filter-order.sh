#!/bin/bash
# prf report --comms/--dsos with one item: same entry order as perf (elided key skipped when sorting), same "# comm:/# dso:" lines
# A one-item --comms/--dsos/--symbols filter hides that key's column; perf
# 6.1 then also leaves the key out of its output sort (hist_entry__sort
# skips elided formats), which decides the order of entries with equal
# overheads (many 0.00% ones in a multi-process recording), and it names
# the hidden values in column order. Recorded with /usr/bin/perf: xz and
# python3 running together (both use libc.so.6), compared byte for byte
# with perf report (the random "Tip" line aside).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-filter-order xz

head -c 1500000 /dev/urandom | base64 > "$T/in.txt"
cat > "$T/loop.py" <<'PY'
import json, re
pat = re.compile(r"(\w+)=(\d+)")
s = 0
for i in range(15000):
    d = json.loads(json.dumps({"k%d" % (i % 50): [i, str(i), {"x": i * 2}]}))
    s += sum(int(v) for _, v in pat.findall("a=%d b=%d c=%d" % (i, i + 1, i + 2)))
print(s)
PY
"$PERF" record -q -F 10000 -g -o "$T/perf.data" -- \
	sh -c "xz -T1 -6 -c '$T/in.txt' >/dev/null & python3 '$T/loop.py' >/dev/null; wait" \
	>/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }

strip_tip() { grep -v '^# (Tip\|^# (Cannot load tips'; }
n=0
check() { # OPTS...
	"$PERF" report -i "$T/perf.data" --stdio "$@" 2>/dev/null | strip_tip > "$T/perf.out"
	"$PRF" report -i "$T/perf.data" --stdio "$@" 2>"$T/prf.err" | strip_tip > "$T/prf.out"
	[ "${PIPESTATUS[0]}" -eq 0 ] || { cat "$T/prf.err"; fail "prf report $* failed"; }
	[ "$(grep -c '%' "$T/perf.out")" -gt 3 ] || { cat "$T/perf.out"; fail "perf report $*: no entries"; }
	diff "$T/perf.out" "$T/prf.out" > "$T/d" ||
		{ head -30 "$T/d"; fail "report $*: differs from perf report"; }
	ties=$(grep -c '^ *0\.00%' "$T/prf.out")
	n=$((n + ties))
	echo "ok: report $* ($(wc -l < "$T/prf.out") lines identical, $ties entries at 0.00%)"
}

for mode in --children --no-children; do
	check $mode --comms xz
	check $mode --comms python3
	check $mode --dsos libc.so.6
	# xz's own libc.so.6 samples can be none: its kernel ones never are
	check $mode --comms xz --dsos '[kernel.kallsyms]'
	check $mode --dsos '[kernel.kallsyms]' --comms xz -F overhead,dso,comm,sym
done
# the order question only arises with ties
[ "$n" -gt 20 ] || fail "too few equal (0.00%) entries ($n) to test the tie order"
exit 0
