# Sourced by the shell tests of a core PMU's JSON events (not a test itself).
#   fakepmu_setup NAME: test_setup NAME (PERF, $T, fail()), skip (exit 2,
#     reason last) when prf was built without the pmu-events tables or
#     without a mount namespace (unshare -m needs root); then
#     PERF_CPUID=GenuineIntel-6-55-4 (Skylake-X) exported, DEVS the
#     kernel's PMU directory, and $T/pmus a copy of it: the kernel's PMUs
#     as they are plus "cpu" with the type (4), format/ bits and two events/
#     aliases an Intel core PMU has (the kernel's sysfs ABI).
#   fakepmu_uncore: adds two instances each of two Skylake-X uncore PMUs
#     to $T/pmus as the kernel exposes them (type, format/, cpumask "0";
#     uncore_imc_N with its events/ cas_count_read/write and their .scale
#     and .unit): uncore_imc_0/1 (types 14, 15: Unit iMC's JSON events),
#     uncore_cha_0/1 (20, 21: Unit CHA's).
#   fakepmu CMD...: CMD with $T/pmus bind-mounted over $DEVS.
#   fakepmu_attr EVENT [RECORD OPTION...]: perf record -vv's attr of the
#     first event (perf stops at its failed open) in $T/perf.attr and prf
#     record --dry-run -v's first line in $T/prf.attr, both "type: N, ..."
#     as perf evlist -v prints them (prf's every line in $T/prf.out);
#     fail()s when either gives none.
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"

fakepmu_setup() {
	test_setup "$1" unshare
	"$PRF" version --build-options | grep -q 'pmu-events: \[ on' ||
		{ echo "prf built without the kernel source (linux-source-6.1): no JSON events"; exit 2; }
	unshare -m true 2>/dev/null || { echo "no mount namespace (unshare -m needs root)"; exit 2; }
	export PERF_CPUID=GenuineIntel-6-55-4
	DEVS=/sys/bus/event_source/devices
	local d f bits
	mkdir -p "$T/pmus/cpu/format" "$T/pmus/cpu/events"
	for d in "$DEVS"/*; do
		[ "${d##*/}" = cpu ] || ln -s "$(readlink -f "$d")" "$T/pmus/${d##*/}"
	done
	echo 4 > "$T/pmus/cpu/type"
	while read -r f bits; do echo "$bits" > "$T/pmus/cpu/format/$f"; done <<'EOF'
event config:0-7
umask config:8-15
edge config:18
pc config:19
any config:21
inv config:23
cmask config:24-31
in_tx config:32
in_tx_cp config:33
offcore_rsp config1:0-63
ldlat config1:0-15
frontend config1:0-23
EOF
	echo 'event=0xc0' > "$T/pmus/cpu/events/instructions"
	echo 'event=0xcd,umask=0x1,ldlat=3' > "$T/pmus/cpu/events/mem-loads"
}

fakepmu() {
	unshare -m sh -c 'mount --bind "$0" '"$DEVS"' && exec "$@"' "$T/pmus" "$@"
}

fakepmu_uncore() {
	local u p
	for u in imc_0:14 imc_1:15 cha_0:20 cha_1:21; do
		p=$T/pmus/uncore_${u%:*}
		mkdir -p "$p/format"
		echo "${u#*:}" > "$p/type"
		echo 0 > "$p/cpumask"
		echo config:0-7 > "$p/format/event"
		echo config:8-15 > "$p/format/umask"
		echo config:18 > "$p/format/edge"
		echo config:23 > "$p/format/inv"
		echo config:24-31 > "$p/format/thresh"
		case $u in
		imc*)	mkdir -p "$p/events"
			echo 'event=0x04,umask=0x03' > "$p/events/cas_count_read"
			echo 'event=0x04,umask=0x0c' > "$p/events/cas_count_write"
			echo 'event=0x00,umask=0x00' > "$p/events/clockticks"
			for e in cas_count_read cas_count_write; do
				echo 6.103515625e-5 > "$p/events/$e.scale"
				echo MiB > "$p/events/$e.unit"
			done ;;
		cha*)	echo config1:0-8 > "$p/format/filter_tid"
			echo config1:17-26 > "$p/format/filter_state"
			echo config1:41-50 > "$p/format/filter_opc0" ;;
		esac
	done
}

# perf record -vv's first perf_event_attr block as perf evlist -v's fields
perf_attr() {
	awk '/^perf_event_attr:/ { on = 1; s = ""; next }
	     on && /^-----/ { print s; exit }
	     on { k = substr($0, 3, 32); sub(/ +$/, "", k)
		  s = s (s == "" ? "" : ", ") k ": " substr($0, 36) }'
}

fakepmu_attr() {
	local ev=$1
	shift
	fakepmu "$PERF" record -vv "$@" -e "$ev" -o "$T/perf.data" true > "$T/perf.out" 2>&1
	perf_attr < "$T/perf.out" > "$T/perf.attr"
	[ -s "$T/perf.attr" ] || fail "$ev $*: no attr from perf: $(head -5 "$T/perf.out")"
	fakepmu "$PRF" record --dry-run -v "$@" -e "$ev" true > "$T/prf.out" 2> "$T/prf.err" ||
		fail "$ev $*: prf record --dry-run exit $?: $(cat "$T/prf.err")"
	# prf's line has the event's name before the fields
	head -1 "$T/prf.out" | sed "s/^.*: type: /type: /" > "$T/prf.attr"
}
