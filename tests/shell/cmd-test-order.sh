#!/bin/bash
# prf test -j2 starts the tests that run beside others longest first, by the durations of their last run (.prf-test-times beside the binary, written after each run), else in list order; the run's shared directory (PRF_TEST_SHARED) is removed after it, a given one kept
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
tmp_dir cmd-test-order
# the runs below make their own shared directory (this run's is given to
# this test, and would be used and kept)
unset PRF_TEST_SHARED

# prf finds its shell tests beside its binary: a copy of it with three of
# ours; zz-a (first in the list) tells whether zz-b and zz-c had started
# before it, each of which leaves a mark at its start
mkdir -p "$T/tests/shell"
cp "$PRF" "$T/prf" || fail "cannot copy $PRF"
for t in b c; do
	printf '#!/bin/bash\n# marks its start\ntouch "$(dirname "$0")/../../%s.mark"; sleep 0.3\n' $t \
		> "$T/tests/shell/zz-$t.sh"
done
cat > "$T/tests/shell/zz-a.sh" <<'S'
#!/bin/bash
# says which others had started before it
d=$(dirname "$0")/../..
ls "$d" | grep '\.mark$' | tr '\n' ' ' > "$d/seen"
[ -d "${PRF_TEST_SHARED:-}" ] && echo "$PRF_TEST_SHARED" > "$d/shared"
S

# no durations known: list order, zz-a starts first, with zz-b (which may
# or may not have left its mark when zz-a looks), zz-c after one is done
out=$("$T/prf" test -j2 zz-a zz-b zz-c 2>&1) || fail "first run: $out"
grep -q c.mark "$T/seen" && fail "without durations zz-a ran after '$(cat "$T/seen")'"
for t in zz-a zz-b zz-c; do
	grep -Eq "^$t [0-9]+\.[0-9]$" "$T/.prf-test-times" ||
		fail "no duration of $t in .prf-test-times: $(cat "$T/.prf-test-times")"
done
echo "ok: list order without durations; .prf-test-times written"
# the run's shared directory: there for the tests, removed after the run;
# one given is kept
sh=$(cat "$T/shared" 2>/dev/null)
[ -n "$sh" ] || fail "no PRF_TEST_SHARED directory in the test"
[ -e "$sh" ] && fail "the run's shared directory $sh is left"
mkdir "$T/given"
PRF_TEST_SHARED=$T/given "$T/prf" test zz-a > /dev/null 2>&1 || fail "run with PRF_TEST_SHARED given"
[ "$(cat "$T/shared")" = "$T/given" ] && [ -d "$T/given" ] || fail "the given shared directory: $(cat "$T/shared")"
echo "ok: PRF_TEST_SHARED made and removed, or given and kept"

# zz-a known as the shortest: it starts after both others
rm -f "$T"/*.mark
printf 'zz-a 0.1\nzz-b 5\nzz-c 9\n' > "$T/.prf-test-times"
out=$("$T/prf" test -j2 zz-a zz-b zz-c 2>&1) || fail "second run: $out"
[ "$(cat "$T/seen")" = "b.mark c.mark " ] || fail "longest first: zz-a saw '$(cat "$T/seen")'"
# the lines still come in list order
echo "$out" | grep -o 'zz-[abc]\|marks its start\|says which' | head -3 | tr '\n' ' ' |
	grep -qx 'says which marks its start marks its start ' || fail "lines not in list order: $out"
echo "ok: longest first by the last run's durations, lines in list order"
exit 0
