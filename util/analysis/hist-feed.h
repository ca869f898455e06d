/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_HIST_FEED_H
#define PRF_ANALYSIS_HIST_FEED_H
/*
 * A two-stage pipeline for report: the delivering thread resolves samples
 * (machine__resolve, sample__resolve_callchain) and hands each resolved
 * sample to one second thread, which adds it to its hists in the same
 * order (hists__add_sample). The hists therefore end up exactly as when
 * added in line; only the work is split over two CPUs.
 *
 * A handed-over sample keeps pointers into the model (thread, comm, map,
 * symbols, srclines): the caller must hists_feed__sync() before anything
 * may free or change those, i.e. before delivering a side-band record
 * (MMAP replaces and frees maps, COMM/FORK change threads), and before
 * reading the hists. The chain's frames are copied (the cursor's may
 * point into a cache that the next resolution reuses).
 *
 * Without a second thread (one CPU, $PRF_THREADS=1, or pthread_create
 * failing) hists_feed__add() adds in line; with one, it also adds in line
 * through stretches of samples where it measured handing over to be the
 * slower way (see hist-feed.c). Not thread-safe: one delivering thread
 * per feed.
 */
#include "hist.h"

struct hists_feed;

/* A feed with a second thread when threaded and the machine has two or
 * more CPUs for it (psort_threads(), util/lib/psort.h); else one that adds
 * in line. NULL on ENOMEM. Free with hists_feed__delete(). */
struct hists_feed *hists_feed__new(bool threaded);

/* Queue s for hists (copying s, and its chain's frames unless that chain
 * id was sent before); waits while the queue is full. 0, or the first error hists__add_sample() returned for
 * an earlier sample (-ENOMEM), after which nothing more is added. */
int hists_feed__add(struct hists_feed *f, struct hists *hists, const struct hist_sample *s);

/* Wait until every queued sample is in its hists. 0 or the first error,
 * as hists_feed__add(). */
int hists_feed__sync(struct hists_feed *f);

/* Whether f adds on a second thread (tests, debug output). */
bool hists_feed__threaded(const struct hists_feed *f);

/* Sync, stop the thread, free. NULL is fine. */
void hists_feed__delete(struct hists_feed *f);

#endif
