// SPDX-License-Identifier: GPL-2.0
/*
 * --to-gecko: the Firefox Profiler's processed profile format (as samply
 * writes it), preprocessedProfileVersion 56: meta (categories Other,
 * User, Kernel; interval; sample units), libs (one per DSO with its
 * build-id as codeId and breakpadId), shared.stringArray, and one thread
 * per recorded thread (pid, tid, its last comm as name), each with its own
 * columnar tables:
 *
 *   samples      stack, time (ms since the first sample), weight null
 *                (one per sample), weightType "samples"
 *   stackTable   frame, prefix (null at the root)
 *   frameTable   address (in the DSO, -1 unmapped), inlineDepth (0 for the
 *                function the others were inlined into), category (Kernel
 *                for kernel frames, User else, Other unmapped),
 *                subcategory 0, func, nativeSymbol null, innerWindowID 0,
 *                line, column null
 *   funcTable    name, isJS false, relevantForJS false, resource,
 *                fileName null, lineNumber null, columnNumber null
 *   resourceTable one per library: lib, name, host null, type 1
 *   nativeSymbols empty (frames are named through funcTable)
 *   markers      off-CPU spans (--off-cpu recordings): name "offcpu",
 *                startTime/endTime (switch-out, switch-in), phase 1
 *                (interval), category Other, data null
 *
 * Samples are those of one event: the first on-CPU event sampled (the
 * command's --event picks another); other events are left out.
 * Written through util/lib/out.h (one JSON object).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "export-format.h"
#include "../lib/out.h"
#include "../session/resolve.h"
#include "../session/session.h"
#include "../session/off-cpu.h"
#include "../kernel/evsel.h"
#include "../model/dso.h"
#include "../model/map.h"

#define GK_VERSION 56

enum { CAT_OTHER, CAT_USER, CAT_KERNEL };

struct gk_lib {
	uint32_t name, path, build_id;	/* strings; build_id ~0: none */
};

struct gk_frame {
	uint64_t address;	/* ~0: unmapped (-1 in the file) */
	uint32_t func, depth, category;
};

struct gk_func {
	uint32_t name;
	int32_t resource;	/* -1: none */
};

struct gk_stack {
	uint32_t frame;
	int32_t prefix;		/* -1: root */
};

struct gk_sample {
	uint32_t stack;
	uint64_t time;		/* ns */
};

struct gk_marker {
	uint64_t start, end;	/* ns */
};

#define GK_TABLE(type, name) \
	type *name;          \
	uint32_t nr_##name, alloc_##name

struct gk_thread {
	int32_t pid, tid;
	uint32_t comm;
	GK_TABLE(struct gk_frame, frames);
	struct export_index frame_index;
	GK_TABLE(struct gk_func, funcs);
	struct export_index func_index;
	GK_TABLE(int32_t, resources);	/* lib index per resource */
	GK_TABLE(struct gk_stack, stacks);
	struct export_index stack_index;
	GK_TABLE(struct gk_sample, samples);
	GK_TABLE(struct gk_marker, markers);
};

struct gecko {
	FILE *fp;
	struct perf_session *s;
	struct evsel *evsel;		/* the event sampled: the first on-CPU one */
	struct export_strings str;
	GK_TABLE(struct gk_lib, libs);
	struct export_index lib_index;
	GK_TABLE(struct gk_thread, threads);
	struct export_index thread_index;
	uint64_t first_time, last_time;
	bool have_time;
	struct gk_thread *cur;
	const void *key;
};

static bool lib_eq(void *arg, uint32_t idx)
{
	struct gecko *g = arg;

	return g->libs[idx].path == *(const uint32_t *)g->key;
}

/* The lib of dso, added when new; -ENOMEM. */
static int64_t gk_lib(struct gecko *g, struct dso *dso)
{
	struct gk_lib l;
	int64_t path = export_strings__add(&g->str, dso->long_name);
	int64_t name = export_strings__add(&g->str, dso->short_name);
	uint32_t idx;
	int ret;

	if (path < 0 || name < 0)
		return -ENOMEM;
	l.path = (uint32_t)path;
	l.name = (uint32_t)name;
	l.build_id = ~0U;
	if (export__grow(&g->libs, &g->alloc_libs, g->nr_libs, sizeof(*g->libs)))
		return -ENOMEM;
	g->key = &l.path;
	ret = export_index__lookup(&g->lib_index, (uint32_t)export__hash(&l.path, 4, 21), lib_eq, g,
				   g->nr_libs, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0) {
		int64_t b = export__build_id(&g->str, dso);

		if (b == -ENOMEM)
			return b;
		if (b >= 0)
			l.build_id = (uint32_t)b;
		g->libs[g->nr_libs++] = l;
	}
	return idx;
}

static bool func_eq(void *arg, uint32_t idx)
{
	struct gecko *g = arg;
	const struct gk_func *k = g->key;

	return g->cur->funcs[idx].name == k->name && g->cur->funcs[idx].resource == k->resource;
}

static bool frame_eq(void *arg, uint32_t idx)
{
	struct gecko *g = arg;
	const struct gk_frame *a = &g->cur->frames[idx], *k = g->key;

	return a->address == k->address && a->func == k->func && a->depth == k->depth &&
	       a->category == k->category;
}

static bool stack_eq(void *arg, uint32_t idx)
{
	struct gecko *g = arg;
	const struct gk_stack *a = &g->cur->stacks[idx], *k = g->key;

	return a->frame == k->frame && a->prefix == k->prefix;
}

/* The thread's resource for lib (a thread uses few libs: a linear look). */
static int32_t gk_resource(struct gecko *g, struct gk_thread *t, uint32_t lib)
{
	for (uint32_t i = 0; i < t->nr_resources; i++)
		if (t->resources[i] == (int32_t)lib)
			return (int32_t)i;
	if (export__grow(&t->resources, &t->alloc_resources, t->nr_resources, sizeof(*t->resources)))
		return -ENOMEM;
	t->resources[t->nr_resources] = (int32_t)lib;
	return (int32_t)t->nr_resources++;
}

/* The frame index in thread t of cursor frame f at inline depth depth. */
static int64_t gk_frame(struct gecko *g, struct gk_thread *t, const struct callchain_frame *f,
			uint32_t depth)
{
	struct dso *dso = f->map ? f->map->dso : NULL;
	struct gk_func fn = { .resource = -1 };
	struct gk_frame fr = { .address = ~0ULL, .depth = depth, .category = CAT_OTHER };
	int64_t name;
	uint32_t idx, h[2];
	uint64_t fh[2];
	int ret;

	name = export__frame_name(&g->str, f);
	if (name < 0)
		return name;
	fn.name = (uint32_t)name;
	if (dso) {
		int64_t lib = gk_lib(g, dso);

		if (lib < 0)
			return lib;
		fn.resource = gk_resource(g, t, (uint32_t)lib);
		if (fn.resource < 0)
			return fn.resource;
		fr.address = f->addr;
		fr.category = f->cpumode == PERF_RECORD_MISC_KERNEL ? CAT_KERNEL : CAT_USER;
	}
	if (export__grow(&t->funcs, &t->alloc_funcs, t->nr_funcs, sizeof(*t->funcs)) ||
	    export__grow(&t->frames, &t->alloc_frames, t->nr_frames, sizeof(*t->frames)))
		return -ENOMEM;
	g->key = &fn;
	h[0] = fn.name, h[1] = (uint32_t)fn.resource;
	ret = export_index__lookup(&t->func_index, (uint32_t)export__hash(h, sizeof(h), 22), func_eq, g,
				   t->nr_funcs, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0)
		t->funcs[t->nr_funcs++] = fn;
	fr.func = idx;
	g->key = &fr;
	fh[0] = fr.address;
	fh[1] = ((uint64_t)fr.func << 32) | (fr.depth << 2) | fr.category;
	ret = export_index__lookup(&t->frame_index, (uint32_t)export__hash(fh, sizeof(fh), 23), frame_eq, g,
				   t->nr_frames, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0)
		t->frames[t->nr_frames++] = fr;
	return idx;
}

static int64_t gk_stack(struct gecko *g, struct gk_thread *t, uint32_t frame, int32_t prefix)
{
	struct gk_stack st = { .frame = frame, .prefix = prefix };
	uint32_t idx;
	int ret;

	if (export__grow(&t->stacks, &t->alloc_stacks, t->nr_stacks, sizeof(*t->stacks)))
		return -ENOMEM;
	g->key = &st;
	ret = export_index__lookup(&t->stack_index, (uint32_t)export__hash(&st, sizeof(st), 24), stack_eq, g,
				   t->nr_stacks, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0)
		t->stacks[t->nr_stacks++] = st;
	return idx;
}

static bool thread_eq(void *arg, uint32_t idx)
{
	struct gecko *g = arg;
	const int32_t *k = g->key;

	return g->threads[idx].pid == k[0] && g->threads[idx].tid == k[1];
}

static struct gk_thread *gk_thread(struct gecko *g, struct resolved_sample *rs)
{
	int32_t k[2] = {
		rs->thread ? rs->thread->pid : (int32_t)rs->sample->pid,
		rs->thread ? rs->thread->tid : (int32_t)rs->sample->tid,
	};
	int64_t comm = export_strings__add(&g->str, rs->comm);
	uint32_t idx;
	int ret;

	if (comm < 0 || export__grow(&g->threads, &g->alloc_threads, g->nr_threads, sizeof(*g->threads)))
		return NULL;
	g->key = k;
	ret = export_index__lookup(&g->thread_index, (uint32_t)export__hash(k, sizeof(k), 25), thread_eq, g,
				   g->nr_threads, &idx);
	if (ret < 0)
		return NULL;
	if (ret == 0) {
		memset(&g->threads[idx], 0, sizeof(g->threads[idx]));
		g->threads[idx].pid = k[0];
		g->threads[idx].tid = k[1];
		g->nr_threads++;
	}
	g->threads[idx].comm = (uint32_t)comm;
	return &g->threads[idx];
}

static void gk_time(struct gecko *g, uint64_t t)
{
	if (t == ~0ULL)
		return;
	if (!g->have_time || t < g->first_time)
		g->first_time = t;
	if (!g->have_time || t > g->last_time)
		g->last_time = t;
	g->have_time = true;
}

static int gk_sample(void *priv, struct perf_session *s, struct resolved_sample *rs)
{
	struct gecko *g = priv;
	const struct callchain_cursor *c = &rs->cursor;
	const struct perf_sample *sample = rs->sample;
	bool offcpu = !strcmp(evsel__name(rs->evsel), OFF_CPU_EVENT_NAME);
	struct gk_thread *t;
	int64_t stack = -1;
	uint32_t depth = 0;

	if (offcpu) {
		t = gk_thread(g, rs);
		if (!t || export__grow(&t->markers, &t->alloc_markers, t->nr_markers, sizeof(*t->markers)))
			return -ENOMEM;
		t->markers[t->nr_markers].start = sample->time;
		t->markers[t->nr_markers].end = sample->time + sample->period;
		t->nr_markers++;
		gk_time(g, sample->time);
		return 0;
	}
	if (!g->evsel)
		g->evsel = rs->evsel;
	if (rs->evsel != g->evsel)
		return 0;
	t = gk_thread(g, rs);
	if (!t)
		return -ENOMEM;
	g->cur = t;
	/* root first; an inlined group [innermost .. outermost inline, real]
	 * is walked real first at depth 0, its inlined calls deeper */
	for (unsigned int i = c->nr; i-- > 0;) {
		const struct callchain_frame *f = &c->frames[i];
		int64_t fr;

		if (f->truncated)
			continue;
		depth = f->inlined ? depth + 1 : 0;
		fr = gk_frame(g, t, f, depth);
		if (fr < 0)
			return (int)fr;
		stack = gk_stack(g, t, (uint32_t)fr, (int32_t)stack);
		if (stack < 0)
			return (int)stack;
	}
	if (stack < 0) {	/* no frame at all: a root "[unknown]" */
		struct callchain_frame none = { 0 };
		int64_t fr = gk_frame(g, t, &none, 0);

		stack = fr < 0 ? fr : gk_stack(g, t, (uint32_t)fr, -1);
		if (stack < 0)
			return (int)stack;
	}
	if (export__grow(&t->samples, &t->alloc_samples, t->nr_samples, sizeof(*t->samples)))
		return -ENOMEM;
	t->samples[t->nr_samples].stack = (uint32_t)stack;
	t->samples[t->nr_samples].time = sample->time;
	t->nr_samples++;
	gk_time(g, sample->time);
	return 0;
}

/* ---- writing ---- */

static void gk_ms(struct gecko *g, struct out *w, const char *key, uint64_t ns)
{
	double ms = ns == ~0ULL || !g->have_time ? 0 : (double)(ns - g->first_time) / 1e6;

	out__field_double(w, key, "%.6f", ms);
}

static void gk_null_column(struct out *w, const char *key, uint32_t n)
{
	out__begin_array(w, key);
	for (uint32_t i = 0; i < n; i++)
		out__field_raw(w, NULL, "null");
	out__end_array(w);
}

static void gk_u32_column(struct out *w, const char *key, uint32_t n, uint32_t v)
{
	out__begin_array(w, key);
	for (uint32_t i = 0; i < n; i++)
		out__field_u64(w, NULL, v);
	out__end_array(w);
}

static void gk_bool_column(struct out *w, const char *key, uint32_t n)
{
	out__begin_array(w, key);
	for (uint32_t i = 0; i < n; i++)
		out__field_raw(w, NULL, "false");
	out__end_array(w);
}

/* breakpad's id of an ELF build-id: its first 16 bytes as a GUID (the
 * first three fields byte-swapped), uppercase, then age 0. */
static void gk_breakpad_id(const char *hex, char *out)
{
	static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	size_t len = strlen(hex);
	int o = 0;

	for (int i = 0; i < 16; i++) {
		int b = order[i];
		char c0 = (size_t)(2 * b + 1) < len ? hex[2 * b] : '0';
		char c1 = (size_t)(2 * b + 1) < len ? hex[2 * b + 1] : '0';

		out[o++] = (char)(c0 >= 'a' ? c0 - 32 : c0);
		out[o++] = (char)(c1 >= 'a' ? c1 - 32 : c1);
	}
	out[o++] = '0';
	out[o] = '\0';
}

static void gk_write_meta(struct gecko *g, struct out *w, struct perf_session *s)
{
	const struct perf_event_attr *a = g->evsel ? &g->evsel->attr : NULL;
	double interval = 1;
	double start = 0;
	struct stat st;
	static const struct { const char *name, *color; } cats[] = {
		{ "Other", "grey" }, { "User", "yellow" }, { "Kernel", "orange" },
	};

	if (a && a->freq && a->sample_freq)
		interval = 1000.0 / (double)a->sample_freq;
	else if (a && !a->freq && a->sample_period && a->type == PERF_TYPE_SOFTWARE)
		interval = (double)a->sample_period / 1e6;
	/* wall clock of the first sample: the file's mtime (end of the
	 * recording) less the samples' span */
	if (!s->data.pipe && fstat(s->data.fd, &st) == 0)
		start = (double)st.st_mtime * 1000 - (double)(g->last_time - g->first_time) / 1e6;
	out__begin_object(w, "meta");
	out__field_double(w, "interval", "%.6f", interval);
	out__field_double(w, "startTime", "%.3f", start);
	out__field_u64(w, "processType", 0);
	out__field_str(w, "product", s->data.path);
	out__field_u64(w, "stackwalk", 1);
	out__field_raw(w, "debug", "false");
	out__field_u64(w, "version", 24);
	out__field_u64(w, "preprocessedProfileVersion", GK_VERSION);
	out__field_str(w, "importedFrom", "prf data convert");
	out__field_raw(w, "symbolicated", "true");
	out__field_raw(w, "usesOnlyOneStackType", "true");
	out__field_raw(w, "sourceCodeIsNotOnSearchfox", "true");
	if (s->data.env.os_release)
		out__field_str(w, "oscpu", s->data.env.os_release);
	if (s->data.env.cpu_desc)
		out__field_str(w, "CPUName", s->data.env.cpu_desc);
	if (s->data.env.nr_cpus_online)
		out__field_u64(w, "logicalCPUs", (uint64_t)s->data.env.nr_cpus_online);
	out__begin_array(w, "categories");
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++) {
		out__begin_object(w, NULL);
		out__field_str(w, "name", cats[i].name);
		out__field_str(w, "color", cats[i].color);
		out__begin_array(w, "subcategories");
		out__field_str(w, NULL, "Other");
		out__end_array(w);
		out__end_object(w);
	}
	out__end_array(w);
	out__begin_array(w, "markerSchema");
	out__end_array(w);
	out__begin_object(w, "sampleUnits");
	out__field_str(w, "time", "ms");
	out__field_str(w, "eventDelay", "ms");
	out__field_str(w, "threadCPUDelta", "ns");
	out__end_object(w);
	out__begin_object(w, "extensions");
	out__begin_array(w, "baseURL");
	out__end_array(w);
	out__begin_array(w, "id");
	out__end_array(w);
	out__begin_array(w, "name");
	out__end_array(w);
	out__field_u64(w, "length", 0);
	out__end_object(w);
	out__end_object(w);
}

static void gk_write_libs(struct gecko *g, struct out *w, const char *arch)
{
	out__begin_array(w, "libs");
	for (uint32_t i = 0; i < g->nr_libs; i++) {
		const struct gk_lib *l = &g->libs[i];
		char bp[40] = "";

		if (l->build_id != ~0U)
			gk_breakpad_id(g->str.str[l->build_id], bp);
		out__begin_object(w, NULL);
		out__field_str(w, "arch", arch ? arch : "");
		out__field_str(w, "name", g->str.str[l->name]);
		out__field_str(w, "path", g->str.str[l->path]);
		out__field_str(w, "debugName", g->str.str[l->name]);
		out__field_str(w, "debugPath", g->str.str[l->path]);
		out__field_str(w, "breakpadId", bp);
		if (l->build_id != ~0U)
			out__field_str(w, "codeId", g->str.str[l->build_id]);
		else
			out__field_raw(w, "codeId", "null");
		out__end_object(w);
	}
	out__end_array(w);
}

static void gk_write_tables(struct gecko *g, struct out *w, const struct gk_thread *t)
{
	uint32_t i;

	out__begin_object(w, "samples");
	out__begin_array(w, "stack");
	for (i = 0; i < t->nr_samples; i++)
		out__field_u64(w, NULL, t->samples[i].stack);
	out__end_array(w);
	out__begin_array(w, "time");
	for (i = 0; i < t->nr_samples; i++)
		gk_ms(g, w, NULL, t->samples[i].time);
	out__end_array(w);
	out__field_raw(w, "weight", "null");
	out__field_str(w, "weightType", "samples");
	out__field_u64(w, "length", t->nr_samples);
	out__end_object(w);

	out__begin_object(w, "markers");
	gk_null_column(w, "data", t->nr_markers);
	gk_u32_column(w, "name", t->nr_markers, 0);	/* string 0: "offcpu" */
	out__begin_array(w, "startTime");
	for (i = 0; i < t->nr_markers; i++)
		gk_ms(g, w, NULL, t->markers[i].start);
	out__end_array(w);
	out__begin_array(w, "endTime");
	for (i = 0; i < t->nr_markers; i++)
		gk_ms(g, w, NULL, t->markers[i].end);
	out__end_array(w);
	gk_u32_column(w, "phase", t->nr_markers, 1);
	gk_u32_column(w, "category", t->nr_markers, CAT_OTHER);
	out__field_u64(w, "length", t->nr_markers);
	out__end_object(w);

	out__begin_object(w, "stackTable");
	out__begin_array(w, "frame");
	for (i = 0; i < t->nr_stacks; i++)
		out__field_u64(w, NULL, t->stacks[i].frame);
	out__end_array(w);
	out__begin_array(w, "prefix");
	for (i = 0; i < t->nr_stacks; i++) {
		if (t->stacks[i].prefix < 0)
			out__field_raw(w, NULL, "null");
		else
			out__field_u64(w, NULL, (uint64_t)t->stacks[i].prefix);
	}
	out__end_array(w);
	out__field_u64(w, "length", t->nr_stacks);
	out__end_object(w);

	out__begin_object(w, "frameTable");
	out__begin_array(w, "address");
	for (i = 0; i < t->nr_frames; i++)
		out__field_s64(w, NULL, t->frames[i].address == ~0ULL ? -1 : (int64_t)t->frames[i].address);
	out__end_array(w);
	out__begin_array(w, "inlineDepth");
	for (i = 0; i < t->nr_frames; i++)
		out__field_u64(w, NULL, t->frames[i].depth);
	out__end_array(w);
	out__begin_array(w, "category");
	for (i = 0; i < t->nr_frames; i++)
		out__field_u64(w, NULL, t->frames[i].category);
	out__end_array(w);
	gk_u32_column(w, "subcategory", t->nr_frames, 0);
	out__begin_array(w, "func");
	for (i = 0; i < t->nr_frames; i++)
		out__field_u64(w, NULL, t->frames[i].func);
	out__end_array(w);
	gk_null_column(w, "nativeSymbol", t->nr_frames);
	gk_u32_column(w, "innerWindowID", t->nr_frames, 0);
	gk_null_column(w, "line", t->nr_frames);
	gk_null_column(w, "column", t->nr_frames);
	out__field_u64(w, "length", t->nr_frames);
	out__end_object(w);

	out__begin_object(w, "funcTable");
	out__begin_array(w, "name");
	for (i = 0; i < t->nr_funcs; i++)
		out__field_u64(w, NULL, t->funcs[i].name);
	out__end_array(w);
	gk_bool_column(w, "isJS", t->nr_funcs);
	gk_bool_column(w, "relevantForJS", t->nr_funcs);
	out__begin_array(w, "resource");
	for (i = 0; i < t->nr_funcs; i++)
		out__field_s64(w, NULL, t->funcs[i].resource);
	out__end_array(w);
	gk_null_column(w, "fileName", t->nr_funcs);
	gk_null_column(w, "lineNumber", t->nr_funcs);
	gk_null_column(w, "columnNumber", t->nr_funcs);
	out__field_u64(w, "length", t->nr_funcs);
	out__end_object(w);

	out__begin_object(w, "resourceTable");
	out__field_u64(w, "length", t->nr_resources);
	out__begin_array(w, "lib");
	for (i = 0; i < t->nr_resources; i++)
		out__field_u64(w, NULL, (uint64_t)t->resources[i]);
	out__end_array(w);
	out__begin_array(w, "name");
	for (i = 0; i < t->nr_resources; i++)
		out__field_u64(w, NULL, g->libs[t->resources[i]].name);
	out__end_array(w);
	gk_null_column(w, "host", t->nr_resources);
	gk_u32_column(w, "type", t->nr_resources, 1);	/* library */
	out__end_object(w);

	out__begin_object(w, "nativeSymbols");
	out__begin_array(w, "libIndex");
	out__end_array(w);
	out__begin_array(w, "address");
	out__end_array(w);
	out__begin_array(w, "name");
	out__end_array(w);
	out__begin_array(w, "functionSize");
	out__end_array(w);
	out__field_u64(w, "length", 0);
	out__end_object(w);
}

static void gk_write_thread(struct gecko *g, struct out *w, const struct gk_thread *t)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", t->pid);
	out__begin_object(w, NULL);
	out__field_str(w, "name", g->str.str[t->comm]);
	out__field_raw(w, "isMainThread", t->pid == t->tid ? "true" : "false");
	out__field_str(w, "processName", g->str.str[t->comm]);
	out__field_str(w, "processType", "default");
	out__field_u64(w, "processStartupTime", 0);
	out__field_raw(w, "processShutdownTime", "null");
	gk_ms(g, w, "registerTime", t->nr_samples ? t->samples[0].time : ~0ULL);
	out__field_raw(w, "unregisterTime", "null");
	out__begin_array(w, "pausedRanges");
	out__end_array(w);
	out__field_str(w, "pid", pid);
	out__field_s64(w, "tid", t->tid);
	gk_write_tables(g, w, t);
	out__end_object(w);
}

static int gk_end(void *priv, struct perf_session *s)
{
	struct gecko *g = priv;
	struct out w;

	out__init(&w, g->fp, OUT_JSON, NULL);
	out__begin_record(&w);
	gk_write_meta(g, &w, s);
	gk_write_libs(g, &w, s->data.env.arch);
	out__begin_array(&w, "pages");
	out__end_array(&w);
	out__begin_array(&w, "counters");
	out__end_array(&w);
	out__begin_array(&w, "profilerOverhead");
	out__end_array(&w);
	out__begin_object(&w, "shared");
	out__begin_array(&w, "stringArray");
	for (uint32_t i = 0; i < g->str.nr; i++)
		out__field_str(&w, NULL, g->str.str[i]);
	out__end_array(&w);
	out__end_object(&w);
	out__begin_array(&w, "threads");
	for (uint32_t i = 0; i < g->nr_threads; i++)
		gk_write_thread(g, &w, &g->threads[i]);
	out__end_array(&w);
	out__end_record(&w);
	return ferror(g->fp) ? -EIO : 0;
}

static void *gk_new(FILE *fp, struct perf_session *s, struct resolve_opts *ropts)
{
	struct gecko *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->fp = fp;
	g->s = s;
	if (export_strings__add(&g->str, "offcpu") != 0) {	/* string 0: the markers' name */
		free(g);
		return NULL;
	}
	memset(ropts, 0, sizeof(*ropts));
	ropts->max_stack = 1024;
	ropts->inline_frames = true;
	return g;
}

static void gk_free(void *priv)
{
	struct gecko *g = priv;

	for (uint32_t i = 0; i < g->nr_threads; i++) {
		struct gk_thread *t = &g->threads[i];

		free(t->frames);
		export_index__exit(&t->frame_index);
		free(t->funcs);
		export_index__exit(&t->func_index);
		free(t->resources);
		free(t->stacks);
		export_index__exit(&t->stack_index);
		free(t->samples);
		free(t->markers);
	}
	free(g->threads);
	export_index__exit(&g->thread_index);
	free(g->libs);
	export_index__exit(&g->lib_index);
	export_strings__exit(&g->str);
	free(g);
}

const struct export_format export_gecko = {
	.name = "gecko",
	.new = gk_new,
	.sample = gk_sample,
	.end = gk_end,
	.free = gk_free,
};
