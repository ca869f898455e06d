// SPDX-License-Identifier: GPL-2.0
/* The exporters' table and their output file; see export-format.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "export-format.h"
#include "../lib/debug.h"
#include "../model/dso.h"
#include "../model/map.h"

static const struct export_format *const formats[] = {
	&export_json, &export_pprof, &export_gecko, &export_speedscope,
};

const struct export_format *export_format__find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

int export_file__open(struct export_file *f, const char *path)
{
	mode_t mask;
	int fd, err;

	memset(f, 0, sizeof(*f));
	if (!strcmp(path, "-")) {
		f->to_stdout = true;
		f->fp = stdout;
		return 0;
	}
	f->path = strdup(path);
	if (!f->path || asprintf(&f->tmp, "%s.tmp.XXXXXX", path) < 0) {
		f->tmp = NULL;
		err = -ENOMEM;
		goto out_err;
	}
	fd = mkstemp(f->tmp);
	if (fd < 0) {
		err = -errno;
		pr_err("cannot write %s: %s\n", path, strerror(errno));
		free(f->tmp);
		f->tmp = NULL;
		goto out_err;
	}
	/* mkstemp() makes it 0600: give it what open(path, O_CREAT, 0666) would */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0)
		pr_debug("fchmod %s: %s\n", f->tmp, strerror(errno));
	f->fp = fdopen(fd, "w");
	if (!f->fp) {
		err = -errno;
		close(fd);
		goto out_err;
	}
	return 0;
out_err:
	export_file__abort(f);
	return err;
}

int export_file__commit(struct export_file *f)
{
	int err = 0;

	if (f->to_stdout) {
		if (fflush(stdout) || ferror(stdout))
			err = -EIO;
		return err;
	}
	if (fflush(f->fp) || ferror(f->fp))
		err = errno ? -errno : -EIO;
	if (fclose(f->fp) && !err)
		err = errno ? -errno : -EIO;
	f->fp = NULL;
	if (!err && rename(f->tmp, f->path) < 0)
		err = -errno;
	if (err) {
		pr_err("cannot write %s: %s\n", f->path, strerror(-err));
		export_file__abort(f);
		return err;
	}
	free(f->tmp);
	f->tmp = NULL;
	free(f->path);
	f->path = NULL;
	return 0;
}

void export_file__abort(struct export_file *f)
{
	if (f->to_stdout)
		return;
	if (f->fp)
		fclose(f->fp);
	f->fp = NULL;
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	free(f->path);
	f->tmp = NULL;
	f->path = NULL;
}

unsigned int export__srcline_split(const char *srcline, size_t *file_len)
{
	const char *colon;
	unsigned long line;
	char *end;

	*file_len = 0;
	if (!srcline)
		return 0;
	colon = strrchr(srcline, ':');
	if (!colon) {
		*file_len = strlen(srcline);
		return 0;
	}
	*file_len = (size_t)(colon - srcline);
	line = strtoul(colon + 1, &end, 10);	/* may go on: " (discriminator 2)" */
	if (end == colon + 1)
		line = 0;
	if (*file_len == 2 && !strncmp(srcline, "??", 2))
		*file_len = 0;
	return (unsigned int)line;
}

static int export_index__grow(struct export_index *x)
{
	uint32_t n = x->slots ? (x->mask + 1) * 2 : 1024;
	struct export_slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	if (x->slots) {
		for (uint32_t i = 0; i <= x->mask; i++) {
			uint32_t j;

			if (!x->slots[i].idx1)
				continue;
			for (j = x->slots[i].hash & (n - 1); s[j].idx1; j = (j + 1) & (n - 1))
				;
			s[j] = x->slots[i];
		}
	}
	free(x->slots);
	x->slots = s;
	x->mask = n - 1;
	return 0;
}

int export_index__lookup(struct export_index *x, uint32_t hash, bool (*eq)(void *arg, uint32_t idx),
			 void *arg, uint32_t new_idx, uint32_t *idx)
{
	uint32_t j;

	if ((!x->slots || (x->nr + 1) * 2 > x->mask + 1) && export_index__grow(x))
		return -ENOMEM;
	for (j = hash & x->mask; x->slots[j].idx1; j = (j + 1) & x->mask) {
		if (x->slots[j].hash == hash && eq(arg, x->slots[j].idx1 - 1)) {
			*idx = x->slots[j].idx1 - 1;
			return 1;
		}
	}
	x->slots[j].idx1 = new_idx + 1;
	x->slots[j].hash = hash;
	x->nr++;
	*idx = new_idx;
	return 0;
}

void export_index__exit(struct export_index *x)
{
	free(x->slots);
	memset(x, 0, sizeof(*x));
}

uint64_t export__hash(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *c = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed ^ n, w;

	for (; n >= 8; c += 8, n -= 8) {
		memcpy(&w, c, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	if (n) {
		w = 0;
		memcpy(&w, c, n);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

int export__grow(void *arr, uint32_t *alloc, uint32_t nr, size_t elem)
{
	void **a = arr;
	uint32_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 64;
	p = realloc(*a, (size_t)n * elem);
	if (!p)
		return -ENOMEM;
	*a = p;
	*alloc = n;
	return 0;
}

struct str_key {
	struct export_strings *t;
	const char *s;
	size_t len;
};

static bool str_eq(void *arg, uint32_t idx)
{
	struct str_key *k = arg;
	const char *e = k->t->str[idx];

	return !strncmp(e, k->s, k->len) && !e[k->len];
}

int64_t export_strings__intern(struct export_strings *t, const char *s, size_t len)
{
	struct str_key k = { t, s, len };
	uint32_t idx;
	int ret;

	if (export__grow(&t->str, &t->alloc, t->nr, sizeof(char *)))
		return -ENOMEM;
	ret = export_index__lookup(&t->index, (uint32_t)export__hash(s, len, 0), str_eq, &k, t->nr, &idx);
	if (ret < 0)
		return ret;
	if (ret == 1)
		return idx;
	t->str[t->nr] = strndup(s, len);
	if (!t->str[t->nr])
		return -ENOMEM;	/* the index now names a missing entry: only __exit() is left */
	return t->nr++;
}

void export_strings__exit(struct export_strings *t)
{
	for (uint32_t i = 0; i < t->nr; i++)
		free(t->str[i]);
	free(t->str);
	export_index__exit(&t->index);
	memset(t, 0, sizeof(*t));
}

int64_t export__frame_name(struct export_strings *t, const struct callchain_frame *f)
{
	char buf[512];

	if (f->sym)
		return export_strings__add(t, f->sym->name);
	if (f->map && f->map->dso) {
		snprintf(buf, sizeof(buf), "[%s]", f->map->dso->short_name);
		return export_strings__add(t, buf);
	}
	return export_strings__add(t, "[unknown]");
}

int64_t export__build_id(struct export_strings *t, const struct dso *dso)
{
	char bid[2 * BUILD_ID_SIZE + 1];

	if (!dso->has_build_id)
		return -ENOENT;
	build_id__sprintf(&dso->bid, bid);
	return export_strings__add(t, bid);
}
