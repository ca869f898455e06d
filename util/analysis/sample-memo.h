/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_SAMPLE_MEMO_H
#define PRF_ANALYSIS_SAMPLE_MEMO_H
/*
 * A sample's self entry remembered by the sample's raw identity, for a
 * consumer that adds samples without callchain work (prf diff without -g
 * or a parent key): between two changes of the model (maps, threads,
 * comms: perf_tool.model_barrier) a sample of the same event, pid, tid,
 * cpu, cpumode and ip resolves to the same thread, comm, map, symbol and
 * filter verdict, so it lands in the same hist entry. A hit is counted
 * there (hists__count_self()) without resolving the sample again.
 *
 * Direct mapped, a fixed 4096 slots; sample_memo__forget() empties it in
 * O(1) (a generation number; all slots cleared when it wraps). Not thread-safe: one per delivering thread.
 */
#include <stdbool.h>
#include <stdint.h>
#include "hist.h"
#include "../format/event.h"

struct map;

#define SAMPLE_MEMO_BITS 12

/* 32 bytes: two to a cache line, none across one */
struct sample_memo_slot {
	uint64_t ip;
	struct hist_entry *he;		/* its self entry (in the event's hists) */
	uint32_t pid, tid;
	uint16_t cpu;			/* the sample's, 0xffff for (u32)-1 */
	uint16_t gen;			/* another than the memo's: empty */
	uint8_t idx;			/* the evsel's index */
	uint8_t cpumode;
	char level;			/* hist_sample.level */
	bool filtered;			/* a filter rejected it */
};

struct sample_memo {
	struct sample_memo_slot *slots;
	uint16_t gen;
};

/* Can a sample of evsel index idx have a slot (its index and cpu fit)? */
static inline bool sample_memo__fits(int idx, const struct perf_sample *sample)
{
	return idx >= 0 && idx <= UINT8_MAX && (sample->cpu < 0xffff || sample->cpu == (uint32_t)-1);
}

/* An empty memo; 0 or -ENOMEM. Free with sample_memo__exit(). */
int sample_memo__init(struct sample_memo *m);
void sample_memo__exit(struct sample_memo *m);

/* Forget every slot: call before the model changes (model_barrier). */
void sample_memo__forget(struct sample_memo *m);

/* The slot of a sample of evsel index idx (sample_memo__fits()). */
static inline struct sample_memo_slot *sample_memo__slot(const struct sample_memo *m, int idx,
							 const struct perf_sample *sample)
{
	uint64_t h = sample->ip ^ ((uint64_t)sample->tid << 40) ^ ((uint64_t)sample->pid << 20) ^
		     ((uint64_t)sample->cpu << 52) ^ ((uint64_t)sample->cpumode << 12) ^
		     (uint64_t)idx;

	h *= 0x9e3779b97f4a7c15ULL;
	return &m->slots[h >> (64 - SAMPLE_MEMO_BITS)];
}

/* Does slot hold this very sample identity (of the memo's generation)? */
static inline bool sample_memo__hit(const struct sample_memo *m, const struct sample_memo_slot *sl,
				    int idx, const struct perf_sample *sample)
{
	return sl->gen == m->gen && sl->ip == sample->ip && sl->tid == sample->tid &&
	       sl->pid == sample->pid && sl->cpu == (uint16_t)sample->cpu && sl->idx == idx &&
	       sl->cpumode == sample->cpumode;
}

/*
 * Whether a sample resolved to map (NULL: none) may be remembered: its
 * symbols are the DSO's for good (an ELF file or the kernel, loaded; what
 * thread__find_symbol()'s cache keeps too) or there is no map.
 */
bool sample_memo__may_keep(const struct map *map);

/* Remember in sl (the sample's slot) that the sample went to he, with
 * level and filtered as given. */
static inline void sample_memo__store(const struct sample_memo *m, struct sample_memo_slot *sl,
				      int idx, const struct perf_sample *sample,
				      struct hist_entry *he, char level, bool filtered)
{
	*sl = (struct sample_memo_slot){
		.ip = sample->ip, .pid = sample->pid, .tid = sample->tid,
		.cpu = (uint16_t)sample->cpu, .gen = m->gen, .idx = (uint8_t)idx,
		.cpumode = sample->cpumode,
		.level = level, .filtered = filtered, .he = he,
	};
}

#endif
