#!/bin/bash
# prf flamegraph --diff A1,A2,A3 B1,B2,B3 colours only the frames whose change over repeated runs is significant (Welch's t, Holm), per-frame statistics in the page's data
# Compiles lib/hotfill.c, whose main calls caller() -> hot(), then filler()
# and steady(), each looping as long as its argument says. Runs A and A'
# do 1 1 1 units, runs B 2 1 1: hot does twice the work. Recordings are
# made by prf record -g -c 1000000 (1 ms of cpu time a sample), interleaved (A, A', B, ...) so that a drift
# of the machine hits all groups alike.
# prf-test: serial: significance over 3 runs of cpu-clock sample counts needs the run-to-run noise of a quiet machine
#  - --stat-period (each run's samples of a frame): hot and caller rose
#    significantly, and every frame significant is on hot's path (main,
#    the process and the root may be: they hold hot's work too, with the
#    noise of the whole run); filler and steady did not change.
#  - shares (default): hot and caller rose; main (100% in every run) did
#    not; a frame off hot's path may be significant only as falling
#    (filler's and steady's share of a longer run is smaller).
#  - A against A' (the same binary): no frame significant in either mode.
# The changes are tested at the default alpha 0.05, the same binary at
# 0.01: the chance of a false flag there is one in a hundred at most
# (Holm's bound), in practice far less.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup flamegraph-diff-groups

cc_prog hotfill -O1 -DUNIT=50000000L
A= A2= B=
for i in 1 2 3; do
	for g in a:"1 1 1" c:"1 1 1" b:"2 1 1"; do
		# (a fixed period of 1 ms of cpu time: sample counts follow the
		# work however loaded the machine, unlike -F's adapting period)
		"$PRF" record -q -c 1000000 -g -o "$T/${g%%:*}$i.data" -- "$T/hotfill" ${g#*:} >/dev/null 2>"$T/rec.err" ||
			{ cat "$T/rec.err"; fail "prf record"; }
	done
	A="$A${A:+,}$T/a$i.data" A2="$A2${A2:+,}$T/c$i.data" B="$B${B:+,}$T/b$i.data"
done

# sig FILE.html: "PATH sig|noise|- A B P" per frame (PATH from the process
# frame, ';'-joined), from the page's data
sig() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t.split("window.PRF_FG=", 1)[1].split(";\n</script>", 1)[0])
assert d["diff"] and d["stat"]["runsA"] == 3 and d["stat"]["runsB"] == 3, d.get("stat")
v = d["views"][0]
names = [n[0] for n in v["names"]]
def walk(a, path):
    p = path + [names[a[0]]]
    st = a[5]
    verdict = "sig" if st["sig"] else "noise" if "p" in st else "-"
    if st["sig"]:
        assert a[4] != "#dddddd", (p, a[4])
    elif a[4] != "#dddddd":
        sys.exit("frame %s not significant but coloured %s" % (p, a[4]))
    print(";".join(p[1:]) or "[root]", verdict, st.get("a"), st.get("b"), st.get("p"))
    for k in a[2]:
        walk(k, p)
walk(v["tree"], [])
PY
}
# verdict OUT FUNC: the verdict of the first frame path ending in FUNC
verdict() { awk -v f="$2" '{ n = split($1, p, ";"); if (p[n] == f) { print $2; exit } }' "$1"; }

# --stat-period: hot and only frames on its path
prf_out "$T/p.out" flamegraph --diff --stat-period "$A" "$B" -o "$T/p.html"
sig "$T/p.html" > "$T/p.sig" || fail "page data (--stat-period)"
hot_path=$(awk '$1 ~ /;caller;hot$/ { print $1; exit }' "$T/p.sig")
[ -n "$hot_path" ] || { cat "$T/p.sig"; fail "no frame path ends in caller;hot"; }
[ "$(verdict "$T/p.sig" hot)" = sig ] || { cat "$T/p.sig"; fail "period: hot (2x the work) not significant"; }
[ "$(verdict "$T/p.sig" caller)" = sig ] || { cat "$T/p.sig"; fail "period: caller of hot not significant"; }
[ "$(verdict "$T/p.sig" filler)" = noise ] || { cat "$T/p.sig"; fail "period: filler flagged or untested"; }
[ "$(verdict "$T/p.sig" steady)" = noise ] || { cat "$T/p.sig"; fail "period: steady flagged or untested"; }
# every significant frame is hot's or one of its callers
while read -r path v _; do
	[ "$v" = sig ] || continue
	[ "$path" = "[root]" ] && continue
	case "$hot_path" in
	"$path"|"$path;"*) ;;
	*) cat "$T/p.sig"; fail "period: $path is significant but not on hot's path" ;;
	esac
done < "$T/p.sig"
echo "ok: --stat-period: hot and only the frames on its path significant"

# shares: hot and caller rose, filler and steady fell, main stayed at 100%
prf_out "$T/s.out" flamegraph --diff "$A" "$B" -o "$T/s.html"
sig "$T/s.html" > "$T/s.sig" || fail "page data (shares)"
for f in hot caller; do
	[ "$(verdict "$T/s.sig" $f)" = sig ] || { cat "$T/s.sig"; fail "shares: $f not significant"; }
done
[ "$(verdict "$T/s.sig" main)" = noise ] || { cat "$T/s.sig"; fail "shares: main (100%) flagged"; }
awk '$1 ~ /;hot$/ && !($4 > $3 + 10) { exit 1 }' "$T/s.sig" || { cat "$T/s.sig"; fail "shares: hot did not rise by 10 points"; }
# a significant frame off hot's path is one whose share fell
awk -v h="$hot_path" '$2 == "sig" && index(h ";", $1 ";") != 1 && !($4 < $3) { exit 1 }' "$T/s.sig" ||
	{ cat "$T/s.sig"; fail "shares: a frame off hot's path rose significantly"; }
grep -q 'red grew' "$T/s.html" || fail "no colour legend in the subtitle"
echo "ok: shares: hot and caller rose, main is noise, other significant frames fell"

# the same binary in both groups: nothing significant, nothing coloured
for m in "" --stat-period; do
	prf_out "$T/same.out" flamegraph --diff $m --alpha 0.01 "$A" "$A2" -o "$T/same.html"
	sig "$T/same.html" > "$T/same.sig" || fail "page data (same binary $m)"
	grep -q ' sig ' "$T/same.sig" && { cat "$T/same.sig"; fail "same binary $m: a frame significant"; }
	[ "$(verdict "$T/same.sig" hot)" = noise ] || { cat "$T/same.sig"; fail "same binary $m: hot not tested"; }
done
echo "ok: same binary: no frame significant"

# the page renders in a browser, hot's box says it changed significantly
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/profile" --window-size=1000,500 --dump-dom "file://$T/s.html" \
		> "$T/s.dom" 2>"$T/chrome.log" || { tail -5 "$T/chrome.log"; fail "chromium"; }
	grep -q 'data-prf-rendered="1"' "$T/s.dom" ||
		fail "page did not render: $(grep -o 'id="prf-status">[^<]*' "$T/s.dom")"
	grep -Eq 'title="hot \([^"]*; mean of 3 runs before [0-9.]+%, of 3 after [0-9.]+%, change \+[0-9.]+ pts, p \(Holm\) [0-9.e-]+, significant"' "$T/s.dom" ||
		{ grep -o 'title="hot[^"]*"' "$T/s.dom"; fail "hot's tooltip in the browser"; }
	echo "ok: the page renders, hot's tooltip gives the means, change and p"
else
	echo "no $CHROMIUM: browser check skipped"
fi

# SVG tooltips carry the test
prf_out "$T/svg.out" flamegraph --diff "$A" "$B" -o "$T/d.svg"
grep -q '<title>hot (.*p (Holm) [0-9.e-]*, significant)</title>' "$T/d.svg" ||
	fail "SVG: hot's tooltip has no significance"
echo "ok: SVG tooltips"

# one file per side: the two-file graph, without statistics
prf_out "$T/one.out" flamegraph --diff "$T/a1.data" "$T/b1.data" -o "$T/one.html"
grep -q '"stat":' "$T/one.html" && fail "two files: statistics in the page"
echo "ok: one file a side: no statistics"

# usage: a one-run group, an empty name, --alpha without groups, a bad alpha
"$PRF" flamegraph --diff "$T/a1.data" "$B" -o "$T/x.html" 2>"$T/err"
[ $? -eq 129 ] && [ -s "$T/err" ] || fail "one-run group: want 129 and a message"
"$PRF" flamegraph --diff "$A," "$B" -o "$T/x.html" 2>"$T/err"
[ $? -eq 129 ] && [ -s "$T/err" ] || fail "empty name: want 129 and a message"
"$PRF" flamegraph --diff --alpha 0.01 "$T/a1.data" "$T/b1.data" -o "$T/x.html" 2>"$T/err"
[ $? -eq 129 ] && [ -s "$T/err" ] || fail "--alpha with two files: want 129 and a message"
"$PRF" flamegraph --diff --alpha 2 "$A" "$B" -o "$T/x.html" 2>"$T/err"
[ $? -eq 129 ] && [ -s "$T/err" ] || fail "--alpha 2: want 129 and a message"
echo "ok: usage errors"
