# Sourced by the script-python*.sh tests (after setup.sh and test_setup).
# py_need_plugin: skip unless prf's Python plugin was built beside $PRF
#   (installed tests: installed in prf's lib directory, $PRF_SRCDIR).
# py_perf_scripts FILE: set $S to perf's scripts/python directory holding
#   FILE (Debian: /usr/lib/perf-core); skip when there is none.
# py_record_cpu N: compile (-g) a leaf()/mid() program that loops N times and
#   record it with perf (cpu-clock, -g, -F 999) into $T/cpu.data.
# prf_exec: prf's own helper modules (Core, Util, EventClass) as a
#   PERF_EXEC_PATH: scripting/exec of the source tree, or for installed
#   tests the exec/ that make install puts in prf's lib directory.
py_need_plugin() {
	local plugin
	plugin="$(readlink -f "$PRF")-python.so"
	[ -e "$plugin" ] || [ -e "$PRF_SRCDIR/prf-python.so" ] ||
		{ echo "no $plugin (python3-embed missing at build time)"; exit 2; }
}
prf_exec=$PRF_SRCDIR/scripting/exec
[ -d "$prf_exec" ] || prf_exec=$PRF_SRCDIR/exec

py_perf_scripts() {
	local d
	S=
	for d in /usr/lib/perf-core /usr/libexec/perf-core; do
		[ -f "$d/scripts/python/$1" ] && S=$d/scripts/python && return
	done
	echo "no perf scripts directory with $1 (perf-core/scripts/python)"
	exit 2
}

py_record_cpu() {
	cat > "$T/spin.c" <<EOC
volatile unsigned long sink;
__attribute__((noinline)) void leaf(void) { for (int i = 0; i < 100000; i++) sink += i; }
__attribute__((noinline)) void mid(void) { leaf(); }
int main(void) { for (int i = 0; i < $1; i++) mid(); return 0; }
EOC
	cc -O1 -g -fno-omit-frame-pointer -o "$T/spin" "$T/spin.c" || fail "cc spin.c"
	perf_record "$T/cpu.data" -g -e cpu-clock -F 999 -- "$T/spin"
}
