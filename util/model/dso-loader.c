// SPDX-License-Identifier: GPL-2.0
/* dso_loader: DSO symbols loaded on a background thread; see dso-loader.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dso-loader.h"
#include "dso.h"
#include "maps.h"
#include "../lib/debug.h"
#include "../lib/handoff.h"
#include "../lib/util.h"
#include "../lib/helper-thread.h"

/* One DSO to load: the model's (a reference) and the private copy the
 * loader thread fills. */
struct load_job {
	struct load_job *next;
	struct dso *dso, *copy;
};

/* Loader threads: a second one takes the small DSOs while the first
 * reads a big one (the kernel's kallsyms, a big library). */
#define DSO_LOADER_THREADS 2

struct dso_loader {
	struct handoff h;		/* wake_b: the loader threads, wake_a: the owner */
	struct helper_thread thr[DSO_LOADER_THREADS];
	int nr_threads;
	/* under h.lock */
	struct load_job *todo, **todo_tail;
	struct load_job *done;
	bool stop;
	unsigned long nr_done;		/* also read without the lock (atomic) */
	/* the owner's */
	unsigned long nr_installed;
	size_t nr_pending;
};

static void load_job__free(struct load_job *j)
{
	dso__put(j->copy);
	dso__put(j->dso);
	free(j);
}

static void *dso_loader__thread(void *arg)
{
	struct dso_loader *l = arg;

	pthread_mutex_lock(&l->h.lock);
	for (;;) {
		struct load_job *j;
		int err;

		while (!l->stop && !l->todo)
			pthread_cond_wait(&l->h.wake_b, &l->h.lock);
		if (l->stop)
			break;
		j = l->todo;
		l->todo = j->next;
		if (!l->todo)
			l->todo_tail = &l->todo;
		pthread_mutex_unlock(&l->h.lock);
		err = dso__load_private(j->copy);
		if (err)
			pr_debug2("dso loader: %s: %s\n", j->copy->long_name, strerror(-err));
		pthread_mutex_lock(&l->h.lock);
		j->next = l->done;
		l->done = j;
		__atomic_add_fetch(&l->nr_done, 1, __ATOMIC_RELEASE);
		pthread_cond_signal(&l->h.wake_a);
	}
	pthread_mutex_unlock(&l->h.lock);
	return NULL;
}

/* The owner's dso__load() hook: queue dso (once), true when it is (or
 * was) queued. */
static bool dso_loader__queue(struct dso *dso, void *arg)
{
	struct dso_loader *l = arg;
	struct load_job *j;

	if (dso->load_queued)
		return true;
	if (dso->kind != DSO_USER && dso->kind != DSO_KERNEL && dso->kind != DSO_KMODULE)
		return false;
	j = zalloc(sizeof(*j));
	if (!j)
		return false;
	j->copy = dso__new(dso->long_name);
	if (!j->copy) {
		free(j);
		return false;
	}
	/* what the loaders read of the model's DSO */
	j->copy->kind = dso->kind;
	j->copy->machine = dso->machine;
	j->copy->bid = dso->bid;
	j->copy->has_build_id = dso->has_build_id;
	j->copy->kernel_text = dso->kernel_text;
	j->copy->mismatch_warned = dso->mismatch_warned;
	j->dso = dso__get(dso);
	dso->load_queued = true;
	l->nr_pending++;
	pthread_mutex_lock(&l->h.lock);
	*l->todo_tail = j;
	l->todo_tail = &j->next;
	pthread_cond_signal(&l->h.wake_b);
	pthread_mutex_unlock(&l->h.lock);
	return true;
}

struct dso_loader *dso_loader__new(void)
{
	struct dso_loader *l = zalloc(sizeof(*l));

	if (!l)
		return NULL;
	l->todo_tail = &l->todo;
	if (handoff__start(&l->h, &l->thr[0], dso_loader__thread, l)) {
		free(l);
		return NULL;
	}
	/* the others on the same lock and wake-ups (none: one does all) */
	for (l->nr_threads = 1; l->nr_threads < DSO_LOADER_THREADS; l->nr_threads++)
		if (helper_thread__start(&l->thr[l->nr_threads], dso_loader__thread, l))
			break;
	return l;
}

void dso_loader__delete(struct dso_loader *l)
{
	struct load_job *j, *next;

	if (!l)
		return;
	pthread_mutex_lock(&l->h.lock);
	l->stop = true;
	pthread_cond_broadcast(&l->h.wake_b);
	pthread_mutex_unlock(&l->h.lock);
	for (int i = 1; i < l->nr_threads; i++)
		helper_thread__join(&l->thr[i]);
	handoff__join(&l->h, &l->thr[0]);
	for (j = l->todo; j; j = next) {
		next = j->next;
		j->dso->load_queued = false;
		load_job__free(j);
	}
	for (j = l->done; j; j = next) {
		next = j->next;
		j->dso->load_queued = false;
		load_job__free(j);
	}
	free(l);
}

void dso_loader__attach(struct dso_loader *l)
{
	if (l)
		dso__set_load_hook(dso_loader__queue, l);
	else
		dso__set_load_hook(NULL, NULL);
}

size_t dso_loader__install(struct dso_loader *l)
{
	struct load_job *j, *next;
	size_t n = 0;

	if (__atomic_load_n(&l->nr_done, __ATOMIC_ACQUIRE) == l->nr_installed)
		return 0;
	pthread_mutex_lock(&l->h.lock);
	j = l->done;
	l->done = NULL;
	pthread_mutex_unlock(&l->h.lock);
	for (; j; j = next) {
		next = j->next;
		dso__adopt_symbols(j->dso, j->copy);
		load_job__free(j);
		n++;
	}
	l->nr_installed += n;
	l->nr_pending -= n;
	if (n)	/* caches that answered "no symbol" for them answer again */
		__atomic_add_fetch(&maps__generation, 1, __ATOMIC_ACQ_REL);
	return n;
}

size_t dso_loader__pending(const struct dso_loader *l)
{
	return l->nr_pending;
}

void dso_loader__wait(struct dso_loader *l)
{
	pthread_mutex_lock(&l->h.lock);
	while (l->nr_pending && !l->done && !l->stop)
		pthread_cond_wait(&l->h.wake_a, &l->h.lock);
	pthread_mutex_unlock(&l->h.lock);
}
