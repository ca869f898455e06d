// SPDX-License-Identifier: GPL-2.0
/*
 * Line tables kept between runs; see line-cache.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "line-cache.h"
#include "debug-cache.h"
#include "../lib/debug.h"
#include "../lib/util.h"

struct lc_header {
	uint32_t nr_units, pad;
};

struct lc_unit {
	uint64_t cu_off;
	uint64_t rows_off;	/* file offsets */
	uint64_t names_off;
	uint32_t nrows, nnames;
	uint64_t names_len;
};

struct line_cache {
	const unsigned char *base;
	size_t size;
	const struct lc_unit *units;	/* in the mapping, sorted by cu_off */
	uint32_t nr_units;
	char *path;			/* for messages */
};

struct line_cache *line_cache__open(const char *path, const struct stat *st)
{
	struct line_cache *lc;
	struct lc_header h;
	void *base;
	size_t size;

	if (debug_cache__map(DEBUG_CACHE_LINES, path, st, &base, &size))
		return NULL;
	if (size >= sizeof(h))
		memcpy(&h, base, sizeof(h));
	if (size < sizeof(h) || h.nr_units > (size - sizeof(h)) / sizeof(struct lc_unit)) {
		pr_debug("debuginfo: %s: kept line tables have a bad header: not used\n", path);
		munmap(base, size);
		return NULL;
	}
	lc = zalloc(sizeof(*lc));
	if (!lc || !(lc->path = strdup(path))) {
		free(lc);
		munmap(base, size);
		return NULL;
	}
	lc->base = base;
	lc->size = size;
	lc->units = (const struct lc_unit *)(lc->base + sizeof(h));
	lc->nr_units = h.nr_units;
	return lc;
}

void line_cache__close(struct line_cache *lc)
{
	if (!lc)
		return;
	munmap((void *)lc->base, lc->size);
	free(lc->path);
	free(lc);
}

/* Does the entry u lie in the mapping (its rows aligned to be used in
 * place), its names nnames strings? */
static bool lc_unit__ok(const struct line_cache *lc, const struct lc_unit *u)
{
	const unsigned char *names = lc->base + u->names_off;
	uint64_t i, nuls = 0;

	if (u->rows_off > lc->size || u->rows_off % _Alignof(struct line_row) ||
	    u->nrows > (lc->size - u->rows_off) / sizeof(struct line_row) ||
	    u->names_off > lc->size || u->names_len > lc->size - u->names_off ||
	    (u->names_len ? names[u->names_len - 1] != '\0' : u->nnames != 0))
		return false;
	for (i = 0; i < u->names_len; i++)
		nuls += names[i] == '\0';
	return nuls == u->nnames;
}

int line_cache__get(struct line_cache *lc, uint64_t cu_off, const struct line_row **rows,
		    size_t *nrows, struct dwarf_line_files *files)
{
	const struct lc_unit *u;
	const char *p;
	size_t lo = 0, hi = lc->nr_units, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lc->units[mid].cu_off < cu_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == lc->nr_units || lc->units[lo].cu_off != cu_off)
		return -ENOENT;
	u = &lc->units[lo];
	if (!lc_unit__ok(lc, u)) {
		pr_debug("debuginfo: %s: kept line table of the unit at %#" PRIx64
			 " is damaged: its line program is read again\n", lc->path, cu_off);
		return -EINVAL;
	}
	files->name = malloc((u->nnames ? u->nnames : 1) * sizeof(*files->name));
	if (!files->name)
		return -ENOMEM;
	files->n = u->nnames;
	for (i = 0, p = (const char *)lc->base + u->names_off; i < u->nnames; i++) {
		files->name[i] = p;
		p += strlen(p) + 1;
	}
	*rows = (const struct line_row *)(lc->base + u->rows_off);
	*nrows = u->nrows;
	return 0;
}

/* A unit to write: a new one (its names packed into own_names), or an
 * old one (rows and names in the old file's mapping). */
struct lc_out {
	uint64_t cu_off;
	const struct line_row *rows;
	const char *names;
	char *own_names;
	uint32_t nrows, nnames;
	uint64_t names_len;
};

/* Pack one in-memory unit's file names; false on ENOMEM. */
static bool lc_out__make(struct lc_out *o, const struct line_cache_unit *u)
{
	size_t i, len = 0;
	char *p;

	o->cu_off = u->cu_off;
	o->rows = u->rows;
	o->nrows = (uint32_t)u->nrows;
	o->nnames = (uint32_t)u->files->n;
	for (i = 0; i < u->files->n; i++)
		len += strlen(u->files->name[i]) + 1;
	o->names_len = len;
	o->names = o->own_names = p = malloc(len ? len : 1);
	if (!p)
		return false;
	for (i = 0; i < u->files->n; i++) {
		size_t l = strlen(u->files->name[i]) + 1;

		memcpy(p, u->files->name[i], l);
		p += l;
	}
	return true;
}

static int lc_out__cmp(const void *pa, const void *pb)
{
	const struct lc_out *a = pa, *b = pb;

	return a->cu_off < b->cu_off ? -1 : a->cu_off > b->cu_off;
}

static const unsigned char lc_zeros[8];

void line_cache__store(const char *path, const struct stat *st, const struct line_cache *old,
		       const struct line_cache_unit *units, size_t n)
{
	size_t nold = old ? old->nr_units : 0, nout = 0, i, j, niov = 0;
	struct lc_out *out = calloc(n + nold + 1, sizeof(*out));
	struct iovec *iov = NULL;
	struct lc_unit *dir = NULL;
	struct lc_header h = { 0 };
	uint64_t off;

	if (!out)
		return;
	for (i = 0; i < n; i++)
		if (!lc_out__make(&out[nout++], &units[i]))
			goto done;
	qsort(out, nout, sizeof(*out), lc_out__cmp);
	for (j = 0; j < nold; j++) {	/* the old units not made anew */
		const struct lc_unit *u = &old->units[j];
		struct lc_out key = { .cu_off = u->cu_off };

		if (!bsearch(&key, out, n, sizeof(*out), lc_out__cmp) && lc_unit__ok(old, u))
			out[nout++] = (struct lc_out){
				.cu_off = u->cu_off,
				.rows = (const struct line_row *)(old->base + u->rows_off),
				.names = (const char *)old->base + u->names_off,
				.nrows = u->nrows, .nnames = u->nnames, .names_len = u->names_len,
			};
	}
	qsort(out, nout, sizeof(*out), lc_out__cmp);
	dir = calloc(nout + 1, sizeof(*dir));
	iov = malloc((2 + 3 * nout) * sizeof(*iov));
	if (!dir || !iov)
		goto done;
	h.nr_units = (uint32_t)nout;
	iov[niov++] = (struct iovec){ &h, sizeof(h) };
	iov[niov++] = (struct iovec){ dir, nout * sizeof(*dir) };
	off = sizeof(h) + nout * sizeof(*dir);
	for (i = 0; i < nout; i++) {
		const struct lc_out *o = &out[i];
		size_t pad;

		dir[i].cu_off = o->cu_off;
		dir[i].nrows = o->nrows;
		dir[i].nnames = o->nnames;
		dir[i].names_len = o->names_len;
		dir[i].rows_off = off;
		iov[niov++] = (struct iovec){ (void *)o->rows, o->nrows * sizeof(struct line_row) };
		off += o->nrows * sizeof(struct line_row);
		dir[i].names_off = off;
		iov[niov++] = (struct iovec){ (void *)o->names, o->names_len };
		off += dir[i].names_len;
		pad = (8 - (off & 7)) & 7;
		iov[niov++] = (struct iovec){ (void *)lc_zeros, pad };
		off += pad;
	}
	debug_cache__store(DEBUG_CACHE_LINES, path, st, iov, (int)niov);
done:
	for (i = 0; i < nout; i++)
		free(out[i].own_names);
	free(out);
	free(dir);
	free(iov);
}
