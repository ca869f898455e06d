#!/bin/bash
# prf report sort keys weight, local_weight, addr, socket, cgroup against perf report on the same perf.data, recorded by perf and by prf (issue #26)
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup report-sort-keys26

cc_prog faults
perf_record_bg "$T/perf-w.data" -W -d -- "$T/faults"
perf_record_bg "$T/perf-pf.data" -e page-faults -d -g -- "$T/faults"
perf_record_bg "$T/perf-a.data" -a -g -- "$T/faults" 4 10
perf_record_bg "$T/perf-cg.data" --all-cgroups -a -g -- "$T/faults" 4 10
"$PRF" record -q -o "$T/prf-cg.data" --all-cgroups -a -g -- "$T/faults" 4 10 > /dev/null 2> "$T/prfrec.err" ||
	{ cat "$T/prfrec.err"; fail "prf record --all-cgroups"; }
for f in w pf; do
	case $f in w) args="-W -d" ;; pf) args="-e page-faults -d -g" ;; esac
	# shellcheck disable=SC2086
	"$PRF" record -q -o "$T/prf-$f.data" $args -- "$T/faults" > /dev/null 2> "$T/prfrec.err" ||
		{ cat "$T/prfrec.err"; fail "prf record $args"; }
done
perf_record_wait

# same NAME ARGS...: prf report --stdio and perf report --stdio print the
# same (tips aside) on $data
same() {
	local name=$1; shift
	"$PERF" report -i "$data" --stdio "$@" 2>/dev/null | grep -av '^# (Tip:' > "$T/perf.txt"
	prf_out "$T/prf.raw" report -i "$data" --stdio "$@"
	grep -av '^# (Tip:' "$T/prf.raw" > "$T/prf.txt"
	grep -q '%' "$T/perf.txt" || fail "$name: perf printed no entries"
	cmp -s "$T/perf.txt" "$T/prf.txt" || { diff "$T/perf.txt" "$T/prf.txt" | head; fail "$name differs"; }
	echo "ok: report $name on $(basename "$data")"
}

for data in "$T"/perf-w.data "$T"/perf-pf.data "$T"/prf-w.data "$T"/prf-pf.data; do
	for k in weight local_weight addr addr,sym comm,local_weight,addr,dso weight,sym socket sym,socket cgroup; do
		same "-s $k" -s "$k"
		same "-s $k -t ," -s "$k" -t ,
		case $data in *pf.data)
			same "-s $k --children" -s "$k" --children
			same "-s $k --no-children -g none" -s "$k" --no-children -g none ;;
		esac
	done
	same "-F overhead,addr,sym" -F overhead,addr,sym
done
# sockets of sampled cpus (000 here), -1 without a cpu in the samples,
# with perf's children accounting (a chain frame counts again in an entry
# whose socket is not 0)
# (system-wide recordings: entries and their children values compared
# with -g none; the graphs' order of equal-share branches of unresolved
# addresses is no matter of these keys)
# Keys with comm only over the test's own program: a thread of another
# process first sampled before its COMM record shows as ":tid" in prf and
# under its later comm in perf (perf renames the ":tid" comm in place), a
# known difference on a busy machine that is no matter of these keys.
# same_wide KEY...: each key on the system-wide $data, children, no
# children and -t , with -g none
same_wide() {
	local k o ours

	for k; do
		ours=
		case $k in *comm*) ours="--comms faults";; esac
		for o in --children --no-children "-t ,"; do
			# shellcheck disable=SC2086
			same "-s $k $o -g none" -s "$k" $o -g none $ours
		done
	done
}
data=$T/perf-a.data
same_wide socket socket,comm cpu,socket,dso
prf_out "$T/sock.txt" report -i "$data" --stdio -s socket --no-children
grep -q '^ .*%     000$' "$T/sock.txt" || fail "-a recording: no socket 000 entry"
# cgroup paths from PERF_RECORD_CGROUP ("N/A" above, without cgroup ids)
for data in "$T"/perf-cg.data "$T"/prf-cg.data; do
	same_wide cgroup cgroup,comm comm,cgroup,dso
	prf_out "$T/cg.txt" report -i "$data" --stdio -s cgroup --no-children
	grep -q '^ .*%  /' "$T/cg.txt" || fail "$(basename "$data"): no entry of the root cgroup '/'"
done
# the addresses are the sampled ips: the hottest one is in spin()
data=$T/prf-w.data
prf_out "$T/addr.txt" report -i "$data" --stdio -s addr,sym
awk '/%/ && !/^#/ { print $3, $4; exit }' "$T/addr.txt" | grep -q '^\[\.\] spin$' ||
	fail "the hottest address is not in spin(): $(grep -m1 '%' "$T/addr.txt")"
