#!/usr/bin/env bash
# Build the Debian package from a copy of the tracked files, install it,
# check the installed prf (version, its man page through `prf help`, the
# bash completion file), remove it and check it is gone. Needs root (dpkg
# -i); installs debhelper, dpkg-dev and fakeroot when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "deb-check: FAIL: $*"; exit 1; }

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
dpkg -r prf > /dev/null 2>&1 || fail "dpkg -r"
[ ! -e /usr/bin/prf ] || fail "/usr/bin/prf left after dpkg -r"
echo "deb-check: installed, ran, removed"
