/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SCRIPTING_H
#define PRF_ANALYSIS_SCRIPTING_H
/*
 * `prf script -s FILE`: runs a script over the samples of a session, the
 * way perf's scripting engines do (perf-script-python(1)). The language
 * runtime lives in a plugin loaded with dlopen() here, only when a script
 * runs (util/analysis/scripting-abi.h); this side turns each resolved
 * sample into the plugin's plain event: comm, the ip's DSO and symbol,
 * the callchain, tracepoint payload fields decoded with the file's formats
 * (util/session/trace-format.h).
 *
 * Also the script helpers of `perf script`: -l (list the installed
 * scripts) and -g python (a handler skeleton for a file's events).
 */
#include <stdio.h>
#include "../session/session.h"

struct resolved_sample;
struct script_runner;

/* perf_event_open(2): data_src of a sample without PERF_SAMPLE_DATA_SRC,
 * as perf fills it (PERF_MEM_DATA_SRC_NONE) */
#define SCRIPT_DATA_SRC_NONE 0x5080021ULL

/*
 * Load the plugin for script argv[0] (by its extension: ".py"), start it
 * with argv (argc entries: the script, then its arguments) and run the
 * script's top level and trace_begin(). The plugin is looked up next to
 * the running prf binary ("<prf>-python.so") then in PRF_LIB_DIR.
 * Returns NULL with *status the exit status (1: no plugin, unknown
 * language or the script failed, its traceback printed; a sys.exit(N)
 * of the script: N). The session is borrowed.
 */
struct script_runner *script_runner__new(struct perf_session *session, int argc,
					 const char **argv, int *status);

/*
 * Hand one sample of evsel (rs from sample__resolve()) to the script:
 * its tracepoint handler, trace_unhandled() or process_event(), as perf
 * does. 0, or -ECANCELED when the script failed or exited (its status in
 * script_runner__status()), -ENOMEM.
 */
int script_runner__sample(struct script_runner *r, struct evsel *evsel,
			  struct perf_sample *sample, struct resolved_sample *rs);

/*
 * A PERF_RECORD_SWITCH / SWITCH_CPU_WIDE record (sample: its sample_id
 * fields) to the script's context_switch(), when it has one. 0 or
 * -ECANCELED as script_runner__sample().
 */
int script_runner__switch(struct script_runner *r, union perf_event *event,
			  struct perf_sample *sample);

/*
 * A side-band record (COMM, FORK, ...) as the session delivers it, for
 * the thread and comm objects of a db-export script (scripting-db.h);
 * nothing for other scripts. 0 or -ENOMEM.
 */
int script_runner__sideband(struct script_runner *r, union perf_event *event,
			    struct perf_sample *sample);

/* trace_end(). 0 or -ECANCELED as script_runner__sample(). */
int script_runner__end(struct script_runner *r);

/* The exit status the script asked for or caused (0 when it ran). */
int script_runner__status(const struct script_runner *r);

/* Stop the runtime and free r (NULL: nothing). */
void script_runner__delete(struct script_runner *r);

/*
 * The directory to give scripts as PERF_EXEC_PATH (the one holding
 * scripts/python/Perf-Trace-Util/lib): $PERF_EXEC_PATH, else Linux perf's
 * install directory when present, else prf's own helper modules
 * (scripting/exec beside the binary, or PRF_LIB_DIR/exec); NULL when
 * none is found. Static storage.
 */
const char *scripting__exec_path(void);

/*
 * `perf script -l`: the installed scripts (each scripts/LANG/bin/NAME-report
 * of the exec path) with their arguments and description, in perf's
 * layout, to fp. 0 or -errno.
 */
int scripting__list(FILE *fp);

/*
 * `perf script record NAME ARGS` / `report NAME ARGS`: run the installed
 * scripts/LANG/bin/NAME-record (or -report) with ARGS (argc entries), with
 * `perf` on its PATH meaning this prf, so that the recording and the
 * report are prf's. what: "record" or "report". Returns the exit status
 * to give (the script's; 1 when it is not installed or cannot run, with a
 * message).
 */
int scripting__run_installed(const char *name, const char *what, int argc, const char **argv);

/*
 * `perf script -g python`: write OUT (a new file, e.g. "perf-script.py"),
 * a Python script with trace_begin/trace_end, one handler per tracepoint
 * of session's evlist with its payload fields, trace_unhandled and
 * process_event. 0 or -errno (message printed).
 */
int scripting__generate_python(struct perf_session *session, const char *out);

#endif
