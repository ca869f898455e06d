// SPDX-License-Identifier: GPL-2.0
/*
 * perf trace's syscall lines and summary over the syscall tracepoints'
 * samples. See trace.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <traceevent/event-parse.h>
#include "trace.h"
#include "syscall-fmt.h"
#include "../session/session.h"
#include "../session/resolve.h"
#include "../session/trace-format.h"
#include "../model/machine.h"
#include "../model/map.h"
#include "../model/dso.h"
#include "../kernel/evsel.h"
#include "../lib/util.h"

#define ARGS_ALIGNMENT 70	/* perf's trace.args_alignment default */
#define ENTRY_STR_SIZE 2048

/* Welford running statistics of one syscall of one thread (ns). */
struct sc_stats {
	uint64_t n, min, max, nr_failures;
	double mean, m2;
	uint32_t *errnos;	/* count per errno - 1 */
	int max_errno;
};

struct ttrace {
	pid_t pid, tid;
	uint64_t nr_events;
	uint64_t pfmaj, pfmin;	/* page faults seen */
	uint64_t runtime_ns;	/* sched:sched_stat_runtime (--sched) */
	uint64_t entry_time;	/* of the last sys_enter (never reset, as perf) */
	bool entry_pending;
	int ret_as;		/* syscall_fmt_ctx.ret_as of the pending call */
	char *entry_str;
	struct sc_stats *stats;	/* indexed by syscall number */
	int nr_stats;
	struct ttrace *next;	/* hash chain */
};

enum tp_role { ROLE_UNKNOWN, ROLE_NONE, ROLE_ENTER, ROLE_EXIT, ROLE_PGFAULT, ROLE_RUNTIME };

/* Where a syscall tracepoint's fields are, per evsel index. */
struct tp_layout {
	uint8_t role;
	bool per_syscall;	/* syscalls:sys_enter_NAME: args follow the nr */
	int nr_off, nr_size;
	int val_off;		/* args (enter) or ret (exit) */
	int nr_args;
};

struct syscall_trace {
	struct syscall_trace_opts opts;
	struct syscall_tbl *tbl;
	struct trace_formatter *tf;
	struct perf_session *session;	/* of the sample being handled */
	struct tp_layout *layouts;
	int nr_layouts;
	struct ttrace **hash;
	size_t hash_size, nr_threads;
	struct ttrace *current;
	uint64_t base_time, nr_events;
	int *filter;
	int nr_filter;
	bool filter_negate;
	bool single_thread;
	uint64_t nr_printed;		/* events printed, for max_events */
	struct resolved_sample rs;	/* the sys_exit's callchain */
	bool rs_ready;
	char fd_path[PATH_MAX];
};

struct syscall_trace *syscall_trace__new(const struct syscall_trace_opts *opts,
					 struct syscall_tbl *tbl)
{
	struct syscall_trace *st = zalloc(sizeof(*st));

	if (!st)
		return NULL;
	st->opts = *opts;
	st->tbl = tbl;
	st->hash_size = 256;
	st->hash = calloc(st->hash_size, sizeof(*st->hash));
	if (!st->hash) {
		free(st);
		return NULL;
	}
	return st;
}

static void ttrace__delete(struct ttrace *t)
{
	for (int i = 0; i < t->nr_stats; i++)
		free(t->stats[i].errnos);
	free(t->stats);
	free(t->entry_str);
	free(t);
}

void syscall_trace__delete(struct syscall_trace *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->hash_size; i++) {
		struct ttrace *t = st->hash[i], *next;

		for (; t; t = next) {
			next = t->next;
			ttrace__delete(t);
		}
	}
	free(st->hash);
	free(st->layouts);
	free(st->filter);
	if (st->rs_ready)
		resolved_sample__exit(&st->rs);
	if (st->tf)
		trace_formatter__delete(st->tf);
	free(st);
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int syscall_trace__set_filter(struct syscall_trace *st, const int *nrs, int n, bool negate)
{
	int *f = n ? malloc(n * sizeof(*f)) : NULL;

	if (n && !f)
		return -ENOMEM;
	if (n)
		memcpy(f, nrs, n * sizeof(*f));
	if (n)
		qsort(f, n, sizeof(*f), int_cmp);
	free(st->filter);
	st->filter = f;
	st->nr_filter = n;
	st->filter_negate = negate;
	return 0;
}

void syscall_trace__set_single_thread(struct syscall_trace *st, bool single)
{
	st->single_thread = single;
}

static bool syscall_enabled(struct syscall_trace *st, int nr)
{
	bool in;

	if (!st->nr_filter && !st->filter_negate)
		return true;
	in = st->nr_filter && bsearch(&nr, st->filter, st->nr_filter, sizeof(int), int_cmp);
	return in != st->filter_negate;
}

/* ---- threads ---- */

static struct ttrace *thread_find(struct syscall_trace *st, pid_t tid)
{
	struct ttrace *t = st->hash[(unsigned int)tid & (st->hash_size - 1)];

	while (t && t->tid != tid)
		t = t->next;
	return t;
}

static int hash_grow(struct syscall_trace *st)
{
	size_t n = st->hash_size * 2;
	struct ttrace **h = calloc(n, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < st->hash_size; i++) {
		struct ttrace *t = st->hash[i], *next;

		for (; t; t = next) {
			next = t->next;
			t->next = h[(unsigned int)t->tid & (n - 1)];
			h[(unsigned int)t->tid & (n - 1)] = t;
		}
	}
	free(st->hash);
	st->hash = h;
	st->hash_size = n;
	return 0;
}

static struct ttrace *thread_findnew(struct syscall_trace *st, pid_t pid, pid_t tid)
{
	struct ttrace *t = thread_find(st, tid);
	size_t b;

	if (t)
		return t;
	if (st->nr_threads >= st->hash_size && hash_grow(st))
		return NULL;
	t = zalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	b = (unsigned int)tid & (st->hash_size - 1);
	t->next = st->hash[b];
	st->hash[b] = t;
	st->nr_threads++;
	return t;
}

/* ---- tracepoint fields ---- */

static struct tp_layout *layout_of(struct syscall_trace *st, struct perf_session *s,
				   struct evsel *evsel)
{
	struct tp_layout *l;
	struct tep_event *ev;
	struct tep_format_field *nr, *val;

	if (evsel->idx >= st->nr_layouts) {
		int n = evsel->idx + 8;
		struct tp_layout *nl = realloc(st->layouts, n * sizeof(*nl));

		if (!nl)
			return NULL;
		memset(nl + st->nr_layouts, 0, (n - st->nr_layouts) * sizeof(*nl));
		st->layouts = nl;
		st->nr_layouts = n;
	}
	l = &st->layouts[evsel->idx];
	if (l->role != ROLE_UNKNOWN)
		return l;
	l->role = ROLE_NONE;
	if (evsel->attr.type == PERF_TYPE_SOFTWARE &&
	    (evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ ||
	     evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
	     evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS))
		l->role = ROLE_PGFAULT;
	if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return l;
	if (!st->tf) {
		st->tf = trace_formatter__new_session(s);
		if (!st->tf)
			return NULL;
	}
	ev = trace_formatter__event(st->tf, evsel);
	if (!ev || !ev->system)
		return l;
	if (!strcmp(ev->system, "raw_syscalls") ||
	    (!strcmp(ev->system, "syscalls") && (!strcmp(ev->name, "sys_enter") ||
						 !strcmp(ev->name, "sys_exit")))) {
		bool enter = !strcmp(ev->name, "sys_enter");

		nr = tep_find_field(ev, "id");
		val = tep_find_field(ev, enter ? "args" : "ret");
		if (!nr || !val)
			return l;
		l->role = enter ? ROLE_ENTER : ROLE_EXIT;
		l->nr_args = enter ? 6 : 1;
	} else if (!strcmp(ev->system, "syscalls") &&
		   (!strncmp(ev->name, "sys_enter_", 10) || !strncmp(ev->name, "sys_exit_", 9))) {
		bool enter = !strncmp(ev->name, "sys_enter_", 10);

		nr = tep_find_field(ev, "__syscall_nr");
		if (!nr)
			nr = tep_find_field(ev, "nr");
		if (!nr)
			return l;
		val = enter ? NULL : tep_find_field(ev, "ret");
		if (!enter && !val)
			return l;
		l->role = enter ? ROLE_ENTER : ROLE_EXIT;
		l->per_syscall = true;
		l->nr_args = enter ? (ev->format.nr_fields > 1 ? ev->format.nr_fields - 1 : 0) : 1;
		if (l->nr_args > 6)
			l->nr_args = 6;
	} else if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_stat_runtime")) {
		val = tep_find_field(ev, "runtime");
		if (!val || val->size != 8)
			return l;
		l->role = ROLE_RUNTIME;
		l->val_off = val->offset;
		return l;
	} else {
		return l;
	}
	l->nr_off = nr->offset;
	l->nr_size = nr->size;
	/* the per-syscall tracepoints put their arguments in u64 slots after
	 * the (padded) number */
	l->val_off = val ? val->offset : nr->offset + 8;
	return l;
}

bool syscall_trace__handles(struct syscall_trace *st, struct perf_session *s, struct evsel *evsel)
{
	struct tp_layout *l = layout_of(st, s, evsel);

	return l && l->role != ROLE_UNKNOWN && l->role != ROLE_NONE;
}

static bool read_u64(const struct perf_sample *sample, int off, int size, uint64_t *v)
{
	const unsigned char *p = sample->raw_data;

	if (!p || off < 0 || (uint64_t)off + size > sample->raw_size)
		return false;
	if (size == 8) {
		memcpy(v, p + off, 8);
	} else if (size == 4) {
		int32_t x;

		memcpy(&x, p + off, 4);
		*v = (uint64_t)(int64_t)x;
	} else {
		return false;
	}
	return true;
}

/* ---- printing ---- */

static const char *fd_path(void *arg, int pid, int tid, int fd)
{
	struct syscall_trace *st = arg;
	char link[64];
	ssize_t n;

	if (!st->opts.live)
		return NULL;
	if (pid == tid)
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	else
		snprintf(link, sizeof(link), "/proc/%d/task/%d/fd/%d", pid, tid, fd);
	n = readlink(link, st->fd_path, sizeof(st->fd_path) - 1);
	if (n < 0)
		return NULL;
	st->fd_path[n] = '\0';
	return st->fd_path;
}

static int thread_comm(void *arg, int tid, const char **comm)
{
	struct syscall_trace *st = arg;
	struct thread *t = st->session ? machine__find_thread(st->session->machine, tid) : NULL;

	if (!t)
		return 0;
	*comm = t->comm_set ? thread__comm_str(t) : NULL;
	return 1;
}

static void print_head(struct syscall_trace *st, struct ttrace *t, uint64_t duration,
		       bool calculated, uint64_t tstamp)
{
	FILE *fp = st->opts.out;

	if (tstamp > 0)
		fprintf(fp, "%10.3f ", (double)(tstamp - st->base_time) / 1e6);
	else
		fprintf(fp, "         ? ");
	if (calculated)
		fprintf(fp, "(%6.3f ms): ", (double)duration / 1e6);
	else
		fprintf(fp, "(         ): ");
	if (st->single_thread)
		return;
	if (st->opts.show_comm)
		fprintf(fp, "%.14s/", perf_session__comm(st->session, t->pid, t->tid));
	fprintf(fp, "%d ", t->tid);
}

/* A pending call of the thread that made the previous sys_enter,
 * interrupted by another thread's: "call) ..." */
static void print_interrupted(struct syscall_trace *st)
{
	struct ttrace *t = st->current;
	int len;

	if (st->opts.failure_only || !t || !t->entry_pending)
		return;
	print_head(st, t, 0, false, t->entry_time);
	len = fprintf(st->opts.out, "%s)", t->entry_str);
	if (len < ARGS_ALIGNMENT - 4)
		fprintf(st->opts.out, "%-*s", ARGS_ALIGNMENT - 4 - len, " ");
	fprintf(st->opts.out, " ...\n");
	t->entry_pending = false;
	st->nr_printed++;
}

static struct syscall_fmt_ctx fmt_ctx(struct syscall_trace *st, struct ttrace *t)
{
	return (struct syscall_fmt_ctx){
		.fd_path = fd_path, .thread_comm = thread_comm, .arg = st,
		.pid = t->pid, .tid = t->tid,
	};
}

static int sys_enter(struct syscall_trace *st, struct ttrace *t, int nr, const uint64_t args[6],
		     uint64_t time)
{
	struct syscall_fmt_ctx ctx = fmt_ctx(st, t);
	bool quiet = st->opts.duration_ms > 0 || st->opts.summary_only;

	if (!t->entry_str) {
		t->entry_str = malloc(ENTRY_STR_SIZE);
		if (!t->entry_str)
			return -ENOMEM;
	}
	if (!quiet)
		print_interrupted(st);
	t->entry_time = time;
	syscall_tbl__format_call(st->tbl, nr, args, &ctx, t->entry_str, ENTRY_STR_SIZE);
	t->ret_as = ctx.ret_as;
	if (syscall_tbl__is_exit(st->tbl, nr)) {
		if (!quiet && !st->opts.failure_only) {
			int printed, pad = 0;

			print_head(st, t, 0, false, t->entry_time);
			printed = fprintf(st->opts.out, "%s)", t->entry_str);
			if (ARGS_ALIGNMENT > printed)
				pad = ARGS_ALIGNMENT - printed;
			fprintf(st->opts.out, "%*s= ?\n", pad, " ");
		}
	} else {
		t->entry_pending = true;
	}
	st->current = t;
	return 0;
}

static int update_stats(struct ttrace *t, int nr, uint64_t time, int64_t ret, bool errnos)
{
	struct sc_stats *s;
	uint64_t d = 0;
	double delta;

	if (nr >= t->nr_stats) {
		int n = nr + 16;
		struct sc_stats *ns = realloc(t->stats, n * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		memset(ns + t->nr_stats, 0, (n - t->nr_stats) * sizeof(*ns));
		t->stats = ns;
		t->nr_stats = n;
	}
	s = &t->stats[nr];
	if (!s->n)
		s->min = UINT64_MAX;
	if (t->entry_time && time > t->entry_time)
		d = time - t->entry_time;
	s->n++;
	delta = (double)d - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * ((double)d - s->mean);
	if (d > s->max)
		s->max = d;
	if (d < s->min)
		s->min = d;
	if (ret < 0) {
		int e = (int)-ret;

		s->nr_failures++;
		if (!errnos || e <= 0 || e > 4095)
			return 0;
		if (e > s->max_errno) {
			uint32_t *ne = realloc(s->errnos, e * sizeof(*ne));

			if (!ne)
				return -ENOMEM;
			memset(ne + s->max_errno, 0, (e - s->max_errno) * sizeof(*ne));
			s->errnos = ne;
			s->max_errno = e;
		}
		s->errnos[e - 1]++;
	}
	return 0;
}

/*
 * The sample's callchain resolved into st->rs (user frames unless the
 * kernel's were asked for), as perf trace resolves it for a sys_exit.
 * 1 with frames, 0 without a callchain, -errno.
 */
static int exit_callchain(struct syscall_trace *st, struct evsel *evsel, struct perf_sample *sample)
{
	struct resolve_opts ro = {
		.max_stack = st->opts.max_stack,
		.inline_frames = true,
	};
	int err;

	if (!(evsel->attr.sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER)))
		return 0;
	if (!st->rs_ready) {
		err = resolved_sample__init(&st->rs, true);
		if (err)
			return err;
		st->rs_ready = true;
	}
	err = sample__resolve(st->session, sample, evsel, &st->rs);
	if (!err)
		err = resolved_sample__callchain(st->session, &st->rs, &ro);
	return err ? err : 1;
}

/*
 * The callchain under a syscall line as perf trace prints it: one frame a
 * line, 38 columns in, " sym (dso)", an unknown symbol as its DSO
 * address "[0x...]", an inlined call as "sym (inlined)".
 */
static void print_callchain(struct syscall_trace *st)
{
	const struct callchain_cursor *c = &st->rs.cursor;
	FILE *fp = st->opts.out;

	for (unsigned int i = 0; i < c->nr; i++) {
		const struct callchain_frame *fr = &c->frames[i];
		bool inl = fr->sym && fr->inlined;

		fprintf(fp, "%38s ", "");
		if (fr->sym)
			fprintf(fp, "%.*s", (int)symbol__name_len(fr->sym), fr->sym->name);
		else
			fprintf(fp, "[%#" PRIx64 "]", fr->map ? fr->addr : 0);
		if (!inl)
			fprintf(fp, " (%s)", fr->map && fr->map->dso ? fr->map->dso->long_name
								      : "[unknown]");
		fputs(inl ? " (inlined)\n" : "\n", fp);
	}
}

static int sys_exit(struct syscall_trace *st, struct ttrace *t, int nr, int64_t ret,
		    struct evsel *evsel, struct perf_sample *sample)
{
	uint64_t time = sample->time;
	int chain = 0;
	struct syscall_fmt_ctx ctx = fmt_ctx(st, t);
	FILE *fp = st->opts.out;
	uint64_t duration = 0;
	bool calculated = false;
	int printed = 0, pad;
	char rbuf[256];

	if (st->opts.summary && update_stats(t, nr, time, ret, st->opts.errno_summary))
		return -ENOMEM;
	if (t->entry_time) {
		duration = time - t->entry_time;
		if ((double)duration < st->opts.duration_ms * 1e6)
			goto out;
		calculated = true;
	} else if (st->opts.duration_ms > 0) {
		goto out;
	}
	if (!st->opts.summary_only) {
		chain = exit_callchain(st, evsel, sample);
		if (chain < 0)
			return chain;
		if (chain && st->rs.cursor.nr < st->opts.min_stack)
			goto out;
	}
	if (st->opts.summary_only || (ret >= 0 && st->opts.failure_only))
		goto out;
	print_head(st, t, duration, calculated, t->entry_time);
	if (t->entry_pending && t->entry_str) {
		printed = fprintf(fp, "%s", t->entry_str);
	} else {
		const char *name = syscall_tbl__name(st->tbl, nr);

		printed = fprintf(fp, " ... [continued]: %s()", name ? name : "");
	}
	printed++;	/* the closing parenthesis */
	pad = ARGS_ALIGNMENT > printed ? ARGS_ALIGNMENT - printed : 0;
	fprintf(fp, ")%*s= ", pad, " ");
	ctx.ret_as = t->ret_as;
	syscall_tbl__format_ret(st->tbl, nr, ret, &ctx, rbuf, sizeof(rbuf));
	fprintf(fp, "%s\n", rbuf);
	st->nr_printed++;
	if (chain)
		print_callchain(st);
out:
	t->entry_pending = false;
	t->ret_as = 0;
	return 0;
}

/* "[sym+0xoff]" or the map address, or the raw address without a map;
 * with_dso: "dso@" before it. */
static void print_location(FILE *fp, const struct addr_location *al, uint64_t addr, bool with_dso,
			   bool with_sym)
{
	const char *name = al->map ? al->map->dso->long_name : NULL;
	uint64_t at = al->map ? al->addr : addr;

	/* perf keeps "//anon" for data (non-exec) anonymous maps, which the
	 * model names after the JIT map, and maps anonymous memory and
	 * [stack]/[heap]/SysV segments one to one */
	if (name && !(al->map->prot & PROT_EXEC) && !strncmp(name, "/tmp/perf-", 10)) {
		name = "//anon";
		at = addr;
	} else if (name && (!strncmp(name, "[stack", 6) || !strcmp(name, "[heap]") ||
			    !strncmp(name, "/SYSV", 5))) {
		at = addr;
	}
	if (with_dso && name)
		fprintf(fp, "%s@", name);
	if (with_sym && al->sym)
		fprintf(fp, "%s+0x%" PRIx64, al->sym->name, al->addr - al->sym->start);
	else
		fprintf(fp, "0x%" PRIx64, at);
}

/* A major/minor page fault sample: "minfault [ip] => data (d.)". */
static int pgfault(struct syscall_trace *st, struct perf_session *s, struct evsel *evsel,
		   struct perf_sample *sample)
{
	bool maj = evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	struct ttrace *t = thread_findnew(st, sample->pid, sample->tid);
	struct resolved_sample rs;
	struct addr_location al;
	int err;

	if (!t)
		return -ENOMEM;
	t->nr_events++;
	if (maj)
		t->pfmaj++;
	else
		t->pfmin++;
	if (st->opts.summary_only)
		return 0;
	err = resolved_sample__init(&rs, false);
	if (!err)
		err = sample__resolve(s, sample, evsel, &rs);
	if (err) {
		resolved_sample__exit(&rs);
		return err;
	}
	resolved_sample__location(&rs, false);
	print_head(st, t, 0, true, sample->time);
	fprintf(st->opts.out, "%sfault [", maj ? "maj" : "min");
	print_location(st->opts.out, &rs.al, sample->addr, false, true);
	fprintf(st->opts.out, "] => ");
	thread__find_symbol(rs.thread, sample->cpumode, sample->addr, &al);
	print_location(st->opts.out, &al, sample->addr, true, false);
	fprintf(st->opts.out, " (%c%c)\n", al.map ? 'd' : '?', al.level);
	resolved_sample__exit(&rs);
	return 0;
}

bool syscall_trace__done(const struct syscall_trace *st)
{
	return st->opts.max_events && st->nr_printed >= st->opts.max_events;
}

void syscall_trace__count_record(struct syscall_trace *st)
{
	st->nr_events++;
}

int syscall_trace__sample(struct syscall_trace *st, struct perf_session *s, struct evsel *evsel,
			  struct perf_sample *sample)
{
	struct tp_layout *l = layout_of(st, s, evsel);
	uint64_t v, args[6] = { 0 };
	struct ttrace *t;
	int nr;

	if (!l)
		return -ENOMEM;
	if (syscall_trace__done(st))
		return 0;
	st->session = s;
	if (!st->base_time && !st->opts.full_time && (evsel->attr.sample_type & PERF_SAMPLE_TIME))
		st->base_time = sample->time;
	if (l->role == ROLE_PGFAULT) {
		if (!st->opts.live)
			st->nr_events++;
		return pgfault(st, s, evsel, sample);
	}
	if (l->role == ROLE_RUNTIME) {
		/* --sched: the thread's time on the cpu, as perf trace adds it */
		if (!st->opts.live)
			st->nr_events++;
		t = thread_findnew(st, sample->pid, sample->tid);
		if (!t)
			return -ENOMEM;
		t->nr_events++;
		if (read_u64(sample, l->val_off, 8, &v))
			t->runtime_ns += v;
		return 0;
	}
	if (l->role != ROLE_ENTER && l->role != ROLE_EXIT)
		return 0;
	if (!read_u64(sample, l->nr_off, l->nr_size, &v))
		return 0;
	nr = (int)(int64_t)v;
	if (!syscall_enabled(st, nr))
		return 0;
	if (!st->opts.live)
		st->nr_events++;
	if (nr < 0 || !syscall_tbl__name(st->tbl, nr))
		return 0;
	t = thread_findnew(st, sample->pid, sample->tid);
	if (!t)
		return -ENOMEM;
	t->nr_events++;
	if (l->role == ROLE_EXIT) {
		if (!read_u64(sample, l->val_off, 8, &v))
			return 0;
		return sys_exit(st, t, nr, (int64_t)v, evsel, sample);
	}
	for (int i = 0; i < l->nr_args; i++)
		if (!read_u64(sample, l->val_off + 8 * i, 8, &args[i]))
			break;
	return sys_enter(st, t, nr, args, sample->time);
}

/* ---- summary ---- */

struct sc_row {
	int nr;
	double msecs;
};

static int row_cmp(const void *a, const void *b)
{
	const struct sc_row *x = a, *y = b;

	/* total time, longest first; ties by syscall number (perf's order) */
	if (x->msecs != y->msecs)
		return x->msecs > y->msecs ? -1 : 1;
	return x->nr - y->nr;
}

static void print_thread_stats(struct syscall_trace *st, struct ttrace *t)
{
	FILE *fp = st->opts.out;
	struct sc_row *rows = t->nr_stats ? calloc(t->nr_stats, sizeof(*rows)) : NULL;
	int n = 0;

	for (int i = 0; i < t->nr_stats && rows; i++) {
		if (!t->stats[i].n)
			continue;
		rows[n].nr = i;
		rows[n].msecs = (double)t->stats[i].n * (t->stats[i].mean / 1e6);
		n++;
	}
	if (n)
		qsort(rows, n, sizeof(*rows), row_cmp);
	fprintf(fp, "\n");
	fprintf(fp, "   syscall            calls  errors  total       min       avg       max       stddev\n");
	fprintf(fp, "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n");
	fprintf(fp, "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
	for (int i = 0; i < n; i++) {
		const struct sc_stats *s = &t->stats[rows[i].nr];
		const char *name = syscall_tbl__name(st->tbl, rows[i].nr);
		double avg = s->mean, sd = 0.0, pct;

		if (s->n > 1)
			sd = sqrt(s->m2 / (double)(s->n - 1) / (double)s->n);
		pct = avg ? 100.0 * sd / avg : 0.0;
		fprintf(fp, "   %-15s", name ? name : "");
		fprintf(fp, " %8" PRIu64 " %6" PRIu64 " %9.3f %9.3f %9.3f", s->n, s->nr_failures,
			rows[i].msecs, (double)s->min / 1e6, avg / 1e6);
		fprintf(fp, " %9.3f %9.2f%%\n", (double)s->max / 1e6, pct);
		if (st->opts.errno_summary && s->nr_failures) {
			for (int e = 0; e < s->max_errno; e++)
				if (s->errnos[e])
					fprintf(fp, "\t\t\t\t%s: %d\n", syscall_errno_name(e + 1),
						(int)s->errnos[e]);
		}
	}
	fprintf(fp, "\n\n");
	free(rows);
}

static int thread_cmp(const void *a, const void *b)
{
	const struct ttrace *x = *(struct ttrace *const *)a, *y = *(struct ttrace *const *)b;
	unsigned int bx = (unsigned int)x->tid & 255, by = (unsigned int)y->tid & 255;

	/* perf walks its 256 thread buckets (tid % 256), each by events,
	 * fewest first, then by tid */
	if (bx != by)
		return bx < by ? -1 : 1;
	if (x->nr_events != y->nr_events)
		return x->nr_events < y->nr_events ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int syscall_trace__print_summary(struct syscall_trace *st, struct perf_session *s)
{
	FILE *fp = st->opts.out;
	struct ttrace **all = st->nr_threads ? calloc(st->nr_threads, sizeof(*all)) : NULL;
	size_t n = 0;

	if (st->nr_threads && !all)
		return -ENOMEM;
	st->session = s;
	for (size_t i = 0; i < st->hash_size; i++)
		for (struct ttrace *t = st->hash[i]; t; t = t->next)
			all[n++] = t;
	if (n)
		qsort(all, n, sizeof(*all), thread_cmp);
	fprintf(fp, "\n Summary of events:\n\n");
	for (size_t i = 0; i < n; i++) {
		struct ttrace *t = all[i];
		double ratio = st->nr_events ? (double)t->nr_events / (double)st->nr_events * 100.0 : 0;

		fprintf(fp, " %s (%d), ", perf_session__comm(s, t->pid, t->tid), t->tid);
		fprintf(fp, "%" PRIu64 " events, ", t->nr_events);
		fprintf(fp, "%.1f%%", ratio);
		if (t->pfmaj)
			fprintf(fp, ", %" PRIu64 " majfaults", t->pfmaj);
		if (t->pfmin)
			fprintf(fp, ", %" PRIu64 " minfaults", t->pfmin);
		if (st->opts.sched)
			fprintf(fp, ", %.3f msec", (double)t->runtime_ns / 1e6);
		fprintf(fp, "\n");
		print_thread_stats(st, t);
	}
	free(all);
	return ferror(fp) ? -EIO : 0;
}
