/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_RECORD_HITS_H
#define PRF_MODEL_RECORD_HITS_H
/*
 * What the samples of a recording hit, learnt from the records on their
 * way into perf.data: the DSOs whose code they sampled (for the
 * HEADER_BUILD_ID feature) and the time span of the samples
 * (HEADER_SAMPLE_TIME).
 *
 * The records are decoded with evsel__parse_sample() (util/format) and fed
 * to a machine model of their own (util/model/machine.h): side-band
 * records (MMAP, MMAP2 except data maps, FORK, KSYMBOL) build the threads'
 * and the kernel's maps, and each sample's ip is looked up in the maps of
 * its thread (user) or of the kernel. Records from the cpus' ring buffers
 * arrive out of time order across buffers, and a FORK must meet the
 * child's MMAPs in time order, so they are queued and delivered to the
 * model in time order (util/format/ordered-events.h), flushed at each
 * round of draining all buffers, as perf reads the rounds of the file;
 * without PERF_SAMPLE_TIME on every event (--per-thread) they are
 * delivered as they come.
 *
 * A kernel sample hits the module whose map holds its ip, else the kernel
 * ([kernel.kallsyms], when a map of it was recorded); a user sample hits
 * the DSO of its thread's map holding the ip, if any.
 */
#include <stdbool.h>
#include <stdint.h>

struct evlist;
struct feat_build_id;
struct record_hits;
union perf_event;

/*
 * New tracker for the records of evlist's events (opened: their ids name
 * the event of each record when the sample types differ). evlist is
 * borrowed and must outlive the tracker. NULL on ENOMEM.
 */
struct record_hits *record_hits__new(struct evlist *evlist);
/* Free the tracker, its model and whatever is still queued. NULL is fine. */
void record_hits__delete(struct record_hits *rh);

/*
 * Look at one record written to the file (valid during the call only;
 * what is needed is copied). Samples count for the time span at once; the
 * records the model needs are queued. 0, or -ENOMEM (the record is lost
 * to the tracker, which goes on).
 */
int record_hits__event(struct record_hits *rh, const union perf_event *event);
/* End of a round of draining every buffer (PERF_RECORD_FINISHED_ROUND):
 * deliver what is now known to be in time order. 0 or -ENOMEM. */
int record_hits__round(struct record_hits *rh);

/*
 * Deliver everything queued, then the build-ids of the DSOs hit (all the
 * DSOs mapped when all is set: record --buildid-all), in the order of
 * their first map, and [vdso]'s whenever it was mapped, as perf record
 * writes them: *out gets a malloc'd array (free() it; its filenames point
 * into the tracker, valid until record_hits__delete()). Build-ids are read
 * from the files on disk (ELF NT_GNU_BUILD_ID), from /sys/kernel/notes for
 * the kernel, /sys/module/NAME/notes for a module and our own process's
 * vdso image for [vdso]; a DSO without a readable one (JIT and anonymous
 * code, deleted files) is left out. Returns the number of entries (>= 0)
 * or -ENOMEM (*out NULL).
 */
int record_hits__build_ids(struct record_hits *rh, bool all, struct feat_build_id **out);

/* Time span of the samples seen (ns, PERF_SAMPLE_TIME): false when no
 * sample carried a time. */
bool record_hits__sample_time(const struct record_hits *rh, uint64_t *first, uint64_t *last);

#endif
