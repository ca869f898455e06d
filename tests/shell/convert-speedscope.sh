#!/bin/bash
# prf data convert --to-speedscope: valid by speedscope's schema, per-thread samples and stacks as prf script; speedscope loads it
# prf-test: serial: loads the file into speedscope in headless Chromium
# A three-thread program (lib/threads.c) recorded by Linux perf with -g:
#  - the file validates against file-format-schema.json of the npm package
#    speedscope (when installed: scripts/install-deps.sh) and is a sampled
#    profile per thread, weights in ns summing to endValue;
#  - each thread's samples, in order, have the stacks prf script prints
#    (tests/shell/lib/convert-stacks.py), inlined calls included (a
#    DWARF recording of an -O2 program);
#  - speedscope itself (the package's app in headless Chromium, served
#    over HTTP: its loader fetches the file) imports the file and the
#    prf script text, naming the page after the profile (an import it
#    cannot do leaves Chromium waiting: the load then fails).
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup convert-speedscope

cc_prog threads -pthread
perf_record "$T/g.data" -F 999 -g -- "$T/threads" 15000
cc_prog inl -O2 -g	# leaf, mid inlined into top (lib/inl.c)
perf_record "$T/dw.data" -F 499 --call-graph dwarf -- "$T/inl"

SCHEMA=$(npm root -g 2>/dev/null)/speedscope/dist/release/file-format-schema.json
for d in g dw; do
	prf_out "$T/$d.conv" data convert -i "$T/$d.data" --to-speedscope "$T/$d.json"
	prf_out "$T/$d.script" script -i "$T/$d.data" -F comm,tid,ip,sym
	python3 "$PRF_SRCDIR/tests/shell/lib/convert-stacks.py" speedscope "$T/$d.json" "$T/$d.script" ||
		fail "$d: speedscope profile differs from prf script"
	if [ -f "$SCHEMA" ] && python3 -c 'import jsonschema' 2>/dev/null; then
		python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$T/$d.json" "$SCHEMA" ||
			fail "$d: not valid by speedscope's schema"
		echo "ok: $d: valid by $SCHEMA"
	else
		echo "no speedscope schema or python3-jsonschema: schema check skipped"
	fi
done
grep -q '"name" : "thread_a"' "$T/g.json" && grep -q '"name" : "work_b"' "$T/g.json" || fail "thread functions missing"
grep -q '"name" : "mid"' "$T/dw.json" || fail "inlined mid missing"

# speedscope's own importer, in Chromium
APP=$(dirname "$SCHEMA")
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -f "$APP/index.html" ] || [ ! -x "$CHROMIUM" ]; then
	echo "no speedscope app or Chromium: importer check skipped"
	exit 0
fi
mkdir "$T/www" && cp -r "$APP"/. "$T/www/" && cp "$T/g.json" "$T/www/prf.json" &&
	"$PRF" script -i "$T/g.data" > "$T/www/script.txt" || fail "prf script"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$T/www" > "$T/http.log" 2>&1 &
HTTP=$!
trap 'kill $HTTP 2>/dev/null; rm -rf "$T"' EXIT
for i in $(seq 50); do
	PORT=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$T/http.log" | head -1)
	[ -n "$PORT" ] && break
	sleep 0.1
done
[ -n "$PORT" ] || fail "http server did not start"
load() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/chrome" --virtual-time-budget=5000 --dump-dom \
		"http://127.0.0.1:$PORT/index.html#profileURL=http://127.0.0.1:$PORT/$1" 2>>"$T/chrome.log"
}
load prf.json > "$T/ss.dom" || fail "chromium on the speedscope file"
grep -q "<title>$T/g.data - speedscope</title>" "$T/ss.dom" ||
	{ grep -o "<title>[^<]*" "$T/ss.dom"; fail "speedscope did not load the file"; }
load script.txt > "$T/st.dom" || fail "chromium on the script text"
grep -q "<title>script.txt - speedscope</title>" "$T/st.dom" ||
	{ grep -o "<title>[^<]*" "$T/st.dom"; fail "speedscope did not load prf script's text"; }
echo "ok: speedscope loads the file and prf script's text"
