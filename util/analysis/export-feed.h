/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_EXPORT_FEED_H
#define PRF_ANALYSIS_EXPORT_FEED_H
/*
 * The exporters' two-stage pipeline (`prf data convert`): the session's
 * delivering thread resolves each sample (sample__resolve and
 * resolved_sample__callchain) and hands the resolved sample to one
 * second thread, which runs the encoder's sample() on it, in the same
 * order. The encoder therefore sees exactly the samples it would see
 * called in line, and writes the same file; only the work is split over
 * two CPUs, as report's hists feed (hist-feed.h) splits resolving and
 * adding.
 *
 * What the encoder gets on the second thread: a resolved_sample whose
 * evsel, thread and comm are the delivered sample's (pointers into the
 * model), whose cursor holds the resolved chain's frames (copies; the
 * same chain_id, truncated and discarded marks) and whose sample is a
 * copy of the delivered perf_sample's numbers (ip, pid, tid, time, addr,
 * id, period, cpu, misc, cpumode, ...) with every pointer into the input
 * (raw data, raw callchain, stacks, registers, branch stack) NULL; rs->al
 * is empty. Encoders use only those.
 *
 * Samples travel in batches (one lock and wake-up per batch). A chain
 * with an id (callchain.h: same id, same frames) travels once: the second
 * thread keeps the frames of the last chain per slot of a direct-mapped
 * table, and the delivering thread knows which id each slot holds.
 *
 * The model pointers stay valid until the next side-band record: the
 * caller calls export_feed__sync() at perf_tool.model_barrier (and
 * before the encoder's barrier() and end()), which waits until every
 * handed sample is encoded.
 *
 * Without a second thread (threaded false, one CPU or $PRF_THREADS=1,
 * or pthread_create failing) export_feed__add() calls the encoder in
 * line. Not thread-safe: one delivering thread per feed.
 */
#include <stdbool.h>
#include "export-format.h"

struct export_feed;

/*
 * A feed calling fmt->sample(priv, s, ...) for each added sample; on a
 * second thread when threaded and psort_threads() (util/lib/psort.h)
 * gives two or more. fmt, priv and s are not owned. NULL on ENOMEM.
 */
struct export_feed *export_feed__new(const struct export_format *fmt, void *priv,
				     struct perf_session *s, bool threaded);

/*
 * Hand over rs (resolved, with its callchain; copied as the top comment
 * says) to be encoded. 0, or the first error the encoder returned for an
 * earlier sample (or -ENOMEM), after which nothing more is encoded.
 */
int export_feed__add(struct export_feed *f, struct resolved_sample *rs);

/* Wait until every sample handed over is encoded. 0 or the first error,
 * as export_feed__add(). NULL is fine. */
int export_feed__sync(struct export_feed *f);

/* Whether f encodes on a second thread (tests, debug output). */
bool export_feed__threaded(const struct export_feed *f);

/* Sync, stop the thread, free. NULL is fine. */
void export_feed__delete(struct export_feed *f);

#endif
