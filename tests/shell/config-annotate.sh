#!/bin/bash
# the annotate.* keys of ~/.perfconfig change prf annotate --stdio and --stdio2 as they change perf annotate's, byte for byte: use_offset, show_linenr, show_nr_jumps, offset_level, hide_src_code, jump_arrows, show_nr_samples, show_total_period, alone and together; disassembler_style as -M; demangle; the command line wins
#
# Two programs the test compiles (as annotate-stdio2.sh): main -> a -> b
# -> leaf at -O0 (calls, forward and backward jumps) and an -O2 loop
# around an inlined memset (RIP-relative operands, a jump inside the
# loop), recorded by /usr/bin/perf. For each ~/.perfconfig (under a
# temporary HOME) both outputs of the whole program (-d) must equal perf
# 6.1's on the same file.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/annotate.sh"
test_setup config-annotate
cd "$T" || fail "cd $T"
config_home

cc_prog loops -g
cc_prog memfill -O2 -g
mv loops tree && mv memfill loop || fail "mv"
perf_record tree.data ./tree 60000000
perf_record loop.data ./loop

# the default listings, to see that each key changes something
annotate_same --stdio2 tree.data "no config" -d tree
cp prf.txt def2.txt
annotate_same --stdio tree.data "no config (--stdio)" -d tree
cp prf.txt def1.txt

nr=0
for kv in "use_offset=false" "show_linenr=true" "show_nr_jumps=true" "offset_level=2" \
	  "offset_level=3" "offset_level=9" "hide_src_code=true" "jump_arrows=false" \
	  "show_nr_samples=true" "show_total_period=true" \
	  "show_nr_jumps=true offset_level=3" "show_nr_jumps=true use_offset=false" \
	  "show_linenr=true use_offset=false hide_src_code=true" \
	  "use_offset=false show_linenr=true show_nr_jumps=true show_total_period=true" \
	  "hide_src_code=true show_nr_samples=true offset_level=2 show_nr_jumps=true"; do
	rm -f "$HOME/.perfconfig"
	for k in $kv; do
		"$PERF" config "annotate.$k" || fail "perf config annotate.$k"
	done
	for fmt in --stdio2 --stdio; do
		annotate_same $fmt tree.data "$kv ($fmt, -O0)" -d tree
		[ $fmt = --stdio2 ] && cp prf.txt key2.txt
		annotate_same $fmt loop.data "$kv ($fmt, -O2)" fill
	done
	# perf's --stdio2 changes with all but jump_arrows (a TUI line)
	case $kv in
	jump_arrows=false) cmp -s key2.txt def2.txt || fail "jump_arrows changed --stdio2" ;;
	*) cmp -s key2.txt def2.txt && fail "$kv: --stdio2 unchanged" ;;
	esac
	nr=$((nr + 1))
done
echo "ok: $nr configurations of annotate.* keys: --stdio and --stdio2 as perf's"

# -O2 with aligned loops: multi-byte NOPs inside the functions, which
# perf shows as "nop" with offsets and as written with addresses
cc_prog loops -O2 -g -falign-loops=32
mv loops aligned || fail "mv"
perf_record aligned.data ./aligned 30000000
for kv in "" "use_offset=false" "hide_src_code=true offset_level=3"; do
	rm -f "$HOME/.perfconfig"
	for k in $kv; do
		"$PERF" config "annotate.$k" || fail "perf config annotate.$k"
	done
	annotate_same --stdio2 aligned.data "'$kv' (aligned NOPs)" -d aligned
	if [ "$kv" = use_offset=false ]; then
		grep -Eq '(^| )nop[lw] ' prf.txt || fail "no multi-byte NOP with its operands"
	fi
done
echo "ok: NOPs by use_offset"

# disassembler_style=intel is -M intel (whose text is Capstone's, not
# objdump's: prf-annotate(1)); the command line wins over the file
rm -f "$HOME/.perfconfig"
"$PERF" config annotate.disassembler_style=intel
for fmt in --stdio --stdio2; do
	prf_out intel.txt annotate $fmt -i tree.data b
	PERF_CONFIG=/dev/null "$PRF" annotate $fmt -M intel -i tree.data b > intel.ref 2>/dev/null ||
		fail "annotate -M intel"
	cmp -s intel.txt intel.ref || { diff intel.ref intel.txt | head; fail "disassembler_style=intel is not -M intel ($fmt)"; }
	grep -q 'QWORD\|qword' intel.txt || fail "disassembler_style=intel: no Intel syntax ($fmt)"
done
rm -f "$HOME/.perfconfig"
"$PERF" config annotate.show_nr_samples=true annotate.disassembler_style=intel
annotate_same --stdio tree.data "-M att over the file" -M att b
prf_out att.txt annotate --stdio -M att -n -i tree.data b
PERF_CONFIG=/dev/null "$PRF" annotate --stdio -n -i tree.data b > att.ref 2>/dev/null ||
	fail "annotate -n"
cmp -s att.txt att.ref || { diff att.ref att.txt | head; fail "-M att does not win over the file"; }
echo "ok: -M att wins over annotate.disassembler_style"

# annotate.demangle=false: the C++ name as in the ELF in --stdio2's title
if command -v g++ > /dev/null; then
	cat > cp.cc <<'SRC'
namespace ns { struct W { static void spin(unsigned long n); }; }
volatile unsigned long sink;
__attribute__((noinline)) void ns::W::spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
int main() { ns::W::spin(100000000UL); return 0; }
SRC
	g++ -O0 -g -o cp cp.cc || fail "g++"
	perf_record cp.data ./cp
	for cfg in "" "annotate.demangle=false"; do
		rm -f "$HOME/.perfconfig"
		[ -n "$cfg" ] && "$PERF" config $cfg
		"$PERF" annotate --stdio2 -i cp.data -d cp 2>/dev/null | head -2 > perf.txt
		prf_out prf.txt annotate --stdio2 -i cp.data -d cp
		head -2 prf.txt | cmp -s - perf.txt ||
			{ head -2 prf.txt | diff perf.txt -; fail "C++ title with '$cfg' differs"; }
	done
	grep -q '^_ZN2ns1W4spinEm() ' prf.txt || fail "annotate.demangle=false: $(sed -n 2p prf.txt)"
	echo "ok: annotate.demangle"
fi

# a bad value is named
rm -f "$HOME/.perfconfig"
printf '[annotate]\n\tshow_linenr = maybe\n' > "$HOME/.perfconfig"
out=$("$PRF" annotate --stdio2 -i tree.data b 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] || fail "bad boolean value: exit 0"
echo "$out" | grep -q "'maybe' for 'annotate.show_linenr'" || fail "message: $out"
echo "ok: a bad value is named"
exit 0
