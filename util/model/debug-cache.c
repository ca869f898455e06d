// SPDX-License-Identifier: GPL-2.0
/*
 * On-disk cache of what prf derives from debug and ELF files; see
 * debug-cache.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "debug-cache.h"
#include "../lib/debug.h"
#include "../lib/tunables.h"
#include "../lib/util.h"

/* per kind: its file name suffix, trailer magic and name in messages;
 * bump a magic when the layout of that kind (or what derives it) changes */
static const struct {
	const char *suffix;
	char magic[8];
	const char *name;
} kinds[] = {
	[DEBUG_CACHE_IMAGE] = { ".img", "PRFDIMG1", "image" },
	[DEBUG_CACHE_LINES] = { ".lines", "PRFLINE2", "line tables" },
	[DEBUG_CACHE_PLT] = { ".plt", "PRFPLT01", "PLT names" },
	[DEBUG_CACHE_SYMS] = { ".syms", "PRFSYMS1", "symbols" },
	[DEBUG_CACHE_INLINE] = { ".inl", "PRFINL02", "inline chains" },
	[DEBUG_CACHE_DISASM] = { ".dis", "PRFDIS02", "disassemblies" },
	[DEBUG_CACHE_KNAMES] = { ".knames", "PRFKNAM1", "kallsyms names" },
};
#define TMP_STALE_SECS 3600	/* a temporary file this old was left by a crash */

struct cache_trailer {
	char magic[8];
	uint64_t data_size;	/* bytes of data before the trailer */
	struct file_ident src;	/* the source file */
	uint64_t path_len, path_hash;
};

/* FNV-1a over bytes, continuing from h */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

void file_ident__set(struct file_ident *id, const struct stat *st)
{
	memset(id, 0, sizeof(*id));
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->size = (uint64_t)st->st_size;
	id->mtime_sec = (uint64_t)st->st_mtim.tv_sec;
	id->mtime_nsec = (uint64_t)st->st_mtim.tv_nsec;
}

int file_ident__get(struct file_ident *id, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	file_ident__set(id, &st);
	return 0;
}

static void trailer__init(struct cache_trailer *t, enum debug_cache_kind kind, const char *path,
			  const struct stat *st, size_t data_size)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->magic, kinds[kind].magic, sizeof(t->magic));
	t->data_size = data_size;
	file_ident__set(&t->src, st);
	t->path_len = strlen(path);
	/* a second hash, seeded apart from the file name's */
	t->path_hash = hash_bytes(0x84222325cbf29ce4ULL, path, t->path_len);
}

/* $PRF_DEBUG_CACHE_MAX: bytes (tunables.h) */
static uint64_t cache_max(void)
{
	return tunable__size(TUNABLE_DEBUG_CACHE_MAX);
}

/* The cache directory into dir; false when there is none. */
static bool cache_dir(char *dir, size_t len)
{
	const char *env = tunable__str(TUNABLE_DEBUG_CACHE), *base;
	int n;

	if (env)
		n = *env && strcmp(env, "0") ? snprintf(dir, len, "%s", env) : -1;
	else if ((base = getenv("XDG_CACHE_HOME")) && *base == '/')
		n = snprintf(dir, len, "%s/prf/debug-images", base);
	else if ((base = getenv("HOME")) && *base)
		n = snprintf(dir, len, "%s/.cache/prf/debug-images", base);
	else
		n = -1;
	return n > 0 && (size_t)n < len;
}

/* The cache file's name for this source and kind: a hash of the source's
 * path and identity, and the kind's suffix. */
static bool cache_file(char *buf, size_t len, const char *dir, enum debug_cache_kind kind,
		       const char *path, const struct stat *st)
{
	struct cache_trailer t;
	uint64_t h;
	int n;

	trailer__init(&t, kind, path, st, 0);
	h = hash_bytes(0xcbf29ce484222325ULL, path, t.path_len);
	h = hash_bytes(h, &t.src, sizeof(t.src));
	n = snprintf(buf, len, "%s/%016" PRIx64 "%s", dir, h, kinds[kind].suffix);
	return n > 0 && (size_t)n < len;
}

bool debug_cache__enabled(void)
{
	char dir[PATH_MAX];

	return cache_dir(dir, sizeof(dir));
}

int debug_cache__map(enum debug_cache_kind kind, const char *path, const struct stat *st,
		     void **base, size_t *size)
{
	char dir[PATH_MAX], file[PATH_MAX];
	struct cache_trailer want, got;
	struct stat cst;
	void *map;
	int fd, err = -ENOENT;

	if (!cache_dir(dir, sizeof(dir)) || !cache_file(file, sizeof(file), dir, kind, path, st))
		return -ENOENT;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &cst) || cst.st_size < (off_t)sizeof(got) ||
	    pread(fd, &got, sizeof(got), cst.st_size - sizeof(got)) != (ssize_t)sizeof(got))
		goto bad;
	trailer__init(&want, kind, path, st, got.data_size);
	if (memcmp(&want, &got, sizeof(got)) || !got.data_size ||
	    got.data_size != (uint64_t)cst.st_size - sizeof(got))
		goto bad;
	map = mmap(NULL, got.data_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	futimens(fd, NULL);	/* used now: the last to be evicted */
	close(fd);
	*base = map;
	*size = got.data_size;
	pr_debug2("debuginfo: %s: %s from %s\n", path, kinds[kind].name, file);
	return 0;
bad:
	pr_debug("debuginfo: %s: ignoring %s: not the %s of this file\n", path, file,
		 kinds[kind].name);
	close(fd);
	return err;
}

bool debug_cache__exists(enum debug_cache_kind kind, const char *path, const struct stat *st)
{
	char dir[PATH_MAX], file[PATH_MAX];

	return cache_dir(dir, sizeof(dir)) && cache_file(file, sizeof(file), dir, kind, path, st) &&
	       !access(file, R_OK);
}

/* mkdir -p with mode 0700 */
static int mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(dir, 0700) && errno != EEXIST ? -errno : 0;
}

struct cache_entry {
	char name[64];
	time_t mtime;
	uint64_t bytes;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct cache_entry *x = a, *y = b;

	return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

/* Does a file name end in one of the kinds' suffixes (after a name)? */
static bool cache_suffix(const char *name, size_t len)
{
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		size_t sl = strlen(kinds[k].suffix);

		if (len > sl && !strcmp(name + len - sl, kinds[k].suffix))
			return true;
	}
	return false;
}

/* Remove the least recently used files while all of them pass the
 * limit (never keep, just written), and temporary files left by a crash.
 * Returns the bytes the kept files hold afterwards. */
static uint64_t cache_evict(const char *dir, const char *keep, uint64_t max)
{
	struct cache_entry *e = NULL, *ne;
	size_t n = 0, cap = 0, i;
	uint64_t total = 0;
	struct dirent *d;
	DIR *dp = opendir(dir);
	int dfd;

	if (!dp)
		return 0;
	dfd = dirfd(dp);
	while ((d = readdir(dp))) {
		size_t len = strlen(d->d_name);
		struct stat st;

		if (fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (d->d_name[0] == '.') {
			if (time(NULL) - st.st_mtime > TMP_STALE_SECS)
				unlinkat(dfd, d->d_name, 0);
			continue;
		}
		if (len >= sizeof(e->name) || !cache_suffix(d->d_name, len))
			continue;
		total += (uint64_t)st.st_size;
		if (!strcmp(d->d_name, keep))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			ne = realloc(e, cap * sizeof(*e));
			if (!ne)
				break;
			e = ne;
		}
		memcpy(e[n].name, d->d_name, len + 1);
		e[n].mtime = st.st_mtime;
		e[n].bytes = (uint64_t)st.st_size;
		n++;
	}
	if (total > max && n) {
		qsort(e, n, sizeof(*e), entry_cmp);
		for (i = 0; i < n && total > max; i++) {
			if (!unlinkat(dfd, e[i].name, 0)) {
				total -= e[i].bytes;
				pr_debug2("debuginfo: cache over %" PRIu64 " bytes: removed %s/%s\n",
					  max, dir, e[i].name);
			}
		}
	}
	free(e);
	closedir(dp);
	return total;
}

/*
 * The bytes the cache directory held at this process's last scan plus
 * what it stored since; UINT64_MAX before the first scan. A store scans
 * the directory (a stat per file) only when this passes the limit, not
 * each time: a live prf top loads symbols of many DSOs while its first
 * screen waits. Other processes' files are seen at the next scan.
 */
static uint64_t cache_estimate = UINT64_MAX;

void debug_cache__store(enum debug_cache_kind kind, const char *path, const struct stat *st,
			const struct iovec *iov, int iovcnt)
{
	char dir[PATH_MAX], file[PATH_MAX], tmp[PATH_MAX + 16];
	struct cache_trailer t;
	uint64_t max = cache_max();
	const char *name;
	size_t size = 0;
	int fd, err, i;

	for (i = 0; i < iovcnt; i++)
		size += iov[i].iov_len;
	if (!cache_dir(dir, sizeof(dir)) || !cache_file(file, sizeof(file), dir, kind, path, st) ||
	    size + sizeof(t) > max)
		return;
	err = mkdirs(dir);
	if (err) {
		pr_debug("debuginfo: cannot make the cache directory %s: %s\n", dir, strerror(-err));
		return;
	}
	name = strrchr(file, '/') + 1;
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name);
	fd = mkstemp(tmp);
	if (fd < 0) {
		pr_debug("debuginfo: cannot write to the cache directory %s: %s\n", dir,
			 strerror(errno));
		return;
	}
	trailer__init(&t, kind, path, st, size);
	for (i = 0, err = 0; i < iovcnt && !err; i++)
		err = writen(fd, iov[i].iov_base, iov[i].iov_len);
	if (!err)
		err = writen(fd, &t, sizeof(t));
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, file))
		err = -errno;
	if (err) {
		pr_debug("debuginfo: %s: cannot keep its %s in %s: %s\n", path, kinds[kind].name, file,
			 strerror(-err));
		unlink(tmp);
		return;
	}
	pr_debug2("debuginfo: %s: %s kept in %s (%zu bytes)\n", path, kinds[kind].name, file, size);
	if (__atomic_load_n(&cache_estimate, __ATOMIC_RELAXED) != UINT64_MAX &&
	    __atomic_add_fetch(&cache_estimate, size + sizeof(t), __ATOMIC_RELAXED) <= max)
		return;
	__atomic_store_n(&cache_estimate, cache_evict(dir, name, max), __ATOMIC_RELAXED);
}
