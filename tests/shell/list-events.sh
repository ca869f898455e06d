#!/bin/bash
# prf list: same events as perf list (sw, hw, cache, pmu, tracepoint globs, JSON)
set -u
if ! command -v perf >/dev/null 2>&1; then
	echo "skip: /usr/bin/perf not installed"
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# names only, one per line: "context-switches OR cs" stays as it is
names() { grep "\[$1\]" | sed 's/  *\[.*//; s/^ *//' | sort; }

# Software events, with their aliases
perf list sw 2>/dev/null | names 'Software event' > "$tmp/perf.sw"
"$PRF" list sw > "$tmp/prf.out" || fail "prf list sw exited $?"
names 'Software event' < "$tmp/prf.out" > "$tmp/prf.sw"
[ -s "$tmp/perf.sw" ] || fail "perf list sw printed nothing"
diff -u "$tmp/perf.sw" "$tmp/prf.sw" || fail "software events differ from perf list sw"
grep -q '^  context-switches OR cs  *\[Software event\]$' "$tmp/prf.out" || fail "layout of an alias line"

# Hardware and cache events: perf lists only the ones the CPU can open
for sec in hw cache pmu; do
	perf list $sec 2>/dev/null | grep '\[' | sort > "$tmp/perf.$sec"
	"$PRF" list $sec | sort > "$tmp/prf.$sec"
	diff -u "$tmp/perf.$sec" "$tmp/prf.$sec" || fail "'list $sec' differs from perf"
done

# Tracepoints for a glob, exact lines
if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	perf list 'sched:*' 2>/dev/null > "$tmp/perf.tp"
	"$PRF" list 'sched:*' > "$tmp/prf.tp"
	[ -s "$tmp/perf.tp" ] || fail "perf list 'sched:*' printed nothing"
	diff -u "$tmp/perf.tp" "$tmp/prf.tp" || fail "'sched:*' tracepoints differ"
	grep -q '^  sched:sched_switch  *\[Tracepoint event\]$' "$tmp/prf.tp" || fail "sched:sched_switch missing"
	# a bare word is a substring glob over every section, as in perf
	perf list task 2>/dev/null > "$tmp/perf.task"
	"$PRF" list task > "$tmp/prf.task"
	diff -u "$tmp/perf.task" "$tmp/prf.task" || fail "'list task' differs"
	# the whole listing, SDT events of the build-id cache included (the
	# "Metric Groups:" section at the end is list-metrics.sh's)
	perf list 2>/dev/null | awk '/^Metric Groups:/ { exit } { print }' |
		grep -v '^$' > "$tmp/perf.all"
	"$PRF" list | awk '/^Metric Groups:/ { exit } { print }' | grep -v '^$' > "$tmp/prf.all"
	diff -u "$tmp/perf.all" "$tmp/prf.all" > "$tmp/all.diff" || { head -20 "$tmp/all.diff"; fail "full listing differs"; }
fi

# JSON: one valid document, one object per event, same count as the text
"$PRF" list --json > "$tmp/list.json" || fail "prf list --json exited $?"
python3 -m json.tool "$tmp/list.json" > /dev/null || fail "--json is not valid JSON"
"$PRF" list -j sw > "$tmp/sw.json"
python3 - "$tmp/sw.json" "$tmp/prf.sw" <<'PY' || fail "JSON content"
import json, sys
# the Tool events that follow (as in perf list sw) are stat-tool-events.sh's
events = [e for e in json.load(open(sys.argv[1])) if e["EventType"] != "Tool event"]
text = [l.strip() for l in open(sys.argv[2]) if l.strip()]
assert isinstance(events, list) and len(events) == len(text), (len(events), len(text))
names = set()
for e in events:
    assert e["EventType"] == "Software event" and e["Unit"] == "software", e
    names.add(e["EventName"] + (" OR " + e["EventAlias"] if "EventAlias" in e else ""))
assert names == set(text), names ^ set(text)
cs = [e for e in events if e["EventName"] == "context-switches"][0]
assert cs["EventAlias"] == "cs" and cs["Encoding"] == "type=1,config=0x3", cs
PY

# on a terminal, through the pager: perf's paged layout (a blank line
# after each section that listed something and after the tool events,
# the raw syntax's man page hint); an empty HOME keeps perf's SDT events
# of a build-id cache out. script(1) gives both a terminal 100 wide.
if command -v script > /dev/null; then
	mkdir -p "$tmp/home"
	for args in "" "sw" "pmu" "tracepoint" "sched:*" "page-faults" "duration_time" "zzz"; do
		for who in prf perf; do
			tool=perf
			[ $who = prf ] && tool=$PRF
			env -u PRF_PAGER HOME=$tmp/home script -qc "stty cols 100; PAGER='cat > $tmp/paged.$who' $tool list $args" \
				/dev/null > /dev/null 2>&1 < /dev/null
		done
		sed 's/man perf-list/man prf-list/' "$tmp/paged.perf" > "$tmp/paged.want"
		[ -s "$tmp/paged.prf" ] || fail "paged list $args: no output"
		cmp -s "$tmp/paged.want" "$tmp/paged.prf" ||
			{ diff "$tmp/paged.want" "$tmp/paged.prf" | head; fail "paged list $args differs from perf's"; }
	done
	echo "ok: paged layout as perf's"
fi

# usage errors exit 129
"$PRF" list --no-such-option > /dev/null 2>&1
[ $? -eq 129 ] || fail "bad option should exit 129"
exit 0
