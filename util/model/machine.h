/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_MACHINE_H
#define PRF_MODEL_MACHINE_H
/*
 * machine: the host being modelled from a recording: threads (pid/tid,
 * comm over time, fork/exit), their maps (user) and the kernel maps
 * ([kernel.kallsyms] and modules), and the DSOs all share.
 * Fed by machine__process_event() with side-band records in time order.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "../format/event.h"

struct build_id;
struct dso;
struct map;
struct symbol;
struct thread;

struct thread {
	pid_t pid, tid, ppid;
	const char *comm;	/* current comm (owned); "<pid>"-style ":tid" if unknown */
	bool comm_set;
	bool dead;
	void *maps;		/* private: shared by the threads of one process */
	int refcnt;		/* thread__get()/thread__put(); the machine holds one */
	void *priv;		/* per-consumer data */
};

/* Where one address resolved to. */
struct addr_location {
	struct thread *thread;
	struct map *map;	/* NULL: unmapped */
	struct symbol *sym;	/* NULL: no symbol */
	uint64_t addr;		/* in the DSO's address space (map__map_ip) */
	uint8_t cpumode;	/* PERF_RECORD_MISC_USER, _KERNEL, ... */
	char level;		/* '.', 'k', 'g', 'u', 'H' as perf prints [.] [k] */
	int32_t cpu;
	bool filtered;
};

struct machine {
	pid_t pid;		/* -1 host */
	void *priv;		/* private state (threads, dsos, kernel maps) */
	const char *symfs;	/* --symfs prefix, not owned */
	const char *kallsyms;	/* --kallsyms path, not owned */
	const char *vmlinux;	/* -k path, not owned */
	bool demangle;		/* default true */
	bool demangle_params;	/* C++ parameter lists in names: perf shows them
				   only with -v (default: verbose > 0 at creation) */
	bool inline_frames;	/* DWARF inline frames (default true) */
};

/* New host machine; NULL on ENOMEM. machine__delete() frees threads/DSOs. */
struct machine *machine__new_host(void);
void machine__delete(struct machine *machine);

/* Apply one side-band record (COMM, MMAP, MMAP2, FORK, EXIT, KSYMBOL,
 * HEADER_BUILD_ID...); other types are ignored. 0 or -errno. */
int machine__process_event(struct machine *machine, union perf_event *event,
			   struct perf_sample *sample);
/*
 * The jitdump file (jit-PID.dump, util/model/jitdump.h) process pid
 * mapped, as jitdump__find() locates it now: 0 and the path in buf,
 * -ENOENT when the process mapped none or it is gone. Thread-safe.
 */
int machine__jitdump_path(struct machine *machine, pid_t pid, char *buf, size_t size);
/* Record a build-id for a DSO path (from the BUILD_ID feature). */
int machine__set_build_id(struct machine *machine, const char *path,
			  const struct build_id *bid, bool kernel);

/* Thread by pid/tid, created if unknown (comm ":tid"). Borrowed. */
struct thread *machine__findnew_thread(struct machine *machine, pid_t pid, pid_t tid);
const char *thread__comm_str(const struct thread *thread);
/* Thread by tid, or NULL. Borrowed. */
struct thread *machine__find_thread(struct machine *machine, pid_t tid);
/*
 * Take / drop a reference to a thread (atomic count: may be dropped on
 * another thread than the one feeding the machine). A thread the machine
 * released (machine__release_exited()) or deleted lives on, with its
 * maps and their DSOs, until its last reference is dropped; its comm
 * string does not outlive the machine.
 */
struct thread *thread__get(struct thread *thread);
void thread__put(struct thread *thread);
/*
 * For live users that run long (prf top): drop the machine's reference
 * to every thread that was already dead (PERF_RECORD_EXIT) at the
 * previous call: its maps go at once (with the last thread of its
 * process: their map references, each map freed unless held elsewhere),
 * the thread itself once nothing else holds it (its maps are then NULL:
 * nothing resolves in it). A
 * released thread is no longer found by tid; a later record of that tid
 * makes a new thread (comm ":tid", as for any unknown tid). Consumers
 * that keep thread pointers must hold references (hists: hold_refs) or
 * forget them (hists__forget_memos()). Calls a refresh apart leave a
 * thread a whole interval to deliver its last samples. Returns the
 * number of threads released. Never called by report/script.
 */
size_t machine__release_exited(struct machine *machine);
/* Threads in the machine's table (found by tid), and thread objects not
 * yet freed in the whole process (in a table or kept by a reference). */
size_t machine__nr_threads(const struct machine *machine);
size_t thread__nr_alive(void);
/*
 * Let go of the DSOs nothing but the machine's table holds any more (no
 * map maps them: their processes were released, machine__release_exited(),
 * and no hist entry names them), the kernel's excepted: each is freed,
 * with its symbols and debug caches, and made anew (its symbols loaded
 * again) if a later MMAP names its file. For live sessions (prf top); a
 * reader keeps every DSO. On the thread that changes the model. Returns
 * the number let go.
 */
size_t machine__release_unused_dsos(struct machine *machine);
/* DSOs in the machine's table (dso__nr_alive(): all not yet freed). */
size_t machine__nr_dsos(const struct machine *machine);
/* DSO by path ("[kernel.kallsyms]", "/usr/lib/libc.so.6", ...), created if
 * unknown. Borrowed (the machine holds a reference); NULL on ENOMEM. */
struct dso *machine__findnew_dso(struct machine *machine, const char *path);

/* Resolve one address in thread's (user) or the kernel's (cpumode) space. */
void thread__find_symbol(struct thread *thread, uint8_t cpumode, uint64_t addr,
			 struct addr_location *al);
/*
 * The map and symbol of a user-space address of thread, as
 * thread__find_symbol() with PERF_RECORD_MISC_USER gives them, without
 * filling an addr_location: the unwinder asks this for every frame.
 * false (and NULLs) when no map holds addr. Borrowed, as there.
 */
bool thread__find_user_map(struct thread *thread, uint64_t addr, struct map **map,
			   struct symbol **sym);
/* Resolve the sample's ip (al->thread = sample's thread). 0 or -errno. */
int machine__resolve(struct machine *machine, struct addr_location *al,
		     struct perf_sample *sample);

/* Iterate all DSOs (for build-id lists); stop when fn returns non-zero. */
int machine__for_each_dso(struct machine *machine,
			  int (*fn)(struct dso *dso, void *arg), void *arg);
/* Call fn for each map of thread's (user) address space, by start
 * address; stops at fn's first non-zero return, which it returns. The
 * maps are borrowed for the call. */
int thread__for_each_map(struct thread *thread, int (*fn)(struct map *map, void *arg), void *arg);
/* Iterate threads sorted by pid, tid. */
int machine__for_each_thread(struct machine *machine,
			     int (*fn)(struct thread *thread, void *arg), void *arg);

#endif
