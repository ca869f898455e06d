// SPDX-License-Identifier: GPL-2.0
/*
 * prf diff's table: entries matched across files by name, perf diff's
 * computed columns, its sort order and its text (see diff.h).
 *
 * Order (perf 6.1's diff output sort, observed): with -o N (default 1)
 * first by file N's computed value, entries with a value there first
 * (for ratio and wdiff, entries without a baseline below those with
 * one); then by baseline period, larger first; then by each later file's
 * computed value, entries with any pair first; then the sort keys as
 * report orders them. Values sort larger first (delta-abs: by magnitude).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "diff.h"
#include "../model/dso.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define DIFF_KEY_MAX 8192
#define VERBOSE_IP_WIDTH 18		/* "0x" and 16 hex digits */

struct name_index {
	uint32_t *slot;			/* row + 1, 0 empty */
	char **names;			/* per row */
	uint64_t *hash;			/* per row */
	size_t mask, cap_rows;
};

static uint64_t name_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* An entry's name under the grouping keys: key texts separated by \x1f,
 * symbols by name, missing DSO or symbol as \x01. Returns the length. */
static size_t entry_name(const struct sort_order *so, const struct hist_entry *he, char *buf)
{
	size_t n = 0;

	for (int k = 0; k < so->nr_keys; k++) {
		int key = so->keys[k];
		const char *s = NULL;
		char tmp[64];
		int len;

		switch (key) {
		case SORT_SYM:
			s = he->sym ? he->sym->name : "\x01";
			break;
		case SORT_DSO:
			s = he->dso ? hist_entry__key_text(he, SORT_DSO) : "\x01";
			break;
		case SORT_PID:
			snprintf(tmp, sizeof(tmp), "%d", (int)he->tid);
			s = tmp;
			break;
		default:
			break;
		}
		if (s) {
			len = (int)strnlen(s, DIFF_KEY_MAX / 2);
			if (n + (size_t)len + 2 >= DIFF_KEY_MAX)
				break;
			memcpy(buf + n, s, (size_t)len);
		} else {
			len = hist_entry__key_snprintf(so, he, key, buf + n, (int)(DIFF_KEY_MAX - n - 1));
		}
		n += (size_t)len;
		buf[n++] = '\x1f';
	}
	buf[n] = 0;
	return n;
}

static int table_grow(struct diff_table *t, struct name_index *ix)
{
	size_t cap = ix->cap_rows ? ix->cap_rows * 2 : 256;
	struct diff_row *rows = realloc(t->rows, cap * sizeof(*rows));
	struct diff_cell *cells;
	char **names;
	uint64_t *hash;

	if (!rows)
		return -ENOMEM;
	t->rows = rows;
	cells = realloc(t->cells, cap * (size_t)t->nr_files * sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	t->cells = cells;
	names = realloc(ix->names, cap * sizeof(*names));
	if (!names)
		return -ENOMEM;
	ix->names = names;
	hash = realloc(ix->hash, cap * sizeof(*hash));
	if (!hash)
		return -ENOMEM;
	ix->hash = hash;
	ix->cap_rows = cap;

	/* the slots: twice the rows, rebuilt */
	free(ix->slot);
	ix->mask = cap * 2 - 1;
	ix->slot = calloc(cap * 2, sizeof(*ix->slot));
	if (!ix->slot)
		return -ENOMEM;
	for (size_t r = 0; r < t->nr_rows; r++) {
		size_t s = ix->hash[r] & ix->mask;

		while (ix->slot[s])
			s = (s + 1) & ix->mask;
		ix->slot[s] = (uint32_t)(r + 1);
	}
	return 0;
}

/* The row named name (made when new); -ENOMEM, else the row index. */
static long table_find(struct diff_table *t, struct name_index *ix, const char *name, size_t len,
		       struct hist_entry *he, int file)
{
	uint64_t h = name_hash(name, len);
	size_t s;
	size_t r;

	if (t->nr_rows + 1 > ix->cap_rows && table_grow(t, ix))
		return -ENOMEM;
	for (s = h & ix->mask; ix->slot[s]; s = (s + 1) & ix->mask) {
		r = ix->slot[s] - 1;
		if (ix->hash[r] == h && !strcmp(ix->names[r], name))
			return (long)r;
	}
	r = t->nr_rows;
	ix->names[r] = strdup(name);
	if (!ix->names[r])
		return -ENOMEM;
	ix->hash[r] = h;
	ix->slot[s] = (uint32_t)(r + 1);
	t->rows[r] = (struct diff_row){ .rep = he, .dummy = file != 0 };
	memset(diff_table__cell(t, r, 0), 0, (size_t)t->nr_files * sizeof(struct diff_cell));
	t->nr_rows++;
	return (long)r;
}

int diff_table__build(struct diff_table *t, const struct sort_order *so,
		      const struct diff_file *files, int nr, bool children)
{
	struct name_index *ix;
	char *name;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->nr_files = nr;
	ix = zalloc(sizeof(*ix));
	name = malloc(DIFF_KEY_MAX);
	t->priv = ix;
	if (!ix || !name) {
		free(name);
		return -ENOMEM;
	}
	for (int f = 0; f < nr && !err; f++) {
		const struct hists *h = files[f].hists;

		for (size_t i = 0; h && i < h->nr_sorted; i++) {
			struct hist_entry *he = h->sorted[i];
			size_t len = entry_name(so, he, name);
			long r = table_find(t, ix, name, len, he, f);
			struct diff_cell *c;

			if (r < 0) {
				err = (int)r;
				break;
			}
			c = diff_table__cell(t, (size_t)r, f);
			if (!c->he)
				c->he = he;
			c->period += children ? he->period_acc : he->period;
			if (f)
				t->rows[r].paired = true;
		}
	}
	free(name);
	return err;
}

void diff_table__exit(struct diff_table *t)
{
	struct name_index *ix = t->priv;

	if (ix) {
		for (size_t r = 0; r < t->nr_rows; r++)
			free(ix->names[r]);
		free(ix->names);
		free(ix->hash);
		free(ix->slot);
		free(ix);
	}
	free(t->rows);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

double diff_file__share(const struct diff_file *f, uint64_t period, bool relative)
{
	uint64_t total = relative ? f->total_nf : f->total;

	return (double)period * 100.0 / (double)total;
}

/* ---- the columns ---- */

enum diff_col {
	COL_BASELINE,
	COL_PERIOD,
	COL_BASE_PERIOD,
	COL_DELTA,
	COL_DELTA_ABS,
	COL_RATIO,
	COL_WDIFF,
	COL_FORMULA,
};

static const struct {
	const char *name;
	int width;
} col_info[] = {
	[COL_BASELINE]		= { "Baseline", 0 },
	[COL_PERIOD]		= { "Period", 14 },
	[COL_BASE_PERIOD]	= { "Base period", 14 },
	[COL_DELTA]		= { "Delta", 7 },
	[COL_DELTA_ABS]		= { "Delta Abs", 7 },
	[COL_RATIO]		= { "Ratio", 14 },
	[COL_WDIFF]		= { "Weighted diff", 14 },
	[COL_FORMULA]		= { "Formula", 70 },
};

/* perf cuts a value's text to its 70-byte buffer */
#define DIFF_CELL_MAX 70

struct diff_column {
	enum diff_col type;
	int file;
	int width;
	char header[96];
};

struct diff_print {
	const struct diff_opts *o;
	const struct diff_file *files;
	const struct sort_order *so;
	struct diff_table *t;
	struct diff_column cols[4 * 64];
	int nr_cols;
	uint64_t base_total;		/* the baseline's total when printing */
	struct sort_order *one;		/* -v: a copy of so, one key at a time */
};

static void add_column(struct diff_print *p, enum diff_col type, int file, int nr_files)
{
	struct diff_column *c = &p->cols[p->nr_cols++];
	char name[64];
	int len;

	if (nr_files > 2)
		snprintf(name, sizeof(name), "%s/%d", col_info[type].name, file);
	else
		snprintf(name, sizeof(name), "%s", col_info[type].name);
	c->type = type;
	c->file = file;
	len = (int)strlen(name);
	c->width = col_info[type].width > len ? col_info[type].width : len;
	snprintf(c->header, sizeof(c->header), "%*s", c->width, name);
}

static void compute_cells(const struct diff_opts *o, const struct diff_file *files,
			  struct diff_table *t)
{
	for (size_t r = 0; r < t->nr_rows; r++) {
		const struct diff_cell *b = diff_table__cell(t, r, 0);
		double old_share = diff_file__share(&files[0], b->period, o->relative);

		if (t->rows[r].removed)
			continue;
		for (int f = 1; f < t->nr_files; f++) {
			struct diff_cell *c = diff_table__cell(t, r, f);

			if (!c->he)
				continue;
			c->delta = diff_file__share(&files[f], c->period, o->relative) - old_share;
			c->ratio = (double)c->period / (double)(b->period ? b->period : 1);
			c->wdiff = (int64_t)(c->period * (uint64_t)o->w2 - b->period * (uint64_t)o->w1);
		}
	}
}

static int cmp_value(enum diff_compute c, const struct diff_cell *a, const struct diff_cell *b)
{
	double x, y;

	switch (c) {
	case DIFF_DELTA:
		x = a->delta, y = b->delta;
		break;
	case DIFF_DELTA_ABS:
		x = fabs(a->delta), y = fabs(b->delta);
		break;
	case DIFF_RATIO:
		x = a->ratio, y = b->ratio;
		break;
	default: {
		int64_t d = (int64_t)((uint64_t)a->wdiff - (uint64_t)b->wdiff);

		return d > 0 ? -1 : d < 0;
	}
	}
	return x > y ? -1 : x < y;
}

/* <0: a before b by file f's computed value (idx: the -o sort) */
static int cmp_computed(const struct diff_print *p, size_t a, size_t b, int f, bool idx)
{
	const struct diff_row *ra = &p->t->rows[a], *rb = &p->t->rows[b];
	const struct diff_cell *ca = diff_table__cell(p->t, a, f), *cb = diff_table__cell(p->t, b, f);
	enum diff_compute c = p->o->compute;

	if (!idx) {
		if (!ra->paired && !rb->paired)
			return 0;
		if (!ra->paired || !rb->paired)
			return ra->paired ? -1 : 1;
	}
	if (!ca->he && !cb->he)
		return 0;
	if (!ca->he || !cb->he)
		return ca->he ? -1 : 1;
	if (idx && c != DIFF_DELTA && c != DIFF_DELTA_ABS && (ra->dummy || rb->dummy))
		return ra->dummy == rb->dummy ? 0 : ra->dummy ? 1 : -1;
	return cmp_value(c, ca, cb);
}

/* hist_entry__cmp_output() as perf -v orders the keys: DSOs by their
 * path (perf compares the names it shows) */
static int cmp_keys_verbose(const struct diff_print *p, const struct hist_entry *a,
			    const struct hist_entry *b)
{
	const struct sort_order *so = p->so;
	int r = 0;

	for (int i = 0; i < so->nr_sort && !r; i++) {
		if (so->sort[i] == SORT_DSO && !sort_order__key_elided(so, SORT_DSO)) {
			const char *x = a->dso ? a->dso->long_name : NULL;
			const char *y = b->dso ? b->dso->long_name : NULL;

			r = x && y ? strcmp(x, y) : x ? -1 : y ? 1 : 0;
			continue;
		}
		p->one->sort[0] = so->sort[i];
		p->one->nr_sort = 1;
		r = hist_entry__cmp_output(p->one, a, b);
	}
	return r;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct diff_print *p = arg;
	size_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	uint64_t x, y;
	int r = 0;

	if (p->o->order)
		r = cmp_computed(p, a, b, (int)p->o->order, true);
	if (r)
		return r;
	x = diff_table__cell(p->t, a, 0)->period;
	y = diff_table__cell(p->t, b, 0)->period;
	if (x != y)
		return x > y ? -1 : 1;
	for (int f = 1; f < p->t->nr_files && !r; f++)
		r = cmp_computed(p, a, b, f, false);
	if (!r)
		r = p->one ? cmp_keys_verbose(p, p->t->rows[a].rep, p->t->rows[b].rep) :
			     hist_entry__cmp_output(p->so, p->t->rows[a].rep, p->t->rows[b].rep);
	if (!r)
		r = a < b ? -1 : a > b;
	return r;
}

static void formula_text(const struct diff_print *p, size_t r, int f, char *buf, size_t size)
{
	const struct diff_cell *b = diff_table__cell(p->t, r, 0);
	const struct diff_cell *c = diff_table__cell(p->t, r, f);
	const struct diff_file *nf = &p->files[f];

	switch (p->o->compute) {
	case DIFF_DELTA:
	case DIFF_DELTA_ABS:
		snprintf(buf, size, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 c->period, p->o->relative ? nf->total_nf : nf->total, b->period, p->base_total);
		break;
	case DIFF_RATIO:
		snprintf(buf, size, "%.0f / %.0f", (double)c->period, (double)b->period);
		break;
	case DIFF_WDIFF:
		snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			 c->period, p->o->w2, b->period, p->o->w1);
		break;
	}
}

/* The text of column col of row r (before padding). */
static void cell_text(const struct diff_print *p, const struct diff_column *col, size_t r,
		      char *buf, size_t size)
{
	const struct diff_row *row = &p->t->rows[r];
	const struct diff_cell *c = diff_table__cell(p->t, r, col->file);

	snprintf(buf, size, " ");
	switch (col->type) {
	case COL_BASELINE:
		if (!row->dummy)
			snprintf(buf, size, p->o->field_sep ? "%.2f" : "%6.2f%%",
				 (double)c->period * 100.0 / (double)p->base_total);
		return;
	case COL_BASE_PERIOD:
		snprintf(buf, size, "%" PRIu64, c->period);
		return;
	default:
		break;
	}
	if (!c->he)
		return;
	switch (col->type) {
	case COL_DELTA:
	case COL_DELTA_ABS:
		snprintf(buf, size, "%+4.2f%%", c->delta);
		break;
	case COL_RATIO:
		if (row->dummy)
			snprintf(buf, size, "N/A");
		else if (c->ratio > 0.0)
			snprintf(buf, size, "%14.6f", c->ratio);
		break;
	case COL_WDIFF:
		if (row->dummy)
			snprintf(buf, size, "N/A");
		else
			snprintf(buf, size, "%14" PRId64, c->wdiff);	/* 6.1: 0 too */
		break;
	case COL_FORMULA:
		formula_text(p, r, col->file, buf, size);
		break;
	case COL_PERIOD:
		snprintf(buf, size, "%" PRIu64, c->period);
		break;
	default:
		break;
	}
}

/* Whether the build-id cache has file (elf, debug) of dso's build-id:
 * perf looks there before /usr/lib/debug/.build-id. */
static bool cache_has(const char *cache, const struct dso *dso, const char *file)
{
	char hex[2 * BUILD_ID_SIZE + 1], path[4096];

	if (!cache || !dso->has_build_id || !build_id__sprintf(&dso->bid, hex))
		return false;
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/%s", cache, hex, hex + 2, file);
	return !access(path, R_OK);
}

/*
 * The letter perf 6.1 shows with -v for where a DSO's symbols were read
 * from (its symtab origin): k kallsyms, v vmlinux, j a JIT map, B / D
 * the build-id cache's elf / debug file, b /usr/lib/debug/.build-id,
 * f / u /usr/lib/debug by path (with / without .debug), K a module on the
 * system path, d the DSO itself on its path, l a .gnu_debuglink file,
 * '!' none.
 */
static char dso_origin(const struct dso *dso)
{
	const char *src = dso ? dso->symsrc_path : NULL;
	const char *cache = dso__buildid_dir();
	size_t n;

	if (!src)
		return dso && dso->kind == DSO_JIT && dso->nr_symbols ? 'j' : '!';
	n = strlen(src);
	if (dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE) {
		if (n >= 8 && !strcmp(src + n - 8, "kallsyms"))
			return 'k';
		return dso->kind == DSO_KERNEL ? 'v' : 'K';
	}
	if (dso->kind == DSO_JIT)
		return 'j';
	if (cache && !strncmp(src, cache, strlen(cache)))
		return n >= 6 && !strcmp(src + n - 6, "/debug") ? 'D' : 'B';
	if (!strncmp(src, "/usr/lib/debug/.build-id/", 25))
		return cache_has(cache, dso, "debug") ? 'D' : 'b';
	if (!strncmp(src, "/usr/lib/debug/", 15) && strstr(src, dso->long_name))
		return n >= 6 && !strcmp(src + n - 6, ".debug") ? 'f' : 'u';
	if (!strcmp(src, dso->long_name) || (dso->runtime_path && !strcmp(src, dso->runtime_path)))
		return 'd';
	return 'l';
}

/* -v: perf's widths of the DSO (its path) and symbol (address and
 * origin before it) columns */
static void verbose_widths(struct sort_order *so, struct hist_entry **reps, size_t n)
{
	for (int c = 0; c < so->nr_cols; c++) {
		int *w = &so->cols[c].width;

		for (size_t i = 0; i < n; i++) {
			int len = -1;

			if (so->cols[c].type == SORT_DSO && reps[i]->dso)
				len = (int)dso__long_name_len(reps[i]->dso);
			else if (so->cols[c].type == SORT_SYM && reps[i]->sym)
				len = (int)symbol__name_len(reps[i]->sym) + 4 + VERBOSE_IP_WIDTH + 3;
			if (len > *w)
				*w = len;
		}
	}
}

/* A key's text as -v shows it into buf; its length. */
static int verbose_key(const struct sort_order *so, const struct hist_entry *he, int type,
		       char *buf, size_t size)
{
	int n;

	if (type == SORT_DSO && he->dso)
		return snprintf(buf, size, "%s", he->dso->long_name);
	if (type != SORT_SYM)
		return hist_entry__key_snprintf(so, he, type, buf, (int)size);
	n = snprintf(buf, size, "%-#*" PRIx64 " %c ", VERBOSE_IP_WIDTH, he->ip, dso_origin(he->dso));
	return n + hist_entry__key_snprintf(so, he, type, buf + n, (int)size - n);
}

static int last_key_col(const struct sort_order *so)
{
	int last = -1;

	for (int c = 0; c < so->nr_cols; c++)
		if (!so->cols[c].elide)
			last = c;
	return last;
}

static void put_keys(const struct sort_order *so, const struct hist_entry *he,
		     const char *sep, bool first, bool verbose, FILE *fp)
{
	char buf[4096];
	int last = last_key_col(so);

	for (int c = 0; c < so->nr_cols; c++) {
		int t = so->cols[c].type, w = so->cols[c].width, n;

		if (so->cols[c].elide)
			continue;
		if (!first)
			fputs(sep ? sep : "  ", fp);
		first = false;
		n = verbose ? verbose_key(so, he, t, buf, sizeof(buf)) :
			      hist_entry__key_snprintf(so, he, t, buf, sizeof(buf));
		switch (t) {
		case SORT_CPU:
			fprintf(fp, "%*s", w, buf);
			break;
		case SORT_SYM:
		case SORT_SYMOFF:
		case SORT_SRCLINE:
		case SORT_TRACE:
			/* padded only when another column follows */
			if (c == last)
				fputs(buf, fp);
			else
				fprintf(fp, "%-*s", w, buf);
			break;
		default:
			/* cut to the column and padded */
			fprintf(fp, "%-*.*s", w, n > w ? w : n, buf);
			break;
		}
	}
}

void diff__put_keys(const struct sort_order *so, const struct hist_entry *he,
		    const char *sep, bool first, FILE *fp)
{
	put_keys(so, he, sep, first, false, fp);
}

void diff__put_key_headers(const struct sort_order *so, const char *sep, bool first,
			   bool dots, FILE *fp)
{
	for (int c = 0; c < so->nr_cols; c++) {
		int w = so->cols[c].width;

		if (so->cols[c].elide)
			continue;
		if (!first)
			fputs(sep ? sep : "  ", fp);
		first = false;
		if (dots)
			for (int i = 0; i < w; i++)
				fputc('.', fp);
		else
			fprintf(fp, "%-*s", w, sort_column__header(so, so->cols[c].type));
	}
}

static void print_headers(const struct diff_print *p, const struct sort_order *so, FILE *fp)
{
	const char *sep = p->o->field_sep;

	fputs("# ", fp);
	for (int c = 0; c < p->nr_cols; c++) {
		if (c)
			fputs(sep ? sep : "  ", fp);
		fputs(p->cols[c].header, fp);
	}
	diff__put_key_headers(so, sep, !p->nr_cols, false, fp);
	fputc('\n', fp);
	if (sep)
		return;
	fputs("# ", fp);
	for (int c = 0; c < p->nr_cols; c++) {
		if (c)
			fputs("  ", fp);
		for (int i = 0; i < p->cols[c].width; i++)
			fputc('.', fp);
	}
	diff__put_key_headers(so, sep, !p->nr_cols, true, fp);
	fputs("\n#\n", fp);
}

/* --percent-limit: every file's share of the row below the limit */
static bool below_limit(const struct diff_print *p, size_t r)
{
	for (int f = 0; f < p->t->nr_files; f++) {
		const struct diff_cell *c = diff_table__cell(p->t, r, f);
		double share = f ? diff_file__share(&p->files[f], c->period, p->o->relative)
				 : (double)c->period * 100.0 / (double)p->base_total;

		if (c->he && share >= p->o->min_percent)
			return false;
	}
	return true;
}

static void set_columns(struct diff_print *p, int nr)
{
	static const enum diff_col compute_col[] = {
		[DIFF_DELTA] = COL_DELTA, [DIFF_DELTA_ABS] = COL_DELTA_ABS,
		[DIFF_RATIO] = COL_RATIO, [DIFF_WDIFF] = COL_WDIFF,
	};

	for (int f = 0; f < nr && p->nr_cols + 3 <= (int)ARRAY_SIZE(p->cols); f++) {
		add_column(p, f ? compute_col[p->o->compute] : COL_BASELINE, f, nr);
		if (p->o->show_formula && f)
			add_column(p, COL_FORMULA, f, nr);
		if (p->o->show_period)
			add_column(p, f ? COL_PERIOD : COL_BASE_PERIOD, f, nr);
	}
}

/* A later file sharing (almost) no user-space entry with the baseline
 * is most likely a recording of something else: say so (the table still
 * shows both). Kernel entries and the dynamic loader's are in most
 * recordings, so what counts is the part of the baseline's samples in
 * user-space entries the later file has too. */
static void warn_nothing_common(const struct diff_table *t, const struct diff_file *files)
{
	for (int f = 1; f < t->nr_files; f++) {
		uint64_t common = 0;

		if (!files[f].hists || !files[0].hists || !files[0].total)
			continue;
		for (size_t r = 0; r < t->nr_rows; r++) {
			const struct diff_cell *a = diff_table__cell(t, r, 0);
			const struct diff_cell *b = diff_table__cell(t, r, f);

			if (a->he && b->he && !a->he->filtered && a->he->level != 'k')
				common += a->period;
		}
		if (common * 10 < files[0].total)
			pr_warning("prf diff: %s and %s have almost no user-space entry in common "
				   "(%.1f%% of the first's samples)\n", files[0].path, files[f].path,
				   100.0 * (double)common / (double)files[0].total);
	}
}

int diff__fprintf(const struct diff_opts *o, struct sort_order *so,
		  const struct diff_file *files, int nr, FILE *fp)
{
	struct diff_print *p = zalloc(sizeof(*p));
	struct hist_entry **reps = NULL;
	uint32_t *order = NULL;
	int widths[SORT_MAX_COLUMNS];
	size_t n = 0;
	int err, printed = 0;

	if (!p)
		return -ENOMEM;
	p->o = o;
	p->files = files;
	p->so = so;
	p->t = zalloc(sizeof(*p->t));
	err = p->t ? diff_table__build(p->t, so, files, nr, false) : -ENOMEM;
	if (err)
		goto out;
	err = -ENOMEM;
	order = malloc((p->t->nr_rows + 1) * sizeof(*order));
	reps = malloc((p->t->nr_rows + 1) * sizeof(*reps));
	if (!order || !reps)
		goto out;
	/* perf: with -b only the baseline's paired entries; without, the
	 * entries of later files join as dummies. The baseline's total is
	 * then summed again over the entries kept. */
	for (size_t r = 0; r < p->t->nr_rows; r++) {
		struct diff_row *row = &p->t->rows[r];
		const struct diff_cell *b = diff_table__cell(p->t, r, 0);

		if (o->baseline_only && (row->dummy || !row->paired)) {
			row->removed = true;
			continue;
		}
		if (!row->dummy && (!o->relative || !b->he->filtered))
			p->base_total += b->period;
		order[n] = (uint32_t)r;
		reps[n++] = row->rep;
	}
	warn_nothing_common(p->t, files);
	compute_cells(o, files, p->t);
	if (o->verbose) {
		p->one = malloc(sizeof(*p->one));
		if (!p->one)
			goto out;
		*p->one = *so;	/* shares so's arrays: read only, one key set */
	}
	qsort_r(order, n, sizeof(*order), cmp_rows, p);
	hist_entries__col_widths(so, reps, n, widths);
	for (int c = 0; c < so->nr_cols; c++)
		so->cols[c].width = widths[c];
	if (o->verbose)
		verbose_widths(so, reps, n);
	set_columns(p, nr);
	if (!o->quiet)
		print_headers(p, so, fp);
	for (size_t i = 0; i < n; i++) {
		size_t r = order[i];
		const struct diff_row *row = &p->t->rows[r];
		char buf[DIFF_CELL_MAX];

		if (row->rep->filtered || (o->min_percent > 0 && below_limit(p, r)))
			continue;
		for (int c = 0; c < p->nr_cols; c++) {
			cell_text(p, &p->cols[c], r, buf, sizeof(buf));
			if (o->field_sep)
				fprintf(fp, "%s%-*s", c ? o->field_sep : "", p->cols[c].width, buf);
			else
				fprintf(fp, "  %*s", p->cols[c].width, buf);
		}
		put_keys(so, row->rep, o->field_sep, !p->nr_cols, o->verbose, fp);
		fputc('\n', fp);
		printed++;
	}
	err = ferror(fp) ? -EPIPE : printed;
out:
	if (p->t) {
		diff_table__exit(p->t);
		free(p->t);
	}
	free(order);
	free(reps);
	free(p->one);
	free(p);
	return err;
}
