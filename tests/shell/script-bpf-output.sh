#!/bin/bash
# prf script, report and -D on bpf-output samples recorded by perf (a BPF program perf compiles with clang writes them with bpf_perf_event_output), against perf on the same file; prf record -e bpf-output's attr against perf's (issue #26)
# The BPF program is attached by perf to the syscalls:sys_enter_clock_nanosleep
# tracepoint of the workload (sleep) and writes six outputs per call into
# the bpf-output event 'evt' (perf's map:channel.event=evt term): 12 mixed
# bytes, a NUL-ended string, 8 letters, every byte value 0..255 (which
# characters perf takes as printable), an empty one and, from a second
# function, "sub". The header's BPF_PROG_INFO and BPF_BTF sections describe
# the program (--header). Skipped when perf has no BPF support or clang is
# missing, or perf cannot load the program.
set -u
. "$PRF_SRCDIR/tests/shell/lib/script.sh"
. "$PRF_SRCDIR/tests/shell/lib/report.sh"
test_setup script-bpf-output clang
"$PERF" version --build-options 2>/dev/null | grep -q 'bpf: \[ on' ||
	{ echo "$PERF is built without BPF (libbpf) support"; exit 2; }

cat > "$T/prog.c" <<'C'
#define SEC(n) __attribute__((section(n), used))
struct {
	int (*type)[4];		/* BPF_MAP_TYPE_PERF_EVENT_ARRAY */
	int (*max_entries)[__NR_CPUS__];
	int *key;
	unsigned int *value;
} channel SEC(".maps");

static long (*perf_event_output)(void *ctx, void *map, unsigned long long flags,
				 void *data, unsigned long long size) = (void *)25;
#define CUR_CPU 0xffffffffULL

/* a function of its own (a BPF-to-BPF call): the program has two */
static __attribute__((noinline)) int second_function_of_it(void *ctx)
{
	char s[8] = "sub";

	perf_event_output(ctx, &channel, CUR_CPU, s, sizeof(s));
	return 0;
}

/* longer than the kernel's 15-character program name: perf names it
 * from the BTF */
SEC("syscalls:sys_enter_clock_nanosleep")
int prf_bpf_output_writer(void *ctx)
{
	char mixed[12] = { 'p', 'r', 'f', '-', 'b', 'p', 'f', 0, 1, 2, 0x7f, (char)0xff };
	char str[16] = "hello, bpf";
	char letters[8] = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' };
	unsigned char all[256];

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	perf_event_output(ctx, &channel, CUR_CPU, mixed, sizeof(mixed));
	perf_event_output(ctx, &channel, CUR_CPU, str, 11);
	perf_event_output(ctx, &channel, CUR_CPU, letters, sizeof(letters));
	perf_event_output(ctx, &channel, CUR_CPU, all, sizeof(all));
	perf_event_output(ctx, &channel, CUR_CPU, str, 0);
	return second_function_of_it(ctx);
}
char _license[] SEC("license") = "GPL";
int _version SEC("version") = 1;
C

# perf compiles prog.c with clang and loads it; no program, no test
bpf_record() {
	local out=$1
	shift
	(cd "$T" && "$PERF" record -q -o "$out" "$@" -e bpf-output/no-inherit,name=evt/ \
		-e ./prog.c/map:channel.event=evt/ -- sleep 0.01) > "$T/rec.out" 2>&1 ||
		{ cat "$T/rec.out"; echo "perf cannot load the BPF program here"; exit 2; }
}
bpf_record "$T/perf.data"
bpf_record "$T/g.data" -g
IN=$T/perf.data

# what the test stands on: six outputs, the string, all 256 bytes
prf_out "$T/default.txt" script -i "$IN"
n=$(grep -ac ' evt: ' "$T/default.txt")
[ "$n" -eq 6 ] || { cat "$T/default.txt"; fail "$n evt samples, not 6"; }
grep -aq '^      BPF string: "hello, bpf"$' "$T/default.txt" || fail "no BPF string line"
grep -aq '^                  00f8: f8 f9 fa fb fc fd fe ff  ' "$T/default.txt" || fail "no 256-byte dump"
echo "ok: 6 bpf-output samples"

for IN in "$T/perf.data" "$T/g.data"; do
	same "(default)"
	same "-F bpf-output" -F bpf-output
	same "-F +bpf-output" -F +bpf-output
	same "-F -bpf-output" -F -bpf-output
	same "-F comm,tid,event,bpf-output" -F comm,tid,event,bpf-output
	same "-F sw:ip,bpf-output" -F sw:ip,bpf-output
	same "-F +bpf-output,-ip" -F +bpf-output,-ip
	same "-F trace:bpf-output" -F trace:bpf-output
	same "--ns -G" --ns -G
	same "-D" -D
done
# the same read from a pipe: perf's stream (the comm column is padded: evt
# samples no callchain), and a file without callchains through prf's pipe
(cd "$T" && "$PERF" record -q -o - -e bpf-output/no-inherit,name=evt/ \
	-e ./prog.c/map:channel.event=evt/ -- sleep 0.01 > "$T/pipe.data" 2> "$T/rec.out") ||
	{ cat "$T/rec.out"; fail "perf record -o - with the BPF program"; }
"$PERF" script -i - < "$T/pipe.data" > "$T/pipe.perf" 2>/dev/null
"$PRF" script -i - < "$T/pipe.data" > "$T/pipe.prf" 2> "$T/pipe.err" || { cat "$T/pipe.err"; fail "prf script -i - (pipe)"; }
[ -s "$T/pipe.perf" ] && cmp -s "$T/pipe.perf" "$T/pipe.prf" ||
	{ diff -a "$T/pipe.perf" "$T/pipe.prf" | head; fail "script of perf's pipe stream"; }
echo "ok: script of perf's pipe stream ($(wc -l < "$T/pipe.prf") lines)"
IN=$T/perf.data
same "--header" --header
grep -aq '^# 	sub_prog 0: bpf_prog_[0-9a-f]*_prf_bpf_output_writer addr 0x' "$T/prf.txt" &&
	grep -aq '^# 	sub_prog 1: bpf_prog_[0-9a-f]*_second_function_of_it addr 0x' "$T/prf.txt" &&
	grep -aq '^# btf info of id ' "$T/prf.txt" || fail "--header: no BPF program lines"

# perf's warnings for the types bpf-output is not valid for, and its error
"$PERF" script -i "$IN" -F comm,bpf-output > /dev/null 2> "$T/perf.err"
prf_out "$T/w.txt" script -i "$IN" -F comm,bpf-output
cmp -s "$T/perf.err" "$T/w.txt.err" || { diff "$T/perf.err" "$T/w.txt.err"; fail "-F comm,bpf-output warnings"; }
grep -q "^'bpf-output' not valid for hardware events. Ignoring.$" "$T/w.txt.err" || fail "no warning"
"$PRF" script -i "$IN" -F hw:bpf-output > /dev/null 2> "$T/hw.err"
rc=$?
[ $rc -eq 129 ] && grep -q "'bpf-output' not valid for hardware events." "$T/hw.err" ||
	{ cat "$T/hw.err"; fail "-F hw:bpf-output: exit $rc, not 129"; }
echo "ok: -F warnings as perf's, -F hw:bpf-output a usage error"

# the raw data a Python script gets
cat > "$T/raw.py" <<'PY'
def process_event(param_dict):
    s = param_dict["sample"]
    print(param_dict["ev_name"], s["period"], param_dict["raw_buf"].hex())
PY
if "$PERF" script -i "$IN" -s "$T/raw.py" > "$T/py.perf" 2>/dev/null; then
	prf_out "$T/py.prf" script -i "$IN" -s "$T/raw.py"
	cmp -s "$T/py.perf" "$T/py.prf" || { diff "$T/py.perf" "$T/py.prf"; fail "script -s raw_buf"; }
	echo "ok: script -s raw_buf ($(wc -l < "$T/py.prf") samples)"
fi

# report: bpf-output samples have period 0 (perf: 0.00%, event count 0)
data=$T/perf.data
report_same "(default)"
report_same "-n --sort comm,dso,sym" -n --sort comm,dso,sym
data=$T/g.data
report_same "-g" -g
"$PERF" report -D -i "$IN" > "$T/d.perf" 2>/dev/null
prf_out "$T/d.prf" report -D -i "$IN"
cmp -s "$T/d.perf" "$T/d.prf" || { diff -a "$T/d.perf" "$T/d.prf" | head; fail "report -D"; }
echo "ok: report -D"
"$PERF" report --header-only -i "$IN" > "$T/h.perf" 2>/dev/null
prf_out "$T/h.prf" report --header-only -i "$IN"
cmp -s "$T/h.perf" "$T/h.prf" || { diff -a "$T/h.perf" "$T/h.prf" | head; fail "report --header-only"; }
echo "ok: report --header-only"

# prf record -e bpf-output opens perf's bpf-output evsel (no program
# writes to it: no samples)
for ev in bpf-output bpf-output/no-inherit,name=evt/ "bpf-output -c 3" "bpf-output -F 99"; do
	# shellcheck disable=SC2086
	perf_record "$T/r.perf" -e $ev -- true
	# shellcheck disable=SC2086
	prf_out "$T/r.out" record -q -o "$T/r.prf" -e $ev -- true
	"$PERF" evlist -v -i "$T/r.perf" > "$T/ev.perf" 2>/dev/null
	"$PERF" evlist -v -i "$T/r.prf" > "$T/ev.prf" 2>/dev/null
	[ -s "$T/ev.perf" ] && cmp -s "$T/ev.perf" "$T/ev.prf" ||
		{ diff "$T/ev.perf" "$T/ev.prf"; fail "record -e $ev: attr differs"; }
done
echo "ok: record -e bpf-output attrs as perf's"
"$PERF" list sw 2>/dev/null | grep bpf-output > "$T/l.perf"
prf_out "$T/l.prf" list sw
grep bpf-output "$T/l.prf" | cmp -s - "$T/l.perf" || fail "list: bpf-output line"
echo "ok: list sw names bpf-output as perf"
