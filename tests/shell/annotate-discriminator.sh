#!/bin/bash
# prf annotate prints objdump's discriminators as perf annotate does: a position printed again when only its discriminator changes ("file.c:5 (discriminator 3)"), shown with a relative path, a restart of perf's line numbers with an absolute one
#
# A loop whose line holds several blocks (gcc gives them discriminators),
# built -O2 -g twice: with the unit's directory mapped to "." (relative
# paths: perf shows objdump's position lines) and as is (absolute: perf
# hides them, and restarts its line count at each). Recorded by perf;
# prf annotate --stdio main must print what perf annotate --stdio main
# prints, byte for byte, and perf's relative listing must have a
# discriminator line (else the program no longer tests them).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup annotate-discriminator
mkdir -p "$T/src" && cd "$T/src" || fail "cd"
cat > loop.c <<'C'
volatile long sink;
int main(void)
{
	for (long k = 0; k < 40000000; k++) { if (k & 1) sink += k; else sink -= k * 3; }
	return 0;
}
C
cc -O2 -g -fdebug-prefix-map="$T"=. -o ../rel loop.c || fail "cc (relative)"
cc -O2 -g -o ../abs loop.c || fail "cc (absolute)"
cd "$T" || fail "cd"
for p in rel abs; do
	perf_record "$p.data" "./$p"
	"$PERF" annotate -i "$p.data" --stdio main > "$p.perf" 2>/dev/null ||
		fail "perf annotate ($p) exit $?"
	"$PRF" annotate -i "$p.data" --stdio main > "$p.prf" 2> "$p.err" ||
		{ cat "$p.err"; fail "prf annotate ($p) exit $?"; }
	grep -q '^ *[0-9.]* : *[0-9a-f]*:' "$p.perf" || fail "$p: no instruction in perf's listing"
	cmp -s "$p.perf" "$p.prf" || { diff "$p.perf" "$p.prf" | head -20; fail "$p: prf annotate differs from perf annotate"; }
done
n=$(grep -c '(discriminator [0-9]*)$' rel.perf)
[ "$n" -gt 0 ] || { cat rel.perf; fail "no discriminator in perf's listing of the relative build"; }
echo "ok: the same listings as perf's, relative ($n discriminator lines) and absolute"
exit 0
