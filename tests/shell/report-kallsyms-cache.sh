#!/bin/bash
# Kernel symbols from perf's build-id cache copy of kallsyms when the recording is of the running kernel: same report as from /proc/kallsyms, a copy from another boot (KASLR shift) too; a copy without _text or with zeroed addresses is not used
#
# Linux perf records kernel callchains of dd copying /dev/zero to
# /dev/null (-g, cpu-clock). $HOME points at a scratch dir so the test
# controls ~/.debug/[kernel.kallsyms]/<build-id>/kallsyms:
#  - no copy: the reference report (symbols from /proc/kallsyms);
#  - a copy of /proc/kallsyms: the same report;
#  - the copy with every address moved by 16 MB (another boot's KASLR):
#    the same report (shifted back by the _text difference);
#  - the copy with the hottest kernel function renamed: the new name is
#    shown, so the copy is what prf read;
#  - the renamed copy without its _text line, or with every address
#    zeroed (kptr_restrict when perf copied it): not used, the real name
#    is shown.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup kcache
cd "$T" || exit 1
export HOME=$T
[ -r /sys/kernel/notes ] || { echo "no /sys/kernel/notes"; exit 2; }
awk '$1 !~ /^0+$/ {n++} END {exit !(n > 1000)}' /proc/kallsyms ||
	{ echo "/proc/kallsyms addresses are hidden (kptr_restrict)"; exit 2; }
perf_record k.data -e cpu-clock -g --no-buildid-cache dd if=/dev/zero of=/dev/null bs=64k count=60000
bid=$("$PERF" buildid-list -i k.data --with-hits 2>/dev/null | awk '$2 == "[kernel.kallsyms]" {print $1}')
[ -n "$bid" ] || { echo "no kernel build-id in the recording"; exit 2; }
dir="$T/.debug/[kernel.kallsyms]/$bid"

report() {	# OUT [-v]
	local out=$1
	shift
	"$PRF" report -i k.data --stdio --no-children --sort sym "$@" > "$out" 2> "$out.err" ||
		{ cat "$out.err"; fail "prf report failed ($out)"; }
	grep -v '^# (Tip' "$out" > "$out.cmp"
}
report ref.txt
hot=$(awk '/\[k\] / {print $NF; exit}' ref.txt)
[ -n "$hot" ] || { head -20 ref.txt; fail "no kernel symbol in the report"; }
grep -q " [a-zA-Z] $hot\$" /proc/kallsyms || fail "$hot is not a core kernel symbol"

mkdir -p "$dir"
cat /proc/kallsyms > "$dir/kallsyms"
report copy.txt
cmp -s ref.txt.cmp copy.txt.cmp || { diff ref.txt.cmp copy.txt.cmp | head; fail "report differs with the cached copy"; }

python3 - "$dir/kallsyms" <<'PY' || fail "cannot shift the copy"
import sys
p = sys.argv[1]
out = []
for line in open(p):
    f = line.split(' ', 1)
    a = int(f[0], 16)
    if a:
        a = (a + (16 << 20)) & 0xffffffffffffffff
    out.append('%016x %s' % (a, f[1]))
open(p, 'w').write(''.join(out))
PY
report shifted.txt
cmp -s ref.txt.cmp shifted.txt.cmp || { diff ref.txt.cmp shifted.txt.cmp | head; fail "report differs with a copy from another boot (shifted)"; }

cat /proc/kallsyms | sed "s/ $hot\$/ prf_cached_$hot/" > "$dir/kallsyms"
report renamed.txt
grep -q "\[k\] prf_cached_$hot\$" renamed.txt ||
	{ head -20 renamed.txt; fail "the cached copy was not read (no prf_cached_$hot)"; }

grep -v ' _text$' "$dir/kallsyms" > "$dir/k2" && mv "$dir/k2" "$dir/kallsyms"
report notext.txt
grep -q "prf_cached_" notext.txt && fail "a copy without _text was used"
cmp -s ref.txt.cmp notext.txt.cmp || { diff ref.txt.cmp notext.txt.cmp | head; fail "report differs when the copy has no _text"; }

cat /proc/kallsyms | sed "s/ $hot\$/ prf_cached_$hot/; s/^[0-9a-f]* /0000000000000000 /" > "$dir/kallsyms"
report zero.txt
grep -q "prf_cached_" zero.txt && fail "a copy with zeroed addresses was used"
cmp -s ref.txt.cmp zero.txt.cmp || { diff ref.txt.cmp zero.txt.cmp | head; fail "report differs when the copy is zeroed"; }
echo "cached kallsyms: same report (plain and shifted), renamed $hot shown; no-_text and zeroed copies skipped"
exit 0
