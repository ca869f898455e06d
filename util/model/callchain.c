// SPDX-License-Identifier: GPL-2.0
/*
 * The resolver: a sample's PERF_SAMPLE_CALLCHAIN (perf_event_open(2):
 * "an array of instruction pointers", PERF_CONTEXT_* values >= 
 * PERF_CONTEXT_MAX mark where kernel/user/hypervisor/guest parts start) or
 * the DWARF-unwound user stack, each frame resolved to map + symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "callchain.h"
#include "unwind.h"
#include "thread.h"
#include "map.h"
#include "dso.h"
#include "debuginfo.h"
#include "inline-sym.h"
#include "../kernel/evsel.h"
#include "../lib/util.h"

#define DEFAULT_MAX_STACK 127

void callchain_cursor__init(struct callchain_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

void callchain_cursor__exit(struct callchain_cursor *c)
{
	zfree(&c->frames);
	c->nr = c->alloc = 0;
}

int callchain_cursor__append(struct callchain_cursor *c, const struct callchain_frame *f)
{
	if (unlikely(c->nr == c->alloc)) {
		unsigned int alloc = c->alloc ? c->alloc * 2 : 64;
		struct callchain_frame *n = realloc(c->frames, alloc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->frames = n;
		c->alloc = alloc;
	}
	c->frames[c->nr++] = *f;
	return 0;
}

static int cursor__add_ip(struct callchain_cursor *c, struct thread *thread, uint8_t cpumode,
			  uint64_t ip, const struct resolve_opts *opts)
{
	struct addr_location al;
	struct callchain_frame f;

	thread__find_symbol(thread, cpumode, ip, &al);
	if (opts && opts->hide_unresolved && !al.sym)
		return 0;
	if (likely(c->nr < c->alloc && !(opts && opts->srcline))) {
		/* hot path (perftune): fill the cursor's next frame in place */
		struct callchain_frame *d = &c->frames[c->nr++];

		*d = (struct callchain_frame){ .ip = ip, .map = al.map, .sym = al.sym,
					       .addr = al.addr, .cpumode = cpumode };
		return 0;
	}
	memset(&f, 0, sizeof(f));
	f.ip = ip;
	f.map = al.map;
	f.sym = al.sym;
	f.addr = al.addr;
	f.cpumode = cpumode;
	if (opts && opts->srcline && al.map && al.map->dso)
		f.srcline = dso__srcline(al.map->dso, al.addr);
	return callchain_cursor__append(c, &f);
}

/* 1: a known context marker (cpumode set), 0: an address, -1: an unknown marker */
static int context_cpumode(uint64_t ip, uint8_t *cpumode)
{
	switch (ip) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		return true;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		return true;
	case PERF_CONTEXT_USER:
		*cpumode = PERF_RECORD_MISC_USER;
		return true;
	case PERF_CONTEXT_GUEST_KERNEL:
		*cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
		return true;
	case PERF_CONTEXT_GUEST_USER:
		*cpumode = PERF_RECORD_MISC_GUEST_USER;
		return true;
	default:
		return ip >= (uint64_t)PERF_CONTEXT_MAX ? -1 : 0;
	}
}

/* The marker frame's symbol: one static "[truncated]" symbol (no DSO), so
 * that every consumer names the marker without knowing about it. */
static union {
	struct symbol sym;
	char bytes[sizeof(struct symbol) + sizeof("[truncated]")];
} truncated_sym_storage;
static pthread_once_t truncated_sym_once = PTHREAD_ONCE_INIT;

static void truncated_sym__init(void)
{
	struct symbol *s = &truncated_sym_storage.sym;

	s->start = s->end = 0;
	s->type = 2;	/* STT_FUNC */
	s->idx = UINT32_MAX;
	memcpy(s->name, "[truncated]", sizeof("[truncated]"));
}

struct symbol *callchain__truncated_sym(void)
{
	pthread_once(&truncated_sym_once, truncated_sym__init);
	return &truncated_sym_storage.sym;
}

struct unwind_arg {
	struct callchain_cursor *cursor;
	struct thread *thread;
	const struct resolve_opts *opts;
	unsigned int max;	/* unwound frames to keep */
	unsigned int nr;	/* unwound frames seen (inline frames not counted) */
	int err;
};

struct inline_arg {
	struct callchain_cursor *cursor;
	const struct callchain_frame *real;
	bool srcline;
};

/* One level of dso__inline_frames(): inlined levels become frames with an
 * interned inlined symbol, the outermost is the real frame itself. */
static int inline_cb(const struct inline_frame *fr, void *arg)
{
	struct inline_arg *ia = arg;
	struct callchain_frame f = *ia->real;

	f.srcline = ia->srcline ? fr->srcline : NULL;
	/* the outermost level is the real function: its ELF symbol, as perf
	 * 6.1 shows it when the address has inlined levels */
	if (fr->inlined) {
		struct symbol *sym = ia->real->sym;

		f.sym = dso__inline_sym(ia->real->map->dso, fr->func ? fr->func : "??",
					sym->start, sym->end);
		if (!f.sym)
			return -ENOMEM;
		f.inlined = true;
	}
	return callchain_cursor__append(ia->cursor, &f);
}

/* Append a resolved user frame, expanded with its inlined calls when asked
 * and the DSO has them. */
static int unwind__append(struct unwind_arg *ua, struct callchain_frame *f)
{
	const struct resolve_opts *o = ua->opts;
	struct dso *dso = f->map ? f->map->dso : NULL;

	if (o && o->inline_frames && dso && f->sym && dso->kind == DSO_USER) {
		struct inline_arg ia = { ua->cursor, f, o->srcline };
		unsigned int before = ua->cursor->nr;
		int n = dso__inline_frames(dso, f->addr, inline_cb, &ia);

		if (n > 0)
			return 0;
		ua->cursor->nr = before;	/* nothing inlined: the frame alone */
		if (n == -ENOMEM)
			return n;
	}
	if (o && o->srcline && dso)
		f->srcline = dso__srcline(dso, f->addr);
	return callchain_cursor__append(ua->cursor, f);
}

static int unwind_cb(struct unwind_entry *e, void *arg)
{
	struct unwind_arg *ua = arg;
	struct callchain_frame f;
	struct addr_location al;

	if (ua->nr >= ua->max)
		return 1;
	ua->nr++;
	memset(&f, 0, sizeof(f));
	f.ip = e->ip;
	f.cpumode = PERF_RECORD_MISC_USER;
	if (e->map) {
		f.map = e->map;
		f.addr = map__map_ip(e->map, e->ip);
		f.sym = e->sym ? e->sym : dso__find_symbol(e->map->dso, f.addr);
	} else {
		thread__find_symbol(ua->thread, PERF_RECORD_MISC_USER, e->ip, &al);
		f.map = al.map;
		f.sym = al.sym;
		f.addr = al.addr;
		/* a pc in no map at all (exec not yet mapped): perf 6.1 shows
		 * no user part for such a sample */
		if (!f.map && ua->nr == 1)
			return 1;
	}
	if (!(ua->opts && ua->opts->hide_unresolved && !f.sym)) {
		ua->err = unwind__append(ua, &f);
		if (ua->err)
			return ua->err;
	}
	if (e->truncated) {
		/* a real frame whose caller could not be read: mark the end */
		ua->cursor->truncated = true;
		memset(&f, 0, sizeof(f));
		f.truncated = true;
		f.ip = UINT64_MAX;	/* where perf 6.1 prints an unknown frame */
		f.sym = callchain__truncated_sym();
		f.cpumode = PERF_RECORD_MISC_USER;
		ua->err = callchain_cursor__append(ua->cursor, &f);
	}
	return ua->err;
}

int sample__resolve_callchain(struct perf_sample *sample, struct evsel *evsel,
			      struct thread *thread, const struct resolve_opts *opts,
			      struct callchain_cursor *cursor)
{
	unsigned int max = opts && opts->max_stack ? opts->max_stack : DEFAULT_MAX_STACK;
	const struct ip_callchain *cc = sample->callchain;
	uint64_t stype = evsel ? evsel->attr.sample_type : 0;
	bool dwarf = (stype & PERF_SAMPLE_STACK_USER) && (stype & PERF_SAMPLE_REGS_USER) &&
		     sample->user_regs.regs && sample->user_stack.size;
	uint8_t cpumode = sample->cpumode;
	int err;

	cursor->nr = 0;
	cursor->truncated = false;
	cursor->discarded = false;
	if (!cc || !cc->nr) {
		if (dwarf && cpumode == PERF_RECORD_MISC_USER)
			goto unwind;
		return cursor__add_ip(cursor, thread, cpumode, sample->ip, opts);
	}
	for (uint64_t i = 0; i < cc->nr && cursor->nr < max; i++) {
		uint64_t ip = cc->ips[i];
		int ctx = context_cpumode(ip, &cpumode);

		if (ctx < 0) {
			cursor->nr = 0;
			cursor->discarded = true;
			return 0;
		}
		if (ctx) {
			if (dwarf && ip == PERF_CONTEXT_USER)
				goto unwind;
			continue;
		}
		err = cursor__add_ip(cursor, thread, cpumode, ip, opts);
		if (err)
			return err;
	}
	if (!dwarf || cursor->nr >= max)
		return 0;
	/* callchain had no user part (kernel only, exclude_callchain_user) */
unwind:
	{
		struct unwind_arg ua = { cursor, thread, opts, max - cursor->nr, 0, 0 };
		unsigned int before = cursor->nr;

		err = unwind__get_entries(unwind_cb, &ua, thread, sample, (int)(max - cursor->nr));
		if (ua.err)
			return ua.err;
		if (cursor->nr > before) {
			cursor->nr_unwound++;
			if (cursor->truncated)
				cursor->nr_truncated++;
		}
		if (err < 0 && cursor->nr == before) {
			/* no unwinder (or it failed at once): the sample ip alone */
			if (sample->cpumode == PERF_RECORD_MISC_USER || before == 0)
				return cursor__add_ip(cursor, thread, PERF_RECORD_MISC_USER,
						      sample->ip, opts);
		}
	}
	return 0;
}

const char *callchain_frame__srcline(const struct callchain_frame *f, bool with_sym)
{
	struct dso *dso = f->map ? f->map->dso : NULL;
	char buf[512];

	if (f->srcline)
		return f->srcline;
	if (!dso || f->truncated)
		return "??:0";
	if (dso->kind == DSO_USER && dso__debug_file(dso))
		return "??:0";	/* DWARF, but no line for this address */
	if (with_sym && f->sym && !f->sym->inlined)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym->name, f->addr - f->sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name,
			 dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE ? f->ip : f->addr);
	return dso__intern_str(dso, buf) ?: "??:0";
}
