#!/bin/bash
# prf's DWARF line program reader and DIE walker give libdw's rows, file tables, function and inline scope ranges on gcc and clang output, DWARF 2 to 5, compressed too
#
# Builds one program with inlining and a header-defined function in
# several ways: gcc -gdwarf-2/-3/-4/-5, gcc -gz (sections compressed:
# libdw inflates them in place), clang -gdwarf-4/-5 (DWARF 5 with MD5
# entries and no .debug_aranges), and runs the unit test that compares
# every unit's rows and file table with libdw's on each
# (dwarf-line-libdw-agrees), and the one that compares prf's DIE
# walker's function and inline scope ranges (util/model/dwarf-die.h)
# with libdw's walk (dwarf-die-libdw-agrees); glibc's and python3.11's
# detached debug files too when installed.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
tmp_dir dwarf-line
need cc readelf
cd "$T" || exit 1
mkdir -p inc
cat > inc/h.h <<'SRC'
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 100; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
SRC
cat > t.c <<'SRC'
#include <stdlib.h>
#include "inc/h.h"
static volatile unsigned long sink;
__attribute__((noinline)) unsigned long leaf(unsigned long x) { return mix(x) + 1; }
__attribute__((cold, noinline)) void rare(unsigned long x) { if (x == 7) abort(); }
int main(int argc, char **argv)
{
	unsigned long s = 0;
	for (long i = 0; i < (argc > 1 ? atol(argv[1]) : 10); i++) {
		s += leaf(i);
		rare(s);
	}
	sink = s;
	return 0;
}
SRC
files=""
build() {	# NAME CC FLAGS...
	local name=$1 c=$2
	shift 2
	command -v "$c" >/dev/null || { echo "no $c: $name left out"; return; }
	"$c" -O2 "$@" -o "$name" t.c || fail "$c $* failed"
	files="$files:$T/$name"
}
build gcc-dwarf2 cc -gdwarf-2
build gcc-dwarf3 cc -gdwarf-3
build gcc-dwarf4 cc -gdwarf-4
build gcc-dwarf5 cc -gdwarf-5
build gcc-gz cc -g -gz=zlib
readelf -S gcc-gz | grep -A1 ' .debug_line ' | grep -q ' C ' || fail "-gz gave no compressed .debug_line"
build clang-dwarf4 clang -gdwarf-4
build clang-dwarf5 clang -gdwarf-5
for lib in /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/bin/python3.11; do
	[ -e "$lib" ] || continue
	bid=$(readelf -n "$lib" 2>/dev/null | awk '/Build ID/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
	[ -n "$bid" ] && [ -r "$dbg" ] && files="$files:$dbg" && echo "with $lib's debug file"
done
PRF_DWARF_LINE_ELF=${files#:} "$PRF" test -v dwarf-line-libdw-agrees > test.log 2>&1 ||
	{ tail -30 test.log; fail "prf's line program reader differs from libdw"; }
grep -q ': Ok' test.log || { cat test.log; fail "the unit test did not run"; }
grep 'as libdw reads them' test.log | sed "s|$T/||"
PRF_DWARF_DIE_ELF=${files#:} "$PRF" test -v dwarf-die-libdw-agrees > die.log 2>&1 ||
	{ tail -30 die.log; fail "prf's DIE walker differs from libdw"; }
grep -q ': Ok' die.log || { cat die.log; fail "the DIE walker test did not run"; }
grep 'as libdw walks them' die.log | sed "s|$T/||"
exit 0
