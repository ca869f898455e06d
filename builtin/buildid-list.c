// SPDX-License-Identifier: GPL-2.0
/*
 * prf buildid-list: the build-ids of a perf.data file's DSOs, one
 * "BUILDID NAME" line each as perf buildid-list prints them (the header's
 * list; -H only the DSOs samples hit), the build-id of an ELF file given
 * as input, or with -k that of the running kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/analysis/buildid-list.h"
#include "../util/model/build-id-cache.h"
#include "../util/model/dso.h"

/* -k: the running kernel's build-id from /sys/kernel/notes. */
static int print_kernel_build_id(void)
{
	struct build_id bid = { .size = 0 };
	char sbid[2 * BUILD_ID_SIZE + 1];
	int err = bid_cache__kernel_build_id(&bid);

	if (err) {
		fprintf(stderr, "prf buildid-list: cannot read the kernel's build-id from /sys/kernel/notes: %s\n",
			strerror(-err));
		return 1;
	}
	build_id__sprintf(&bid, sbid);
	printf("%s\n", sbid);
	return 0;
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = "perf.data";
	bool force = false, with_hits = false, kernel = false;
	const struct option options[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('H', "with-hits", &with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('k', "kernel", &kernel, "Show current kernel build id"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	const char *const usage[] = { "prf buildid-list [<options>]", NULL };
	struct bid_list l = { 0 };
	struct build_id bid = { .size = 0 };
	char sbid[2 * BUILD_ID_SIZE + 1];
	int status;

	status = parse_options_only(argc, argv, options, usage);
	if (status)
		return status;
	if (kernel)
		return print_kernel_build_id();
	/* an ELF file: its own build-id */
	if (strcmp(input, "-") && !filename__read_build_id(input, &bid)) {
		build_id__sprintf(&bid, sbid);
		printf("%s\n", sbid);
		return 0;
	}
	status = bid_list__read(&l, input, with_hits, "buildid-list", force);
	if (status < 0)
		return 1;
	for (int i = 0; i < l.nr; i++)
		if (!l.hits_read || l.entries[i].hit)
			bid_entry__fprintf(&l.entries[i], stdout);
	bid_list__exit(&l);
	return status;
}
