// SPDX-License-Identifier: GPL-2.0
/* DSOs and time span hit by a recording's samples; see record-hits.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record-hits.h"
#include "dso.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "thread.h"
#include "../format/event.h"
#include "../format/features-write.h"
#include "../format/ordered-events.h"
#include "../format/sample-parse.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"

/* A DSO the model mapped, in the order of its first map. */
struct rh_dso {
	struct dso *dso;	/* borrowed from the machine */
	bool hit;
	bool kernel;		/* hit through the kernel's maps */
};

struct rh_id {
	uint64_t id;		/* kernel id of one fd (PERF_EVENT_IOC_ID) */
	struct evsel *evsel;
};

/* A sample as queued: what the lookup of its ip needs. */
struct rh_sample {
	struct perf_event_header header;	/* PERF_RECORD_SAMPLE, misc: cpumode */
	uint32_t pid, tid;
	uint64_t ip;
};

struct record_hits {
	struct machine *machine;
	struct evlist *evlist;
	struct rh_id *ids;	/* sorted by id; only when the sample types differ
				   (PERF_SAMPLE_IDENTIFIER names the event) */
	size_t nr_ids;
	bool ordered;		/* every event has PERF_SAMPLE_TIME */
	struct ordered_events oe;
	struct rh_dso *dsos;
	size_t nr_dsos, alloc_dsos;
	uint32_t *slots;	/* hash of dsos by pointer: index + 1, 0 empty */
	size_t nr_slots;	/* power of two, > 2 * nr_dsos */
	struct dso *kernel_dso;
	bool kernel_side;	/* a kernel map or ksymbol was recorded */
	bool kernel_mapped;	/* a map of [kernel.kallsyms] was recorded */
	uint64_t first_time, last_time;
};

/* ---- DSOs in the order of their first map ---- */

static size_t rh__slot(const struct record_hits *rh, const struct dso *dso)
{
	uint64_t h = (uint64_t)(uintptr_t)dso * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 32) & (rh->nr_slots - 1);

	while (rh->slots[i] && rh->dsos[rh->slots[i] - 1].dso != dso)
		i = (i + 1) & (rh->nr_slots - 1);
	return i;
}

static int rh__grow_slots(struct record_hits *rh)
{
	size_t n = rh->nr_slots ? rh->nr_slots * 2 : 256;
	uint32_t *old = rh->slots;

	rh->slots = calloc(n, sizeof(*rh->slots));
	if (!rh->slots) {
		rh->slots = old;
		return -ENOMEM;
	}
	rh->nr_slots = n;
	for (size_t i = 0; i < rh->nr_dsos; i++)
		rh->slots[rh__slot(rh, rh->dsos[i].dso)] = (uint32_t)(i + 1);
	free(old);
	return 0;
}

/* The entry of dso, added (not hit) when new; NULL on ENOMEM. */
static struct rh_dso *rh__dso(struct record_hits *rh, struct dso *dso)
{
	size_t i;

	if (2 * (rh->nr_dsos + 1) > rh->nr_slots && rh__grow_slots(rh))
		return NULL;
	i = rh__slot(rh, dso);
	if (rh->slots[i])
		return &rh->dsos[rh->slots[i] - 1];
	if (rh->nr_dsos == rh->alloc_dsos) {
		size_t n = rh->alloc_dsos ? rh->alloc_dsos * 2 : 64;
		struct rh_dso *d = realloc(rh->dsos, n * sizeof(*d));

		if (!d)
			return NULL;
		rh->dsos = d;
		rh->alloc_dsos = n;
	}
	rh->dsos[rh->nr_dsos] = (struct rh_dso){ .dso = dso };
	rh->slots[i] = (uint32_t)++rh->nr_dsos;
	return &rh->dsos[rh->nr_dsos - 1];
}

static void rh__hit(struct record_hits *rh, struct dso *dso, bool kernel)
{
	struct rh_dso *d = rh__dso(rh, dso);

	if (d) {
		d->hit = true;
		d->kernel |= kernel;
	}
}

/* ---- delivery to the model ---- */

/* After the model applied a map record: note the DSO it mapped at start. */
static void rh__note_map(struct record_hits *rh, const union perf_event *ev, uint64_t start,
			 uint32_t pid, uint32_t tid)
{
	uint8_t cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct maps *maps = NULL;
	struct map *map;

	if (cpumode == PERF_RECORD_MISC_KERNEL || (int32_t)pid == -1) {
		rh->kernel_side = true;
		maps = machine__kernel_maps(rh->machine);
	} else {
		struct thread *t = machine__find_thread(rh->machine, (pid_t)tid);

		if (t)
			maps = thread__maps(t);
	}
	map = maps ? maps__find(maps, start) : NULL;
	if (!map)
		return;
	if (map->dso == rh->kernel_dso)
		rh->kernel_mapped = true;
	rh__dso(rh, map->dso);
}

static void rh__sample(struct record_hits *rh, const struct rh_sample *s)
{
	struct map *map = NULL;
	struct thread *t;

	if (s->header.misc == PERF_RECORD_MISC_KERNEL) {
		if (rh->kernel_side)
			map = maps__find(machine__kernel_maps(rh->machine), s->ip);
		/* code outside the modules (kernel text, BPF, trampolines) is
		 * the kernel's */
		if (map && (map->dso->kind == DSO_KMODULE || map->dso->kind == DSO_KERNEL))
			rh__hit(rh, map->dso, true);
		else if (rh->kernel_mapped)
			rh__hit(rh, rh->kernel_dso, true);
		return;
	}
	t = machine__findnew_thread(rh->machine, (pid_t)s->pid, (pid_t)s->tid);
	if (t)
		map = maps__find(thread__maps(t), s->ip);
	if (map)
		rh__hit(rh, map->dso, false);
}

/* Apply one record (a copy, or the record itself when unordered). */
static void rh__apply(struct record_hits *rh, union perf_event *ev)
{
	int err;

	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		rh__sample(rh, (const struct rh_sample *)ev);
		return;
	case PERF_RECORD_FORK:
		err = machine__process_event(rh->machine, ev, NULL);
		break;
	case PERF_RECORD_MMAP:
		err = machine__process_event(rh->machine, ev, NULL);
		if (!err)
			rh__note_map(rh, ev, ev->mmap.start, ev->mmap.pid, ev->mmap.tid);
		break;
	case PERF_RECORD_MMAP2:
		err = machine__process_event(rh->machine, ev, NULL);
		if (!err)
			rh__note_map(rh, ev, ev->mmap2.start, ev->mmap2.pid, ev->mmap2.tid);
		break;
	case PERF_RECORD_KSYMBOL:
		err = machine__process_event(rh->machine, ev, NULL);
		rh->kernel_side = true;
		break;
	default:
		return;
	}
	if (err)
		pr_debug("record: build-id tracking skipped a record (type %u): %s\n",
			 ev->header.type, strerror(-err));
}

static int rh__deliver(void *ctx, struct oe_node *node)
{
	rh__apply(ctx, node->event);
	free(node->owner);
	return 0;
}

/* ---- queueing ---- */

static int rh_id_cmp(const void *a, const void *b)
{
	const struct rh_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The event a record belongs to: by its PERF_SAMPLE_IDENTIFIER when the
 * sample types differ (synthesized records carry 0: the first event's). */
static struct evsel *rh__evsel(const struct record_hits *rh, const union perf_event *ev)
{
	struct rh_id key, *found;
	size_t size = ev->header.size;

	if (!rh->nr_ids || size < sizeof(ev->header) + sizeof(uint64_t))
		return evlist__first(rh->evlist);
	if (ev->header.type == PERF_RECORD_SAMPLE)
		memcpy(&key.id, ev->sample.array, sizeof(key.id));
	else
		memcpy(&key.id, (const char *)ev + size - sizeof(key.id), sizeof(key.id));
	found = bsearch(&key, rh->ids, rh->nr_ids, sizeof(key), rh_id_cmp);
	return found ? found->evsel : evlist__first(rh->evlist);
}

static bool rh__wanted(const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_MMAP2:
		return !(ev->header.misc & PERF_RECORD_MISC_MMAP_DATA);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_FORK:
	case PERF_RECORD_KSYMBOL:
		return true;
	default:
		return false;
	}
}

/* Queue a copy of what the model needs of ev at time t, or apply it now. */
static int rh__queue(struct record_hits *rh, const union perf_event *ev, uint64_t t)
{
	union perf_event *copy;

	if (!rh->ordered) {
		rh__apply(rh, (union perf_event *)ev);
		return 0;
	}
	copy = malloc(ev->header.size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ev, ev->header.size);
	if (ordered_events__queue(&rh->oe, t, copy, copy, 0)) {
		free(copy);
		return -ENOMEM;
	}
	return 0;
}

int record_hits__event(struct record_hits *rh, const union perf_event *event)
{
	union perf_event *ev = (union perf_event *)event;	/* only read */
	struct perf_sample sample;
	struct rh_sample s;

	if (event->header.type != PERF_RECORD_SAMPLE && !rh__wanted(event))
		return 0;
	if (evsel__parse_sample(rh__evsel(rh, event), ev, &sample))
		return 0;	/* too short for its sample_type: not ours to judge */
	if (event->header.type != PERF_RECORD_SAMPLE)
		return rh__queue(rh, event, sample.time);
	if (sample.time != ~0ULL && sample.time) {
		if (!rh->first_time || sample.time < rh->first_time)
			rh->first_time = sample.time;
		if (sample.time > rh->last_time)
			rh->last_time = sample.time;
	}
	if (sample.cpumode != PERF_RECORD_MISC_KERNEL && sample.cpumode != PERF_RECORD_MISC_USER)
		return 0;
	s.header = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE,
					       .misc = sample.cpumode, .size = sizeof(s) };
	s.pid = sample.pid;
	s.tid = sample.tid;
	s.ip = sample.ip;
	return rh__queue(rh, (const union perf_event *)&s, sample.time);
}

int record_hits__round(struct record_hits *rh)
{
	return rh->ordered ? ordered_events__flush_round(&rh->oe) : 0;
}

bool record_hits__sample_time(const struct record_hits *rh, uint64_t *first, uint64_t *last)
{
	*first = rh->first_time;
	*last = rh->last_time;
	return rh->first_time != 0;
}

/* ---- build-ids ---- */

/* The build-id of one DSO as perf record writes it; false when none. */
static bool rh__read_build_id(const struct rh_dso *d, struct feat_build_id *b)
{
	const char *name = d->dso->long_name;
	int sz;

	if (d->dso->kind == DSO_VDSO) {
		/* the image this kernel maps into every process, ours too */
		if (vdso__feat_build_id(b))
			return false;
		sz = b->size;
	} else if (d->dso->kind == DSO_KERNEL) {	/* hit or not (--buildid-all) */
		sz = features__read_build_id("/sys/kernel/notes", true, b->bid);
	} else if (d->kernel && name[0] == '[') {
		char path[512];
		size_t l = strlen(name);

		snprintf(path, sizeof(path), "/sys/module/%.*s/notes/.note.gnu.build-id",
			 (int)(l > 2 ? l - 2 : 0), name + 1);
		sz = features__read_build_id(path, true, b->bid);
	} else if (!d->kernel && d->dso->kind == DSO_USER && name[0] == '/' &&
		   strncmp(name, "//", 2)) {
		sz = features__read_build_id(name, false, b->bid);
	} else {
		return false;
	}
	if (sz <= 0)
		return false;
	b->size = (uint8_t)sz;
	b->filename = name;
	b->kernel = d->kernel || d->dso->kind == DSO_KERNEL;
	return true;
}

int record_hits__build_ids(struct record_hits *rh, bool all, struct feat_build_id **out)
{
	struct feat_build_id *b;
	int n = 0;

	*out = NULL;
	if (rh->ordered)
		ordered_events__flush_all(&rh->oe);
	b = calloc(rh->nr_dsos + 1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < rh->nr_dsos; i++)
		if ((all || rh->dsos[i].hit || rh->dsos[i].dso->kind == DSO_VDSO) &&
		    rh__read_build_id(&rh->dsos[i], &b[n]))
			n++;
	*out = b;
	return n;
}

/* ---- life ---- */

/* The id -> event table, when the sample types differ. 0 or -ENOMEM. */
static int rh__init_ids(struct record_hits *rh)
{
	struct evsel *evsel;
	size_t n = 0;

	if (!(evlist__first(rh->evlist)->attr.sample_type & PERF_SAMPLE_IDENTIFIER))
		return 0;
	evlist__for_each_entry(rh->evlist, evsel)
		if (evsel->ids)
			n += (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads;
	rh->ids = calloc(n + 1, sizeof(*rh->ids));
	if (!rh->ids)
		return -ENOMEM;
	evlist__for_each_entry(rh->evlist, evsel) {
		for (int i = 0; evsel->ids && i < evsel->nr_cpus * evsel->nr_threads; i++)
			rh->ids[rh->nr_ids++] = (struct rh_id){ evsel->ids[i], evsel };
	}
	qsort(rh->ids, rh->nr_ids, sizeof(*rh->ids), rh_id_cmp);
	return 0;
}

struct record_hits *record_hits__new(struct evlist *evlist)
{
	struct record_hits *rh = calloc(1, sizeof(*rh));
	struct evsel *evsel;

	if (!rh)
		return NULL;
	rh->evlist = evlist;
	rh->machine = machine__new_host();
	if (!rh->machine || rh__init_ids(rh))
		goto out_err;
	rh->kernel_dso = machine__findnew_dso(rh->machine, "[kernel.kallsyms]");
	if (!rh->kernel_dso)
		goto out_err;
	rh->ordered = true;
	evlist__for_each_entry(evlist, evsel)
		if (!(evsel->attr.sample_type & PERF_SAMPLE_TIME) || !evsel->attr.sample_id_all)
			rh->ordered = false;
	ordered_events__init(&rh->oe, rh__deliver, rh);
	return rh;
out_err:
	record_hits__delete(rh);
	return NULL;
}

void record_hits__delete(struct record_hits *rh)
{
	if (!rh)
		return;
	for (size_t i = 0; i < rh->oe.nr; i++)
		free(rh->oe.nodes[i].owner);
	ordered_events__exit(&rh->oe);
	machine__delete(rh->machine);
	free(rh->ids);
	free(rh->dsos);
	free(rh->slots);
	free(rh);
}
