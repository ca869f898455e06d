#!/bin/bash
# prf buildid-cache writes ~/.debug as perf does and each tool reads the other's entries: -a, -l, -r, -u, -p, -P, -M, buildid.dir, bad input
# A temporary HOME holds the cache. Adds files with prf and with perf
# (Linux perf 6.1, the reference) into separate caches and compares the
# two trees (links, their targets, files); then in one cache each tool
# lists (-l) what the other added, byte for byte, through remove (-r),
# update (-u), purge (-p) and purge-all (-P); -l leaves out an entry whose
# file changed since, as perf does. -M (DSOs of a recording missing from
# the cache) is compared with perf's on an empty cache and on the cache
# perf record filled. buildid.dir in the configuration file moves the
# cache for both tools, $PERF_BUILDID_DIR for neither. Bad input: a missing file or one without a
# build-id fails (1) with one line, --kcore and unknown options are usage
# errors (129).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup buildid-cache
export HOME=$T/home
mkdir -p "$HOME"

cat > "$T/w.c" <<'C'
int main(void) { return 0; }
C
cc -o "$T/w" "$T/w.c" || fail "cc"
cp /bin/true "$T/t1"

# tree DIR: the cache's entries, one "type path link-target" line each
tree() { (cd "$1" && find . -printf '%y %p %l\n' | sort); }
# same_list: perf -l and prf -l print the same; the list in $T/l
same_list() {
	"$PERF" buildid-cache -l > "$T/want" 2>/dev/null
	prf_out "$T/l" buildid-cache -l
	cmp -s "$T/want" "$T/l" || { diff "$T/want" "$T/l"; fail "-l differs from perf's ($1)"; }
}

HOME=$T/h1 "$PRF" buildid-cache -a "$T/t1,$T/w" 2>"$T/err" || { cat "$T/err"; fail "prf -a"; }
HOME=$T/h2 "$PERF" buildid-cache -a "$T/t1,$T/w" 2>/dev/null
tree "$T/h1/.debug" > "$T/tree1"
tree "$T/h2/.debug" > "$T/tree2"
cmp -s "$T/tree2" "$T/tree1" || { diff "$T/tree2" "$T/tree1"; fail "cache trees differ"; }
grep -q "^l ./.build-id/[0-9a-f/]* \.\./\.\.$T/w/" "$T/tree1" || fail "no relative link to the entry"
echo "ok: prf -a writes the tree perf -a writes ($(wc -l < "$T/tree1") entries)"

prf_out "$T/out" buildid-cache -a "$T/t1"
"$PERF" buildid-cache -a "$T/w" 2>/dev/null
same_list "each added one"
[ "$(wc -l < "$T/l")" -eq 2 ] || fail "-l: want 2 entries, got $(cat "$T/l")"
prf_out "$T/out" buildid-cache -r "$T/t1"
same_list "after prf -r"
grep -q "$T/t1" "$T/l" && fail "-r left $T/t1 listed"
"$PRF" buildid-cache -r "$T/t1" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "wasn't in the cache" "$T/err" || fail "-r of an uncached file: exit $rc, $(cat "$T/err")"
prf_out "$T/out" buildid-cache -u "$T/w"
same_list "after prf -u"
grep -q "$T/w\$" "$T/l" || fail "-u lost $T/w"
prf_out "$T/out" buildid-cache -p "$T/w"
same_list "after prf -p"
[ -s "$T/l" ] && fail "-p left entries: $(cat "$T/l")"
"$PERF" buildid-cache -a "$T/t1,$T/w" 2>/dev/null
prf_out "$T/out" buildid-cache -P
same_list "after prf -P"
[ -z "$(find "$HOME/.debug/.build-id" -type l)" ] || fail "-P left links"
echo "ok: -l as perf's after -a, -r, -u, -p, -P of either tool"

prf_out "$T/out" buildid-cache -a "$T/w"
echo 'int main(void) { return 1; }' > "$T/w.c"
cc -o "$T/w" "$T/w.c" || fail "cc"
same_list "the file changed"
[ -s "$T/l" ] && fail "-l lists a changed file: $(cat "$T/l")"
echo "ok: -l leaves out an entry whose file changed"

perf_record "$T/perf.data" -e cpu-clock -- "$T/t1"
HOME=$T/h3 "$PERF" buildid-cache -M "$T/perf.data" > "$T/want" 2>/dev/null
HOME=$T/h3 "$PRF" buildid-cache -M "$T/perf.data" > "$T/got" 2>"$T/err" || { cat "$T/err"; fail "-M"; }
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "-M on an empty cache differs"; }
[ -s "$T/got" ] || fail "-M on an empty cache lists nothing"
# a cache of this test's own that perf record filled (the user's ~/.debug
# changes under tests running beside this one)
mkdir -p "$T/h4"
HOME=$T/h4 perf_record "$T/perf4.data" -e cpu-clock -- "$T/t1"
HOME=$T/h4 "$PERF" buildid-cache -M "$T/perf4.data" > "$T/want" 2>"$T/want.err"
HOME=$T/h4 prf_out "$T/got" buildid-cache -M "$T/perf4.data"
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "-M on perf record's cache differs"; }
# the kernel's kallsyms is no ELF file: perf warns about it, and so does prf
cmp -s "$T/want.err" "$T/got.err" || { diff "$T/want.err" "$T/got.err"; fail "-M's warnings differ"; }
# (perf caches kallsyms only when the recording's samples hit the kernel,
# which a short run may not do)
grep -q "kallsyms file, consider removing" "$T/want.err" ||
	echo "note: no kernel sample in this recording, so no kallsyms entry to warn about"
echo "ok: -M as perf's ($(wc -l < "$T/got") DSOs on perf record's cache)"

printf '[buildid]\n\tdir = %s\n' "$T/alt" > "$T/config"
PERF_CONFIG=$T/config "$PRF" buildid-cache -a "$T/t1" 2>"$T/err" || { cat "$T/err"; fail "-a with buildid.dir"; }
[ -d "$T/alt/.build-id" ] || fail "buildid.dir: no $T/alt/.build-id"
PERF_CONFIG=$T/config "$PERF" buildid-cache -l > "$T/want" 2>/dev/null
grep -q "$T/t1" "$T/want" || fail "perf -l with buildid.dir does not list prf's entry"
# perf sets $PERF_BUILDID_DIR for the programs it runs but reads it not:
# the cache stays in $HOME/.debug for both
rm -rf "$T/h5" "$T/env"
HOME=$T/h5 PERF_BUILDID_DIR=$T/env "$PRF" buildid-cache -a "$T/t1" 2>"$T/err" ||
	{ cat "$T/err"; fail "-a with PERF_BUILDID_DIR"; }
HOME=$T/h6 PERF_BUILDID_DIR=$T/env "$PERF" buildid-cache -a "$T/t1" 2>/dev/null
[ -e "$T/env" ] && fail "PERF_BUILDID_DIR was used"
tree "$T/h5/.debug" > "$T/tree5"
tree "$T/h6/.debug" > "$T/tree6"
cmp -s "$T/tree6" "$T/tree5" || { diff "$T/tree6" "$T/tree5"; fail "PERF_BUILDID_DIR: trees differ"; }
echo "ok: buildid.dir moves the cache for both; PERF_BUILDID_DIR does not, for either"

"$PRF" buildid-cache -a "$T/none" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "$T/none" "$T/err" || fail "-a of a missing file: exit $rc, $(cat "$T/err")"
"$PRF" buildid-cache -a "$T/w.c" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "w.c: not an ELF file" "$T/err" || fail "-a of a text file: exit $rc, $(cat "$T/err")"
"$PRF" buildid-cache --kcore /proc/kcore 2>"$T/err"
rc=$?
[ $rc -eq 129 ] || fail "--kcore: exit $rc, want 129"
"$PRF" buildid-cache --bogus 2>/dev/null
rc=$?
[ $rc -eq 129 ] || fail "unknown option: exit $rc, want 129"
echo "ok: bad input (1, 129)"
