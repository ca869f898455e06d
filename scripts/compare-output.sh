#!/bin/bash
# compare-output.sh: are two prf binaries' outputs byte-identical?
#
# usage: scripts/compare-output.sh [-k DIR] [-r] [-n] [-s ERE] [-j N] [-q]
#                                  OLD_PRF NEW_PRF
#
#   -k DIR  corpus directory (default .compare-corpus/ at the top of the
#           current git tree); recorded on the first run, reused after
#   -r      record the corpus again even if DIR holds a complete one
#   -n      run OLD afresh instead of using its outputs cached in DIR
#           (needed when OLD is a wrapper script whose target changed)
#   -s ERE  only the comparisons whose "RECORDING COMMAND" matches the
#           extended regular expression, e.g. -s 'perf-dwarf script'
#   -j N    recordings compared in parallel (default 2)
#   -q      print only the comparisons that are not "same"
#
# The corpus (the C program in this script, work_c below, built with gcc -O2 -g
# -fno-omit-frame-pointer, with inlined functions and a sleeping mode, and a
# python3 loop) is recorded once with OLD_PRF and with perf ($PERF, default
# /usr/bin/perf): no callchain, FP (-g), DWARF, python3 DWARF, scheduler
# tracepoints, prf --off-cpu, zstd-compressed, and pipe-mode files
# (record -o - > X.data, read back through a pipe, cat X.data | prf ... -i -,
# and for a few commands as a redirected file, prf ... -i - < X.data).
# The recordings are inputs only: made once, they serve any OLD and NEW.
#
# Every read command of the list below (report, script, --folded,
# flamegraph HTML and SVG, data dump/header/stats) then runs on every
# recording: twice with OLD_PRF (kept in DIR for the next runs with the
# same OLD_PRF), once with NEW_PRF, each time in the same scratch directory
# with the same arguments. Compared byte for byte: stdout, stderr, the exit
# status, and the file a command writes (flamegraph -o). One field is
# filtered, the header's "captured on" date when the input is a pipe (see
# run below). One line per comparison:
#   same      NEW's output is OLD's ("both exit N" when both failed alike)
#   DIFF      it is not; the first differing lines follow (diff OLD NEW)
#   unstable  OLD's two runs differ from each other (or a fresh OLD run
#             from the cached one), so the comparison says nothing; the
#             differing part is named
# then a count. Exit status: 0 all same (unstable ones allowed, and
# counted), 1 any DIFF, 2 setup failure (a binary or tool missing, a
# recording failed).
#
# A typical use around a change:
#   make -j2 && cp prf /tmp/prf.old     # before it
#   make -j2 && scripts/compare-output.sh /tmp/prf.old ./prf   # after it
# The first run records (about 30 s) and runs OLD twice per comparison; the
# next ones with the same OLD run only NEW (about a minute).
set -u

# The cache goes to the top of the git tree the script is run in (or the
# current directory), so a copy of this script outside the tree works too.
dir=$(git rev-parse --show-toplevel 2>/dev/null || pwd)/.compare-corpus
rerecord=0
use_cache=1
select=
jobs=2
quiet=0
PERF=${PERF:-/usr/bin/perf}
timeout=300
# Bumped when the recording recipe below changes, so an old cache is redone.
corpus_version=1

usage() {
	sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"
	exit "$1"
}
die() { echo "compare-output: $*" >&2; exit 2; }

while getopts k:rns:j:qh opt; do
	case $opt in
	k) dir=$OPTARG ;;
	r) rerecord=1 ;;
	n) use_cache=0 ;;
	s) select=$OPTARG ;;
	j) jobs=$OPTARG ;;
	q) quiet=1 ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage 2

abspath() {
	case $1 in
	*/*) (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")") ;;
	*) command -v "$1" ;;
	esac
}
OLD=$(abspath "$1")
NEW=$(abspath "$2")
[ -f "$OLD" ] && [ -x "$OLD" ] || die "OLD_PRF '$1' is not an executable"
[ -f "$NEW" ] && [ -x "$NEW" ] || die "NEW_PRF '$2' is not an executable"
[ -x "$PERF" ] || die "no perf at $PERF (set PERF=)"
command -v gcc >/dev/null || die "gcc not found"
command -v python3 >/dev/null || die "python3 not found"
command -v timeout >/dev/null || die "timeout (coreutils) not found"
case $jobs in '' | *[!0-9]* | 0) die "-j wants a positive number" ;; esac

# Same environment for every run: no pager, C locale.
export LC_ALL=C LANG=C PAGER=cat PRF_PAGER=cat

mkdir -p "$dir" || die "cannot create $dir"
# The cache keeps itself out of git status.
[ -e "$dir/.gitignore" ] || echo '*' >"$dir/.gitignore"
# One run at a time per corpus: the scratch directories are shared.
exec 9>"$dir/.lock"
flock -n 9 || die "another compare-output.sh is using $dir"
dir=$(cd "$dir" && pwd)

# ---------------------------------------------------------------- recording

# rec NAME TOOL RECORD-ARGS... -- WORKLOAD...: record DIR/NAME.data; a
# NAME with "pipe" in it is recorded in pipe mode (record -o - > NAME.data)
rec() {
	local name=$1 tool=$2 ok=1
	shift 2
	echo "recording $name" >&2
	if [ "${name#*pipe}" != "$name" ]; then
		(cd "$dir" && "$tool" record -o - "$@" >"$name.data") 2>"$dir/$name.log" || ok=0
	else
		(cd "$dir" && "$tool" record -o "$name.data" "$@") >"$dir/$name.log" 2>&1 || ok=0
	fi
	if [ $ok = 0 ]; then
		cat "$dir/$name.log" >&2
		die "recording $name failed (log: $dir/$name.log)"
	fi
	[ -s "$dir/$name.data" ] || die "recording $name is empty"
}

# work_c: the workload's C source
work_c() {
	cat <<'EOF'
/*
 * Workload for compare-output.sh: a few call paths, some of them
 * inlined (static inline and always_inline) so that DWARF recordings carry
 * inline frames, and a mode that sleeps between slices of work for off-CPU
 * and scheduler tracepoint recordings.
 *
 * Prints nothing: a pipe recording (record -o - > file) shares its stdout.
 *
 * usage: work [MILLISECONDS [sleep]]
 *   MILLISECONDS  how long to run, wall clock (default 1000)
 *   sleep         alternate busy slices with usleep() and nanosleep()
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

static inline unsigned long hash_block(const unsigned char *p, size_t n)
{
	unsigned long h = 1469598103934665603UL;

	for (size_t i = 0; i < n; i++)
		h = mix(h ^ p[i]);
	return h;
}

__attribute__((noinline)) static unsigned long leaf_sum(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += mix(i);
	return s;
}

__attribute__((noinline)) static unsigned long hasher(unsigned long rounds)
{
	unsigned char buf[256];
	unsigned long h = 0;

	memset(buf, 7, sizeof(buf));
	for (unsigned long r = 0; r < rounds; r++) {
		buf[r & 255] = (unsigned char)r;
		h += hash_block(buf, sizeof(buf));
	}
	return h;
}

__attribute__((noinline)) static unsigned long middle(unsigned long n)
{
	return leaf_sum(n) + hasher(n / 256);
}

__attribute__((noinline)) static unsigned long top(unsigned long n)
{
	return middle(n) + leaf_sum(n / 2);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void nap(int i)
{
	if (i & 1) {
		usleep(2000);
	} else {
		struct timespec ts = { 0, 3000000 };

		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000;
	int sleepy = argc > 2 && !strcmp(argv[2], "sleep");
	double end = now_ms() + ms;

	for (int i = 0; now_ms() < end; i++) {
		sink += top(20000);
		if (sleepy)
			nap(i);
	}
	return 0;
}
EOF
}

record_corpus() {
	local w=$dir/work
	local py='s = 0
for i in range(3000000):
    s += i * i % 7'

	rm -rf "$dir"/*.data "$dir"/*.log "$dir/.complete" "$dir"/old-*
	work_c >"$dir/work.c"
	gcc -O2 -g -fno-omit-frame-pointer -o "$w" "$dir/work.c" ||
		die "cannot build $dir/work.c"

	local t
	for t in prf perf; do
		local bin=$OLD
		[ $t = perf ] && bin=$PERF
		rec "$t-plain" "$bin" -- "$w" 500
		rec "$t-fp" "$bin" -g -- "$w" 1000
		rec "$t-dwarf" "$bin" --call-graph dwarf -F 999 -- "$w" 700
		rec "$t-python" "$bin" --call-graph dwarf -F 499 -- python3 -c "$py"
		rec "$t-sched" "$bin" -e sched:sched_switch -e sched:sched_wakeup -g -- "$w" 400 sleep
		rec "$t-zstd" "$bin" -z -g -- "$w" 400
		rec "$t-pipe" "$bin" -g -- "$w" 500
		rec "$t-pipe-dwarf" "$bin" --call-graph dwarf -F 499 -- "$w" 400
	done
	rec prf-offcpu "$OLD" --off-cpu -g -- "$w" 700 sleep
	echo "$corpus_version" >"$dir/.complete"
}

if [ $rerecord = 1 ] || [ "$(cat "$dir/.complete" 2>/dev/null)" != "$corpus_version" ]; then
	record_corpus
fi

# ---------------------------------------------------------------- comparing

# The read commands, one a line. "-i FILE" is appended to each; a pipe-mode
# recording gets "-i -" and comes through a pipe (cat FILE | prf ...), or,
# for the commands marked "<", as a redirected regular file (prf ... -i -
# < FILE), which the reader takes another way. @OUT@ stands for a file the
# command writes, compared as well.
commands='report --stdio
report --stdio --no-children
report --stdio --children
report --stdio -g caller
report --stdio -s dso,sym
report --stdio -s srcline
report --stdio --sort comm,pid
report --stats
report --header-only
script
script -F +srcline
script -F comm,tid,time,event,ip,sym,dso
script --folded
flamegraph -o @OUT@.html
flamegraph -o @OUT@.svg
data dump
data header
data stats'

# Extra commands for one kind of recording.
extra_commands() {
	case $1 in
	*offcpu) printf '%s\n' 'flamegraph --off-cpu -o @OUT@.html' 'flamegraph --on-cpu -o @OUT@.svg' ;;
	*dwarf | *python) printf '%s\n' 'flamegraph --no-inline -o @OUT@.html' 'script --folded --no-inline' ;;
	esac
	case $1 in
	*pipe*) printf '%s\n' '< report --stdio' '< script' '< script --folded' '< data dump' ;;
	esac
}

# run BIN RESULT-DIR REC CMD...: run one command in DIR/scratch/REC (the
# same path for every run of that recording, cached ones too), saving
# stdout, stderr, the exit status and the written file in RESULT-DIR.
run() {
	local bin=$1 res=$2 rec=$3
	shift 3
	local scratch=$dir/scratch/$rec out=
	local args=() a redirect=0
	rm -rf "$scratch" "$res"
	mkdir -p "$scratch" "$res"
	[ "$1" = "<" ] && redirect=1 && shift
	for a in "$@"; do
		case $a in
		@OUT@*) out=$scratch/out${a#@OUT@}; a=$out ;;
		esac
		args+=("$a")
	done
	# A command running past $timeout seconds is killed (status 124).
	if [ $redirect = 1 ]; then
		(cd "$scratch" && timeout "$timeout" "$bin" "${args[@]}" -i - <"$dir/$rec.data")
	elif [ "${rec#*pipe}" != "$rec" ]; then
		# shellcheck disable=SC2002 # cat: stdin must be a pipe, not the file
		(cd "$scratch" && cat "$dir/$rec.data" | timeout "$timeout" "$bin" "${args[@]}" -i -)
	else
		(cd "$scratch" && timeout "$timeout" "$bin" "${args[@]}" -i "$dir/$rec.data" </dev/null)
	fi >"$res/stdout" 2>"$res/stderr"
	echo $? >"$res/status"
	# The one filtered field: the header's "captured on" is the input's
	# st_mtime (fstat), which for a pipe is the time cat last wrote to it,
	# so it changes from run to run; for a file it is the recording's.
	if [ $redirect = 0 ] && [ "${rec#*pipe}" != "$rec" ]; then
		sed -i 's/^\(# captured on *: \).*/\1(the pipe'"'"'s mtime, filtered)/' "$res/stdout"
	fi
	if [ -n "$out" ]; then
		if [ -e "$out" ]; then mv "$out" "$res/file"; else echo "(no file written)" >"$res/file"; fi
	fi
}

# differing A B: the parts (stdout stderr status file) that differ
differing() {
	local p d=
	for p in stdout stderr status file; do
		[ -e "$1/$p" ] || [ -e "$2/$p" ] || continue
		cmp -s "$1/$p" "$2/$p" || d="$d $p"
	done
	echo "${d# }"
}

# OLD's outputs are kept under DIR/old-KEY/ (KEY: a hash of the OLD file,
# of the PRF_* environment and of this script), so that the next runs against the same OLD
# run only NEW. A cached OLD output that NEW does not match is checked
# against a fresh OLD run before it is called a DIFF.
oldkey=$({ sha256sum <"$OLD"; sha256sum <"$0"; env | grep '^PRF_' | sort; } | sha256sum | cut -c1-16)
oldcache=$dir/old-$oldkey

# old_results REC CMD WORDS...: OLD's two runs of CMD, from the cache or
# run now; prints the directory holding old1/ and old2/, and how.
old_results() {
	local rec=$1 cmd=$2
	shift 2
	local c
	c=$oldcache/$rec/$(printf '%s' "$cmd" | md5sum | cut -c1-16)
	[ $use_cache = 0 ] && c=$work/res-$rec
	if [ $use_cache = 0 ] || [ ! -e "$c/done" ]; then
		rm -rf "$c"
		run "$OLD" "$c/old1" "$rec" "$@"
		run "$OLD" "$c/old2" "$rec" "$@"
		[ $use_cache = 1 ] && printf '%s\n' "$cmd" >"$c/done"
		echo "$c fresh"
	else
		echo "$c cached"
	fi
}

# compare_rec REC: every command on one recording; one result line each
# (tab-separated: verdict, recording, command, detail), difference lines
# after a DIFF.
compare_rec() {
	local rec=$1 cmd line parts p o how status
	local r=$work/res-$rec
	{
		printf '%s\n' "$commands"
		extra_commands "$rec"
	} | while IFS= read -r cmd; do
		[ -z "$select" ] || printf '%s %s\n' "$rec" "$cmd" | grep -qE -- "$select" || continue
		read -ra line <<<"$cmd"
		read -r o how < <(old_results "$rec" "$cmd" "${line[@]}")
		parts=$(differing "$o/old1" "$o/old2")
		if [ -n "$parts" ]; then
			printf 'unstable\t%s\t%s\t(OLD run twice differs in: %s)\n' "$rec" "$cmd" "$parts"
			continue
		fi
		run "$NEW" "$r/new" "$rec" "${line[@]}"
		parts=$(differing "$o/old1" "$r/new")
		if [ -n "$parts" ] && [ "$how" = cached ]; then
			run "$OLD" "$r/old3" "$rec" "${line[@]}"
			p=$(differing "$o/old1" "$r/old3")
			if [ -n "$p" ]; then
				if [ -z "$(differing "$r/old3" "$r/new")" ]; then p="$p; NEW matches the fresh run"; else p="$p; NEW matches neither"; fi
				printf 'unstable\t%s\t%s\t(a fresh OLD run differs from the cached one in: %s; -n or -r to redo)\n' "$rec" "$cmd" "$p"
				continue
			fi
		fi
		status=$(cat "$o/old1/status")
		if [ -z "$parts" ]; then
			# A command both binaries fail alike is still "same"; the
			# line says so, as a failing command compares little.
			if [ "$status" = 0 ]; then
				printf 'same\t%s\t%s\n' "$rec" "$cmd"
			else
				printf 'same\t%s\t%s\t(both exit %s)\n' "$rec" "$cmd" "$status"
			fi
			continue
		fi
		printf 'DIFF\t%s\t%s\t(%s)\n' "$rec" "$cmd" "$parts"
		for p in $parts; do
			echo "    --- $p: diff OLD NEW"
			diff -a "$o/old1/$p" "$r/new/$p" | head -n 12 | cut -c1-200 | sed 's/^/    /'
		done
	done >"$work/$rec.out"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/compare-output.XXXXXX") || die "no temp dir"
trap 'rm -rf "$work"' EXIT

# Only the caches of the two OLD binaries used last are kept.
if [ $use_cache = 1 ]; then
	mkdir -p "$oldcache" && touch "$oldcache"
	ls -dt "$dir"/old-* | tail -n +3 | xargs -r rm -rf
fi

recs=$(cd "$dir" && ls -- *.data | sed 's/\.data$//' | sort)
[ -n "$recs" ] || die "no recordings in $dir"

echo "OLD $OLD"
echo "NEW $NEW"
echo "corpus $dir"
# Up to $jobs recordings at a time; their results are printed in order.
running=0
for rec in $recs; do
	compare_rec "$rec" &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

same=0 diffs=0 unstable=0
for rec in $recs; do
	while IFS= read -r line; do
		case $line in
		same*) same=$((same + 1)); [ $quiet = 1 ] && continue ;;
		DIFF*) diffs=$((diffs + 1)) ;;
		unstable*) unstable=$((unstable + 1)) ;;
		esac
		printf '%s\n' "$line" | awk -F'\t' 'NF >= 3 { printf "%-8s %-16s %s%s\n", $1, $2, $3, (NF > 3 ? "  " $4 : ""); next } { print }'
	done <"$work/$rec.out"
done
echo "$((same + diffs + unstable)) compared: $same same, $diffs DIFF, $unstable unstable"
[ $((same + diffs + unstable)) -gt 0 ] || die "nothing compared (-s '$select' matches no comparison)"
[ $diffs -eq 0 ]
