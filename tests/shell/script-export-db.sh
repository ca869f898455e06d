#!/bin/bash
# prf script -s export-to-sqlite.py (perf's db-export interface) builds the database perf script -s builds: same tables, row counts and rows
# On two perf recordings of a workload that forks, execs and starts threads
# (a task one with cpu-clock callchains, context switches and a tracepoint;
# a system-wide one of CPU-wide switches), perf script -s and prf script
# -s run Linux perf's export-to-sqlite.py (unmodified, PySide2's QtSql)
# with its default arguments, and on the task one also with "all calls
# callchains" (the call_paths table) and "all calls" (perf writes the calls
# table's placeholder row only: no branch samples here), and on a -d
# page-fault recording (to_dso/to_symbol: the data addresses' data
# symbols), also with "all calls callchains": there perf's call/return
# processor takes the page faults, a call per thread stack returned on
# the exec of the forked child and of system()'s shell and at the end,
# in the calls table, their call paths sharing the call_paths tree with
# the callchains'; the databases must list the same tables and views,
# each with the same number of rows and the same rows (ids included).
# A second export to an existing database fails in the script: prf exits
# 1 with the script's traceback.
set -u
. "$PRF_SRCDIR/tests/shell/lib/setup.sh"
test_setup script-export-db

. "$PRF_SRCDIR/tests/shell/lib/pyscript.sh"
. "$PRF_SRCDIR/tests/shell/lib/export-db.sh"
py_need_plugin
xdb_need
xdb_record

# dump DB OUT: OUT: name|rows|md5 of the rows in id order, per table and
# view; the rows in OUT.NAME
dump() {
	python3 - "$1" "$2" <<'EOF'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
with open(sys.argv[2], "w") as out:
    for (name,) in db.execute("select name from sqlite_master where type in ('table', 'view') order by name"):
        rows = "".join("|".join(map(str, r)) + "\n"
                       for r in db.execute("select * from %s order by 1" % name))
        with open(sys.argv[2] + "." + name, "w") as f:
            f.write(rows)
        print("%s|%d|%s" % (name, rows.count("\n"), hashlib.md5(rows.encode()).hexdigest()), file=out)
EOF
}

# export_both DATA ARGS...: both exports of $T/DATA.data into $T/{perf,prf}.db, compared
export_both() {
	rm -f "$T/perf.db" "$T/prf.db"
	xdb_export "$1" export-to-sqlite.py "$T/perf.db" "$T/prf.db" "${@:2}"
}

export_both task
export_both task all calls callchains
awk -F'|' '$1 == "call_paths" && $2 >= 3 { ok = 1 } END { exit !ok }' "$T/perf.dump" || fail "no call path rows to compare"
export_both wide
grep -q '^context_switches|[1-9]' "$T/perf.dump" || fail "no context switch rows to compare"
# "calls" without callchains: no branch or trace samples here, so perf
# writes only the calls table's placeholder row, and prf the same
export_both task all calls
grep -q '^calls|1|' "$T/perf.dump" || fail "perf wrote calls rows: compare them"
echo "ok: calls: perf and prf write only the placeholder row (no branch samples here)"

# a -d recording (page faults with their addresses): each sample's
# to_dso/to_symbol is its data address's DSO and data symbol (objects of
# .data/.bss/.rodata, "unknown" ones at addresses without), as perf's
perf_record "$T/faults.data" -d -g -e page-faults -c 1 -- "$T/work"
export_both faults
n=$(python3 - "$T/prf.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("select count(*) from samples s join symbols y on y.id = s.to_symbol_id"
                 " where y.name != 'unknown' and s.to_symbol_id != s.symbol_id").fetchone()[0])
EOF
)
[ "${n:-0}" -gt 0 ] || fail "-d export: no sample's data address names a symbol of its own"
echo "ok: -d export: $n samples' data addresses name a symbol other than their ip's"

# calls of the page faults: a call per thread stack; the child's exec and
# the shell's return the calls before them
export_both faults all calls callchains
read -r calls threads execs < <(python3 - "$T/perf.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(*db.execute("select count(*), count(distinct thread_id),"
                  " count(*) - count(distinct thread_id) from calls where id > 0").fetchone())
EOF
)
[ "${threads:-0}" -ge 5 ] && [ "${execs:-0}" -ge 2 ] ||
	fail "perf's calls of the page faults: $calls calls of $threads threads, $execs after an exec; expected the workload's 5 (main, its 2 threads, the forked child, system()'s shell) and 2 execs"
echo "ok: -d export with calls: $calls calls of $threads threads ($execs returned on an exec), as perf's"

# the script raises (the database exists): its traceback, exit 1
(cd "$T" && "$PRF" script -i task.data -s "$XDB_DIR/export-to-sqlite.py" prf.db) > "$T/again.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/again.out"; fail "export into an existing database: exit $rc, not 1"; }
grep -q "already exists" "$T/again.out" || { cat "$T/again.out"; fail "no message of the script's exception"; }
echo "ok: an export into an existing database fails with the script's exception (exit 1)"
exit 0
