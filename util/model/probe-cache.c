// SPDX-License-Identifier: GPL-2.0
/*
 * A build-id cache entry's `probes` file (probe-cache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe-cache.h"
#include "sdt.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

static void entry__free(struct probe_cache_entry *e)
{
	for (size_t i = 0; i < e->ndefs; i++)
		free(e->defs[i]);
	free(e->defs);
	free(e->spec);
	free(e->group);
	free(e->event);
}

void probe_cache__exit(struct probe_cache *pc)
{
	for (size_t i = 0; i < pc->n; i++)
		entry__free(&pc->v[i]);
	free(pc->v);
	memset(pc, 0, sizeof(*pc));
}

/* A new entry for spec ("GROUP:EVENT=EVENT..."), its names parsed. */
static struct probe_cache_entry *entry__new(struct probe_cache *pc, bool sdt, const char *spec)
{
	struct probe_cache_entry *e;
	size_t name_len = strcspn(spec, "= \t");
	const char *colon = memchr(spec, ':', name_len);

	if (pc->n == pc->alloc) {
		size_t na = pc->alloc ? 2 * pc->alloc : 16;
		struct probe_cache_entry *nv = realloc(pc->v, na * sizeof(*nv));

		if (!nv)
			return NULL;
		pc->v = nv;
		pc->alloc = na;
	}
	e = &pc->v[pc->n];
	memset(e, 0, sizeof(*e));
	e->sdt = sdt;
	e->spec = strdup(spec);
	if (colon && spec[name_len] == '=') {
		e->group = strndup(spec, (size_t)(colon - spec));
		e->event = strndup(colon + 1, (size_t)(spec + name_len - colon - 1));
	}
	if (!e->spec || (colon && spec[name_len] == '=' && (!e->group || !e->event))) {
		entry__free(e);
		return NULL;
	}
	pc->n++;
	return e;
}

/* Add def to e's sorted definitions unless there. 0 or -ENOMEM. */
static int entry__add_def(struct probe_cache_entry *e, const char *def)
{
	size_t lo = 0, hi = e->ndefs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(e->defs[mid], def);

		if (!c)
			return 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (e->ndefs == e->alloc) {
		size_t na = e->alloc ? 2 * e->alloc : 4;
		char **nv = realloc(e->defs, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		e->defs = nv;
		e->alloc = na;
	}
	memmove(e->defs + lo + 1, e->defs + lo, (e->ndefs - lo) * sizeof(*e->defs));
	e->defs[lo] = strdup(def);
	if (!e->defs[lo]) {
		memmove(e->defs + lo, e->defs + lo + 1, (e->ndefs - lo) * sizeof(*e->defs));
		return -ENOMEM;
	}
	e->ndefs++;
	return 0;
}

int probe_cache__load(struct probe_cache *pc, const char *file)
{
	struct probe_cache_entry *e = NULL;
	char *buf = NULL, *save = NULL, *line;
	size_t size = 0;
	int err;

	memset(pc, 0, sizeof(*pc));
	err = filename__read_str(file, &buf, &size);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	for (line = strtok_r(buf, "\n", &save); !err && line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '%' || line[0] == '#') {
			e = entry__new(pc, line[0] == '%', line + 1);
			if (!e)
				err = -ENOMEM;
		} else if (e) {		/* definitions before any entry are dropped */
			err = entry__add_def(e, line);
		}
	}
	free(buf);
	if (err)
		probe_cache__exit(pc);
	return err;
}

static struct probe_cache_entry *find_sdt(struct probe_cache *pc, const char *group,
					  const char *event)
{
	for (size_t i = 0; i < pc->n; i++)
		if (pc->v[i].group && !strcmp(pc->v[i].group, group) &&
		    !strcmp(pc->v[i].event, event))
			return &pc->v[i];
	return NULL;
}

int probe_cache__scan_sdt(struct probe_cache *pc, const char *path)
{
	struct sdt_note *notes;
	bool ref_ctr = sdt__uprobe_ref_ctr();
	char **defs;
	size_t n;
	int err = sdt_notes__read(path, &notes, &n);

	if (err)
		return err;
	/* every definition first: one perf refuses leaves the cache as it was */
	defs = calloc(n, sizeof(*defs));
	err = defs ? 0 : -ENOMEM;
	for (size_t i = 0; !err && i < n; i++)
		err = sdt_note__uprobe(&notes[i], path, ref_ctr, &defs[i]);
	for (size_t i = 0; !err && i < n; i++) {
		struct probe_cache_entry *e;
		char group[64];

		snprintf(group, sizeof(group), "sdt_%s", notes[i].provider);
		e = find_sdt(pc, group, notes[i].name);
		if (!e) {
			struct strbuf spec = STRBUF_INIT;

			err = strbuf_addf(&spec, "%s:%s=%s", group, notes[i].name, notes[i].name);
			e = err ? NULL : entry__new(pc, true, spec.buf);
			strbuf_release(&spec);
			if (!e) {
				err = -ENOMEM;
				break;
			}
		}
		err = entry__add_def(e, defs[i]);
	}
	for (size_t i = 0; defs && i < n; i++)
		free(defs[i]);
	free(defs);
	sdt_notes__free(notes, n);
	return err;
}

int probe_cache__save(const struct probe_cache *pc, const char *file)
{
	struct strbuf b = STRBUF_INIT;
	int fd, err = 0;

	for (size_t i = 0; !err && i < pc->n; i++) {
		const struct probe_cache_entry *e = &pc->v[i];

		err = strbuf_addf(&b, "%c%s\n", e->sdt ? '%' : '#', e->spec);
		for (size_t k = 0; !err && k < e->ndefs; k++)
			err = strbuf_addf(&b, "%s\n", e->defs[k]);
	}
	fd = err ? -1 : open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!err && fd < 0)
		err = -errno;
	if (!err && b.len)
		err = writen(fd, b.buf, b.len);
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	strbuf_release(&b);
	return err;
}
