#!/bin/bash
# prf annotate keeps the disassemblies it decodes in the debug cache (.dis), with the listing's texts and lookups, and later runs map them with the same output; Intel and AT&T entries apart; a rebuilt program, another prf binary, a damaged file and PRF_DEBUG_CACHE=0 decode again; --no-source and a debug file installed or changed make the lookups again; the kallsyms names (.knames) answer whether the kernel has a symbol
#
# A program with two functions of more than 4 KB of code (big switches,
# -O0) and a small one, recorded by perf. Each listing of prf annotate
# --stdio with a cache directory is compared byte for byte with the
# listing decoded without one (PRF_DEBUG_CACHE=0; the annotate-* tests
# compare those with perf annotate). prf -vv says where the instructions
# came from: "from the kept disassembly" only when the cache answered, and
# "texts and lookups kept" when the listing's symbol table and DWARF
# lookups came from the entry too.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup annotate-disasm-cache
cd "$T" || fail "cd $T"

gen() { # the program, its big functions' arithmetic varied by $1
	echo 'volatile long sink;'
	for f in big1 big2; do
		echo "__attribute__((noinline)) long $f(long x) { long r = 0; switch (x & 255) {"
		for i in $(seq 0 255); do
			echo "case $i: r = x * $((i * 7 + $1)) + (x >> $((i % 13))) - $((i * 3)); sink += r; break;"
		done
		echo "} return r; }"
	done
	echo '__attribute__((noinline)) long small(long x) { return x * 3 + 1; }'
	echo 'int main(int argc, char **argv) { long n = argc > 1 ? 4000000 : 1;'
	echo '	for (long i = 0; i < n; i++) sink += big1(i) + big2(i * 5) + small(i); return 0; }'
}
gen 1 > prog.c && cc -O0 -g -o prog prog.c || fail "cc prog.c"
perf_record prog.data ./prog run

cache=$T/cache
run() { # OUT ARGS...: prf annotate --stdio with the cache, messages (-vv) in OUT.err
	local out=$1
	shift
	PRF_DEBUG_CACHE=$cache "$PRF" annotate -vv --stdio -i prog.data "$@" > "$out" 2> "$out.err" ||
		{ cat "$out.err"; fail "prf annotate $* exit $?"; }
}
ref() { # OUT ARGS...: the same decoded without a cache
	local out=$1
	shift
	PRF_DEBUG_CACHE=0 "$PRF" annotate --stdio -i prog.data "$@" > "$out" 2> "$out.err" ||
		{ cat "$out.err"; fail "prf annotate $* (no cache) exit $?"; }
}
kept() { grep -c 'from the kept disassembly' "$1.err"; }
lookups() { grep -c 'texts and lookups kept with the disassembly' "$1.err"; }
same() { cmp -s "$1" "$2" || { diff "$1" "$2" | head; fail "$3: differs from the listing decoded without a cache"; }; }

ref att.ref -d prog
ref intel.ref -d prog -M intel
grep -q '<big1>:' att.ref && grep -q '<big2>:' att.ref && grep -q '<small>:' att.ref ||
	fail "no samples in big1, big2 and small: $(grep -c . att.ref) lines"

# first run: decoded and kept, one file for the program, both big
# functions in it, not the small one
run att1 -d prog
same att.ref att1 "first run"
[ "$(kept att1)" = 0 ] || fail "first run answered from a cache"
ls "$cache"/*.dis > dis.list 2>/dev/null || fail "no .dis file in the cache"
[ "$(wc -l < dis.list)" = 1 ] || fail "$(wc -l < dis.list) .dis files for one program"
dis=$(cat dis.list)

# second run: both from the cache, same listing
run att2 -d prog
same att.ref att2 "second run"
[ "$(kept att2)" = 2 ] || { cat att2.err; fail "second run: $(kept att2) listings from the cache, not 2"; }
[ "$(lookups att2)" = 2 ] || fail "second run: $(lookups att2) listings with kept lookups, not 2"
grep -q 'sink += r' att.ref || fail "no source lines in the listing"

# --no-source: the symbol table may differ (no debug file's): the
# lookups are made again, and kept for the next such run
ref nosrc.ref -d prog --no-source
run nosrc1 -d prog --no-source
same nosrc.ref nosrc1 "--no-source, first run"
[ "$(lookups nosrc1)" = 0 ] || fail "--no-source used the lookups made with source"
run nosrc2 -d prog --no-source
same nosrc.ref nosrc2 "--no-source, second run"
[ "$(lookups nosrc2)" = 2 ] || fail "--no-source, second run: $(lookups nosrc2) kept lookups"

# Intel syntax is an entry of its own: decoded, then kept beside AT&T's
run intel1 -d prog -M intel
same intel.ref intel1 "Intel, first run"
[ "$(kept intel1)" = 0 ] || fail "Intel syntax answered from the AT&T entries"
run intel2 -d prog -M intel
same intel.ref intel2 "Intel, second run"
[ "$(kept intel2)" = 2 ] || fail "Intel, second run: $(kept intel2) from the cache"
run att3 -d prog
same att.ref att3 "AT&T after Intel"
[ "$(kept att3)" = 2 ] || fail "the AT&T entries were lost when the Intel ones were added"

# one symbol asked for: its entry alone (made ahead, while the samples
# are read)
run one -s big2
ref one.ref -s big2
same one.ref one "-s big2"
[ "$(kept one)" = 1 ] || fail "-s big2: $(kept one) from the cache"
[ "$(lookups one)" = 1 ] || fail "-s big2: $(lookups one) kept lookups"

# another prf binary (a copy: another file) does not trust the entries
cp "$PRF" "$T/prf-copy" || fail "cp prf"
PRF_DEBUG_CACHE=$cache "$T/prf-copy" annotate -vv --stdio -i prog.data -d prog > copy 2> copy.err ||
	fail "the copy of prf failed"
same att.ref copy "another prf"
[ "$(kept copy)" = 0 ] || fail "another prf binary used the kept disassembly"
grep -q 'of another prf or Capstone' copy.err || fail "another prf: no message"

# a damaged file (its header zeroed) is refused and made again
run att4 -d prog		# this prf's entries again
dis=$(ls "$cache"/*.dis)
dd if=/dev/zero of="$dis" bs=64 count=1 conv=notrunc 2>/dev/null || fail "dd"
run bad -d prog
same att.ref bad "damaged cache file"
[ "$(kept bad)" = 0 ] || fail "a damaged file answered"
run att5 -d prog
[ "$(kept att5)" = 2 ] || fail "the damaged file was not made again"

# a truncated file is not the cache of this program any more (its size
# is in the trailer): decoded again
truncate -s 1000 "$(ls "$cache"/*.dis)" || fail "truncate"
run trunc -d prog
same att.ref trunc "truncated cache file"
[ "$(kept trunc)" = 0 ] || fail "a truncated file answered"

# the program rebuilt with other code: its new listing, not the old one
gen 2 > prog.c && cc -O0 -g -o prog prog.c || fail "cc prog.c again"
run new -d prog
ref new.ref -d prog
same new.ref new "rebuilt program"
[ "$(kept new)" = 0 ] || fail "a rebuilt program was answered from the old file's entries"
cmp -s att.ref new.ref && fail "the rebuilt program's listing did not change"

# a separate debug file (found by .gnu_debuglink beside the program):
# the lookups are made with it when it is installed after they were
# kept, and again when it changes; the disassembly stays kept
gen 3 > dbg.c && cc -O0 -g -o dbgprog dbg.c || fail "cc dbg.c"
objcopy --only-keep-debug dbgprog dbgprog.debug && objcopy --strip-debug \
	--add-gnu-debuglink=dbgprog.debug dbgprog || fail "objcopy"
mkdir -p away && mv dbgprog.debug away/ || fail "mv"
perf_record dbg.data ./dbgprog run
drun() { # OUT: the listing of big1 of dbgprog, against one without a cache
	PRF_DEBUG_CACHE=0 "$PRF" annotate --stdio -i dbg.data big1 > "$1.ref" 2>/dev/null ||
		fail "dbgprog: no listing without a cache"
	PRF_DEBUG_CACHE=$cache "$PRF" annotate -vv --stdio -i dbg.data big1 > "$1" 2> "$1.err" ||
		{ cat "$1.err"; fail "dbgprog: prf annotate exit $?"; }
	same "$1.ref" "$1" "dbgprog ($1)"
}
drun d1
drun d2
[ "$(kept d2)" = 1 ] && [ "$(lookups d2)" = 1 ] || fail "dbgprog: not kept without a debug file"
grep -q 'sink += r' d2 && fail "dbgprog: source lines without the debug file"
mv away/dbgprog.debug . || fail "mv back"
drun d3
grep -q 'sink += r' d3 || fail "dbgprog: no source lines from the debug file installed"
[ "$(kept d3)" = 1 ] && [ "$(lookups d3)" = 0 ] ||
	fail "dbgprog: the debug file installed, yet the lookups made without it were used"
drun d4
[ "$(lookups d4)" = 1 ] || fail "dbgprog: the lookups with the debug file were not kept"
touch -d '2001-01-01' dbgprog.debug || fail "touch"
drun d5
[ "$(lookups d5)" = 0 ] || fail "dbgprog: the debug file changed, yet its old lookups were used"

# the kallsyms names: with symbols named, annotate asks whether the
# kernel has one of the names before loading its symbols; the answer
# comes from the names' hashes (.knames), made at the first run. A kernel
# symbol with samples, and a name the kernel lacks, list as without them.
ksym=$(PRF_DEBUG_CACHE=0 "$PRF" report --stdio -i prog.data --sort sym 2>/dev/null |
	awk '$2 == "[k]" { print $3; exit }')
if [ -n "$ksym" ] && ls ~/.debug/\[kernel.kallsyms\]/*/kallsyms >/dev/null 2>&1; then
	for sym in "$ksym" small; do
		PRF_DEBUG_CACHE=0 "$PRF" annotate --stdio -i prog.data "$sym" > k.ref 2> k.ref.err
		want=$?
		for run in 1 2; do
			PRF_DEBUG_CACHE=$cache "$PRF" annotate -vv --stdio -i prog.data "$sym" > k.out 2> k.err
			got=$?
			[ $got = $want ] || fail "annotate $sym (run $run): exit $got, $want without a cache"
			cmp -s k.ref k.out || { diff k.ref k.out | head; fail "annotate $sym (run $run) differs"; }
		done
		grep -q 'kallsyms names from' k.err || { grep -i kallsyms k.err; fail "$sym: the kallsyms names were not kept"; }
	done
	ls "$cache"/*.knames >/dev/null 2>&1 || fail "no .knames file"
else
	echo "no kernel samples or no kallsyms in ~/.debug: the kallsyms names not checked"
fi

# PRF_DEBUG_CACHE=0: nothing kept, nothing used
rm -rf "$cache"
ref off -d prog
same new.ref off "PRF_DEBUG_CACHE=0"
[ -e "$cache" ] && fail "PRF_DEBUG_CACHE=0 made a cache"
echo "ok"
exit 0
