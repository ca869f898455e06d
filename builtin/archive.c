// SPDX-License-Identifier: GPL-2.0
/*
 * prf archive [FILE]: FILE.tar.bz2 (FILE: perf.data by default) with the
 * build-id cache entries of the DSOs FILE's samples hit, as perf 6.1's
 * perf-archive script writes it: for each hit DSO with a build-id, its
 * ".build-id/XX/YYYY" link and the "NAME/BUILDID" directory it points to,
 * relative to the cache directory, so that
 *   tar xvf FILE.tar.bz2 -C ~/.debug
 * on another machine lets perf report and prf report find the symbols.
 *
 * Beyond perf: a hit DSO not yet in the cache (prf record keeps none) is
 * added from the file on disk first when the file still has the recorded
 * build-id (the kernel from /proc/kallsyms when it is the running one);
 * one left out is named on stderr. --unpack [ARCHIVE] extracts an
 * archive into the cache directory (as later perf versions do).
 * The tar file is written by tar(1), as perf's script does.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/analysis/buildid-list.h"
#include "../util/model/build-id-cache.h"
#include "../util/model/dso.h"

extern char **environ;

/* Run argv (argv[0] looked up in $PATH) and wait; an exit status up to
 * ok_status counts as success. 0, or 1 after a message. */
static int run(const char *const *argv, int ok_status)
{
	pid_t pid;
	int st, err = posix_spawnp(&pid, argv[0], NULL, NULL, (char *const *)argv, environ);

	if (err) {
		fprintf(stderr, "prf archive: cannot run %s: %s\n", argv[0], strerror(err));
		return 1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) > ok_status) {
		fprintf(stderr, "prf archive: %s failed\n", argv[0]);
		return 1;
	}
	return 0;
}

/* Whether e's build-id is that of the file or kernel it names now; then
 * add it to the cache. */
static int cache_entry(const struct bid_entry *e, const char *sbid)
{
	struct build_id now = { .size = 0 };
	char snow[2 * BUILD_ID_SIZE + 1] = "";
	enum bid_cache_kind kind = BID_CACHE_FILE;

	if (!strcmp(e->name, "[kernel.kallsyms]")) {
		if (bid_cache__kernel_build_id(&now))
			return -ENOENT;
		kind = BID_CACHE_KALLSYMS;
	} else if (e->name[0] != '/' || filename__read_build_id(e->name, &now)) {
		return -ENOENT;
	}
	build_id__sprintf(&now, snow);
	return strcmp(snow, sbid) ? -ENOENT : bid_cache__add(sbid, e->name, kind);
}

/* The manifest lines of one cached build-id: its link and its directory,
 * both relative to the cache directory dir (a real path). */
static int manifest_entry(FILE *m, const char *dir, const char *sbid)
{
	char link[PATH_MAX + 64], target[PATH_MAX];
	size_t len = strlen(dir);

	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", dir, sbid, sbid + 2);
	if (!realpath(link, target) || strncmp(target, dir, len) || target[len] != '/')
		return -ENOENT;
	fprintf(m, ".build-id/%.2s/%s\n%s\n", sbid, sbid + 2, target + len + 1);
	return 0;
}

/* Write the manifest of l's hit DSOs into m. The number of entries. */
static int write_manifest(FILE *m, const char *dir, struct bid_list *l)
{
	int nr = 0;

	for (int i = 0; i < l->nr; i++) {
		const struct bid_entry *e = &l->entries[i];
		char sbid[2 * BUILD_ID_SIZE + 1];

		if (!e->hit || !e->bid.size)
			continue;
		build_id__sprintf(&e->bid, sbid);
		if (!bid_cache__cached(sbid) && cache_entry(e, sbid))
			fprintf(stderr, "prf archive: %s (%s) is not in the build-id cache and its file differs: left out\n",
				e->name, sbid);
		else if (manifest_entry(m, dir, sbid))
			fprintf(stderr, "prf archive: %s (%s): broken link in the build-id cache: left out\n",
				e->name, sbid);
		else
			nr++;
	}
	return nr;
}

static int archive(const char *input, const char *dir, bool force)
{
	char manifest[] = "/tmp/prf-archive-manifest.XXXXXX";
	struct bid_list l = { 0 };
	char *out = NULL;
	int status, fd, nr = 0;
	bool any = false;
	FILE *m;

	status = bid_list__read(&l, input, true, "archive", force);
	if (status < 0)
		return 1;
	for (int i = 0; i < l.nr; i++)
		any |= l.entries[i].hit && l.entries[i].bid.size;
	if (!any) {
		printf("perf archive: no build-ids found\n");
		bid_list__exit(&l);
		return 1;
	}
	fd = mkstemp(manifest);
	m = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!m) {
		fprintf(stderr, "prf archive: cannot write a manifest: %s\n", strerror(errno));
		bid_list__exit(&l);
		return 1;
	}
	nr = write_manifest(m, dir, &l);
	bid_list__exit(&l);
	if (fclose(m) || !nr || asprintf(&out, "%s.tar.bz2", input) < 0) {
		if (!nr)
			fprintf(stderr, "prf archive: no build-id cache entries to archive\n");
		unlink(manifest);
		return 1;
	}
	{
		const char *const argv[] = { "tar", "cjf", out, "-C", dir, "-T", manifest, NULL };

		/* GNU tar's 1: a file changed while read (a system library's
		 * hard link in the cache gained a link meanwhile); the
		 * archive is written */
		if (run(argv, 1))
			status = 1;
	}
	unlink(manifest);
	if (!status)
		printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
		       "wherever you need to run 'perf report' on.\n", out);
	free(out);
	return status;
}

static int unpack(const char *file, const char *dir)
{
	const char *const argv[] = { "tar", "xf", file, "-C", dir, NULL };
	int err = bid_cache__mkdir();

	if (err) {
		fprintf(stderr, "prf archive: cannot make %s: %s\n", dir, strerror(-err));
		return 1;
	}
	return run(argv, 0);
}

int cmd_archive(int argc, const char **argv)
{
	bool do_unpack = false, force = false;
	const struct option options[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN(0, "unpack", &do_unpack,
			    "unpack an archive (default perf.data.tar.bz2) into the build-id cache"),
		OPT_END()
	};
	const char *const usage[] = { "prf archive [<options>] [<perf.data file>]", NULL };
	const char *dir = dso__buildid_dir();
	char real[PATH_MAX];
	int err;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc < 0)
		return 129;
	if (argc > 1) {
		usage_with_options(usage, options);
		return 129;
	}
	if (!dir) {
		fprintf(stderr, "prf archive: no build-id cache directory: set $HOME or buildid.dir\n");
		return 1;
	}
	if (do_unpack)
		return unpack(argc ? argv[0] : "perf.data.tar.bz2", dir);
	err = bid_cache__mkdir();
	if (err) {
		fprintf(stderr, "prf archive: cannot make %s: %s\n", dir, strerror(-err));
		return 1;
	}
	if (!realpath(dir, real)) {
		fprintf(stderr, "prf archive: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return archive(argc ? argv[0] : "perf.data", real, force);
}
