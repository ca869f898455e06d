#!/bin/bash
# prf report --time (START,STOP, several ranges, percent slices) and -U against perf report on the same perf.data (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-opts26

cc_prog halves
perf_record "$T/w.data" -F 999 -g --sample-cpu -- "$T/halves"

# same NAME ARGS...: prf report --stdio and perf report --stdio print the
# same (tips aside) on $data
data=$T/w.data
same() {
	local name=$1; shift
	"$PERF" report -i "$data" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' | perf_gi_names > "$T/perf.txt"
	prf_out "$T/prf.raw" report -i "$data" --stdio "$@"
	grep -v '^# (Tip:' "$T/prf.raw" | perf_gi_names > "$T/prf.txt"
	grep -q '^# Samples: ' "$T/perf.txt" || fail "$name: perf printed no samples"
	cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
	echo "ok: report $name ($(grep '^# Samples' "$T/prf.txt" | head -1))"
}

# sample times (ns) from prf script, for ranges inside the recording
times=$("$PRF" script -i "$T/w.data" --ns -F time | tr -d ' :')
nr=$(echo "$times" | wc -l)
[ "$nr" -gt 40 ] || fail "only $nr samples"
t() { echo "$times" | sed -n "${1}p"; }
a=$(t $((nr / 10))); b=$(t $((nr / 3))); c=$(t $((nr / 2))); d=$(t $((nr * 4 / 5)))

for s in "" "-s dso,sym --no-children -n"; do
	# shellcheck disable=SC2086
	{
	same "--time A,B $s" --time "$a,$b" $s
	same "--time A, $s" --time "$a," $s
	same "--time ,B $s" --time ",$b" $s
	same "--time two ranges $s" --time "$a,$b $c,$d" $s
	same "--time 10%/2 $s" --time 10%/2 $s
	same "--time 10%/1,10%/5 $s" --time 10%/1,10%/5 $s
	same "--time 0%-10% $s" --time 0%-10% $s
	same "--time 0%-10%,50%-70% $s" --time 0%-10%,50%-70% $s
	}
done
# the filter really filters: fewer samples in a slice than in the whole
"$PRF" report -i "$T/w.data" --stdio --time 0%-10% > "$T/slice.txt" || fail "--time 0%-10%"
part=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' "$T/slice.txt" | head -1)
grep -q "(time slices: 0%-10%)" "$T/slice.txt" || fail "--time not named in the header"
[ -n "$part" ] && [ "$part" -gt 0 ] || fail "--time 0%-10% kept no samples"

# a bad range is a usage error
"$PRF" report -i "$T/w.data" --stdio --time 1,2,3 > /dev/null 2> "$T/bad.err"
rc=$?
[ $rc -eq 129 ] || fail "--time 1,2,3: exit $rc, want 129"
grep -q "invalid time '1,2,3'" "$T/bad.err" || fail "--time 1,2,3: $(cat "$T/bad.err")"
echo "ok: bad --time is a usage error"

same "-U on w.data" -U
same "-U -s dso,sym on w.data" -U -s dso,sym

# -U/--hide-unresolved: a stripped program's own frames have no symbol
cc -O0 -fno-omit-frame-pointer -s -o "$T/ws" "$PRF_SRCDIR/tests/shell/lib/halves.c" || fail "cc -s"
perf_record "$T/ws.data" -F 999 -g -- "$T/ws"
data=$T/ws.data
same "-U" -U
same "-U --no-children" -U --no-children
same "-U -s dso,sym -n" -U -s dso,sym -n
same "-U -g none" -U -g none
same "-U --time 0%-50%" -U --time 0%-50%
prf_out "$T/all.txt" report -i "$T/ws.data" --stdio --no-children -s dso,sym
grep -q '\[unknown\]\|0x0000' "$T/all.txt" || fail "the stripped program left no unresolved entry"
prf_out "$T/u.txt" report -i "$T/ws.data" --stdio --no-children -s dso,sym -U
grep -q '\[\.\] 0x0000' "$T/u.txt" && fail "-U kept an unresolved entry"
echo "ok: -U hides the unresolved entries"
