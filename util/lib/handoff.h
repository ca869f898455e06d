/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_HANDOFF_H
#define PRF_LIB_HANDOFF_H
/*
 * handoff: the lock and the two wake-ups between a producer (A, the
 * session's reading thread) and the one consumer thread (B) it hands
 * batches of work to: report's hist feed and the exporters' feed
 * (util/analysis/hist-feed.c, export-feed.c). What is handed over and
 * when each side sleeps is the feed's own business.
 */
#include <pthread.h>
#include "helper-thread.h"

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t wake_a;		/* A sleeps on it */
	pthread_cond_t wake_b;		/* B sleeps on it */
};

/*
 * Initialise h and start fn(arg) on the helper thread *thr (helper-thread.h):
 * 0, or -errno (pthread_create's) with h destroyed again, so the caller
 * goes on without a thread.
 */
int handoff__start(struct handoff *h, struct helper_thread *thr, void *(*fn)(void *), void *arg);

/* Join thr (which the caller told to stop, under h->lock) and destroy h. */
void handoff__join(struct handoff *h, struct helper_thread *thr);

#endif
