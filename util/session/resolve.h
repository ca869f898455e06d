/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_SESSION_RESOLVE_H
#define PRF_SESSION_RESOLVE_H
/*
 * The resolved sample: the one place a sample delivered by the session
 * becomes its thread, comm, the map/DSO/symbol of its ip and its
 * callchain (frame pointers, DWARF unwinding with the session's
 * unwind-ahead workers, inline frames and srclines on demand). report,
 * script, folded stacks, flamegraphs and every later consumer call these
 * and only consume what they fill; none walks the model itself.
 *
 * Valid during the delivery of the sample: the thread, maps and symbols
 * point into the session's machine, which the next side-band record may
 * change (a consumer keeping them longer syncs at perf_tool.model_barrier).
 */
#include <stdbool.h>
#include <sys/types.h>
#include "session.h"
#include "../model/callchain.h"

struct resolved_sample {
	struct perf_sample *sample;	/* borrowed from the delivery */
	struct evsel *evsel;
	struct thread *thread;		/* NULL only when out of memory */
	const char *comm;		/* the thread's comm; ":-1" without a thread */
	struct addr_location al;	/* the sample ip: resolved_sample__location() */
	struct callchain_cursor cursor;	/* resolved_sample__callchain(); owned */
};

/* Empty resolved sample (no frames); its cursor gets a resolution cache
 * when cache is true (callchain_cursor__enable_cache(): repeated chains
 * resolved once). 0 or -ENOMEM. */
int resolved_sample__init(struct resolved_sample *rs, bool cache);
/* Free the cursor's frames and cache. */
void resolved_sample__exit(struct resolved_sample *rs);

/*
 * Start resolving sample of evsel, delivered by session s: its thread
 * (found or made with the sample's pid/tid, as perf's
 * machine__findnew_thread) and comm. The callchain and the ip's location
 * are left for the calls below, so a consumer filtering on the comm pays
 * for nothing more. 0, or -ENOMEM (rs->thread NULL, rs->comm ":-1").
 */
int sample__resolve(struct perf_session *s, struct perf_sample *sample, struct evsel *evsel,
		    struct resolved_sample *rs);

/*
 * Fill rs->cursor with the sample's callchain, callee first, as
 * sample__resolve_callchain() (util/model/callchain.h) describes for
 * opts; DWARF samples the session's workers unwound ahead are taken from
 * them. 0 or -errno (-ENOMEM).
 */
int resolved_sample__callchain(struct perf_session *s, struct resolved_sample *rs,
			       const struct resolve_opts *opts);

/*
 * The DSO of the map holding the sample ip in the sample's cpumode, as
 * resolved_sample__location() would find it, without loading any
 * symbols: for consumers that drop samples by DSO (or put some aside)
 * before paying for their symbol tables. Borrowed; NULL when no map
 * holds the ip (or a guest/hypervisor mode).
 */
struct dso *resolved_sample__dso(const struct resolved_sample *rs);

/*
 * Fill rs->al with the map, symbol and DSO address of the sample ip in
 * the sample's cpumode (perf's machine__resolve()), al.cpu the sample's
 * cpu. from_chain: the cursor was just filled for this sample, and its
 * first frame is used when it is the sample ip (no second lookup).
 */
void resolved_sample__location(struct resolved_sample *rs, bool from_chain);

/*
 * The map and symbol of the sample's data address (sample->addr, e.g. a
 * page fault's) into al, as perf's thread__resolve(): in the sample's
 * cpumode, else in the space the address belongs to (kernel or user).
 * The symbol is a data symbol (map__find_data_symbol(): objects of
 * .data, .bss, .rodata besides functions), al->addr the address in its
 * DSO's space (offset into the symbol: al->addr - al->sym->start).
 */
void resolved_sample__addr_location(const struct resolved_sample *rs, struct addr_location *al);
/*
 * The same as perf's mem-mode report resolves a sample's data address
 * (ip__resolve_data()): in the sample's cpumode only, so a kernel-mode
 * sample's user address has no map (al->map NULL, al->level 'k').
 */
void resolved_sample__data_location(const struct resolved_sample *rs, struct addr_location *al);
/*
 * The srcline sort key of the sample ip as perf 6.1's report prints it:
 * "file.c:123" from the DSO's line table, else what
 * callchain_frame__srcline() answers with the symbol ("sym+off", "??:0").
 * Needs resolved_sample__location(). Interned: never freed by the caller.
 */
const char *resolved_sample__srcline(const struct resolved_sample *rs);

/*
 * A side-band record (MMAP, MMAP2, COMM, FORK, EXIT, KSYMBOL, ...) into
 * the session's machine, for a tool that overrides the default side-band
 * callbacks (perf_tool__init()) to see them too. 0 or -errno.
 */
int perf_session__process_sideband(struct perf_session *s, union perf_event *event,
				   struct perf_sample *sample);

/* The comm of thread tid of process pid in the session's machine (the
 * thread is made when unknown), ":-1" when out of memory. Valid until the
 * next side-band record. */
const char *perf_session__comm(struct perf_session *s, pid_t pid, pid_t tid);

#endif
