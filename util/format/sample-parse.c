// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of PERF_RECORD_SAMPLE and of the sample_id trailer of side-band
 * records, following perf_event_open(2), "PERF_RECORD_SAMPLE" and
 * "sample_id_all". Every length is checked against the record size.
 */
#include <errno.h>
#include <string.h>
#include "data-internal.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"

#define ID_TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static size_t id_hdr_size(uint64_t type)
{
	return 8u * (size_t)__builtin_popcountll(type & ID_TRAILER_BITS);
}

/* Swap the two u32 halves of the u64 at p (fix-up after a u64 swap). */
static void swap_halves(void *p)
{
	uint32_t v[2], t;

	memcpy(v, p, 8);
	t = v[0]; v[0] = v[1]; v[1] = t;
	memcpy(p, v, 8);
}

static void sample_init(struct perf_sample *s, union perf_event *event, struct evsel *evsel)
{
	memzero_call(s, sizeof(*s));	/* per record: no rep stos (util.h) */
	s->pid = s->tid = (u32)-1;
	s->cpu = (u32)-1;
	s->time = ~0ULL;
	s->id = ~0ULL;	/* perf: -1 when absent */
	s->misc = event->header.misc;
	s->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->evsel = evsel;
	s->period = evsel ? evsel->attr.sample_period : 1;
}

static int parse_id_trailer(struct evsel *evsel, union perf_event *event, struct perf_sample *s,
			    bool fix_swap)
{
	uint64_t type = evsel->attr.sample_type;
	size_t sz = event->header.size, n = id_hdr_size(type);
	char *end = (char *)event + sz;
	char *p;

	if (!evsel->attr.sample_id_all || !n)
		return 0;
	if (n > sz - sizeof(struct perf_event_header))
		return -EFAULT;
	p = end - 8;
	if (type & PERF_SAMPLE_IDENTIFIER) {
		memcpy(&s->id, p, 8);
		p -= 8;
	}
	if (type & PERF_SAMPLE_CPU) {
		if (fix_swap)
			swap_halves(p);
		memcpy(&s->cpu, p, 4);
		p -= 8;
	}
	if (type & PERF_SAMPLE_STREAM_ID) {
		memcpy(&s->stream_id, p, 8);
		p -= 8;
	}
	if (type & PERF_SAMPLE_ID) {
		memcpy(&s->id, p, 8);
		p -= 8;
	}
	if (type & PERF_SAMPLE_TIME) {
		memcpy(&s->time, p, 8);
		p -= 8;
	}
	if (type & PERF_SAMPLE_TID) {
		if (fix_swap)
			swap_halves(p);
		memcpy(&s->pid, p, 4);
		memcpy(&s->tid, p + 4, 4);
	}
	return 0;
}

#define NEED(n) do { if ((uint64_t)(end - p) < (uint64_t)(n)) return -EFAULT; } while (0)
#define GET64(dst) do { NEED(8); memcpy(&(dst), p, 8); p += 8; } while (0)

/* the sample_type bits of the fields after the callchain */
#define AFTER_CALLCHAIN_BITS (PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
			      PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | \
			      PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
			      PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | \
			      PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)

static int regs_weight(uint64_t mask)
{
	return __builtin_popcountll(mask);
}

static int parse_sample(struct evsel *evsel, union perf_event *event, struct perf_sample *s,
			bool fix_swap)
{
	const struct perf_event_attr *attr = &evsel->attr;
	uint64_t type = attr->sample_type;
	char *p, *end;
	uint64_t v;

	sample_init(s, event, evsel);
	if (event->header.size < sizeof(struct perf_event_header))
		return -EFAULT;
	if (event->header.type != PERF_RECORD_SAMPLE) {
		if (event->header.type == PERF_RECORD_FORK || event->header.type == PERF_RECORD_EXIT) {
			if (event->header.size >= sizeof(struct perf_record_fork))
				s->time = event->fork.time;
		}
		return parse_id_trailer(evsel, event, s, fix_swap);
	}
	p = (char *)event->sample.array;
	end = (char *)event + event->header.size;

	if (type & PERF_SAMPLE_IDENTIFIER)
		GET64(s->id);
	if (type & PERF_SAMPLE_IP)
		GET64(s->ip);
	if (type & PERF_SAMPLE_TID) {
		NEED(8);
		if (fix_swap)
			swap_halves(p);
		memcpy(&s->pid, p, 4);
		memcpy(&s->tid, p + 4, 4);
		p += 8;
	}
	if (type & PERF_SAMPLE_TIME)
		GET64(s->time);
	if (type & PERF_SAMPLE_ADDR)
		GET64(s->addr);
	if (type & PERF_SAMPLE_ID)
		GET64(s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		GET64(s->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		NEED(8);
		if (fix_swap)
			swap_halves(p);
		memcpy(&s->cpu, p, 4);
		p += 8;
	}
	if (type & PERF_SAMPLE_PERIOD)
		GET64(s->period);
	if (type & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format, nr = 1, per, hdr = 0;
		char *start = p;

		per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		if (rf & PERF_FORMAT_GROUP) {
			GET64(nr);
			hdr = 1;
		}
		hdr += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		if (nr > (uint64_t)(end - p) / 8 / per)
			return -EFAULT;
		v = (hdr - !!(rf & PERF_FORMAT_GROUP) + nr * per) * 8;
		NEED(v);
		p += v;
		s->read_data = start;
		s->read_size = (u32)(p - start);
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr;

		NEED(8);
		memcpy(&nr, p, 8);
		if (nr > (uint64_t)(end - p - 8) / 8)
			return -EFAULT;
		s->callchain = (const struct ip_callchain *)p;
		p += 8 + nr * 8;
	}
	/* the common case (ip, tid, time, cpu, period, callchain): done */
	if (!(type & AFTER_CALLCHAIN_BITS))
		return 0;
	if (type & PERF_SAMPLE_RAW) {
		uint32_t rs;

		NEED(8);
		if (fix_swap)
			swap_halves(p);
		memcpy(&rs, p, 4);
		if (rs > (uint64_t)(end - p) - 4)
			return -EFAULT;
		s->raw_size = rs;
		s->raw_data = p + 4;
		v = PERF_ALIGN(4 + (uint64_t)rs, (uint64_t)8);
		NEED(v);
		p += v;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr, hw = !!(attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX);

		NEED(8);
		memcpy(&nr, p, 8);
		if (nr > (uint64_t)(end - p - 8 - hw * 8) / 24 || (uint64_t)(end - p) < 8 + hw * 8)
			return -EFAULT;
		s->branch_stack = (const struct branch_stack *)p;
		p += 8 + hw * 8 + nr * 24;
	}
	if (type & PERF_SAMPLE_REGS_USER) {
		GET64(s->user_regs.abi);
		if (s->user_regs.abi) {
			s->user_regs.mask = attr->sample_regs_user;
			v = (uint64_t)regs_weight(attr->sample_regs_user) * 8;
			NEED(v);
			s->user_regs.regs = (const u64 *)p;
			p += v;
		}
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		uint64_t size;

		GET64(size);
		if (size) {
			if (size > (uint64_t)(end - p))
				return -EFAULT;
			s->user_stack.data = p;
			s->user_stack.size = size;
			p += size;
			GET64(s->user_stack.dyn_size);
			if (s->user_stack.dyn_size > size)
				s->user_stack.dyn_size = size;
		}
	}
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		GET64(v);
		s->weight = (type & PERF_SAMPLE_WEIGHT) ? v : (v & 0xffffffffu);
		/* the struct's var2_w: the instruction latency */
		s->ins_lat = (type & PERF_SAMPLE_WEIGHT) ? 0 : (uint16_t)(v >> 32);
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		GET64(s->data_src);
	if (type & PERF_SAMPLE_TRANSACTION)
		GET64(s->transaction);
	if (type & PERF_SAMPLE_REGS_INTR) {
		GET64(s->intr_regs.abi);
		if (s->intr_regs.abi) {
			s->intr_regs.mask = attr->sample_regs_intr;
			v = (uint64_t)regs_weight(attr->sample_regs_intr) * 8;
			NEED(v);
			s->intr_regs.regs = (const u64 *)p;
			p += v;
		}
	}
	if (type & PERF_SAMPLE_PHYS_ADDR)
		GET64(s->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		GET64(s->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		GET64(s->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		GET64(s->code_page_size);
	if (type & PERF_SAMPLE_AUX) {
		GET64(v);
		if (v > (uint64_t)(end - p))
			return -EFAULT;
		p += v;
	}
	return 0;
}

int evsel__parse_sample(struct evsel *evsel, union perf_event *event, struct perf_sample *sample)
{
	return parse_sample(evsel, event, sample, false);
}

int perf_event__parse_id_sample(struct evsel *evsel, union perf_event *event,
				struct perf_sample *sample, bool swapped)
{
	return parse_sample(evsel, event, sample, swapped);
}

uint32_t perf_event__sample_cpu(const struct evsel *evsel, const union perf_event *event,
				bool swapped)
{
	uint64_t type = evsel->attr.sample_type;
	/* the fields before PERF_SAMPLE_CPU, a u64 each, counted in place
	 * (__builtin_popcountll is a libgcc call without -mpopcnt) */
	uint64_t x = type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			     PERF_SAMPLE_STREAM_ID);
	size_t off;
	uint32_t v[2];

	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	off = sizeof(struct perf_event_header) + 8u * (size_t)((x * 0x0101010101010101ULL) >> 56);

	if (!(type & PERF_SAMPLE_CPU) || off + 8 > event->header.size)
		return (uint32_t)-1;
	memcpy(v, (const char *)event + off, 8);
	return swapped ? v[1] : v[0];
}

/* ---- id -> evsel ---- */

static size_t id_hash(uint64_t id, size_t cap)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

static int id_table_grow(struct reader_priv *rp)
{
	size_t cap = rp->id_cap ? rp->id_cap * 2 : 64, i;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	struct evsel **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (i = 0; i < rp->id_cap; i++) {
		size_t h;

		if (!rp->id_vals[i])
			continue;
		h = id_hash(rp->id_keys[i], cap);
		while (vals[h])
			h = (h + 1) & (cap - 1);
		keys[h] = rp->id_keys[i];
		vals[h] = rp->id_vals[i];
	}
	free(rp->id_keys);
	free(rp->id_vals);
	rp->id_keys = keys;
	rp->id_vals = vals;
	rp->id_cap = cap;
	return 0;
}

int perf_data__id_add(struct perf_data *d, uint64_t id, struct evsel *evsel)
{
	struct reader_priv *rp = data__rp(d);
	size_t h;

	if ((rp->id_nr + 1) * 2 > rp->id_cap && id_table_grow(rp))
		return -ENOMEM;
	h = id_hash(id, rp->id_cap);
	while (rp->id_vals[h]) {
		if (rp->id_keys[h] == id) {
			rp->id_vals[h] = evsel;
			return 0;
		}
		h = (h + 1) & (rp->id_cap - 1);
	}
	rp->id_keys[h] = id;
	rp->id_vals[h] = evsel;
	rp->id_nr++;
	return 0;
}

struct evsel *perf_data__id2evsel(struct perf_data *d, uint64_t id)
{
	struct reader_priv *rp = data__rp(d);
	size_t h;

	if (!rp->id_cap)
		return NULL;
	h = id_hash(id, rp->id_cap);
	while (rp->id_vals[h]) {
		if (rp->id_keys[h] == id)
			return rp->id_vals[h];
		h = (h + 1) & (rp->id_cap - 1);
	}
	return NULL;
}

void perf_data__update_sample_layout(struct perf_data *d)
{
	struct reader_priv *rp = data__rp(d);
	struct evsel *first;
	uint64_t t;

	rp->id_pos = rp->is_pos = -1;
	rp->id_hdr_size = 0;
	rp->sample_id_all = false;
	if (!d->evlist || list_empty(&d->evlist->entries))
		return;
	first = evlist__first(d->evlist);
	t = first->attr.sample_type;
	rp->sample_type = t;
	rp->sample_id_all = first->attr.sample_id_all;
	rp->id_hdr_size = rp->sample_id_all ? id_hdr_size(t) : 0;
	if (t & PERF_SAMPLE_IDENTIFIER) {
		rp->id_pos = 0;
		rp->is_pos = 1;
	} else if (t & PERF_SAMPLE_ID) {
		rp->id_pos = !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			     !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
		rp->is_pos = 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
	}
}

struct evsel *perf_data__event_evsel(struct perf_data *d, union perf_event *event)
{
	struct reader_priv *rp = data__rp(d);
	uint64_t id;
	struct evsel *e;

	if (!d->evlist || list_empty(&d->evlist->entries))
		return NULL;
	if (d->evlist->nr_entries == 1)
		return evlist__first(d->evlist);
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if (rp->id_pos < 0)
			return evlist__first(d->evlist);
		if (sizeof(struct perf_event_header) + 8u * (unsigned)(rp->id_pos + 1) > event->header.size)
			return NULL;
		memcpy(&id, (char *)event->sample.array + 8 * rp->id_pos, 8);
	} else {
		if (!rp->sample_id_all || rp->is_pos < 0)
			return evlist__first(d->evlist);
		if (sizeof(struct perf_event_header) + 8u * (unsigned)rp->is_pos > event->header.size)
			return NULL;
		memcpy(&id, (char *)event + event->header.size - 8 * rp->is_pos, 8);
	}
	/* perf: synthesized records carry a zeroed id; parse with the first evsel */
	if (!id)
		return evlist__first(d->evlist);
	e = perf_data__id2evsel(d, id);
	return e;
}

uint64_t perf_data__event_time(struct perf_data *d, union perf_event *event)
{
	struct evsel *e = perf_data__event_evsel(d, event);
	uint64_t t, ts = ~0ULL;
	unsigned int idx;

	if (!e)
		return ~0ULL;
	t = e->attr.sample_type;
	if (!(t & PERF_SAMPLE_TIME))
		return ~0ULL;
	if (event->header.type == PERF_RECORD_SAMPLE) {
		idx = !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID);
		if (sizeof(struct perf_event_header) + 8u * (idx + 1) > event->header.size)
			return ~0ULL;
		memcpy(&ts, (char *)event->sample.array + 8 * idx, 8);
		return ts;
	}
	if (!e->attr.sample_id_all)
		return ~0ULL;
	idx = 1 + !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_CPU) +
	      !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_ID);
	if (sizeof(struct perf_event_header) + 8u * idx > event->header.size)
		return ~0ULL;
	memcpy(&ts, (char *)event + event->header.size - 8 * idx, 8);
	return ts;
}
