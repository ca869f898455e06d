#!/usr/bin/env bash
# Write the seed corpora of the fuzz harnesses from real files:
#   make-seeds.sh OUTDIR [PRF]
# OUTDIR/session       perf.data from Linux perf and from prf: file mode,
#                      pipe mode, zstd-compressed (-z), callchains, a
#                      tracepoint (tracing data feature)
# OUTDIR/parse-events  event strings covering the grammar
# OUTDIR/perf-map      perf-PID.map files
# OUTDIR/jitdump       jit-PID.dump files (loads with line tables, a move,
#                      unwinding info, close; the other byte order)
# OUTDIR/elf           small ELF files compiled now (exe, PIE, shared
#                      library, object, stripped, with debug info)
# OUTDIR/dwarf-line    .debug_line sections of programs built with gcc
#                      -gdwarf-2..5 and clang
# OUTDIR/dwarf-die     .debug_abbrev + .debug_info of the same (the DIE
#                      walker's input: a 2-byte length, abbrev, info)
# Missing tools (perf, cc) only leave their seeds out.
set -u
out=${1:?usage: make-seeds.sh OUTDIR [PRF]}
prf=${2:-}
mkdir -p "$out"/session "$out"/parse-events "$out"/perf-map "$out"/elf "$out"/dwarf-line \
	"$out"/dwarf-die "$out"/jitdump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- ELF files -------------------------------------------------------------
cat >"$tmp/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static int helper(int x) { return x * 3 + 1; }
__attribute__((weak)) int weak_fn(int x) { return x - 1; }
static inline int inl(int x) { return x ^ 0x55; }
int main(int argc, char **argv) { printf("%d\n", helper(argc) + weak_fn(argc) + inl(argc)); return argc > 5 ? atoi(argv[1]) : 0; }
C
cat >"$tmp/lib.c" <<'C'
int lib_counter;
int lib_add(int a, int b) { lib_counter++; return a + b; }
static int lib_local(int a) { return a * a; }
int lib_sq(int a) { return lib_local(a); }
C
cat >"$tmp/cxx.cc" <<'C'
namespace ns { template <typename T> struct Box { T v; T get() const { return v; } }; }
int use_box(int x) { ns::Box<int> b{x}; return b.get(); }
int main() { return use_box(0); }
C
if command -v cc >/dev/null; then
	cc -O0 -o "$out/elf/exe-O0" "$tmp/prog.c" 2>/dev/null
	cc -O2 -g -o "$out/elf/exe-O2-g" "$tmp/prog.c" 2>/dev/null
	cc -O1 -no-pie -fno-pie -o "$out/elf/exe-nopie" "$tmp/prog.c" 2>/dev/null
	cc -O1 -s -o "$out/elf/exe-stripped" "$tmp/prog.c" 2>/dev/null
	cc -O1 -Wl,--build-id=none -o "$out/elf/exe-nobuildid" "$tmp/prog.c" 2>/dev/null
	cc -O1 -fPIC -shared -o "$out/elf/lib.so" "$tmp/lib.c" 2>/dev/null
	cc -O1 -c -o "$out/elf/obj.o" "$tmp/lib.c" 2>/dev/null
	cc -O1 -m32 -o "$out/elf/exe-m32" "$tmp/prog.c" 2>/dev/null
	command -v c++ >/dev/null && c++ -O0 -o "$out/elf/cxx" "$tmp/cxx.cc" 2>/dev/null
	# SDT notes (<sys/sdt.h>, when systemtap-sdt-dev is there): sdt-events.sh's program
	lib=$(dirname "$0")/../shell/lib
	cc -O2 -o "$out/elf/exe-sdt" "$lib/sdt-prog.c" "$lib/sdt-sema.c" 2>/dev/null
	# debug info split off: the stripped file names it in .gnu_debuglink
	if command -v objcopy >/dev/null && cc -O1 -g -o "$tmp/dl" "$tmp/prog.c" 2>/dev/null; then
		objcopy --only-keep-debug "$tmp/dl" "$tmp/dl.debug" &&
			objcopy --strip-debug --add-gnu-debuglink="$tmp/dl.debug" "$tmp/dl" \
				"$out/elf/exe-debuglink"
	fi
fi
# .debug_line alone, for the line program reader
if command -v objcopy >/dev/null; then
	for v in 2 3 4 5; do
		cc -O2 -gdwarf-$v -c -o "$tmp/l$v.o" "$tmp/prog.c" 2>/dev/null &&
			objcopy --dump-section .debug_line="$out/dwarf-line/gcc-dwarf$v" "$tmp/l$v.o" /dev/null
	done
	command -v clang >/dev/null && clang -O2 -gdwarf-5 -c -o "$tmp/lc.o" "$tmp/prog.c" 2>/dev/null &&
		objcopy --dump-section .debug_line="$out/dwarf-line/clang-dwarf5" "$tmp/lc.o" /dev/null
	find "$out/dwarf-line" -type f -size 0 -delete
	# abbrev length (2 bytes, little-endian), abbrev, info
	for o in "$tmp"/l[2-5].o "$tmp"/lc.o; do
		[ -f "$o" ] || continue
		objcopy --dump-section .debug_abbrev="$tmp/ab" --dump-section .debug_info="$tmp/in" \
			"$o" /dev/null 2>/dev/null || continue
		n=$(stat -c %s "$tmp/ab")
		[ "$n" -lt 65536 ] || continue
		{ printf "\\x$(printf %02x $((n & 255)))\\x$(printf %02x $((n >> 8)))"
		  cat "$tmp/ab" "$tmp/in"; } >"$out/dwarf-die/$(basename "$o" .o)"
	done
fi
true

# --- perf.data ---------------------------------------------------------------
work='i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; ls / >/dev/null'
if command -v perf >/dev/null; then
	perf record -q -F 499 -o "$out/session/perf-file.data" -- sh -c "$work" >/dev/null 2>&1
	perf record -q -F 499 -g -o "$out/session/perf-file-g.data" -- sh -c "$work" >/dev/null 2>&1
	perf record -q -F 499 -z -o "$out/session/perf-file-z.data" -- sh -c "$work" >/dev/null 2>&1
	perf record -q -F 499 -o - -- sh -c "$work" >"$out/session/perf-pipe.data" 2>/dev/null
	perf record -q -F 499 -z -o - -- sh -c "$work" >"$out/session/perf-pipe-z.data" 2>/dev/null
	perf record -q -e sched:sched_process_exec -o "$out/session/perf-tp.data" -- sh -c 'true; ls >/dev/null' >/dev/null 2>&1
	perf record -q -F 499 --call-graph dwarf,1024 -o "$out/session/perf-dwarf.data" -- sh -c "$work" >/dev/null 2>&1
fi
if [ -n "$prf" ] && [ -x "$prf" ]; then
	"$prf" record -q -F 499 -o "$out/session/prf-file.data" -- sh -c "$work" >/dev/null 2>&1
	"$prf" record -q -F 499 -g -o "$out/session/prf-file-g.data" -- sh -c "$work" >/dev/null 2>&1
	"$prf" record -q -F 499 -o - -- sh -c "$work" >"$out/session/prf-pipe.data" 2>/dev/null
	"$prf" record -q -F 499 -z -o "$out/session/prf-file-z.data" -- sh -c "$work" >/dev/null 2>&1
fi
# drop what failed (empty or missing) and any file too big for a useful seed
find "$out/session" -type f \( -size 0 -o -size +1024k \) -delete

# --- event strings -----------------------------------------------------------
i=0
while IFS= read -r ev; do
	printf '%s' "$ev" >"$out/parse-events/ev$i"
	i=$((i + 1))
done <<'EV'
cpu-clock
task-clock:u
cs,migrations,faults
{cpu-clock,task-clock}:u
{cs,faults}:S
cycles:ppp
instructions:uk
L1-dcache-loads
LLC-load-misses:u
r1a8
r003c:k
cpu/event=0x3c,umask=0x0,name=mycycles/
cpu/config=0x10,period=1000/u
software/config=0,freq=100/
sched:sched_switch
sched:sched_process_*
syscalls:sys_enter_open*
mem:0x1000
mem:0x1000/8:rw
mem:0x7fff0000:x
dummy
page-faults:uG
branch-misses:H
alignment-faults:D
task-clock:e
cpu-clock:W
msr/tsc/
bogus-event
{cpu-clock,{task-clock}}
EV

# --- perf-PID.map --------------------------------------------------------------
printf '7f0000001000 40 jit_func_a\n7f0000001040 80 jit_func_b\n7f00000010c0 10 LazyCompile:*foo /app/x.js:12\n' \
	>"$out/perf-map/simple.map"
printf '0x401000 0x20 _ZN2ns3BoxIiE3getEv\n401020 0 zero_size\nffffffffffffff00 ff wrap\n' \
	>"$out/perf-map/cxx-edge.map"
printf '1000 10 a\n1000 10 a_alias\n1008 4 inner\nbad line\n\n2000 10\n' \
	>"$out/perf-map/dup.map"

# --- jitdump ---------------------------------------------------------------------
python3 - "$out/jitdump" <<'PY'
import struct, sys
def dump(path, order):
    def rec(rid, body, ts):
        return struct.pack(order + 'IIQ', rid, 16 + len(body), ts) + body
    code = bytes([0xb9, 1, 0, 0, 0, 0xff, 0xc9, 0x75, 0xfc, 0xc3])
    out = struct.pack(order + 'IIIIIIQQ', 0x4A695444, 1, 40, 62, 0, 4242, 1000, 0)
    lines = (struct.pack(order + 'QII', 0x7f0000001000, 10, 0) + b'/src/a.js\0' +
             struct.pack(order + 'QII', 0x7f0000001005, 11, 0) + b'\xff\0')
    out += rec(2, struct.pack(order + 'QQ', 0x7f0000001000, 2) + lines, 1100)
    out += rec(0, struct.pack(order + 'IIQQQQ', 4242, 4243, 0x7f0000001000, 0x7f0000001000,
                              len(code), 1) + b'JS:*alpha /src/a.js:1\0' + code, 1200)
    out += rec(0, struct.pack(order + 'IIQQQQ', 4242, 4243, 0x7f0000002000, 0x7f0000002000,
                              len(code), 2) + b'beta\0' + code, 1300)
    out += rec(1, struct.pack(order + 'IIQQQQQ', 4242, 4243, 0x7f0000002000, 0x7f0000002000,
                              0x7f0000003000, len(code), 2), 1400)
    eh = bytes(range(24))
    out += rec(4, struct.pack(order + 'QQQ', len(eh), 8, 24) + eh, 1500)
    out += rec(3, b'', 1600)
    open(path, 'wb').write(out)
dump(sys.argv[1] + '/le.dump', '<')
dump(sys.argv[1] + '/be.dump', '>')
PY
exit 0
