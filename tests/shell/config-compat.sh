#!/bin/bash
# prf config and ~/.perfconfig as perf 6.1: get/set/list on the same files, the report.* and call-graph.* keys change report exactly as perf's, the record keys, prf.* tunables, bad lines
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup config-compat
cd "$T" || exit 1
config_home

cat > t.c <<'C'
static volatile long s;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) s += i; }
__attribute__((noinline)) void mid(int n) { leaf(n); leaf(n / 2); }
__attribute__((noinline)) void other(int n) { for (int i = 0; i < n; i++) s ^= i; }
int main(void) { for (int k = 0; k < 200; k++) { mid(200000); other(100000); } return 0; }
C
cc -O0 -g -fno-omit-frame-pointer -o t t.c || fail "cc"
perf_record perf.data -F 999 -g ./t

# get, set, list: the same file and the same output as perf config
for tool in perf prf; do
	if [ $tool = perf ]; then bin=$PERF; else bin=$PRF; fi
	rm -f "$HOME/.perfconfig"
	"$bin" config report.children=false > $tool.out 2>&1 || fail "$tool config set"
	"$bin" config --user report.sort_order=dso,sym >> $tool.out 2>&1 || fail "$tool config --user set"
	cp "$HOME/.perfconfig" $tool.file
	"$bin" config report.children >> $tool.out 2>&1 || fail "$tool config get"
	"$bin" config nosuch.key >> $tool.out 2>&1 || fail "$tool config get unset"
	"$bin" config -l >> $tool.out 2>&1 || fail "$tool config -l"
	"$bin" config >> $tool.out 2>&1 || fail "$tool config"
	cat > "$HOME/.perfconfig" <<'CFG'
# comment
; another
[Report]
	Children = false   # trailing comment
	percent-limit = "5"
[colors]
	top = red, default
[call-graph]
        record-mode = dwarf
CFG
	"$bin" config -l >> $tool.out 2>&1 || fail "$tool config -l (hand-written file)"
	"$bin" config colors.top=blue report.queue-size=10 >> $tool.out 2>&1 || fail "$tool config set two"
	cat "$HOME/.perfconfig" >> $tool.out
done
cmp -s perf.file prf.file || { diff perf.file prf.file; fail "written files differ"; }
cmp -s perf.out prf.out || { diff perf.out prf.out; fail "config get/set/list differ from perf"; }
echo "ok: config get/set/list as perf ($(wc -l < prf.out) lines)"

# a subsection and a value with outer blanks read back as written (perf
# 6.1 writes both back wrong: "[a]" with "Sub.x =  sp ", a documented
# difference)
printf '[a "Sub"]\n\tx = " sp "\n' > "$HOME/.perfconfig"
"$PRF" config a.Sub.y=2 || fail "set in a subsection"
[ "$("$PRF" config -l)" = "$(printf 'a.Sub.x= sp \na.Sub.y=2')" ] ||
	{ cat "$HOME/.perfconfig"; "$PRF" config -l; fail "subsection round trip"; }

out=$("$PRF" config foo 2>&1); rc=$?
[ $rc -eq 129 ] || fail "key without a section: exit $rc"
echo "$out" | grep -q "does not contain a section name: foo" || fail "message: $out"

# the keys report honours: the same output as perf with the same file
nr=0
for kv in "report.children=false" "report.percent-limit=20" "report.sort_order=dso,sym" \
	  "call-graph.print-type=flat" "call-graph.order=callee" "call-graph.threshold=30" \
	  "call-graph.print-limit=1" "call-graph.print-type=graph call-graph.order=caller" \
	  "report.children=no call-graph.print-type=folded"; do
	rm -f "$HOME/.perfconfig"
	"$PERF" config $kv || fail "perf config $kv"
	"$PERF" report -i perf.data --stdio 2>/dev/null | grep -v '^# (Tip' > perf.rep
	prf_out prf.rep report -i perf.data --stdio
	grep -v '^# (Tip' prf.rep > prf.rep2
	cmp -s perf.rep prf.rep2 || { diff perf.rep prf.rep2 | head -20; fail "report with $kv differs"; }
	nr=$((nr + 1))
done
# the command line wins over the file
"$PERF" report -i perf.data --stdio --children 2>/dev/null | grep -v '^# (Tip' > perf.rep
prf_out prf.rep report -i perf.data --stdio --children
grep -v '^# (Tip' prf.rep | cmp -s - perf.rep || fail "--children does not win over the file"
"$PRF" report -i perf.data --stdio > def.rep 2>/dev/null
PERF_CONFIG=/dev/null "$PRF" report -i perf.data --stdio > none.rep 2>/dev/null
cmp -s def.rep none.rep && fail "report ignores ~/.perfconfig"
echo "ok: $nr report configurations as perf's"

# annotate.*: each key gives what its option gives (perf's stdio output
# changes with these three; annotate-stdio.sh compares the options with perf)
rm -f "$HOME/.perfconfig"
prf_out ann.def annotate --stdio -i perf.data leaf
for ko in "annotate.show_nr_samples=true:-n" "annotate.show_total_period=true:--show-total-period" \
	  "annotate.disassembler_style=intel:-M intel"; do
	rm -f "$HOME/.perfconfig"
	"$PRF" config "${ko%%:*}" || fail "config ${ko%%:*}"
	prf_out ann.key annotate --stdio -i perf.data leaf
	PERF_CONFIG=/dev/null "$PRF" annotate --stdio -i perf.data ${ko#*:} leaf > ann.opt 2>/dev/null ||
		fail "annotate ${ko#*:}"
	cmp -s ann.key ann.opt || { diff ann.opt ann.key | head; fail "${ko%%:*} is not ${ko#*:}"; }
	cmp -s ann.key ann.def && fail "${ko%%:*} changes nothing"
done
echo "ok: annotate.show_nr_samples, show_total_period, disassembler_style"

# the keys record honours
rm -f "$HOME/.perfconfig"
"$PRF" config call-graph.record-mode=dwarf call-graph.dump-size=4096 record.build-id=skip
"$PRF" record -q -F 199 -g -o dw.data ./t 2>rec.err || { cat rec.err; fail "prf record -g"; }
"$PERF" evlist -v -i dw.data > dw.evlist 2>&1
grep -q 'STACK_USER' dw.evlist && grep -q 'sample_stack_user: 4096' dw.evlist ||
	{ cat dw.evlist; fail "call-graph.record-mode/dump-size not used by record -g"; }
"$PERF" report -i dw.data --header-only 2>/dev/null | grep '^# missing features' | grep -qw BUILD_ID ||
	fail "record.build-id=skip wrote build-ids"
"$PRF" record -q -F 199 --call-graph fp -o fp.data ./t 2>/dev/null || fail "record --call-graph fp"
"$PERF" evlist -v -i fp.data | grep -q STACK_USER && fail "--call-graph fp does not win over the file"
rm -f "$HOME/.perfconfig"
"$PRF" record -q -F 199 -o b.data ./t 2>/dev/null || fail "record"
"$PERF" report -i b.data --header-only 2>/dev/null | grep '^# missing features' | grep -qw BUILD_ID &&
	fail "no build-ids by default"
"$PRF" record -q -B -F 199 -o nb.data ./t 2>/dev/null || fail "record -B"
"$PERF" report -i nb.data --header-only 2>/dev/null | grep '^# missing features' | grep -qw BUILD_ID ||
	fail "record -B wrote build-ids"
echo "ok: call-graph.record-mode, call-graph.dump-size, record.build-id, -B"

# buildid.dir: perf's build-id cache moved elsewhere, the binary gone
rm -f "$HOME/.perfconfig"
mkdir -p gone && cp t gone/t2 && (cd gone && perf_record ../cache.data -F 499 ./t2)
[ -d "$HOME/.debug/.build-id" ] || fail "perf record made no build-id cache in $HOME/.debug"
mv "$HOME/.debug" "$T/bcache" && rm gone/t2
"$PERF" config buildid.dir="$T/bcache"
"$PERF" report -i cache.data --stdio --sort sym 2>/dev/null | grep -v '^# (Tip' > perf.rep
prf_out prf.rep report -i cache.data --stdio --sort sym
grep -q '\[\.\] leaf' perf.rep || fail "perf found no symbols through buildid.dir"
grep -v '^# (Tip' prf.rep | cmp -s - perf.rep ||
	{ grep -v '^# (Tip' prf.rep | diff perf.rep - | head; fail "report with buildid.dir differs"; }
echo "ok: buildid.dir"

# prf.* keys: the tunables' user settings, in ~/.prfconfig; the environment wins
"$PRF" config prf.threads=3 || fail "config prf.threads"
[ -f "$HOME/.prfconfig" ] || fail "prf.* key not in ~/.prfconfig"
grep -q "^\\[prf\\]" "$HOME/.perfconfig" 2>/dev/null && fail "prf.* key in ~/.perfconfig"
"$PRF" version --build-options | grep -Eq '^ *PRF_THREADS +int +3 ' || fail "prf.threads not used"
PRF_THREADS=2 "$PRF" version --build-options | grep -Eq '^ *PRF_THREADS +int +2 ' ||
	fail "PRF_THREADS does not win over prf.threads"
echo "ok: prf.threads"

# a bad line: named with its file and line; config fails, report says so
printf '[report]\n\tchildren = false\n[bad\n' > "$HOME/.perfconfig"
out=$("$PRF" config -l 2>&1); rc=$?
[ $rc -eq 1 ] || fail "bad file: config -l exit $rc"
echo "$out" | grep -q "bad config line 3 in file $HOME/.perfconfig" || fail "bad line message: $out"
printf '[report]\n\tchildren = maybe\n' > "$HOME/.perfconfig"
out=$("$PRF" report -i perf.data --stdio 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] || fail "bad boolean value: report exit 0"
echo "$out" | grep -q "bad boolean config value 'maybe' for 'report.children'" || fail "message: $out"
echo "ok: bad lines and values"
exit 0
