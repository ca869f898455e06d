#!/usr/bin/env bash
# Install the Debian packages prf builds and tests with, when missing.
# A no-op when everything is present. Needs root (or sudo) to install.
set -euo pipefail

pkgs=(gcc make pkg-config libelf-dev libdw-dev libtraceevent-dev libslang2-dev
      zlib1g-dev libdeflate-dev libunwind-dev libzstd-dev libiberty-dev linux-perf
      python3 perl tmux
      clang libclang-rt-14-dev    # libFuzzer harnesses (make fuzz, tests/fuzz/)
      chromium                    # flamegraph-browser.sh: the HTML renders in headless Chromium
      libcapstone-dev)            # annotate: disassembly in process (util/model/disasm.c)

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}"
