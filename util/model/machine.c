// SPDX-License-Identifier: GPL-2.0
/*
 * machine: threads (hash by tid), DSOs (hash by path), kernel maps, and the
 * side-band records that change them (perf_event_open(2) "MMAP layout":
 * PERF_RECORD_MMAP/MMAP2/COMM/FORK/EXIT/KSYMBOL).
 *
 * Process semantics:
 *  - FORK of a new thread (pid == parent's pid) shares the parent's maps;
 *    FORK of a new process gets a copy of them.
 *  - COMM (with or without PERF_RECORD_MISC_COMM_EXEC) changes the comm
 *    only; the maps are kept, as perf does. Flushing them at exec looks
 *    cleaner but is wrong: samples taken during the rest of execve(2), after
 *    the exec COMM, still carry the old image's user ips (the return
 *    address into libc's execve), and perf resolves them through the old
 *    maps. The new image's MMAP records replace whatever they overlap.
 *  - EXIT marks the thread dead; it stays (later samples may still name it),
 *    unless a live user releases exited threads (machine__release_exited(),
 *    prf top): then it leaves the table one call later and is freed, with
 *    its maps, when its last reference (the table's, a hist entry's) goes.
 *  - An unknown tid is created with comm ":TID" (as perf does); a thread of
 *    an unknown process shares the maps of its group leader (pid, pid).
 *  - Comm strings are interned and live as long as the machine, so
 *    consumers may keep the pointer (hist entries by comm). The ":TID"
 *    name of a thread is interned only when it has no other: a FORK child
 *    takes its parent's comm, so processes coming and going add none.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "machine.h"
#include "thread.h"
#include "maps.h"
#include "map.h"
#include "dso.h"
#include "model.h"
#include "jitdump.h"
#include "../lib/debug.h"
#include "../lib/util.h"

struct str_node {
	struct str_node *next;
	char s[];
};

struct dso_node {
	struct dso_node *next;
	struct dso *dso;
};

struct machine_priv {
	struct thread_node **threads;	/* hash by tid */
	size_t nr_threads, threads_size;
	struct thread_node *last_thread;
	struct dso_node **dsos;		/* hash by long_name */
	size_t nr_dsos, dsos_size;
	struct str_node **comms;	/* interned comm strings */
	size_t nr_comms, comms_size;
	struct maps *kmaps;
	struct dso *kernel_dso;
	bool kmaps_tried;		/* kallsyms fallback map tried */
	/* jitdump files the processes mapped (jit-PID.dump), by pid; read
	 * by JIT DSOs loading on any thread */
	struct jit_ref { pid_t pid; char *path; } *jits;
	size_t nr_jits;
	pthread_mutex_t jits_lock;
};

static inline struct machine_priv *mpriv(const struct machine *m)
{
	return m->priv;
}

static size_t str_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static size_t tid_hash(pid_t tid, size_t size)
{
	return ((size_t)(uint32_t)tid * 2654435761u) & (size - 1);
}

/* ---- interned strings ---- */

static const char *machine__intern(struct machine *m, const char *s)
{
	struct machine_priv *p = mpriv(m);
	size_t h, len = strlen(s);
	struct str_node *n;

	if (p->nr_comms >= p->comms_size) {
		size_t ns = p->comms_size ? p->comms_size * 2 : 256;
		struct str_node **t = calloc(ns, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < p->comms_size; i++) {
			while (p->comms[i]) {
				n = p->comms[i];
				p->comms[i] = n->next;
				h = str_hash(n->s) & (ns - 1);
				n->next = t[h];
				t[h] = n;
			}
		}
		free(p->comms);
		p->comms = t;
		p->comms_size = ns;
	}
	h = str_hash(s) & (p->comms_size - 1);
	for (n = p->comms[h]; n; n = n->next)
		if (!strcmp(n->s, s))
			return n->s;
	n = malloc(sizeof(*n) + len + 1);
	if (!n)
		return NULL;
	memcpy(n->s, s, len + 1);
	n->next = p->comms[h];
	p->comms[h] = n;
	p->nr_comms++;
	return n->s;
}

/* ---- DSOs ---- */

static struct dso *machine__find_dso(struct machine *m, const char *name)
{
	struct machine_priv *p = mpriv(m);
	struct dso_node *n;

	if (!p->dsos_size)
		return NULL;
	for (n = p->dsos[str_hash(name) & (p->dsos_size - 1)]; n; n = n->next)
		if (!strcmp(n->dso->long_name, name))
			return n->dso;
	return NULL;
}

/* DSO for name, created if unknown. Borrowed (the machine holds a reference). */
struct dso *machine__findnew_dso(struct machine *m, const char *name)
{
	struct machine_priv *p = mpriv(m);
	struct dso *dso = machine__find_dso(m, name);
	struct dso_node *n;
	size_t h;

	if (dso)
		return dso;
	if (p->nr_dsos >= p->dsos_size / 2) {
		size_t ns = p->dsos_size ? p->dsos_size * 2 : 64;
		struct dso_node **t = calloc(ns, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < p->dsos_size; i++) {
			while (p->dsos[i]) {
				n = p->dsos[i];
				p->dsos[i] = n->next;
				h = str_hash(n->dso->long_name) & (ns - 1);
				n->next = t[h];
				t[h] = n;
			}
		}
		free(p->dsos);
		p->dsos = t;
		p->dsos_size = ns;
	}
	n = malloc(sizeof(*n));
	dso = dso__new(name);
	if (!n || !dso) {
		free(n);
		dso__put(dso);
		return NULL;
	}
	dso->machine = m;
	n->dso = dso;
	h = str_hash(name) & (p->dsos_size - 1);
	n->next = p->dsos[h];
	p->dsos[h] = n;
	p->nr_dsos++;
	return dso;
}

int machine__for_each_dso(struct machine *m, int (*fn)(struct dso *dso, void *arg), void *arg)
{
	struct machine_priv *p = mpriv(m);

	for (size_t i = 0; i < p->dsos_size; i++)
		for (struct dso_node *n = p->dsos[i]; n; n = n->next) {
			int ret = fn(n->dso, arg);

			if (ret)
				return ret;
		}
	return 0;
}

/* ---- threads ---- */

static struct thread_node *machine__find_thread_node(struct machine *m, pid_t tid)
{
	struct machine_priv *p = mpriv(m);
	struct thread_node *n = p->last_thread;

	if (n && n->thread.tid == tid)
		return n;
	if (!p->threads_size)
		return NULL;
	for (n = p->threads[tid_hash(tid, p->threads_size)]; n; n = n->next)
		if (n->thread.tid == tid) {
			p->last_thread = n;
			return n;
		}
	return NULL;
}

struct thread *machine__find_thread(struct machine *m, pid_t tid)
{
	struct thread_node *n = machine__find_thread_node(m, tid);

	return n ? &n->thread : NULL;
}

static int machine__grow_threads(struct machine *m)
{
	struct machine_priv *p = mpriv(m);
	size_t ns;
	struct thread_node **t;

	if (p->nr_threads < p->threads_size)
		return 0;
	ns = p->threads_size ? p->threads_size * 2 : 256;
	t = calloc(ns, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < p->threads_size; i++) {
		while (p->threads[i]) {
			struct thread_node *n = p->threads[i];
			size_t h = tid_hash(n->thread.tid, ns);

			p->threads[i] = n->next;
			n->next = t[h];
			t[h] = n;
		}
	}
	free(p->threads);
	p->threads = t;
	p->threads_size = ns;
	return 0;
}

/* thread objects not yet freed, all machines */
static size_t threads_alive;

size_t thread__nr_alive(void)
{
	return __atomic_load_n(&threads_alive, __ATOMIC_RELAXED);
}

size_t machine__nr_threads(const struct machine *m)
{
	return mpriv(m)->nr_threads;
}

struct thread *thread__get(struct thread *thread)
{
	if (thread)
		__atomic_add_fetch(&thread->refcnt, 1, __ATOMIC_RELAXED);
	return thread;
}

void thread__put(struct thread *thread)
{
	if (!thread || __atomic_sub_fetch(&thread->refcnt, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	maps__put(thread__maps(thread));
	free(thread__node(thread));
	__atomic_sub_fetch(&threads_alive, 1, __ATOMIC_RELAXED);
}

/* A new thread in the table, named comm (interned), else ":TID". */
static struct thread_node *machine__new_thread(struct machine *m, pid_t pid, pid_t tid,
					       const char *comm)
{
	struct machine_priv *p = mpriv(m);
	struct thread_node *n;
	char name[32];
	size_t h;

	if (machine__grow_threads(m))
		return NULL;
	if (!comm) {
		snprintf(name, sizeof(name), ":%d", tid);
		comm = machine__intern(m, name);
	}
	n = zalloc(sizeof(*n));
	if (!n)
		return NULL;
	__atomic_add_fetch(&threads_alive, 1, __ATOMIC_RELAXED);
	n->machine = m;
	n->thread.pid = pid;
	n->thread.tid = tid;
	n->thread.ppid = -1;
	n->thread.refcnt = 1;
	n->thread.comm = comm;
	h = tid_hash(tid, p->threads_size);
	n->next = p->threads[h];
	p->threads[h] = n;
	p->nr_threads++;
	p->last_thread = n;
	return n;
}

/* Give thread t its maps: its group leader's when pid != tid, else new. */
static int thread__init_maps(struct machine *m, struct thread *t)
{
	if (t->pid != t->tid && t->pid != -1) {
		struct thread *leader = machine__findnew_thread(m, t->pid, t->pid);

		if (!leader)
			return -ENOMEM;
		t->maps = maps__get(thread__maps(leader));
	} else {
		t->maps = maps__new();
	}
	return t->maps ? 0 : -ENOMEM;
}

struct thread *machine__findnew_thread(struct machine *m, pid_t pid, pid_t tid)
{
	struct thread_node *n;

	/* tid -1 (e.g. kernel samples of an exiting task) stays a thread of
	 * its own, comm ":-1", as in perf */
	n = machine__find_thread_node(m, tid);
	if (n) {
		if (n->thread.pid == -1 && pid != -1 && pid != tid) {
			/* learnt the process: join the leader's address space if empty */
			struct maps *mine = thread__maps(&n->thread);

			n->thread.pid = pid;
			if (mine && !mine->nr) {
				struct thread *leader = machine__findnew_thread(m, pid, pid);

				if (leader && leader->maps != n->thread.maps) {
					maps__put(mine);
					n->thread.maps = maps__get(thread__maps(leader));
				}
			}
		} else if (n->thread.pid == -1 && pid != -1) {
			n->thread.pid = pid;
		}
		return &n->thread;
	}
	n = machine__new_thread(m, pid, tid, NULL);
	if (!n)
		return NULL;
	if (thread__init_maps(m, &n->thread))
		return NULL;
	return &n->thread;
}

size_t machine__release_exited(struct machine *m)
{
	struct machine_priv *p = mpriv(m);
	size_t released = 0;

	for (size_t i = 0; i < p->threads_size; i++) {
		struct thread_node **link = &p->threads[i], *n;

		while ((n = *link)) {
			if (!n->thread.dead) {
				link = &n->next;
				continue;
			}
			if (!n->exit_seen) {	/* its last samples may still come */
				n->exit_seen = true;
				link = &n->next;
				continue;
			}
			*link = n->next;
			if (p->last_thread == n)
				p->last_thread = NULL;
			p->nr_threads--;
			released++;
			/* nothing resolves in it any more: its address space
			 * goes now (hist entries hold the maps they name),
			 * the thread when its last reference does */
			maps__put(thread__maps(&n->thread));
			n->thread.maps = NULL;
			thread__put(&n->thread);
		}
	}
	return released;
}

size_t machine__release_unused_dsos(struct machine *m)
{
	struct machine_priv *p = mpriv(m);
	size_t released = 0;

	for (size_t i = 0; i < p->dsos_size; i++) {
		struct dso_node **link = &p->dsos[i], *n;

		while ((n = *link)) {
			if (n->dso == p->kernel_dso ||
			    __atomic_load_n(&n->dso->refcnt, __ATOMIC_ACQUIRE) > 1) {
				link = &n->next;
				continue;
			}
			*link = n->next;
			p->nr_dsos--;
			released++;
			dso__put(n->dso);
			free(n);
		}
	}
	return released;
}

size_t machine__nr_dsos(const struct machine *m)
{
	return mpriv(m)->nr_dsos;
}

const char *thread__comm_str(const struct thread *thread)
{
	return thread->comm;
}

struct thread_sort {
	struct thread **v;
	size_t n;
};

static int thread_cmp(const void *a, const void *b)
{
	const struct thread *x = *(struct thread * const *)a, *y = *(struct thread * const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return 0;
}

int machine__for_each_thread(struct machine *m, int (*fn)(struct thread *thread, void *arg),
			     void *arg)
{
	struct machine_priv *p = mpriv(m);
	struct thread **v = malloc((p->nr_threads + 1) * sizeof(*v));
	size_t n = 0;
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->threads_size; i++)
		for (struct thread_node *t = p->threads[i]; t; t = t->next)
			v[n++] = &t->thread;
	qsort(v, n, sizeof(*v), thread_cmp);
	for (size_t i = 0; i < n && !ret; i++)
		ret = fn(v[i], arg);
	free(v);
	return ret;
}

int thread__for_each_map(struct thread *thread, int (*fn)(struct map *map, void *arg), void *arg)
{
	struct maps *maps = thread__maps(thread);
	int ret = 0;

	for (size_t i = 0; maps && i < maps->nr && !ret; i++)
		ret = fn(maps->entries[i], arg);
	return ret;
}

/* ---- machine ---- */

struct machine *machine__new_host(void)
{
	struct machine *m = zalloc(sizeof(*m));
	struct machine_priv *p = zalloc(sizeof(*p));
	struct thread *idle;

	if (!m || !p)
		goto out_err;
	m->priv = p;
	m->pid = -1;
	m->demangle = true;
	m->demangle_params = verbose > 0;	/* perf: parameter lists only with -v */
	m->inline_frames = true;
	pthread_mutex_init(&p->jits_lock, NULL);
	p->kmaps = maps__new();
	if (!p->kmaps)
		goto out_err;
	p->kernel_dso = machine__findnew_dso(m, "[kernel.kallsyms]");
	if (!p->kernel_dso)
		goto out_err;
	idle = machine__findnew_thread(m, 0, 0);
	if (!idle)
		goto out_err;
	idle->comm = machine__intern(m, "swapper");
	idle->comm_set = true;
	return m;
out_err:
	if (m && m->priv)
		machine__delete(m);
	else {
		free(p);
		free(m);
	}
	return NULL;
}

void machine__delete(struct machine *m)
{
	struct machine_priv *p;

	if (!m)
		return;
	p = mpriv(m);
	for (size_t i = 0; i < p->threads_size; i++) {
		struct thread_node *n = p->threads[i], *next;

		for (; n; n = next) {
			next = n->next;
			n->machine = NULL;
			thread__put(&n->thread);
		}
	}
	free(p->threads);
	maps__put(p->kmaps);
	for (size_t i = 0; i < p->dsos_size; i++) {
		struct dso_node *n = p->dsos[i], *next;

		for (; n; n = next) {
			next = n->next;
			n->dso->machine = NULL;
			dso__put(n->dso);
			free(n);
		}
	}
	free(p->dsos);
	for (size_t i = 0; i < p->comms_size; i++) {
		struct str_node *n = p->comms[i], *next;

		for (; n; n = next) {
			next = n->next;
			free(n);
		}
	}
	free(p->comms);
	for (size_t i = 0; i < p->nr_jits; i++)
		free(p->jits[i].path);
	free(p->jits);
	pthread_mutex_destroy(&p->jits_lock);
	free(p);
	free(m);
}

struct maps *machine__kernel_maps(struct machine *m)
{
	struct machine_priv *p = mpriv(m);

	if (!p->kmaps->nr && !p->kmaps_tried) {
		/* no [kernel.kallsyms] MMAP recorded: map the kernel from kallsyms */
		uint64_t text = kallsyms__text(machine__kallsyms_path(m));

		p->kmaps_tried = true;
		if (text) {
			struct map *map = map__new(p->kernel_dso, text, UINT64_MAX - text, text,
						   0, 0);

			if (map) {
				maps__insert(p->kmaps, map);
				map__put(map);
			}
		}
	}
	return p->kmaps;
}

/* "/lib/modules/.../kvm-intel.ko.xz" -> "[kvm_intel]" */
static void module_dso_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n + 3 > size)
		n = size - 3;
	buf[0] = '[';
	for (i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = '\0';
}

static bool is_module_path(const char *name)
{
	return name[0] == '/' && (strstr(name, ".ko") != NULL);
}

static int machine__kernel_mmap(struct machine *m, const char *filename, uint64_t start,
				uint64_t len, uint64_t pgoff)
{
	struct machine_priv *p = mpriv(m);
	struct dso *dso;
	struct map *map;
	int err;

	if (!strncmp(filename, "[kernel.kallsyms]", 17) ||
	    !strncmp(filename, "[guest.kernel.kallsyms", 22)) {
		dso = p->kernel_dso;
		dso->kernel_text = pgoff;
	} else if (is_module_path(filename)) {
		char name[256];

		module_dso_name(filename, name, sizeof(name));
		dso = machine__findnew_dso(m, name);
		if (dso && !dso->runtime_path)
			dso->runtime_path = strdup(filename);
	} else if (filename[0] == '[') {
		dso = machine__findnew_dso(m, filename);	/* [bpf_prog], [module] */
	} else {
		return 0;
	}
	if (!dso)
		return -ENOMEM;
	if (dso == p->kernel_dso) {
		/* as perf: the kernel map reaches up to the next kernel map (a
		 * module) or the top of the address space, so .init.text and
		 * other sections past the recorded length still resolve */
		uint64_t end = UINT64_MAX;

		for (size_t i = 0; i < p->kmaps->nr; i++)
			if (p->kmaps->entries[i]->start > start) {
				end = p->kmaps->entries[i]->start;
				break;
			}
		len = end - start;
	}
	map = map__new(dso, start, len, pgoff, 0, 0);
	if (!map)
		return -ENOMEM;
	err = maps__insert(p->kmaps, map);
	map__put(map);
	return err;
}

/* Anonymous executable memory, as perf 6.1 sees it (JIT code). */
static bool is_anon_name(const char *name)
{
	return !strncmp(name, "//anon", 6) || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

/* A process mapped its jitdump file: remember it for its JIT DSO. */
static int machine__add_jitdump(struct machine *m, pid_t pid, const char *path)
{
	struct machine_priv *p = mpriv(m);
	int err = 0;

	pthread_mutex_lock(&p->jits_lock);
	for (size_t i = 0; i < p->nr_jits; i++)
		if (p->jits[i].pid == pid && !strcmp(p->jits[i].path, path))
			goto out;
	{
		struct jit_ref *v = realloc(p->jits, (p->nr_jits + 1) * sizeof(*v));
		char *copy = strdup(path);

		if (v)
			p->jits = v;
		if (!v || !copy) {
			free(copy);
			err = -ENOMEM;
			goto out;
		}
		p->jits[p->nr_jits++] = (struct jit_ref){ pid, copy };
	}
out:
	pthread_mutex_unlock(&p->jits_lock);
	return err;
}

int machine__jitdump_path(struct machine *m, pid_t pid, char *buf, size_t size)
{
	struct machine_priv *p = mpriv(m);
	int err = -ENOENT;

	pthread_mutex_lock(&p->jits_lock);
	for (size_t i = p->nr_jits; i-- > 0;)
		if (p->jits[i].pid == pid) {
			err = jitdump__find(p->jits[i].path, pid, buf, size);
			break;
		}
	pthread_mutex_unlock(&p->jits_lock);
	return err;
}

static int machine__user_mmap(struct machine *m, pid_t pid, pid_t tid, const char *filename,
			      uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			      uint32_t flags, uint64_t ino, const struct build_id *bid)
{
	struct thread *t = machine__findnew_thread(m, pid, tid);
	char jit[64];
	struct dso *dso;
	struct map *map;
	int err, jit_pid;

	if (!t)
		return -ENOMEM;
	if (jitdump__is_dump_name(filename, &jit_pid) && machine__add_jitdump(m, pid, filename))
		return -ENOMEM;
	if (is_anon_name(filename)) {
		/* perf: executable anon memory belongs to the JIT map of the
		 * process, named "[JIT] tid PID" whether or not
		 * /tmp/perf-PID.map exists; data (mmap_data) stays "//anon" */
		if (prot & 4) {		/* PROT_EXEC */
			snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", pid);
			filename = jit;
		}
		pgoff = start;	/* absolute addresses */
	}
	dso = machine__findnew_dso(m, filename);
	if (!dso)
		return -ENOMEM;
	if (dso->kind == DSO_JIT && !strncmp(dso->short_name, "perf-", 5)) {
		char sn[48];
		char *n;

		snprintf(sn, sizeof(sn), "[JIT] tid %d", pid);
		n = strdup(sn);
		if (n) {
			free(dso->short_name);
			dso->short_name = n;
		}
	}
	if (bid && bid->size && !dso->has_build_id)
		dso__set_build_id(dso, bid);
	map = map__new(dso, start, len, pgoff, prot, flags);
	if (!map)
		return -ENOMEM;
	map->ino = ino;
	err = maps__insert(thread__maps(t), map);
	map__put(map);
	return err;
}

static int machine__process_mmap(struct machine *m, union perf_event *ev)
{
	uint8_t cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *fn;
	struct build_id bid = { .size = 0 };
	uint64_t start, len, pgoff;
	uint32_t pid, tid, prot = 0, flags = 0;
	uint64_t ino = 0;
	size_t maxlen;

	if (ev->header.type == PERF_RECORD_MMAP2) {
		fn = ev->mmap2.filename;
		maxlen = ev->header.size > offsetof(struct perf_record_mmap2, filename) ?
			 ev->header.size - offsetof(struct perf_record_mmap2, filename) : 0;
		pid = ev->mmap2.pid; tid = ev->mmap2.tid;
		start = ev->mmap2.start; len = ev->mmap2.len; pgoff = ev->mmap2.pgoff;
		prot = ev->mmap2.prot; flags = ev->mmap2.flags;
		if ((ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		    ev->mmap2.build_id_size <= BUILD_ID_SIZE) {
			bid.size = ev->mmap2.build_id_size;
			memcpy(bid.data, ev->mmap2.build_id, bid.size);
		} else {
			ino = ev->mmap2.ino;
		}
	} else {
		fn = ev->mmap.filename;
		maxlen = ev->header.size > offsetof(struct perf_record_mmap, filename) ?
			 ev->header.size - offsetof(struct perf_record_mmap, filename) : 0;
		pid = ev->mmap.pid; tid = ev->mmap.tid;
		start = ev->mmap.start; len = ev->mmap.len; pgoff = ev->mmap.pgoff;
		/* PROT_EXEC: MMAP (v1) records are executable maps, but for
		 * mmap_data's */
		prot = (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 0 : 4;
	}
	if (!maxlen || strnlen(fn, maxlen) == maxlen)
		return -EINVAL;	/* filename not terminated inside the record */
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    (int32_t)pid == -1) {
		if (fn[0] == '[' || is_module_path(fn))
			return machine__kernel_mmap(m, fn, start, len, pgoff);
		if ((int32_t)pid == -1)
			return 0;
	}
	return machine__user_mmap(m, (pid_t)pid, (pid_t)tid, fn, start, len, pgoff, prot, flags,
				  ino, &bid);
}

static int machine__process_comm(struct machine *m, union perf_event *ev)
{
	struct thread *t = machine__findnew_thread(m, (pid_t)ev->comm.pid, (pid_t)ev->comm.tid);
	char comm[sizeof(ev->comm.comm) + 1];
	const char *c;
	int n;

	if (!t)
		return -ENOMEM;
	n = perf_event__strlen(ev, offsetof(struct perf_record_comm, comm), sizeof(ev->comm.comm));
	memcpy(comm, ev->comm.comm, (size_t)n);
	comm[n] = '\0';
	c = machine__intern(m, comm);
	if (!c)
		return -ENOMEM;
	t->comm = c;
	t->comm_set = true;
	return 0;
}

static int machine__process_fork(struct machine *m, union perf_event *ev)
{
	pid_t pid = (pid_t)ev->fork.pid, tid = (pid_t)ev->fork.tid;
	pid_t ppid = (pid_t)ev->fork.ppid, ptid = (pid_t)ev->fork.ptid;
	struct thread *parent, *child;
	struct maps *maps;

	if (tid == ptid)
		return 0;
	parent = machine__findnew_thread(m, ppid, ptid);
	if (!parent)
		return -ENOMEM;
	child = machine__find_thread(m, tid);
	if (!child) {
		struct thread_node *n = machine__new_thread(m, pid, tid,
							    parent->comm_set ? parent->comm : NULL);

		if (!n)
			return -ENOMEM;
		child = &n->thread;
	}
	/* tid reuse or a synthesized thread seen again: start over from the
	 * parent; a FORK that perf record synthesized for a running process
	 * (misc bit 13, perf's PERF_RECORD_MISC_FORK_EXEC) is followed by
	 * the process's own MMAPs: as perf, its maps start empty */
	if (pid == parent->pid)
		maps = maps__get(thread__maps(parent));
	else if (ev->header.misc & (1 << 13))
		maps = maps__new();
	else
		maps = maps__clone(thread__maps(parent));
	if (!maps)
		return -ENOMEM;
	maps__put(thread__maps(child));
	child->maps = maps;
	child->pid = pid;
	child->ppid = ptid;	/* as perf: the forking thread, not its process */
	/* like perf: the parent's name passes on only when a COMM gave it one;
	 * otherwise the child keeps its own (":tid" until its COMM arrives) */
	if (parent->comm_set) {
		child->comm = parent->comm;
		child->comm_set = true;
	}
	child->dead = false;
	thread__node(child)->exit_seen = false;
	return 0;
}

static int machine__process_ksymbol(struct machine *m, union perf_event *ev)
{
	struct machine_priv *p = mpriv(m);
	char name[sizeof(ev->ksymbol.name) + 1];
	struct dso *dso;
	struct map *map;
	int err, n;

	if (ev->ksymbol.flags & 1)	/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
		return 0;
	n = perf_event__strlen(ev, offsetof(struct perf_record_ksymbol, name),
			       sizeof(ev->ksymbol.name));
	memcpy(name, ev->ksymbol.name, (size_t)n);
	name[n] = '\0';
	dso = machine__findnew_dso(m, name);
	if (!dso)
		return -ENOMEM;
	if (!dso->symbols_loaded) {
		dso->kind = DSO_JIT;		/* identity map, one symbol */
		dso->symbols_loaded = true;
		if (dso__add_symbol(dso, ev->ksymbol.addr, ev->ksymbol.len, 1, 2, name, false))
			return -ENOMEM;
		dso__symbols_finish(dso);
	}
	map = map__new(dso, ev->ksymbol.addr, ev->ksymbol.len, 0, 0, 0);
	if (!map)
		return -ENOMEM;
	err = maps__insert(p->kmaps, map);
	map__put(map);
	return err;
}

int machine__process_event(struct machine *m, union perf_event *ev, struct perf_sample *sample)
{
	(void)sample;
	switch (ev->header.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return machine__process_mmap(m, ev);
	case PERF_RECORD_COMM:
		return machine__process_comm(m, ev);
	case PERF_RECORD_FORK:
		return machine__process_fork(m, ev);
	case PERF_RECORD_EXIT: {
		struct thread *t = machine__find_thread(m, (pid_t)ev->fork.tid);

		if (t)
			t->dead = true;
		return 0;
	}
	case PERF_RECORD_KSYMBOL:
		return machine__process_ksymbol(m, ev);
	case PERF_RECORD_HEADER_BUILD_ID: {
		struct build_id bid = { .size = 0 };
		size_t max = ev->header.size > sizeof(ev->build_id) ?
			     ev->header.size - sizeof(ev->build_id) : 0;
		uint8_t cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (!max || strnlen(ev->build_id.filename, max) == max)
			return -EINVAL;
		memcpy(bid.data, ev->build_id.data, BUILD_ID_SIZE);
		bid.size = ev->build_id.size && ev->build_id.size <= BUILD_ID_SIZE ?
			   ev->build_id.size : BUILD_ID_SIZE;
		return machine__set_build_id(m, ev->build_id.filename, &bid,
					     cpumode == PERF_RECORD_MISC_KERNEL ||
					     cpumode == PERF_RECORD_MISC_GUEST_KERNEL);
	}
	default:
		return 0;
	}
}

int machine__set_build_id(struct machine *m, const char *path, const struct build_id *bid,
			  bool kernel)
{
	struct dso *dso;

	if (!strncmp(path, "[kernel.kallsyms]", 17) || (kernel && !is_module_path(path) &&
							 path[0] != '[')) {
		dso = mpriv(m)->kernel_dso;
	} else if (kernel && is_module_path(path)) {
		char name[256];

		module_dso_name(path, name, sizeof(name));
		dso = machine__findnew_dso(m, name);
	} else {
		dso = machine__findnew_dso(m, path);
	}
	if (!dso)
		return -ENOMEM;
	dso__set_build_id(dso, bid);
	return 0;
}

int machine__resolve(struct machine *m, struct addr_location *al, struct perf_sample *sample)
{
	struct thread *t = machine__findnew_thread(m, (pid_t)sample->pid, (pid_t)sample->tid);

	if (!t) {
		memset(al, 0, sizeof(*al));
		return -ENOMEM;
	}
	thread__find_symbol(t, sample->cpumode, sample->ip, al);
	al->cpu = (int32_t)sample->cpu;
	return 0;
}
