#!/usr/bin/env bash
# Install the Debian packages prf builds and tests with, and the npm
# packages some tests read files with, when missing.
# A no-op when everything is present. Needs root (or sudo) to install.
set -euo pipefail

pkgs=(gcc make pkg-config libelf-dev libdw-dev libtraceevent-dev libslang2-dev
      zlib1g-dev libdeflate-dev libunwind-dev libzstd-dev libiberty-dev linux-perf
      python3 perl tmux
      libseccomp-dev              # prf trace: syscall names and numbers (libseccomp)
      libpython3-dev python3-audit  # script -s: the Python plugin (python3-embed); syscall names in perf's scripts
      python3-pyside2.qtsql libqt5sql5-sqlite libqt5sql5-psql  # script -s export-to-sqlite.py / export-to-postgresql.py use Qt's SQL module (QSQLITE, QPSQL; both named: apt takes either driver for the other's Recommends)
      postgresql                  # script-export-db.sh: export-to-postgresql.py into a server the test starts
      clang libclang-rt-14-dev    # libFuzzer harnesses (make fuzz, tests/fuzz/); clang also compiles script-bpf-output.sh's BPF program (perf record -e prog.c)
      chromium                    # flamegraph-browser.sh: the HTML renders in headless Chromium
      asciidoctor man-db          # man and HTML pages (make doc/install, install-staged.sh)
      libprotobuf-c-dev protobuf-c-compiler   # data convert --to-pprof: protobuf-c, protoc-c at build time
      golang-go                   # convert-pprof.sh reads the pprof file with `go tool pprof`
      python3-jsonschema          # convert-speedscope.sh validates against speedscope's schema
      nodejs                      # jit-node.sh: node --perf-prof writes a jitdump (a real JIT)
      libcapstone-dev             # annotate: disassembly in process (util/model/disasm.c)
      systemtap-sdt-dev           # sdt-events.sh: <sys/sdt.h> for its program's SDT probes
      linux-source-6.1)           # the kernel's pmu-events JSON: metric tables at build time (scripts/pmu-events-gen.py)

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
# npm (Debian's, unless a nodejs that brings its own is there) for the
# npm packages below
command -v npm >/dev/null || missing+=(nodejs npm)

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq "${missing[@]}"
fi

# npm packages, global: speedscope (its schema and app: convert-speedscope.sh
# loads prf's file into it in headless Chromium), pprof-format (a second
# pprof decoder, in node: convert-pprof.sh) and the Firefox Profiler's
# loader behind its command line (convert-gecko-profiler.sh; it asks for
# node >= 24 but runs on Debian's node 20)
npm_pkgs=(speedscope@1.25.0 pprof-format@2.3.2 @firefox-devtools/profiler-cli@0.10.0)
root=$(npm root -g 2>/dev/null) || exit 0
for p in "${npm_pkgs[@]}"; do
	if [ ! -d "$root/${p%@*}" ]; then
		echo "install-deps: npm install -g ${npm_pkgs[*]}"
		$SUDO npm install -g --no-audit --no-fund "${npm_pkgs[@]}" >/dev/null ||
			echo "install-deps: npm install failed: the convert tests skip what needs them"
		break
	fi
done
