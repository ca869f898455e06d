// SPDX-License-Identifier: GPL-2.0
/*
 * --to-pprof: the pprof profile (export-pprof.proto, the format of
 * github.com/google/pprof), gzip-compressed, encoded with protobuf-c and
 * libdeflate.
 *
 * - Samples with the same stack, event and labels are merged (values
 *   summed). Their values: two per event that has samples, in evlist
 *   order: a count ("samples"/count for the first event,
 *   "<name>_samples"/count for the others) and the period, typed by
 *   event: cpu-clock and task-clock "cpu"/nanoseconds, the off-CPU
 *   pseudo event "offcpu"/nanoseconds, any other "<event name>"/count.
 *   The default sample type is the first event's period.
 * - Labels: pid, tid (numbers), comm (string), cpu (number, when the
 *   recording has PERF_SAMPLE_CPU).
 * - Locations: one per mapping and address; an address whose frame has
 *   inlined calls (DWARF callchains, as in report and script) carries
 *   one Line per function, innermost first, the function they were
 *   inlined into last; line numbers from the frames' srclines.
 * - Functions: one per (name, source file); system_name = name
 *   (demangled).
 * - Mappings: one per (DSO path, start, end, file offset), with the
 *   DSO's build-id in hex.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <protobuf-c/protobuf-c.h>
#include "export-pprof.pb-c.h"
#include "export-format.h"
#include "../lib/debug.h"
#include "../lib/psort.h"
#include "../session/resolve.h"
#include "../session/session.h"
#include "../session/off-cpu.h"
#include "../kernel/evlist.h"
#include "../kernel/evsel.h"
#include "../model/dso.h"
#include "../model/map.h"
#include "../lib/helper-thread.h"

struct pp_mapping {
	uint64_t start, limit, pgoff;
	uint32_t file, build_id;
	bool lines, files, inlines, funcs;
};

struct pp_location {
	uint64_t mapping;	/* id: index + 1; 0: none */
	uint64_t address;
	uint32_t line_off, nr_lines;
};

/* A slot of the location table: the key in the slot, so that a lookup
 * reads the slot only (with a million locations every read of another
 * array misses the cache). */
struct pp_loc_slot {
	uint64_t address;
	uint32_t mapping;	/* id */
	uint32_t id;		/* location id; 0: empty */
};

struct pp_line {
	uint64_t function;	/* id */
	int64_t line;
};

struct pp_function {
	uint32_t name, file;
};

struct pp_sample {
	uint32_t ev;		/* evsel idx */
	int32_t pid, tid, cpu;	/* cpu -1: none */
	uint32_t comm;
	uint32_t loc_off, nr_locs;
	int64_t count, value;
};

struct pp_event {
	struct evsel *evsel;
	uint64_t nr;
};

#define PP_MAP_CACHE 256
#define PP_CHAIN_MEMO 4096

/* A resolved chain seen before (callchain_cursor.chain_id: the very same
 * frames) and the sample it was last added to: that sample's labels and
 * location ids (in pool), and the count and period added to it since,
 * which reach the sample when the entry moves on (pp_memo_flush()). A
 * stack repeated by one thread is counted in the entry, not in the
 * sample array, which is too large to stay in the cache. */
struct pp_chain_memo {
	uint64_t chain_id;	/* 0: empty */
	uint32_t sample;
	struct pp_sample s;	/* count, value: not yet in the sample */
};

struct pprof {
	FILE *fp;
	struct perf_session *s;
	struct export_strings str;
	struct pp_mapping *maps;
	uint32_t nr_maps, alloc_maps;
	struct export_index map_index;
	struct pp_location *locs;
	uint32_t nr_locs, alloc_locs;
	struct pp_loc_slot *loc_slots;	/* location ids by mapping and address */
	uint32_t loc_mask;
	struct pp_line *lines;
	uint32_t nr_lines, alloc_lines;
	struct pp_function *funcs;
	uint32_t nr_funcs, alloc_funcs;
	struct export_index func_index;
	struct pp_sample *samples;
	uint32_t nr_samples, alloc_samples;
	struct export_index sample_index;
	uint64_t *pool;		/* location ids of the samples */
	uint32_t nr_pool, alloc_pool;
	struct pp_event *events;	/* by evsel idx */
	uint32_t nr_events;
	struct {			/* map pointer -> mapping id, until the next barrier */
		const struct map *map;
		uint64_t id;
	} map_cache[PP_MAP_CACHE];
	struct pp_chain_memo memo[PP_CHAIN_MEMO];
	const struct thread *comm_thread;	/* comm id of this thread, until the next barrier */
	uint32_t comm_id;
	uint64_t first_time, last_time;
	/* the sample being added */
	const struct pp_mapping *key_map;
	const struct pp_function *key_func;
	const struct pp_sample *key_sample;
	const uint64_t *key_ids;
};

static bool map_eq(void *arg, uint32_t idx)
{
	struct pprof *p = arg;
	const struct pp_mapping *a = &p->maps[idx], *k = p->key_map;

	return a->start == k->start && a->limit == k->limit && a->pgoff == k->pgoff && a->file == k->file;
}

/* Mapping id (index + 1) of map, 0 for none; -ENOMEM. */
static int64_t pp_mapping(struct pprof *p, const struct map *map)
{
	size_t slot = ((uintptr_t)map >> 4) % PP_MAP_CACHE;
	struct pp_mapping m = { 0 };
	int64_t file;
	uint64_t h[4];
	uint32_t idx;
	int ret;

	if (!map)
		return 0;
	if (p->map_cache[slot].map == map)
		return (int64_t)p->map_cache[slot].id;
	file = export_strings__add(&p->str, map->dso ? map->dso->long_name : "");
	if (file < 0)
		return file;
	m.start = map->start;
	m.limit = map->end;
	m.pgoff = map->pgoff;
	m.file = (uint32_t)file;
	h[0] = m.start, h[1] = m.limit, h[2] = m.pgoff, h[3] = m.file;
	if (export__grow(&p->maps, &p->alloc_maps, p->nr_maps, sizeof(*p->maps)))
		return -ENOMEM;
	p->key_map = &m;
	ret = export_index__lookup(&p->map_index, (uint32_t)export__hash(h, sizeof(h), 1), map_eq, p,
				   p->nr_maps, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0) {
		int64_t b = map->dso ? export__build_id(&p->str, map->dso) : -ENOENT;

		if (b == -ENOMEM)
			return b;
		if (b >= 0)
			m.build_id = (uint32_t)b;
		p->maps[p->nr_maps++] = m;
	}
	p->map_cache[slot].map = map;
	p->map_cache[slot].id = idx + 1;
	return idx + 1;
}

static bool func_eq(void *arg, uint32_t idx)
{
	struct pprof *p = arg;

	return p->funcs[idx].name == p->key_func->name && p->funcs[idx].file == p->key_func->file;
}

/* Add the Line of frame f (its function and line) to p->lines. */
static int pp_line(struct pprof *p, const struct callchain_frame *f, struct pp_mapping *m)
{
	struct pp_function fn = { 0 };
	size_t file_len;
	unsigned int line = export__srcline_split(f->srcline, &file_len);
	int64_t name, file;
	uint32_t h[2], idx;
	int ret;

	name = export_strings__add(&p->str, f->sym->name);
	file = export_strings__intern(&p->str, f->srcline ? f->srcline : "", file_len);
	if (name < 0 || file < 0)
		return -ENOMEM;
	fn.name = (uint32_t)name;
	fn.file = (uint32_t)file;
	h[0] = fn.name, h[1] = fn.file;
	if (export__grow(&p->funcs, &p->alloc_funcs, p->nr_funcs, sizeof(*p->funcs)) ||
	    export__grow(&p->lines, &p->alloc_lines, p->nr_lines, sizeof(*p->lines)))
		return -ENOMEM;
	p->key_func = &fn;
	ret = export_index__lookup(&p->func_index, (uint32_t)export__hash(h, sizeof(h), 2), func_eq, p,
				   p->nr_funcs, &idx);
	if (ret < 0)
		return ret;
	if (ret == 0)
		p->funcs[p->nr_funcs++] = fn;
	p->lines[p->nr_lines].function = idx + 1;
	p->lines[p->nr_lines].line = line;
	p->nr_lines++;
	if (m) {
		m->funcs = true;
		m->lines |= line != 0;
		m->files |= file_len != 0;
		m->inlines |= f->inlined;
	}
	return 0;
}

static inline uint32_t pp_loc_hash(uint32_t mapping, uint64_t address)
{
	uint64_t h = (address ^ ((uint64_t)mapping << 44) ^ ((uint64_t)mapping >> 20)) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h ^ (h >> 32));
}

static int pp_loc_grow(struct pprof *p)
{
	uint32_t n = p->loc_slots ? (p->loc_mask + 1) * 2 : 4096;
	struct pp_loc_slot *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; p->loc_slots && i <= p->loc_mask; i++) {
		const struct pp_loc_slot *o = &p->loc_slots[i];
		uint32_t j;

		if (!o->id)
			continue;
		for (j = pp_loc_hash(o->mapping, o->address) & (n - 1); t[j].id; j = (j + 1) & (n - 1))
			;
		t[j] = *o;
	}
	free(p->loc_slots);
	p->loc_slots = t;
	p->loc_mask = n - 1;
	return 0;
}

/* The slot of location (mapping, address): its id, or 0 where a new one
 * goes. NULL on ENOMEM. */
static struct pp_loc_slot *pp_loc_slot(struct pprof *p, uint32_t mapping, uint64_t address)
{
	uint32_t j;

	if ((!p->loc_slots || (p->nr_locs + 1) * 2 > p->loc_mask + 1) && pp_loc_grow(p))
		return NULL;
	for (j = pp_loc_hash(mapping, address) & p->loc_mask; p->loc_slots[j].id; j = (j + 1) & p->loc_mask)
		if (p->loc_slots[j].address == address && p->loc_slots[j].mapping == mapping)
			break;
	return &p->loc_slots[j];
}

/* Location id of frames f[0..n): inlined frames, then the real one. */
static int64_t pp_location(struct pprof *p, const struct callchain_frame *f, unsigned int n)
{
	const struct callchain_frame *real = &f[n - 1];
	struct pp_location l = { 0 };
	int64_t mapping = pp_mapping(p, real->map);
	struct pp_loc_slot *slot;
	int ret;

	if (mapping < 0)
		return mapping;
	l.mapping = (uint64_t)mapping;
	l.address = real->ip;
	slot = pp_loc_slot(p, (uint32_t)mapping, real->ip);
	if (!slot || export__grow(&p->locs, &p->alloc_locs, p->nr_locs, sizeof(*p->locs)))
		return -ENOMEM;
	if (slot->id)
		return slot->id;
	l.line_off = p->nr_lines;
	for (unsigned int i = 0; i < n; i++) {
		if (!f[i].sym)
			continue;
		ret = pp_line(p, &f[i], l.mapping ? &p->maps[l.mapping - 1] : NULL);
		if (ret)
			return ret;
	}
	l.nr_lines = p->nr_lines - l.line_off;
	p->locs[p->nr_locs++] = l;
	slot->id = p->nr_locs;
	slot->mapping = (uint32_t)mapping;
	slot->address = real->ip;
	return slot->id;
}

static bool sample_eq(void *arg, uint32_t idx)
{
	struct pprof *p = arg;
	const struct pp_sample *a = &p->samples[idx], *k = p->key_sample;

	return a->ev == k->ev && a->pid == k->pid && a->tid == k->tid && a->cpu == k->cpu &&
	       a->comm == k->comm && a->nr_locs == k->nr_locs &&
	       (!k->nr_locs ||	/* an empty chain: maybe no pool yet */
		!memcmp(&p->pool[a->loc_off], p->key_ids, k->nr_locs * sizeof(uint64_t)));
}

static int pp_event(struct pprof *p, struct evsel *evsel)
{
	if (evsel->idx < 0)
		return -EINVAL;
	if ((uint32_t)evsel->idx >= p->nr_events) {
		uint32_t n = (uint32_t)evsel->idx + 8;
		struct pp_event *e = realloc(p->events, n * sizeof(*e));

		if (!e)
			return -ENOMEM;
		memset(e + p->nr_events, 0, (n - p->nr_events) * sizeof(*e));
		p->events = e;
		p->nr_events = n;
	}
	p->events[evsel->idx].evsel = evsel;
	p->events[evsel->idx].nr++;
	return 0;
}

/* The location ids of the cursor's frames, appended to the pool. */
static int pp_chain(struct pprof *p, const struct callchain_cursor *c)
{
	for (unsigned int i = 0; i < c->nr; i++) {
		unsigned int first = i;
		int64_t loc;

		if (c->frames[i].truncated)
			continue;
		while (c->frames[i].inlined && i + 1 < c->nr && !c->frames[i + 1].truncated)
			i++;
		loc = pp_location(p, &c->frames[first], i - first + 1);
		if (loc < 0)
			return (int)loc;
		if (export__grow(&p->pool, &p->alloc_pool, p->nr_pool, sizeof(*p->pool)))
			return -ENOMEM;
		p->pool[p->nr_pool++] = (uint64_t)loc;
	}
	return 0;
}

static bool same_labels(const struct pp_sample *a, const struct pp_sample *b)
{
	return a->ev == b->ev && a->pid == b->pid && a->tid == b->tid && a->cpu == b->cpu && a->comm == b->comm;
}

/* Add what memo counted to its sample. */
static void pp_memo_flush(struct pprof *p, struct pp_chain_memo *memo)
{
	if (!memo->chain_id)
		return;
	p->samples[memo->sample].count += memo->s.count;
	p->samples[memo->sample].value += memo->s.value;
	memo->s.count = 0;
	memo->s.value = 0;
}

static int pprof_sample(void *priv, struct perf_session *s, struct resolved_sample *rs)
{
	struct pprof *p = priv;
	const struct callchain_cursor *c = &rs->cursor;
	const struct perf_sample *sample = rs->sample;
	struct pp_chain_memo *memo = NULL;
	struct pp_sample key = { 0 };
	uint32_t start = p->nr_pool, idx;
	uint64_t h;
	int ret;

	ret = pp_event(p, rs->evsel);
	if (ret)
		return ret;
	if (!rs->thread || rs->thread != p->comm_thread) {
		int64_t comm = export_strings__add(&p->str, rs->comm);

		if (comm < 0)
			return (int)comm;
		p->comm_thread = rs->thread;
		p->comm_id = (uint32_t)comm;
	}
	key.ev = (uint32_t)rs->evsel->idx;
	key.pid = rs->thread ? rs->thread->pid : (int32_t)sample->pid;
	key.tid = rs->thread ? rs->thread->tid : (int32_t)sample->tid;
	key.cpu = (int32_t)sample->cpu;
	key.comm = p->comm_id;
	if (c->chain_id) {
		memo = &p->memo[c->chain_id % PP_CHAIN_MEMO];
		if (memo->chain_id != c->chain_id) {
			pp_memo_flush(p, memo);
			memo->chain_id = 0;
		}
	}
	if (memo && memo->chain_id && same_labels(&memo->s, &key)) {
		memo->s.count++;	/* the same stack of the same thread again */
		memo->s.value += (int64_t)sample->period;
		goto time;
	}
	if (memo && memo->chain_id) {
		key.loc_off = memo->s.loc_off;
		key.nr_locs = memo->s.nr_locs;
		pp_memo_flush(p, memo);
	} else {
		ret = pp_chain(p, c);
		if (ret)
			return ret;
		key.loc_off = start;
		key.nr_locs = p->nr_pool - start;
	}
	h = export__hash(&p->pool[key.loc_off], key.nr_locs * sizeof(uint64_t), 4);
	h = export__hash(&key, offsetof(struct pp_sample, loc_off), h);
	if (export__grow(&p->samples, &p->alloc_samples, p->nr_samples, sizeof(*p->samples)))
		return -ENOMEM;
	p->key_sample = &key;
	p->key_ids = &p->pool[key.loc_off];
	ret = export_index__lookup(&p->sample_index, (uint32_t)h, sample_eq, p, p->nr_samples, &idx);
	if (ret < 0)
		return ret;
	if (ret == 1)
		p->nr_pool = start;	/* a known sample: its ids are stored already */
	else
		p->samples[p->nr_samples++] = key;
	if (memo) {
		memo->chain_id = c->chain_id;
		memo->sample = idx;
		memo->s = key;
		memo->s.loc_off = p->samples[idx].loc_off;
		memo->s.count = 1;
		memo->s.value = (int64_t)sample->period;
	} else {
		p->samples[idx].count++;
		p->samples[idx].value += (int64_t)sample->period;
	}
time:
	if (sample->time != ~0ULL) {
		if (!p->first_time || sample->time < p->first_time)
			p->first_time = sample->time;
		if (sample->time > p->last_time)
			p->last_time = sample->time;
	}
	return 0;
}

static void pprof_barrier(void *priv)
{
	struct pprof *p = priv;

	memset(p->map_cache, 0, sizeof(p->map_cache));
	p->comm_thread = NULL;
}

/* ---- writing: the message packed by protobuf-c, gzip by libdeflate ---- */

/* The encoded message buf[0..len) gzip-compressed to fp, at the fastest
 * level (as Go's runtime/pprof writes its profiles): the file is about 5%
 * bigger than at the default level and compresses in a quarter of the time. */
static int pp_write(FILE *fp, const uint8_t *buf, size_t len)
{
	size_t bound = 0, out_len;
	struct libdeflate_compressor *z;
	uint8_t *out = NULL;
	int err = 0;

	z = libdeflate_alloc_compressor(1);
	if (z)
		bound = libdeflate_gzip_compress_bound(z, len);
	if (!z || !(out = malloc(bound))) {
		err = -ENOMEM;
		goto out;
	}
	out_len = libdeflate_gzip_compress(z, buf, len, out, bound);
	if (!out_len)
		err = -EINVAL;
	else if (fwrite(out, 1, out_len, fp) != out_len || ferror(fp))
		err = -EIO;
out:
	if (z)
		libdeflate_free_compressor(z);
	free(out);
	return err;
}

/* ---- the Profile message ---- */

static bool evsel__is_clock(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_CPU_CLOCK || e->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

/* The value type name and unit of event e's period. */
static void pp_event_type(struct evsel *e, const char **name, const char **unit)
{
	*unit = "nanoseconds";
	if (evsel__is_clock(e))
		*name = "cpu";
	else if (!strcmp(evsel__name(e), OFF_CPU_EVENT_NAME))
		*name = "offcpu";
	else {
		*name = evsel__name(e);
		*unit = "count";
	}
}

struct pp_msgs {
	Perftools__Profiles__Profile prof;
	Perftools__Profiles__ValueType *types, **types_p, period_type;
	int64_t k_pid, k_tid, k_comm, k_cpu;	/* the label keys' strings */
	Perftools__Profiles__Mapping *maps, **maps_p;
	Perftools__Profiles__Location *locs, **locs_p;
	Perftools__Profiles__Line *lines, **lines_p;
	Perftools__Profiles__Function *funcs, **funcs_p;
	int *col;		/* by evsel idx: its count column, -1: none */
};

static void pp_msgs_free(struct pp_msgs *m)
{
	free(m->types);
	free(m->types_p);
	free(m->maps);
	free(m->maps_p);
	free(m->locs);
	free(m->locs_p);
	free(m->lines);
	free(m->lines_p);
	free(m->funcs);
	free(m->funcs_p);
	free(m->col);
}

/* Sample types: two columns per event with samples. */
static int pp_types(struct pprof *p, struct pp_msgs *m)
{
	uint32_t nr = 0;

	m->col = malloc((p->nr_events + 1) * sizeof(*m->col));
	m->types = calloc(2 * p->nr_events + 1, sizeof(*m->types));
	m->types_p = calloc(2 * p->nr_events + 1, sizeof(*m->types_p));
	if (!m->col || !m->types || !m->types_p)
		return -ENOMEM;
	for (uint32_t i = 0; i < p->nr_events; i++) {
		struct evsel *e = p->events[i].evsel;
		const char *name, *unit;
		char buf[256];
		int64_t ids[4];

		m->col[i] = -1;
		if (!p->events[i].nr)
			continue;
		pp_event_type(e, &name, &unit);
		snprintf(buf, sizeof(buf), "%s_samples", name);
		ids[0] = export_strings__add(&p->str, nr ? buf : "samples");
		ids[1] = export_strings__add(&p->str, "count");
		ids[2] = export_strings__add(&p->str, name);
		ids[3] = export_strings__add(&p->str, unit);
		if (ids[0] < 0 || ids[1] < 0 || ids[2] < 0 || ids[3] < 0)
			return -ENOMEM;
		m->col[i] = (int)nr;
		for (int k = 0; k < 2; k++) {
			perftools__profiles__value_type__init(&m->types[nr]);
			m->types[nr].type = ids[2 * k];
			m->types[nr].unit = ids[2 * k + 1];
			m->types_p[nr] = &m->types[nr];
			nr++;
		}
		if (nr == 2) {	/* the first event: default type, period */
			const struct perf_event_attr *a = &e->attr;

			m->prof.default_sample_type = ids[2];
			perftools__profiles__value_type__init(&m->period_type);
			m->period_type.type = ids[2];
			m->period_type.unit = ids[3];
			m->prof.period_type = &m->period_type;
			if (!a->freq)
				m->prof.period = (int64_t)a->sample_period;
			else if (evsel__is_clock(e) && a->sample_freq)
				m->prof.period = (int64_t)(1000000000ULL / a->sample_freq);
		}
	}
	m->prof.n_sample_type = nr;
	m->prof.sample_type = m->types_p;
	return 0;
}

/* The label keys' strings (after the sample types': the string table's
 * order is the order strings are first added). */
static int pp_label_keys(struct pprof *p, struct pp_msgs *m)
{
	m->k_pid = export_strings__add(&p->str, "pid");
	m->k_tid = export_strings__add(&p->str, "tid");
	m->k_comm = export_strings__add(&p->str, "comm");
	m->k_cpu = export_strings__add(&p->str, "cpu");
	return m->k_pid < 0 || m->k_tid < 0 || m->k_comm < 0 || m->k_cpu < 0 ? -ENOMEM : 0;
}

/* The labels of the samples of one thread, comm and cpu: shared by them
 * (the encoder only reads them). */
struct pp_label_set {
	int32_t pid, tid, cpu;
	uint32_t comm;
	Perftools__Profiles__Label l[4];
	Perftools__Profiles__Label *lp[4];
};

/*
 * A piece of the Profile message, built and packed on its own: its
 * samples [from, to), and the other fields when first (sample_type) or
 * last (everything after the samples). protobuf-c writes the fields in
 * field-number order and leaves out zero proto3 scalars and empty
 * repeated fields, so the pieces' encodings, concatenated in order, are
 * the whole message's, byte for byte.
 */
struct pp_part {
	Perftools__Profiles__Profile prof;
	struct pprof *p;
	const struct pp_msgs *m;
	uint32_t from, to;
	bool first, last;
	Perftools__Profiles__Sample *samples, **samples_p;
	int64_t *values;
	struct pp_label_set **sets;
	uint32_t nr_sets, alloc_sets;
	struct export_index set_index;
	const struct pp_sample *key;	/* the sample looked up */
	uint8_t *buf;			/* the encoding (owned) */
	size_t len;
	int err;
};

static bool set_eq(void *arg, uint32_t idx)
{
	struct pp_part *pt = arg;
	const struct pp_label_set *a = pt->sets[idx];

	return a->pid == pt->key->pid && a->tid == pt->key->tid && a->cpu == pt->key->cpu &&
	       a->comm == pt->key->comm;
}

/* The label set of sample s; NULL on ENOMEM. */
static struct pp_label_set *pp_label_set(struct pp_part *pt, const struct pp_sample *s)
{
	const struct pp_msgs *m = pt->m;
	struct pp_label_set *ls;
	int32_t h[4] = { s->pid, s->tid, s->cpu, (int32_t)s->comm };
	uint32_t idx;
	int ret;

	if (export__grow(&pt->sets, &pt->alloc_sets, pt->nr_sets, sizeof(*pt->sets)))
		return NULL;
	pt->key = s;
	ret = export_index__lookup(&pt->set_index, (uint32_t)export__hash(h, sizeof(h), 5), set_eq, pt,
				   pt->nr_sets, &idx);
	if (ret < 0)
		return NULL;
	if (ret == 1)
		return pt->sets[idx];
	ls = calloc(1, sizeof(*ls));
	if (!ls)
		return NULL;
	ls->pid = s->pid, ls->tid = s->tid, ls->cpu = s->cpu, ls->comm = s->comm;
	for (int k = 0; k < 4; k++) {
		perftools__profiles__label__init(&ls->l[k]);
		ls->lp[k] = &ls->l[k];
	}
	ls->l[0].key = m->k_pid, ls->l[0].num = s->pid;
	ls->l[1].key = m->k_tid, ls->l[1].num = s->tid;
	ls->l[2].key = m->k_comm, ls->l[2].str = s->comm;
	ls->l[3].key = m->k_cpu, ls->l[3].num = s->cpu;
	pt->sets[pt->nr_sets++] = ls;
	return ls;
}

static int pp_part_samples(struct pp_part *pt)
{
	const struct pprof *p = pt->p;
	size_t nt = pt->m->prof.n_sample_type, n = pt->to - pt->from;

	pt->samples = calloc(n + 1, sizeof(*pt->samples));
	pt->samples_p = calloc(n + 1, sizeof(*pt->samples_p));
	pt->values = calloc(nt * n + 1, sizeof(*pt->values));
	if (!pt->samples || !pt->samples_p || !pt->values)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct pp_sample *s = &p->samples[pt->from + i];
		Perftools__Profiles__Sample *o = &pt->samples[i];
		struct pp_label_set *ls = pp_label_set(pt, s);
		int col = pt->m->col[s->ev];

		if (!ls)
			return -ENOMEM;
		perftools__profiles__sample__init(o);
		o->n_location_id = s->nr_locs;
		o->location_id = &p->pool[s->loc_off];
		o->n_value = nt;
		o->value = &pt->values[i * nt];
		o->value[col] = s->count;
		o->value[col + 1] = s->value;
		o->label = ls->lp;
		o->n_label = s->cpu < 0 ? 3 : 4;
		pt->samples_p[i] = o;
	}
	pt->prof.n_sample = n;
	pt->prof.sample = pt->samples_p;
	return 0;
}

/* Build and pack the piece; pt->err set. */
static void *pp_part_pack(void *arg)
{
	struct pp_part *pt = arg;
	const Perftools__Profiles__Profile *all = &pt->m->prof;

	perftools__profiles__profile__init(&pt->prof);
	if (pt->first) {
		pt->prof.n_sample_type = all->n_sample_type;
		pt->prof.sample_type = all->sample_type;
	}
	if (pt->last) {
		Perftools__Profiles__ValueType **st = pt->prof.sample_type;
		size_t nst = pt->prof.n_sample_type;

		pt->prof = *all;	/* the tables and scalars */
		pt->prof.n_sample_type = nst;
		pt->prof.sample_type = st;
	}
	pt->err = pp_part_samples(pt);
	if (pt->err)
		return NULL;
	pt->len = protobuf_c_message_get_packed_size(&pt->prof.base);
	pt->buf = malloc(pt->len + 1);
	if (!pt->buf) {
		pt->err = -ENOMEM;
		return NULL;
	}
	protobuf_c_message_pack(&pt->prof.base, pt->buf);
	return NULL;
}

static void pp_part_free(struct pp_part *pt)
{
	for (uint32_t i = 0; i < pt->nr_sets; i++)
		free(pt->sets[i]);
	free(pt->sets);
	export_index__exit(&pt->set_index);
	free(pt->samples);
	free(pt->samples_p);
	free(pt->values);
	free(pt->buf);
}

static int pp_tables(struct pprof *p, struct pp_msgs *m);

/*
 * Pack the whole message m->prof (its sample types, strings and scalars
 * set) into *buf (owned by the caller), *len bytes: in two pieces on two
 * threads when there are, the first with the sample types and about half
 * of the work's samples, the second with the rest and the tables (made
 * meanwhile, pp_tables()). 0 or -ENOMEM.
 */
static int pp_pack(struct pprof *p, struct pp_msgs *m, uint8_t **buf, size_t *len)
{
	/* rough cost: a sample, its labels and location ids; a location,
	 * its lines; a function; a string */
	uint64_t w_s = 9ULL * p->nr_samples + p->nr_pool;
	uint64_t w_t = 3ULL * p->nr_locs + 2ULL * p->nr_lines + 3ULL * p->nr_funcs + p->str.nr;
	uint64_t k = p->nr_samples ? (w_s + w_t) / 2 * p->nr_samples / w_s : 0;
	struct pp_part pt[2];
	struct helper_thread thr;
	bool threaded = psort_threads() >= 2 && p->nr_samples >= 4096;
	int err;

	if (k > p->nr_samples || !threaded)
		k = p->nr_samples;
	memset(pt, 0, sizeof(pt));
	pt[0].p = pt[1].p = p;
	pt[0].m = pt[1].m = m;
	pt[0].first = true;
	pt[0].to = pt[1].from = (uint32_t)k;
	pt[1].to = p->nr_samples;
	pt[1].last = true;
	if (threaded && helper_thread__start(&thr, pp_part_pack, &pt[0]))
		threaded = false;
	if (!threaded)
		pp_part_pack(&pt[0]);
	err = pp_tables(p, m);
	if (!err)
		pp_part_pack(&pt[1]);
	if (threaded)
		helper_thread__join(&thr);
	if (!err)
		err = pt[0].err ? pt[0].err : pt[1].err;
	if (!err) {
		uint8_t *b = realloc(pt[0].buf, pt[0].len + pt[1].len + 1);

		if (!b) {
			err = -ENOMEM;
		} else {
			memcpy(b + pt[0].len, pt[1].buf, pt[1].len);
			*buf = b;
			*len = pt[0].len + pt[1].len;
			pt[0].buf = NULL;
		}
	}
	pp_part_free(&pt[0]);
	pp_part_free(&pt[1]);
	return err;
}

/* pprof takes the first mapping for the main binary: the index of the
 * first executable's mapping (not the kernel, a module or a .so), 0 when
 * none. Swapped with mapping 0 on output (pp_map_id()). */
static uint32_t pp_main_mapping(const struct pprof *p)
{
	for (uint32_t i = 0; i < p->nr_maps; i++) {
		const char *f = p->str.str[p->maps[i].file];
		const char *base = strrchr(f, '/');

		base = base ? base + 1 : f;
		if (f[0] == '/' && !strstr(base, ".so"))
			return i;
	}
	return 0;
}

static uint64_t pp_map_id(uint64_t id, uint32_t main)
{
	if (id == 1)
		return main + 1;
	return id == main + 1 ? 1 : id;
}

static int pp_tables(struct pprof *p, struct pp_msgs *m)
{
	uint32_t main = pp_main_mapping(p);

	m->maps = calloc(p->nr_maps + 1, sizeof(*m->maps));
	m->maps_p = calloc(p->nr_maps + 1, sizeof(*m->maps_p));
	m->locs = calloc(p->nr_locs + 1, sizeof(*m->locs));
	m->locs_p = calloc(p->nr_locs + 1, sizeof(*m->locs_p));
	m->lines = calloc(p->nr_lines + 1, sizeof(*m->lines));
	m->lines_p = calloc(p->nr_lines + 1, sizeof(*m->lines_p));
	m->funcs = calloc(p->nr_funcs + 1, sizeof(*m->funcs));
	m->funcs_p = calloc(p->nr_funcs + 1, sizeof(*m->funcs_p));
	if (!m->maps || !m->maps_p || !m->locs || !m->locs_p || !m->lines || !m->lines_p ||
	    !m->funcs || !m->funcs_p)
		return -ENOMEM;
	for (uint32_t i = 0; i < p->nr_maps; i++) {
		Perftools__Profiles__Mapping *o = &m->maps[i];
		const struct pp_mapping *s = &p->maps[i];

		perftools__profiles__mapping__init(o);
		o->id = pp_map_id(i + 1, main);
		o->memory_start = s->start;
		o->memory_limit = s->limit;
		o->file_offset = s->pgoff;
		o->filename = s->file;
		o->build_id = s->build_id;
		o->has_functions = s->funcs;
		o->has_filenames = s->files;
		o->has_line_numbers = s->lines;
		o->has_inline_frames = s->inlines;
		m->maps_p[pp_map_id(i + 1, main) - 1] = o;
	}
	for (uint32_t i = 0; i < p->nr_lines; i++) {
		perftools__profiles__line__init(&m->lines[i]);
		m->lines[i].function_id = p->lines[i].function;
		m->lines[i].line = p->lines[i].line;
		m->lines_p[i] = &m->lines[i];
	}
	for (uint32_t i = 0; i < p->nr_locs; i++) {
		Perftools__Profiles__Location *o = &m->locs[i];

		perftools__profiles__location__init(o);
		o->id = i + 1;
		o->mapping_id = p->locs[i].mapping ? pp_map_id(p->locs[i].mapping, main) : 0;
		o->address = p->locs[i].address;
		o->n_line = p->locs[i].nr_lines;
		o->line = &m->lines_p[p->locs[i].line_off];
		m->locs_p[i] = o;
	}
	for (uint32_t i = 0; i < p->nr_funcs; i++) {
		Perftools__Profiles__Function *o = &m->funcs[i];

		perftools__profiles__function__init(o);
		o->id = i + 1;
		o->name = p->funcs[i].name;
		o->system_name = p->funcs[i].name;
		o->filename = p->funcs[i].file;
		m->funcs_p[i] = o;
	}
	m->prof.n_mapping = p->nr_maps;
	m->prof.mapping = m->maps_p;
	m->prof.n_location = p->nr_locs;
	m->prof.location = m->locs_p;
	m->prof.n_function = p->nr_funcs;
	m->prof.function = m->funcs_p;
	return 0;
}

static int pprof_end(void *priv, struct perf_session *s)
{
	struct pprof *p = priv;
	struct pp_msgs m;
	int err;

	for (size_t i = 0; i < PP_CHAIN_MEMO; i++)
		pp_memo_flush(p, &p->memo[i]);
	memset(&m, 0, sizeof(m));
	perftools__profiles__profile__init(&m.prof);
	err = pp_types(p, &m);
	if (!err)
		err = pp_label_keys(p, &m);
	if (!err) {
		uint8_t *buf = NULL;
		size_t len = 0;

		m.prof.duration_nanos = (int64_t)(p->last_time - p->first_time);
		/* last: the steps above add strings (pp_tables() adds none) */
		m.prof.n_string_table = p->str.nr;
		m.prof.string_table = p->str.str;
		err = pp_pack(p, &m, &buf, &len);
		if (!err)
			err = pp_write(p->fp, buf, len);
		free(buf);
	}
	pp_msgs_free(&m);
	return err;
}

static void *pprof_new(FILE *fp, struct perf_session *s, struct resolve_opts *ropts)
{
	struct pprof *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fp = fp;
	p->s = s;
	if (export_strings__add(&p->str, "") != 0) {	/* string 0 is "" */
		free(p);
		return NULL;
	}
	memset(ropts, 0, sizeof(*ropts));
	ropts->max_stack = 1024;
	ropts->inline_frames = true;
	ropts->srcline = true;
	return p;
}

static void pprof_free(void *priv)
{
	struct pprof *p = priv;

	export_strings__exit(&p->str);
	export_index__exit(&p->map_index);
	free(p->loc_slots);
	export_index__exit(&p->func_index);
	export_index__exit(&p->sample_index);
	free(p->maps);
	free(p->locs);
	free(p->lines);
	free(p->funcs);
	free(p->samples);
	free(p->pool);
	free(p->events);
	free(p);
}

const struct export_format export_pprof = {
	.name = "pprof",
	.new = pprof_new,
	.sample = pprof_sample,
	.end = pprof_end,
	.barrier = pprof_barrier,
	.free = pprof_free,
};
