// SPDX-License-Identifier: GPL-2.0
/*
 * Annotation (annotate.h): per-address sample counts of each symbol, and
 * the listing perf 6.1's annotate prints for it. perf takes the listing
 * from `objdump -l -d -S`, so the layout here follows that program's
 * documented interleaving: at each instruction, the innermost function's
 * name when it changes ("name():"), the "FILE:LINE" position when the line
 * changes (perf hides the absolute ones and restarts its line count at
 * LINE), and the source lines not shown yet, back to at most five lines
 * before LINE, or LINE alone when the source goes backwards.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "annotate.h"
#include "../model/debuginfo.h"
#include "../model/disasm.h"
#include "../model/debug-cache.h"
#include "../model/disasm-cache.h"
#include "../model/dso.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../lib/helper-thread.h"

#define SET_BUCKETS 4096
#define CONTEXT_LINES 5		/* source lines shown before a new line */

/* src into dst (size bytes, NUL-terminated, cut to fit): the copies of
 * the per-instruction path, where snprintf's format parsing showed. */
static void str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "0x" and v in lower-case hex (objdump's spelling) at out; the length. */
static size_t hex_put(char *out, uint64_t v)
{
	char tmp[16];
	size_t n = 0, k = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	out[k++] = '0';
	out[k++] = 'x';
	while (n)
		out[k++] = tmp[--n];
	out[k] = '\0';
	return k;
}

struct event_total {
	const struct evsel *evsel;
	uint64_t period, nr_samples;
};

struct source_file {
	struct source_file *next;
	char *path;
	char *data;		/* the file, NUL-terminated */
	char **lines;		/* into data, each NUL-terminated */
	unsigned int nr_lines;
	bool missing;
};

struct symtab_entry {		/* objdump's symbols of a DSO, loaded once */
	struct symtab_entry *next;
	const struct dso *dso;
	struct disasm_symtab *st;	/* NULL: none */
};

struct annotation_set {
	struct annotated_sym *buckets[SET_BUCKETS];
	struct symtab_entry *symtabs;
	struct annotated_sym **all;
	size_t nr, alloc;
	struct event_total *totals;
	size_t nr_totals;
	struct unresolved { struct dso *dso; uint64_t nr; } *unresolved;	/* references held */
	size_t nr_unresolved;
	struct source_file *files;
	char *last_path;		/* -l: the srcline shown last */
	struct listing_prep *prep;	/* annotation_set__prepare()'s, until used */
};

static struct listing_prep *set__prep(struct annotation_set *set, bool code);
static void listing_prep__free(struct listing_prep *p);

int annotate__parse_percent_type(const char *s, enum annotate_percent_type *type)
{
	static const char *const names[] = {
		[PERCENT_LOCAL_PERIOD] = "local-period", [PERCENT_GLOBAL_PERIOD] = "global-period",
		[PERCENT_LOCAL_HITS] = "local-hits", [PERCENT_GLOBAL_HITS] = "global-hits",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*type = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *annotate__percent_type_str(enum annotate_percent_type t)
{
	switch (t) {
	case PERCENT_GLOBAL_PERIOD: return "global period";
	case PERCENT_LOCAL_HITS: return "local hits";
	case PERCENT_GLOBAL_HITS: return "global hits";
	default: return "local period";
	}
}

struct annotation_set *annotation_set__new(void)
{
	return calloc(1, sizeof(struct annotation_set));
}

static void annotated_sym__free(struct annotated_sym *as)
{
	dso__put(as->dso);
	free(as->addr_period);
	free(as->addr_hits);
	free(as);
}

void annotation_set__delete(struct annotation_set *set)
{
	size_t i;

	if (!set)
		return;
	if (set__prep(set, false))
		listing_prep__free(set->prep);
	/* the disassemblies decoded for the set, for the next runs */
	disasm_cache__flush();
	for (i = 0; i < set->nr; i++) {
		annotated_sym__free(set->all[i]);
	}
	while (set->files) {
		struct source_file *f = set->files;

		set->files = f->next;
		free(f->path);
		free(f->data);
		free(f->lines);
		free(f);
	}
	while (set->symtabs) {
		struct symtab_entry *e = set->symtabs;

		set->symtabs = e->next;
		disasm_symtab__delete(e->st);
		free(e);
	}
	for (i = 0; i < set->nr_unresolved; i++)
		dso__put(set->unresolved[i].dso);
	free(set->unresolved);
	free(set->last_path);
	free(set->all);
	free(set->totals);
	free(set);
}

static struct event_total *set__total(struct annotation_set *set, const struct evsel *evsel)
{
	struct event_total *t;
	size_t i;

	for (i = 0; i < set->nr_totals; i++)
		if (set->totals[i].evsel == evsel)
			return &set->totals[i];
	t = realloc(set->totals, (set->nr_totals + 1) * sizeof(*t));
	if (!t)
		return NULL;
	set->totals = t;
	t = &set->totals[set->nr_totals++];
	*t = (struct event_total){ .evsel = evsel };
	return t;
}

void annotation_set__totals(const struct annotation_set *set, const struct evsel *evsel,
			    uint64_t *period, uint64_t *nr_samples)
{
	size_t i;

	*period = *nr_samples = 0;
	for (i = 0; i < set->nr_totals; i++) {
		if (set->totals[i].evsel == evsel) {
			*period = set->totals[i].period;
			*nr_samples = set->totals[i].nr_samples;
		}
	}
}

static size_t sym__hash(const struct evsel *evsel, const struct symbol *sym)
{
	uint64_t h = (uintptr_t)sym * 0x9e3779b97f4a7c15ULL ^ (uintptr_t)evsel;

	return (size_t)(h >> 40) % SET_BUCKETS;
}

static struct annotated_sym *set__findnew(struct annotation_set *set, struct evsel *evsel,
					  struct dso *dso, struct symbol *sym)
{
	size_t b = sym__hash(evsel, sym);
	struct annotated_sym *as;

	for (as = set->buckets[b]; as; as = as->next)
		if (as->sym == sym && as->evsel == evsel && as->dso == dso)
			return as;
	if (set->nr == set->alloc) {
		size_t n = set->alloc ? set->alloc * 2 : 64;
		struct annotated_sym **all = realloc(set->all, n * sizeof(*all));

		if (!all)
			return NULL;
		set->all = all;
		set->alloc = n;
	}
	as = calloc(1, sizeof(*as));
	if (!as)
		return NULL;
	as->evsel = evsel;
	as->sym = sym;
	as->len = sym->end > sym->start ? sym->end - sym->start : 1;
	as->addr_period = calloc(as->len, sizeof(*as->addr_period));
	as->addr_hits = calloc(as->len, sizeof(*as->addr_hits));
	if (!as->addr_period || !as->addr_hits) {
		free(as->addr_period);
		free(as->addr_hits);
		free(as);
		return NULL;
	}
	as->dso = dso__get(dso);
	as->next = set->buckets[b];
	set->buckets[b] = as;
	set->all[set->nr++] = as;
	return as;
}

static int set__unresolved(struct annotation_set *set, struct dso *dso)
{
	struct unresolved *u;
	size_t i;

	for (i = 0; i < set->nr_unresolved; i++) {
		if (set->unresolved[i].dso == dso) {
			set->unresolved[i].nr++;
			return 0;
		}
	}
	u = realloc(set->unresolved, (set->nr_unresolved + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	set->unresolved = u;
	set->unresolved[set->nr_unresolved++] = (struct unresolved){ .dso = dso__get(dso), .nr = 1 };
	return 0;
}

int annotation_set__unresolved(const struct annotation_set *set, size_t i, struct dso **dso,
			       uint64_t *nr_samples)
{
	if (i >= set->nr_unresolved)
		return -ENOENT;
	*dso = set->unresolved[i].dso;
	*nr_samples = set->unresolved[i].nr;
	return 0;
}

int annotation_set__add(struct annotation_set *set, struct evsel *evsel, struct dso *dso,
			struct symbol *sym, uint64_t addr, uint64_t period)
{
	struct event_total *t = set__total(set, evsel);
	struct annotated_sym *as;
	uint64_t off;

	if (!t)
		return -ENOMEM;
	t->period += period;
	t->nr_samples++;
	if (dso && !sym)
		return set__unresolved(set, dso);
	if (!sym || !dso)
		return 0;
	as = set__findnew(set, evsel, dso, sym);
	if (!as)
		return -ENOMEM;
	as->period += period;
	as->nr_samples++;
	off = addr >= sym->start ? addr - sym->start : 0;
	if (off >= as->len)
		off = as->len - 1;
	as->addr_period[off] += period;
	as->addr_hits[off]++;
	return 0;
}

void annotation_set__decay(struct annotation_set *set, unsigned int keep)
{
	size_t n = 0, u = 0;

	for (size_t i = 0; i < set->nr_totals; i++) {
		set->totals[i].period = set->totals[i].period * keep / 8;
		set->totals[i].nr_samples = set->totals[i].nr_samples * keep / 8;
	}
	for (size_t i = 0; i < set->nr; i++) {
		struct annotated_sym *as = set->all[i];

		as->period = as->period * keep / 8;
		as->nr_samples = as->nr_samples * keep / 8;
		if (as->period || as->nr_samples) {
			for (uint64_t off = 0; off < as->len; off++) {
				as->addr_period[off] = as->addr_period[off] * keep / 8;
				as->addr_hits[off] = (uint32_t)((uint64_t)as->addr_hits[off] * keep / 8);
			}
			set->all[n++] = as;
			continue;
		}
		for (struct annotated_sym **pp = &set->buckets[sym__hash(as->evsel, as->sym)]; *pp;
		     pp = &(*pp)->next) {
			if (*pp == as) {
				*pp = as->next;
				break;
			}
		}
		annotated_sym__free(as);
	}
	set->nr = n;
	for (size_t i = 0; i < set->nr_unresolved; i++) {
		set->unresolved[i].nr = set->unresolved[i].nr * keep / 8;
		if (set->unresolved[i].nr)
			set->unresolved[u++] = set->unresolved[i];
		else
			dso__put(set->unresolved[i].dso);
	}
	set->nr_unresolved = u;
	/* objdump's symbols of a DSO no symbol names any more (the DSO may
	 * be freed, its address reused) */
	for (struct symtab_entry **pp = &set->symtabs; *pp;) {
		struct symtab_entry *e = *pp;
		bool named = false;

		for (size_t i = 0; i < set->nr && !named; i++)
			named = set->all[i]->dso == e->dso;
		if (named) {
			pp = &e->next;
			continue;
		}
		*pp = e->next;
		disasm_symtab__delete(e->st);
		free(e);
	}
}

static int annotated_sym__cmp(const void *pa, const void *pb)
{
	const struct annotated_sym *a = *(const struct annotated_sym *const *)pa;
	const struct annotated_sym *b = *(const struct annotated_sym *const *)pb;
	int r;

	if (a->evsel != b->evsel)
		return a->evsel->idx < b->evsel->idx ? -1 : 1;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	r = strcmp(a->dso->short_name, b->dso->short_name);	/* perf: short names unless -v */
	if (r)
		return r;
	r = strcmp(a->sym->name, b->sym->name);
	if (r)
		return r;
	if (a->sym->start != b->sym->start)
		return a->sym->start < b->sym->start ? -1 : 1;
	return symbol__same_range_cmp(a->sym, b->sym);
}

struct annotated_sym **annotation_set__sorted(struct annotation_set *set, size_t *nr)
{
	*nr = set->nr;
	if (!set->nr)
		return NULL;
	qsort(set->all, set->nr, sizeof(*set->all), annotated_sym__cmp);
	return set->all;
}

/* Whether set__symtab() of dso has been asked (its answer kept). */
static bool set__has_symtab(const struct annotation_set *set, const struct dso *dso)
{
	const struct symtab_entry *e;

	for (e = set->symtabs; e; e = e->next)
		if (e->dso == dso)
			return true;
	return false;
}

static struct disasm_symtab *set__symtab(struct annotation_set *set, struct dso *dso,
					       bool debug_file)
{
	struct symtab_entry *e;

	for (e = set->symtabs; e; e = e->next)
		if (e->dso == dso)
			return e->st;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dso = dso;
	e->st = dso__disasm_symtab(dso, debug_file);
	e->next = set->symtabs;
	set->symtabs = e;
	return e->st;
}

/* ---- source files ---- */

static struct source_file *set__source(struct annotation_set *set, const char *path)
{
	struct source_file *f;
	FILE *fp;
	size_t size = 0, alloc = 0, n;
	unsigned int nl = 0, i;
	char *p;

	for (f = set->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f->missing ? NULL : f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return NULL;
	}
	f->next = set->files;
	set->files = f;
	f->missing = true;
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	for (;;) {
		if (size + 4096 + 1 > alloc) {
			char *d = realloc(f->data, alloc = (alloc ? alloc * 2 : 65536));

			if (!d)
				goto fail;
			f->data = d;
		}
		n = fread(f->data + size, 1, alloc - size - 1, fp);
		size += n;
		if (!n)
			break;
	}
	fclose(fp);
	fp = NULL;
	f->data[size] = '\0';
	for (p = f->data; p < f->data + size; p++)
		nl += *p == '\n';
	f->lines = calloc(nl + 1, sizeof(*f->lines));
	if (!f->lines)
		goto fail;
	for (p = f->data, i = 0; p < f->data + size; i++) {
		char *e = strchr(p, '\n');

		f->lines[i] = p;
		if (!e) {
			i++;
			break;
		}
		*e = '\0';
		p = e + 1;
	}
	f->nr_lines = i;
	for (i = 0; i < f->nr_lines; i++)	/* objdump stops a line at CR too */
		f->lines[i][strcspn(f->lines[i], "\r")] = '\0';
	f->missing = false;
	return f;
fail:
	if (fp)
		fclose(fp);
	return NULL;
}

static int hex_digits(uint64_t v)
{
	int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

/* ---- the listing ---- */

/* The lines' text: blocks that never move, chained. */
#define POOL_BLOCK (64 * 1024)
struct annotate_text_pool {
	struct annotate_text_pool *next;
	size_t used, size;
	char data[];
};

/* n bytes from the pool *head; NULL on ENOMEM. */
static char *pool__alloc(struct annotate_text_pool **head, size_t n)
{
	struct annotate_text_pool *p = *head;

	if (!p || p->size - p->used < n) {
		size_t size = n > POOL_BLOCK ? n : POOL_BLOCK;

		p = malloc(sizeof(*p) + size);
		if (!p)
			return NULL;
		p->used = 0;
		p->size = size;
		if (*head && n > POOL_BLOCK) {	/* a big one: behind the block in use */
			p->next = (*head)->next;
			(*head)->next = p;
		} else {
			p->next = *head;
			*head = p;
		}
	}
	p->used += n;
	return p->data + p->used - n;
}

static void pool__free(struct annotate_text_pool *p)
{
	while (p) {
		struct annotate_text_pool *next = p->next;

		free(p);
		p = next;
	}
}

/* Put the chain *from behind the first block of *to (the one allocated
 * from), emptying *from. */
static void pool__join(struct annotate_text_pool **to, struct annotate_text_pool **from)
{
	struct annotate_text_pool **tail;

	if (!*from)
		return;
	for (tail = from; *tail; tail = &(*tail)->next)
		;
	if (*to) {
		*tail = (*to)->next;
		(*to)->next = *from;
	} else {
		*to = *from;
	}
	*from = NULL;
}

struct listing_builder {
	struct annotate_listing *l;
	size_t alloc;
	int line_nr;		/* perf's running count */
	int err;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/*
 * perf keeps a line of objdump's output stripped of the white space at
 * both ends, tabs expanded to 8 columns after that. The copy, after pad
 * blanks, from pool (NULL on ENOMEM).
 */
static char *text__tidy(struct annotate_text_pool **pool, const char *s, size_t pad)
{
	size_t len, i, n = 0, col = 0;
	const char *e;
	char *out;

	while (is_blank(*s))
		s++;
	len = strlen(s);
	e = s + len;
	while (e > s && is_blank(e[-1]))
		e--;
	len = (size_t)(e - s);
	if (!memchr(s, '\t', len)) {	/* most lines: a copy */
		out = pool__alloc(pool, pad + len + 1);
		if (!out)
			return NULL;
		memset(out, ' ', pad);
		memcpy(out + pad, s, len);
		out[pad + len] = '\0';
		return out;
	}
	for (i = 0; i < len; i++)
		n += s[i] == '\t' ? 8 : 1;
	out = pool__alloc(pool, pad + n + 1);
	if (!out)
		return NULL;
	memset(out, ' ', pad);
	n = pad;
	for (i = 0; i < len; i++) {
		if (s[i] == '\t') {
			do {
				out[n++] = ' ';
				col++;
			} while (col % 8);
		} else {
			out[n++] = s[i];
			col++;
		}
	}
	out[n] = '\0';
	return out;
}

static struct annotate_line *builder__push(struct listing_builder *b)
{
	struct annotate_listing *l = b->l;
	struct annotate_line *al;

	if (b->err)
		return NULL;
	if (l->nr == b->alloc) {
		size_t n = b->alloc ? b->alloc * 2 : 256;
		struct annotate_line *p = realloc(l->lines, n * sizeof(*p));

		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		l->lines = p;
		b->alloc = n;
	}
	al = &l->lines[l->nr++];
	memset(al, 0, sizeof(*al));
	al->offset = -1;
	al->line_nr = b->line_nr++;
	return al;
}

/* perf's test for objdump's "/path/file.c:NN" lines: a slash first,
 * then no colon up to one followed by a digit. */
static bool text__is_position(const char *s, int *line)
{
	const char *c;

	if (s[0] != '/')
		return false;
	c = strchr(s, ':');
	if (!c || c == s + 1 || c[1] < '0' || c[1] > '9')
		return false;
	*line = atoi(c + 1);
	return true;
}

/* A text line of objdump's output, as perf keeps it. */
static void builder__text(struct listing_builder *b, const char *raw)
{
	struct annotate_line *al;
	char *t = text__tidy(&b->l->pool, raw, 0);
	int line;

	if (!t) {
		b->err = -ENOMEM;
		return;
	}
	if (text__is_position(t, &line)) {	/* perf restarts its count */
		b->line_nr = line;
		return;
	}
	al = builder__push(b);
	if (al)
		al->text = t;
}

/* objdump's state for -S: per source file, what it showed last. */
struct shown_file {
	const struct source_file *f;
	unsigned int last_line, max_printed;
};

#define FUNC_MAX 511		/* bytes of a function name compared and shown */

/* What objdump -l finds at an address (bfd's nearest line). The names
 * are the DWARF functions' or the symbol table's, which outlive the
 * listing's loop. */
struct src_pos {
	const char *func;	/* the name objdump prints ("": none; the
				 * first FUNC_MAX bytes count) */
	const char *file;	/* the DSO's */
	unsigned int line;	/* 0: none */
	unsigned int disc;	/* the line's discriminator, 0: none */
};

struct objdump_state {
	const char *prev_func;	/* NULL: none yet */
	unsigned int prev_line, prev_disc;
	struct shown_file *shown;
	size_t nr_shown;
	struct disasm_symtab *symtab;	/* may be NULL */
	struct disasm_funcs funcs;		/* the DWARF functions of the symbol */
	const char *comp_dir;		/* their unit's directory, or NULL */
};

/*
 * What objdump -l finds at addr: the line table's position, and the
 * function libbfd's lookup gives (the smallest DWARF function range
 * holding addr, else the ELF function symbol there; none in a PLT).
 */
static void src_pos__get(const struct objdump_state *st, struct dso *dso, uint64_t addr,
			 struct src_pos *pos)
{
	const char *name = disasm_funcs__find(&st->funcs, addr);
	uint64_t start;

	if (dso__srcline_full(dso, addr, &pos->file, &pos->line, &pos->disc)) {
		pos->file = NULL;
		pos->line = 0;
		pos->disc = 0;
	}
	if (!name && st->symtab)
		name = disasm_symtab__function(st->symtab, addr, &start);
	pos->func = name ? name : "";
}

static struct shown_file *state__shown(struct objdump_state *st, const struct source_file *f)
{
	struct shown_file *s;
	size_t i;

	for (i = 0; i < st->nr_shown; i++)
		if (st->shown[i].f == f)
			return &st->shown[i];
	s = realloc(st->shown, (st->nr_shown + 1) * sizeof(*s));
	if (!s)
		return NULL;
	st->shown = s;
	s = &st->shown[st->nr_shown++];
	*s = (struct shown_file){ .f = f };
	return s;
}

static void builder__position(struct listing_builder *b, struct annotation_set *set,
			      struct objdump_state *st, const struct src_pos *pos, bool source)
{
	char buf[4200], path[4096];

	if (pos->func[0] && (!st->prev_func || (pos->func != st->prev_func &&
						 strncmp(pos->func, st->prev_func, FUNC_MAX)))) {
		snprintf(buf, sizeof(buf), "%.*s():", FUNC_MAX, pos->func);
		builder__text(b, buf);
		st->prev_line = (unsigned int)-1;
	}
	/* libbfd puts the unit's directory before a relative file name (the
	 * path is used only with a line) */
	if (pos->line && pos->file && pos->file[0] != '/' && st->comp_dir)
		snprintf(path, sizeof(path), "%s/%s", st->comp_dir, pos->file);
	else if (pos->line)
		snprintf(path, sizeof(path), "%s", pos->file ? pos->file : "???");
	/* a new line, or another block of the same (objdump -l) */
	if (pos->line && (pos->line != st->prev_line || pos->disc != st->prev_disc)) {
		if (pos->disc)
			snprintf(buf, sizeof(buf), "%s:%u (discriminator %u)", path, pos->line,
				 pos->disc);
		else
			snprintf(buf, sizeof(buf), "%s:%u", path, pos->line);
		builder__text(b, buf);
	}
	if (source && pos->line && pos->file) {
		const struct source_file *f = set__source(set, path);
		struct shown_file *s = f ? state__shown(st, f) : NULL;

		if (s && pos->line != s->last_line) {
			unsigned int l = pos->line > CONTEXT_LINES ? pos->line - CONTEXT_LINES : 1, i;

			if (s->max_printed >= l)
				l = s->max_printed < pos->line ? s->max_printed + 1 : pos->line;
			for (i = l; i <= pos->line && i <= f->nr_lines; i++)
				builder__text(b, f->lines[i - 1]);
			if (s->max_printed < pos->line)
				s->max_printed = pos->line;
			s->last_line = pos->line;
		}
	}
	if (pos->func[0]) {
		st->prev_func = pos->func;
	}
	if (pos->line && pos->line != st->prev_line)
		st->prev_line = pos->line;
	st->prev_disc = pos->disc;
}

static void put_str(char *out, size_t size, size_t *n, const char *str);

/* " <sym>" or " <sym+0xoff>" of addr, objdump's way; "" if none. */
static void sym_ref(const struct disasm_symtab *st, struct dso *dso, uint64_t addr, char *buf,
		    size_t size)
{
	const char *name = NULL;
	uint64_t start = 0;

	if (st) {
		name = disasm_symtab__ref(st, addr, &start);
	} else {
		struct symbol *s = dso__find_symbol(dso, addr);

		if (s) {
			name = s->name;
			start = s->start;
		}
	}
	buf[0] = '\0';
	if (name) {
		size_t n = 0;
		char off[24];

		put_str(buf, size, &n, " <");
		put_str(buf, size, &n, name);
		if (addr != start) {
			hex_put(off, addr - start);
			put_str(buf, size, &n, "+");
			put_str(buf, size, &n, off);
		}
		put_str(buf, size, &n, ">");
	}
}

/*
 * Capstone 4 spells AT&T syntax differently from objdump (binutils 2.40)
 * in a few regular ways, turned here into objdump's: an operand-size
 * suffix on every mnemonic (objdump writes it only when no register
 * operand gives the size, and never on call/ret/jmp/push/pop/leave in
 * 64-bit code), small numbers in decimal ("$1", "-4(%rbp)"), negative
 * immediates ("$-1": objdump writes the operand-size two's complement), a
 * scale of 1 left out ("(%rax,%rbx)"), an encoded zero displacement left
 * out ("(%rax)" for "0x0(%rax)"), and the long NOPs' prefixes.
 */

/* A mnemonic's name and length, for the tables below. */
struct mnemonic_name {
	const char *name;
	size_t len;
};

#define MNEMONIC(s) { s, sizeof(s) - 1 }

static bool mnemonic__sized(const char *m, size_t len)
{
	static const struct mnemonic_name bases[] = {
		MNEMONIC("mov"), MNEMONIC("add"), MNEMONIC("sub"), MNEMONIC("and"), MNEMONIC("or"),
		MNEMONIC("xor"), MNEMONIC("cmp"), MNEMONIC("test"), MNEMONIC("adc"), MNEMONIC("sbb"),
		MNEMONIC("imul"), MNEMONIC("mul"), MNEMONIC("div"), MNEMONIC("idiv"), MNEMONIC("neg"),
		MNEMONIC("not"), MNEMONIC("inc"), MNEMONIC("dec"), MNEMONIC("shl"), MNEMONIC("shr"),
		MNEMONIC("sar"), MNEMONIC("sal"), MNEMONIC("rol"), MNEMONIC("ror"), MNEMONIC("rcl"),
		MNEMONIC("rcr"), MNEMONIC("shld"), MNEMONIC("shrd"), MNEMONIC("lea"), MNEMONIC("xchg"),
		MNEMONIC("bsf"), MNEMONIC("bsr"), MNEMONIC("bt"), MNEMONIC("bts"), MNEMONIC("btr"),
		MNEMONIC("btc"), MNEMONIC("tzcnt"), MNEMONIC("lzcnt"), MNEMONIC("popcnt"),
		MNEMONIC("xadd"), MNEMONIC("cmpxchg"), MNEMONIC("bswap"), MNEMONIC("andn"),
		MNEMONIC("movbe"), MNEMONIC("sarx"), MNEMONIC("shlx"), MNEMONIC("shrx"),
		MNEMONIC("bzhi"), MNEMONIC("blsr"), MNEMONIC("blsi"), MNEMONIC("blsmsk"),
		MNEMONIC("rorx"), MNEMONIC("pdep"), MNEMONIC("pext"), MNEMONIC("adcx"),
		MNEMONIC("adox"), MNEMONIC("crc32"), MNEMONIC("stos"), MNEMONIC("lods"),
		MNEMONIC("scas"), MNEMONIC("cvtsi2sd"), MNEMONIC("cvtsi2ss"),
	};
	unsigned int i;

	if (len > 4 && !strncmp(m, "cmov", 4))
		return true;
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {	/* lengths first */
		size_t k;

		if (bases[i].len != len || bases[i].name[0] != m[0])
			continue;
		for (k = 1; k < len && m[k] == bases[i].name[k]; k++)
			;
		if (k == len)
			return true;
	}
	return false;
}

/* A register operand outside any memory operand ("%eax", not "(%rax)"
 * nor a segment "%fs:"). */
static bool ops__has_register(const char *ops)
{
	int depth = 0;

	for (; *ops; ops++) {
		if (*ops == '(')
			depth++;
		else if (*ops == ')')
			depth--;
		else if (*ops == '%' && !depth) {
			const char *e = ops + 1;

			while ((*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9'))
				e++;
			if (*e != ':')
				return true;
		}
	}
	return false;
}

static void att__mnemonic(const struct disasm_insn *in, const char *ops, char *out, size_t size)
{
	static const struct mnemonic_name always[] = {
		MNEMONIC("callq"), MNEMONIC("retq"), MNEMONIC("jmpq"), MNEMONIC("pushq"),
		MNEMONIC("popq"), MNEMONIC("leaveq"), MNEMONIC("movabsq"),
	};
	const char *m = in->mnemonic, *sp = strrchr(m, ' ');
	int plen = sp ? (int)(sp + 1 - m) : 0;	/* "lock ", "rep ", ... */
	size_t len, i;
	char last;

	m += plen;
	len = strlen(m);
	last = len ? m[len - 1] : 0;
	str_copy(out, size, in->mnemonic);
	if (len == 4 && !memcmp(m, "movd", 4) && strstr(ops, "%r") && strstr(ops, "%xmm")) {
		if (strlen(out) == (size_t)plen + 4)	/* a 64-bit GPR: movq */
			out[plen + 3] = 'q';
		return;
	}
	for (i = 0; last == 'q' && i < sizeof(always) / sizeof(always[0]); i++) {	/* all end in q */
		if (m[0] == always[i].name[0] && len == always[i].len && !memcmp(m, always[i].name, len)) {
			out[plen + len - 1] = '\0';	/* the size letter dropped */
			return;
		}
	}
	if (len > 1 && (last == 'b' || last == 'w' || last == 'l' || last == 'q') &&
	    plen + len < size && mnemonic__sized(m, len - 1) && ops__has_register(ops) &&
	    (!strstr(ops, "mm") || !strncmp(m, "cvtsi2s", 7)))
		out[plen + len - 1] = '\0';
}

/* The opcode byte after the legacy and REX prefixes. */
static uint8_t insn__opcode(const struct disasm_insn *in)
{
	unsigned int i;

	for (i = 0; i < in->size; i++) {
		uint8_t b = in->bytes[i];

		if (b != 0x66 && b != 0x67 && b != 0xf0 && b != 0xf2 && b != 0xf3 && b != 0x2e &&
		    b != 0x3e && b != 0x26 && b != 0x36 && b != 0x64 && b != 0x65 && (b & 0xf0) != 0x40)
			return b;
	}
	return 0;
}

/* movs, cmps, stos, lods, scas with or without a size letter */
static bool is_string_op(const char *m)
{
	static const char *const ops[] = { "movs", "cmps", "stos", "lods", "scas" };
	unsigned int i;

	if (m[0] != 'm' && m[0] != 'c' && m[0] != 's' && m[0] != 'l')
		return false;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (m[0] == ops[i][0] && !strncmp(m, ops[i], 4) &&
		    (!m[4] || (strchr("bwldq", m[4]) && !m[5])))
			return true;
	}
	return false;
}

/* objdump names the segments of string instructions' memory operands;
 * shifts by one (opcodes 0xd0, 0xd1) have no count operand there. */
static void att__fixups(const struct disasm_insn *in, char *ops, size_t size)
{
	const char *m = strrchr(in->mnemonic, ' ');
	uint8_t op = insn__opcode(in);
	char tmp[1024];

	m = m ? m + 1 : in->mnemonic;
	if ((op == 0xd0 || op == 0xd1) && !strncmp(ops, "$0x1,", 5))
		memmove(ops, ops + 5, strlen(ops + 5) + 1);
	if (m[0] == 'f' && (!strncmp(m, "fucomi", 6) || !strncmp(m, "fcomi", 5))) {
		if (!strchr(ops, ',') && strlen(ops) + 5 < size)
			strcat(ops, ",%st");
		return;
	}
	if (is_string_op(m) && !strstr(ops, "mm")) {
		const char *p = ops;
		size_t n = 0;

		tmp[0] = '\0';
		while (*p) {
			if (*p == '(' && (p == ops || p[-1] != ':') && (!strncmp(p, "(%rsi)", 6) ||
			    !strncmp(p, "(%esi)", 6)))
				put_str(tmp, sizeof(tmp), &n, "%ds:");
			else if (*p == '(' && (p == ops || p[-1] != ':') &&
				 (!strncmp(p, "(%rdi)", 6) || !strncmp(p, "(%edi)", 6)))
				put_str(tmp, sizeof(tmp), &n, "%es:");
			if (n + 1 < sizeof(tmp)) {
				tmp[n++] = *p;
				tmp[n] = '\0';
			}
			p++;
		}
		snprintf(ops, size, "%s", tmp);
	}
}

/* The number at s as strtoull(s, end, 0) reads it: Capstone's "0x1f" and
 * "12" read here, anything else by strtoull. */
static uint64_t text__number(const char *s, char **end)
{
	const char *p = s;
	uint64_t v = 0;

	if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2])) {
		for (p += 2; isxdigit((unsigned char)*p) && p - s < 18; p++)
			v = v << 4 | (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
		if (!isxdigit((unsigned char)*p)) {
			*end = (char *)p;
			return v;
		}
	} else if (*p >= '1' && *p <= '9') {
		for (; *p >= '0' && *p <= '9' && p - s < 19; p++)
			v = v * 10 + (uint64_t)(*p - '0');
		if (*p < '0' || *p > '9') {
			*end = (char *)p;
			return v;
		}
	}
	return strtoull(s, end, 0);
}

/* Append the len bytes at s to out[*n] (size bytes, *n < size), keeping
 * it terminated (cut to fit). */
static void put_mem(char *out, size_t size, size_t *n, const char *s, size_t len)
{
	if (len > size - 1 - *n)
		len = size - 1 - *n;
	memcpy(out + *n, s, len);
	*n += len;
	out[*n] = '\0';
}

/* Append str likewise. */
static void put_str(char *out, size_t size, size_t *n, const char *str)
{
	put_mem(out, size, n, str, strlen(str));
}

/* Append c likewise. */
static inline void put_ch(char *out, size_t size, size_t *n, char c)
{
	if (*n + 1 < size)
		out[(*n)++] = c;
	out[*n] = '\0';
}

/* p starts an operand of ops (after ", ", a segment's ':' or '*'). */
static bool at_operand(const char *ops, const char *p)
{
	if (p == ops)
		return true;
	if (p[-1] == '*')	/* an indirect jump's or call's operand */
		return true;
	if (p[-1] == ' ' && p - 1 > ops)
		p--;
	return p[-1] == ',' || p[-1] == ':';
}

static void att__operands(const struct disasm_insn *in, const char *ops, char *out, size_t size)
{
	const char *p = ops;
	size_t n = 0;
	int depth = 0, commas = 0;
	bool group_reg = false;
	char num[32];

	out[0] = '\0';
	while (*p) {
		if (*p == ' ' && p > ops && p[-1] == ',') {	/* no space after a comma */
			p++;
		} else if (*p == '(') {
			if (in->disp0_encoded && at_operand(ops, p))
				put_str(out, size, &n, "0x0");
			depth++;
			commas = 0;
			group_reg = p[1] == '%';
			put_ch(out, size, &n, '(');
			p++;
		} else if (*p == ')') {
			if (depth == 1 && commas == 1 && group_reg)
				put_str(out, size, &n, ",1");
			depth--;
			put_ch(out, size, &n, ')');
			p++;
		} else if (*p == ',') {
			commas += depth > 0;
			put_ch(out, size, &n, ',');
			p++;
		} else if (*p == '%') {
			const char *e = p + 1;

			while ((*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9'))
				e++;
			if (e - p == 3 && !strncmp(p, "%st", 3) && *e == '(') {	/* %st(N) */
				const char *c = strchr(e, ')');

				if (c)
					e = c + 1;
			}
			if ((size_t)(e - p) < sizeof(num))
				put_mem(out, size, &n, p, (size_t)(e - p));
			p = e;
		} else if (*p == '$' || (!depth && *p >= '0' && *p <= '9' &&
					 (at_operand(ops, p) || p[-1] == '-'))) {
			bool imm = *p == '$', neg = false;
			uint64_t v;
			char *end;

			if (imm)
				p++;
			if (imm && *p == '-') {
				neg = true;
				p++;
			}
			v = text__number(p, &end);
			if (end == p) {
				put_str(out, size, &n, imm ? "$" : "");
				continue;
			}
			p = end;
			if (neg) {
				unsigned int bits = in->imm_size ? in->imm_size * 8U : 64;

				v = (uint64_t)0 - v;
				if (bits < 64)
					v &= ((uint64_t)1 << bits) - 1;
			}
			num[0] = '$';
			put_mem(out, size, &n, num, imm + hex_put(num + imm, v));
		} else {
			put_ch(out, size, &n, *p++);
		}
	}
}

/* objdump's prefixes of the long NOP forms Capstone folds into the
 * instruction: "data16 " for each 0x66 beyond the operand-size one, "cs "
 * for a 0x2e (Capstone's "%cs:" on the operand). */
static void att__nop_prefixes(const struct disasm_insn *in, char *ops, char *pfx, size_t size)
{
	unsigned int i, n66 = 0;
	bool cs = false;
	size_t n = 0;
	char *seg;

	pfx[0] = '\0';
	for (i = 0; i < in->size && (in->bytes[i] == 0x66 || in->bytes[i] == 0x2e); i++) {
		if (in->bytes[i] == 0x66)
			n66++;
		else
			cs = true;
	}
	for (i = 1; i < n66; i++)
		put_str(pfx, size, &n, "data16 ");
	seg = strstr(ops, "%cs:");
	if (cs && seg) {
		memmove(seg, seg + 4, strlen(seg + 4) + 1);
		put_str(pfx, size, &n, "cs ");
	}
}

/* The instruction as objdump prints it after "addr:\t", before perf
 * tidies it: bytes (asm_raw), mnemonic padded to 6, operands. */
static void insn__text(const struct disasm_symtab *st, struct dso *dso,
		       const struct disasm_insn *in, bool intel, bool asm_raw, char *buf, size_t size)
{
	char ops[1024], ref[600], m[64], pfx[64] = "";
	size_t n = 0, i;

	if (asm_raw) {
		for (i = 0; i < in->size && i < 7 && n + 4 < size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%02x ", in->bytes[i]);
		for (; i < 7 && n + 4 < size; i++)
			n += (size_t)snprintf(buf + n, size - n, "   ");
		if (n < size - 1)
			buf[n++] = '\t';
		buf[n] = '\0';
	}
	if (intel) {
		str_copy(m, sizeof(m), in->mnemonic);
		str_copy(ops, sizeof(ops), in->op_str);
	} else if (in->size == 2 && in->bytes[0] == 0x66 && in->bytes[1] == 0x90) {
		snprintf(m, sizeof(m), "xchg");		/* Capstone: "nop" */
		snprintf(ops, sizeof(ops), "%%ax,%%ax");
	} else {
		att__operands(in, in->op_str, ops, sizeof(ops));
		att__fixups(in, ops, sizeof(ops));
		att__mnemonic(in, ops, m, sizeof(m));
		if (!strncmp(m, "nop", 3))
			att__nop_prefixes(in, ops, pfx, sizeof(pfx));
	}
	if (in->has_target) {		/* "52b1a4 <sym+0x10>" */
		char hex[24];
		size_t k = 0;

		sym_ref(st, dso, in->target, ref, sizeof(ref));
		hex_put(hex, in->target);
		put_str(ops, sizeof(ops), &k, hex + 2);
		put_str(ops, sizeof(ops), &k, ref);
	}
	if (pfx[0]) {		/* objdump: the prefixes, then the instruction */
		size_t k = strlen(pfx);

		snprintf(pfx + k, sizeof(pfx) - k, "%s", m);
		snprintf(m, sizeof(m), "%s", pfx);
	}
	put_str(buf, size, &n, m);
	if (ops[0]) {		/* objdump: the mnemonic padded to 6, a space */
		size_t ml = strlen(m);

		while (ml++ < 6)
			put_ch(buf, size, &n, ' ');
		put_ch(buf, size, &n, ' ');
		put_str(buf, size, &n, ops);
	}
	if (in->has_ref) {
		char hex[24];

		n = strlen(buf);
		sym_ref(st, dso, in->ref, ref, sizeof(ref));
		hex_put(hex, in->ref);
		put_str(buf, size, &n, "        # ");
		put_str(buf, size, &n, hex + 2);
		put_str(buf, size, &n, ref);
	}
}

/* The text perf keeps of objdump's line "ADDR:\ttext": what follows
 * "ADDR:", the tab expanded from there. From pool; NULL on ENOMEM. */
static char *code__text(struct annotate_text_pool **pool, uint64_t addr, const char *text)
{
	size_t col = (size_t)hex_digits(addr) + 1;

	return text__tidy(pool, text, 8 - col % 8);
}

/* A line of code: text is what objdump prints after "ADDR:\t" for the
 * bytes [addr, next), which it is given the samples of; tidy: that
 * text as code__text() keeps it, when text is NULL. */
static struct annotate_line *builder__code(struct listing_builder *b,
					   const struct annotated_sym *as, uint64_t addr,
					   uint64_t next, const char *text, char *tidy)
{
	struct annotate_line *al = builder__push(b);
	uint64_t off, end;

	if (!al)
		return NULL;
	al->text = text ? code__text(&b->l->pool, addr, text) : tidy;
	if (!al->text) {
		b->err = -ENOMEM;
		return NULL;
	}
	al->offset = (int64_t)(addr - as->sym->start);
	end = next - as->sym->start;
	al->len = end > (uint64_t)al->offset ? end - (uint64_t)al->offset : 0;
	for (off = (uint64_t)al->offset; off < end && off < as->len; off++) {
		al->period += as->addr_period[off];
		al->nr_samples += as->addr_hits[off];
	}
	return al;
}

/*
 * An instruction; with asm_raw, objdump's lines of seven bytes each:
 * the bytes after the first seven go on lines of their own, which perf
 * takes for instructions (the samples of their bytes theirs).
 */
static void builder__insn(struct listing_builder *b, const struct disasm_symtab *st,
			  const struct annotated_sym *as, const struct disasm_insn *in, uint64_t next,
			  bool intel, bool asm_raw, char *tidy)
{
	struct annotate_line *al;
	char text[1024];
	unsigned int k, j;

	if (!tidy)
		insn__text(st, as->dso, in, intel, asm_raw, text, sizeof(text));
	al = builder__code(b, as, in->addr, asm_raw && in->size > 7 ? in->addr + 7 : next,
			   tidy ? NULL : text, tidy);
	if (!al)
		return;
	al->is_call = in->is_call;
	al->is_jump = in->is_jump;
	al->has_target = in->has_target;
	al->target = in->target;
	for (k = 7; asm_raw && k < in->size; k += 7) {
		size_t n = 0;

		for (j = k; j < in->size && j < k + 7; j++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%02x ", in->bytes[j]);
		builder__code(b, as, in->addr + k, k + 7 < in->size ? in->addr + k + 7 : next, text,
			      NULL);
	}
}

static double line__percent(const struct annotate_line *al, const struct annotated_sym *as,
			    enum annotate_percent_type t, uint64_t tot_period, uint64_t tot_samples)
{
	uint64_t num, den;

	switch (t) {
	case PERCENT_GLOBAL_PERIOD: num = al->period; den = tot_period; break;
	case PERCENT_LOCAL_HITS: num = al->nr_samples; den = as->nr_samples; break;
	/* perf 6.1's annotate never counts its hists' samples: its global
	 * hits are 0.00 on every line */
	case PERCENT_GLOBAL_HITS: num = 0; den = tot_samples; break;
	default: num = al->period; den = as->period; break;
	}
	return den ? 100.0 * (double)num / (double)den : 0.0;
}

/*
 * The instructions' text as the listing keeps it (code__text() of
 * insn__text()), for a listing without --asm-raw, and what the listing's
 * loop looks up at each (src_pos__get(), disasm_symtab__label()): pure
 * functions of each instruction, the symbol table and the DWARF (its
 * lookups locked), so a long listing has them made by two threads, each
 * half into a pool of its own.
 */
#define TEXTS_SPLIT_MIN 2048

/* What the listing's loop looks up per instruction, made with the text:
 * objdump -l's position, and the label of a symbol starting there (NULL:
 * none). */
struct insn_pre {
	struct src_pos pos;
	const char *label;
};

struct insn_texts {
	const struct disasm_symtab *st;
	const struct objdump_state *os;
	struct dso *dso;
	const struct disasm_insn *insns;
	char **texts;
	struct insn_pre *pre;
	size_t from, to;
	bool intel;
	struct annotate_text_pool *pool;
	int err;
};

static void *insn_texts__run(void *arg)
{
	struct insn_texts *t = arg;
	char text[1024], ref[600];
	size_t i;
	uint64_t next = 0;	/* where the next symbol starts: no label before */

	if (t->from < t->to)
		next = disasm_symtab__start_from(t->st, t->insns[t->from].addr);
	for (i = t->from; i < t->to && !t->err; i++) {
		const struct disasm_insn *in = &t->insns[i];
		struct insn_pre *pre = &t->pre[i];

		insn__text(t->st, t->dso, in, t->intel, false, text, sizeof(text));
		t->texts[i] = code__text(&t->pool, in->addr, text);
		if (!t->texts[i])
			t->err = -ENOMEM;
		src_pos__get(t->os, t->dso, in->addr, &pre->pos);
		pre->label = NULL;
		if (in->addr < next)
			continue;
		next = disasm_symtab__start_from(t->st, in->addr + 1);
		if (i && disasm_symtab__label(t->st, in->addr, false, ref, sizeof(ref))) {
			char *copy = pool__alloc(&t->pool, strlen(ref) + 1);

			if (copy)
				pre->label = strcpy(copy, ref);
			else
				t->err = -ENOMEM;
		}
	}
	return NULL;
}

/* texts[i] and pre[i] for each instruction of code (os: the listing's
 * state, its symbol table st and functions), from *pool. 0 or -ENOMEM. */
static int insn_texts__make(const struct objdump_state *os, const struct disasm_symtab *st,
			    struct dso *dso, const struct disasm_code *code, bool intel,
			    char **texts, struct insn_pre *pre, struct annotate_text_pool **pool)
{
	struct insn_texts a = { .st = st, .os = os, .dso = dso, .insns = code->insns,
				.texts = texts, .pre = pre, .from = 0, .to = code->nr,
				.intel = intel };
	struct insn_texts b = a;
	struct helper_thread thr;
	bool split = code->nr >= TEXTS_SPLIT_MIN;

	if (split) {
		a.to = b.from = code->nr / 2;
		split = !helper_thread__start(&thr, insn_texts__run, &b);
		if (!split)
			a.to = code->nr;
	}
	insn_texts__run(&a);
	if (split)
		helper_thread__join(&thr);
	pool__join(pool, &a.pool);
	pool__join(pool, &b.pool);
	return a.err ? a.err : b.err;
}

/*
 * A listing's lookups kept between runs, as notes of its disassembly
 * (dso__disasm_keep_notes()): each instruction's text as the listing keeps
 * it and what the listing's loop looks up there (objdump -l's function,
 * file and line; the label of a symbol starting there), the symbol's own
 * " <name>" and its unit's directory: all a listing takes from the symbol
 * table and the DWARF, so that a later listing of the same kept code
 * reads neither. They were made from the disassembly's ELF file (whose
 * identity, prf's and Capstone's the disassembly's kept entry checks) and
 * the DSO's separate debug file, whose path and identity (or that there
 * was none) the head records: a debug file installed, replaced or gone
 * since makes them again. The symbol table may be the debug file's
 * unless --no-source: that is recorded too.
 *
 * Layout (native byte order): struct kl_head, a struct kl_insn per
 * instruction of the code, then str_len bytes of NUL-terminated strings
 * the offsets point into (a function's and a file's shared by the
 * instructions that have them). Checked whole before use: a damaged entry
 * is made again.
 */
#define KL_MAGIC "PRFLKP02"
#define KL_NONE UINT32_MAX

enum { KL_DBG_NONE, KL_DBG_OWN, KL_DBG_FILE };	/* dso__debug_file(): NULL, "", a path */

struct kl_head {
	char magic[8];
	uint64_t nr;			/* instructions: the code's */
	uint64_t str_len;		/* bytes of strings, the last a NUL */
	struct file_ident dbg_id;	/* KL_DBG_FILE: the debug file's */
	uint32_t dbg;			/* KL_DBG_* */
	uint32_t debug_file;		/* made with annotate_opts.no_source unset */
	uint32_t dbg_path;		/* KL_DBG_FILE: the debug file (offset) */
	uint32_t head_ref;		/* " <name>" of the symbol's start */
	uint32_t comp_dir;		/* the unit's directory, KL_NONE: none */
	uint32_t pad;
};

struct kl_insn {
	uint32_t text;			/* the line's text (offsets into the strings) */
	uint32_t label;			/* KL_NONE: none */
	uint32_t func;			/* objdump -l's function ("": none) */
	uint32_t file;			/* KL_NONE: none */
	uint32_t line;			/* 0: none */
	uint32_t disc;			/* the line's discriminator, 0: none */
};

/* A checked entry's lookups, pointing into the code's mapping. */
struct kept_lookups {
	const struct kl_insn *insns;
	const char *str;
	const char *head_ref, *comp_dir;
};

/* The DSO's debug file now: kind, path (KL_DBG_FILE) and identity. */
static void kl__debug_file(struct dso *dso, uint32_t *kind, const char **path,
			   struct file_ident *id)
{
	const char *dbg = dso__debug_file(dso);

	memset(id, 0, sizeof(*id));
	*path = NULL;
	*kind = !dbg ? KL_DBG_NONE : !dbg[0] ? KL_DBG_OWN : KL_DBG_FILE;
	if (*kind == KL_DBG_FILE) {
		*path = dbg;
		if (file_ident__get(id, dbg))
			*kind = KL_DBG_NONE;	/* gone: what was made with it is stale */
	}
}

/* The head of code's kept lookups when they were made from the files a
 * listing in these options would read now (not checked further); NULL
 * otherwise. */
static const struct kl_head *kl_head__current(const struct disasm_code *code, struct dso *dso,
					      bool debug_file)
{
	const struct kl_head *h = code->notes;
	const char *str, *path;
	struct file_ident id;
	uint32_t kind;

	if (!h || code->notes_len < sizeof(*h) || memcmp(h->magic, KL_MAGIC, sizeof(h->magic)) ||
	    h->nr != code->nr || code->nr_more || h->debug_file != debug_file ||
	    h->nr > (code->notes_len - sizeof(*h)) / sizeof(struct kl_insn) ||
	    h->str_len != code->notes_len - sizeof(*h) - h->nr * sizeof(struct kl_insn) ||
	    !h->str_len)
		return NULL;
	str = (const char *)((const struct kl_insn *)(h + 1) + h->nr);
	if (str[h->str_len - 1])
		return NULL;
	kl__debug_file(dso, &kind, &path, &id);
	if (kind != h->dbg)
		return NULL;
	if (kind == KL_DBG_FILE && (h->dbg_path >= h->str_len || strcmp(str + h->dbg_path, path) ||
				    memcmp(&h->dbg_id, &id, sizeof(id))))
		return NULL;
	return h;
}

/* Fill *k from code's kept lookups when they are current and whole. */
static bool kept_lookups__get(const struct disasm_code *code, struct dso *dso, bool debug_file,
			      struct kept_lookups *k)
{
	const struct kl_head *h = kl_head__current(code, dso, debug_file);
	const struct kl_insn *in;
	uint64_t len;

	if (!h)
		return false;
	in = (const struct kl_insn *)(h + 1);
	len = h->str_len;
	if (h->head_ref >= len || (h->comp_dir != KL_NONE && h->comp_dir >= len))
		return false;
	for (uint64_t i = 0; i < h->nr; i++)
		if (in[i].text >= len || in[i].func >= len ||
		    (in[i].label != KL_NONE && in[i].label >= len) ||
		    (in[i].file != KL_NONE && in[i].file >= len))
			return false;
	k->insns = in;
	k->str = (const char *)(in + h->nr);
	k->head_ref = k->str + h->head_ref;
	k->comp_dir = h->comp_dir != KL_NONE ? k->str + h->comp_dir : NULL;
	return true;
}

/* The strings of lookups being made: a growing buffer. */
struct kl_strings {
	char *buf;
	size_t len, alloc;
	bool failed;
};

/* s's offset in the strings (s NULL: KL_NONE). */
static uint32_t kl_strings__add(struct kl_strings *t, const char *s)
{
	size_t n, at = t->len;

	if (!s)
		return KL_NONE;
	n = strlen(s) + 1;
	if (t->failed)
		return 0;
	if (t->len + n > t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 65536;
		char *p;

		while (alloc < t->len + n)
			alloc *= 2;
		p = alloc < KL_NONE ? realloc(t->buf, alloc) : NULL;
		if (!p) {	/* t->buf is freed by the caller */
			t->failed = true;
			return 0;
		}
		t->buf = p;
		t->alloc = alloc;
	}
	memcpy(t->buf + at, s, n);
	t->len += n;
	return (uint32_t)at;
}

/*
 * Keep the lookups a listing made of code (texts, pre: per instruction;
 * head_ref and comp_dir) with code's disassembly of [start, end) of dso,
 * for a later listing of the same code (kept_lookups__get()). Nothing when
 * the code is not kept between runs, or on ENOMEM.
 */
static void kept_lookups__keep(const struct disasm_code *code, struct dso *dso, uint64_t start,
			       uint64_t end, bool intel, bool debug_file, char *const *texts,
			       const struct insn_pre *pre, const char *head_ref,
			       const char *comp_dir)
{
	struct kl_strings t = { 0 };
	struct kl_head h = { .magic = KL_MAGIC, .nr = code->nr, .debug_file = debug_file };
	struct kl_insn *in;
	const char *path, *last_func = NULL, *last_file = NULL;
	uint32_t func = 0, file = KL_NONE;
	size_t size;
	char *notes;

	if (!disasm_code__keeps(code) || code->nr_more)
		return;
	in = malloc(code->nr * sizeof(*in));
	if (!in)
		return;
	kl__debug_file(dso, &h.dbg, &path, &h.dbg_id);
	h.dbg_path = kl_strings__add(&t, path);
	h.head_ref = kl_strings__add(&t, head_ref);
	h.comp_dir = kl_strings__add(&t, comp_dir);
	for (size_t i = 0; i < code->nr && !t.failed; i++) {
		/* a function's and a file's name once for a run of them */
		if (i == 0 || pre[i].pos.func != last_func)
			func = kl_strings__add(&t, last_func = pre[i].pos.func);
		if (i == 0 || pre[i].pos.file != last_file)
			file = kl_strings__add(&t, last_file = pre[i].pos.file);
		in[i] = (struct kl_insn){ .text = kl_strings__add(&t, texts[i]),
					  .label = kl_strings__add(&t, pre[i].label),
					  .func = func, .file = file, .line = pre[i].pos.line,
					  .disc = pre[i].pos.disc };
	}
	/* the strings end in a NUL, the notes at a multiple of 8 bytes */
	size = (sizeof(h) + code->nr * sizeof(*in) + t.len + 8) & ~(size_t)7;
	h.str_len = size - sizeof(h) - code->nr * sizeof(*in);
	notes = t.failed ? NULL : calloc(1, size);
	if (notes) {
		memcpy(notes, &h, sizeof(h));
		memcpy(notes + sizeof(h), in, code->nr * sizeof(*in));
		memcpy(notes + sizeof(h) + code->nr * sizeof(*in), t.buf, t.len);
		dso__disasm_keep_notes(dso, start, end, intel, code, notes, size);
	}
	free(notes);
	free(in);
	free(t.buf);
}

/*
 * objdump's symbol table of the symbol's DSO (set__symtab()) and the
 * DWARF functions over the symbol (disasm_symtab__funcs()), found on a
 * thread while the code is decoded: both read only the DSO's files (its
 * loads locked), the set's table cache is the thread's until joined.
 */
struct symtab_job {
	struct annotation_set *set;
	struct dso *dso;
	const struct symbol *sym;
	bool debug_file;
	struct disasm_symtab *st;	/* NULL: none */
	struct disasm_funcs *funcs;	/* filled when st is */
	bool done;			/* run (st and funcs made) */
};

static void *symtab_job__run(void *arg)
{
	struct symtab_job *j = arg;

	j->st = set__symtab(j->set, j->dso, j->debug_file);
	if (j->st)	/* none: ELF names */
		disasm_symtab__funcs(j->st, j->sym->start, j->sym->end, j->funcs);
	j->done = true;
	return NULL;
}

/*
 * A listing's inputs made ahead (annotation_set__prepare()): the symbol
 * table and DWARF functions (a symtab job) and the code, on a helper
 * thread that owns the set's table cache until joined.
 */
struct listing_prep {
	struct helper_thread thr;
	struct symtab_job job;
	struct disasm_funcs funcs;
	struct disasm_code code;
	bool intel;
	bool running;			/* the helper is not joined yet */
	int err;			/* dso__disasm()'s; -ECANCELED: not made */
	int code_taken;			/* atomic: the code is made by whoever sets it */
};

/* The code of the prepared symbol, by the thread that claims it first
 * (make: false claims it so that it is not made). Whether this thread
 * claimed it (the code and err are another's until it is joined if not). */
static bool listing_prep__code(struct listing_prep *p, bool make)
{
	if (__atomic_exchange_n(&p->code_taken, 1, __ATOMIC_ACQ_REL))
		return false;
	p->err = make ? dso__disasm(p->job.dso, p->job.sym->start, p->job.sym->end, p->intel,
				    &p->code) : -ECANCELED;
	return true;
}

/*
 * The helper: where the code may be kept, the code first (the listing,
 * come meanwhile, waits for it): kept with lookups that are current,
 * nothing else is needed. The listing making it (come before the helper
 * began) reads what else it needs itself. Else the symbol table, then the
 * code unless the listing is making it.
 */
static void *listing_prep__run(void *arg)
{
	struct listing_prep *p = arg;
	const struct symbol *sym = p->job.sym;

	if (dso__disasm_may_be_kept(p->job.dso, sym->start, sym->end)) {
		if (!listing_prep__code(p, true))
			return NULL;
		if (!p->err && kl_head__current(&p->code, p->job.dso, p->job.debug_file))
			return NULL;
	}
	symtab_job__run(&p->job);
	listing_prep__code(p, true);
	return NULL;
}

int annotation_set__prepare(struct annotation_set *set, struct dso *dso, struct symbol *sym,
			    const struct annotate_opts *opts)
{
	struct listing_prep *p;

	if (set->prep || !dso || !sym || opts->asm_raw)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->job = (struct symtab_job){ .set = set, .dso = dso__get(dso), .sym = sym,
				      .debug_file = !opts->no_source, .funcs = &p->funcs };
	p->intel = opts->intel;
	if (helper_thread__start(&p->thr, listing_prep__run, p)) {
		dso__put(p->job.dso);
		free(p);
		return 0;	/* made when listed */
	}
	p->running = true;
	set->prep = p;
	return 0;
}

/* Wait for the prepared inputs (code: made here if the helper has not
 * begun it, else not made at all); they are taken by the listing of their
 * symbol (listing_prep__take()) or freed. */
static struct listing_prep *set__prep(struct annotation_set *set, bool code)
{
	struct listing_prep *p = set->prep;

	if (p && p->running) {
		listing_prep__code(p, code);
		helper_thread__join(&p->thr);
		p->running = false;
	}
	return p;
}

static void listing_prep__free(struct listing_prep *p)
{
	disasm_funcs__exit(&p->funcs);
	disasm_code__exit(&p->code);
	dso__put(p->job.dso);
	free(p);
}

/*
 * The prepared inputs when they are as's in these options: *code and the
 * symtab job's results moved out (true), the prepared ones freed either
 * way.
 */
static bool listing_prep__take(struct annotation_set *set, const struct annotated_sym *as,
			       const struct annotate_opts *opts, struct disasm_code *code,
			       int *err, struct symtab_job *job)
{
	struct listing_prep *p = set->prep;
	bool ok;

	if (!p)
		return false;
	ok = p->job.dso == as->dso && p->job.sym->start == as->sym->start &&
	     p->job.sym->end == as->sym->end && p->intel == opts->intel &&
	     p->job.debug_file == !opts->no_source && !opts->asm_raw;
	set__prep(set, ok);
	set->prep = NULL;
	if (ok) {
		*code = p->code;
		memset(&p->code, 0, sizeof(p->code));
		*err = p->err;
		job->st = p->job.st;
		job->done = p->job.done;
		*job->funcs = p->funcs;
		memset(&p->funcs, 0, sizeof(p->funcs));
	}
	listing_prep__free(p);
	return ok;
}

int annotated_sym__listing(struct annotation_set *set, const struct annotated_sym *as,
			   const struct annotate_opts *opts, struct annotate_listing *l)
{
	struct listing_builder b = { .l = l };
	struct objdump_state st = { .prev_line = 0 };
	struct disasm_code code;
	struct kept_lookups kl = { 0 };
	uint64_t tot_period, tot_samples;
	char buf[1024], ref[600], lref[600], **texts = NULL;
	struct insn_pre *pre = NULL;
	size_t i;
	int err, more;

	struct symtab_job job = { .set = set, .dso = as->dso, .sym = as->sym,
				  .debug_file = !opts->no_source, .funcs = &st.funcs };
	struct helper_thread job_thr;
	bool job_started = false, prepared, kept;

	memset(l, 0, sizeof(*l));
	l->start = as->sym->start;
	prepared = listing_prep__take(set, as, opts, &code, &err, &job);
	if (!prepared) {
		dso__load(as->dso);	/* before the two use it */
		/* a kept disassembly may have the lookups kept too */
		err = opts->asm_raw ? -ENOENT : dso__disasm_kept(as->dso, as->sym->start,
								 as->sym->end, opts->intel, &code);
		if (err == -ENOENT) {
			/* a thread for a table to read; a kept one and the
			 * functions of a symbol are not worth one */
			job_started = !set__has_symtab(set, as->dso) &&
				      !helper_thread__start(&job_thr, symtab_job__run, &job);
			err = dso__disasm(as->dso, as->sym->start, as->sym->end, opts->intel, &code);
			if (job_started)
				helper_thread__join(&job_thr);
		}
	}
	if (err) {
		disasm_funcs__exit(&st.funcs);
		return err;
	}
	kept = !opts->asm_raw && kept_lookups__get(&code, as->dso, !opts->no_source, &kl);
	if (kept)
		pr_debug2("annotate: %s: texts and lookups kept with the disassembly\n", as->sym->name);
	if (!kept && !job.done)
		symtab_job__run(&job);
	st.symtab = job.st;
	st.comp_dir = kept ? kl.comp_dir : st.funcs.comp_dir;
	/* objdump's preamble as perf keeps it: the file format line dropped */
	builder__text(&b, "");
	builder__text(&b, "");
	builder__text(&b, "");
	snprintf(buf, sizeof(buf), "Disassembly of section %s:", code.section);
	builder__text(&b, buf);
	builder__text(&b, "");
	if (kept)
		snprintf(ref, sizeof(ref), "%s", kl.head_ref);
	else
		sym_ref(st.symtab, as->dso, as->sym->start, ref, sizeof(ref));
	snprintf(buf, sizeof(buf), "%016" PRIx64 "%s:", as->sym->start, ref);
	builder__text(&b, buf);
	/* with objdump's symbols (no lookup in the DSO's) the instructions'
	 * text and lookups are made ahead, in parallel, and kept for the
	 * next listing of the code */
	if (!kept && st.symtab && !opts->asm_raw && !b.err) {
		texts = malloc((code.nr ? code.nr : 1) * sizeof(*texts));
		pre = malloc((code.nr ? code.nr : 1) * sizeof(*pre));
		b.err = texts && pre ? insn_texts__make(&st, st.symtab, as->dso, &code, opts->intel,
							texts, pre, &l->pool) : -ENOMEM;
		if (!b.err)
			kept_lookups__keep(&code, as->dso, as->sym->start, as->sym->end,
					   opts->intel, !opts->no_source, texts, pre, ref,
					   st.comp_dir);
	}
	/* the lines: about one per instruction, the preamble and a few more */
	if (!b.err && code.nr > l->nr) {
		struct annotate_line *lines = realloc(l->lines, (code.nr + code.nr / 8 + 64) *
						      sizeof(*lines));

		if (lines) {
			l->lines = lines;
			b.alloc = code.nr + code.nr / 8 + 64;
		}
	}
	for (i = 0, more = 0; i < code.nr && !b.err; i++) {
		const struct disasm_insn *in = &code.insns[i];
		struct src_pos pos;
		const char *section = NULL, *label;
		char *tidy;

		/* objdump's lines where another section or a symbol starts */
		while (more < code.nr_more && code.more[more].addr <= in->addr) {
			section = code.more[more].addr == in->addr ? code.more[more].name : NULL;
			builder__text(&b, "");
			snprintf(buf, sizeof(buf), "Disassembly of section %s:", code.more[more++].name);
			builder__text(&b, buf);
		}
		/* a section without a symbol of its own is labelled by its name */
		if (section && !(st.symtab && disasm_symtab__label(st.symtab, in->addr, true, ref,
								    sizeof(ref))))
			snprintf(ref, sizeof(ref), "%s", section);
		/* the instruction's label, objdump -l's position, text */
		if (kept) {
			const struct kl_insn *k = &kl.insns[i];

			label = k->label != KL_NONE ? kl.str + k->label : NULL;
			pos = (struct src_pos){ .func = kl.str + k->func, .line = k->line,
						.disc = k->disc,
						.file = k->file != KL_NONE ? kl.str + k->file : NULL };
			tidy = (char *)kl.str + k->text;	/* the mapping is the listing's */
		} else if (pre) {
			label = pre[i].label;
			pos = pre[i].pos;
			tidy = texts[i];
		} else {
			label = i && st.symtab && disasm_symtab__label(st.symtab, in->addr, false, lref,
								       sizeof(lref)) ? lref : NULL;
			src_pos__get(&st, as->dso, in->addr, &pos);
			tidy = NULL;
		}
		if (section || label) {
			builder__text(&b, "");
			snprintf(buf, sizeof(buf), "%016" PRIx64 " <%s>:", in->addr,
				 section ? ref : label);
			builder__text(&b, buf);
		}
		builder__position(&b, set, &st, &pos, !opts->no_source);
		builder__insn(&b, st.symtab, as, in, i + 1 < code.nr ? code.insns[i + 1].addr : as->sym->end,
			      opts->intel, opts->asm_raw, tidy);
	}
	free(texts);
	free(pre);
	free(st.shown);
	disasm_funcs__exit(&st.funcs);
	if (kept) {		/* the lines' text is in the kept entry */
		l->map = code.map;
		l->map_size = code.map_size;
		code.map = NULL;
	}
	disasm_code__exit(&code);
	if (b.err) {
		annotate_listing__exit(l);
		return b.err;
	}
	annotation_set__totals(set, as->evsel, &tot_period, &tot_samples);
	for (i = l->nr; i-- > 0;) {
		if (l->lines[i].offset >= 0 && !l->addr_width)
			l->addr_width = hex_digits(l->start + (uint64_t)l->lines[i].offset);
	}
	for (i = 0; i < l->nr; i++)
		if (l->lines[i].offset >= 0)
			l->lines[i].percent = line__percent(&l->lines[i], as, opts->percent_type,
							    tot_period, tot_samples);
	return 0;
}

void annotate_listing__exit(struct annotate_listing *l)
{
	pool__free(l->pool);
	l->pool = NULL;
	if (l->map)
		munmap(l->map, l->map_size);
	l->map = NULL;
	free(l->lines);
	l->lines = NULL;
	l->nr = 0;
}

static const char *dso__display_name(const struct dso *dso, bool full)
{
	const char *s;

	if (full)
		return dso->long_name;
	s = strrchr(dso->long_name, '/');
	return s ? s + 1 : dso->long_name;
}

/* ---- event groups ---- */

#define GROUP_MAX 16		/* columns of a group listing */

/* A group's column: the member's samples of the symbol (NULL: none). */
struct group_col {
	struct evsel *evsel;
	const struct annotated_sym *as;
};

static const struct annotated_sym *set__find(const struct annotation_set *set,
					     const struct evsel *evsel, const struct dso *dso,
					     const struct symbol *sym)
{
	const struct annotated_sym *as;

	for (as = set->buckets[sym__hash(evsel, sym)]; as; as = as->next)
		if (as->sym == sym && as->evsel == evsel && as->dso == dso)
			return as;
	return NULL;
}

/* The columns of as's listing: its event alone, or with opts->group the
 * members of the group it leads, leader first. Their number. */
static int group__cols(const struct annotation_set *set, const struct annotated_sym *as,
		       const struct annotate_opts *opts, struct group_col *cols)
{
	struct evsel *e = as->evsel;
	int n = 1;

	cols[0] = (struct group_col){ .evsel = e, .as = as };
	if (!opts->group || e->leader != e)
		return 1;
	while (n < e->nr_members && n < GROUP_MAX) {
		struct evsel *m = list_entry(cols[n - 1].evsel->node.next, struct evsel, node);

		cols[n++] = (struct group_col){ .evsel = m, .as = set__find(set, m, as->dso, as->sym) };
	}
	return n;
}

/* perf's evsel__group_desc(): "anon group { a, b }", or "a, b" for
 * --group over ungrouped events. */
static void group__desc(const struct group_col *cols, int n, bool forced, char *buf, size_t size)
{
	size_t k = 0;
	int i;

	buf[0] = '\0';
	if (!forced)
		put_str(buf, size, &k, "anon group { ");
	for (i = 0; i < n; i++) {
		if (i)
			put_str(buf, size, &k, ", ");
		put_str(buf, size, &k, evsel__name(cols[i].evsel));
	}
	if (!forced)
		put_str(buf, size, &k, " }");
}

/* Column c's period, samples and percent on the code line al. */
static void group__value(const struct group_col *col, bool leader, const struct annotate_line *al,
			 enum annotate_percent_type t, uint64_t *period, uint64_t *hits,
			 double *percent)
{
	struct annotate_line ml = { .offset = al->offset };
	uint64_t off;

	if (leader) {
		*period = al->period;
		*hits = al->nr_samples;
		*percent = al->percent;
		return;
	}
	for (off = (uint64_t)al->offset; col->as && off < (uint64_t)al->offset + al->len &&
	     off < col->as->len; off++) {
		ml.period += col->as->addr_period[off];
		ml.nr_samples += col->as->addr_hits[off];
	}
	*period = ml.period;
	*hits = ml.nr_samples;
	*percent = col->as ? line__percent(&ml, col->as, t, 0, 0) : 0.0;
}

/* One source line of -l's summary: its share, summed over its instructions. */
struct line_share {
	const char *path;	/* the DSO's srcline; NULL: path_buf */
	int ncols;		/* columns in col[] */
	double col[GROUP_MAX];	/* per column (event of a group): the order */
	char path_buf[64];
};

static const char *line_share__path(const struct line_share *sh)
{
	return sh->path ? sh->path : sh->path_buf;
}

static int line_share__by_path(const void *pa, const void *pb)
{
	const struct line_share *a = pa, *b = pb;

	return strcmp(line_share__path(a), line_share__path(b));
}

static int line_share__by_percent(const void *pa, const void *pb)
{
	const struct line_share *a = pa, *b = pb;

	int c;

	/* perf: the leader's share first, a member's only on a tie */
	for (c = 0; c < a->ncols; c++)
		if (a->col[c] != b->col[c])
			return a->col[c] > b->col[c] ? -1 : 1;
	/* perf: ties in reverse path order */
	return strcmp(line_share__path(b), line_share__path(a));
}

/* The srcline -l shows for addr: perf's "file.c:NN" (the full path with
 * -P); without line information addr2line's answer from the symbol table
 * ("crtstuff.c:0" in a local function of a file without debug info, else
 * "??:0"), "DSO[addr]" where it finds no function. */
static const char *line_path(struct dso *dso, uint64_t addr, bool full, char *buf, size_t size)
{
	const char *file;
	unsigned int line;

	if (full && !dso__srcline_full(dso, addr, &file, &line, NULL)) {
		snprintf(buf, size, "%s:%u", file, line);
		return buf;
	}
	if (!full && (file = dso__srcline(dso, addr)) != NULL)
		return file;
	if ((file = dso__symtab_srcline(dso, addr)) != NULL)
		return file;
	snprintf(buf, size, "%s[%" PRIx64 "]", dso->short_name, addr);
	return buf;
}

/*
 * perf's -l summary: each instruction over 0.5% gets its srcline, the
 * lines' shares summed, printed hottest first by the first column, then the
 * next ("Sorted summary for file").
 */
static int print_line_summary(const struct annotated_sym *as, const struct annotate_listing *l,
			      const struct annotate_opts *opts, const struct group_col *cols,
			      int ncols, FILE *fp)
{
	struct line_share *shares = calloc(l->nr ? l->nr : 1, sizeof(*shares));
	size_t i, n = 0, m;
	int c;

	if (!shares)
		return -ENOMEM;
	for (i = 0; i < l->nr; i++) {
		const struct annotate_line *al = &l->lines[i];
		struct line_share *sh = &shares[n];
		double max = 0;

		if (al->offset < 0)
			continue;
		/* perf: the lines over 0.5% in some column */
		for (c = 0; c < ncols; c++) {
			uint64_t period, hits;

			group__value(&cols[c], c == 0, al, opts->percent_type, &period, &hits,
				     &sh->col[c]);
			if (sh->col[c] > max)
				max = sh->col[c];
		}
		if (max <= 0.5)
			continue;
		sh->path = line_path(as->dso, l->start + (uint64_t)al->offset, opts->full_paths,
				     sh->path_buf, sizeof(sh->path_buf));
		sh->ncols = ncols;
		n++;
	}
	/* sorting moves the entries: paths in path_buf follow them */
	for (i = 0; i < n; i++)
		if (shares[i].path == shares[i].path_buf)
			shares[i].path = NULL;
	qsort(shares, n, sizeof(*shares), line_share__by_path);
	for (i = 0, m = 0; i < n; i++) {	/* one per path */
		if (m && !strcmp(line_share__path(&shares[m - 1]), line_share__path(&shares[i]))) {
			for (c = 0; c < ncols; c++)
				shares[m - 1].col[c] += shares[i].col[c];
		} else
			shares[m++] = shares[i];
	}
	qsort(shares, m, sizeof(*shares), line_share__by_percent);
	fprintf(fp, "\nSorted summary for file %s\n", as->dso->long_name);
	fprintf(fp, "----------------------------------------------\n\n");
	if (!m)
		fprintf(fp, " Nothing higher than %1.1f%%\n", 0.5);
	for (i = 0; i < m; i++) {
		for (c = 0; c < ncols; c++)
			fprintf(fp, " %7.2f", shares[i].col[c]);
		fprintf(fp, " %s\n", line_share__path(&shares[i]));
	}
	free(shares);
	return 0;
}

/* " :   ADDR:" with ADDR in hex right-aligned in width, as
 * fprintf(" :   %*" PRIx64 ":") without its format parsing per line,
 * at the end of buf (48 bytes); where it starts. */
static char *addr__fmt(char *buf, int width, uint64_t addr)
{
	char *p = buf + 48;
	int n = 0;

	*--p = '\0';
	*--p = ':';
	do {
		*--p = "0123456789abcdef"[addr & 15];
		addr >>= 4;
		n++;
	} while (addr);
	while (n++ < width && p > buf + 6)
		*--p = ' ';
	p -= 5;
	memcpy(p, " :   ", 5);
	return p;
}

static void addr__put(FILE *fp, int width, uint64_t addr)
{
	char buf[48];

	fputs(addr__fmt(buf, width, addr), fp);
}

/* Most lines of a listing: "    0.00 :   ADDR: text", written at once. */
static void line__put_zero(FILE *fp, int width, uint64_t addr, const char *text)
{
	char line[512], abuf[48];
	const char *a = addr__fmt(abuf, width, addr);
	size_t al = strlen(a), tl = strlen(text);

	if (8 + al + tl + 1 > sizeof(line)) {
		fputs("    0.00", fp);
		fputs(a, fp);
		fputs(text, fp);
		fputc('\n', fp);
		return;
	}
	memcpy(line, "    0.00", 8);
	memcpy(line + 8, a, al);
	memcpy(line + 8 + al, text, tl);
	line[8 + al + tl] = '\n';
	fwrite_unlocked(line, 1, 8 + al + tl + 1, fp);
}

int annotated_sym__fprintf(struct annotation_set *set, const struct annotated_sym *as,
			   const struct annotate_opts *opts, FILE *fp)
{
	struct annotate_listing l;
	struct group_col cols[GROUP_MAX];
	int ncols = group__cols(set, as, opts, cols), c;
	int width = (opts->show_total_period ? 12 : 8) * ncols, hlen, err;
	const char *what = opts->show_total_period ? "Period" :
			   opts->show_nr_samples ? "Samples" : "Percent";
	char buf[64], desc[1024];
	size_t i;

	err = annotated_sym__listing(set, as, opts, &l);
	if (err)
		return err;
	if (opts->print_line) {
		err = print_line_summary(as, &l, opts, cols, ncols, fp);
		if (err) {
			annotate_listing__exit(&l);
			return err;
		}
	}
	if (ncols > 1)
		group__desc(cols, ncols, opts->group_forced, desc, sizeof(desc));
	else
		snprintf(desc, sizeof(desc), "%s", evsel__name(as->evsel));
	hlen = fprintf(fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
		       " samples, percent: %s)\n", width, width, what,
		       dso__display_name(as->dso, opts->full_paths), desc,
		       as->nr_samples, annotate__percent_type_str(opts->percent_type));
	/* perf's rule: as long as that line (its newline counted), and 4 more */
	for (i = 0; i < (size_t)hlen + 4; i++)
		fputc('-', fp);
	fputc('\n', fp);
	for (i = 0; i < l.nr; i++) {
		const struct annotate_line *al = &l.lines[i];
		double max_pct = al->percent;

		if (al->offset < 0) {
			if (!al->text[0])
				fprintf(fp, " %*s:\n", width, " ");
			else
				fprintf(fp, " %*s: %-*d %s\n", width, " ", l.addr_width, al->line_nr,
					al->text);
			continue;
		}
		if (ncols == 1 && !opts->show_total_period && !opts->show_nr_samples &&
		    al->percent == 0.0 && !opts->print_line) {
			line__put_zero(fp, l.addr_width, l.start + (uint64_t)al->offset, al->text);
			continue;
		}
		if (ncols == 1) {
			if (opts->show_total_period)
				fprintf(fp, " %11" PRIu64, al->period);
			else if (opts->show_nr_samples)
				fprintf(fp, " %7" PRIu64, al->nr_samples);
			else if (al->percent == 0.0)	/* most lines: no printf */
				fputs("    0.00", fp);
			else
				fprintf(fp, " %7.2f", al->percent);
		} else {
			uint64_t period[GROUP_MAX], hits[GROUP_MAX];
			double pct[GROUP_MAX];

			max_pct = 0;
			for (c = 0; c < ncols; c++) {
				group__value(&cols[c], c == 0, al, opts->percent_type, &period[c],
					     &hits[c], &pct[c]);
				if (pct[c] > max_pct)	/* perf's test for -l: any event's */
					max_pct = pct[c];
			}
			for (c = 0; c < ncols; c++) {
				if (opts->show_total_period)
					fprintf(fp, " %11" PRIu64, period[c]);
				else if (opts->show_nr_samples)
					fprintf(fp, " %7" PRIu64, hits[c]);
				else
					fprintf(fp, " %7.2f", pct[c]);
			}
		}
		addr__put(fp, l.addr_width, l.start + (uint64_t)al->offset);
		fputs(al->text, fp);
		if (opts->print_line && max_pct > 0.5) {
			/* perf shows a line's srcline when it differs from the
			 * last one shown, over all the symbols printed */
			const char *path = line_path(as->dso, l.start + (uint64_t)al->offset,
						     opts->full_paths, buf, sizeof(buf));

			if (!set->last_path || strcmp(set->last_path, path)) {
				fprintf(fp, " // %s", path);
				free(set->last_path);
				set->last_path = strdup(path);
			}
		}
		fputc('\n', fp);
	}
	annotate_listing__exit(&l);
	if (ferror(fp))
		return -EPIPE;
	return 0;
}
