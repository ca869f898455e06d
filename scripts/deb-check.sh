#!/usr/bin/env bash
# Build the Debian package from a copy of the tracked files, install it,
# check the installed prf (version, its man page through `prf help`, the
# bash completion file), run the installed `prf test` over shell tests
# installed with it (DEB_TESTS below), remove it and check it is gone.
# Needs root (dpkg -i); installs debhelper, dpkg-dev and fakeroot when
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "deb-check: FAIL: $*"; exit 1; }

# The shell tests the installed prf runs, each of which must pass (Ok):
# a quick one or two per command and area, and those that use what the
# package installs (man pages: cmd-help; the Python plugin and helper
# modules in /usr/lib/prf: script-python-api; the test programs of
# tests/shell/lib: dwarf-*, unwind-*, report-srcline). About two minutes
# with -j2; DEB_TESTS=all runs every test (the whole suite: unit tests
# and every shell test that does not need the source tree), a list of
# names runs those. Tests marked needs-source (Documentation/prf-test.txt)
# are not run by an installed prf: SOURCE_TESTS must be skipped, saying so.
DEB_TESTS=${DEB_TESTS:-cmd-help config-compat list-events evlist stat-output
	record-modes report-compat report-srcline script-compat script-options
	script-folded script-python-api flamegraph convert-json dwarf-libdw
	dwarf-inline-frames unwind-dwarf badinput exit-options buildid-list bench}
SOURCE_TESTS="source-layers cmd-tunables"

need=()
for p in debhelper dpkg-dev fakeroot; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi
dpkg-query -W -f='${Status}' prf 2>/dev/null | grep -q "install ok installed" &&
	fail "a prf package is installed already: not touching it"

T=$(mktemp -d /tmp/prf-deb.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir "$T/prf"
git ls-files -z | xargs -0 cp --parents -t "$T/prf"
(cd "$T/prf" && dpkg-buildpackage -us -uc -b -j"$(nproc)") > "$T/build.log" 2>&1 ||
	{ tail -30 "$T/build.log"; fail "dpkg-buildpackage"; }
deb=$(ls "$T"/prf_*.deb)
echo "deb-check: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KB)"
dpkg -c "$deb" > "$T/contents" || fail "dpkg -c"
grep -q ' ./usr/share/man/man1/prf-report.1.gz$' "$T/contents" || fail "no man page in the package"
grep -q ' ./usr/lib/prf/tests/shell/lib/setup.sh$' "$T/contents" || fail "no shell tests in the package"

dpkg -i "$deb" > "$T/inst.log" 2>&1 || { cat "$T/inst.log"; fail "dpkg -i"; }
trap 'dpkg -r prf >/dev/null 2>&1; rm -rf "$T"' EXIT
/usr/bin/prf version | grep -q '^prf version' || fail "installed prf version"
/usr/bin/prf help report > "$T/help" 2>&1 || fail "installed prf help report"
grep -q '^PRF-REPORT(1) ' "$T/help" || fail "installed prf help shows no man page"
[ -f /usr/share/bash-completion/completions/prf ] || fail "no bash completion installed"
/usr/bin/prf record -q -F 999 -o "$T/perf.data" -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' \
	2>/dev/null || fail "installed prf record"
/usr/bin/prf report -i "$T/perf.data" --stdio > "$T/report" || fail "installed prf report"
grep -q '% *sh ' "$T/report" || fail "installed prf report shows no samples of sh"

# the installed prf test, from a directory with no source tree in it: the
# tests installed in /usr/lib/prf/tests/shell
args=()
[ "$DEB_TESTS" = all ] || args=($DEB_TESTS $SOURCE_TESTS)
rc=0 t0=$(date +%s)
(cd "$T" && /usr/bin/prf test -j"$(nproc)" --rerun-failed "${args[@]}") > "$T/test.log" 2>&1 || rc=$?
cat "$T/test.log"
echo "deb-check: installed prf test took $(($(date +%s) - t0)) s"
[ $rc -eq 0 ] || fail "installed prf test exit $rc"
if [ "$DEB_TESTS" != all ]; then
	for t in $DEB_TESTS; do
		n=$(/usr/bin/prf test list "$t" | awk '{ print $1 }')
		[ -n "$n" ] || fail "installed prf test has no test $t"
		# passed, or (--rerun-failed) passed when run again alone
		grep -Eq "^ *$n .*: Ok( \(failed beside others, passed alone\))?\$" "$T/test.log" ||
			fail "installed prf test $t did not pass"
	done
	for t in $SOURCE_TESTS; do
		n=$(/usr/bin/prf test list "$t" | awk '{ print $1 }')
		grep -Eq "^ *$n .*: Skip \(needs the source tree: " "$T/test.log" ||
			fail "installed prf test ran $t, which needs the source tree"
	done
	echo "deb-check: installed prf test: $(echo $DEB_TESTS | wc -w) tests passed, $(echo $SOURCE_TESTS | wc -w) skipped for the source tree"
fi

dpkg -r prf > /dev/null 2>&1 || fail "dpkg -r"
[ ! -e /usr/bin/prf ] || fail "/usr/bin/prf left after dpkg -r"
echo "deb-check: installed, ran, removed"
