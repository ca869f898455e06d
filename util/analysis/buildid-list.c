// SPDX-License-Identifier: GPL-2.0
/*
 * The build-ids of a perf.data file and the DSOs its samples hit; see
 * buildid-list.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "buildid-list.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../model/dso.h"
#include "../model/map.h"
#include "../session/resolve.h"
#include "../session/session.h"

struct bid_reader {
	struct perf_tool tool;
	struct perf_session *session;
	struct bid_list *list;
	struct resolved_sample rs;
	const struct dso *last_dso;	/* the DSO of the last hit ... */
	int last_idx;			/* ... and its entry */
	int err;
};

static int bid_list__find(struct bid_list *l, const char *name)
{
	for (int i = 0; i < l->nr; i++)
		if (!strcmp(l->entries[i].name, name))
			return i;
	return -1;
}

/* The entry for name, appended when new. Index, or -ENOMEM. */
static int bid_list__findnew(struct bid_list *l, const char *name)
{
	int i = bid_list__find(l, name);

	if (i >= 0)
		return i;
	if (l->nr == l->alloc) {
		int n = l->alloc ? l->alloc * 2 : 16;
		struct bid_entry *e = realloc(l->entries, (size_t)n * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->entries = e;
		l->alloc = n;
	}
	memset(&l->entries[l->nr], 0, sizeof(l->entries[l->nr]));
	l->entries[l->nr].name = strdup(name);
	if (!l->entries[l->nr].name)
		return -ENOMEM;
	return l->nr++;
}

static void reader__header_build_id(struct perf_tool *tool, const char *filename,
				    const struct build_id *bid, bool kernel)
{
	struct bid_reader *r = container_of(tool, struct bid_reader, tool);
	int i = bid_list__findnew(r->list, filename);

	if (i < 0) {
		r->err = i;
		return;
	}
	r->list->entries[i].bid = *bid;
	r->list->entries[i].kernel = kernel;
}

/* A DSO perf makes at its first map (a record whose filename ends
 * inside it): an entry (not hit yet) in that order, so hit DSOs the header does not list print in perf's order. The
 * kernel's map ("[kernel.kallsyms]_text") is the kernel's DSO. */
static int reader__map(struct bid_reader *r, union perf_event *event, const char *filename)
{
	size_t max = (size_t)((const char *)event + event->header.size - filename);
	uint8_t cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	int i;

	if (event->header.size <= filename - (const char *)event || strnlen(filename, max) == max)
		return 0;	/* unterminated: the model rejects it too */

	if (kernel && !strncmp(filename, "[kernel.kallsyms]", 17))
		filename = "[kernel.kallsyms]";
	i = bid_list__findnew(r->list, filename);
	return i < 0 ? i : 0;
}

static int reader__mmap(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct machine *machine __maybe_unused)
{
	struct bid_reader *r = container_of(tool, struct bid_reader, tool);
	int err = reader__map(r, event, event->mmap.filename);

	return err ? err : perf_session__process_sideband(r->session, event, sample);
}

static int reader__mmap2(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct machine *machine __maybe_unused)
{
	struct bid_reader *r = container_of(tool, struct bid_reader, tool);
	int err = reader__map(r, event, event->mmap2.filename);

	return err ? err : perf_session__process_sideband(r->session, event, sample);
}

static int reader__sample(struct perf_tool *tool, union perf_event *event __maybe_unused,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine __maybe_unused)
{
	struct bid_reader *r = container_of(tool, struct bid_reader, tool);
	const struct dso *dso;

	if (sample__resolve(r->session, sample, evsel, &r->rs))
		return -ENOMEM;
	resolved_sample__location(&r->rs, false);
	if (!r->rs.al.map)
		return 0;
	dso = r->rs.al.map->dso;
	if (dso != r->last_dso) {
		/* a module is "[name]" in the model, its file's path in perf's
		 * header and map records */
		const char *name = dso->kind == DSO_KMODULE && dso->runtime_path ?
				   dso->runtime_path : dso->long_name;
		int i = bid_list__findnew(r->list, name);

		if (i < 0)
			return i;
		r->last_dso = dso;
		r->last_idx = i;
	}
	r->list->entries[r->last_idx].hit = true;
	return 0;
}

int bid_list__read(struct bid_list *l, const char *path, bool with_hits, const char *cmd,
		   bool force)
{
	struct bid_reader r = { .list = l };
	int err = 0, status;

	perf_tool__init(&r.tool, true);
	r.tool.header_build_id = reader__header_build_id;
	r.tool.sample = reader__sample;
	r.tool.mmap = reader__mmap;
	r.tool.mmap2 = reader__mmap2;
	r.session = perf_session__new(path, &r.tool, &err);
	if (!r.session)
		return err ? err : -ENOMEM;
	if (r.err) {
		perf_session__delete(r.session);
		return r.err;
	}
	/* without build-ids in the header (always so for a pipe, whose
	 * features come later) perf reads the samples for them */
	if (!perf_data__has_feat(&r.session->data, HEADER_BUILD_ID))
		with_hits = true;
	if (with_hits || r.session->data.pipe) {
		if (!with_hits)
			r.tool.sample = NULL;
		if (resolved_sample__init(&r.rs, false)) {
			perf_session__delete(r.session);
			return -ENOMEM;
		}
		err = perf_session__process_events(r.session);
		resolved_sample__exit(&r.rs);
		l->hits_read = with_hits;
		if (!err && r.err)
			err = r.err;
		if (err && !perf_session__input_damage(r.session, err)) {
			pr_err("%s: %s: %s\n", cmd, path, strerror(-err));
			perf_session__delete(r.session);
			return err;
		}
	}
	status = perf_session__read_status(r.session, cmd, force);
	perf_session__delete(r.session);
	return status;
}

void bid_list__exit(struct bid_list *l)
{
	for (int i = 0; i < l->nr; i++)
		free(l->entries[i].name);
	free(l->entries);
	memset(l, 0, sizeof(*l));
}

void bid_entry__fprintf(const struct bid_entry *e, FILE *fp)
{
	char sbid[2 * BUILD_ID_SIZE + 1] = "";

	if (e->bid.size)
		build_id__sprintf(&e->bid, sbid);
	fprintf(fp, "%-40s %s\n", sbid, e->name);
}
