#!/bin/bash
# prf inject -b / --buildid-all: perf report and perf buildid-list read prf's output as they read perf inject's, file to file, pipe to pipe (record -o - | inject -b | report -i -), pipe to file, and from a zstd-compressed recording
# The recordings are made with --no-buildid, so the build-ids come from
# inject alone. prf adds the kernel's build-id too ([kernel.kallsyms], from
# /sys/kernel/notes, as record does), which perf inject leaves out, and
# [vdso]'s whenever a process mapped it, where perf writes it only in some
# cases (Documentation/prf-inject.txt): the lists are compared without them.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup inject-buildid
cc_prog tree	# main -> a -> b -> leaf (lib/tree.c)

bids() { "$PERF" buildid-list -i "$@" 2>/dev/null | grep -v '\[kernel.kallsyms\]\|\[vdso\]' | sort; }
# (perf prints a random tip at the end of a pipe's report)
report() { "$PERF" report --stdio --no-children -i "$@" 2>/dev/null | grep -v '^# (Tip:'; }
# the program's build-id as the ELF note says
prog_bid=$(readelf -n "$T/tree" | sed -n 's/.*Build ID: *//p')
[ -n "$prog_bid" ] || fail "no build-id in the test program"

prf_out "$T/rec.out" record --no-buildid -F 999 -o "$T/rec.data" -- "$T/tree" 30000
grep -q "$prog_bid" < <(bids "$T/rec.data") && fail "the recording has build-ids already"

# file to file
prf_out "$T/inj.out" inject -b -i "$T/rec.data" -o "$T/prf.data"
"$PERF" inject -b -i "$T/rec.data" -o "$T/perf.data" || fail "perf inject -b"
bids "$T/prf.data" > "$T/prf.bids"
bids "$T/perf.data" > "$T/perf.bids"
grep -q "^$prog_bid .*/tree$" "$T/prf.bids" || { cat "$T/prf.bids"; fail "no build-id of the program"; }
cmp -s "$T/prf.bids" "$T/perf.bids" || { diff "$T/prf.bids" "$T/perf.bids"; fail "buildid-list differs (file)"; }
report "$T/prf.data" > "$T/prf.rep"
report "$T/perf.data" > "$T/perf.rep"
grep -q '\[\.\] leaf' "$T/prf.rep" || fail "no leaf in perf report of prf's output"
cmp -s "$T/prf.rep" "$T/perf.rep" || { diff "$T/prf.rep" "$T/perf.rep" | head; fail "perf report differs (file)"; }
echo "ok: file: $(wc -l < "$T/prf.bids") build-ids and perf report as perf inject's"

# pipe to pipe, and prf report reads it
prf_out "$T/pipe.rec" record --no-buildid -F 999 -o - -- "$T/tree" 30000
"$PRF" inject -b < "$T/pipe.rec" > "$T/prf.pipe" 2> "$T/err" || { cat "$T/err"; fail "prf inject -b (pipe)"; }
"$PERF" inject -b < "$T/pipe.rec" > "$T/perf.pipe" || fail "perf inject -b (pipe)"
bids - < "$T/prf.pipe" > "$T/prf.pbids"
bids - < "$T/perf.pipe" > "$T/perf.pbids"
grep -q "^$prog_bid .*/tree$" "$T/prf.pbids" || { cat "$T/prf.pbids"; fail "no build-id of the program (pipe)"; }
cmp -s "$T/prf.pbids" "$T/perf.pbids" || { diff "$T/prf.pbids" "$T/perf.pbids"; fail "buildid-list differs (pipe)"; }
report - < "$T/prf.pipe" > "$T/prf.prep"
report - < "$T/perf.pipe" > "$T/perf.prep"
cmp -s "$T/prf.prep" "$T/perf.prep" || { diff "$T/prf.prep" "$T/perf.prep" | head; fail "perf report differs (pipe)"; }
prf_out "$T/prf.self" report --stdio --no-children -i - < "$T/prf.pipe"
grep -q '\[\.\] leaf' "$T/prf.self" || fail "no leaf in prf report -i - of prf inject's pipe"
"$PRF" record --no-buildid -F 999 -o - -- "$T/tree" 20000 2>/dev/null | "$PRF" inject -b |
	"$PRF" report --stdio -i - > "$T/chain.rep" 2> "$T/chain.err"
st=("${PIPESTATUS[@]}")
[ "${st[*]}" = "0 0 0" ] || { cat "$T/chain.err"; fail "record | inject -b | report exited ${st[*]}"; }
grep -q '\[\.\] leaf' "$T/chain.rep" || fail "no leaf after record | inject -b | report"
echo "ok: pipe: $(wc -l < "$T/prf.pbids") build-ids and perf report as perf inject's"

# pipe to file
prf_out "$T/p2f.out" inject -b -i - -o "$T/p2f.data" < "$T/pipe.rec"
"$PERF" inject -b -i - -o "$T/perf.p2f" < "$T/pipe.rec" || fail "perf inject -b (pipe to file)"
cmp -s <(bids "$T/p2f.data") <(bids "$T/perf.p2f") ||
	{ diff <(bids "$T/p2f.data") <(bids "$T/perf.p2f"); fail "pipe to file: other build-ids"; }
cmp -s <(report "$T/p2f.data") "$T/prf.prep" || fail "pipe to file: perf report differs"

# --buildid-all: every DSO mapped, libc too
prf_out "$T/all.out" inject --buildid-all -i "$T/rec.data" -o "$T/all.data"
"$PERF" buildid-list -i "$T/all.data" | grep -q '^[0-9a-f]\{40\} .*/libc\.so\.6$' ||
	fail "--buildid-all: no libc"

# zstd: a compressed recording injected; perf reads the result
prf_out "$T/z.out" record --no-buildid -z -F 999 -o "$T/z.data" -- "$T/tree" 30000
prf_out "$T/zi.out" inject -b -i "$T/z.data" -o "$T/zi.data"
grep -q "^$prog_bid .*/tree$" < <(bids "$T/zi.data") || fail "zstd: no build-id of the program"
report "$T/zi.data" > "$T/zi.rep"
cmp -s "$T/zi.rep" <(report "$T/z.data") || { diff "$T/zi.rep" <(report "$T/z.data") | head; fail "zstd: perf report differs from the compressed original's"; }
grep -q '\[\.\] leaf' "$T/zi.rep" || fail "zstd: no leaf"
echo "ok: zstd recording injected, perf report the same as of the original"

# no option: a perf recording copied; perf's report and header (but for
# the command line, sizes and dates) the same as of the original
perf_record "$T/perfrec.data" -F 999 -g -- "$T/tree" 30000
prf_out "$T/copy.out" inject -i "$T/perfrec.data" -o "$T/copy.data"
cmp -s <(report "$T/copy.data") <(report "$T/perfrec.data") || fail "copy: perf report differs"
hdr() { "$PERF" report --header-only -I -i "$1" 2>/dev/null | grep -v 'cmdline\|captured on\|data size\|feat offset'; }
cmp -s <(hdr "$T/copy.data") <(hdr "$T/perfrec.data") ||
	{ diff <(hdr "$T/copy.data") <(hdr "$T/perfrec.data") | head; fail "copy: header differs"; }
cmp -s <("$PERF" buildid-list -i "$T/copy.data") <("$PERF" buildid-list -i "$T/perfrec.data") ||
	fail "copy: build-id table differs"
echo "ok: a perf recording copied without options reads the same"

# usage errors
"$PRF" inject --no-such-option >/dev/null 2>&1; [ $? -eq 129 ] || fail "unknown option: not 129"
"$PRF" inject -i "$T/rec.data" -o "$T/rec.data" >/dev/null 2>&1; [ $? -eq 129 ] || fail "same in/out: not 129"
"$PRF" inject -i "$T/nonexistent" -o "$T/x.data" 2>/dev/null; [ $? -eq 1 ] || fail "missing input: not 1"
exit 0
