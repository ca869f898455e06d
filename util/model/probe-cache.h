/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_MODEL_PROBE_CACHE_H
#define PRF_MODEL_PROBE_CACHE_H
/*
 * The `probes` file of a build-id cache entry, in perf 6.1's format:
 * entries, each a line "%GROUP:EVENT=EVENT" for an SDT probe (or
 * "#SPEC" for a probe perf cached with `perf probe --cache`), followed by
 * its uprobe definitions, one a line, sorted and without duplicates
 * (sdt.h). Entries keep the order they were added in; SDT probes of a
 * file are added in note order, probes sharing a name into one entry.
 */
#include <stdbool.h>
#include <stddef.h>

struct probe_cache_entry {
	bool sdt;		/* '%' (SDT), else '#' */
	char *spec;		/* the line after '%'/'#' */
	char *group, *event;	/* from spec's "GROUP:EVENT="; NULL if not there */
	char **defs;		/* uprobe definitions, sorted (strcmp) */
	size_t ndefs, alloc;
};

struct probe_cache {
	struct probe_cache_entry *v;
	size_t n, alloc;
};

/* Read file into pc (zeroed first). A missing file is an empty cache.
 * 0, -ENOMEM, or -errno from reading it. */
int probe_cache__load(struct probe_cache *pc, const char *file);

/*
 * Add the SDT probes of the ELF file path (its real path) to pc as perf
 * does. 0; -ENOENT (no SDT notes), -EINVAL (a damaged note, an argument
 * size perf refuses: then nothing is added), -ENOMEM.
 */
int probe_cache__scan_sdt(struct probe_cache *pc, const char *path);

/* Write pc to file (replacing it). 0 or -errno. */
int probe_cache__save(const struct probe_cache *pc, const char *file);

/* Free pc's entries. */
void probe_cache__exit(struct probe_cache *pc);

#endif
