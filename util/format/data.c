// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data: open, read and close one perf.data input; the evlist built
 * from its attrs and user records; record names and statistics. See
 * data.h. The reading itself (file mapping, blocks, pipe, zstd) is
 * reader.c; features are features-read.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "data-internal.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"
#include "../kernel/event-names.h"

static const char *const record_names[PERF_RECORD_HEADER_MAX] = {
	[0]				= "TOTAL",
	[PERF_RECORD_MMAP]		= "MMAP",
	[PERF_RECORD_LOST]		= "LOST",
	[PERF_RECORD_COMM]		= "COMM",
	[PERF_RECORD_EXIT]		= "EXIT",
	[PERF_RECORD_THROTTLE]		= "THROTTLE",
	[PERF_RECORD_UNTHROTTLE]	= "UNTHROTTLE",
	[PERF_RECORD_FORK]		= "FORK",
	[PERF_RECORD_READ]		= "READ",
	[PERF_RECORD_SAMPLE]		= "SAMPLE",
	[PERF_RECORD_MMAP2]		= "MMAP2",
	[PERF_RECORD_AUX]		= "AUX",
	[PERF_RECORD_ITRACE_START]	= "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES]	= "LOST_SAMPLES",
	[PERF_RECORD_SWITCH]		= "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE]	= "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES]	= "NAMESPACES",
	[PERF_RECORD_KSYMBOL]		= "KSYMBOL",
	[PERF_RECORD_BPF_EVENT]		= "BPF_EVENT",
	[PERF_RECORD_CGROUP]		= "CGROUP",
	[PERF_RECORD_TEXT_POKE]		= "TEXT_POKE",
	[21]				= "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR]	= "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE]	= "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID]	= "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND]	= "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX]		= "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO]	= "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE]		= "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR]	= "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP]	= "THREAD_MAP",
	[PERF_RECORD_CPU_MAP]		= "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG]	= "STAT_CONFIG",
	[PERF_RECORD_STAT]		= "STAT",
	[PERF_RECORD_STAT_ROUND]	= "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE]	= "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV]		= "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE]	= "FEATURE",
	[PERF_RECORD_COMPRESSED]	= "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT]	= "FINISHED_INIT",
};

const char *perf_event__name(unsigned int type)
{
	if (type >= PERF_RECORD_HEADER_MAX || !record_names[type])
		return "UNKNOWN";
	return record_names[type];
}

/* ---- evsels ---- */

int perf_data__new_evsel(struct perf_data *d, const struct perf_event_attr *attr, size_t attr_size,
			 const uint64_t *ids, size_t nr_ids, bool swap_ids)
{
	struct perf_event_attr a;
	struct evsel *evsel;
	size_t i;

	memset(&a, 0, sizeof(a));
	memcpy(&a, attr, min(attr_size, sizeof(a)));
	evsel = evsel__new(&a);
	if (!evsel)
		return -ENOMEM;
	/* keep the writer's attr.size for printing (perf prints the file's) */
	evsel->attr.size = a.size ? a.size : PERF_ATTR_SIZE_VER0;
	evlist__add(d->evlist, evsel);
	/* ids may be unaligned (a pipe ATTR record whose attr.size is not a
	 * multiple of 8): read them with memcpy */
	for (i = 0; i < nr_ids; i++) {
		uint64_t id;

		memcpy(&id, (const char *)ids + i * 8, 8);
		if (swap_ids)
			id = __builtin_bswap64(id);
		if (perf_data__id_add(d, id, evsel))
			return -ENOMEM;
	}
	if (nr_ids) {
		uint64_t *copy = malloc(nr_ids * sizeof(*copy));

		if (copy) {
			memcpy(copy, (const char *)ids, nr_ids * 8);
			for (i = 0; swap_ids && i < nr_ids; i++)
				copy[i] = __builtin_bswap64(copy[i]);
			free(evsel->ids);
			evsel->ids = copy;
			/* the file has no cpu/thread layout: keep them as one row */
			evsel->nr_cpus = 1;
			evsel->nr_threads = (int)nr_ids;
		}
	}
	if (evsel->idx >= d->nr_evsel_samples) {
		int n = evsel->idx + 8;
		uint64_t *c = realloc(d->evsel_samples, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		memset(c + d->nr_evsel_samples, 0, (n - d->nr_evsel_samples) * sizeof(*c));
		d->evsel_samples = c;
		d->nr_evsel_samples = n;
	}
	perf_data__update_sample_layout(d);
	return 0;
}

/* Names from the attr alone (perf_event_attr__snprintf_name,
 * util/kernel/event-names.h), for files without EVENT_DESC / EVENT_UPDATE
 * names. */
void perf_data__name_evsels(struct perf_data *d)
{
	struct evsel *evsel;
	char buf[256];

	evlist__for_each_entry(d->evlist, evsel) {
		if (evsel->name)
			continue;
		perf_event_attr__snprintf_name(&evsel->attr, buf, sizeof(buf));
		evsel__set_name(evsel, buf);
	}
}

/* ---- records ---- */

void perf_data__bad_record(struct perf_data *d, uint64_t off, const char *why, uint32_t type)
{
	d->stats.nr_bad_records++;
	d->summary.nr_skipped++;
	pr_err("%s: bad record at offset %#" PRIx64 ": %s (type %s), skipped\n", d->path, off, why,
	       perf_event__name(type));
}

static int apply_attr(struct perf_data *d, union perf_event *event)
{
	size_t sz = event->header.size, hs = sizeof(event->header);
	uint32_t asz;
	int err;

	if (sz < hs + PERF_ATTR_SIZE_VER0)
		return 1;
	asz = event->attr.attr.size ? event->attr.attr.size : PERF_ATTR_SIZE_VER0;
	if (asz > sz - hs || asz < PERF_ATTR_SIZE_VER0)
		return 1;
	err = perf_data__new_evsel(d, &event->attr.attr, asz,
				   (const uint64_t *)((char *)&event->attr.attr + asz),
				   (sz - hs - asz) / 8, false);
	if (err)
		return err;
	perf_data__name_evsels(d);	/* provisional; EVENT_UPDATE/EVENT_DESC refine */
	return 0;
}

static int apply_event_update(struct perf_data *d, union perf_event *event)
{
	size_t sz = event->header.size, hs = sizeof(event->header);
	uint64_t type, id;
	struct evsel *evsel;

	if (sz < hs + 16)
		return 1;
	memcpy(&type, (char *)event + hs, 8);
	memcpy(&id, (char *)event + hs + 8, 8);
	evsel = perf_data__id2evsel(d, id);
	if (type == 2 /* PERF_EVENT_UPDATE__NAME */ && evsel && sz > hs + 16) {
		char name[256];
		size_t n = min(sz - hs - 16, sizeof(name) - 1);

		memcpy(name, (char *)event + hs + 16, n);
		name[n] = '\0';
		evsel__set_name(evsel, name);
	}
	return 0;
}

static int apply_id_index(struct perf_data *d, union perf_event *event)
{
	size_t sz = event->header.size, hs = sizeof(event->header);
	uint64_t nr, i;

	if (sz < hs + 8)
		return 1;
	nr = event->id_index.nr;
	if (nr > (sz - hs - 8) / sizeof(struct id_index_entry))
		return 1;
	for (i = 0; i < nr; i++) {
		struct id_index_entry *e = &event->id_index.entries[i];
		struct evsel *evsel;

		if (perf_data__id2evsel(d, e->id))
			continue;
		evlist__for_each_entry(d->evlist, evsel)
			if ((uint64_t)evsel->idx == e->idx) {
				perf_data__id_add(d, e->id, evsel);
				break;
			}
	}
	return 0;
}

static int apply_feature(struct perf_data *d, union perf_event *event)
{
	size_t sz = event->header.size, hs = sizeof(event->header);
	uint64_t feat;

	if (sz < hs + 8)
		return 1;
	feat = event->feat.feat_id;
	if (feat < HEADER_FEAT_BITS) {
		d->feat_bits[feat / (8 * sizeof(long))] |= 1UL << (feat % (8 * sizeof(long)));
		perf_data__process_feature(d, (int)feat, event->feat.data, sz - hs - 8);
	}
	return 0;
}

int perf_data__apply_user_event(struct perf_data *d, union perf_event *event, uint64_t off)
{
	int ret;

	switch (event->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		ret = apply_attr(d, event);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		ret = apply_event_update(d, event);
		break;
	case PERF_RECORD_ID_INDEX:
		ret = apply_id_index(d, event);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		ret = apply_feature(d, event);
		break;
	default:
		return 0;
	}
	if (ret == 1)
		perf_data__bad_record(d, off, "record too short", event->header.type);
	return ret;
}

int perf_data__process_record(struct perf_data *d, union perf_event *event, uint64_t off,
			      struct rec_chunk *owner)
{
	uint32_t type = event->header.type;

	d->stats.nr_events[0]++;
	if (type < PERF_RECORD_HEADER_MAX)
		d->stats.nr_events[type]++;
	if (d->needs_swap) {
		struct reader_priv *rp = data__rp(d);

		perf_event__swap(event, rp->sample_id_all, rp->id_hdr_size);
	}
	return d->ops.record ? d->ops.record(d->ops_ctx, event, off, owner) : 0;
}

void rec_chunk__get(struct rec_chunk *c)
{
	c->refs++;
}

/* ---- open, read, close ---- */

int perf_data__open(struct perf_data *d, const char *path)
{
	int err;

	d->fd = -1;
	d->path = strdup(path ? path : "perf.data");
	d->env.clockid = -1;
	d->reader = zalloc(sizeof(*d->reader));
	d->evlist = evlist__new();
	if (!d->path || !d->reader || !d->evlist)
		return -ENOMEM;
	d->reader->id_pos = d->reader->is_pos = -1;
	err = reader__open(d);
	if (err)
		return err;
	perf_data__name_evsels(d);
	return 0;
}

int perf_data__open_live(struct perf_data *d, struct evlist *evlist)
{
	struct evsel *evsel;

	d->fd = -1;
	d->path = strdup("(live)");	/* owned: perf_data__close() frees it */
	d->pipe = true;
	d->env.clockid = -1;
	d->evlist = evlist;
	d->reader = zalloc(sizeof(*d->reader));
	d->nr_evsel_samples = evlist->nr_entries + 1;
	d->evsel_samples = calloc(d->nr_evsel_samples, sizeof(*d->evsel_samples));
	if (!d->path || !d->reader || !d->evsel_samples)
		return -ENOMEM;
	d->reader->id_pos = d->reader->is_pos = -1;
	evlist__for_each_entry(evlist, evsel) {
		size_t n = evsel->ids ? (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads : 0;

		for (size_t i = 0; i < n; i++)
			if (evsel->ids[i] && perf_data__id_add(d, evsel->ids[i], evsel))
				return -ENOMEM;
	}
	perf_data__update_sample_layout(d);
	return 0;
}

void perf_data__close(struct perf_data *d)
{
	if (d->reader) {
		reader__close(d);
		perf_data__free_features(d);
		free(d->reader->id_keys);
		free(d->reader->id_vals);
		free(d->reader);
		d->reader = NULL;
	}
	free(d->evsel_samples);
	d->evsel_samples = NULL;
	d->nr_evsel_samples = 0;
	evlist__delete(d->evlist);
	d->evlist = NULL;
	free((char *)d->path);
	d->path = NULL;
	free(d->env.hostname);
	free(d->env.os_release);
	free(d->env.version);
	free(d->env.arch);
	free(d->env.cpu_desc);
	free(d->env.cpuid);
	env__free_cmdline(&d->env);
	free(d->env.tracing_data);
	free(d->env.cpu_socket);
	memset(&d->env, 0, sizeof(d->env));
}

int perf_data__read(struct perf_data *d)
{
	struct read_summary *rs = &d->summary;
	int err;

	rs->data_offset = d->data_offset;
	/* the size announced (kept at open for a truncated file), or read
	 * to (data size 0); unknown for a stream */
	if (!rs->truncated)
		rs->data_size = data__rp(d)->map ? d->data_size : 0;
	err = reader__process(d);
	rs->nr_records = d->stats.nr_events[0];
	return err;
}

/* ---- queries ---- */

bool perf_data__has_feat(const struct perf_data *d, int feat)
{
	if (feat < 0 || feat >= HEADER_FEAT_BITS)
		return false;
	return d->feat_bits[feat / (8 * sizeof(long))] >> (feat % (8 * sizeof(long))) & 1;
}

uint64_t perf_data__evsel_nr_samples(const struct perf_data *d, const struct evsel *evsel)
{
	if (evsel->idx < 0 || evsel->idx >= d->nr_evsel_samples)
		return 0;
	return d->evsel_samples[evsel->idx];
}

uint64_t perf_data__cur_offset(const struct perf_data *d)
{
	return d->reader ? d->reader->deliver_offset : 0;
}

void perf_data__set_deliver_offset(struct perf_data *d, uint64_t off)
{
	d->reader->deliver_offset = off;
}

void perf_data__fprintf_stats(struct perf_data *d, FILE *fp)
{
	uint64_t total = d->stats.nr_events[0];
	struct evsel *evsel;
	unsigned int i;

	fprintf(fp, "\nAggregated stats:\n");
	for (i = 0; i < PERF_RECORD_HEADER_MAX; i++) {
		const char *name = perf_event__name(i);

		if (!strcmp(name, "UNKNOWN") || (!d->stats.nr_events[i] && i))
			continue;
		if (i && total)
			fprintf(fp, "%16s events: %10d  (%4.1f%%)\n", name, (int)d->stats.nr_events[i],
				100.0 * (double)d->stats.nr_events[i] / (double)total);
		else
			fprintf(fp, "%16s events: %10d\n", name, (int)d->stats.nr_events[i]);
	}
	evlist__for_each_entry(d->evlist, evsel) {
		uint64_t n = perf_data__evsel_nr_samples(d, evsel);

		if (!n)		/* perf skips empty events (skip_empty) */
			continue;
		fprintf(fp, "%s stats:\n", evsel__name(evsel));
		fprintf(fp, "%16s events: %10d\n", "SAMPLE", (int)n);
	}
}
