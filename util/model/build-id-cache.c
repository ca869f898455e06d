// SPDX-License-Identifier: GPL-2.0
/*
 * perf's build-id cache directory (~/.debug), read and written in the
 * layout perf 6.1 uses; see build-id-cache.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "build-id-cache.h"
#include "dso.h"
#include "probe-cache.h"
#include "../format/features-write.h"
#include "../lib/util.h"

#define KALLSYMS_NAME "[kernel.kallsyms]"
#define VDSO_NAME "[vdso]"

/* "<dir>/.build-id/XX/YYYY" into buf. 0 or -ENOENT. */
static int link_name(const char *sbid, char *buf, size_t size)
{
	const char *dir = dso__buildid_dir();
	int n;

	if (!dir || strlen(sbid) < 3)
		return -ENOENT;
	n = snprintf(buf, size, "%s/.build-id/%.2s/%s", dir, sbid, sbid + 2);
	return n < 0 || (size_t)n >= size ? -ENOENT : 0;
}

bool bid_cache__cached(const char *sbid)
{
	char path[PATH_MAX];

	return !link_name(sbid, path, sizeof(path)) && !access(path, F_OK);
}

/* mkdir -p path (mode 0755). 0 or -errno. */
static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		if (!c)
			return 0;
		*p = c;
	}
}

int bid_cache__mkdir(void)
{
	const char *dir = dso__buildid_dir();

	return dir ? mkdir_p(dir) : -ENOENT;
}

/*
 * A new file at to, written whole under a temporary name and renamed into
 * place, so that a reader (another record filling the same cache) never
 * sees part of it: fd of the temporary file, its name in tmp (size
 * PATH_MAX + 16). mode: the file's permissions. fd or -errno.
 */
static int tmp_open(const char *to, char *tmp, mode_t mode)
{
	int fd;

	if (snprintf(tmp, PATH_MAX + 16, "%s.XXXXXX", to) >= PATH_MAX + 16)
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode)) {
		int err = -errno;

		close(fd);
		unlink(tmp);
		return err;
	}
	return fd;
}

/* Close tmp_open()'s fd and rename tmp to to; err (a write's -errno)
 * or a close or rename failure removes tmp instead. 0 or -errno. */
static int tmp_close(int fd, const char *tmp, const char *to, int err)
{
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, to))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* Copy file from to a new file to, of mode (0: from's). 0 or -errno. */
static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536], tmp[PATH_MAX + 16];
	struct stat st;
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		err = -errno;
		close(in);
		return err;
	}
	out = tmp_open(to, tmp, mode ? mode : st.st_mode & 0777);
	if (out < 0) {
		close(in);
		return out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			err = errno ? -errno : -EIO;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	close(in);
	return tmp_close(out, tmp, to, err);
}

/* Our own vdso image into a new file to, mode 0600 (perf's copy of the
 * temporary file it writes the image to). 0 or -errno. */
static int write_vdso(const char *to)
{
	char tmp[PATH_MAX + 16];
	const void *image;
	size_t size;
	int fd, err = 0;

	if (vdso__image(&image, &size))
		return -ENOENT;
	fd = tmp_open(to, tmp, 0600);
	if (fd < 0)
		return fd;
	if (write(fd, image, size) != (ssize_t)size)
		err = errno ? -errno : -EIO;
	return tmp_close(fd, tmp, to, err);
}

/* to as a hard link of from, else a copy; an existing to is kept. */
static int link_or_copy(const char *from, const char *to)
{
	if (!access(to, F_OK) || !link(from, to) || errno == EEXIST)
		return 0;
	return copy_file(from, to, 0);
}

/* An empty file at path unless there is one. */
static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * The SDT probes of the file at real added to its probes file, which is
 * rewritten, as perf does; a file without (usable) notes leaves it as it
 * was: a failure here is no failure to cache the file.
 */
static void add_sdt_probes(const char *probes, const char *real)
{
	struct probe_cache pc;

	if (probe_cache__load(&pc, probes))
		return;
	if (!probe_cache__scan_sdt(&pc, real))
		probe_cache__save(&pc, probes);
	probe_cache__exit(&pc);
}

static const char *kind_file(enum bid_cache_kind kind)
{
	return kind == BID_CACHE_KALLSYMS ? "kallsyms" : kind == BID_CACHE_VDSO ? "vdso" : "elf";
}

int bid_cache__file(const char *sbid, enum bid_cache_kind kind, char *buf, size_t size)
{
	char link[PATH_MAX];
	int n;

	if (link_name(sbid, link, sizeof(link)))
		return -ENOENT;
	n = snprintf(buf, size, "%.*s/%s", (int)(sizeof(link) - 16), link, kind_file(kind));
	return n < 0 || (size_t)n >= size ? -ENOENT : 0;
}

int bid_cache__probes_file(const char *sbid, char *buf, size_t size)
{
	char link[PATH_MAX];
	int n;

	if (link_name(sbid, link, sizeof(link)))
		return -ENOENT;
	n = snprintf(buf, size, "%s/probes", link);
	return n < 0 || (size_t)n >= size ? -ENOENT : 0;
}

int bid_cache__probes_of(const char *path, char *buf, size_t size)
{
	const char *dir = dso__buildid_dir();
	struct build_id bid = { .size = 0 };
	char sbid[2 * BUILD_ID_SIZE + 1], real[PATH_MAX];
	int err, n;

	if (!dir)
		return -ENOENT;
	if (!realpath(path, real))
		return -errno;
	err = filename__read_build_id(real, &bid);
	if (err)
		return err;
	build_id__sprintf(&bid, sbid);
	if (!bid_cache__cached(sbid)) {
		err = bid_cache__add(sbid, real, BID_CACHE_FILE);
		if (err)
			return err;
	}
	n = snprintf(buf, size, "%s%s/%s/probes", dir, real, sbid);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* The entry's files in dir_name (made already). */
static int add_files(const char *dir_name, const char *sbid, const char *real,
		     enum bid_cache_kind kind)
{
	char file[PATH_MAX + 32], debug[PATH_MAX];
	struct stat st;
	int err;

	snprintf(file, sizeof(file), "%s/%s", dir_name, kind_file(kind));
	if (kind == BID_CACHE_KALLSYMS)
		/* perf makes it rwxr-xr-x */
		return access(file, F_OK) ? copy_file("/proc/kallsyms", file, 0755) : 0;
	if (!real)	/* our own vdso image */
		err = access(file, F_OK) ? write_vdso(file) : 0;
	else
		err = link_or_copy(real, file);
	if (err)
		return err;
	/* a stripped file's symbols may be in its debug file */
	snprintf(debug, sizeof(debug), "/usr/lib/debug/.build-id/%.2s/%s.debug", sbid, sbid + 2);
	if (kind == BID_CACHE_FILE && !stat(debug, &st) && S_ISREG(st.st_mode)) {
		snprintf(file, sizeof(file), "%s/debug", dir_name);
		link_or_copy(debug, file);
	}
	snprintf(file, sizeof(file), "%s/probes", dir_name);
	err = touch(file);
	if (!err && real)
		add_sdt_probes(file, real);
	return err;
}

int bid_cache__add(const char *sbid, const char *name, enum bid_cache_kind kind)
{
	const char *dir = dso__buildid_dir();
	char real[PATH_MAX], dir_name[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	const char *cname, *src = real;
	char *slash;
	struct stat st;
	int err, n;

	if (!dir || link_name(sbid, link, sizeof(link)))
		return -ENOENT;
	if (kind == BID_CACHE_FILE) {
		if (!realpath(name, real))
			return -errno;
		cname = real;
	} else {
		if (kind == BID_CACHE_VDSO && !name)
			src = NULL;
		else if (kind == BID_CACHE_VDSO && !realpath(name, real))
			return -errno;
		cname = kind == BID_CACHE_KALLSYMS ? "/" KALLSYMS_NAME : "/" VDSO_NAME;
	}
	n = snprintf(dir_name, sizeof(dir_name), "%s%s/%s", dir, cname, sbid);
	if (n < 0 || (size_t)n >= sizeof(dir_name))
		return -ENAMETOOLONG;
	/* an old-style cache kept the file itself where the directory goes */
	if (!stat(dir_name, &st) && S_ISREG(st.st_mode))
		unlink(dir_name);
	err = mkdir_p(dir_name);
	if (!err)
		err = add_files(dir_name, sbid, src, kind);
	if (err)
		return err;
	slash = strrchr(link, '/');
	*slash = '\0';
	err = mkdir_p(link);
	*slash = '/';
	if (err)
		return err;
	snprintf(target, sizeof(target), "../..%s", dir_name + strlen(dir));
	if (symlink(target, link) && errno != EEXIST)
		return -errno;
	return 0;
}

int bid_cache__add_build_ids(const struct feat_build_id *bids, int nr, int *failed)
{
	const char *dir = dso__buildid_dir();
	int err = 0, first, nr_failed = 0;

	/* the directory itself, not its parents (a $HOME that does not
	 * exist stays so), as perf record */
	if (!dir)
		err = -ENOENT;
	else if (mkdir(dir, 0755) && errno != EEXIST)
		err = -errno;
	first = err;

	for (int i = 0; !err && i < nr; i++) {
		const struct feat_build_id *b = &bids[i];
		struct build_id bid = { .size = b->size };
		char sbid[2 * BUILD_ID_SIZE + 1];
		const char *name = b->filename;
		enum bid_cache_kind kind = BID_CACHE_FILE;
		int e;

		if (b->kernel && !strcmp(name, KALLSYMS_NAME)) {
			kind = BID_CACHE_KALLSYMS;
		} else if (!b->kernel && !strcmp(name, VDSO_NAME)) {
			kind = BID_CACHE_VDSO;
			name = NULL;	/* our own image */
		} else if (name[0] != '/') {
			continue;
		}
		if (!b->size || b->size > sizeof(bid.data))
			continue;
		memcpy(bid.data, b->bid, b->size);
		build_id__sprintf(&bid, sbid);
		if (bid_cache__cached(sbid))
			continue;
		e = bid_cache__add(sbid, name, kind);
		if (e) {
			nr_failed++;
			if (!first)
				first = e;
		}
	}
	if (failed)
		*failed = err ? nr : nr_failed;
	return first;
}

/* rm -rf path (no symlinks followed). 0 or -errno. */
static int rm_rf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char sub[PATH_MAX + 256];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		err = rm_rf(sub);
		if (err)
			break;
	}
	closedir(d);
	if (!err && rmdir(path))
		err = -errno;
	return err;
}

int bid_cache__remove(const char *sbid)
{
	char link[PATH_MAX], target[PATH_MAX], path[2 * PATH_MAX];
	ssize_t len;

	if (link_name(sbid, link, sizeof(link)))
		return -ENOENT;
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return -errno;
	target[len] = '\0';
	if (unlink(link))
		return -errno;
	/* the target is relative to the link's directory */
	*strrchr(link, '/') = '\0';
	snprintf(path, sizeof(path), "%s/%s", link, target);
	return rm_rf(path);
}

char *bid_cache__origname(const char *sbid)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t len;
	char *p, *name;

	if (link_name(sbid, link, sizeof(link)))
		return NULL;
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return NULL;
	target[len] = '\0';
	/* "../../ORIGPATH/SBID", or "../../[kernel.kallsyms]/SBID" */
	p = strrchr(target, '/');
	if (strncmp(target, "../..", 5) || !p || p <= target + 5)
		return NULL;
	*p = '\0';
	name = target + 5;
	if (name[1] == '[')
		name++;
	return strdup(name);
}

int bid_cache__kernel_build_id(struct build_id *bid)
{
	int n = features__read_build_id("/sys/kernel/notes", true, bid->data);

	bid->size = n > 0 ? (size_t)n : 0;
	return n > 0 ? 0 : n ? n : -ENOENT;
}

bool bid_cache__valid(const char *sbid)
{
	char *name = bid_cache__origname(sbid);
	struct build_id bid = { .size = 0 };
	char now[2 * BUILD_ID_SIZE + 1] = "";
	int err = -ENOENT;

	if (!name)
		return false;
	if (!strcmp(name, KALLSYMS_NAME))
		err = bid_cache__kernel_build_id(&bid);
	else if (name[0] == '/')
		err = filename__read_build_id(name, &bid);
	free(name);
	if (err)
		return false;
	build_id__sprintf(&bid, now);
	return !strcmp(now, sbid);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append a copy of s to *list (nr entries, *alloc slots). 0 or -ENOMEM. */
static int list_add(char ***list, int *nr, int *alloc, const char *s)
{
	if (*nr == *alloc) {
		int n = *alloc ? *alloc * 2 : 16;
		char **l = realloc(*list, (size_t)n * sizeof(*l));

		if (!l)
			return -ENOMEM;
		*list = l;
		*alloc = n;
	}
	(*list)[*nr] = strdup(s);
	if (!(*list)[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

void bid_cache__free_list(char **list, int nr)
{
	for (int i = 0; i < nr; i++)
		free(list[i]);
	free(list);
}

/* The sorted list's end: the count, or -ENOMEM after freeing it. */
static int list_done(char ***out, char **list, int nr, int err)
{
	if (err) {
		bid_cache__free_list(list, nr);
		*out = NULL;
		return err;
	}
	if (nr)
		qsort(list, (size_t)nr, sizeof(*list), cmp_str);
	*out = list;
	return nr;
}

int bid_cache__list(char ***out, bool validonly)
{
	const char *dir = dso__buildid_dir();
	char top[PATH_MAX];
	char **list = NULL;
	int nr = 0, alloc = 0, err = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	if (!dir)
		return 0;
	snprintf(top, sizeof(top), "%s/.build-id", dir);
	d = opendir(top);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char sub[PATH_MAX + 256];
		struct dirent *e;
		DIR *sd;

		if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", top, de->d_name);
		sd = opendir(sub);
		if (!sd)
			continue;
		while (!err && (e = readdir(sd))) {
			char sbid[2 * BUILD_ID_SIZE + 1];

			if (e->d_name[0] == '.' || strlen(e->d_name) > 2 * BUILD_ID_SIZE - 2)
				continue;
			snprintf(sbid, sizeof(sbid), "%s%s", de->d_name, e->d_name);
			if (validonly && !bid_cache__valid(sbid))
				continue;
			err = list_add(&list, &nr, &alloc, sbid);
		}
		closedir(sd);
	}
	closedir(d);
	return list_done(out, list, nr, err);
}

int bid_cache__list_path(const char *path, char ***out)
{
	const char *dir = dso__buildid_dir();
	char real[PATH_MAX], name[2 * PATH_MAX];
	char **list = NULL;
	int nr = 0, alloc = 0, err = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	if (!dir)
		return -ENOENT;
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	snprintf(name, sizeof(name), "%s%s%s", dir, real[0] == '/' ? "" : "/", real);
	d = opendir(name);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (de = readdir(d)))
		if (de->d_name[0] != '.')
			err = list_add(&list, &nr, &alloc, de->d_name);
	closedir(d);
	return list_done(out, list, nr, err);
}
