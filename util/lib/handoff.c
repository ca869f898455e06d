// SPDX-License-Identifier: GPL-2.0
/* handoff: see handoff.h. */
#include "handoff.h"

int handoff__start(struct handoff *h, struct helper_thread *thr, void *(*fn)(void *), void *arg)
{
	int err;

	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake_a, NULL);
	pthread_cond_init(&h->wake_b, NULL);
	err = helper_thread__start(thr, fn, arg);
	if (err) {
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->wake_a);
		pthread_cond_destroy(&h->wake_b);
		return err;
	}
	return 0;
}

void handoff__join(struct handoff *h, struct helper_thread *thr)
{
	helper_thread__join(thr);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->wake_a);
	pthread_cond_destroy(&h->wake_b);
}
