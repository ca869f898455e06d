# Sourced by script-export-db.sh and script-export-pg.sh (after setup.sh,
# test_setup and pyscript.sh): perf's export-to-sqlite.py and
# export-to-postgresql.py run by perf script -s and by prf script -s.
# xdb_need: skip unless perf's export scripts and PySide2's QtSql
#   (Debian python3-pyside2.qtsql) are installed; sets $XDB_DIR.
# xdb_record: compile a workload that forks, execs itself under another
#   name and starts two threads, and record with perf (about a second):
#   $T/task.data (cpu-clock -g, context switches, sched_switch when the
#   tracepoint is there) and $T/wide.data (-a: CPU-wide switches of every
#   task, the threads and comms of the machine; no samples, so that the
#   symbols compared are the workload's, not those of whatever else runs).
# xdb_export DATA SCRIPT DB1 DB2 ARGS...: perf script -s and prf script -s
#   (in $T) run $XDB_DIR/SCRIPT over $T/DATA.data, perf's with DB1 and prf's
#   with DB2, then ARGS; both must exit 0. The test's dump DB OUT then
#   writes $T/perf.dump and $T/prf.dump, which xdb_compare compares.
# xdb_compare A B WHAT: A and B (dumps of two databases, one line per table
#   or view: name|rows|md5 of its rows in id order, the rows themselves in
#   A.NAME and B.NAME) list the same tables with the same rows; fail()
#   otherwise, showing the first rows that differ. Prints the tables and
#   row counts.
xdb_need() {
	py_perf_scripts export-to-sqlite.py
	XDB_DIR=$S
	# the Python perf and prf embed (libpython3, Debian's)
	/usr/bin/python3 -c 'from PySide2.QtSql import QSqlDatabase' 2>/dev/null ||
		{ echo "no PySide2.QtSql (python3-pyside2.qtsql)"; exit 2; }
}

xdb_record() {
	local tp=
	cat > "$T/work.c" <<'EOF'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
volatile unsigned long sink;
__attribute__((noinline)) static void leaf(void) { for (int i = 0; i < 100000; i++) sink += i; }
__attribute__((noinline)) static void mid(void) { leaf(); }
static void *work(void *arg) { for (int i = 0; i < 600; i++) mid(); usleep(1000); return arg; }
int main(int argc, char **argv)
{
	pthread_t t[2];
	pid_t p;

	if (argc > 1) {		/* the child, exec'd as "exe" */
		work(NULL);
		return 0;
	}
	p = fork();
	if (p == 0) {
		execl("/proc/self/exe", "child", "x", (char *)0);
		_exit(1);
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	waitpid(p, NULL, 0);
	return system("true");
}
EOF
	cc -O1 -g -fno-omit-frame-pointer -pthread -o "$T/work" "$T/work.c" || fail "cc work.c"
	"$PRF" list 'sched:sched_switch' 2>/dev/null | grep -q sched_switch && tp="-e sched:sched_switch"
	# shellcheck disable=SC2086
	perf_record "$T/task.data" -g -e cpu-clock -F 999 --switch-events $tp -- "$T/work"
	perf_record "$T/wide.data" -a -e dummy --switch-events -- "$T/work"
}

xdb_compare() {
	local a=$1 b=$2 what=$3
	[ -s "$a" ] || fail "$what: perf's database has no tables"
	cmp -s <(cut -d'|' -f1 "$a") <(cut -d'|' -f1 "$b") ||
		{ diff <(cut -d'|' -f1 "$a") <(cut -d'|' -f1 "$b"); fail "$what: the tables differ"; }
	cmp -s <(cut -d'|' -f1,2 "$a") <(cut -d'|' -f1,2 "$b") ||
		{ diff "$a" "$b"; fail "$what: row counts differ"; }
	if ! cmp -s "$a" "$b"; then
		diff "$a" "$b" | sed -n 's/^< \([^|]*\)|.*/\1/p' | while read -r t; do
			diff "$a.$t" "$b.$t" | head -10
		done
		fail "$what: the rows differ"
	fi
	echo "ok: $what: $(cut -d'|' -f1,2 "$a" | grep -v _view | tr '|\n' '= ')"
}

xdb_export() {
	local data=$1 script=$2 perf_db=$3 prf_db=$4 rc
	shift 4
	(cd "$T" && "$PERF" script -i "$data.data" -s "$XDB_DIR/$script" "$perf_db" "$@") \
		> "$T/perf.out" 2>&1 || { tail -5 "$T/perf.out"; fail "perf's export of $data $*"; }
	(cd "$T" && "$PRF" script -i "$data.data" -s "$XDB_DIR/$script" "$prf_db" "$@") \
		> "$T/prf.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { tail -20 "$T/prf.out"; fail "prf's export of $data $*: exit $rc"; }
	dump "$perf_db" "$T/perf.dump" || fail "reading $perf_db"
	dump "$prf_db" "$T/prf.dump" || fail "reading $prf_db"
	xdb_compare "$T/perf.dump" "$T/prf.dump" "$data${*:+ $*}"
}
