/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_ANALYSIS_BUILDID_LIST_H
#define PRF_ANALYSIS_BUILDID_LIST_H
/*
 * The DSOs of a perf.data file with their build-ids, as perf 6.1's
 * buildid-list (and buildid-cache -M, archive) see them: first the
 * entries of the HEADER_BUILD_ID feature (a pipe's build-id records) in
 * the file's order, one per DSO name; then, when the samples are read
 * (with_hits), the DSOs the samples hit that the header does not list,
 * in the order of their first hit, without a build-id (perf leaves a
 * DSO's build-id unread there too).
 */
#include <stdbool.h>
#include <stdio.h>
#include "../format/event.h"	/* struct build_id */

struct bid_entry {
	char *name;		/* the DSO's name as recorded ("[kernel.kallsyms]",
				   "/usr/lib/x86_64-linux-gnu/libc.so.6"); owned */
	struct build_id bid;	/* size 0: none known */
	bool hit;		/* a sample's ip lay in it (with_hits only) */
	bool kernel;		/* listed with a kernel cpumode */
};

struct bid_list {
	struct bid_entry *entries;
	int nr, alloc;
	bool hits_read;		/* the samples were read and only hit entries count
				   (with_hits, or no HEADER_BUILD_ID feature, as a
				   pipe has: perf reads the samples then) */
};

/*
 * Fill l (zeroed by the caller) from the perf.data at path. with_hits:
 * read the samples and mark the DSOs they hit. cmd names the command in
 * messages; force as -f (a damaged file's partial result is no failure).
 * Returns the exit status of the read (0, or 1 when the input was
 * damaged, perf_session__read_status()), or a negative errno when the file
 * could not be opened (message printed). Free with bid_list__exit().
 */
int bid_list__read(struct bid_list *l, const char *path, bool with_hits, const char *cmd,
		   bool force);
void bid_list__exit(struct bid_list *l);

/* One entry as perf prints it: the hex build-id left-aligned in 40
 * columns (blank when none), a space, the name, a newline. */
void bid_entry__fprintf(const struct bid_entry *e, FILE *fp);

#endif
