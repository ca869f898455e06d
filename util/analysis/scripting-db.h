/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SCRIPTING_DB_H
#define PRF_ANALYSIS_SCRIPTING_DB_H
/*
 * perf's db-export interface for scripts (the scripts that set
 * perf_db_export_mode, as export-to-sqlite.py and export-to-postgresql.py
 * do; perf-script-python(1) and those scripts describe it): instead of
 * process_event(), the script's table functions receive rows, each object
 * once, under an id counted from 1 per table in the order perf makes them:
 *
 *   evsel_table(id, name)
 *   machine_table(id, pid, root_dir)
 *   thread_table(id, machine_id, main_thread_id, pid, tid)
 *   comm_table(id, comm, thread_id, start_time, exec)
 *   comm_thread_table(id, comm_id, thread_id)
 *   dso_table(id, machine_id, short_name, long_name, build_id)
 *   symbol_table(id, dso_id, start, end, binding, name)
 *   branch_type_table(type, name)              (once, after trace_begin())
 *   sample_table(id, evsel_id, machine_id, thread_id, comm_id, dso_id,
 *                symbol_id, sym_offset, ip, time, cpu, to_dso_id,
 *                to_symbol_id, to_sym_offset, to_ip, period, weight,
 *                transaction, data_src, branch_type, in_tx, call_path_id,
 *                insn_count, cyc_count, flags)
 *   call_path_table(id, parent_id, symbol_id, ip)   (perf_db_export_callchains
 *                                                    and _calls)
 *   call_return_table(id, thread_id, comm_id, call_path_id, call_time,
 *                return_time, branch_count, call_id, return_id,
 *                parent_call_path_id, flags, parent_id, insn_count,
 *                cyc_count)                         (perf_db_export_calls)
 *   context_switch_table(id, machine_id, time, cpu, thread_out_id,
 *                comm_out_id, thread_in_id, comm_in_id, flags)
 *
 * 64-bit values are passed signed, as perf passes them. The thread and
 * comm rows follow perf's objects, which prf's machine does not keep: a
 * thread object per fork of a tid, a comm object per COMM record (the
 * first one replacing the ":tid" placeholder), the exec comm of a main
 * thread naming its process. This module keeps that model from the
 * side-band records (script_db__sideband()), beside the session's
 * machine. A sample without a symbol gets an "unknown" symbol of its DSO
 * at its address, as perf makes one. Tracepoint samples still go to the
 * script's tracepoint handlers (scripting.c), as in perf.
 *
 * The calls are those of perf's call/return processor fed with the
 * samples whose data address correlates with a symbol (page faults
 * recorded with -d): each thread's stack holds one entry, the ip's
 * symbol of its first sample (thread-stack.h), returned as a call on an
 * exec, when the tid is reused and at the end (script_db__flush()).
 * Not made: the calls of branch samples of hardware traces, which prf
 * does not decode, and synth_data() (PERF_TYPE_SYNTH events of those
 * traces).
 */
#include <stdbool.h>
#include "../session/session.h"

struct prf_script_plugin;
struct resolved_sample;
struct script_db;

/*
 * A db export over session s to plugin's table functions (both borrowed).
 * callchains: perf_db_export_callchains, the call paths of the samples'
 * callchains (call_path_table()); calls: perf_db_export_calls, the
 * call_return_table() rows. NULL on ENOMEM.
 */
struct script_db *script_db__new(struct perf_session *s, const struct prf_script_plugin *plugin,
				 bool callchains, bool calls);

/* The branch_type_table() rows perf makes at the start. 0, or
 * -ECANCELED when the script failed (its status set by the plugin). */
int script_db__branch_types(struct script_db *db);

/* A side-band record (COMM, FORK; others ignored) into the thread and
 * comm model, in delivery order. 0 or -ENOMEM. */
int script_db__sideband(struct script_db *db, const union perf_event *event,
			const struct perf_sample *sample);

/* One sample of a non-tracepoint evsel (rs from sample__resolve()): the
 * rows of what it names first seen, then its sample_table() row. 0,
 * -ECANCELED (the script failed), -ENOMEM. */
int script_db__sample(struct script_db *db, struct evsel *evsel, struct perf_sample *sample,
		      struct resolved_sample *rs);

/* A PERF_RECORD_SWITCH / SWITCH_CPU_WIDE record: its context_switch_table()
 * row, unless both sides are unknown or idle. 0, -ECANCELED, -ENOMEM. */
int script_db__switch(struct script_db *db, const union perf_event *event,
		      const struct perf_sample *sample);

/* The end of the samples: the calls still on the threads' stacks, thread
 * by thread in perf's order (before trace_end()). 0, -ECANCELED,
 * -ENOMEM. */
int script_db__flush(struct script_db *db);

/* Free db (NULL: nothing). */
void script_db__delete(struct script_db *db);

#endif
