#!/bin/bash
# DWARF unwinding through code no CFI covers (built without unwind tables, like crt's __do_global_dtors_aux) takes the frame-pointer record, as perf does; a record past the stack copy ends the stack truncated
#
# nocfi_mid() is built with frame pointers, without unwind tables and
# without -g (-fno-asynchronous-unwind-tables: no FDE in .eh_frame; -g
# would add .debug_frame), the rest of the program -O2
# -fomit-frame-pointer with CFI: main -> top -> nocfi_mid -> spin. Recorded with perf and with prf --call-graph dwarf, every sample in
# spin must unwind through nocfi_mid to top, main and _start (perf's
# unwinder falls back to the rbp chain where no CFI covers the pc; prf
# did not, and stopped at nocfi_mid), and equal perf script's frames.
# A second build gives nocfi_mid a 32 KB frame: with an 8 KB stack copy its
# frame record lies past the copy, and the stack must end there marked
# [truncated], not continue with made-up frames.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup unwind-nocfi readelf

cat > "$T/nocfi.c" <<'C'
void spin(int n);
__attribute__((noinline)) void nocfi_mid(int n)
{
#ifdef BIG
	volatile char pad[32768];
	pad[0] = (char)n;
	pad[sizeof(pad) - 1] = pad[0];
#endif
	spin(n);
	__asm__ volatile("");	/* no tail call */
}
C
cat > "$T/main.c" <<'C'
volatile unsigned long sink;
void nocfi_mid(int n);
__attribute__((noinline)) void spin(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void top(int n)
{
	for (int k = 0; k < 150; k++)
		nocfi_mid(n);
	__asm__ volatile("");
}
int main(void) { top(3000000); return 0; }
C
build() { # OUT [CFLAG...]: the program, nocfi.c without unwind tables
	local out=$1
	shift
	cc -O1 -fno-omit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables \
		"$@" -c -o "$T/nocfi.o" "$T/nocfi.c" &&
	cc -O2 -g -fomit-frame-pointer -o "$T/$out" "$T/main.c" "$T/nocfi.o" || fail "cc $out"
}
build prog
build big -DBIG
# the premise: no FDE covers nocfi_mid
readelf --debug-dump=frames "$T/prog" 2>/dev/null | python3 -c '
import re, sys
lo = int(sys.argv[1], 16)
sys.exit(any(int(a, 16) <= lo < int(b, 16)
	     for a, b in re.findall(r" FDE .*pc=([0-9a-f]+)\.\.([0-9a-f]+)", sys.stdin.read())))
' "$(nm "$T/prog" | awk '$3 == "nocfi_mid" { print $1 }')" ||
	{ echo "nocfi_mid has CFI after all: cannot test"; exit 2; }

# the program's frames of every sample, one line each
frames() {
	awk '/^[^ \t]/ { if (s != "") print s; s = "#" }
		/^\t/ && /\/(prog|big)\)$/ { l = $0; sub(/^\t *[0-9a-f]+ /, "", l); s = s ";" l }
		/\[truncated\]/ { s = s ";[truncated]" }
		END { if (s != "") print s }'
}

perf_record "$T/perf.data" -e cpu-clock -F 1000 --call-graph dwarf -- "$T/prog"
"$PERF" script -i "$T/perf.data" 2>/dev/null | frames > "$T/perf.frames"
prf_out "$T/prf.script" script -i "$T/perf.data"
frames < "$T/prf.script" > "$T/prf.frames"
n=$(grep -c '^#;spin' "$T/perf.frames")
through=$(grep -c '^#;spin[^;]*;nocfi_mid[^;]*;top[^;]*;main[^;]*;_start' "$T/prf.frames")
[ "$n" -ge 50 ] || { head "$T/perf.frames"; echo "only $n samples in spin"; exit 2; }
[ "$through" -eq "$n" ] ||
	{ grep '^#;spin' "$T/prf.frames" | sort | uniq -c | sort -rn | head; fail "$through of $n samples in spin unwound through nocfi_mid to _start"; }
cmp -s "$T/perf.frames" "$T/prf.frames" ||
	{ diff "$T/perf.frames" "$T/prf.frames" | head; fail "frames differ from perf script's"; }
echo "ok: $n samples in spin unwound through nocfi_mid to _start, as perf script shows"

# prf's own recording, report included
"$PRF" record -q -o "$T/prf.data" -F 1000 --call-graph dwarf -- "$T/prog" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "prf record"; }
"$PRF" script -i "$T/prf.data" 2>/dev/null | frames > "$T/own.frames"
n=$(grep -c '^#;spin' "$T/own.frames")
through=$(grep -c '^#;spin[^;]*;nocfi_mid[^;]*;top[^;]*;main' "$T/own.frames")
[ "$n" -ge 50 ] && [ "$through" -eq "$n" ] || fail "prf record: $through of $n samples in spin reach main"
"$PRF" report -i "$T/prf.data" --stdio --children --sort sym 2>/dev/null |
	awk '$NF == "main" && $3 == "[.]" { if ($1 + 0 >= 90) ok = 1 } END { exit !ok }' ||
	fail "report --children: main does not hold >= 90% of the samples"
echo "ok: prf record: $n samples in spin reach main, report --children shows main"

# a frame record past the 8 KB stack copy: the stack ends truncated there
perf_record "$T/big.data" -e cpu-clock -F 1000 --call-graph dwarf,8192 -- "$T/big"
"$PRF" script -i "$T/big.data" 2>/dev/null | frames > "$T/big.frames"
n=$(grep -c '^#;spin' "$T/big.frames")
cut=$(grep -c '^#;spin[^;]*;nocfi_mid[^;]*;\[truncated\]$' "$T/big.frames")
[ "$n" -ge 50 ] && [ "$cut" -eq "$n" ] ||
	{ grep '^#;spin' "$T/big.frames" | sort | uniq -c | sort -rn | head; fail "$cut of $n samples end truncated after nocfi_mid"; }
echo "ok: a frame record past the stack copy: $cut of $n samples end [truncated] after nocfi_mid"
exit 0
