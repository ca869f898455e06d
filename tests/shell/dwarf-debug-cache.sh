#!/bin/bash
# A compressed debug file's image is kept on disk once all of its .debug_info was inflated, and later runs map it with the same output; a changed debug file, a damaged cache file, PRF_DEBUG_CACHE=0 and the size limit are honoured
#
# The test library and recordings come from lib/dwlib.sh (compressed
# separate DWARF; early.data needs only the first unit of .debug_info,
# both.data needs all of it). The reference output is prf's with the
# cache off (PRF_DEBUG_CACHE=0, as every other test runs).
#  - both.data, empty cache: the image is kept ("image kept", one .img
#    file); the next run maps it ("image from") and its script -F +srcline
#    and report equal the reference, inlined late_mix frame included.
#  - early.data, another empty cache, on one CPU (taskset): .debug_info
#    was only inflated in part, so nothing is kept; on more CPUs another
#    thread inflated all of it ahead, and it is kept.
#  - the debug file touched (new modification time): not answered from
#    the old image; a new one is kept.
#  - the old file's image put under the new one's name (a hash
#    collision), and the cache file cut short by a byte: each ignored (-v
#    says so), output equal to the reference.
#  - PRF_DEBUG_CACHE unset, HOME=$T: the default place,
#    $HOME/.cache/prf/debug-images; PRF_DEBUG_CACHE=0: no directory made.
#  - PRF_DEBUG_CACHE_MAX just above one image: keeping a second image
#    removes the least recently used one.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
. "$PRF_SRCDIR/tests/shell/lib/dwlib.sh"
test_setup dwcache objcopy strip
cd "$T" || exit 1
export HOME=$T	# no ~/.debug copies: the debug file is found by debuglink
unset XDG_CACHE_HOME

dwlib_build

kept() {	# messages: the cache file libdl.so.debug's image was kept in
	sed -n 's/.*libdl\.so\.debug: image kept in \(.*\) ([0-9]* bytes)$/\1/p' "$1"
}

dwlib_run ref.script PRF_DEBUG_CACHE=0 "$PRF" script -i both.data -F +srcline
dwlib_run ref.report PRF_DEBUG_CACHE=0 "$PRF" report -i both.data --stdio --no-children
grep -q "late_mix (inlined)" ref.report || fail "reference: no inlined late_mix frame"

C=$T/cache
dwlib_run c1.script PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
img1=$(kept c1.script.err)
case $img1 in
"$C"/*.img) [ -f "$img1" ] || fail "the image was said kept in $img1, which is not there" ;;
*) grep debuginfo c1.script.err | head; fail "the image was not kept in $C" ;;
esac
dwlib_same ref.script c1.script "first run: script differs from the reference"
dwlib_run c2.script PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
grep -q "libdl.so.debug: image from $img1\$" c2.script.err ||
	{ grep debuginfo c2.script.err | head; fail "the kept image was not used"; }
grep -q "libdl.so.debug: all of .debug_info inflated" c2.script.err &&
	fail "the kept image was used, but .debug_info was inflated again"
dwlib_same ref.script c2.script "from the cache: script differs from the reference"
dwlib_run c2.report PRF_DEBUG_CACHE="$C" "$PRF" report -i both.data --stdio --no-children
dwlib_same ref.report c2.report "from the cache: report differs from the reference"

# early only, on one CPU (no whole inflate ahead on another): .debug_info
# is inflated in part, which is not kept; on two CPUs the whole inflate
# ahead has been paid for, so it is
need taskset
dwlib_run e1.script PRF_DEBUG_CACHE="$T/cache-early" taskset -c 0 "$PRF" script -vv -i early.data
[ -n "$(kept e1.script.err)" ] && fail "early only, one CPU: a partly inflated image was kept"
grep -q "libdl.so.debug: all of .debug_info inflated" e1.script.err &&
	fail "early only, one CPU: all of .debug_info was inflated"
if [ "$(nproc)" -gt 1 ]; then
	dwlib_run e2.script PRF_DEBUG_CACHE="$T/cache-early" "$PRF" script -vv -i early.data
	[ -n "$(kept e2.script.err)" ] || fail "early only, $(nproc) CPUs: the image inflated ahead was not kept"
fi

# a changed debug file is not answered from the image of the old one
touch -d '+1 minute' libdl.so.debug
dwlib_run c3.script PRF_DEBUG_CACHE="$C" "$PRF" script -vv -i both.data -F +srcline
grep -q "libdl.so.debug: image from" c3.script.err &&
	fail "touched debug file: answered from the old image"
img3=$(kept c3.script.err)
[ -n "$img3" ] && [ -f "$img3" ] && [ "$img3" != "$img1" ] ||
	fail "touched debug file: no new image kept (${img3:-none})"
dwlib_same ref.script c3.script "touched debug file: script differs from the reference"

# under its name, the image of the debug file before the touch (as a
# name collision would leave it): the trailer tells, it is ignored
cp "$img3" img3.good
cp "$img1" "$img3"
dwlib_run c5.script PRF_DEBUG_CACHE="$C" "$PRF" script -v -i both.data -F +srcline
grep -q "libdl.so.debug: ignoring $img3: not the image of this file" c5.script.err ||
	{ grep debuginfo c5.script.err | head; fail "another file's image was not refused"; }
dwlib_same ref.script c5.script "another file's image: script differs from the reference"

# a damaged cache file is ignored
cp img3.good "$img3"
truncate -s -1 "$img3"
dwlib_run c4.script PRF_DEBUG_CACHE="$C" "$PRF" script -v -i both.data -F +srcline
grep -q "libdl.so.debug: ignoring $img3: not the image of this file" c4.script.err ||
	{ grep debuginfo c4.script.err | head; fail "a damaged cache file was not reported"; }
dwlib_same ref.script c4.script "damaged cache file: script differs from the reference"

# the default place, and no cache at all
dwlib_run d.script -u PRF_DEBUG_CACHE "$PRF" script -vv -i both.data
case $(kept d.script.err) in
"$HOME/.cache/prf/debug-images/"*.img) ;;
*) fail "the image was not kept in the default place $HOME/.cache/prf/debug-images" ;;
esac
[ "$(stat -c %a "$HOME/.cache/prf/debug-images")" = 700 ] || fail "cache directory not 0700"
rm -rf "$HOME/.cache"
dwlib_run n.script PRF_DEBUG_CACHE=0 "$PRF" script -vv -i both.data
[ -e "$HOME/.cache" ] && fail "PRF_DEBUG_CACHE=0 made $HOME/.cache"

# the size limit: room for one image only; the older one goes
L=$T/cache-limit
dwlib_run l1.script PRF_DEBUG_CACHE="$L" "$PRF" script -vv -i both.data
old=$(kept l1.script.err)
[ -f "$old" ] || fail "size limit: no first image"
size=$(stat -c %s "$old")
touch -d '-1 hour' "$L"/*.img	# all unused since: the images other runs use get newer
touch -d '+2 minutes' libdl.so.debug
dwlib_run l2.script PRF_DEBUG_CACHE="$L" PRF_DEBUG_CACHE_MAX=$((size * 3 / 2)) "$PRF" script -vv -i both.data
new=$(kept l2.script.err)
[ -f "$new" ] && [ "$new" != "$old" ] || fail "size limit: no second image (${new:-none})"
[ -e "$old" ] && fail "size limit: the least recently used image was kept"
total=$(cat "$L"/*.img | wc -c)
[ "$total" -le $((size * 3 / 2)) ] || fail "size limit: $total bytes of images kept"
echo "kept once whole, mapped after with equal output; partial not kept; change, damage, off and limit honoured"
exit 0
