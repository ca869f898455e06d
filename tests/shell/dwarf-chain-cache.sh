#!/bin/bash
# DWARF stacks that repeat are resolved once (chain cache) and printed from kept text: same output as PRF_NO_CHAIN_CACHE=1 and as perf script, also across dlclose/dlopen at the same addresses
#
# prf keys a DWARF sample's chain by its callchain entries and the
# addresses its walk unwound; a repeated key gets the frames (symbols,
# inline frames, srclines) resolved for the first, and script copies the
# text it printed for them. This records, with /usr/bin/perf
# --call-graph dwarf, a -O2 -fomit-frame-pointer program whose stacks
# repeat thousands of times and which alternately dlopen()s two libraries
# built to the same layout, so that the same raw addresses resolve to
# inner_a (inlined into outer_a) in one phase and inner_b in the other.
# Checked:
#  - the cache is used: -v counts hits for most samples (so the other
#    checks test it);
#  - script (default, -F +srcline, --no-inline, -F ip,sym) and report
#    (--no-children, --children, --sort sym,srcline) output is
#    byte-identical with the cache and with PRF_NO_CHAIN_CACHE=1;
#  - per sample, the frames in the program and its libraries equal perf
#    script's (perf resolves each sample anew: a stale cached chain would
#    name the other library's functions).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup dwarf-chain-cache

for L in a b; do
	cat > "$T/lib$L.c" <<C
volatile unsigned long sink_$L;
static inline __attribute__((always_inline)) void inner_$L(int n)
{
	for (int i = 0; i < n; i++)
		sink_$L += i;
}
__attribute__((noinline)) void outer_$L(int n) { inner_$L(n); sink_$L++; }
void work(int n) { outer_$L(n); }
C
	cc -O2 -g -fomit-frame-pointer -shared -fPIC -o "$T/lib$L.so" "$T/lib$L.c" ||
		fail "cc lib$L"
done
cc_prog dlswap -O2 -g -fomit-frame-pointer -ldl
perf_record "$T/perf.data" -e cpu-clock -F 2000 --call-graph dwarf,8192 -- \
	"$T/dlswap" "$T/liba.so" "$T/libb.so" 4 300000

# both libraries sampled at the same addresses: else the recording does
# not exercise the invalidation this test is about
"$PERF" script -i "$T/perf.data" -F ip,dso 2>/dev/null | awk '/lib[ab]\.so/ {
	d = $2; gsub(/.*\//, "", d); sub(/\)$/, "", d); seen[$1 " " d] = 1 }
	END { for (k in seen) { split(k, f, " "); n[f[1]]++ } for (ip in n) if (n[ip] > 1) shared++
	      exit shared > 0 ? 0 : 1 }' ||
	{ echo "liba.so and libb.so were not loaded at the same address"; exit 2; }

# the cache is used for most samples
most_hits "callchain cache"

same() { # what OPTS...: prf with and without the cache, both libraries shown
	same_output PRF_NO_CHAIN_CACHE=1 "$@"
	grep -q 'outer_a' "$T/same.out" && grep -q 'outer_b' "$T/same.out" ||
		{ head -30 "$T/same.out"; fail "$*: outer_a and outer_b not both shown"; }
}
same script
same script -F +srcline
same script --no-inline
same script -F ip,sym
same report --stdio --no-children
same report --stdio --children
same report --stdio --no-children --sort sym,srcline

# the program's and libraries' frames of every sample, as perf resolves them
frames() { # script output -> per sample, "sym (dso)" of the program's frames, one line
	# (libc's are left out: with libc6-dbg, perf shows glibc's hidden
	# aliases as "(inlined)" levels, a documented difference)
	awk '/^[^ \t]/ { if (s != "") print s; s = "#" }
		/^\t/ && (/\/(dlswap|lib[ab]\.so)\)$/ || /inner_[ab](\+0x[0-9a-f]+)? \(inlined\)$/) {
		l = $0; sub(/^\t *[0-9a-f]+ /, "", l); sub(/\+0x[0-9a-f]+/, "", l); s = s ";" l }
		END { if (s != "") print s }'
}
"$PERF" script -i "$T/perf.data" 2>/dev/null | frames > "$T/perf.frames"
"$PRF" script -i "$T/perf.data" 2>/dev/null | frames > "$T/prf.frames"
grep -q 'inner_b (inlined)' "$T/perf.frames" ||
	{ head "$T/perf.frames"; echo "perf shows no inlined inner_b: cannot compare"; exit 2; }
cmp -s "$T/perf.frames" "$T/prf.frames" ||
	{ diff "$T/perf.frames" "$T/prf.frames" | head -20; fail "frames differ from perf script's"; }
echo "ok: $(wc -l < "$T/prf.frames") samples' program frames equal perf script's"
exit 0
