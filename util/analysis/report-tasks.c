// SPDX-License-Identifier: GPL-2.0
/*
 * The task tree of prf report --tasks / --mmaps (see report-tasks.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "report-tasks.h"
#include "../lib/debug.h"
#include "../model/dso.h"
#include "../model/machine.h"
#include "../model/map.h"

struct task {
	struct thread *thread;
	struct task *first_child, *last_child, *next;	/* children in order */
	bool listed;		/* in a children list or the roots */
};

struct task_set {
	struct task *v;
	size_t n, alloc;
};

static int collect(struct thread *thread, void *arg)
{
	struct task_set *ts = arg;

	if (ts->n == ts->alloc) {
		size_t alloc = ts->alloc ? ts->alloc * 2 : 64;
		struct task *v = realloc(ts->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ts->v = v;
		ts->alloc = alloc;
	}
	ts->v[ts->n++] = (struct task){ .thread = thread };
	return 0;
}

/* perf's thread table order: 256 trees by tid modulo 256, each by tid */
static int task_cmp(const void *a, const void *b)
{
	const struct thread *x = ((const struct task *)a)->thread;
	const struct thread *y = ((const struct task *)b)->thread;
	unsigned int bx = (unsigned int)x->tid % 256, by = (unsigned int)y->tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* the task of tid in the sorted set, or NULL */
static struct task *task_by_tid(struct task_set *ts, pid_t tid)
{
	struct thread key_thread = { .tid = tid };
	struct task key = { .thread = &key_thread };

	return bsearch(&key, ts->v, ts->n, sizeof(*ts->v), task_cmp);
}

static void append(struct task **first, struct task **last, struct task *t)
{
	t->listed = true;
	t->next = NULL;
	if (*last)
		(*last)->next = t;
	else
		*first = t;
	*last = t;
}

struct map_print {
	FILE *fp;
	int indent;
};

static int print_map(struct map *map, void *arg)
{
	struct map_print *mp = arg;

	fprintf(mp->fp, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
		mp->indent, "", map->start, map->end,
		map->prot & PROT_READ ? 'r' : '-', map->prot & PROT_WRITE ? 'w' : '-',
		map->prot & PROT_EXEC ? 'x' : '-', map->flags & MAP_SHARED ? 's' : 'p',
		map->pgoff, map->ino, map->dso->long_name);
	return 0;
}

static void print_task(const struct task *t, bool mmaps, int level, FILE *fp)
{
	struct map_print mp = { .fp = fp };

	if (level > 4096)
		return;		/* a ppid cycle (tids reused) */
	for (; t; t = t->next) {
		mp.indent = fprintf(fp, "  %8d %8d %8d |%*s", t->thread->pid, t->thread->tid,
				    t->thread->ppid, level, "");
		fprintf(fp, "%s\n", thread__comm_str(t->thread));
		if (mmaps)
			thread__for_each_map(t->thread, print_map, &mp);
		print_task(t->first_child, mmaps, level + 1, fp);
	}
}

int report_tasks__fprintf(struct machine *machine, bool mmaps, FILE *fp)
{
	struct task_set ts = { 0 };
	struct task *roots = NULL, *last_root = NULL;
	int err = machine__for_each_thread(machine, collect, &ts);

	if (err) {
		free(ts.v);
		return err;
	}
	qsort(ts.v, ts.n, sizeof(*ts.v), task_cmp);
	/* each task joins its parent's children, then the parent (when not
	 * yet listed) its own parent's, up to a root */
	for (size_t i = 0; i < ts.n && !err; i++) {
		struct task *t = &ts.v[i];

		while (!t->listed) {
			struct task *parent;

			if (t->thread->ppid == -1) {
				append(&roots, &last_root, t);
				break;
			}
			parent = task_by_tid(&ts, t->thread->ppid);
			if (!parent || parent == t) {
				pr_err("Error: failed to process tasks (no thread %d, the parent of %d)\n",
				       t->thread->ppid, t->thread->tid);
				err = -ENOENT;
				break;
			}
			append(&parent->first_child, &parent->last_child, t);
			t = parent;
		}
	}
	if (!err) {
		fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
		print_task(roots, mmaps, 0, fp);
	}
	free(ts.v);
	return err;
}
