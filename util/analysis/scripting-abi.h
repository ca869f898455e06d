/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SCRIPTING_ABI_H
#define PRF_ANALYSIS_SCRIPTING_ABI_H
/*
 * The table between prf and a script language plugin (`prf script -s`).
 *
 * A plugin is a shared object loaded with dlopen() only when a script is
 * run (scripting/python/: prf-python.so, linked with libpython), so no
 * other command maps the language runtime. It exports one function,
 * PRF_SCRIPT_PLUGIN_INIT, which fills a struct prf_script_plugin.
 *
 * The plugin sees no prf structure: prf hands it each sample as a
 * struct prf_script_event of plain C values (numbers, NUL-terminated
 * strings, byte ranges), already resolved (comm, DSO, symbol, callchain,
 * tracepoint payload fields decoded with the file's formats). Everything
 * an event points to is valid only during the call. Only this header is
 * shared: a change of a structure bumps PRF_SCRIPT_ABI_VERSION, and prf
 * refuses a plugin of another version.
 *
 * The handler names, argument lists and dictionary keys a plugin makes of
 * these are perf's (perf-script-python(1)); see
 * Documentation/prf-script-python.txt.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRF_SCRIPT_ABI_VERSION 2
#define PRF_SCRIPT_PLUGIN_INIT "prf_script_plugin_init"

/* A tracepoint payload field, as perf's Python binding converts it; also
 * one argument of a call() (name NULL). */
enum prf_script_value_type {
	PRF_SV_UINT,		/* unsigned number: u */
	PRF_SV_INT,		/* signed 64-bit number: i */
	PRF_SV_STR,		/* printable string: ptr (NUL-terminated) */
	PRF_SV_BYTES,		/* array: ptr, len bytes (a bytearray; bytes in call()) */
};

struct prf_script_field {
	const char *name;
	enum prf_script_value_type type;
	uint64_t u;
	int64_t i;
	const char *ptr;
	size_t len;
};

/* One callchain frame, callee first. */
struct prf_script_frame {
	uint64_t ip;			/* as sampled */
	const char *sym;		/* NULL: no symbol */
	uint64_t sym_start, sym_end;	/* DSO address space, end exclusive */
	int sym_binding;		/* STB_* */
	uint64_t sym_off;		/* ip's DSO address - sym_start */
	const char *dso;		/* NULL: no map */
};

/* A map/symbol of an address (the sample ip). */
struct prf_script_location {
	const char *dso;		/* NULL: no map (then no dso_* below) */
	const char *dso_bid;		/* build-id in hex, "" when unknown */
	uint64_t map_start, map_end;	/* virtual addresses, end exclusive */
	const char *symbol;		/* NULL: no symbol */
	uint64_t symoff;		/* bytes from the symbol's start */
};

struct prf_script_event {
	const char *ev_name;		/* evsel name, "cpu-clock:ppp" */
	const void *attr;		/* the evsel's perf_event_attr */
	size_t attr_size;		/* bytes of attr (sizeof(struct perf_event_attr)) */
	/* the sample (perf_event_open(2) PERF_RECORD_SAMPLE fields; 0 when absent) */
	int32_t pid, tid;
	uint32_t cpu;			/* (u32)-1 without PERF_SAMPLE_CPU */
	uint64_t ip, time, period, phys_addr, addr, weight, transaction, data_src;
	const char *datasrc_decode;	/* data_src as perf's mem-info text */
	uint8_t cpumode;		/* PERF_RECORD_MISC_CPUMODE_MASK bits */
	const void *raw;		/* PERF_SAMPLE_RAW payload, raw_size bytes */
	size_t raw_size;
	const char *comm;
	/* The map and symbol of the sample ip into *loc, resolved on
	 * demand (during the event's delivery only). */
	void (*location)(const struct prf_script_event *ev, struct prf_script_location *loc);
	const struct prf_script_frame *frames;	/* callchain; none without one */
	size_t nr_frames;
	/* tracepoints with a known format; tp_handler NULL otherwise */
	const char *tp_handler;		/* "system__name" */
	const struct prf_script_field *fields;	/* payload fields, format order */
	size_t nr_fields;
	int common_pid;			/* the payload's common_pid (the thread id) */
	int common_pc, common_flags, common_lock_depth;	/* common_* of the payload */
	/* The ip's source file (full path) and line, looked up on demand
	 * (during the event's delivery only): 0, or -ENOENT (unknown). */
	int (*srcline)(const struct prf_script_event *ev, const char **file, unsigned int *line);
	void *host;			/* prf's, for location() and srcline() */
};

/* A PERF_RECORD_SWITCH or SWITCH_CPU_WIDE record, for the script's
 * context_switch(). */
struct prf_script_switch {
	uint64_t time;			/* ns; sample_id_all */
	int32_t cpu, pid, tid;		/* -1 when the record does not carry them */
	int32_t np_pid, np_tid;		/* next/previous task (CPU-wide), else -1 */
	int32_t machine_pid;		/* the machine's pid: -1, the host */
	bool out, out_preempt;		/* switch-out; preempted while running */
	int32_t sample_machine_pid;	/* guest machine of the record: 0 */
	int32_t vcpu;			/* guest vcpu: -1 */
};

/*
 * The flag and symbolic tables of an event's "print fmt" (print_flags(),
 * print_symbolic()), handed to the script's define_flag_field(),
 * define_flag_value(), define_symbolic_field() and define_symbolic_value()
 * (perf's Core.py keeps them for flag_str()/symbol_str()) the first time
 * the event is seen, in the order perf makes these calls.
 */
enum prf_script_define {
	PRF_DEFINE_FLAG_FIELD,		/* (handler, field, str: the delimiter) */
	PRF_DEFINE_FLAG_VALUE,		/* (handler, field, value, str) */
	PRF_DEFINE_SYMBOLIC_FIELD,	/* (handler, field) */
	PRF_DEFINE_SYMBOLIC_VALUE,	/* (handler, field, value, str) */
};

/*
 * Filled by the plugin's init. Every function returns 0, or -1 after the
 * plugin printed the script's error (with the language's traceback) to
 * stderr and set *exit_status; prf then stops and exits with it.
 */
struct prf_script_plugin {
	/* set by prf before init */
	unsigned int abi_version;	/* PRF_SCRIPT_ABI_VERSION */
	int *exit_status;		/* where a failing call puts prf's exit status
					   (1, or the script's sys.exit() code) */
	/* set by the plugin's init */
	/* Start the runtime with argv (argv[0] the script path), set
	 * PERF_EXEC_PATH to exec_path (a directory holding
	 * scripts/python/Perf-Trace-Util/lib) when the environment has none,
	 * run the script's top level, then its trace_begin(). */
	int (*start)(int argc, const char **argv, const char *exec_path);
	/* One sample. */
	int (*event)(const struct prf_script_event *ev);
	/* One define_*() call (enum prf_script_define); field NULL: None. */
	int (*define)(enum prf_script_define what, const char *handler, const char *field,
		      uint64_t value, const char *str);
	/* A context switch: the script's context_switch(), when it has one. */
	int (*context_switch)(const struct prf_script_switch *sw);
	/* trace_end(). */
	int (*end)(void);
	/* Stop the runtime (after start, whatever happened). */
	void (*stop)(void);
	/* Whether the script defines a function of this name (after start):
	 * prf skips building events nothing would receive. */
	bool (*has_handler)(const char *name);
	/* The truth of the script's global variable name (after start), as
	 * perf reads perf_db_export_mode: 1, 0 (false or not defined), or -1
	 * (its truth test raised). */
	int (*global_flag)(const char *name);
	/* Call the script's function name, when it has one, with the n
	 * values as positional arguments (PRF_SV_INT and _UINT: int, _STR:
	 * str, _BYTES: bytes): perf's db-export table calls
	 * (evsel_table(), sample_table(), ...). */
	int (*call)(const char *name, const struct prf_script_field *args, size_t n);
};

/* The plugin's PRF_SCRIPT_PLUGIN_INIT: 0, or -EINVAL for another ABI version. */
typedef int (*prf_script_plugin_init_t)(struct prf_script_plugin *plugin);

#endif
