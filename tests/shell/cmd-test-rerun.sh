#!/bin/bash
# prf test --rerun-failed: a test that fails once passes when run again alone (counted passed and flaky, its first failure kept in the log); one that fails twice fails
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
tmp_dir cmd-test-rerun
fail() { echo "FAIL: $*"; exit 1; }

# prf finds its shell tests beside its binary: a copy of it with two of ours
mkdir -p "$T/tests/shell"
cp "$PRF" "$T/prf" || fail "cannot copy $PRF"
cat >"$T/tests/shell/zz-once.sh" <<'S'
#!/bin/bash
# fails on its first run only
m=$(dirname "$0")/../../once.mark
[ -e "$m" ] && exit 0
touch "$m"; echo "first run fails"; exit 1
S
cat >"$T/tests/shell/zz-twice.sh" <<'S'
#!/bin/bash
# fails every time
echo "fails again"; exit 1
S

out=$("$T/prf" test --rerun-failed zz-once 2>&1); rc=$?
[ $rc -eq 0 ] || fail "a test passing alone: exit $rc: $out"
echo "$out" | grep -q "FAILED!" || fail "the first failure is not in the log: $out"
echo "$out" | grep -q "first run fails" || fail "the first failure's output is not in the log: $out"
echo "$out" | grep -q "Ok (failed beside others, passed alone)" || fail "no flaky line: $out"
echo "$out" | tail -1 | grep -qx "1 passed, 0 failed, 1 flaky (passed only alone)" || fail "summary: $out"

rm -f "$T/once.mark"
out=$("$T/prf" test --rerun-failed zz-once zz-twice 2>&1); rc=$?
[ $rc -eq 1 ] || fail "a test failing twice: exit $rc: $out"
echo "$out" | grep -q "FAILED! (again, alone)" || fail "no second failure line: $out"
[ "$(echo "$out" | grep -c "fails again")" -eq 2 ] || fail "both runs' output not shown: $out"
echo "$out" | tail -1 | grep -qx "1 passed, 1 failed, 1 flaky (passed only alone)" || fail "summary: $out"

# without the option a failure is final
rm -f "$T/once.mark"
out=$("$T/prf" test zz-once 2>&1); rc=$?
[ $rc -eq 1 ] || fail "without --rerun-failed: exit $rc: $out"
echo "$out" | tail -1 | grep -qx "0 passed, 1 failed" || fail "summary without the option: $out"
exit 0
