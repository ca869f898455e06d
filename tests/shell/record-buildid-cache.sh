#!/bin/bash
# record fills the build-id cache at its end as perf 6.1 record does: the same tree and probes files, -N / record.build-id=no-cache / skip / -B / --switch-output / pipe leave it alone, report resolves a rebuilt or removed library through it
# A program calling a function of its own shared library (and, where
# <sys/sdt.h> is installed, lib/sdt-prog.c with its SDT notes) is
# recorded by prf and by perf, each with its own temporary HOME (the
# real ~/.debug is never touched). With --buildid-all (every DSO
# mapped, so both tools write the same build-id list) the two cache
# trees are the same: files, modes, link targets, build-id directories, elf /
# kallsyms / vdso / debug / probes, and the probes files the same bytes.
# Without it every DSO of prf's build-id list has its entry and there is
# nothing else; a second record adds nothing and copies nothing again
# (kallsyms keeps its inode and mtime). -N, record.build-id=no-cache,
# record.build-id=skip, -B, --switch-output (unless
# --no-no-buildid-cache) and -o - create no cache, as perf's. After
# the library is rebuilt, then removed, prf report prints what perf
# report prints on the same file, the library's symbols coming from the
# cache.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup record-buildid-cache

cat > "$T/lib.c" <<'C'
long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * i % 7; return s; }
C
cat > "$T/lib2.c" <<'C'
int pad1(int x) { return x * 3; }
int pad2(int x) { return x * 5 + pad1(x); }
long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * i % 9; return s; }
C
# the syscalls: kernel samples for certain (the kernel is a DSO hit)
cat > "$T/main.c" <<'C'
#include <stdio.h>
#include <unistd.h>
long work(long n);
int main(void)
{
	for (int i = 0; i < 200000; i++)
		getppid();
	printf("%ld\n", work(30000000));
	return 0;
}
C
cc -O1 -g -shared -fPIC -o "$T/libw.so" "$T/lib.c" || fail "cc lib.c"
cc -O1 -g -o "$T/prog" "$T/main.c" -L"$T" -lw -Wl,-rpath,"$T" || fail "cc main.c"
progs=("$T/prog")
if [ -r /usr/include/sys/sdt.h ] || [ -r /usr/include/x86_64-linux-gnu/sys/sdt.h ]; then
	LIB=$PRF_SRCDIR/tests/shell/lib
	cc -O2 -g -o "$T/sdt-prog" "$LIB/sdt-prog.c" "$LIB/sdt-sema.c" || fail "cc sdt-prog"
	progs+=("$T/sdt-prog")
fi
tree() { (cd "$1" && find . -printf '%y %m %p %l\n' | sort); }
# rec TOOL HOME OUT ARG...: TOOL record -q -o OUT ARG... with HOME; prf's
# exit status must be 0, perf's too (else the comparison is skipped)
rec() {
	local tool=$1 home=$2 out=$3 rc
	shift 3
	mkdir -p "$home"
	if [ "$tool" = perf ]; then
		HOME=$home "$PERF" record -q -o "$out" "$@" >/dev/null 2>"$T/rec.err" ||
			{ cat "$T/rec.err"; echo "perf record failed"; exit 2; }
		return
	fi
	HOME=$home "$PRF" record -q -o "$out" "$@" >/dev/null 2>"$T/rec.err"
	rc=$?
	[ $rc -eq 0 ] || { cat "$T/rec.err"; fail "prf record $* exit $rc"; }
	[ ! -s "$T/rec.err" ] || { cat "$T/rec.err"; fail "prf record $* said something"; }
}

# 1. --buildid-all: the same tree and probes files as perf's
for p in "${progs[@]}"; do
	rec perf "$T/hperf" "$T/perf.data" --buildid-all "$p"
	rec prf "$T/hprf" "$T/prf.data" --buildid-all "$p"
done
tree "$T/hperf/.debug" > "$T/tree.perf"
tree "$T/hprf/.debug" > "$T/tree.prf"
cmp -s "$T/tree.perf" "$T/tree.prf" || { diff "$T/tree.perf" "$T/tree.prf"; fail "--buildid-all: cache trees differ"; }
for f in kallsyms vdso elf probes; do
	grep -q "^f [0-7]* .*/$f $" "$T/tree.prf" || fail "no $f file in the cache"
done
grep -q "^l 777 ./.build-id/../.* \.\./\.\.$T/libw.so/" "$T/tree.prf" || fail "no link to libw.so's entry"
n=0
while read -r p; do
	cmp "$T/hperf/.debug/$p" "$T/hprf/.debug/$p" || fail "$p differs"
	n=$((n + $(wc -l < "$T/hprf/.debug/$p")))
done < <(cd "$T/hprf/.debug" && find . -name probes -type f)
[ ${#progs[@]} -eq 1 ] || [ $n -gt 0 ] || fail "no SDT probes cached for sdt-prog"
cmp "$T/libw.so" "$T"/hprf/.debug"$T"/libw.so/*/elf || fail "libw.so's elf is not the file"
v=$(ls "$T"/hprf/.debug/\[vdso\]/*/vdso)
[ "$("$PRF" buildid-list -i "$v" 2>/dev/null)" = "$(basename "$(dirname "$v")")" ] ||
	fail "the vdso file's build-id is not its entry's"
echo "ok: --buildid-all: $(grep -c '^l ' "$T/tree.prf") DSOs, the same tree as perf's, $n probes lines the same bytes"

# 2. by default: the DSOs of prf's build-id list, nothing else; again: no copy
rec prf "$T/h2" "$T/p2.data" "$T/prog"
prf_out "$T/bids" buildid-list -i "$T/p2.data"
nr=0
while read -r sbid name; do
	d=$name
	case $name in \[*) d=/$name ;; esac
	[ "$(readlink "$T/h2/.debug/.build-id/${sbid:0:2}/${sbid:2}")" = "../..$d/$sbid" ] ||
		fail "$name ($sbid) not linked in the cache"
	nr=$((nr + 1))
done < "$T/bids"
grep -q "libw.so$" "$T/bids" && grep -q "kernel.kallsyms" "$T/bids" || { cat "$T/bids"; fail "build-id list"; }
[ "$(find "$T/h2/.debug/.build-id" -type l | wc -l)" -eq "$nr" ] ||
	{ tree "$T/h2/.debug"; fail "the cache holds more than the $nr DSOs of the build-id list"; }
k=$(ls "$T"/h2/.debug/\[kernel.kallsyms\]/*/kallsyms)
before=$(stat -c '%i %Y' "$k")
tree "$T/h2/.debug" > "$T/tree.1"
sleep 1
rec prf "$T/h2" "$T/p2b.data" "$T/prog"
[ "$(stat -c '%i %Y' "$k")" = "$before" ] || fail "kallsyms copied again"
"$PRF" buildid-list -i "$T/p2b.data" | sort - "$T/bids" | uniq > "$T/bids.all"
tree "$T/h2/.debug" > "$T/tree.2"
[ "$(grep -c '^l ' "$T/tree.2")" -eq "$(wc -l < "$T/bids.all")" ] || fail "second record: the cache is not the union"
echo "ok: default: the $nr DSOs hit are cached; a second record leaves the cached ones as they were"

# 3. nothing cached: -N, -B, record.build-id=no-cache / skip, a pipe; as perf
empty() { [ ! -e "$1/.debug" ] || { tree "$1/.debug" | head; fail "$2: a cache was made"; }; }
for tool in perf prf; do
	h=$T/none-$tool
	rec $tool "$h/N" "$T/n.data" -N "$T/prog"
	empty "$h/N" "$tool -N"
	[ "$("$PRF" buildid-list -i "$T/n.data" | grep -c '^[0-9a-f]')" -gt 0 ] || fail "$tool -N wrote no build-ids"
	rec $tool "$h/B" "$T/n.data" -B "$T/prog"
	empty "$h/B" "$tool -B"
	for v in no-cache skip; do
		mkdir -p "$h/$v"
		printf '[record]\n\tbuild-id = %s\n' $v > "$h/$v/.perfconfig"
		(unset PERF_CONFIG; rec $tool "$h/$v" "$T/n.data" "$T/prog") || exit $?
		empty "$h/$v" "$tool record.build-id=$v"
	done
	# (buildid-list names the DSOs hit, without build-ids, as perf's)
	[ "$("$PRF" buildid-list -i "$T/n.data" | grep -c '^[0-9a-f]')" -eq 0 ] || fail "$tool record.build-id=skip wrote build-ids"
	rec $tool "$h/sw" "$T/sw-$tool.data" --switch-output "$T/prog"
	empty "$h/sw" "$tool --switch-output"
	rec $tool "$h/sw2" "$T/sw-$tool.data" --switch-output --no-no-buildid-cache "$T/prog"
	[ -n "$(ls "$h"/sw2/.debug/.build-id/*/* 2>/dev/null)" ] ||
		fail "$tool --switch-output --no-no-buildid-cache: nothing cached"
	mkdir -p "$h/pipe"
	if [ $tool = perf ]; then
		HOME=$h/pipe "$PERF" record -q -o - "$T/prog" 2>/dev/null > "$T/pipe.data"
	else
		HOME=$h/pipe "$PRF" record -q -o - "$T/prog" 2>/dev/null > "$T/pipe.data" || fail "prf record -o -"
	fi
	empty "$h/pipe" "$tool -o -"
done
echo "ok: -N, -B, record.build-id=no-cache and skip, --switch-output (unless --no-no-buildid-cache), -o -: no cache, as perf"

# a cache that cannot be made: a warning, the recording whole, exit 0
HOME=/dev/null/x "$PRF" record -o "$T/w.data" "$T/prog" >/dev/null 2>"$T/w.err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/w.err"; fail "prf record with no cache directory: exit $rc"; }
grep -q "^Warning: .* not added to the build-id cache /dev/null/x/.debug: Not a directory$" "$T/w.err" ||
	{ cat "$T/w.err"; fail "no warning when the cache cannot be made"; }
prf_out "$T/w.rep" report -i "$T/w.data" --stdio -q
grep -q "libw.so  *\[\.\] work$" "$T/w.rep" || fail "the recording made without a cache does not report"
echo "ok: a cache that cannot be made: a warning, exit 0, the file reports"

# 4. report through the cache: libw.so rebuilt, then removed
export HOME=$T/h2
for state in rebuilt removed; do
	if [ $state = rebuilt ]; then
		cc -O1 -g -shared -fPIC -o "$T/libw.so" "$T/lib2.c" || fail "cc lib2.c"
	else
		rm "$T/libw.so"
	fi
	"$PERF" report -i "$T/p2.data" --stdio -q > "$T/r.perf" 2>/dev/null
	prf_out "$T/r.prf" report -i "$T/p2.data" --stdio -q
	grep -q "libw.so  *\[\.\] work$" "$T/r.prf" || { head "$T/r.prf"; fail "$state: work not resolved"; }
	cmp -s "$T/r.perf" "$T/r.prf" || { diff "$T/r.perf" "$T/r.prf" | head; fail "$state: report differs from perf's"; }
done
HOME=$T/empty "$PRF" report -i "$T/p2.data" --stdio -q > "$T/r.none" 2>/dev/null
grep -q "libw.so  *\[\.\] work$" "$T/r.none" && fail "work resolved without the cache (the test proves nothing)"
echo "ok: report resolves libw.so through the cache after a rebuild and a removal, as perf report"
