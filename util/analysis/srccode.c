// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines for `script -F srccode` (srccode.h): source files are read
 * whole on first use and kept (a few at a time) with the offsets of their
 * lines; the last line printed per thread sits in a small direct-mapped
 * table (a thread that collides with another may print its line again).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "srccode.h"
#include "../model/debuginfo.h"
#include "../model/dso.h"
#include "../model/machine.h"
#include "../model/map.h"
#include "../lib/util.h"

#define SRC_FILES 8
#define SRC_THREADS 256

struct src_file {
	char *path;		/* NULL: free slot */
	char *text;		/* NULL: unreadable */
	size_t len;
	size_t *lines;		/* offset of each line's start */
	size_t nr_lines;
	unsigned long used;	/* for replacing the least recently used */
};

struct src_state {
	pid_t tid;
	char *file;		/* last printed line of thread tid */
	unsigned int line;
};

struct srccode {
	struct src_file files[SRC_FILES];
	struct src_state threads[SRC_THREADS];
	unsigned long clock;
	char *out;
	size_t out_size;
};

struct srccode *srccode__new(void)
{
	return zalloc(sizeof(struct srccode));
}

static void src_file__free(struct src_file *f)
{
	free(f->path);
	free(f->text);
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

void srccode__delete(struct srccode *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < SRC_FILES; i++)
		src_file__free(&sc->files[i]);
	for (int i = 0; i < SRC_THREADS; i++)
		free(sc->threads[i].file);
	free(sc->out);
	free(sc);
}

/* Read path whole and index its lines; f->text stays NULL when it cannot. */
static void src_file__load(struct src_file *f)
{
	FILE *fp = fopen(f->path, "r");
	size_t cap = 0;

	if (!fp)
		return;
	for (;;) {
		size_t n;

		if (f->len + 4096 + 1 > cap) {
			char *t = realloc(f->text, cap = cap ? cap * 2 : 65536);

			if (!t)
				goto fail;
			f->text = t;
		}
		n = fread(f->text + f->len, 1, cap - f->len - 1, fp);
		f->len += n;
		if (!n)
			break;
	}
	if (ferror(fp))
		goto fail;
	fclose(fp);
	f->text[f->len] = '\0';
	for (size_t off = 0, cap_l = 0; off < f->len; ) {
		const char *nl = memchr(f->text + off, '\n', f->len - off);

		if (f->nr_lines == cap_l) {
			size_t *l = realloc(f->lines, (cap_l = cap_l ? cap_l * 2 : 256) * sizeof(*l));

			if (!l) {
				zfree(&f->text);
				return;
			}
			f->lines = l;
		}
		f->lines[f->nr_lines++] = off;
		off = nl ? (size_t)(nl - f->text) + 1 : f->len;
	}
	return;
fail:
	fclose(fp);
	zfree(&f->text);
}

static struct src_file *srccode__file(struct srccode *sc, const char *path)
{
	struct src_file *lru = &sc->files[0];

	for (int i = 0; i < SRC_FILES; i++) {
		struct src_file *f = &sc->files[i];

		if (f->path && !strcmp(f->path, path)) {
			f->used = ++sc->clock;
			return f;
		}
		if (!f->path || f->used < lru->used)
			lru = f;
	}
	src_file__free(lru);
	lru->path = strdup(path);
	if (!lru->path)
		return NULL;
	lru->used = ++sc->clock;
	src_file__load(lru);
	return lru;
}

const char *srccode__line(struct srccode *sc, pid_t tid, const struct addr_location *al)
{
	struct src_state *st = &sc->threads[(unsigned int)tid % SRC_THREADS];
	const char *path, *text;
	unsigned int line;
	struct src_file *f;
	size_t len, need;

	if (!al->map || !al->map->dso || dso__srcline_full(al->map->dso, al->addr, &path, &line, NULL))
		return NULL;
	if (st->file && st->tid == tid && st->line == line && !strcmp(st->file, path))
		return NULL;
	f = srccode__file(sc, path);
	if (!f || !f->text || !line || line > f->nr_lines)
		return NULL;
	text = f->text + f->lines[line - 1];
	len = (line < f->nr_lines ? f->lines[line] : f->len) - f->lines[line - 1];
	need = len + 32;
	if (need > sc->out_size) {
		char *o = realloc(sc->out, need);

		if (!o)
			return NULL;
		sc->out = o;
		sc->out_size = need;
	}
	snprintf(sc->out, sc->out_size, "|%-8u %.*s", line, (int)len, text);
	free(st->file);
	st->file = strdup(path);
	st->tid = tid;
	st->line = line;
	return sc->out;
}
