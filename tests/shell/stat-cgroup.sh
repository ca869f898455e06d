#!/bin/bash
# prf stat -G/--cgroup and --for-each-cgroup against perf 6.1: a spinning program in a cgroup made by the test (cgroup v2, or v1 with perf_event), counts per cgroup in the human, CSV and JSON layouts; usage errors; record -G
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup stat-cgroup
. "$PRF_SRCDIR/tests/shell/lib/stat-compare.sh"

# the hierarchy perf counts in: v1 with perf_event, else cgroup2
mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$mnt" ] || mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$mnt" ] || { echo "no cgroup hierarchy for perf_event"; exit 2; }
CG=prf-test-$$
mkdir "$mnt/$CG" 2>/dev/null || { echo "cannot create a cgroup in $mnt (not root?)"; exit 2; }
# (it also faults a fresh page in now and then, so that its cgroup's
# page-faults count in every run and neither tool prints <not counted>)
cat > "$T/spin.c" <<'C'
#include <sys/mman.h>
int main(void)
{
	volatile unsigned long x = 0;

	for (;;) {
		if (!(++x & 0xfffff)) {
			char *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p != MAP_FAILED) {
				p[0] = 1;
				munmap(p, 4096);
			}
		}
	}
}
C
cc -O1 -o "$T/spin" "$T/spin.c" || fail "cc failed"
# the spinner joins the cgroup before it execs, so all its time counts there
(echo $BASHPID >"$mnt/$CG/cgroup.procs" && exec "$T/spin") &
SPIN=$!
trap 'kill $SPIN 2>/dev/null; wait $SPIN 2>/dev/null; rmdir "$mnt/$CG"; rm -rf "$T"' EXIT
sleep 0.1
grep -qx "$SPIN" "$mnt/$CG/cgroup.procs" || fail "the spinner is not in $mnt/$CG"

# A cgroup's counter runs only while the cgroup's task is on the cpu; how
# much of the enabled time that was depends on the scheduling of the
# moment, so the "(NN.NN%)" running share may show for either tool:
# compared without it.
cg_both() {
	local tag=$1
	stat_run "$@"
	shift
	sed -E 's/ +\([0-9.]+%\)$//; s/ +$//' "$T/perf.$tag" > "$T/perf.$tag.m"
	sed -E 's/ +\([0-9.]+%\)$//; s/ +$//' "$T/prf.$tag" > "$T/prf.$tag.m"
	stat_same "stat $*" "$T/perf.$tag.m" "$T/prf.$tag.m"
}
i=0
for args in "-e cpu-clock,page-faults,duration_time --for-each-cgroup $CG,/" \
	"-e cpu-clock,page-faults,context-switches -G $CG,/" \
	"-x, -e cpu-clock,page-faults,context-switches -G $CG,,/" \
	"-j -e cpu-clock,page-faults --for-each-cgroup $CG,/" \
	"-e {cpu-clock,page-faults} --for-each-cgroup $CG,/" \
	"-e cpu-clock -G $CG -e page-faults -G /"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	cg_both "cg$i" -a $args sleep 0.2
	grep -q "$CG" "$T/prf.cg$i" || fail "no cgroup column in $args: $(cat "$T/prf.cg$i")"
done
# -A: a row per cpu and cgroup (which cpu the spinner ran on varies: no layout comparison)
"$PRF" stat -a -A -e cpu-clock --for-each-cgroup "$CG,/" sleep 0.1 2>"$T/prf.A" || fail "-A: $(cat "$T/prf.A")"
[ "$(grep -cE "^CPU[0-9]+ .* cpu-clock +($CG|/) " "$T/prf.A")" = $((2 * $(getconf _NPROCESSORS_ONLN))) ] ||
	fail "-A rows: $(cat "$T/prf.A")"
# the spinner's cpu-clock counts in its cgroup (the row is not <not counted>)
grep -qE "^ +[0-9.,]+ msec cpu-clock +$CG # " "$T/prf.cg1" || fail "cgroup count: $(cat "$T/prf.cg1")"
# CSV: the cgroup is the 4th field, an empty one for an event without a cgroup
awk -F, -v cg="$CG" '$3 == "cpu-clock" && $4 != cg { bad = 1 } $3 == "page-faults" && $4 != "" { bad = 1 }
	$3 == "context-switches" && $4 != "/" { bad = 1 } END { exit bad }' "$T/prf.cg3" ||
	fail "CSV cgroup fields: $(cat "$T/prf.cg3")"
python3 - "$T/prf.cg4" "$CG" <<'EOP' || fail "JSON cgroup keys: $(cat "$T/prf.cg4")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert [r["cgroup"] for r in rows] == [sys.argv[2]] * 2 + ["/"] * 2, rows
EOP

# stat record --for-each-cgroup: perf stat report reads it, a row per event and cgroup
"$PRF" stat record -o "$T/cg-stat.data" -a -e cpu-clock,page-faults --for-each-cgroup "$CG,/" \
	sleep 0.1 2>/dev/null || fail "stat record --for-each-cgroup"
"$PERF" stat report -i "$T/cg-stat.data" >"$T/perf.cgr" 2>&1 || fail "perf stat report: $(cat "$T/perf.cgr")"
"$PRF" stat report -i "$T/cg-stat.data" >"$T/prf.cgr" 2>&1 || fail "prf stat report: $(cat "$T/prf.cgr")"
[ "$(grep -cE " (cpu-clock|page-faults) " "$T/prf.cgr")" = 4 ] || fail "stat report rows: $(cat "$T/prf.cgr")"
diff <(stat_mask "$T/perf.cgr" | sed 's/#.*//') <(stat_mask "$T/prf.cgr" | sed 's/#.*//') >"$T/diff" ||
	fail "stat report of a cgroup recording: $(cat "$T/diff")"

# record -G: only the cgroup's tasks are sampled (this kernel gives cgroup
# cpu-clock events no samples at all; perf's file alike), and -G needs -a
for t in perf prf; do
	tool=$PERF; [ $t = prf ] && tool=$PRF
	"$tool" record -q -o "$T/$t-cg.data" -a -e cpu-clock -G "$CG" sleep 0.2 >/dev/null 2>"$T/rec.err" ||
		fail "$t record -G: $(cat "$T/rec.err")"
	"$PERF" script -i "$T/$t-cg.data" -F comm 2>/dev/null | awk '{ print $1 }' | sort -u |
		grep -v '^spin$' >"$T/$t.others"
done
[ ! -s "$T/prf.others" ] || fail "record -G sampled tasks outside the cgroup: $(head "$T/prf.others")"
[ ! -s "$T/perf.others" ] || fail "perf record -G sampled tasks outside the cgroup?"
"$PRF" record -q -o "$T/x.data" -e cpu-clock -G "$CG" true >"$T/bad" 2>&1
[ $? = 129 ] && grep -q "system-wide" "$T/bad" || fail "record -G without -a: $(cat "$T/bad")"

# usage errors: one line naming the problem, exit 129 (as perf's usage errors)
for args in "-e cpu-clock -G $CG true" "-a -G $CG sleep 0.1" "-a -e cpu-clock -G no-such-cg sleep 0.1" \
	"-a -e cpu-clock -G $CG,/ sleep 0.1" "-a -e cpu-clock -G $CG --for-each-cgroup / sleep 0.1" \
	"-a -e cpu-clock --for-each-cgroup no-such-cg sleep 0.1"; do
	# shellcheck disable=SC2086
	"$PRF" stat $args >"$T/bad" 2>&1
	rc=$?
	[ $rc = 129 ] || fail "stat $args: exit $rc: $(cat "$T/bad")"
	# shellcheck disable=SC2086
	"$PERF" stat $args >/dev/null 2>&1 && fail "perf accepts $args"
done
"$PRF" stat -a -e cpu-clock -G no-such-cg sleep 0.1 2>&1 | grep -q "no access to cgroup $mnt/no-such-cg" ||
	fail "a missing cgroup is not named"
exit 0
