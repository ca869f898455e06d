/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_FORMAT_ORDERED_EVENTS_H
#define PRF_FORMAT_ORDERED_EVENTS_H
/*
 * Time-ordered queue of records, as perf delivers them: records are queued
 * as read; on each PERF_RECORD_FINISHED_ROUND every queued record with a
 * timestamp <= the highest timestamp seen up to the previous round is
 * delivered in time order (ties in arrival order), and at the end all.
 * Nodes live in one growable array (no per-record malloc); each round's
 * new nodes are sorted by a natural merge sort (ring buffers give sorted
 * runs per cpu) and merged with the sorted carry-over.
 */
#include <stdint.h>
#include <stddef.h>

union perf_event;

struct oe_node {
	uint64_t timestamp;	/* ns */
	union perf_event *event;	/* not owned */
	void *owner;		/* buffer holding event (NULL: file mapping) */
	uint64_t file_offset;	/* bytes, for messages */
};

/* Called for each delivered node; non-zero return stops the flush and is
 * returned by the flush function. */
typedef int (*oe_deliver_fn)(void *ctx, struct oe_node *node);
/* Optional: deliver nodes[0..n) in order (instead of deliver() per node,
 * so that the consumer can look ahead, e.g. to unwind a run of samples in
 * parallel); *done gets the number of nodes consumed (all, or up to and
 * including the one whose delivery failed). 0 or the failing node's error. */
typedef int (*oe_deliver_batch_fn)(void *ctx, struct oe_node *nodes, size_t n, size_t *done);

struct ordered_events {
	struct oe_node *nodes;		/* [0, nr_sorted) sorted, then unsorted */
	size_t nr, nr_sorted, cap;
	struct oe_node *tmp;		/* merge buffer */
	size_t tmp_cap;
	uint64_t max_timestamp;		/* highest queued so far */
	uint64_t next_flush;		/* limit for the next round flush */
	uint64_t last_flush;		/* highest delivered timestamp */
	uint64_t nr_unordered;		/* queued below last_flush */
	size_t max_nodes;		/* flush half when exceeded (0: no limit) */
	/* a round flush put off (ordered_events__defer_round()): everything
	 * <= pending_limit is owed to delivery */
	bool pending;
	uint64_t pending_limit;
	oe_deliver_fn deliver;
	oe_deliver_batch_fn deliver_batch;	/* NULL: deliver() per node */
	void *ctx;
};

/* Initialise; deliver(ctx, node) receives nodes in order. */
void ordered_events__init(struct ordered_events *oe, oe_deliver_fn deliver, void *ctx);
/* Free the arrays (queued nodes are dropped, not delivered). */
void ordered_events__exit(struct ordered_events *oe);
/* Queue one record with its timestamp (ns). 0, -ENOMEM, or a deliver()
 * error when the node limit forced a partial flush. */
int ordered_events__queue(struct ordered_events *oe, uint64_t timestamp,
			  union perf_event *event, void *owner, uint64_t file_offset);
/* FINISHED_ROUND: deliver everything <= the previous round's max timestamp. */
int ordered_events__flush_round(struct ordered_events *oe);
/*
 * FINISHED_ROUND whose flush is put off, to deliver several rounds as one
 * run (parallel unwinding needs runs of hundreds of samples; a round may
 * hold a few dozen). The delivery order stays exactly that of flushing
 * every round: what the round would have delivered is owed, and paid
 * (ordered_events__flush_pending()) before a record is queued that the
 * round would not have had in the same place (timestamp at or below the
 * owed limit), before a half flush, and by the next flush. The caller
 * pays it before any record it processes outside the queue. 0.
 */
int ordered_events__defer_round(struct ordered_events *oe);
/* Deliver what deferred rounds owe. 0 or a deliver() error. */
int ordered_events__flush_pending(struct ordered_events *oe);
/* End of input: deliver everything. */
int ordered_events__flush_all(struct ordered_events *oe);

/* Lowest file_offset among queued nodes whose owner is NULL (records in
 * the file mapping), or UINT64_MAX when none: the mapping below it may be
 * released. */
uint64_t ordered_events__min_mapped_offset(const struct ordered_events *oe);

#endif
