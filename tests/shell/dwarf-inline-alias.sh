#!/bin/bash
# A function whose DWARF names it several times (an assembler unit's DW_TAG_subprogram per alias, as glibc's syscall stubs) is named as perf names it
#
# GNU as gives each function symbol of a -g assembler file a
# DW_TAG_subprogram of its own, all over the same code: glibc's ld.so
# has __mprotect, __GI___mprotect, mprotect and __GI_mprotect at one
# address. perf 6.1 takes the function's name from addr2line, which
# answers with the last of them, and shows it as an inlined frame when it
# is not the ELF symbol's name ("__GI_mprotect (inlined)" for mprotect).
# prf names such a level from the DWARF the same way (the "renamed
# outermost level" rule of Documentation/prf-report.txt). A stub with
# three aliases, called from C, recorded by Linux perf with --call-graph
# dwarf: prf script's frames of the program and the stub's report entry
# with its callchain must equal perf's.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup inline-alias
cd "$T" || exit 1

cat > stub.S <<'SRC'
	.text
	.globl	__spin
	.type	__spin, @function
	.globl	spin
	.type	spin, @function
	.globl	__GI_spin
	.hidden	__GI_spin
	.type	__GI_spin, @function
__spin:
spin:
__GI_spin:
	.cfi_startproc
	mov	$200000, %ecx
1:	dec	%ecx
	jnz	1b
	ret
	.cfi_endproc
	.size	__spin, .-__spin
	.size	spin, .-spin
	.size	__GI_spin, .-__GI_spin
	.section .note.GNU-stack,"",@progbits
SRC
cat > main.c <<'SRC'
void spin(void);
__attribute__((noinline)) void outer(int n)
{
	for (int i = 0; i < n; i++)
		spin();
}
int main(void)
{
	outer(2000);
	return 0;
}
SRC
cc -O1 -g -fomit-frame-pointer -o prog main.c stub.S || fail "cc"
n=$(readelf --debug-dump=info prog 2>/dev/null | grep -c 'DW_AT_name.*: \(__spin\|spin\|__GI_spin\)$')
[ "$n" -ge 3 ] || { echo "this assembler gives the aliases no DW_TAG_subprogram each ($n)"; exit 2; }
"$PERF" record -q -e cpu-clock -c 100000 --call-graph dwarf -o perf.data ./prog \
	>/dev/null 2>rec.err || { cat rec.err; echo "perf record --call-graph dwarf failed"; exit 2; }

# the program's frames per sample that ran in the stub
frames() {
	awk -v bin="$T/prog" '
	/^[^ \t]/ { if (s ~ /spin/) print s; s = ""; next }
	/^\t/ && (index($0, "(" bin ")") || /spin\+0x[0-9a-f]* \(inlined\)$/) { sub(/^\t */, ""); s = s "|" $0 }
	END { if (s ~ /spin/) print s }'
}
"$PERF" script -i perf.data 2>/dev/null | frames > perf.frames
prf_out prf.script script -i perf.data
frames < prf.script > prf.frames
grep -q "^|[0-9a-f]* __GI_spin+0x[0-9a-f]* (inlined)|[0-9a-f]* outer+" perf.frames ||
	{ head -3 perf.frames; echo "perf names the stub differently here"; exit 2; }
cmp -s perf.frames prf.frames || { diff perf.frames prf.frames | head; fail "prf script frames differ from perf script"; }
echo "script: $(wc -l < prf.frames) samples in the stub, frames as perf's (__GI_spin (inlined), outer, main)"

# report: the stub's entry and its callchain
entry() { awk '/\[\.\] spin *$/ { f = 1 } f && /^$/ { exit } f'; }
"$PERF" report -i perf.data --stdio --no-children --comm prog 2>/dev/null | entry > perf.rep
prf_out prf.report report -i perf.data --stdio --no-children --comm prog
entry < prf.report > prf.rep
grep -q "__GI_spin (inlined)" perf.rep || { cat perf.rep; echo "perf report shows no __GI_spin (inlined)"; exit 2; }
cmp -s perf.rep prf.rep || { diff perf.rep prf.rep; fail "prf report's spin entry differs from perf report"; }
echo "report: the spin entry and its callchain equal perf report's"
exit 0
