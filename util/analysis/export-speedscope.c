// SPDX-License-Identifier: GPL-2.0
/*
 * --to-speedscope: speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): shared frames and
 * one "sampled" profile per thread and event, named "comm tid" (with the
 * event's name after it when the recording has several), its samples in
 * time order, each a stack of frame indices root first and weighted by
 * its period: nanoseconds for cpu-clock, task-clock and off-CPU time
 * (unit "nanoseconds"), the event's count otherwise (unit "none").
 *
 * Frames are named as prf script --folded names them: the symbol (inlined
 * calls as frames of their own), "[dso]" for an address in a DSO without
 * a symbol, "[unknown]" without a map; "file" is the DSO's path.
 * Written through util/lib/out.h (one JSON object).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export-format.h"
#include "../lib/out.h"
#include "../session/resolve.h"
#include "../session/session.h"
#include "../session/off-cpu.h"
#include "../kernel/evsel.h"
#include "../model/dso.h"
#include "../model/map.h"

struct ss_frame {
	uint32_t name, file;	/* strings; file ~0: none */
};

struct ss_stack {
	uint32_t off, nr;	/* frame indices in pool, root first */
};

struct ss_sample {
	uint32_t stack;
	uint64_t weight;
};

struct ss_profile {
	struct evsel *evsel;
	int32_t pid, tid;
	uint32_t comm;		/* the thread's last comm */
	struct ss_sample *samples;
	uint32_t nr, alloc;
	uint64_t total;
};

struct speedscope {
	FILE *fp;
	struct perf_session *s;
	struct export_strings str;
	struct ss_frame *frames;
	uint32_t nr_frames, alloc_frames;
	struct export_index frame_index;
	uint32_t *pool;
	uint32_t nr_pool, alloc_pool;
	struct ss_stack *stacks;
	uint32_t nr_stacks, alloc_stacks;
	struct export_index stack_index;
	struct ss_profile *profiles;
	uint32_t nr_profiles, alloc_profiles;
	struct export_index profile_index;
	struct evsel *first_evsel;
	bool several_events;
	const void *key;
	uint32_t key_nr;
};

static bool frame_eq(void *arg, uint32_t idx)
{
	struct speedscope *p = arg;
	const struct ss_frame *k = p->key;

	return p->frames[idx].name == k->name && p->frames[idx].file == k->file;
}

/* The frame index of f, added when new; -ENOMEM. */
static int64_t ss_frame(struct speedscope *p, const struct callchain_frame *f)
{
	struct ss_frame fr;
	struct dso *dso = f->map ? f->map->dso : NULL;
	int64_t name, file = -1;
	uint32_t idx;
	int ret;

	name = export__frame_name(&p->str, f);
	if (dso)
		file = export_strings__add(&p->str, dso->long_name);
	if (name < 0 || (dso && file < 0))
		return -ENOMEM;
	fr.name = (uint32_t)name;
	fr.file = dso ? (uint32_t)file : ~0U;
	if (export__grow(&p->frames, &p->alloc_frames, p->nr_frames, sizeof(*p->frames)))
		return -ENOMEM;
	p->key = &fr;
	ret = export_index__lookup(&p->frame_index, (uint32_t)export__hash(&fr, sizeof(fr), 11), frame_eq, p,
				   p->nr_frames, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0)
		p->frames[p->nr_frames++] = fr;
	return idx;
}

static bool stack_eq(void *arg, uint32_t idx)
{
	struct speedscope *p = arg;
	const struct ss_stack *s = &p->stacks[idx];

	return s->nr == p->key_nr &&
	       (!s->nr || !memcmp(&p->pool[s->off], p->key, s->nr * sizeof(uint32_t)));
}

static bool profile_eq(void *arg, uint32_t idx)
{
	struct speedscope *p = arg;
	const struct ss_profile *a = &p->profiles[idx], *k = p->key;

	return a->evsel == k->evsel && a->pid == k->pid && a->tid == k->tid;
}

/* The profile of this sample's thread and event, added when new. */
static struct ss_profile *ss_profile(struct speedscope *p, struct resolved_sample *rs, uint32_t comm)
{
	struct ss_profile k = {
		.evsel = rs->evsel,
		.pid = rs->thread ? rs->thread->pid : (int32_t)rs->sample->pid,
		.tid = rs->thread ? rs->thread->tid : (int32_t)rs->sample->tid,
	};
	uint64_t h[2] = { (uint64_t)(uintptr_t)k.evsel, ((uint64_t)(uint32_t)k.pid << 32) | (uint32_t)k.tid };
	uint32_t idx;
	int ret;

	if (export__grow(&p->profiles, &p->alloc_profiles, p->nr_profiles, sizeof(*p->profiles)))
		return NULL;
	p->key = &k;
	ret = export_index__lookup(&p->profile_index, (uint32_t)export__hash(h, sizeof(h), 12), profile_eq, p,
				   p->nr_profiles, &idx);
	if (ret < 0)
		return NULL;
	if (ret == 0)
		p->profiles[p->nr_profiles++] = k;
	p->profiles[idx].comm = comm;
	return &p->profiles[idx];
}

static int ss_sample(void *priv, struct perf_session *s, struct resolved_sample *rs)
{
	struct speedscope *p = priv;
	const struct callchain_cursor *c = &rs->cursor;
	uint32_t start = p->nr_pool, idx;
	struct ss_profile *prof;
	int64_t comm;
	int ret;

	if (!p->first_evsel)
		p->first_evsel = rs->evsel;
	else if (p->first_evsel != rs->evsel)
		p->several_events = true;
	/* root first: the cursor is callee first */
	for (unsigned int i = c->nr; i-- > 0;) {
		int64_t f;

		if (c->frames[i].truncated)
			continue;
		f = ss_frame(p, &c->frames[i]);
		if (f < 0)
			return (int)f;
		if (export__grow(&p->pool, &p->alloc_pool, p->nr_pool, sizeof(*p->pool)))
			return -ENOMEM;
		p->pool[p->nr_pool++] = (uint32_t)f;
	}
	if (export__grow(&p->stacks, &p->alloc_stacks, p->nr_stacks, sizeof(*p->stacks)))
		return -ENOMEM;
	p->key = &p->pool[start];
	p->key_nr = p->nr_pool - start;
	ret = export_index__lookup(&p->stack_index,
				   (uint32_t)export__hash(&p->pool[start], p->key_nr * sizeof(uint32_t), 13),
				   stack_eq, p, p->nr_stacks, &idx);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		p->nr_pool = start;
	} else {
		p->stacks[p->nr_stacks].off = start;
		p->stacks[p->nr_stacks].nr = p->key_nr;
		p->nr_stacks++;
	}
	comm = export_strings__add(&p->str, rs->comm);
	if (comm < 0)
		return (int)comm;
	prof = ss_profile(p, rs, (uint32_t)comm);
	if (!prof || export__grow(&prof->samples, &prof->alloc, prof->nr, sizeof(*prof->samples)))
		return -ENOMEM;
	prof->samples[prof->nr].stack = idx;
	prof->samples[prof->nr].weight = rs->sample->period;
	prof->nr++;
	prof->total += rs->sample->period;
	return 0;
}

/* Weights in nanoseconds: the clock events and off-CPU time. */
static bool evsel__counts_ns(struct evsel *e)
{
	return (e->attr.type == PERF_TYPE_SOFTWARE &&
		(e->attr.config == PERF_COUNT_SW_CPU_CLOCK || e->attr.config == PERF_COUNT_SW_TASK_CLOCK)) ||
	       !strcmp(evsel__name(e), OFF_CPU_EVENT_NAME);
}

static void ss_write_profile(struct speedscope *p, struct out *w, const struct ss_profile *prof)
{
	char name[512];

	if (p->several_events)
		snprintf(name, sizeof(name), "%s %d %s", p->str.str[prof->comm], prof->tid, evsel__name(prof->evsel));
	else
		snprintf(name, sizeof(name), "%s %d", p->str.str[prof->comm], prof->tid);
	out__begin_object(w, NULL);
	out__field_str(w, "type", "sampled");
	out__field_str(w, "name", name);
	out__field_str(w, "unit", evsel__counts_ns(prof->evsel) ? "nanoseconds" : "none");
	out__field_u64(w, "startValue", 0);
	out__field_u64(w, "endValue", prof->total);
	out__begin_array(w, "samples");
	for (uint32_t i = 0; i < prof->nr; i++) {
		const struct ss_stack *st = &p->stacks[prof->samples[i].stack];

		out__begin_array(w, NULL);
		for (uint32_t k = 0; k < st->nr; k++)
			out__field_u64(w, NULL, p->pool[st->off + k]);
		out__end_array(w);
	}
	out__end_array(w);
	out__begin_array(w, "weights");
	for (uint32_t i = 0; i < prof->nr; i++)
		out__field_u64(w, NULL, prof->samples[i].weight);
	out__end_array(w);
	out__end_object(w);
}

static int ss_end(void *priv, struct perf_session *s)
{
	struct speedscope *p = priv;
	struct out w;

	out__init(&w, p->fp, OUT_JSON, NULL);
	out__begin_record(&w);
	out__field_str(&w, "$schema", "https://www.speedscope.app/file-format-schema.json");
	out__field_str(&w, "name", s->data.path);
	out__field_str(&w, "exporter", "prf data convert");
	out__field_u64(&w, "activeProfileIndex", 0);
	out__begin_object(&w, "shared");
	out__begin_array(&w, "frames");
	for (uint32_t i = 0; i < p->nr_frames; i++) {
		out__begin_object(&w, NULL);
		out__field_str(&w, "name", p->str.str[p->frames[i].name]);
		if (p->frames[i].file != ~0U)
			out__field_str(&w, "file", p->str.str[p->frames[i].file]);
		out__end_object(&w);
	}
	out__end_array(&w);
	out__end_object(&w);
	out__begin_array(&w, "profiles");
	for (uint32_t i = 0; i < p->nr_profiles; i++)
		ss_write_profile(p, &w, &p->profiles[i]);
	out__end_array(&w);
	out__end_record(&w);
	return ferror(p->fp) ? -EIO : 0;
}

static void *ss_new(FILE *fp, struct perf_session *s, struct resolve_opts *ropts)
{
	struct speedscope *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fp = fp;
	p->s = s;
	/* inlined calls as frames, as prf script shows them */
	memset(ropts, 0, sizeof(*ropts));
	ropts->max_stack = 1024;
	ropts->inline_frames = true;
	return p;
}

static void ss_free(void *priv)
{
	struct speedscope *p = priv;

	for (uint32_t i = 0; i < p->nr_profiles; i++)
		free(p->profiles[i].samples);
	free(p->profiles);
	export_index__exit(&p->profile_index);
	free(p->stacks);
	export_index__exit(&p->stack_index);
	free(p->pool);
	free(p->frames);
	export_index__exit(&p->frame_index);
	export_strings__exit(&p->str);
	free(p);
}

const struct export_format export_speedscope = {
	.name = "speedscope",
	.new = ss_new,
	.sample = ss_sample,
	.end = ss_end,
	.free = ss_free,
};
