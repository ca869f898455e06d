#!/bin/bash
# make install DESTDIR=...: exactly the binary, man pages (rendered by man without warnings), HTML and text pages, bash and zsh completion, the Python plugin and modules, the shell tests; the staged prf runs, shows its man page and runs the staged tests (skipping those that need the source tree); make uninstall removes it all; bash completion of commands, options and events; prf help -a
# prf-test: needs-source: runs make install and make uninstall in the source tree
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
need make man asciidoctor install
tmp_dir install-staged
cd "$T" || exit 1

# the binary under test and its Python plugin are installed as they are
# (-o: never rebuilt, even when older than their sources); the
# pages are built into a directory of the test's own
mk() { make --no-print-directory -s -C "$PRF_SRCDIR" -o "$PRF" -o "$PRF-python.so" BIN="$PRF" O="$T/o" \
	DESTDIR="$T/stage" "$@"; }
mk install > make.out 2>&1 || { tail -20 make.out; fail "make install"; }
grep -i warn make.out && fail "make install warned"

(cd stage && find . -type f -o -type l | sort) > got
{
	echo ./usr/local/bin/prf
	echo ./usr/local/share/bash-completion/completions/prf
	echo ./usr/local/share/zsh/vendor-completions/_prf
	# script -s: the Python plugin (when built) and prf's helper modules
	if [ -e "$(readlink -f "$PRF")-python.so" ]; then
		echo ./usr/local/lib/prf/prf-python.so
		for m in "$PRF_SRCDIR"/scripting/exec/scripts/python/Perf-Trace-Util/lib/Perf/Trace/*.py; do
			echo "./usr/local/lib/prf/exec/scripts/python/Perf-Trace-Util/lib/Perf/Trace/${m##*/}"
		done
	fi
	# the shell tests and everything of their lib/ (the installed prf test)
	(cd "$PRF_SRCDIR" && find tests/shell -type f ! -path '*/__pycache__/*') |
		sed 's|^|./usr/local/lib/prf/|'
	for f in "$PRF_SRCDIR"/Documentation/prf*.txt; do
		n=$(basename "$f" .txt)
		s=$(sed -n '1s/.*(\([0-9]\)).*/\1/p' "$f")
		[ -n "$s" ] || fail "$f: no section in its title line"
		echo "./usr/local/share/man/man$s/$n.$s"
		echo "./usr/local/share/doc/prf/html/$n.html"
		echo "./usr/local/share/doc/prf/$n.txt"
	done
} | sort > want
cmp -s want got || { diff want got; fail "staged files differ from the list"; }
echo "ok: $(wc -l < got) files staged"

# every page renders without a warning and names itself
for p in stage/usr/local/share/man/man*/*; do
	n=$(basename "$p"); n=${n%.*}
	w=$(MANWIDTH=80 man -l --warnings "$p" 2>&1 >/dev/null)
	[ -z "$w" ] || fail "$p: $w"
	MANWIDTH=80 man -l "$p" 2>/dev/null | grep -q "^ *$n - " || fail "$p: no NAME line for $n"
done
echo "ok: man pages render"

# the staged binary runs, and shows its man page (beside it) through man
S=$T/stage/usr/local/bin/prf
"$S" version | grep -q '^prf version' || fail "staged prf version"
"$S" help report > help.out 2>&1 || fail "staged prf help report"
grep -q '^PRF-REPORT(1) ' help.out || { head -5 help.out; fail "staged help shows no man page"; }
"$S" report --help 2>&1 | grep -q '^PRF-REPORT(1) ' || fail "staged report --help shows no man page"
# without its man page: the text page installed beside it
rm "$T/stage/usr/local/share/man/man1/prf-report.1"
"$S" help report 2>&1 | grep -q '^prf-report(1)$' || fail "staged help falls back to no text"
# from the source tree: the text, as before
"$PRF" help report | head -1 | grep -q '^prf-report(1)$' || fail "checkout help shows no text"
echo "ok: prf help"

# the staged prf test finds the staged shell tests (not the checkout's):
# it runs one planted beside them, which sees PRF_SRCDIR there with
# lib/setup.sh, and skips one that needs the source tree, saying why
L=$T/stage/usr/local/lib/prf
printf '#!/bin/bash\n# staged probe\n. "$PRF_SRCDIR/tests/shell/lib/setup.sh"\necho "srcdir=$PRF_SRCDIR"\n' \
	> "$L/tests/shell/staged-probe.sh"
"$S" test list > list.out 2>&1 || fail "staged prf test list"
grep -Eq '^ *[0-9]+: staged-probe ' list.out || fail "staged prf test lists no staged-probe"
grep -Eq '^ *[0-9]+: source-layers .*\(needs source\)$' list.out ||
	fail "staged prf test list: source-layers not marked (needs source)"
"$S" test -v staged-probe source-layers > run.out 2>&1 || { cat run.out; fail "staged prf test"; }
[ "$(grep '^srcdir=' run.out)" = "srcdir=$T/stage/usr/local/bin/../lib/prf" ] ||
	{ cat run.out; fail "staged tests ran with another PRF_SRCDIR"; }
grep -Eq 'staged probe +: Ok$' run.out || { cat run.out; fail "staged probe did not pass"; }
grep -Eq ': Skip \(needs the source tree: runs scripts/check-layers.py' run.out ||
	{ cat run.out; fail "staged source-layers not skipped for the source tree"; }
echo "ok: staged prf test runs the staged tests"

mk uninstall > make.out 2>&1 || { cat make.out; fail "make uninstall"; }
left=$(cd stage && find . -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
echo "ok: uninstall"

# every command in help -a and --list-cmds; --list-opts exits 0
"$PRF" --list-cmds > cmds || fail "--list-cmds"
for c in $(cat cmds); do
	"$PRF" help -a | grep -Eq "^   $c +" || fail "help -a lacks $c"
done
for co in record:--event= report:--input= script:--input= stat:--event= list:--raw-dump; do
	c=${co%%:*}
	"$PRF" $c --list-opts > opts 2>&1 || fail "$c --list-opts exit $?"
	grep -qx -- "${co#*:}" opts || fail "$c --list-opts lacks ${co#*:}: $(head -3 opts)"
done

# bash completion, driven in a bash that sources the file
mkdir -p bin && ln -s "$PRF" bin/prf
comp() { # WORD...: the candidates for the last word
	PATH=$T/bin:$PATH bash -c 'source "$1"; shift; COMP_WORDS=("$@");
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _prf; printf "%s\n" "${COMPREPLY[@]}"' \
		comp "$PRF_SRCDIR/completion/prf.bash" "$@"
}
[ "$(comp prf rec)" = record ] || fail "prf rec<TAB>: $(comp prf rec)"
[ "$(comp prf report --so)" = --sort= ] || fail "prf report --so<TAB>: $(comp prf report --so)"
comp prf record -e cpu-c | grep -qx cpu-clock || fail "prf record -e cpu-c<TAB>"
comp prf record -e sched:sched_sw | grep -qx sched:sched_switch || fail "-e sched:sched_sw<TAB>"
[ "$(comp prf help st)" = stat ] || fail "prf help st<TAB>: $(comp prf help st)"
[ "$(comp prf data dump --in)" = --input= ] || fail "prf data dump --in<TAB>"
touch perf.data.old
comp prf report -i perf.data | grep -qx perf.data.old || fail "prf report -i <TAB> lists no file"
echo "ok: bash completion"
exit 0
