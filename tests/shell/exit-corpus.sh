#!/bin/bash
# Corruption corpus: 60 damaged variants of a recording (truncations, flips in header/attrs/data, zeroed sections, huge sizes) through every read-side command: no signal or hang, the file named, the exit-status rule kept
# The variants are made here from a file the test records. Every command
# (report, report --stats/--header-only, script, script --folded, flamegraph, trace,
# annotate, diff (the undamaged file against the variant), data convert, sched,
# data dump/stats/header, evlist -v, buildid-list -H) runs on each, under `timeout 20`, and must:
#   - end by itself with 0 or 1 (never a signal, a hang or a sanitizer report);
#   - name the file in a message when it fails, and in every message that
#     names an offset;
#   - keep the rule (session.h: perf_session__read_status()): a summary
#     "partial result: reading stopped at offset" comes with exit 1 and the
#     line saying so, and with -f/--force the same command exits 0; exit 0
#     otherwise only without that summary.
# Set PRF_ASAN to a `make SANITIZE=address,undefined` build to run it too.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup exit-corpus
cd "$T" || exit 1
BINS=("$PRF")
[ -n "${PRF_ASAN:-}" ] && [ -x "$PRF_ASAN" ] && BINS+=("$PRF_ASAN")

perf_record good.data -F 999 -g -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls -l /usr/lib >/dev/null'
mkdir v
python3 - good.data v <<'PY' || fail "making the variants"
import random, struct, sys
src, out = sys.argv[1], sys.argv[2]
g = open(src, "rb").read()
n = len(g)
aoff, asz = struct.unpack_from("<QQ", g, 24)
doff, dsize = struct.unpack_from("<QQ", g, 40)
fend = doff + dsize                     # the feature section table starts here
r = random.Random(35)
variants = {}

def put(name, d):
    variants[name] = bytes(d)

def edit(name, fn):
    d = bytearray(g)
    fn(d)
    put(name, d)

# record offsets in the data section (walk the headers)
recs, o = [], doff
while o + 8 <= fend:
    size = struct.unpack_from("<H", g, o + 6)[0]
    if size < 8:
        break
    recs.append(o)
    o += size

# truncations: in the header, the attrs, the data (on and off record
# boundaries), the feature table and the feature data
for i, cut in enumerate([8, 16, 60, 103, 104, aoff + asz // 2, doff, doff + 5,
                         recs[len(recs) // 4], recs[len(recs) // 2] + 7,
                         doff + 3 * dsize // 4, fend - 1, fend, fend + 9, n - 1]):
    put("cut%02d" % i, g[:cut])
# one byte set at random in each header field
for f in range(13):
    edit("hdr%02d" % f, lambda d, f=f: d.__setitem__(8 * f + r.randrange(8), r.randrange(256)))
# bytes in the attr entries, and their ids sections
for i in range(6):
    edit("attr%d" % i, lambda d: d.__setitem__(aoff + r.randrange(asz), r.randrange(256)))
# bit flips in the data section
for i in range(10):
    def flips(d):
        for _ in range(r.randint(1, 40)):
            p = r.randrange(doff, fend)
            d[p] ^= 1 << r.randrange(8)
    edit("flip%d" % i, flips)
# zeroed sections
def zero(a, b):
    return lambda d: d.__setitem__(slice(a, b), bytes(b - a))
edit("zhdr", zero(8, 104))
edit("zattrs", zero(aoff, aoff + asz))
edit("zdata-first", zero(doff, min(fend, doff + 4096)))
edit("zdata-mid", zero(recs[len(recs) // 2], min(fend, recs[len(recs) // 2] + 512)))
edit("zdata-last", zero(max(doff, fend - 4096), fend))
edit("zfeat-table", zero(fend, min(n, fend + 256)))
edit("zfeat-data", zero(min(n, fend + 256), n))
# huge sizes
edit("huge-recsize", lambda d: struct.pack_into("<H", d, recs[len(recs) // 3] + 6, 0xfff8))
edit("huge-datasize", lambda d: struct.pack_into("<Q", d, 48, 1 << 62))
edit("huge-dataoff", lambda d: struct.pack_into("<Q", d, 40, 1 << 62))
edit("huge-attrs", lambda d: struct.pack_into("<Q", d, 32, 1 << 62))
edit("huge-attrsize", lambda d: struct.pack_into("<Q", d, 16, 1 << 40))
edit("huge-ids", lambda d: struct.pack_into("<Q", d, aoff + asz - 8, 1 << 62))
edit("huge-feat", lambda d: struct.pack_into("<QQ", d, fend, 1 << 62, 1 << 62))
edit("huge-featsize", lambda d: struct.pack_into("<Q", d, fend + 8, 1 << 40))
# a record type no one knows, twice (skipped, reading goes on)
def unknown(d):
    for o in (recs[len(recs) // 5], recs[len(recs) // 2]):
        struct.pack_into("<I", d, o, 60)
edit("unknown-type", unknown)
# a record size shrunk to 8 (the rest read as records)
edit("small-recsize", lambda d: struct.pack_into("<H", d, recs[len(recs) // 2] + 6, 8))
for name, d in variants.items():
    open("%s/%s.data" % (out, name), "wb").write(d)
print(len(variants))
PY
nvar=$(ls v | wc -l)
[ "$nvar" -ge 50 ] || fail "only $nvar variants"

CMDS=("report --stdio" "report --stdio --stats" "report --header-only" "script" "script --folded"
      "flamegraph -o fg.html" "data dump" "data stats" "data header" "trace"
      "annotate --stdio" "diff" "data convert --to-json conv.json" "sched latency"
      "evlist -v" "buildid-list -H")
# run_one BIN CMD FILE [-f]: the command on one variant (diff takes the
# good file and the variant; convert writes a fresh file each time)
run_one() {
	local bin=$1 c=$2 f=$3 force=${4:-}
	# shellcheck disable=SC2086
	case $c in
	diff) timeout 20 "$bin" diff $force good.data "$f" ;;
	data\ convert*) rm -f conv.json; timeout 20 "$bin" $c $force -i "$f" ;;
	*) timeout 20 "$bin" $c $force -i "$f" ;;
	esac
}
# The checks of one run read its stderr with bash builtins (err_read,
# err_has): a grep, wc or basename per check would fork about ten
# processes a run, most of this test's time over its thousand runs.
# err_read FILE: LINES (the lines, each with its newline), NLINES (as
# wc -l counts: newlines) and ERR (the whole text; what follows a NUL
# byte on its line is not seen: prf writes its messages as C strings).
err_read() {
	mapfile LINES < "$1"
	NLINES=${#LINES[@]}
	[ "$NLINES" -gt 0 ] && [[ ${LINES[NLINES - 1]} != *$'\n' ]] && NLINES=$((NLINES - 1))
	printf -v ERR '%s' "${LINES[@]}"
}
# err_has TEXT: ERR has TEXT (as grep -q -F would find it on a line)
err_has() { [[ $ERR == *"$1"* ]]; }
runs=0 partial=0 failed=0
for f in v/*.data; do
	base=${f##*/}
	for bin in "${BINS[@]}"; do
		for c in "${CMDS[@]}"; do
			run_one "$bin" "$c" "$f" > out 2> err < /dev/null
			rc=$?
			runs=$((runs + 1))
			what="$base: prf $c [$bin]"
			[ $rc -eq 124 ] && fail "$what: hung"
			[ $rc -le 1 ] || fail "$what: exit $rc: $(tail -2 err)"
			err_read err
			{ err_has 'Sanitizer' || err_has 'runtime error:'; } &&
				fail "$what: $(grep -m1 -e Sanitizer -e 'runtime error:' err)"
			[ "$NLINES" -lt 100 ] || fail "$what: $NLINES lines on stderr"
			# every message naming an offset names the file
			if err_has 'offset 0x'; then
				for l in "${LINES[@]}"; do
					[[ $l == *'offset 0x'* && $l != *"$base"* ]] &&
						fail "$what: a message with an offset names no file: ${l%$'\n'}"
				done
			fi
			if [ $rc -ne 0 ]; then
				err_has "$base" || fail "$what: exit $rc, no message names the file: $(head -2 err)"
				failed=$((failed + 1))
			fi
			if err_has "partial result: reading stopped at offset 0x"; then
				[ $rc -eq 1 ] || fail "$what: partial result, exit $rc"
				err_has "exit status 1 for a partial result" || fail "$what: the exit status not said"
				run_one "$bin" "$c" "$f" -f > out.f 2> err.f < /dev/null
				rcf=$?
				[ $rcf -eq 0 ] || fail "$what -f: exit $rcf: $(tail -2 err.f)"
				cmp -s out out.f || [ "${c%% *}" = flamegraph ] || fail "$what -f: another output"
				partial=$((partial + 1))
			elif [ $rc -eq 0 ]; then
				err_has "partial result" && fail "$what: exit 0 with a partial result"
			fi
		done
	done
done
[ $partial -gt 0 ] || fail "no variant gave a partial result"
echo "ok: $nvar variants, $runs runs: $partial partial results (exit 1, -f 0), $failed failures naming the file, no signal or hang"
exit 0
