#!/bin/bash
# Cache tables that grow with use (resolution, CFI rows, inline chains, callchains) give perf script's frames and srclines on a recording of 3000 functions
#
# prf's caches start small and are made again 4 times bigger, empty, once
# they have taken twice as many fills as they have slots (struct
# cache_size, util/lib/util.h): a short run no longer pays for tables
# sized for long ones. A program of 3000 functions (-O0 -g
# -fomit-frame-pointer: no frame pointers, every function its own CFI),
# called in turns through a table, recorded by Linux perf with
# --call-graph dwarf: thousands of distinct sample addresses, CFI rows,
# inline-chain lookups and callchains, so every table grows several
# times while samples are resolved. Checked:
#  - the callchain cache grew (prf script -v: more than its first 2048
#    slots);
#  - per sample, the program's frames (address, symbol+offset) equal
#    perf script's, and with -F +srcline their source lines too.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup cache-grow

python3 - "$T/g.c" <<'PY' || fail "generating g.c"
import sys
n = 3000
out = ['volatile unsigned long sink;']
for i in range(n):
    out.append('__attribute__((noinline)) void f%d(unsigned long n) '
               '{ for (unsigned long k = 0; k < n; k++) sink += k ^ %d; }' % (i, i))
out.append('typedef void (*fn)(unsigned long);')
out.append('static fn tab[] = {' + ','.join('f%d' % i for i in range(n)) + '};')
out.append('int main(void) { for (int r = 0; r < 300; r++) for (int i = 0; i < %d; i++) '
           'tab[(i * 7 + r) %% %d](2000); return 0; }' % (n, n))
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
PY
# -O0 builds in seconds (-O2 takes half a minute for 3000 functions here)
cc -O0 -g -fomit-frame-pointer -o "$T/g" "$T/g.c" || fail "cc g.c"
perf_record "$T/perf.data" -e cpu-clock -c 200000 --call-graph dwarf,1024 -- "$T/g"

"$PRF" script -i "$T/perf.data" -v 2>"$T/v.err" >/dev/null || { cat "$T/v.err"; fail "prf script -v"; }
slots=$(sed -n 's/^callchain cache: .* \([0-9]*\) slots$/\1/p' "$T/v.err" | head -1)
[ -n "$slots" ] && [ "$slots" -gt 2048 ] ||
	{ grep "callchain cache" "$T/v.err"; fail "the callchain cache did not grow (${slots:-no} slots)"; }
echo "ok: the callchain cache grew to $slots slots"

# script output -> per sample, the frames in the program's functions f*
# and main (and the srcline line after each, with -F +srcline), one line.
frames() {
	awk -v prog="($T/g)" '
		/^[^ \t]/ { if (s != "") print s; s = "#"; keep = 0; next }
		/^\t/ { keep = index($0, prog) > 0 && $0 ~ / (f[0-9]+|main)\+0x/
			 if (keep) { l = $0; sub(/^\t */, "", l); s = s ";" l }; next }
		/^  / && keep { s = s "@" $0 }
		END { if (s != "") print s }'
}
for opt in "" "-F +srcline"; do
	# shellcheck disable=SC2086
	"$PERF" script -i "$T/perf.data" $opt 2>/dev/null | frames > "$T/perf.frames"
	# shellcheck disable=SC2086
	prf_out "$T/prf.script" script -i "$T/perf.data" $opt
	frames < "$T/prf.script" > "$T/prf.frames"
	n=$(grep -c ';[0-9a-f]* f[0-9]*+0x' "$T/perf.frames")
	[ "$n" -gt 2000 ] || { echo "perf shows only $n samples in the functions"; exit 2; }
	cmp -s "$T/perf.frames" "$T/prf.frames" ||
		{ diff "$T/perf.frames" "$T/prf.frames" | head -10; fail "script $opt: frames differ from perf script's"; }
	echo "ok: script $opt: $(wc -l < "$T/prf.frames") samples' program frames equal perf script's ($n in the 3000 functions)"
done
exit 0
