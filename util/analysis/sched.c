// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler analysis: the tasks, the sched tracepoint payloads, and the
 * two views that need no more than them: latency (per-task switch
 * counts, runtime and wakeup-to-run delays, as `perf sched latency`
 * prints them) and map (one line per context switch, one column per
 * CPU, as `perf sched map`). timehist is sched-timehist.c, replay
 * sched-replay.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sched-internal.h"
#include "../kernel/cpumap.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../format/trace-data.h"
#include "../model/machine.h"
#include "../session/resolve.h"
#include "../session/session.h"
#include "../model/dso.h"
#include "../session/trace-format.h"
#include "../lib/util.h"

/* ---- tasks ---- */

static unsigned int tid_hash(pid_t tid, unsigned int size)
{
	return ((uint32_t)tid * 2654435761u) & (size - 1);
}

static int sched__grow(struct sched *sc)
{
	unsigned int nsize = sc->hash_size ? sc->hash_size * 2 : 1024;
	struct sched_task **nh = calloc(nsize, sizeof(*nh));

	if (!nh)
		return -ENOMEM;
	for (unsigned int i = 0; i < sc->hash_size; i++) {
		struct sched_task *t = sc->hash[i], *next;

		for (; t; t = next) {
			unsigned int h = tid_hash(t->tid, nsize);

			next = t->next;
			t->next = nh[h];
			nh[h] = t;
		}
	}
	free(sc->hash);
	sc->hash = nh;
	sc->hash_size = nsize;
	return 0;
}

struct sched_task *sched__task(struct sched *sc, pid_t tid)
{
	struct sched_task *t;
	unsigned int h;

	if (sc->hash_size) {
		for (t = sc->hash[tid_hash(tid, sc->hash_size)]; t; t = t->next)
			if (t->tid == tid)
				return t;
	}
	if (sc->nr_tasks >= sc->hash_size && sched__grow(sc))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	init_stats(&t->th.run_stats);
	t->th.run_min = UINT64_MAX;
	h = tid_hash(tid, sc->hash_size);
	t->next = sc->hash[h];
	sc->hash[h] = t;
	sc->nr_tasks++;
	return t;
}

pid_t sched__pid(struct sched *sc, const struct thread *t)
{
	struct sched_task *task;

	if (!t || !sc->hash_size)
		return t ? t->pid : 0;
	for (task = sc->hash[tid_hash(t->tid, sc->hash_size)]; task; task = task->next)
		if (task->tid == t->tid)
			return task->has_pid ? task->pid : t->pid;
	return t->pid;
}

/* Replace tid's task by a fresh one (perf removes the thread and makes a
 * new one); the old one is kept for latency, under the comm it had. */
static int sched__retire(struct sched *sc, pid_t tid, pid_t pid)
{
	struct sched_task **pp, *old, *fresh, **v;
	struct thread *th = machine__find_thread(sc->session->machine, tid);

	if (!sc->hash_size)
		return 0;
	for (pp = &sc->hash[tid_hash(tid, sc->hash_size)]; *pp; pp = &(*pp)->next)
		if ((*pp)->tid == tid)
			break;
	old = *pp;
	if (old) {
		v = realloc(sc->retired, (sc->nr_retired + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		sc->retired = v;
		*pp = old->next;
		sc->nr_tasks--;
		old->next = NULL;
		old->retired_comm = strdup(th ? thread__comm_str(th) : ":-1");
		old->retired_pid = th ? sched__pid(sc, th) : -1;
		old->retired_ppid = old->forked ? old->parent : th ? th->ppid : -1;
		old->retired_order = sc->nr_retired;
		if (!old->retired_comm)
			return -ENOMEM;
		sc->retired[sc->nr_retired++] = old;
	}
	fresh = sched__task(sc, tid);
	if (!fresh)
		return -ENOMEM;
	fresh->has_pid = true;
	fresh->pid = pid;
	return 0;
}

int sched__fork_begin(struct sched *sc, pid_t ppid, pid_t ptid, pid_t pid, pid_t tid)
{
	struct machine *m = sc->session->machine;
	struct thread *parent = machine__find_thread(m, ptid);
	int err = 0;

	if (machine__find_thread(m, tid))
		err = sched__retire(sc, tid, pid);
	if (!err && parent && parent->pid != -1 && sched__pid(sc, parent) != ppid)
		err = sched__retire(sc, ptid, ppid);
	return err;
}

struct sched_task **sched__tasks(struct sched *sc, unsigned int *nr)
{
	struct sched_task **v = malloc((sc->nr_tasks + sc->nr_retired + 1) * sizeof(*v));
	unsigned int n = 0;

	if (!v)
		return NULL;
	for (unsigned int i = 0; i < sc->hash_size; i++)
		for (struct sched_task *t = sc->hash[i]; t; t = t->next)
			v[n++] = t;
	for (unsigned int i = 0; i < sc->nr_retired; i++)
		v[n++] = sc->retired[i];
	*nr = n;
	return v;
}

const struct trace_field *sched__fields_resolve(struct sched *sc, struct evsel *evsel)
{
	static const char *const names[SF_NR] = {
		[SF_PREV_PID] = "prev_pid", [SF_NEXT_PID] = "next_pid",
		[SF_PREV_STATE] = "prev_state", [SF_PREV_COMM] = "prev_comm",
		[SF_NEXT_COMM] = "next_comm", [SF_PID] = "pid", [SF_COMM] = "comm",
		[SF_RUNTIME] = "runtime", [SF_ORIG_CPU] = "orig_cpu", [SF_DEST_CPU] = "dest_cpu",
	};
	struct sched_evfields *e = &sc->evf[evsel->idx];

	if (!e->resolved) {
		for (int i = 0; i < SF_NR; i++)
			trace_formatter__field_ref(sc->tf, evsel, names[i], &e->f[i]);
		e->resolved = true;
	}
	return e->f;
}

void sched__field_str(struct sched *sc, struct evsel *evsel, struct perf_sample *sample,
		      enum sched_field field, char *buf, size_t size)
{
	if (trace_field__str(&sched__fields_resolve(sc, evsel)[field], sample, buf, size))
		snprintf(buf, size, "%s", "");
}

struct thread *sched__thread(struct sched *sc, pid_t pid, pid_t tid)
{
	unsigned int slot = (uint32_t)tid % ARRAY_SIZE(sc->tcache);
	struct thread *t = sc->tcache[slot].t;

	/* findnew changes a known thread only when it learns its pid */
	if (t && sc->tcache[slot].tid == tid && (pid == -1 || sc->tcache[slot].pid_known))
		return t;
	t = machine__findnew_thread(sc->session->machine, pid, tid);
	if (t) {
		sc->tcache[slot].tid = tid;
		sc->tcache[slot].t = t;
		sc->tcache[slot].pid_known = t->pid != -1;
	}
	return t;
}

static const char *sched__comm_of(struct sched *sc, pid_t tid)
{
	struct thread *t = sched__thread(sc, -1, tid);

	return t ? thread__comm_str(t) : ":-1";
}

static bool sched_sym_ignored(const struct symbol *sym)
{
	return !strcmp(sym->name, "schedule") || !strcmp(sym->name, "__schedule") ||
	       !strcmp(sym->name, "preempt_schedule");
}

static int sched__resolve_chain(struct sched *sc, struct perf_sample *sample,
				struct evsel *evsel, const struct resolve_opts *ropts)
{
	int err;

	if (!sc->rs) {
		sc->rs = calloc(1, sizeof(*sc->rs));
		if (!sc->rs || resolved_sample__init(sc->rs, true))
			return -ENOMEM;
	}
	err = sample__resolve(sc->session, sample, evsel, sc->rs);
	if (!err)
		err = resolved_sample__callchain(sc->session, sc->rs, ropts);
	return err;
}

int sched__print_chain(struct sched *sc, struct perf_sample *sample, struct evsel *evsel,
		       unsigned int max, FILE *fp)
{
	struct resolve_opts ropts = { .max_stack = max };
	bool first = true;
	int err = sched__resolve_chain(sc, sample, evsel, &ropts);

	if (err)
		return err;
	for (unsigned int i = 0; i < sc->rs->cursor.nr; i++) {
		const struct callchain_frame *f = &sc->rs->cursor.frames[i];

		/* perf 6.1's sched reads no MMAP2 records: user frames stay unknown */
		const struct symbol *sym = f->cpumode == PERF_RECORD_MISC_USER ? NULL : f->sym;

		if (sym && sched_sym_ignored(sym))
			continue;
		fprintf(fp, "%s %s", first ? "" : " <-", sym ? sym->name : "[unknown]");
		first = false;
	}
	return 0;
}

void sched__tstamp(uint64_t ns, char *buf, size_t size)
{
	char tmp[32];
	size_t n = (size_t)(sched_w_tstamp(tmp, ns, 0) - tmp);

	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
}

/* ---- latency ---- */

struct lat_row {
	struct sched_task *t;	/* the representative task */
	struct lat_chain *chain;	/* of the task with the worst delay */
	const char *comm;
	int num_merged;
	uint64_t total_runtime, nb_atoms, total_lat, max_lat, max_lat_start, max_lat_end;
	unsigned int order;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int lat_cmp_pid(const void *a, const void *b)
{
	const struct lat_row *l = a, *r = b;

	return l->t->tid < r->t->tid ? -1 : l->t->tid > r->t->tid;
}

static int lat_cmp_avg(const void *a, const void *b)
{
	const struct lat_row *l = a, *r = b;

	if (!l->nb_atoms && !r->nb_atoms)
		return 0;
	if (!l->nb_atoms)
		return -1;
	if (!r->nb_atoms)
		return 1;
	return cmp_u64(l->total_lat / l->nb_atoms, r->total_lat / r->nb_atoms);
}

static int lat_cmp_max(const void *a, const void *b)
{
	return cmp_u64(((const struct lat_row *)a)->max_lat, ((const struct lat_row *)b)->max_lat);
}

static int lat_cmp_switch(const void *a, const void *b)
{
	return cmp_u64(((const struct lat_row *)a)->nb_atoms, ((const struct lat_row *)b)->nb_atoms);
}

static int lat_cmp_runtime(const void *a, const void *b)
{
	return cmp_u64(((const struct lat_row *)a)->total_runtime,
		       ((const struct lat_row *)b)->total_runtime);
}

static const struct {
	const char *name;
	int (*cmp)(const void *, const void *);
} lat_sort_keys[] = {
	{ "pid", lat_cmp_pid },
	{ "avg", lat_cmp_avg },
	{ "max", lat_cmp_max },
	{ "switch", lat_cmp_switch },
	{ "runtime", lat_cmp_runtime },
};

static int sched__parse_sort(struct sched *sc)
{
	char *s = strdup(sc->o.sort ? sc->o.sort : "avg, max, switch, runtime"), *save = NULL;
	int err = 0;

	if (!s)
		return -ENOMEM;
	for (char *tok = strtok_r(s, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(lat_sort_keys); i++)
			if (!strcmp(lat_sort_keys[i].name, tok))
				break;
		if (i == ARRAY_SIZE(lat_sort_keys)) {
			fprintf(stderr, "  Error: Unknown --sort key: `%s'\n", tok);
			err = -EINVAL;
			break;
		}
		if (sc->nr_keys < (int)ARRAY_SIZE(sc->keys))
			sc->keys[sc->nr_keys++].cmp = lat_sort_keys[i].cmp;
	}
	free(s);
	return err;
}

/* perf's 6.1 sched_out_state(): the state string indexed by the raw
 * prev_state; only "runnable" matters to latency. */
static bool prev_state_runnable(uint64_t prev_state)
{
	return prev_state == 0;
}

/* --callchain: keep the callchain of the event that starts a wait */
static void lat_keep_chain(struct sched *sc, struct lat_task *l, struct evsel *evsel,
			   struct perf_sample *sample, bool preempted)
{
	const struct ip_callchain *cc = sample ? sample->callchain : NULL;
	struct lat_chain *c = &l->pend;

	if (!sc->o.callchain)
		return;
	c->nr = 0;
	c->evsel = evsel;
	if (!cc || !cc->nr)
		return;
	if (cc->nr > c->alloc) {
		uint64_t *v = realloc(c->ips, cc->nr * sizeof(*v));

		if (!v)
			return;
		c->ips = v;
		c->alloc = (uint32_t)cc->nr;
	}
	memcpy(c->ips, cc->ips, cc->nr * sizeof(*c->ips));
	c->nr = (uint32_t)cc->nr;
	c->pid = sample->pid;
	c->tid = sample->tid;
	c->cpu = sample->cpu;
	c->cpumode = sample->cpumode;
	c->preempted = preempted;
	c->time = sample->time;
}

static void lat_chain_swap(struct lat_task *l)
{
	struct lat_chain tmp = l->max_chain;

	l->max_chain = l->pend;
	l->pend = tmp;
	l->pend.nr = 0;
}

static void lat_sched_out(struct sched *sc, struct sched_task *t, bool runnable, uint64_t ts)
{
	struct lat_task *l = &t->lat;

	if (!l->known) {
		l->known = true;
		l->order = sc->next_order++;
	}
	l->has_atom = true;
	l->sched_out_time = ts;
	l->wake_up_time = 0;
	l->sched_in_time = 0;
	l->state = ATOM_SLEEPING;
	if (runnable) {
		l->state = ATOM_WAIT_CPU;
		l->wake_up_time = ts;
	}
}

static void lat_sched_in(struct lat_task *l, uint64_t ts)
{
	uint64_t delta;

	if (!l->has_atom || l->state != ATOM_WAIT_CPU)
		return;
	if (ts < l->wake_up_time) {
		l->state = ATOM_IGNORE;
		return;
	}
	l->state = ATOM_SCHED_IN;
	l->sched_in_time = ts;
	delta = ts - l->wake_up_time;
	l->total_lat += delta;
	if (delta > l->max_lat) {
		l->max_lat = delta;
		l->max_lat_start = l->wake_up_time;
		l->max_lat_end = ts;
		if (l->pend.nr)
			lat_chain_swap(l);
	}
	l->nb_atoms++;
}

static int lat_switch(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t prev = (pid_t)sched__field(sc, evsel, sample, SF_PREV_PID);
	pid_t next = (pid_t)sched__field(sc, evsel, sample, SF_NEXT_PID);
	uint64_t prev_state = sched__field(sc, evsel, sample, SF_PREV_STATE);
	struct sched_task *out, *in;

	if (!sched__thread(sc, -1, prev) || !sched__thread(sc, -1, next))
		return -ENOMEM;
	out = sched__task(sc, prev);
	if (!out)
		return -ENOMEM;
	lat_sched_out(sc, out, prev_state_runnable(prev_state), sample->time);
	if (prev_state_runnable(prev_state))
		lat_keep_chain(sc, &out->lat, evsel, sample, true);
	in = sched__task(sc, next);
	if (!in)
		return -ENOMEM;
	if (!in->lat.known)	/* first heard of: came in runnable */
		lat_sched_out(sc, in, true, sample->time);
	lat_sched_in(&in->lat, sample->time);
	return 0;
}

static int lat_runtime(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t pid = (pid_t)sched__field(sc, evsel, sample, SF_PID);
	uint64_t runtime = sched__field(sc, evsel, sample, SF_RUNTIME);
	struct sched_task *t;

	if (!sched__thread(sc, -1, pid) || !(t = sched__task(sc, pid)))
		return -ENOMEM;
	if (!t->lat.known)
		lat_sched_out(sc, t, true, sample->time);
	t->lat.total_runtime += runtime;
	return 0;
}

static int lat_wakeup(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t pid = (pid_t)sched__field(sc, evsel, sample, SF_PID);
	struct sched_task *t;
	struct lat_task *l;

	if (!sched__thread(sc, -1, pid) || !(t = sched__task(sc, pid)))
		return -ENOMEM;
	l = &t->lat;
	if (!l->known)
		lat_sched_out(sc, t, false, sample->time);
	/* a wakeup of a task still on the run queue changes nothing, unless
	 * only one CPU is looked at (its other events are missing) */
	if (sc->o.profile_cpu == -1 && l->state != ATOM_SLEEPING)
		return 0;
	sc->nr_timestamps++;
	if (l->sched_out_time > sample->time) {
		sc->nr_unordered_timestamps++;
		return 0;
	}
	l->state = ATOM_WAIT_CPU;
	l->wake_up_time = sample->time;
	lat_keep_chain(sc, l, evsel, sample, false);
	return 0;
}

static int lat_migrate(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t pid = (pid_t)sched__field(sc, evsel, sample, SF_PID);
	struct sched_task *t;

	if (sc->o.profile_cpu == -1)
		return 0;
	if (!sched__thread(sc, -1, pid) || !(t = sched__task(sc, pid)))
		return -ENOMEM;
	if (!t->lat.known)
		lat_sched_out(sc, t, true, sample->time);
	t->lat.sched_in_time = t->lat.sched_out_time = t->lat.wake_up_time = sample->time;
	sc->nr_timestamps++;
	return 0;
}

static const struct sched *sort_sc;	/* qsort has no context argument */

static int lat_row_cmp(const void *a, const void *b)
{
	const struct lat_row *l = a, *r = b;

	/* perf inserts into a tree where greater goes left, equal right:
	 * descending by the keys, ties in insertion order */
	for (int i = 0; i < sort_sc->nr_keys; i++) {
		int c = sort_sc->keys[i].cmp(a, b);

		if (c)
			return -c;
	}
	return l->order < r->order ? -1 : l->order > r->order;
}

static int lat_row_by_tid_desc(const void *a, const void *b)
{
	const struct lat_row *l = a, *r = b;

	return l->t->tid > r->t->tid ? -1 : l->t->tid < r->t->tid;
}

static int lat_row_by_comm_desc(const void *a, const void *b)
{
	const struct lat_row *l = a, *r = b;
	int c = strcmp(r->comm, l->comm);

	if (c)
		return c;
	return l->order < r->order ? -1 : l->order > r->order;
}

static void lat_print_row(const struct lat_row *r)
{
	char start[32], end[32];
	int n;

	if (r->num_merged > 1)
		n = printf("  %s:(%d) ", r->comm, r->num_merged);
	else
		n = printf("  %s:%d ", r->comm, r->t->tid);
	for (int i = 0; i < 24 - n; i++)
		putchar(' ');
	sched__tstamp(r->max_lat_start, start, sizeof(start));
	sched__tstamp(r->max_lat_end, end, sizeof(end));
	printf("|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | max end: %12s s\n",
	       (double)r->total_runtime / NSEC_PER_MSEC, r->nb_atoms,
	       (double)(r->total_lat / r->nb_atoms) / NSEC_PER_MSEC,
	       (double)r->max_lat / NSEC_PER_MSEC, start, end);
}

/* --callchain: where the worst delay began, under the task's row */
static void lat_print_chain(struct sched *sc, const struct lat_row *r)
{
	const struct lat_chain *c = r->chain;
	struct resolve_opts ropts = { .max_stack = 127 };
	struct ip_callchain *cc;
	struct perf_sample sample;
	char ts[32];

	if (!c || !c->nr || !r->max_lat)
		return;
	cc = malloc(sizeof(*cc) + c->nr * sizeof(cc->ips[0]));
	if (!cc)
		return;
	cc->nr = c->nr;
	memcpy(cc->ips, c->ips, c->nr * sizeof(cc->ips[0]));
	memset(&sample, 0, sizeof(sample));
	sample.pid = c->pid;
	sample.tid = c->tid;
	sample.cpu = c->cpu;
	sample.time = c->time;
	sample.cpumode = c->cpumode;
	sample.ip = c->ips[0];
	sample.callchain = cc;
	sched__tstamp(c->time, ts, sizeof(ts));
	if (sched__resolve_chain(sc, &sample, c->evsel, &ropts) == 0) {
		const struct callchain_cursor *cur = &sc->rs->cursor;

		if (c->preempted)
			printf("      worst delay began: preempted at %s s, in\n", ts);
		else
			printf("      worst delay began: woken by %s[%u] at %s s, in\n",
			       sched__comm_of(sc, (pid_t)c->tid), c->tid, ts);
		for (unsigned int i = 0; i < cur->nr; i++) {
			const struct callchain_frame *f = &cur->frames[i];

			printf("          %s\n", f->sym ? f->sym->name : "[unknown]");
		}
	}
	free(cc);
}

static void sched__print_bad_events(struct sched *sc)
{
	const struct events_stats *st = &sc->session->data.stats;
	uint64_t nr_events = st->nr_events[0];	/* all records */
	if (sc->nr_unordered_timestamps && sc->nr_timestamps)
		printf("  INFO: %.3f%% unordered timestamps (%lu out of %lu)\n",
		       (double)sc->nr_unordered_timestamps / (double)sc->nr_timestamps * 100.0,
		       sc->nr_unordered_timestamps, sc->nr_timestamps);
	if (st->total_lost && nr_events)
		printf("  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64 ", in %" PRIu64 " chunks)\n",
		       (double)st->total_lost / (double)nr_events * 100.0, st->total_lost, nr_events,
		       st->nr_events[PERF_RECORD_LOST]);
	if (sc->nr_context_switch_bugs && sc->nr_timestamps) {
		printf("  INFO: %.3f%% context switch bugs (%lu out of %lu)",
		       (double)sc->nr_context_switch_bugs / (double)sc->nr_timestamps * 100.0,
		       sc->nr_context_switch_bugs, sc->nr_timestamps);
		if (st->total_lost)
			printf(" (due to lost events?)");
		printf("\n");
	}
}

static int sched__latency_finish(struct sched *sc)
{
	unsigned int nr, nrows = 0;
	struct sched_task **tasks = sched__tasks(sc, &nr);
	struct lat_row *rows;
	uint64_t all_runtime = 0, all_count = 0;

	if (!tasks)
		return -ENOMEM;
	rows = calloc(nr + 1, sizeof(*rows));
	if (!rows) {
		free(tasks);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < nr; i++) {
		struct lat_task *l = &tasks[i]->lat;

		if (!l->known)
			continue;
		rows[nrows++] = (struct lat_row){
			.t = tasks[i], .num_merged = 1,
			.comm = tasks[i]->retired_comm ? tasks[i]->retired_comm :
				sched__comm_of(sc, tasks[i]->tid),
			.total_runtime = l->total_runtime, .nb_atoms = l->nb_atoms,
			.total_lat = l->total_lat, .max_lat = l->max_lat,
			.max_lat_start = l->max_lat_start, .max_lat_end = l->max_lat_end,
			.chain = &l->max_chain,
		};
	}
	free(tasks);
	/* perf walks its per-task tree from the highest tid */
	qsort(rows, nrows, sizeof(*rows), lat_row_by_tid_desc);
	for (unsigned int i = 0; i < nrows; i++)
		rows[i].order = i;
	if (!sc->o.per_pid && nrows) {
		/* merge by comm: the first task of a comm (highest tid) keeps
		 * the row; perf's merged tree is then walked from the greatest
		 * comm */
		unsigned int w = 0;

		qsort(rows, nrows, sizeof(*rows), lat_row_by_comm_desc);
		for (unsigned int i = 0; i < nrows; i++) {
			struct lat_row *d = &rows[i];

			if (w && !strcmp(rows[w - 1].comm, d->comm)) {
				struct lat_row *m = &rows[w - 1];

				m->num_merged++;
				m->total_runtime += d->total_runtime;
				m->nb_atoms += d->nb_atoms;
				m->total_lat += d->total_lat;
				if (m->max_lat < d->max_lat) {
					m->max_lat = d->max_lat;
					m->max_lat_start = d->max_lat_start;
					m->max_lat_end = d->max_lat_end;
					m->chain = d->chain;
				}
				continue;
			}
			rows[w++] = *d;
		}
		nrows = w;
		for (unsigned int i = 0; i < nrows; i++)
			rows[i].order = i;
	}
	sort_sc = sc;
	qsort(rows, nrows, sizeof(*rows), lat_row_cmp);

	printf("\n -------------------------------------------------------------------------------------------------------------------------------------------\n");
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |\n");
	printf(" -------------------------------------------------------------------------------------------------------------------------------------------\n");
	for (unsigned int i = 0; i < nrows; i++) {
		if (!rows[i].nb_atoms || !strcmp(rows[i].comm, "swapper"))
			continue;
		all_runtime += rows[i].total_runtime;
		all_count += rows[i].nb_atoms;
		lat_print_row(&rows[i]);
		if (sc->o.callchain)
			lat_print_chain(sc, &rows[i]);
	}
	printf(" -----------------------------------------------------------------------------------------------------------------\n");
	printf("  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n",
	       (double)all_runtime / NSEC_PER_MSEC, all_count);
	printf(" ---------------------------------------------------\n");
	sched__print_bad_events(sc);
	printf("\n");
	free(rows);
	return 0;
}

/* ---- map ---- */

static bool tid_in(const pid_t *v, int n, pid_t tid)
{
	for (int i = 0; i < n; i++)
		if (v[i] == tid)
			return true;
	return false;
}

static bool cpu_in(const struct perf_cpu_map *m, int cpu)
{
	return m && perf_cpu_map__idx(m, cpu) >= 0;
}

static void map_color(bool on, const char *color)
{
	if (on)
		fputs(color, stdout);
}

static int map_switch(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	pid_t next = (pid_t)sched__field(sc, evsel, sample, SF_NEXT_PID);
	int this_cpu = (int)sample->cpu, cpus_nr;
	bool new_cpu = false, new_shortname = false, tty = sc->tty;
	struct sched_task *in;
	struct thread *th;
	char ts[32];

	if (this_cpu < 0 || this_cpu >= SCHED_MAX_CPUS)
		return 0;
	if (this_cpu > sc->max_cpu)
		sc->max_cpu = this_cpu;
	if (sc->o.compact) {
		int i;

		for (i = 0; i < sc->nr_comp_cpus; i++)
			if (sc->comp_cpus[i] == this_cpu)
				break;
		if (i == sc->nr_comp_cpus) {
			sc->comp_cpus[sc->nr_comp_cpus++] = this_cpu;
			new_cpu = true;
		}
		cpus_nr = sc->nr_comp_cpus;
	} else {
		cpus_nr = sc->max_cpu;
	}
	th = sched__thread(sc, -1, next);
	in = sched__task(sc, next);
	if (!th || !in)
		return -ENOMEM;
	if (!in->shortname[0] && sc->nr_color_tids)
		in->color = tid_in(sc->color_tids, sc->nr_color_tids, next);
	sc->curr_tid[this_cpu] = next;

	printf("  ");
	if (!in->shortname[0]) {
		if (!strcmp(thread__comm_str(th), "swapper")) {
			in->shortname[0] = '.';
			in->shortname[1] = ' ';
		} else {
			in->shortname[0] = sc->next_shortname1;
			in->shortname[1] = sc->next_shortname2;
			if (sc->next_shortname1 < 'Z') {
				sc->next_shortname1++;
			} else {
				sc->next_shortname1 = 'A';
				sc->next_shortname2 = sc->next_shortname2 < '9' ?
						      sc->next_shortname2 + 1 : '0';
			}
		}
		new_shortname = true;
	}
	for (int i = 0; i < cpus_nr; i++) {
		int cpu = sc->o.compact ? sc->comp_cpus[i] : i;
		struct sched_task *cur = sc->curr_tid[cpu] >= 0 ? sched__task(sc, sc->curr_tid[cpu]) : NULL;
		bool pid_color = tty && cur && cur->color;

		if (sc->map_cpus && !cpu_in(sc->map_cpus, cpu))
			continue;
		if (cpu != this_cpu) {
			putchar(' ');
		} else {
			bool cc = tty && cpu_in(sc->color_cpu_map, cpu);

			map_color(cc, "\033[41m");
			putchar('*');
			map_color(cc, "\033[m");
		}
		if (cur) {
			map_color(pid_color, "\033[34m");
			printf("%2s ", cur->shortname);
			map_color(pid_color, "\033[m");
		} else {
			printf("   ");
		}
	}
	if (sc->map_cpus && !cpu_in(sc->map_cpus, this_cpu))
		goto out;
	sched__tstamp(sample->time, ts, sizeof(ts));
	printf("  %12s secs ", ts);
	if (new_shortname || in->comm_changed || (sc->o.verbose > 0 && next)) {
		map_color(tty && in->color, "\033[34m");
		printf("%s => %s:%d", in->shortname, thread__comm_str(th), next);
		map_color(tty && in->color, "\033[m");
		in->comm_changed = false;
	}
	if (sc->o.compact && new_cpu)
		printf(" (CPU %d)", this_cpu);
out:
	putchar('\n');
	return 0;
}

static int parse_tids(const char *str, pid_t **out, int *nr)
{
	char *s, *save = NULL;

	if (!str)
		return 0;
	s = strdup(str);
	if (!s)
		return -ENOMEM;
	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);
		pid_t *nv;

		if (*end || end == tok || v < 0) {
			fprintf(stderr, "prf sched: invalid pid/tid '%s'\n", tok);
			free(s);
			return -EINVAL;
		}
		nv = realloc(*out, (*nr + 1) * sizeof(**out));
		if (!nv) {
			free(s);
			return -ENOMEM;
		}
		*out = nv;
		(*out)[(*nr)++] = (pid_t)v;
	}
	free(s);
	return 0;
}

static int parse_cpus(const char *str, struct perf_cpu_map **map)
{
	if (!str)
		return 0;
	*map = perf_cpu_map__new(str);
	if (!*map || perf_cpu_map__empty(*map)) {
		fprintf(stderr, "prf sched: invalid cpu list '%s'\n", str);
		return -EINVAL;
	}
	return 0;
}

/* ---- the analysis ---- */

struct sched *sched__new(struct perf_session *s, const struct sched_opts *opts, int *err)
{
	struct sched *sc = calloc(1, sizeof(*sc));

	*err = -ENOMEM;
	if (!sc)
		return NULL;
	sc->o = *opts;
	sc->session = s;
	sc->next_shortname1 = 'A';
	sc->next_shortname2 = '0';
	sc->comm_width = 30;
	sc->cpu_last_switched = calloc(SCHED_MAX_CPUS, sizeof(*sc->cpu_last_switched));
	sc->curr_pid = malloc(SCHED_MAX_CPUS * sizeof(*sc->curr_pid));
	sc->curr_tid = malloc(SCHED_MAX_CPUS * sizeof(*sc->curr_tid));
	sc->switch_last_time = calloc(SCHED_MAX_CPUS, sizeof(*sc->switch_last_time));
	sc->comp_cpus = calloc(SCHED_MAX_CPUS, sizeof(*sc->comp_cpus));
	if (!sc->cpu_last_switched || !sc->curr_pid || !sc->curr_tid || !sc->switch_last_time ||
	    !sc->comp_cpus || sched__grow(sc))
		goto out_err;
	for (int i = 0; i < SCHED_MAX_CPUS; i++) {
		sc->curr_pid[i] = (uint32_t)-1;
		sc->curr_tid[i] = -1;
	}
	*err = sched__parse_sort(sc);
	if (*err)
		goto out_err;
	*err = parse_cpus(opts->map_cpus, &sc->map_cpus);
	if (!*err)
		*err = parse_cpus(opts->color_cpus, &sc->color_cpu_map);
	if (!*err)
		*err = parse_cpus(opts->cmd == SCHED_TIMEHIST ? opts->cpu_list : NULL, &sc->cpus);
	if (!*err)
		*err = parse_tids(opts->color_pids, &sc->color_tids, &sc->nr_color_tids);
	if (!*err)
		*err = parse_tids(opts->pids, &sc->filter_pids, &sc->nr_filter_pids);
	if (!*err)
		*err = parse_tids(opts->tids, &sc->filter_tids, &sc->nr_filter_tids);
	if (*err)
		goto out_err;
	/* map: as many columns as this machine has CPUs, more when seen */
	if (opts->cmd == SCHED_MAP)
		sc->max_cpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	sc->tty = isatty(STDOUT_FILENO);	/* map's colors */
	return sc;
out_err:
	sched__delete(sc);
	return NULL;
}

void sched__delete(struct sched *sc)
{
	if (!sc)
		return;
	sched__timehist_exit(sc);
	sched__replay_exit(sc);
	for (unsigned int i = 0; i < sc->hash_size; i++) {
		struct sched_task *t = sc->hash[i], *next;

		for (; t; t = next) {
			next = t->next;
			free(t->lat.pend.ips);
			free(t->lat.max_chain.ips);
			free(t);
		}
	}
	for (unsigned int i = 0; i < sc->nr_retired; i++) {
		struct sched_task *t = sc->retired[i];

		free(t->lat.pend.ips);
		free(t->lat.max_chain.ips);
		free(t->retired_comm);
		free(t);
	}
	free(sc->retired);
	free(sc->hash);
	free(sc->cpu_last_switched);
	free(sc->curr_pid);
	free(sc->curr_tid);
	free(sc->switch_last_time);
	free(sc->comp_cpus);
	free(sc->color_tids);
	free(sc->filter_pids);
	free(sc->filter_tids);
	perf_cpu_map__put(sc->map_cpus);
	perf_cpu_map__put(sc->color_cpu_map);
	perf_cpu_map__put(sc->cpus);
	free(sc->ev_kind);
	free(sc->evf);
	if (sc->rs) {
		resolved_sample__exit(sc->rs);
		free(sc->rs);
	}
	if (sc->tf)
		trace_formatter__delete(sc->tf);
	free(sc);
}

static enum sched_ev evsel_kind(struct evsel *evsel)
{
	static const struct {
		const char *name;
		enum sched_ev kind;
	} names[] = {
		{ "sched_switch", SEV_SWITCH },
		{ "sched_wakeup", SEV_WAKEUP },
		{ "sched_waking", SEV_WAKING },
		{ "sched_wakeup_new", SEV_WAKEUP_NEW },
		{ "sched_migrate_task", SEV_MIGRATE },
		{ "sched_stat_runtime", SEV_RUNTIME },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (trace_formatter__evsel_is(evsel, "sched", names[i].name))
			return names[i].kind;
	return SEV_NONE;
}

static int sched__learn_evlist(struct sched *sc)
{
	struct evlist *evlist = sc->session->data.evlist;
	struct evsel *evsel;
	bool have_switch = false;
	int n = 0;

	if (!evlist)
		return 0;
	evlist__for_each_entry(evlist, evsel)
		if (evsel->idx + 1 > n)
			n = evsel->idx + 1;
	if (n > sc->nr_ev_kind) {
		unsigned char *k = realloc(sc->ev_kind, n);
		struct sched_evfields *f;

		if (!k)
			return -ENOMEM;
		sc->ev_kind = k;
		f = realloc(sc->evf, n * sizeof(*f));
		if (!f)
			return -ENOMEM;
		memset(f + sc->nr_ev_kind, 0, (n - sc->nr_ev_kind) * sizeof(*f));
		sc->evf = f;
		sc->nr_ev_kind = n;
	}
	evlist__for_each_entry(evlist, evsel) {
		enum sched_ev kind = evsel_kind(evsel);

		if (evsel->idx >= 0)
			sc->ev_kind[evsel->idx] = (unsigned char)kind;
		have_switch |= kind == SEV_SWITCH;
		sc->have_waking |= kind == SEV_WAKING;
	}
	return have_switch;
}

int sched__start(struct sched *sc)
{
	int have_switch = sched__learn_evlist(sc);

	if (have_switch < 0)
		return have_switch;
	if (sc->o.cmd == SCHED_TIMEHIST) {
		sched__timehist_check_chains(sc);
		if (!have_switch && !sc->session->data.pipe) {
			fprintf(stderr, "No sched_switch events found. Have you run 'perf sched record'?\n");
			return -EINVAL;
		}
	} else if (!sc->session->data.pipe && !(sc->session->data.evlist &&
						     trace_data__has_tracepoints(sc->session->data.evlist))) {
		/* perf's words; the (empty) output follows */
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	}
	if (sc->o.callchain && sc->session->data.evlist) {
		struct evsel *evsel;
		bool any = false;

		evlist__for_each_entry(sc->session->data.evlist, evsel)
			any |= (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
		if (!any) {
			fprintf(stderr, "prf sched latency: the recording has no callchains "
					"(record with -g): --callchain shows no stacks\n");
			sc->o.callchain = false;
		}
	}
	if (sc->o.cmd == SCHED_TIMEHIST)
		return sched__timehist_start(sc);
	if (sc->o.cmd == SCHED_REPLAY)
		return sched__replay_start(sc);
	return 0;
}

static enum sched_ev sched__kind(struct sched *sc, struct evsel *evsel)
{
	if (evsel->idx < 0)
		return SEV_NONE;
	if (evsel->idx >= sc->nr_ev_kind && sched__learn_evlist(sc) < 0)
		return SEV_NONE;
	if (evsel->idx >= sc->nr_ev_kind)
		return SEV_NONE;
	return (enum sched_ev)sc->ev_kind[evsel->idx];
}

static int sched__switch_common(struct sched *sc, struct evsel *evsel, struct perf_sample *sample)
{
	uint32_t prev = (uint32_t)sched__field(sc, evsel, sample, SF_PREV_PID);
	int cpu = (int)sample->cpu;

	/* a task switched away that is not the current one */
	if (sc->curr_pid[cpu] != (uint32_t)-1 && sc->curr_pid[cpu] != prev)
		sc->nr_context_switch_bugs++;
	return 0;
}

bool sched__sample_wanted(struct sched *sc, struct evsel *evsel, uint32_t cpu)
{
	enum sched_ev kind = sched__kind(sc, evsel);

	if (kind == SEV_NONE)
		return false;
	if (kind == SEV_MIGRATE && sc->o.cmd == SCHED_LATENCY)
		return sc->o.profile_cpu != -1;	/* lat_migrate() looks at -C's only */
	if (sc->o.cmd != SCHED_TIMEHIST)
		return kind != SEV_WAKING && (sc->o.cmd != SCHED_MAP || kind == SEV_SWITCH);
	if (kind == SEV_WAKEUP && sc->have_waking)
		return false;
	/* sched__timehist_event() only raises max_cpu with these, which
	 * never falls: a CPU at or below it now changes nothing */
	if (kind == SEV_RUNTIME || (kind == SEV_MIGRATE && !sc->o.migrations))
		return cpu < SCHED_MAX_CPUS && (int)cpu > sc->max_cpu;
	return true;
}

int sched__sample(struct sched *sc, struct perf_sample *sample, struct evsel *evsel)
{
	enum sched_ev kind = sched__kind(sc, evsel);
	int err = 0;

	if (kind == SEV_NONE || sample->cpu >= SCHED_MAX_CPUS)
		return 0;	/* not ours, or a CPU no machine has (bad input) */
	if (!sc->tf) {
		sc->tf = trace_formatter__new_session(sc->session);
		if (!sc->tf)
			return -ENOMEM;
	}
	/* perf 6.1 reads sched_waking in timehist only, and there in
	 * place of sched_wakeup when both were recorded */
	if (sc->o.cmd == SCHED_TIMEHIST)
		return kind == SEV_WAKEUP && sc->have_waking ? 0 :
		       sched__timehist_event(sc, kind, evsel, sample);
	if (kind == SEV_WAKING)
		return 0;
	if (kind == SEV_SWITCH) {
		err = sched__switch_common(sc, evsel, sample);
		if (err)
			return err;
	}
	switch (sc->o.cmd) {
	case SCHED_LATENCY:
		if (kind == SEV_SWITCH)
			err = lat_switch(sc, evsel, sample);
		else if (kind == SEV_RUNTIME)
			err = lat_runtime(sc, evsel, sample);
		else if (kind == SEV_MIGRATE)
			err = lat_migrate(sc, evsel, sample);
		else if (kind != SEV_NONE)
			err = lat_wakeup(sc, evsel, sample);
		break;
	case SCHED_MAP:
		if (kind == SEV_SWITCH)
			err = map_switch(sc, evsel, sample);
		break;
	case SCHED_REPLAY:
		err = sched__replay_event(sc, kind, evsel, sample);
		break;
	default:
		break;
	}
	if (kind == SEV_SWITCH)
		sc->curr_pid[sample->cpu] = (uint32_t)sched__field(sc, evsel, sample, SF_NEXT_PID);
	return err;
}

void sched__comm(struct sched *sc, pid_t tid)
{
	struct sched_task *t = sched__task(sc, tid);

	if (t)
		t->comm_changed = true;
}

int sched__fork(struct sched *sc, pid_t ppid, pid_t ptid, pid_t pid, pid_t tid)
{
	struct sched_task *t = sched__task(sc, tid);

	if (!t)
		return -ENOMEM;
	/* perf's parent of a task is the thread that forked it */
	t->forked = true;
	t->parent = ptid;
	return sc->o.cmd == SCHED_REPLAY ? sched__replay_fork(sc, ppid, ptid, pid, tid) : 0;
}

void sched__lost(struct sched *sc, uint64_t lost, struct perf_sample *sample)
{
	if (sc->o.cmd == SCHED_TIMEHIST)
		sched__timehist_lost(sc, lost, sample);
}

int sched__finish(struct sched *sc)
{
	switch (sc->o.cmd) {
	case SCHED_LATENCY:
		return sched__latency_finish(sc);
	case SCHED_TIMEHIST:
		return sched__timehist_finish(sc);
	case SCHED_MAP:
		sched__print_bad_events(sc);
		return 0;
	case SCHED_REPLAY:
		return sched__replay_finish(sc);
	}
	return 0;
}
