#!/bin/bash
# A compressed separate debug file's .debug_info and .debug_line are inflated only as far as the samples need, with the same stacks, inline frames and srclines as inflating all (PRF_DEBUG_LAZY=0) and as libdw's own reading; a corrupt late part is survived
#
# The test library, its compressed debug file and the two recordings
# (early() only, early() and late()) come from lib/dwlib.sh.
#  - early only: no lookup may need all of .debug_info (-vv says when one
#    does: "all of .debug_info inflated for a lookup"; the whole inflate
#    running ahead on another CPU may be taken once done, which -vv says
#    as "inflated ahead on another thread"), and its report and script
#    -F +srcline must equal those with PRF_DEBUG_LAZY=0 and with
#    PRF_DEBUG_IMAGE=0 (libdw reads the file), with the inlined helper and
#    its early.c line shown. A sample in the library's crt code (no unit
#    covers it: telling needs every unit header) is the one exception.
#  - early and late: late.c's unit lies past an eighth of .debug_info, so
#    all of it is inflated; the same three-way comparison, with both
#    inlined helpers shown.
#  - the compressed .debug_info damaged past its first quarter: the early
#    only recording still shows the early inlined helper (its unit is in
#    the intact start), and the early+late one is still unwound and
#    printed (exit 0), without late.c's DWARF.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/dwlib.sh"
test_setup dwlazy objcopy strip
cd "$T" || exit 1
export HOME=$T	# no ~/.debug copies: the debug file is found by debuglink

dwlib_build

# compare DATA: report and script -F +srcline the same three ways
compare() {
	local d=$1 mode
	for mode in lazy eager libdw; do
		case $mode in
		lazy) set -- ;;
		eager) set -- PRF_DEBUG_LAZY=0 ;;
		libdw) set -- PRF_DEBUG_IMAGE=0 ;;
		esac
		dwlib_run "$d.$mode.script" "$@" "$PRF" script -vv -i "$d.data" -F +srcline
		dwlib_run "$d.$mode.report" "$@" "$PRF" report -i "$d.data" --stdio --no-children
	done
	for mode in eager libdw; do
		cmp -s "$d.lazy.script" "$d.$mode.script" ||
			{ diff "$d.lazy.script" "$d.$mode.script" | head; fail "$d: script differs from $mode"; }
		cmp -s "$d.lazy.report" "$d.$mode.report" ||
			{ diff "$d.lazy.report" "$d.$mode.report" | head; fail "$d: report differs from $mode"; }
	done
	grep -q "libdl.so.debug: .* the rest on demand" "$d.lazy.script.err" ||
		{ grep debuginfo "$d.lazy.script.err" | head; fail "$d: .debug_info was not left to be inflated on demand"; }
}

compare early
# A sample in the library's crt code (_init when the loader runs it,
# frame_dummy, __do_global_dtors_aux at exit) lies in no unit's ranges:
# only reading every unit header tells, so all of .debug_info is
# inflated then, and prf -vv names the address. Any other reason fails.
if grep -q "libdl.so.debug: all of .debug_info inflated for a lookup" early.lazy.script.err; then
	# [lo, hi): the functions of early.c, filler.c and late.c
	lo= hi=
	while read -r a sz _ name; do
		case $name in early*|late*|filler_f*) ;; *) continue ;; esac
		[ -z "$lo" ] || [ $((16#$a)) -lt "$lo" ] && lo=$((16#$a))
		[ -z "$hi" ] || [ $((16#$a + 16#$sz)) -gt "$hi" ] && hi=$((16#$a + 16#$sz))
	done < <(nm -S libdl.so | grep ' [Tt] ')
	[ -n "$lo" ] || fail "no early/late/filler functions in nm -S libdl.so"
	nounit=$(sed -n 's/.*libdl.so: 0x\([0-9a-f]*\) in no unit.s address ranges/\1/p' \
		early.lazy.script.err)
	[ -n "$nounit" ] || fail "early only: a lookup needed all of .debug_info"
	for a in $nounit; do
		[ $((16#$a)) -lt "$lo" ] || [ $((16#$a)) -ge "$hi" ] ||
			fail "early only: 0x$a in the library's own code was in no unit's ranges"
	done
	echo "early only: all of .debug_info inflated for crt code at ${nounit//$'\n'/ }"
fi
grep -q "early_mix (inlined)" early.lazy.report || fail "early only: no inlined early_mix frame"
grep -A1 "early_mix+0x[0-9a-f]*\$" early.lazy.script | grep -q "early.c:[0-9]* (inlined)" ||
	fail "early only: no early.c srcline for the inlined frame"

compare both
grep -q "libdl.so.debug: all of .debug_info inflated" both.lazy.script.err ||
	fail "early and late: .debug_info was not inflated in full for late.c's unit"
grep -q "late_mix (inlined)" both.lazy.report || fail "early and late: no inlined late_mix frame"
grep -q "early_mix (inlined)" both.lazy.report || fail "early and late: no inlined early_mix frame"
grep -A1 "late_mix+0x[0-9a-f]*\$" both.lazy.script | grep -q "late.c:[0-9]* (inlined)" ||
	fail "early and late: no late.c srcline for the inlined frame"

# damage the compressed .debug_info past its first quarter
python3 "$PRF_SRCDIR/tests/shell/lib/elf-section.py" libdl.so.debug .debug_info damage 0.25 ||
	{ echo "cannot patch the debug file"; exit 2; }
dwlib_run bad.early "$PRF" report -i early.data --stdio --no-children
grep -q "early_mix (inlined)" bad.early ||
	fail "damaged late part: the early unit's inlined frame is gone"
dwlib_run bad.both "$PRF" script -i both.data
grep -q "late+0x[0-9a-f]* (.*libdl.so)" bad.both || fail "damaged late part: no late frame"
grep -A1 "late+0x[0-9a-f]* (.*libdl.so)" bad.both | grep -q "main+0x" ||
	fail "damaged late part: stacks not unwound"
echo "on demand: early only partial, early+late whole, both equal to eager and libdw; damage survived"
exit 0
