// SPDX-License-Identifier: GPL-2.0
/*
 * prf buildid-cache: manage perf's build-id cache (~/.debug, or the
 * buildid.dir configuration key) in perf 6.1's layout
 * (util/model/build-id-cache.h): add, remove, update, purge files by
 * path, purge everything, list what is cached, and list the DSOs of a
 * perf.data whose build-id is missing from the cache (-M).
 *
 * The actions run in perf's order: purge all, add, remove, purge,
 * missing, update, list. Each failure is one line on stderr; the exit
 * status is 1 when any failed (perf's is 0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "../util/lib/debug.h"
#include "../util/lib/parse-options.h"
#include "../util/lib/util.h"
#include "../util/analysis/buildid-list.h"
#include "../util/model/build-id-cache.h"
#include "../util/model/dso.h"

struct bidc_opts {
	const char *add, *remove, *purge, *update, *missing, *kcore;
	bool list, purge_all, force;
	int failed;
};

/* The file's build-id as hex into sbid. 0, or -errno (-ENODATA: none). */
static int file_sbid(const char *path, char *sbid)
{
	struct build_id bid = { .size = 0 };
	int err = filename__read_build_id(path, &bid);

	if (err)
		return err;
	build_id__sprintf(&bid, sbid);
	return 0;
}

static const char *err_str(int err)
{
	return err == -ENODATA ? "no build-id note in the file" :
	       err == -EINVAL ? "not an ELF file" : strerror(-err);
}

static void fail(struct bidc_opts *o, const char *what, const char *path, int err)
{
	fprintf(stderr, "Couldn't %s %s: %s\n", what, path, err_str(err));
	o->failed++;
}

static void add_file(struct bidc_opts *o, const char *path)
{
	char sbid[2 * BUILD_ID_SIZE + 1];
	int err = file_sbid(path, sbid);

	if (!err)
		err = bid_cache__add(sbid, path, BID_CACHE_FILE);
	if (!err)
		pr_debug("Adding %s %s: Ok\n", sbid, path);
	else
		fail(o, "add", path, err);
}

static void remove_file(struct bidc_opts *o, const char *path)
{
	char sbid[2 * BUILD_ID_SIZE + 1];
	int err = file_sbid(path, sbid);

	if (err) {
		fail(o, "remove", path, err);
		return;
	}
	err = bid_cache__cached(sbid) ? bid_cache__remove(sbid) : -ENOENT;
	pr_debug("Removing %s %s: %s\n", sbid, path, err ? "FAIL" : "Ok");
	if (err == -ENOENT) {
		fprintf(stderr, "%s wasn't in the cache\n", path);
		o->failed++;
	} else if (err) {
		fail(o, "remove", path, err);
	}
}

static void update_file(struct bidc_opts *o, const char *path)
{
	char sbid[2 * BUILD_ID_SIZE + 1];
	int err = file_sbid(path, sbid);

	if (!err && bid_cache__cached(sbid))
		err = bid_cache__remove(sbid);
	if (!err)
		err = bid_cache__add(sbid, path, BID_CACHE_FILE);
	if (!err)
		pr_debug("Updating %s %s: Ok\n", sbid, path);
	else
		fail(o, "update", path, err);
}

/* Every build-id cached for path, old ones too. */
static void purge_path(struct bidc_opts *o, const char *path)
{
	char **list;
	int nr = bid_cache__list_path(path, &list), err = 0;

	if (nr < 0) {
		fail(o, "remove", path, nr);
		return;
	}
	for (int i = 0; i < nr && !err; i++) {
		err = bid_cache__remove(list[i]);
		pr_debug("Removing %s %s: %s\n", list[i], path, err ? "FAIL" : "Ok");
	}
	bid_cache__free_list(list, nr);
	pr_debug("Purging %s: %s\n", path, err ? "FAIL" : "Ok");
	if (err)
		fail(o, "remove", path, err);
}

static void purge_all(struct bidc_opts *o)
{
	char **list;
	int nr = bid_cache__list(&list, false), err = 0;

	if (nr < 0) {
		fail(o, "purge", "the cache", nr);
		return;
	}
	for (int i = 0; i < nr && !err; i++) {
		char *name = bid_cache__origname(list[i]);

		err = bid_cache__remove(list[i]);
		pr_debug("Removing %s (%s): %s\n", name ? name : "", list[i], err ? "FAIL" : "Ok");
		free(name);
	}
	bid_cache__free_list(list, nr);
	pr_debug("Purged all: %s\n", err ? "FAIL" : "Ok");
	if (err)
		fail(o, "purge", "the cache", err);
}

/* perf: what is cached and still matches its file (or the kernel), by build-id */
static void show_all(struct bidc_opts *o)
{
	char **list;
	int nr = bid_cache__list(&list, true);

	if (nr < 0) {
		fail(o, "list", "the cache", nr);
		return;
	}
	for (int i = 0; i < nr; i++) {
		char *name = bid_cache__origname(list[i]);

		printf("%s %s\n", list[i], name ? name : "");
		free(name);
	}
	bid_cache__free_list(list, nr);
}

/*
 * -M: the DSOs of the file whose entry is not in the cache, as perf 6.1
 * finds them: it reads the build-id of the entry's "kallsyms" file for
 * the kernel, "vdso" for [vdso], "elf" for every other DSO, and lists the
 * DSO when that file does not exist; one that exists but is no ELF file
 * of the recorded build-id (always so for kallsyms) gets a warning
 * instead.
 */
static void show_missing(struct bidc_opts *o)
{
	struct bid_list l = { 0 };
	int status = bid_list__read(&l, o->missing, false, "buildid-cache", o->force);

	if (status < 0) {
		o->failed++;
		return;
	}
	for (int i = 0; i < l.nr; i++) {
		const struct bid_entry *e = &l.entries[i];
		enum bid_cache_kind kind = !strcmp(e->name, "[kernel.kallsyms]") ? BID_CACHE_KALLSYMS :
					   !strcmp(e->name, "[vdso]") ? BID_CACHE_VDSO : BID_CACHE_FILE;
		char sbid[2 * BUILD_ID_SIZE + 1], file[4096];
		struct build_id bid = { .size = 0 };
		int err;

		if (!e->bid.size)
			continue;
		build_id__sprintf(&e->bid, sbid);
		if (bid_cache__file(sbid, kind, file, sizeof(file)))
			continue;
		err = filename__read_build_id(file, &bid);
		if (err == -ENOENT)
			bid_entry__fprintf(e, stdout);
		else if (err || bid.size != e->bid.size || memcmp(bid.data, e->bid.data, bid.size))
			fprintf(stderr, "Problems with %s file, consider removing it from the cache\n",
				file);
	}
	bid_list__exit(&l);
	o->failed += status;
}

/* Each name of a comma-separated list to fn. */
static void for_each_name(struct bidc_opts *o, const char *names,
			  void (*fn)(struct bidc_opts *o, const char *path))
{
	char *copy = strdup(names), *save = NULL;

	if (!copy) {
		o->failed++;
		return;
	}
	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		fn(o, p);
	free(copy);
}

int cmd_buildid_cache(int argc, const char **argv)
{
	struct bidc_opts o = { 0 };
	const struct option options[] = {
		OPT_STRING('a', "add", &o.add, "file list", "file(s) to add"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_STRING('k', "kcore", &o.kcore, "file", "kcore file to add (not supported)"),
		OPT_BOOLEAN('l', "list", &o.list, "list all cached files"),
		OPT_STRING('M', "missing", &o.missing, "file", "to find missing build ids in the cache"),
		OPT_STRING('p', "purge", &o.purge, "file list", "file(s) to remove (remove old caches too)"),
		OPT_BOOLEAN('P', "purge-all", &o.purge_all, "purge all cached files"),
		OPT_STRING('r', "remove", &o.remove, "file list", "file(s) to remove"),
		OPT_STRING('u', "update", &o.update, "file list", "file(s) to update"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	const char *const usage[] = { "prf buildid-cache [<options>]", NULL };
	int status;

	status = parse_options_only(argc, argv, options, usage);
	if (status)
		return status;
	if (o.kcore) {
		fprintf(stderr, "prf buildid-cache: --kcore is not supported: copying /proc/kcore into the cache is not implemented\n");
		return 129;
	}
	if (!dso__buildid_dir()) {
		fprintf(stderr, "prf buildid-cache: no build-id cache directory: set $HOME or buildid.dir\n");
		return 1;
	}
	if (o.purge_all)
		purge_all(&o);
	if (o.add)
		for_each_name(&o, o.add, add_file);
	if (o.remove)
		for_each_name(&o, o.remove, remove_file);
	if (o.purge)
		for_each_name(&o, o.purge, purge_path);
	if (o.missing)
		show_missing(&o);
	if (o.update)
		for_each_name(&o, o.update, update_file);
	if (o.list)
		show_all(&o);
	return o.failed ? 1 : 0;
}
