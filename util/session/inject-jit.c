// SPDX-License-Identifier: GPL-2.0
/* inject --jit: jitdump files to ELF images and MMAP2 records; see inject-jit.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "inject-jit.h"
#include "../format/data.h"
#include "../format/synthesize.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../model/jit-elf.h"
#include "../model/jitdump.h"

/* One MMAP2 record waiting for its time. */
struct jit_pending {
	uint64_t time;
	size_t order;
	void *rec;
};

struct inject_jit {
	inject_emit_fn emit;
	void *ctx;
	struct jit_pending *q;	/* sorted by time once a dump is done */
	size_t nr, head, alloc;
};

/* What converting one dump needs. */
struct jit_conv {
	struct inject_jit *jit;
	const union perf_event *mmap;	/* the dump's mapping record */
	size_t trailer;			/* bytes of its sample_id */
	long time_at;			/* offset of the time in it, -1 none */
	char dir[4096];			/* the dump's folder */
	const struct jitdump_header *hdr;	/* filled before the first record */
	const struct jitdump_rec *debug;	/* the last CODE_DEBUG_INFO */
	struct jitdump_rec debug_copy;
	int nr_images;
	int err;
};

struct inject_jit *inject_jit__new(inject_emit_fn emit, void *ctx)
{
	struct inject_jit *jit = calloc(1, sizeof(*jit));

	if (jit) {
		jit->emit = emit;
		jit->ctx = ctx;
	}
	return jit;
}

void inject_jit__delete(struct inject_jit *jit)
{
	if (!jit)
		return;
	for (size_t i = jit->head; i < jit->nr; i++)
		free(jit->q[i].rec);
	free(jit->q);
	free(jit);
}

static int by_time(const void *a, const void *b)
{
	const struct jit_pending *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int inject_jit__flush(struct inject_jit *jit, uint64_t time)
{
	while (jit->head < jit->nr && jit->q[jit->head].time <= time) {
		struct jit_pending *p = &jit->q[jit->head++];
		const struct perf_event_header *h = p->rec;
		int err = jit->emit(jit->ctx, p->rec, h->size);

		free(p->rec);
		p->rec = NULL;
		if (err)
			return err;
	}
	if (jit->head == jit->nr)
		jit->head = jit->nr = 0;
	return 0;
}

static int jit__queue(struct inject_jit *jit, void *rec, uint64_t time)
{
	if (jit->nr == jit->alloc) {
		size_t n = jit->alloc ? jit->alloc * 2 : 256;
		struct jit_pending *q = realloc(jit->q, n * sizeof(*q));

		if (!q)
			return -ENOMEM;
		jit->q = q;
		jit->alloc = n;
	}
	jit->q[jit->nr] = (struct jit_pending){ time, jit->nr, rec };
	jit->nr++;
	return 0;
}

/* Queue an MMAP2 of path at [addr, addr+len) for the load at time. */
static int jit_conv__mmap2(struct jit_conv *c, const char *path, uint32_t tid, uint64_t addr,
			   uint64_t len, uint64_t time)
{
	size_t name = strlen(path) + 1, body = PERF_ALIGN(offsetof(struct perf_record_mmap2, filename) + name,
							  (size_t)8);
	size_t size = body + c->trailer;
	union perf_event *ev;

	if (size > 65535)
		return 0;	/* a path too long for a record: that load stays unnamed */
	ev = calloc(1, size);
	if (!ev)
		return -ENOMEM;
	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_USER;
	ev->header.size = (uint16_t)size;
	ev->mmap2.pid = c->mmap->header.type == PERF_RECORD_MMAP2 ? c->mmap->mmap2.pid : c->mmap->mmap.pid;
	ev->mmap2.tid = tid;
	ev->mmap2.start = addr;
	ev->mmap2.len = len;
	ev->mmap2.pgoff = JIT_ELF_TEXT_OFFSET;
	ev->mmap2.prot = PROT_READ | PROT_EXEC;
	ev->mmap2.flags = MAP_PRIVATE;
	memcpy(ev->mmap2.filename, path, name);
	if (c->trailer) {
		memcpy((char *)ev + body, (const char *)c->mmap + c->mmap->header.size - c->trailer,
		       c->trailer);
		if (c->time_at >= 0)
			memcpy((char *)ev + body + c->time_at, &time, 8);
	}
	if (jit__queue(c->jit, ev, time)) {
		free(ev);
		return -ENOMEM;
	}
	return 0;
}

/* The line entries of the CODE_DEBUG_INFO record for code at addr, if any. */
static struct jitdump_line *jit_conv__lines(struct jit_conv *c, uint64_t addr, size_t *nr)
{
	const struct jitdump_rec *d = c->debug;
	struct jitdump_line *v;
	const uint8_t *pos;
	const char *prev = NULL;

	*nr = 0;
	if (!d || d->code_addr != addr || !d->nr_lines)
		return NULL;
	v = calloc((size_t)d->nr_lines, sizeof(*v));
	if (!v)
		return NULL;
	pos = d->lines;
	while (*nr < d->nr_lines && jitdump__next_line(d, &pos, prev, &v[*nr]) == 1)
		prev = v[(*nr)++].file;
	return v;
}

static int jit_conv__rec(void *arg, const struct jitdump_rec *r)
{
	struct jit_conv *c = arg;
	char path[4200];
	int n;

	if (r->id == JITDUMP_CODE_DEBUG_INFO) {
		c->debug_copy = *r;
		c->debug = &c->debug_copy;
		return 0;
	}
	if ((r->id != JITDUMP_CODE_LOAD && r->id != JITDUMP_CODE_MOVE) || !r->code_size)
		return 0;
	n = snprintf(path, sizeof(path), "%s/jitted-%u-%llu.so", c->dir, c->hdr->pid,
		     (unsigned long long)r->code_index);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	if (r->id == JITDUMP_CODE_LOAD) {
		struct jit_elf_fn fn = {
			.name = r->name, .e_machine = (uint16_t)c->hdr->elf_mach, .code_addr = r->code_addr,
			.code = r->code, .code_size = r->code_size,
		};
		uint8_t bid[20];
		int err;

		fn.lines = jit_conv__lines(c, r->code_addr, &fn.nr_lines);
		err = jit_elf__write(path, &fn, bid);
		free((void *)fn.lines);
		c->debug = NULL;
		if (err) {
			pr_warning("Warning: %s: %s\n", path, strerror(-err));
			return err == -ENOMEM ? err : 0;
		}
		c->nr_images++;
	}
	return jit_conv__mmap2(c, path, r->tid, r->code_addr, r->code_size, r->timestamp);
}

/* Where the time lies in the sample_id trailer of ev's event, -1 if none. */
static void jit_conv__trailer(struct jit_conv *c, struct perf_data *d)
{
	struct evsel *evsel = perf_data__event_evsel(d, (union perf_event *)c->mmap);
	uint64_t st;

	c->trailer = 0;
	c->time_at = -1;
	if (!evsel || !evsel->attr.sample_id_all)
		return;
	st = evsel->attr.sample_type;
	c->trailer = synthesize__id_hdr_size(st);
	if (c->trailer > c->mmap->header.size)
		c->trailer = 0;
	else if (st & PERF_SAMPLE_TIME)
		c->time_at = (st & PERF_SAMPLE_TID) ? 8 : 0;
}

int inject_jit__mmap(struct inject_jit *jit, const union perf_event *ev, struct perf_data *d)
{
	const char *name = ev->header.type == PERF_RECORD_MMAP2 ? ev->mmap2.filename : ev->mmap.filename;
	size_t max = ev->header.size - (size_t)(name - (const char *)ev);
	struct jit_conv c = { .jit = jit, .mmap = ev };
	struct jitdump_header h;
	char path[4096];
	size_t size, first = jit->nr;
	void *buf;
	char *slash;
	int pid, err;

	if (!memchr(name, '\0', max) || !jitdump__is_dump_name(name, &pid))
		return 1;
	err = jitdump__find(name, pid, path, sizeof(path));
	if (!err)
		err = jitdump__map(path, &buf, &size);
	if (err) {
		pr_warning("Warning: jitdump %s: %s\n", name, strerror(-err));
		return 1;
	}
	snprintf(c.dir, sizeof(c.dir), "%s", path);
	slash = strrchr(c.dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(c.dir, ".");
	jit_conv__trailer(&c, d);
	memset(&h, 0, sizeof(h));
	c.hdr = &h;
	err = jitdump__walk(buf, size, &h, jit_conv__rec, &c);
	jitdump__unmap(buf, size);
	if (err == -ENOMEM)
		return err;
	if (err)
		pr_warning("Warning: jitdump %s: damaged after %d functions\n", path, c.nr_images);
	pr_debug("jitdump %s: %d images\n", path, c.nr_images);
	if (jit->nr > first)
		qsort(jit->q + jit->head, jit->nr - jit->head, sizeof(*jit->q), by_time);
	return 0;
}
