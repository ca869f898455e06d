// SPDX-License-Identifier: GPL-2.0
/*
 * The resolved sample: thread, comm, sample ip location and callchain of
 * a delivered sample, through the session's machine and unwind-ahead
 * batch. See resolve.h.
 */
#include <errno.h>
#include <string.h>
#include "resolve.h"
#include "../model/debuginfo.h"
#include "../model/dso.h"
#include "../model/machine.h"
#include "../model/map.h"
#include "../model/maps.h"
#include "../model/thread.h"

int resolved_sample__init(struct resolved_sample *rs, bool cache)
{
	memset(rs, 0, sizeof(*rs));
	rs->comm = ":-1";
	callchain_cursor__init(&rs->cursor);
	return cache ? callchain_cursor__enable_cache(&rs->cursor) : 0;
}

void resolved_sample__exit(struct resolved_sample *rs)
{
	callchain_cursor__exit(&rs->cursor);
}

int sample__resolve(struct perf_session *s, struct perf_sample *sample, struct evsel *evsel,
		    struct resolved_sample *rs)
{
	rs->sample = sample;
	rs->evsel = evsel;
	rs->thread = machine__findnew_thread(s->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	rs->comm = rs->thread ? thread__comm_str(rs->thread) : ":-1";
	return rs->thread ? 0 : -ENOMEM;
}

int resolved_sample__callchain(struct perf_session *s, struct resolved_sample *rs,
			       const struct resolve_opts *opts)
{
	return sample__resolve_callchain(rs->sample, rs->evsel, rs->thread, opts, s->unwind_batch,
					 &rs->cursor);
}

struct dso *resolved_sample__dso(const struct resolved_sample *rs)
{
	uint8_t cpumode = rs->sample->cpumode;
	struct maps *maps;
	struct map *map;

	if (!rs->thread)
		return NULL;
	switch (cpumode) {	/* as thread__find_symbol() picks the maps */
	case PERF_RECORD_MISC_KERNEL:
		maps = machine__kernel_maps(thread__machine(rs->thread));
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
	case PERF_RECORD_MISC_HYPERVISOR:
		return NULL;
	default:
		maps = thread__maps(rs->thread);
		break;
	}
	map = maps ? maps__find(maps, rs->sample->ip) : NULL;
	return map ? map->dso : NULL;
}

void resolved_sample__location(struct resolved_sample *rs, bool from_chain)
{
	struct perf_sample *sample = rs->sample;

	/* usually the chain's first frame, resolved already */
	if (from_chain &&
	    callchain_cursor__sample_location(&rs->cursor, sample, rs->thread, &rs->al))
		return;
	thread__find_symbol(rs->thread, sample->cpumode, sample->ip, &rs->al);
	rs->al.cpu = (int32_t)sample->cpu;
}

void resolved_sample__addr_location(const struct resolved_sample *rs, struct addr_location *al)
{
	const struct perf_sample *sample = rs->sample;
	uint8_t mode = sample->addr >= 0xffff800000000000ULL ? PERF_RECORD_MISC_KERNEL :
		       PERF_RECORD_MISC_USER;

	thread__find_symbol(rs->thread, sample->cpumode, sample->addr, al);
	if (!al->map && mode != sample->cpumode)
		thread__find_symbol(rs->thread, mode, sample->addr, al);
	if (al->map)
		al->sym = map__find_data_symbol(al->map, sample->addr, &al->addr);
	al->cpu = (int32_t)sample->cpu;
}

void resolved_sample__data_location(const struct resolved_sample *rs, struct addr_location *al)
{
	const struct perf_sample *sample = rs->sample;

	thread__find_symbol(rs->thread, sample->cpumode, sample->addr, al);
	if (al->map)
		al->sym = map__find_data_symbol(al->map, sample->addr, &al->addr);
	al->cpu = (int32_t)sample->cpu;
}

const char *resolved_sample__srcline(const struct resolved_sample *rs)
{
	const struct addr_location *al = &rs->al;
	struct callchain_frame fr = {
		.ip = rs->sample->ip, .map = al->map, .sym = al->sym, .addr = al->addr,
		.cpumode = rs->sample->cpumode,
	};

	if (al->map && al->map->dso)
		fr.srcline = dso__srcline(al->map->dso, al->addr);
	return callchain_frame__srcline(&fr, true);
}

int perf_session__process_sideband(struct perf_session *s, union perf_event *event,
				   struct perf_sample *sample)
{
	return machine__process_event(s->machine, event, sample);
}

const char *perf_session__comm(struct perf_session *s, pid_t pid, pid_t tid)
{
	struct thread *thread = machine__findnew_thread(s->machine, pid, tid);

	return thread ? thread__comm_str(thread) : ":-1";
}
