// SPDX-License-Identifier: GPL-2.0
/*
 * perf's db-export interface for scripts (see scripting-db.h): ids and
 * table rows as perf makes them, handed to the plugin's call().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scripting-db.h"
#include "scripting.h"
#include "scripting-abi.h"
#include "thread-stack.h"
#include "../session/resolve.h"
#include "../model/dso.h"
#include "../model/map.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../lib/util.h"

/* perf's ip flags (PERF_IP_FLAG_*, perf-script(1) "flags"): the branch
 * types perf lists in branch_type_table() */
enum {
	IPF_BRANCH = 1 << 0, IPF_CALL = 1 << 1, IPF_RETURN = 1 << 2,
	IPF_CONDITIONAL = 1 << 3, IPF_SYSCALLRET = 1 << 4, IPF_ASYNC = 1 << 5,
	IPF_INTERRUPT = 1 << 6, IPF_TX_ABORT = 1 << 7, IPF_TRACE_BEGIN = 1 << 8,
	IPF_TRACE_END = 1 << 9, IPF_VMENTRY = 1 << 11, IPF_VMEXIT = 1 << 12,
};

static const struct {
	unsigned int type;
	const char *name;
} branch_types[] = {
	{ 0, "no branch" },
	{ IPF_BRANCH | IPF_CALL, "call" },
	{ IPF_BRANCH | IPF_RETURN, "return" },
	{ IPF_BRANCH | IPF_CONDITIONAL, "conditional jump" },
	{ IPF_BRANCH, "unconditional jump" },
	{ IPF_BRANCH | IPF_CALL | IPF_INTERRUPT, "software interrupt" },
	{ IPF_BRANCH | IPF_RETURN | IPF_INTERRUPT, "return from interrupt" },
	{ IPF_BRANCH | IPF_CALL | IPF_SYSCALLRET, "system call" },
	{ IPF_BRANCH | IPF_RETURN | IPF_SYSCALLRET, "return from system call" },
	{ IPF_BRANCH | IPF_ASYNC, "asynchronous branch" },
	{ IPF_BRANCH | IPF_CALL | IPF_ASYNC | IPF_INTERRUPT, "hardware interrupt" },
	{ IPF_BRANCH | IPF_TX_ABORT, "transaction abort" },
	{ IPF_BRANCH | IPF_TRACE_BEGIN, "trace begin" },
	{ IPF_BRANCH | IPF_TRACE_END, "trace end" },
	{ IPF_BRANCH | IPF_CALL | IPF_VMENTRY, "vm entry" },
	{ IPF_BRANCH | IPF_CALL | IPF_VMEXIT, "vm exit" },
};

/* ---- a map of two-word keys to ids ----------------------------------- */

struct idmap_ent {
	uint64_t a, b;
	uint64_t val;		/* 0: empty slot */
};

struct idmap {
	struct idmap_ent *ent;
	size_t cap, nr;		/* cap: a power of two */
};

static size_t idmap_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;

	return (size_t)(h ^ (h >> 29));
}

/* The value slot of (a, b): *slot 0 when the key is new (the caller sets
 * it non-zero). NULL on ENOMEM. */
static uint64_t *idmap_slot(struct idmap *m, uint64_t a, uint64_t b)
{
	size_t i;

	if (2 * (m->nr + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct idmap_ent *e = calloc(cap, sizeof(*e));

		if (!e)
			return NULL;
		for (size_t j = 0; j < m->cap; j++) {
			if (!m->ent[j].val)
				continue;
			i = idmap_hash(m->ent[j].a, m->ent[j].b) & (cap - 1);
			while (e[i].val)
				i = (i + 1) & (cap - 1);
			e[i] = m->ent[j];
		}
		free(m->ent);
		m->ent = e;
		m->cap = cap;
	}
	i = idmap_hash(a, b) & (m->cap - 1);
	while (m->ent[i].val && (m->ent[i].a != a || m->ent[i].b != b))
		i = (i + 1) & (m->cap - 1);
	if (!m->ent[i].val) {
		m->ent[i].a = a;
		m->ent[i].b = b;
		m->nr++;
	}
	return &m->ent[i].val;
}

/* Remove (a, b) if present (backward-shift deletion). */
static void idmap_remove(struct idmap *m, uint64_t a, uint64_t b)
{
	size_t i, j;

	if (!m->cap)
		return;
	i = idmap_hash(a, b) & (m->cap - 1);
	while (m->ent[i].val && (m->ent[i].a != a || m->ent[i].b != b))
		i = (i + 1) & (m->cap - 1);
	if (!m->ent[i].val)
		return;
	m->nr--;
	for (j = (i + 1) & (m->cap - 1); m->ent[j].val; j = (j + 1) & (m->cap - 1)) {
		size_t home = idmap_hash(m->ent[j].a, m->ent[j].b) & (m->cap - 1);

		/* move j into the hole at i unless its home lies in (i, j] */
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			m->ent[i] = m->ent[j];
			i = j;
		}
	}
	m->ent[i].val = 0;
}

/* ---- perf's thread and comm objects ---------------------------------- */

struct db_comm {
	char *str;
	uint64_t start;		/* ns of the record that set it; 0: unknown */
	bool exec;
	uint64_t db_id;
};

struct db_thread {
	pid_t pid, tid;
	bool comm_set;		/* a COMM or fork named it (else ":tid") */
	uint64_t db_id;
	struct db_comm **comms;	/* oldest first; never empty */
	size_t nr_comms;
	struct thread_stack stack;	/* perf_db_export_calls */
	struct db_thread *next;	/* every thread made, for freeing */
};

struct script_db {
	struct perf_session *session;
	const struct prf_script_plugin *plugin;
	bool callchains;
	bool calls;		/* perf_db_export_calls: call_return_table() rows */
	bool comm_exec;		/* the machine knows exec comms (perf's
				   machine->comm_exec) */
	struct idmap threads;	/* tid -> struct db_thread * (the live one) */
	struct db_thread *all;
	struct idmap evsels, dsos, symbols, call_paths;
	uint64_t machine_id;
	uint64_t call_path_root;	/* the root's id once a callchain was seen */
	uint64_t *frame_syms;		/* export_call_path(): per frame */
	size_t alloc_frame_syms;
	uint64_t last_evsel, last_thread, last_comm, last_comm_thread, last_dso, last_symbol,
		 last_sample, last_call_path, last_context_switch, last_call;
	struct db_thread *flushing;	/* the thread whose stack export_call() gets */
	struct resolve_opts ropts;
	struct prf_script_field args[25];
	char bid[2 * BUILD_ID_SIZE + 1];
};

/* ---- rows ----------------------------------------------------------- */

/* argument i: a number, signed as perf passes 64-bit values */
static void arg_int(struct script_db *db, size_t i, int64_t v)
{
	db->args[i] = (struct prf_script_field){ .type = PRF_SV_INT, .i = v };
}

static void arg_str(struct script_db *db, size_t i, const char *s)
{
	db->args[i] = (struct prf_script_field){ .type = PRF_SV_STR, .ptr = s };
}

static int row(struct script_db *db, const char *table, size_t n)
{
	return db->plugin->call(table, db->args, n) ? -ECANCELED : 0;
}

static struct db_comm *comm_new(const char *str, uint64_t start, bool exec)
{
	struct db_comm *c = zalloc(sizeof(*c));

	if (!c)
		return NULL;
	c->str = strdup(str);
	if (!c->str) {
		free(c);
		return NULL;
	}
	c->start = start;
	c->exec = exec;
	return c;
}

static struct db_comm *thread_comm(const struct db_thread *t)
{
	return t->comms[t->nr_comms - 1];
}

/* The comm naming t's program: its latest exec comm, else its first one
 * (the second when the first has no time and t is a main thread: a
 * synthesized fork's copy of the parent's), as perf picks it. */
static struct db_comm *thread_exec_comm(const struct db_thread *t)
{
	for (size_t i = t->nr_comms; i-- > 0;) {
		if (t->comms[i]->exec)
			return t->comms[i];
	}
	if (t->nr_comms > 1 && !t->comms[0]->start && t->pid == t->tid)
		return t->comms[1];
	return t->comms[0];
}

/* A COMM record or a fork: the first name replaces ":tid", later ones are
 * new comm objects. 0 or -ENOMEM. */
static int thread_set_comm(struct db_thread *t, const char *str, uint64_t time, bool exec)
{
	if (!t->comm_set) {
		struct db_comm *c = t->comms[0];
		char *s = strdup(str);

		if (!s)
			return -ENOMEM;
		free(c->str);
		c->str = s;
		c->start = time;
		c->exec |= exec;
	} else {
		struct db_comm **nc = realloc(t->comms, (t->nr_comms + 1) * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		t->comms = nc;
		t->comms[t->nr_comms] = comm_new(str, time, exec);
		if (!t->comms[t->nr_comms])
			return -ENOMEM;
		t->nr_comms++;
	}
	t->comm_set = true;
	return 0;
}

static struct db_thread *thread_new(struct script_db *db, pid_t pid, pid_t tid)
{
	struct db_thread *t = zalloc(sizeof(*t));
	char name[32];

	if (!t)
		return NULL;
	snprintf(name, sizeof(name), ":%d", tid);
	t->comms = calloc(1, sizeof(*t->comms));
	if (t->comms)
		t->comms[0] = comm_new(name, 0, false);
	if (!t->comms || !t->comms[0]) {
		free(t->comms);
		free(t);
		return NULL;
	}
	t->nr_comms = 1;
	t->pid = pid;
	t->tid = tid;
	t->next = db->all;
	db->all = t;
	return t;
}

static struct db_thread *findnew_thread(struct script_db *db, pid_t pid, pid_t tid, bool create);

/*
 * The thread of tid (created when create), as perf's machine finds it: a
 * thread known without its pid learns it (and its process's main thread
 * is made); a new thread of another's process makes that main thread.
 */
static struct db_thread *findnew_thread(struct script_db *db, pid_t pid, pid_t tid, bool create)
{
	uint64_t *slot = idmap_slot(&db->threads, (uint32_t)tid, 0);
	struct db_thread *t;

	if (!slot)
		return NULL;
	if (*slot) {
		t = (struct db_thread *)(uintptr_t)*slot;
		if (pid != -1 && pid != t->pid && t->pid == -1) {
			t->pid = pid;
			if (t->pid != t->tid)
				findnew_thread(db, pid, pid, true);
		}
		return t;
	}
	if (!create) {
		idmap_remove(&db->threads, (uint32_t)tid, 0);
		return NULL;
	}
	t = thread_new(db, pid, tid);
	if (!t) {
		idmap_remove(&db->threads, (uint32_t)tid, 0);
		return NULL;
	}
	*slot = (uintptr_t)t;
	if (pid != -1 && pid != tid)
		findnew_thread(db, pid, pid, true);
	return t;
}

static int flush_stack(struct script_db *db, struct db_thread *t);

/* t leaves the machine (its tid is reused): perf frees the thread then,
 * and with it flushes its stack. 0, -ECANCELED, -ENOMEM. */
static int remove_thread(struct script_db *db, struct db_thread *t)
{
	idmap_remove(&db->threads, (uint32_t)t->tid, 0);
	return flush_stack(db, t);
}

static struct db_thread *main_thread(struct script_db *db, struct db_thread *t)
{
	if (t->pid == t->tid)
		return t;
	if (t->pid == -1)
		return NULL;
	return findnew_thread(db, t->pid, t->pid, false);
}

int script_db__sideband(struct script_db *db, const union perf_event *event,
			const struct perf_sample *sample)
{
	uint64_t time = sample ? sample->time : 0;
	struct db_thread *t, *parent;

	switch (event->header.type) {
	case PERF_RECORD_COMM: {
		bool exec = event->header.misc & PERF_RECORD_MISC_COMM_EXEC;

		if (exec)
			db->comm_exec = true;
		t = findnew_thread(db, (pid_t)event->comm.pid, (pid_t)event->comm.tid, true);
		return t ? thread_set_comm(t, event->comm.comm, time, exec) : -ENOMEM;
	}
	case PERF_RECORD_FORK: {
		pid_t pid = (pid_t)event->fork.pid, tid = (pid_t)event->fork.tid;
		pid_t ppid = (pid_t)event->fork.ppid, ptid = (pid_t)event->fork.ptid;

		t = findnew_thread(db, pid, tid, false);
		parent = findnew_thread(db, ppid, ptid, true);
		if (!parent)
			return -ENOMEM;
		if (parent->pid != ppid) {
			/* not really the parent: a fork was lost */
			int err = remove_thread(db, parent);

			if (err)
				return err;
			parent = findnew_thread(db, ppid, ptid, true);
			if (!parent)
				return -ENOMEM;
		}
		if (t) {
			/* the tid is reused */
			int err = remove_thread(db, t);

			if (err)
				return err;
		}
		t = findnew_thread(db, pid, tid, true);
		if (!t)
			return -ENOMEM;
		if (parent->comm_set)
			return thread_set_comm(t, thread_comm(parent)->str, time, false);
		return 0;
	}
	default:
		return 0;
	}
}

/* ---- exporting objects ---------------------------------------------- */

static int export_machine(struct script_db *db)
{
	if (db->machine_id)
		return 0;
	db->machine_id = 1;
	arg_int(db, 0, db->machine_id);
	arg_int(db, 1, db->session->machine->pid);
	arg_str(db, 2, "");
	return row(db, "machine_table", 3);
}

static int export_thread(struct script_db *db, struct db_thread *t, struct db_thread *main)
{
	if (t->db_id)
		return 0;
	t->db_id = ++db->last_thread;
	arg_int(db, 0, t->db_id);
	arg_int(db, 1, db->machine_id);
	arg_int(db, 2, main ? main->db_id : 0);
	arg_int(db, 3, t->pid);
	arg_int(db, 4, t->tid);
	return row(db, "thread_table", 5);
}

static int export_comm(struct script_db *db, struct db_comm *c, struct db_thread *t)
{
	if (c->db_id)
		return 0;
	c->db_id = ++db->last_comm;
	arg_int(db, 0, c->db_id);
	arg_str(db, 1, c->str);
	arg_int(db, 2, t->db_id);
	arg_int(db, 3, c->start);
	arg_int(db, 4, c->exec);
	return row(db, "comm_table", 5);
}

static int export_comm_thread(struct script_db *db, struct db_comm *c, struct db_thread *t)
{
	arg_int(db, 0, ++db->last_comm_thread);
	arg_int(db, 1, c->db_id);
	arg_int(db, 2, t->db_id);
	return row(db, "comm_thread_table", 3);
}

/*
 * The rows of thread t of a sample or switch: its main thread and the
 * exec comm naming the process (with the main thread's comm_thread row),
 * t itself (its comm_thread row on first sight), t's current comm.
 * *comm: the process's comm (NULL: no main thread).
 */
static int export_threads(struct script_db *db, struct db_thread *t, struct db_thread *main,
			  struct db_comm **comm)
{
	struct db_comm *c = NULL;
	int err;

	if (main) {
		err = export_thread(db, main, main);
		if (err)
			return err;
		c = db->comm_exec ? thread_exec_comm(main) : thread_comm(main);
		if (!c->db_id) {
			err = export_comm(db, c, main);
			if (!err)
				err = export_comm_thread(db, c, main);
			if (err)
				return err;
		}
		*comm = c;
	}
	if (t != main) {
		bool new_thread = c && !t->db_id;

		err = export_thread(db, t, main);
		if (!err && new_thread)
			err = export_comm_thread(db, c, t);
		if (err)
			return err;
	}
	return export_comm(db, thread_comm(t), t);
}

static int export_dso(struct script_db *db, struct dso *dso, uint64_t *id)
{
	uint64_t *slot = idmap_slot(&db->dsos, (uintptr_t)dso, 0);

	if (!slot)
		return -ENOMEM;
	*id = *slot;
	if (*slot)
		return 0;
	*id = *slot = ++db->last_dso;
	db->bid[0] = '\0';
	if (dso->has_build_id || dso->bid.size)
		build_id__sprintf(&dso->bid, db->bid);
	arg_int(db, 0, *id);
	arg_int(db, 1, db->machine_id);
	/* perf's short names are basenames, "anon" of "//anon" too */
	arg_str(db, 2, strncmp(dso->short_name, "//", 2) ? dso->short_name :
		       strrchr(dso->short_name, '/') + 1);
	arg_str(db, 3, dso->long_name);
	arg_str(db, 4, db->bid);
	return row(db, "dso_table", 5);
}

/*
 * What perf's addresses of a DSO are less prf's: user space DSOs' symbols
 * are kept at their ELF st_value here, in perf at file offsets (their
 * section's address less its offset), as map__map_ip() gives addresses.
 */
static uint64_t perf_bias(const struct dso *dso)
{
	if (dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE || dso->kind == DSO_JIT)
		return 0;
	return dso->text_offset;
}

/*
 * The symbol row of sym in dso (dso_id), or, sym NULL, of the "unknown"
 * symbol perf makes at addr (in perf's address space of the DSO) for an
 * address no symbol covers. *start: the symbol's start, in perf's space.
 */
static int export_symbol(struct script_db *db, struct dso *dso, uint64_t dso_id,
			 const struct symbol *sym, uint64_t addr, uint64_t *id, uint64_t *start,
			 bool fresh)
{
	uint64_t spare = 0, *slot = sym ? idmap_slot(&db->symbols, (uintptr_t)sym, 0) :
			 fresh ? &spare : idmap_slot(&db->symbols, (uintptr_t)dso | 1, addr);

	if (!slot)
		return -ENOMEM;
	*start = sym ? sym->start - perf_bias(dso) : addr;
	*id = *slot;
	if (*slot)
		return 0;
	*id = *slot = ++db->last_symbol;
	arg_int(db, 0, *id);
	arg_int(db, 1, dso_id);
	arg_int(db, 2, *start);
	arg_int(db, 3, sym ? sym->end - perf_bias(dso) : addr);
	arg_int(db, 4, sym ? sym->binding : 0);
	arg_str(db, 5, sym ? sym->name : "unknown");
	return row(db, "symbol_table", 6);
}

/* DSO and symbol ids of a location and the offset into the symbol; all 0
 * without a map. */
static int export_location(struct script_db *db, const struct addr_location *al,
			   uint64_t *dso_id, uint64_t *sym_id, uint64_t *offset, bool fresh)
{
	uint64_t start, addr;
	int err;

	if (!al->map || !al->map->dso)
		return 0;
	addr = al->addr - perf_bias(al->map->dso);
	err = export_dso(db, al->map->dso, dso_id);
	if (!err)
		err = export_symbol(db, al->map->dso, *dso_id, al->sym, addr, sym_id, &start,
				    fresh);
	if (!err)
		*offset = addr - start;
	return err;
}

/* The root of the call path tree: its row (id, no parent) the first
 * time a path is exported. */
static int call_path_root(struct script_db *db, uint64_t *id)
{
	if (!db->call_path_root) {
		db->call_path_root = ++db->last_call_path;
		arg_int(db, 0, db->call_path_root);
		arg_int(db, 1, 0);
		arg_int(db, 2, 0);
		arg_int(db, 3, 0);
		*id = db->call_path_root;
		return row(db, "call_path_table", 4);
	}
	*id = db->call_path_root;
	return 0;
}

/* The call path node under parent of symbol sym_id, or without a symbol
 * (sym_id 0) of ip: its row when new. */
static int call_path_node(struct script_db *db, uint64_t parent, uint64_t sym_id, uint64_t ip,
			  uint64_t *id)
{
	uint64_t *slot = idmap_slot(&db->call_paths, parent | (sym_id ? 1ULL << 63 : 0),
				    sym_id ? sym_id : ip);

	if (!slot)
		return -ENOMEM;
	*id = *slot;
	if (*slot)
		return 0;
	*id = *slot = ++db->last_call_path;
	arg_int(db, 0, *id);
	arg_int(db, 1, parent);
	arg_int(db, 2, sym_id);
	arg_int(db, 3, ip);
	return row(db, "call_path_table", 4);
}

/*
 * The call path of the sample's callchain, root first: a node per frame
 * under its caller's (the outermost under a root node), told apart by symbol (the frame's, or the unknown
 * one at its ip) or, without a map, by ip; new nodes get their rows.
 * *id: the leaf's, 0 for an empty callchain.
 */
static int export_call_path(struct script_db *db, struct resolved_sample *rs, uint64_t *id)
{
	const struct callchain_cursor *c = &rs->cursor;
	uint64_t parent;
	int err = resolved_sample__callchain(db->session, rs, &db->ropts);

	if (err || !c->nr)
		return err;
	/* the root, with the first callchain */
	err = call_path_root(db, &parent);
	if (err)
		return err;
	/* perf resolves the whole callchain first: a frame no symbol covers
	 * gets an unknown symbol made before (by a sample's location or an
	 * earlier callchain) at its address */
	if (c->nr > db->alloc_frame_syms) {
		uint64_t *n = realloc(db->frame_syms, c->nr * sizeof(*n));

		if (!n)
			return -ENOMEM;
		db->frame_syms = n;
		db->alloc_frame_syms = c->nr;
	}
	for (unsigned int i = 0; i < c->nr; i++) {
		const struct callchain_frame *f = &c->frames[i];
		struct dso *dso = f->map ? f->map->dso : NULL;

		db->frame_syms[i] = 0;
		if (dso && (!f->sym || f->truncated)) {
			uint64_t *slot = idmap_slot(&db->symbols, (uintptr_t)dso | 1,
						    f->addr - perf_bias(dso));

			if (!slot)
				return -ENOMEM;
			db->frame_syms[i] = *slot;
			if (!*slot)	/* not made after all */
				idmap_remove(&db->symbols, (uintptr_t)dso | 1, f->addr - perf_bias(dso));
		}
	}
	for (unsigned int i = c->nr; i-- > 0;) {
		const struct callchain_frame *f = &c->frames[i];
		uint64_t dso_id = 0, sym_id = db->frame_syms[i], start, ip = f->ip;
		struct dso *dso = f->map ? f->map->dso : NULL;

		if (dso) {
			const struct symbol *sym = f->truncated ? NULL : f->sym;

			/* else perf looks the frame up again at its ip taken as
			 * an address of the DSO, and makes the unknown symbol
			 * there */
			if (!sym)
				sym = dso__find_symbol(dso, f->ip + perf_bias(dso));
			err = export_dso(db, dso, &dso_id);
			if (!err && !sym_id)
				err = export_symbol(db, dso, dso_id, sym, f->ip, &sym_id, &start,
						    false);
			if (err)
				return err;
			ip = 0;
		}
		err = call_path_node(db, parent, sym_id, ip, &parent);
		if (err)
			return err;
	}
	*id = parent;
	return 0;
}

/* thread_stack_cb: a call of db->flushing's stack, as its
 * call_return_table() row (its call path's rows first) */
static int export_call(void *ctx, const struct call_return *cr)
{
	struct script_db *db = ctx;
	const struct db_comm *comm = cr->comm;
	uint64_t root, path;
	int err = call_path_root(db, &root);

	if (!err)
		err = call_path_node(db, root, cr->sym_id, cr->ip, &path);
	if (err)
		return err;
	arg_int(db, 0, ++db->last_call);
	arg_int(db, 1, db->flushing->db_id);
	arg_int(db, 2, comm ? comm->db_id : 0);
	arg_int(db, 3, path);
	arg_int(db, 4, cr->call_time);
	arg_int(db, 5, cr->return_time);
	arg_int(db, 6, cr->branch_count);
	arg_int(db, 7, cr->call_ref);
	arg_int(db, 8, 0);	/* return_id: no return seen */
	arg_int(db, 9, root);	/* the parent's call path */
	arg_int(db, 10, cr->flags);
	arg_int(db, 11, 0);	/* parent_id: a bottom entry has none */
	arg_int(db, 12, 0);	/* instruction and cycle counts: trace only */
	arg_int(db, 13, 0);
	return row(db, "call_return_table", 14);
}

static int flush_stack(struct script_db *db, struct db_thread *t)
{
	db->flushing = t;
	return thread_stack__flush(&t->stack, export_call, db);
}

/* perf's order of its threads at the end: by tid modulo 256 (its
 * thread table's buckets), then by tid */
static int thread_order(const void *a, const void *b)
{
	const struct db_thread *x = *(const struct db_thread *const *)a;
	const struct db_thread *y = *(const struct db_thread *const *)b;
	uint32_t bx = (uint32_t)x->tid & 255, by = (uint32_t)y->tid & 255;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int script_db__flush(struct script_db *db)
{
	struct db_thread **live;
	size_t n = 0;
	int err = 0;

	if (!db->calls || !db->threads.nr)
		return 0;
	live = calloc(db->threads.nr, sizeof(*live));
	if (!live)
		return -ENOMEM;
	for (size_t i = 0; i < db->threads.cap; i++) {
		struct db_thread *t = (struct db_thread *)(uintptr_t)db->threads.ent[i].val;

		if (t && t->stack.has_bottom)
			live[n++] = t;
	}
	qsort(live, n, sizeof(*live), thread_order);
	for (size_t i = 0; i < n && !err; i++)
		err = flush_stack(db, live[i]);
	free(live);
	return err;
}

/* perf's sample_addr_correlates_sym(): page-fault events, whose addr is
 * an address of code or data worth a symbol */
static bool addr_has_symbol(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS ||
		evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

int script_db__sample(struct script_db *db, struct evsel *evsel, struct perf_sample *sample,
		      struct resolved_sample *rs)
{
	uint64_t *slot = idmap_slot(&db->evsels, (uintptr_t)evsel, 0), evsel_id;
	uint64_t dso_id = 0, sym_id = 0, offset = 0, sample_id;
	uint64_t to_dso_id = 0, to_sym_id = 0, to_offset = 0, call_path_id = 0, before;
	struct db_thread *t, *main;
	bool fresh;
	struct db_comm *comm = NULL;
	int err;

	if (!slot)
		return -ENOMEM;
	evsel_id = *slot;
	if (!evsel_id) {
		evsel_id = *slot = ++db->last_evsel;
		arg_int(db, 0, evsel_id);
		arg_str(db, 1, evsel__name(evsel));
		err = row(db, "evsel_table", 2);
		if (err)
			return err;
	}
	err = export_machine(db);
	if (err)
		return err;
	t = findnew_thread(db, (pid_t)sample->pid, (pid_t)sample->tid, true);
	if (!t)
		return -ENOMEM;
	main = main_thread(db, t);
	err = export_threads(db, t, main, &comm);
	if (err)
		return err;
	sample_id = ++db->last_sample;
	resolved_sample__location(rs, false);
	before = db->last_symbol;
	err = export_location(db, &rs->al, &dso_id, &sym_id, &offset, false);
	if (!err && db->callchains && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		err = export_call_path(db, rs, &call_path_id);
	if (!err && (evsel->attr.sample_type & PERF_SAMPLE_ADDR) && addr_has_symbol(evsel)) {
		struct addr_location to = { 0 };

		resolved_sample__addr_location(rs, &to);
		/*
		 * perf resolves the data address before it makes the sample
		 * ip's unknown symbol: the same address without a symbol in
		 * the same DSO gets an unknown symbol of its own then. (Which
		 * of the two later lookups find depends on perf's tree; the
		 * first is taken here.)
		 */
		fresh = !to.sym && !rs->al.sym && sym_id > before && to.map && rs->al.map &&
			to.map->dso == rs->al.map->dso && to.addr == rs->al.addr;
		err = export_location(db, &to, &to_dso_id, &to_sym_id, &to_offset, fresh);
		/* perf's call/return processor takes these samples: the
		 * ip's symbol, else (no ip) the data address's */
		if (!err && db->calls) {
			db->flushing = t;
			err = thread_stack__sample(&t->stack, comm, t->pid == t->tid, sample->time,
						   sample->ip ? sym_id : to_sym_id,
						   sample->ip ? sample->ip : sample->addr, sample_id,
						   export_call, db);
		}
	}
	if (err)
		return err;
	arg_int(db, 0, sample_id);
	arg_int(db, 1, evsel_id);
	arg_int(db, 2, db->machine_id);
	arg_int(db, 3, t->db_id);
	arg_int(db, 4, comm ? comm->db_id : 0);
	arg_int(db, 5, dso_id);
	arg_int(db, 6, sym_id);
	arg_int(db, 7, offset);
	arg_int(db, 8, sample->ip);
	arg_int(db, 9, sample->time);
	arg_int(db, 10, (evsel->attr.sample_type & PERF_SAMPLE_CPU) ? (int32_t)sample->cpu : -1);
	arg_int(db, 11, to_dso_id);
	arg_int(db, 12, to_sym_id);
	arg_int(db, 13, to_offset);
	arg_int(db, 14, sample->addr);
	arg_int(db, 15, sample->period);
	arg_int(db, 16, sample->weight);
	arg_int(db, 17, sample->transaction);
	arg_int(db, 18, (evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC) ? sample->data_src :
			SCRIPT_DATA_SRC_NONE);
	/* branch type, in_tx: prf decodes no branch traces */
	arg_int(db, 19, 0);
	arg_int(db, 20, 0);
	arg_int(db, 21, call_path_id);
	arg_int(db, 22, 0);	/* instruction and cycle counts: trace only */
	arg_int(db, 23, 0);
	arg_int(db, 24, 0);
	return row(db, "sample_table", 25);
}

/* A switch's side: its thread's id (0: unknown or never named) and the
 * process's comm; *idle for the idle task. */
static int switch_side(struct script_db *db, pid_t pid, pid_t tid, uint64_t *id,
		       struct db_comm **comm, bool *idle)
{
	struct db_thread *t = findnew_thread(db, pid, tid, false);
	int err;

	if (!t || !t->comm_set)
		return 0;
	*idle = !t->pid && !t->tid;
	err = export_threads(db, t, main_thread(db, t), comm);
	*id = t->db_id;
	return err;
}

int script_db__switch(struct script_db *db, const union perf_event *event,
		      const struct perf_sample *sample)
{
	bool out = event->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	bool preempt = out && (event->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	struct db_comm *comm_a = NULL, *comm_b = NULL;
	uint64_t a = 0, b = 0;
	bool idle_a = false, idle_b = false;
	int err = export_machine(db);

	if (!err)
		err = switch_side(db, (pid_t)sample->pid, (pid_t)sample->tid, &a, &comm_a, &idle_a);
	if (!err && event->header.type == PERF_RECORD_SWITCH_CPU_WIDE)
		err = switch_side(db, (pid_t)event->context_switch.next_prev_pid,
				  (pid_t)event->context_switch.next_prev_tid, &b, &comm_b, &idle_b);
	if (err)
		return err;
	/* nothing to say when neither side is a traced task */
	if ((!a || idle_a) && (!b || idle_b))
		return 0;
	arg_int(db, 0, ++db->last_context_switch);
	arg_int(db, 1, db->machine_id);
	arg_int(db, 2, sample->time);
	arg_int(db, 3, (int32_t)sample->cpu);
	arg_int(db, 4, out ? a : b);
	arg_int(db, 5, out ? (comm_a ? comm_a->db_id : 0) : (comm_b ? comm_b->db_id : 0));
	arg_int(db, 6, out ? b : a);
	arg_int(db, 7, out ? (comm_b ? comm_b->db_id : 0) : (comm_a ? comm_a->db_id : 0));
	arg_int(db, 8, out | (preempt << 1));
	return row(db, "context_switch_table", 9);
}

int script_db__branch_types(struct script_db *db)
{
	char name[64];
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(branch_types) && !err; i++) {
		arg_int(db, 0, branch_types[i].type);
		arg_str(db, 1, branch_types[i].name);
		err = row(db, "branch_type_table", 2);
	}
	/* each other type again at a trace's beginning and at its end */
	for (size_t i = 0; i < ARRAY_SIZE(branch_types) && !err; i++) {
		unsigned int type = branch_types[i].type;

		if (type == IPF_BRANCH || (type & (IPF_TRACE_BEGIN | IPF_TRACE_END)))
			continue;
		snprintf(name, sizeof(name), "trace begin / %s", branch_types[i].name);
		arg_int(db, 0, type | IPF_TRACE_BEGIN);
		arg_str(db, 1, name);
		err = row(db, "branch_type_table", 2);
		if (err)
			break;
		snprintf(name, sizeof(name), "%s / trace end", branch_types[i].name);
		arg_int(db, 0, type | IPF_TRACE_END);
		err = row(db, "branch_type_table", 2);
	}
	return err;
}

struct script_db *script_db__new(struct perf_session *s, const struct prf_script_plugin *plugin,
				 bool callchains, bool calls)
{
	struct script_db *db = zalloc(sizeof(*db));
	struct evsel *evsel;

	if (!db)
		return NULL;
	db->session = s;
	db->plugin = plugin;
	db->callchains = callchains;
	db->calls = calls;
	db->ropts.max_stack = 127;
	db->ropts.inline_frames = true;
	/* the idle task, named as perf's session names it before reading: a
	 * CPU-wide switch to or from it exports it like any named thread */
	{
		struct db_thread *idle = findnew_thread(db, 0, 0, true);

		if (!idle || thread_set_comm(idle, "swapper", 0, false)) {
			script_db__delete(db);
			return NULL;
		}
	}
	/* exec comms are known when the events asked for them */
	if (s->data.evlist) {
		evlist__for_each_entry(s->data.evlist, evsel) {
			if (evsel->attr.comm_exec)
				db->comm_exec = true;
		}
	}
	return db;
}

void script_db__delete(struct script_db *db)
{
	if (!db)
		return;
	while (db->all) {
		struct db_thread *t = db->all;

		db->all = t->next;
		for (size_t i = 0; i < t->nr_comms; i++) {
			free(t->comms[i]->str);
			free(t->comms[i]);
		}
		free(t->comms);
		free(t);
	}
	free(db->threads.ent);
	free(db->evsels.ent);
	free(db->dsos.ent);
	free(db->symbols.ent);
	free(db->call_paths.ent);
	free(db->frame_syms);
	free(db);
}
