#!/bin/bash
# prf script -s export-to-postgresql.py fills a real PostgreSQL server as perf script -s does: same tables, row counts and rows
# The test starts its own PostgreSQL (Debian's postgresql: initdb in its
# temp dir, run as the unprivileged user nobody, listening only on a unix
# socket in that dir; stopped on exit). On two perf recordings of a
# workload that forks, execs and starts threads, perf script -s and prf
# script -s run Linux perf's export-to-postgresql.py (unmodified: PySide2's
# QPSQL driver and libpq's COPY), each into its own database: the task
# recording (cpu-clock callchains) with "all calls callchains", the
# system-wide one (CPU-wide switches) with the default arguments, and a
# -d page-fault recording (to_dso/to_symbol: data symbols), that one
# also with "all calls callchains" (the calls perf's call/return
# processor makes of page faults: a call per thread stack). The two
# databases must list the same tables and views, each with the same
# number of rows and the same rows.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-export-pg runuser

. "$PRF_SRCDIR/tests/shell/lib/pyscript.sh"
. "$PRF_SRCDIR/tests/shell/lib/export-db.sh"
py_need_plugin
xdb_need
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || { echo "no PostgreSQL server (Debian postgresql)"; exit 2; }
/usr/bin/python3 -c 'from PySide2.QtSql import QSqlDatabase as D
from PySide2.QtCore import QCoreApplication
import sys; a = QCoreApplication(sys.argv); sys.exit("QPSQL" not in D.drivers())' 2>/dev/null ||
	{ echo "no Qt PostgreSQL driver (libqt5sql5-psql)"; exit 2; }
id nobody >/dev/null 2>&1 || { echo "no user nobody to run the server as"; exit 2; }

# the server: its files owned by nobody (postgres refuses to run as root)
PG=$T/pg
PGPORT=$((20000 + $$ % 20000))
chmod 711 "$T"
mkdir "$PG" && chown nobody: "$PG" || fail "mkdir $PG"
pg() { runuser -u nobody -- "$@"; }
stop_server() {
	[ -f "$PG/data/postmaster.pid" ] && pg "$PGBIN/pg_ctl" -D "$PG/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$T"
}
trap stop_server EXIT
pg "$PGBIN/initdb" -D "$PG/data" -U prf --auth=trust -E UTF8 --no-sync >"$PG/initdb.log" 2>&1 ||
	{ cat "$PG/initdb.log"; fail "initdb"; }
pg "$PGBIN/pg_ctl" -D "$PG/data" -l "$PG/log" -w -t 60 \
	-o "-c listen_addresses='' -k $PG -p $PGPORT -c fsync=off" start >/dev/null 2>&1 ||
	{ cat "$PG/log"; fail "the PostgreSQL server did not start"; }
export PGHOST=$PG PGPORT PGUSER=prf
unset PGDATABASE PGPASSWORD PGSERVICE
echo "ok: PostgreSQL $("$PGBIN/psql" -d postgres -Atc 'show server_version') on $PG/.s.PGSQL.$PGPORT"

xdb_record

# dump DB OUT: OUT: name|rows|md5 of the rows in id order, per table and
# view; the rows in OUT.NAME
dump() {
	local t n sum
	"$PGBIN/psql" -d "$1" -Atc "select table_name from information_schema.tables
		where table_schema = 'public' order by 1" > "$T/names" || return 1
	: > "$2"
	while read -r t; do
		n=$("$PGBIN/psql" -d "$1" -Atc "select count(*) from $t") || return 1
		"$PGBIN/psql" -d "$1" -Atc "copy (select * from $t order by 1) to stdout" > "$2.$t" ||
			return 1
		sum=$(md5sum < "$2.$t")
		echo "$t|$n|${sum%% *}" >> "$2"
	done < "$T/names"
}

# export_both DATA ARGS...: $T/DATA.data into databases perf_DATA and prf_DATA, compared
export_both() {
	xdb_export "$1" export-to-postgresql.py "perf_$1" "prf_$1" "${@:2}"
}

export_both task all calls callchains
grep -q '^call_paths|[1-9][0-9]' "$T/perf.dump" || fail "no call path rows to compare"
export_both wide
grep -q '^context_switches|[1-9]' "$T/perf.dump" || fail "no context switch rows to compare"
# a -d recording: the samples' to_dso/to_symbol are their data addresses'
perf_record "$T/faults.data" -d -g -e page-faults -c 1 -- "$T/work"
export_both faults
xdb_export faults export-to-postgresql.py perf_calls prf_calls all calls callchains
grep -Eq '^calls\|([5-9]|[1-9][0-9]+)\|' "$T/perf.dump" || fail "perf wrote no calls of the page faults to compare"
exit 0
