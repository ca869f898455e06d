// SPDX-License-Identifier: GPL-2.0
/* stat record layouts; see stat-event.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "stat-event.h"
#include "../kernel/cpumap.h"
#include "../kernel/thread_map.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)
#define COMM_LEN 16
/* perf sizes EVENT_UPDATE as its fixed part plus a 16-byte union; written
 * the same way, so the records match perf's byte for byte. */
#define UPDATE_TAIL 16

static int put_header(struct strbuf *sb, uint32_t type, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = (uint16_t)size };

	return strbuf_add(sb, &h, sizeof(h));
}

static int put_u64(struct strbuf *sb, uint64_t v)
{
	return strbuf_add(sb, &v, sizeof(v));
}

static int put_zeros(struct strbuf *sb, size_t n)
{
	static const char zeros[64];

	while (n) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);

		if (strbuf_add(sb, zeros, k))
			return -ENOMEM;
		n -= k;
	}
	return 0;
}

int stat_event__thread_map(struct strbuf *sb, struct perf_thread_map *threads)
{
	int nr = perf_thread_map__nr(threads);
	size_t size = sizeof(struct perf_event_header) + 8 + (size_t)nr * (8 + COMM_LEN);

	if (size > UINT16_MAX)
		return -E2BIG;
	if (put_header(sb, PERF_RECORD_THREAD_MAP, size) || put_u64(sb, (uint64_t)nr))
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		char comm[COMM_LEN] = "";
		const char *c = threads->map[i].comm;

		if (c)
			strncpy(comm, c, COMM_LEN - 1);
		if (put_u64(sb, (uint64_t)(int64_t)perf_thread_map__pid(threads, i)) ||
		    strbuf_add(sb, comm, COMM_LEN))
			return -ENOMEM;
	}
	return 0;
}

int stat_event__cpu_map(struct strbuf *sb, const struct perf_cpu_map *cpus)
{
	int nr = perf_cpu_map__nr(cpus);
	size_t body = 2 + 2 + 2 * (size_t)nr;
	size_t size = sizeof(struct perf_event_header) + ALIGN8(body);
	uint16_t v;

	if (size > UINT16_MAX)
		return -E2BIG;
	if (put_header(sb, PERF_RECORD_CPU_MAP, size))
		return -ENOMEM;
	v = 0;					/* type: list of cpus */
	if (strbuf_add(sb, &v, 2))
		return -ENOMEM;
	v = (uint16_t)nr;
	if (strbuf_add(sb, &v, 2))
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		v = (uint16_t)perf_cpu_map__cpu(cpus, i);	/* -1 -> 0xffff */
		if (strbuf_add(sb, &v, 2))
			return -ENOMEM;
	}
	return put_zeros(sb, ALIGN8(body) - body);
}

int stat_event__config(struct strbuf *sb, const struct stat_event_config *cfg)
{
	const uint64_t pairs[][2] = {
		{ STAT_CONFIG_AGGR_MODE, (uint64_t)cfg->aggr_mode },
		{ STAT_CONFIG_INTERVAL, cfg->interval },
		{ STAT_CONFIG_SCALE, cfg->scale },
	};

	if (put_header(sb, PERF_RECORD_STAT_CONFIG, sizeof(struct perf_event_header) + 8 +
		       sizeof(pairs)) ||
	    put_u64(sb, ARRAY_SIZE(pairs)) || strbuf_add(sb, pairs, sizeof(pairs)))
		return -ENOMEM;
	return 0;
}

int stat_event__stat(struct strbuf *sb, uint64_t id, int cpu, int thread, uint64_t val,
		     uint64_t ena, uint64_t run)
{
	struct perf_record_stat st = {
		.header = { .type = PERF_RECORD_STAT, .size = sizeof(st) },
		.id = id, .cpu = (uint32_t)cpu, .thread = (uint32_t)thread,
		.val = val, .ena = ena, .run = run,
	};

	return strbuf_add(sb, &st, sizeof(st));
}

int stat_event__round(struct strbuf *sb, uint64_t type, uint64_t time)
{
	struct perf_record_stat_round r = {
		.header = { .type = PERF_RECORD_STAT_ROUND, .size = sizeof(r) },
		.type = type, .time = time,
	};

	return strbuf_add(sb, &r, sizeof(r));
}

int stat_event__update_str(struct strbuf *sb, uint64_t type, uint64_t id, const char *s)
{
	size_t len = strlen(s) + 1, pad = ALIGN8(len) + UPDATE_TAIL;

	if (put_header(sb, PERF_RECORD_EVENT_UPDATE, sizeof(struct perf_event_header) + 16 + pad) ||
	    put_u64(sb, type) || put_u64(sb, id) || strbuf_add(sb, s, len) ||
	    put_zeros(sb, pad - len))
		return -ENOMEM;
	return 0;
}

int stat_event__update_scale(struct strbuf *sb, uint64_t id, double scale)
{
	if (put_header(sb, PERF_RECORD_EVENT_UPDATE, sizeof(struct perf_event_header) + 16 + 8 +
		       UPDATE_TAIL) ||
	    put_u64(sb, EVENT_UPDATE_SCALE) || put_u64(sb, id) || strbuf_add(sb, &scale, 8) ||
	    put_zeros(sb, UPDATE_TAIL))
		return -ENOMEM;
	return 0;
}

int stat_event__update_cpus(struct strbuf *sb, uint64_t id, const int *cpus, int nr)
{
	size_t body = 2 + 2 + 2 * (size_t)nr;
	uint16_t v[2] = { 0 /* list */, (uint16_t)nr };

	if (put_header(sb, PERF_RECORD_EVENT_UPDATE, sizeof(struct perf_event_header) + 16 +
		       ALIGN8(body)) ||
	    put_u64(sb, EVENT_UPDATE_CPUS) || put_u64(sb, id) || strbuf_add(sb, v, sizeof(v)))
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		uint16_t c = (uint16_t)cpus[i];

		if (strbuf_add(sb, &c, 2))
			return -ENOMEM;
	}
	return put_zeros(sb, ALIGN8(body) - body);
}

/* ---- parsers ---- */

static uint64_t get_u64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t get_u16(const char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int stat_event__parse_thread_map(const union perf_event *ev, struct perf_thread_map **threadsp)
{
	const char *p = (const char *)ev + sizeof(ev->header);
	size_t avail = ev->header.size - sizeof(ev->header);
	struct perf_thread_map *m;
	uint64_t nr;

	if (ev->header.size < sizeof(ev->header) + 8)
		return -EINVAL;
	nr = get_u64(p);
	if (!nr || nr > (avail - 8) / (8 + COMM_LEN))
		return -EINVAL;
	m = zalloc(sizeof(*m) + nr * sizeof(m->map[0]));
	if (!m)
		return -ENOMEM;
	m->refcnt = 1;
	m->nr = (int)nr;
	for (uint64_t i = 0; i < nr; i++) {
		const char *e = p + 8 + i * (8 + COMM_LEN);

		m->map[i].pid = (pid_t)(int64_t)get_u64(e);
		m->map[i].comm = strndup(e + 8, COMM_LEN);
		if (!m->map[i].comm) {
			perf_thread_map__put(m);
			return -ENOMEM;
		}
	}
	*threadsp = m;
	return 0;
}

static struct perf_cpu_map *cpu_map__of(int nr)
{
	struct perf_cpu_map *m = malloc(sizeof(*m) + sizeof(int) * (size_t)(nr ? nr : 1));

	if (m) {
		m->refcnt = 1;
		m->nr = 0;
	}
	return m;
}

/* Bits of nr words of word_size bytes at p, each set bit a cpu. */
static struct perf_cpu_map *cpu_map__of_mask(const char *p, int nr, int word_size)
{
	struct perf_cpu_map *m = cpu_map__of(nr * word_size * 8);

	if (!m)
		return NULL;
	for (int w = 0; w < nr; w++) {
		uint64_t bits = word_size == 8 ? get_u64(p + 8 * w) : 0;

		if (word_size == 4) {
			uint32_t b32;

			memcpy(&b32, p + 4 * w, 4);
			bits = b32;
		}
		for (int b = 0; b < word_size * 8; b++)
			if (bits & (1ULL << b))
				m->map[m->nr++] = w * word_size * 8 + b;
	}
	return m;
}

int stat_event__parse_cpu_map(const union perf_event *ev, struct perf_cpu_map **cpusp)
{
	const char *p = (const char *)ev + sizeof(ev->header);
	size_t avail = ev->header.size - sizeof(ev->header);
	struct perf_cpu_map *m = NULL;
	uint16_t type, nr;

	if (ev->header.size < sizeof(ev->header) + 8)
		return -EINVAL;
	type = get_u16(p);
	nr = get_u16(p + 2);
	switch (type) {
	case 0:		/* list: u16 nr, u16 cpu[nr] */
		if (4 + 2 * (size_t)nr > avail)
			return -EINVAL;
		m = cpu_map__of(nr);
		if (!m)
			return -ENOMEM;
		for (int i = 0; i < nr; i++)
			m->map[m->nr++] = (int16_t)get_u16(p + 4 + 2 * i);
		break;
	case 1: {	/* mask: u16 nr, u16 long_size, words (64-bit after 4 bytes of padding) */
		uint16_t ws = get_u16(p + 4);
		size_t off = ws == 8 ? 10 : 6;

		if ((ws != 4 && ws != 8) || off + (size_t)nr * ws > avail)
			return -EINVAL;
		m = cpu_map__of_mask(p + off, nr, ws);
		if (!m)
			return -ENOMEM;
		break;
	}
	case 2: {	/* range: u8 any_cpu, u8 pad, u16 start, u16 end */
		int any = (unsigned char)p[2], start = get_u16(p + 4), end = get_u16(p + 6);

		if (end < start)
			return -EINVAL;
		m = cpu_map__of(end - start + 1 + any);
		if (!m)
			return -ENOMEM;
		if (any)
			m->map[m->nr++] = -1;
		for (int c = start; c <= end; c++)
			m->map[m->nr++] = c;
		break;
	}
	default:
		return -EINVAL;
	}
	*cpusp = m;
	return 0;
}

int stat_event__parse_config(const union perf_event *ev, struct stat_event_config *cfg)
{
	const char *p = (const char *)ev + sizeof(ev->header);
	size_t avail = ev->header.size - sizeof(ev->header);
	uint64_t nr;

	if (ev->header.size < sizeof(ev->header) + 8)
		return -EINVAL;
	nr = get_u64(p);
	if (nr > (avail - 8) / 16)
		return -EINVAL;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t tag = get_u64(p + 8 + 16 * i), val = get_u64(p + 16 + 16 * i);

		if (tag == STAT_CONFIG_AGGR_MODE)
			cfg->aggr_mode = (int)val;
		else if (tag == STAT_CONFIG_INTERVAL)
			cfg->interval = val;
		else if (tag == STAT_CONFIG_SCALE)
			cfg->scale = val != 0;
	}
	return 0;
}

const struct perf_record_stat *stat_event__parse_stat(const union perf_event *ev)
{
	return ev->header.size >= sizeof(struct perf_record_stat) ?
	       (const struct perf_record_stat *)ev : NULL;
}

const struct perf_record_stat_round *stat_event__parse_round(const union perf_event *ev)
{
	return ev->header.size >= sizeof(struct perf_record_stat_round) ?
	       (const struct perf_record_stat_round *)ev : NULL;
}
