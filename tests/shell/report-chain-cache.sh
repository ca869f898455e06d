#!/bin/bash
# prf report: repeated callchains resolved once (chain cache + per-entry memo) print exactly what perf prints, also when the same addresses change meaning (dlclose/dlopen)
# prf report remembers each raw callchain it resolved and, per hist entry,
# what a sample with that chain did; a later identical chain is replayed.
# This records, with /usr/bin/perf, a program whose chains repeat millions
# of times AND whose library code is unloaded and a different library
# loaded at the same address (the same raw addresses then resolve to other
# symbols: the cache must notice the new mmap). The output must be
# byte-identical to perf report's (the random "Tip" line aside) and the
# same with the cache switched off (PRF_NO_CHAIN_CACHE=1).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-chain-cache

# two libraries with the same layout: the hot function of each sits at the
# same offset, so after dlclose + dlopen the same ips are the other one's
for L in a b; do
	cat > "$T/lib$L.c" <<C
volatile unsigned long sink_$L;
__attribute__((noinline)) void inner_$L(int n) { for (int i = 0; i < n; i++) sink_$L += i; }
__attribute__((noinline)) void outer_$L(int n) { inner_$L(n); for (int i = 0; i < n / 4; i++) sink_$L++; }
void work(int n) { outer_$L(n); }
C
	cc -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -shared -fPIC \
		-o "$T/lib$L.so" "$T/lib$L.c" || fail "cc lib$L"
done
cc_prog dlswap -O1 -g -ldl
"$PERF" record -q -F 4000 -g -o "$T/perf.data" -- "$T/dlswap" "$T/liba.so" "$T/libb.so" 6 \
	>/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; echo "perf record failed (perf_event_paranoid?)"; exit 2; }

# both libraries must have been sampled at the same addresses, else the
# recording does not exercise what this test is about
"$PERF" script -i "$T/perf.data" -F ip,dso 2>/dev/null | awk '/lib[ab]\.so/ {
	d = $2; gsub(/.*\//, "", d); sub(/\)$/, "", d); seen[$1 " " d] = 1 }
	END { for (k in seen) { split(k, f, " "); n[f[1]]++ } for (ip in n) if (n[ip] > 1) shared++
	      exit shared > 0 ? 0 : 1 }' ||
	{ echo "liba.so and libb.so were not loaded at the same address"; exit 2; }

strip_tip() { grep -v '^# (Tip\|^# (Cannot load tips'; }
check() { # OPTS...
	"$PERF" report -i "$T/perf.data" --stdio "$@" 2>/dev/null | strip_tip > "$T/perf.out" ||
		fail "perf report $*"
	"$PRF" report -i "$T/perf.data" --stdio "$@" 2>"$T/prf.err" | strip_tip > "$T/prf.out"
	[ "${PIPESTATUS[0]}" -eq 0 ] || { cat "$T/prf.err"; fail "prf report $* failed"; }
	PRF_NO_CHAIN_CACHE=1 "$PRF" report -i "$T/perf.data" --stdio "$@" 2>/dev/null |
		strip_tip > "$T/nocache.out"
	grep -q 'inner_a' "$T/prf.out" && grep -q 'inner_b' "$T/prf.out" ||
		{ head -40 "$T/prf.out"; fail "report $*: inner_a and inner_b not both shown"; }
	diff "$T/nocache.out" "$T/prf.out" > "$T/d1" ||
		{ head -20 "$T/d1"; fail "report $*: output with the chain cache differs from without"; }
	diff "$T/perf.out" "$T/prf.out" > "$T/d2" ||
		{ head -20 "$T/d2"; fail "report $*: differs from perf report"; }
	echo "ok: report $* ($(wc -l < "$T/prf.out") lines identical to perf's)"
}

check --no-children
check --children
check --no-children -g caller
check --children -g folded
check --no-children --sort dso,sym
check --children --sort comm,dso,sym -g flat
exit 0
