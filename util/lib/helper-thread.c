// SPDX-License-Identifier: GPL-2.0
/* Helper threads started on another CPU: see helper-thread.h. */
#include <errno.h>
#include "helper-thread.h"

static void helper_thread__widen(struct helper_thread *h)
{
	if (h->narrowed)
		pthread_setaffinity_np(h->tid, sizeof(h->mask), &h->mask);
}

static void *helper_thread__run(void *arg)
{
	struct helper_thread *h = arg;

	if (h->narrowed)
		sched_setaffinity(0, sizeof(h->mask), &h->mask);
	__atomic_store_n(&h->started, 1, __ATOMIC_RELEASE);
	return h->fn(h->arg);
}

int helper_thread__start(struct helper_thread *h, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t away;
	int cpu, err;

	h->fn = fn;
	h->arg = arg;
	h->started = 0;
	h->narrowed = false;
	h->cpu = cpu = sched_getcpu();
	if (cpu >= 0 && cpu < CPU_SETSIZE && !sched_getaffinity(0, sizeof(h->mask), &h->mask) &&
	    CPU_COUNT(&h->mask) >= 2 && CPU_ISSET(cpu, &h->mask) && !pthread_attr_init(&attr)) {
		away = h->mask;
		CPU_CLR(cpu, &away);
		h->narrowed = !pthread_attr_setaffinity_np(&attr, sizeof(away), &away);
		err = h->narrowed ? pthread_create(&h->tid, &attr, helper_thread__run, h) : EINVAL;
		pthread_attr_destroy(&attr);
		if (!err)
			return 0;
		h->narrowed = false;	/* e.g. a CPU gone offline: as it comes */
	}
	err = pthread_create(&h->tid, NULL, helper_thread__run, h);
	return err ? -err : 0;
}

void *helper_thread__join(struct helper_thread *h)
{
	void *ret = NULL;

	if (!__atomic_load_n(&h->started, __ATOMIC_ACQUIRE))
		helper_thread__widen(h);
	pthread_join(h->tid, &ret);
	return ret;
}
