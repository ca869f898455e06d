// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks aggregation (see folded.h). Names are interned in one
 * string table so trie children compare by pointer; resolved frames are
 * named once per (symbol, DSO) through a small pointer-keyed cache.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "folded.h"
#include "sample-filter.h"
#include "../session/off-cpu.h"
#include "../session/resolve.h"
#include "../session/session.h"
#include "../kernel/evsel.h"
#include "../lib/debug.h"
#include "../model/callchain.h"
#include "../model/machine.h"
#include "../model/dso.h"
#include "../model/map.h"
#include "../lib/util.h"

struct intern_entry {
	char *str;
	uint64_t hash;
};

struct name_cache_entry {
	const void *sym, *dso;
	const char *name;	/* interned */
	uint8_t kind;
	bool used;
};

struct folded {
	struct folded_opts opts;
	struct folded_node root;
	struct intern_entry *strs;
	size_t nr_strs, alloc_strs;	/* open addressing, alloc power of 2 */
	struct name_cache_entry *cache;
	size_t nr_cache, alloc_cache;
	const char *last_comm_raw;	/* comm string pointer of the last call */
	const char *last_comm;		/* its interned, '_'-ified form */
	/* (parent, interned name) -> child, for parents with many children */
	struct edge_entry *edges;
	size_t nr_edges, alloc_edges;	/* open addressing, alloc power of 2 */
	struct folded_node *last_leaf;	/* node the last add ended at */
};

struct edge_entry {
	const struct folded_node *parent;
	const char *name;
	struct folded_node *child;
};

#define EDGE_SCAN_MAX 8	/* children scanned linearly before the edge table */

static uint64_t hash_str(const char *s, size_t *lenp)
{
	uint64_t h = 1469598103934665603ULL;
	const char *p = s;

	for (; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	if (lenp)
		*lenp = (size_t)(p - s);
	return h;
}

static int intern_grow(struct folded *f)
{
	size_t n = f->alloc_strs ? f->alloc_strs * 2 : 1024;
	struct intern_entry *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < f->alloc_strs; i++) {
		struct intern_entry *e = &f->strs[i];
		size_t j;

		if (!e->str)
			continue;
		for (j = e->hash & (n - 1); t[j].str; j = (j + 1) & (n - 1))
			;
		t[j] = *e;
	}
	free(f->strs);
	f->strs = t;
	f->alloc_strs = n;
	return 0;
}

static const char *intern(struct folded *f, const char *s)
{
	size_t len, j;
	uint64_t h = hash_str(s, &len);

	if ((f->nr_strs + 1) * 2 > f->alloc_strs && intern_grow(f))
		return NULL;
	for (j = h & (f->alloc_strs - 1); f->strs[j].str; j = (j + 1) & (f->alloc_strs - 1))
		if (f->strs[j].hash == h && !strcmp(f->strs[j].str, s))
			return f->strs[j].str;
	f->strs[j].str = strdup(s);
	if (!f->strs[j].str)
		return NULL;
	f->strs[j].hash = h;
	f->nr_strs++;
	return f->strs[j].str;
}

struct folded *folded__new(const struct folded_opts *opts)
{
	struct folded *f = zalloc(sizeof(*f));

	if (!f)
		return NULL;
	if (opts)
		f->opts = *opts;
	f->root.name = "all";
	f->root.kind = FOLDED_KIND_ROOT;
	return f;
}

static void node__free_children(struct folded_node *n)
{
	for (unsigned int i = 0; i < n->nr_children; i++) {
		node__free_children(n->children[i]);
		free(n->children[i]);
	}
	free(n->children);
}

void folded__delete(struct folded *f)
{
	if (!f)
		return;
	node__free_children(&f->root);
	free(f->edges);
	for (size_t i = 0; i < f->alloc_strs; i++)
		free(f->strs[i].str);
	free(f->strs);
	free(f->cache);
	free(f);
}

struct folded_node *folded__root(struct folded *f)
{
	return &f->root;
}

static inline size_t edge_slot(const struct folded_node *parent, const char *name, size_t mask)
{
	uint64_t h = ((uintptr_t)parent * 0x9E3779B97F4A7C15ULL) ^ ((uintptr_t)name * 0xC2B2AE3D27D4EB4FULL);

	return (size_t)(h >> 17) & mask;
}

static struct folded_node *edge_find(const struct folded *f, const struct folded_node *parent,
				     const char *name)
{
	size_t mask = f->alloc_edges - 1;

	if (!f->alloc_edges)
		return NULL;
	for (size_t j = edge_slot(parent, name, mask); f->edges[j].parent; j = (j + 1) & mask)
		if (f->edges[j].parent == parent && f->edges[j].name == name)
			return f->edges[j].child;
	return NULL;
}

static int edge_add(struct folded *f, const struct folded_node *parent, struct folded_node *child)
{
	size_t mask, j;

	if ((f->nr_edges + 1) * 2 > f->alloc_edges) {
		size_t n = f->alloc_edges ? f->alloc_edges * 2 : 4096;
		struct edge_entry *t = calloc(n, sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (size_t i = 0; i < f->alloc_edges; i++) {
			const struct edge_entry *e = &f->edges[i];

			if (!e->parent)
				continue;
			for (j = edge_slot(e->parent, e->name, n - 1); t[j].parent; j = (j + 1) & (n - 1))
				;
			t[j] = *e;
		}
		free(f->edges);
		f->edges = t;
		f->alloc_edges = n;
	}
	mask = f->alloc_edges - 1;
	for (j = edge_slot(parent, child->name, mask); f->edges[j].parent; j = (j + 1) & mask)
		;
	f->edges[j] = (struct edge_entry){ parent, child->name, child };
	f->nr_edges++;
	return 0;
}

static struct folded_node *node__child(struct folded *f, struct folded_node *n, const char *name,
				       uint8_t kind)
{
	struct folded_node *c;
	unsigned int scanned = 0;

	/* Most recent child first: consecutive samples tend to share paths. */
	for (unsigned int i = n->nr_children; i-- > 0 && scanned < EDGE_SCAN_MAX; scanned++) {
		c = n->children[i];
		if (c->name == name)
			return c;
	}
	if (n->nr_children > EDGE_SCAN_MAX) {
		c = edge_find(f, n, name);
		if (c)
			return c;
	}
	if (n->nr_children == n->alloc_children) {
		unsigned int na = n->alloc_children ? n->alloc_children * 2 : 4;
		struct folded_node **a = realloc(n->children, na * sizeof(*a));

		if (!a)
			return NULL;
		n->children = a;
		n->alloc_children = na;
	}
	c = zalloc(sizeof(*c));
	if (!c)
		return NULL;
	c->name = name;
	c->kind = kind;
	if (edge_add(f, n, c)) {
		free(c);
		return NULL;
	}
	n->children[n->nr_children++] = c;
	return c;
}

static const char *comm_name(struct folded *f, const char *comm)
{
	char buf[256];
	size_t i;

	if (comm == f->last_comm_raw && f->last_comm)
		return f->last_comm;
	for (i = 0; comm && comm[i] && i < sizeof(buf) - 1; i++)
		buf[i] = comm[i] == ' ' ? '_' : comm[i];
	buf[i] = 0;
	f->last_comm_raw = comm;
	f->last_comm = intern(f, buf);
	return f->last_comm;
}

/* Walk/extend the path root -> comm -> names[0..nr) adding weight. */
static int add_path(struct folded *f, int set, const char *comm,
		    const char *const *names, const uint8_t *kinds, unsigned int nr, uint64_t weight)
{
	struct folded_node *n = &f->root;

	set = set ? 1 : 0;
	n->total[set] += weight;
	if (!f->opts.no_comm) {
		const char *c = comm_name(f, comm ? comm : "");

		if (!c)
			return -ENOMEM;
		n = node__child(f, n, c, FOLDED_KIND_ROOT);
		if (!n)
			return -ENOMEM;
		n->total[set] += weight;
	}
	for (unsigned int i = 0; i < nr; i++) {
		n = node__child(f, n, names[i], kinds[i]);
		if (!n)
			return -ENOMEM;
		n->total[set] += weight;
	}
	n->self[set] += weight;
	f->last_leaf = n;
	return 0;
}

struct folded_node *folded__last_leaf(struct folded *f)
{
	return f->last_leaf;
}

#define MAX_FOLD_DEPTH 1024

int folded__add(struct folded *f, int set, const char *comm,
		const struct folded_frame *frames, unsigned int nr, uint64_t weight)
{
	const char *names[MAX_FOLD_DEPTH];
	uint8_t kinds[MAX_FOLD_DEPTH];
	unsigned int n = 0;

	if (nr > MAX_FOLD_DEPTH)
		nr = MAX_FOLD_DEPTH;
	for (unsigned int i = nr; i-- > 0;) {
		char buf[1024];

		folded__tidy_name(frames[i].name ? frames[i].name : "[unknown]", buf, sizeof(buf));
		names[n] = intern(f, buf);
		if (!names[n])
			return -ENOMEM;
		kinds[n++] = (uint8_t)frames[i].kind;
	}
	return add_path(f, set, comm, names, kinds, n, weight);
}

char *folded__tidy_name(const char *raw, char *out, size_t size)
{
	size_t o = 0;
	const char *cut = NULL;
	const char *p;

	if (!size)
		return out;
	/* Go method names like "net/http.(*Client).Do" keep their parens. */
	p = strstr(raw, ".(");
	if (!(p && strstr(p + 2, ").") )) {
		for (p = raw; *p; p++) {
			if (*p == '(' && strncmp(p, "(anonymous namespace)", 21)) {
				cut = p;
				break;
			}
		}
	}
	for (p = raw; *p && (!cut || p < cut) && o + 1 < size; p++) {
		char c = *p;

		if (c == '"' || c == '\'')
			continue;
		out[o++] = c == ';' ? ':' : c;
	}
	out[o] = 0;
	return out;
}

/* stackcollapse-perf.pl's kernel test on the "(dso)" of a frame line: the
 * name contains "kernel." ("[kernel.kallsyms]") or ends in "vmlinux". */
static bool dso_is_kernel_name(const char *mod)
{
	size_t l = strlen(mod);

	return strstr(mod, "kernel.") || (l >= 7 && !strcmp(mod + l - 7, "vmlinux"));
}

enum folded_kind folded__frame_name(const struct callchain_frame *fr, bool annotate_kernel,
				    char *out, size_t size)
{
	const struct dso *dso = fr->map ? fr->map->dso : NULL;
	const char *mod = dso ? dso->long_name : "[unknown]";
	enum folded_kind kind = FOLDED_KIND_UNKNOWN;

	if (dso) {
		switch (dso->kind) {
		case DSO_KERNEL:
		case DSO_KMODULE:
			kind = FOLDED_KIND_KERNEL;
			break;
		case DSO_USER:
			kind = strstr(dso->short_name ? dso->short_name : mod, ".so") ?
				FOLDED_KIND_LIB : FOLDED_KIND_MAIN;
			break;
		case DSO_VDSO:
			kind = FOLDED_KIND_LIB;
			break;
		case DSO_JIT:
			kind = FOLDED_KIND_MAIN;
			break;
		default:
			kind = FOLDED_KIND_UNKNOWN;
			break;
		}
	}
	/* perf script prints inlined frames with "(inlined)" in place of the
	 * DSO: never a kernel frame for stackcollapse-perf.pl */
	if (fr->sym && fr->sym->inlined)
		mod = "inlined";
	folded__line_name(fr->sym ? fr->sym->name : "[unknown]", mod, annotate_kernel, out, size);
	return kind;
}

char *folded__line_name(const char *sym, const char *mod, bool annotate_kernel,
			char *out, size_t size)
{
	char raw[1024];
	const char *p;
	size_t o = 0;
	bool first = true;

	if (!size)
		return out;
	out[0] = 0;
	snprintf(raw, sizeof(raw), "%s%s", sym,
		 annotate_kernel && dso_is_kernel_name(mod) ? "_[k]" : "");
	/* "a->b" (how some tools print an inline chain): one frame per part,
	 * the inner ones marked "_[i]" */
	for (p = raw; ; first = false) {
		const char *arrow = strstr(p, "->");
		size_t len = arrow ? (size_t)(arrow - p) : strlen(p);
		char part[1024], tidy[1024];

		snprintf(part, sizeof(part), "%.*s", (int)len, p);
		if (!strcmp(part, "[unknown]") && strcmp(mod, "[unknown]")) {
			const char *base = strrchr(mod, '/');

			snprintf(part, sizeof(part), "[%s]", base ? base + 1 : mod);
		}
		folded__tidy_name(part, tidy, sizeof(tidy));
		o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s%s%s",
				      first ? "" : ";", tidy, first ? "" : "_[i]");
		if (o >= size) {
			out[size - 1] = 0;
			break;
		}
		if (!arrow)
			break;
		p = arrow + 2;
	}
	return out;
}

static struct name_cache_entry *cache_lookup(struct folded *f, const void *sym, const void *dso)
{
	uint64_t h = ((uintptr_t)sym * 0x9E3779B97F4A7C15ULL) ^ ((uintptr_t)dso * 0xC2B2AE3D27D4EB4FULL);
	size_t j;

	if ((f->nr_cache + 1) * 2 > f->alloc_cache) {
		size_t n = f->alloc_cache ? f->alloc_cache * 2 : 1024;
		struct name_cache_entry *t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < f->alloc_cache; i++) {
			struct name_cache_entry *e = &f->cache[i];
			uint64_t eh;

			if (!e->used)
				continue;
			eh = ((uintptr_t)e->sym * 0x9E3779B97F4A7C15ULL) ^
			     ((uintptr_t)e->dso * 0xC2B2AE3D27D4EB4FULL);
			for (j = (eh >> 7) & (n - 1); t[j].used; j = (j + 1) & (n - 1))
				;
			t[j] = *e;
		}
		free(f->cache);
		f->cache = t;
		f->alloc_cache = n;
	}
	for (j = (h >> 7) & (f->alloc_cache - 1); f->cache[j].used; j = (j + 1) & (f->alloc_cache - 1))
		if (f->cache[j].sym == sym && f->cache[j].dso == dso)
			return &f->cache[j];
	f->cache[j].used = true;
	f->cache[j].sym = sym;
	f->cache[j].dso = dso;
	f->cache[j].name = NULL;
	f->nr_cache++;
	return &f->cache[j];
}

int folded__add_cursor(struct folded *f, int set, const char *comm,
		       const struct callchain_cursor *cursor, uint64_t weight)
{
	const char *names[MAX_FOLD_DEPTH];
	uint8_t kinds[MAX_FOLD_DEPTH];
	unsigned int n = 0, nr = cursor ? cursor->nr : 0;

	if (nr > MAX_FOLD_DEPTH)
		nr = MAX_FOLD_DEPTH;
	for (unsigned int i = nr; i-- > 0;) {
		const struct callchain_frame *fr = &cursor->frames[i];
		const void *dso = fr->map ? (const void *)fr->map->dso : NULL;
		struct name_cache_entry *e;

		/* Unmapped frames without a symbol all fold to "[unknown]". */
		e = cache_lookup(f, fr->sym, fr->sym || dso ? dso : NULL);
		if (!e)
			return -ENOMEM;
		if (!e->name) {
			char buf[1024];

			e->kind = (uint8_t)folded__frame_name(fr, f->opts.annotate_kernel, buf, sizeof(buf));
			e->name = intern(f, buf);
			if (!e->name)
				return -ENOMEM;
		}
		names[n] = e->name;
		kinds[n++] = e->kind;
	}
	return add_path(f, set, comm, names, kinds, n, weight);
}

/* ---- output ---- */

struct fold_line {
	char *key;	/* stack, NUL-terminated */
	uint64_t count;
};

struct fold_lines {
	struct fold_line *v;
	size_t nr, alloc;
};

static int collect(struct folded_node *n, char *path, size_t len, size_t cap, struct fold_lines *out)
{
	if (n->self[0]) {
		if (out->nr == out->alloc) {
			size_t na = out->alloc ? out->alloc * 2 : 1024;
			struct fold_line *v = realloc(out->v, na * sizeof(*v));

			if (!v)
				return -ENOMEM;
			out->v = v;
			out->alloc = na;
		}
		out->v[out->nr].key = strndup(path, len);
		if (!out->v[out->nr].key)
			return -ENOMEM;
		out->v[out->nr++].count = n->self[0];
	}
	for (unsigned int i = 0; i < n->nr_children; i++) {
		struct folded_node *c = n->children[i];
		size_t l = strlen(c->name), nl = len + (len ? 1 : 0) + l;
		int err;

		if (!c->total[0])
			continue;
		if (nl + 1 > cap)
			continue;	/* absurdly deep: dropped */
		if (len)
			path[len] = ';';
		memcpy(path + len + (len ? 1 : 0), c->name, l);
		path[nl] = 0;
		err = collect(c, path, nl, cap, out);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct fold_line *)a)->key, ((const struct fold_line *)b)->key);
}

int folded__fprintf(struct folded *f, FILE *fp)
{
	struct fold_lines lines = { 0 };
	size_t cap = 1 << 20;
	char *path = malloc(cap);
	int err = -ENOMEM;

	if (!path)
		return -ENOMEM;
	path[0] = 0;
	if (f->opts.no_comm) {
		err = collect(&f->root, path, 0, cap, &lines);
	} else {
		/* the root itself is not a frame */
		err = 0;
		for (unsigned int i = 0; i < f->root.nr_children && !err; i++) {
			struct folded_node *c = f->root.children[i];
			size_t l = strlen(c->name);

			memcpy(path, c->name, l + 1);
			err = collect(c, path, l, cap, &lines);
		}
	}
	if (!err && lines.nr) {	/* no stacks: lines.v is NULL, which qsort() may not get */
		qsort(lines.v, lines.nr, sizeof(*lines.v), cmp_line);
		for (size_t i = 0; i < lines.nr; i++) {
			fputs(lines.v[i].key, fp);
			fprintf(fp, " %" PRIu64 "\n", lines.v[i].count);
			if (ferror(fp)) {
				err = errno == EPIPE ? -EPIPE : -EIO;
				break;
			}
		}
	}
	for (size_t i = 0; i < lines.nr; i++)
		free(lines.v[i].key);
	free(lines.v);
	free(path);
	return err;
}

/* ---- from a perf.data file ---- */

struct folded_file_tool {
	struct perf_tool tool;
	struct folded *f;
	int set;
	const struct folded_file_opts *opts;
	struct perf_session *session;
	struct off_cpu *oc;
	bool oc_setup;
	bool on_cpu;			/* fold on-CPU samples */
	struct evsel *evsel;
	struct resolved_sample rs;
	struct resolve_opts ropts;
	struct folded_file_info info;
};

/* The sample passes the task and time filters of the options (its
 * thread and comm resolved). */
static bool folded_file__keep(struct folded_file_tool *ft, const struct perf_sample *sample)
{
	const struct folded_file_opts *o = ft->opts;

	if (o->time && !sample_time_filter__match(o->time, sample->time))
		return false;
	return !o->filter || sample_filter__match_task(o->filter, sample->pid, sample->tid,
							ft->rs.thread ? ft->rs.comm : NULL);
}

static int folded_file__observe(struct folded_file_tool *ft, struct folded *f,
				const struct perf_sample *sample, bool off_cpu, uint64_t weight)
{
	if (!ft->opts->observe)
		return 0;
	return ft->opts->observe(ft->opts->observe_arg, sample, ft->rs.thread ? ft->rs.comm : "",
				 off_cpu, folded__last_leaf(f), weight);
}

/* An offcpu-time sample (a finished off-CPU span, from the session):
 * into the off-CPU stacks when asked for. */
static int folded_file__off_cpu_sample(struct folded_file_tool *ft, struct perf_sample *sample)
{
	int err;

	if (!ft->opts->off_cpu)
		return 0;
	sample__resolve(ft->session, sample, sample->evsel, &ft->rs);
	if (!folded_file__keep(ft, sample))
		return 0;
	err = resolved_sample__callchain(ft->session, &ft->rs, &ft->ropts);
	if (err)
		return err;
	ft->info.nr_off_cpu++;
	ft->info.off_cpu_ns += sample->period;
	err = folded__add_cursor(ft->opts->off_cpu, ft->set, ft->rs.thread ? ft->rs.comm : "",
				 &ft->rs.cursor, sample->period);
	return err ? err : folded_file__observe(ft, ft->opts->off_cpu, sample, true, sample->period);
}

/* Once the session knows its events (at once for files, at the first
 * sample for pipes): an off-CPU recording gets an accounter. */
static int folded_file__setup(struct folded_file_tool *ft)
{
	int err = 0;

	if (ft->oc_setup)
		return 0;
	ft->oc_setup = true;
	ft->oc = perf_session__off_cpu(ft->session, &err);
	if (ft->oc)
		ft->info.has_off_cpu = true;
	return err;
}

static int folded_file__sample(struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct evsel *evsel,
			       struct machine *machine)
{
	struct folded_file_tool *ft = container_of(tool, struct folded_file_tool, tool);
	uint64_t weight;
	int err;

	(void)event;
	(void)machine;
	if (!evsel)
		evsel = sample->evsel;
	if (!evsel)
		return 0;
	err = folded_file__setup(ft);
	if (err)
		return err;
	if (ft->oc && evsel == off_cpu__evsel(ft->oc))
		return folded_file__off_cpu_sample(ft, sample);
	if (!ft->on_cpu)
		return 0;
	if (!ft->evsel) {
		if (ft->opts->event && strcmp(evsel__name(evsel), ft->opts->event))
			return 0;
		ft->evsel = evsel;
	}
	if (evsel != ft->evsel)
		return 0;
	sample__resolve(ft->session, sample, evsel, &ft->rs);
	if (!folded_file__keep(ft, sample))
		return 0;
	err = resolved_sample__callchain(ft->session, &ft->rs, &ft->ropts);
	if (err)
		return err;
	ft->info.nr_samples++;
	weight = ft->opts->weight_period ? sample->period : 1;
	err = folded__add_cursor(ft->f, ft->set, ft->rs.thread ? ft->rs.comm : "",
				 &ft->rs.cursor, weight);
	return err ? err : folded_file__observe(ft, ft->f, sample, false, weight);
}

/* PERF_RECORD_SWITCH (the session finished off-CPU spans with it): the
 * events are known by now. */
static int folded_file__switch(struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct folded_file_tool *ft = container_of(tool, struct folded_file_tool, tool);
	int err = folded_file__setup(ft);

	(void)event;
	(void)sample;
	(void)machine;
	return err;
}

int folded__add_file(struct folded *f, int set, const char *path,
		     const struct folded_file_opts *opts, struct folded_file_info *info)
{
	struct folded_file_tool ft;
	struct perf_session *session;
	int err = 0;

	memset(&ft, 0, sizeof(ft));
	perf_tool__init(&ft.tool, true);
	ft.tool.sample = folded_file__sample;
	ft.tool.context_switch = folded_file__switch;
	ft.f = f;
	ft.set = set;
	ft.opts = opts;
	ft.on_cpu = !(opts->event && !strcmp(opts->event, OFF_CPU_EVENT_NAME));
	ft.ropts.max_stack = opts->max_stack ? opts->max_stack : 127;
	ft.ropts.inline_frames = !opts->no_inline;
	resolved_sample__init(&ft.rs, false);
	session = perf_session__new(path, &ft.tool, &err);
	if (!session) {
		resolved_sample__exit(&ft.rs);
		return err ? err : -EINVAL;
	}
	ft.session = session;
	session->progress = opts->progress;
	perf_session__enable_off_cpu(session);
	if (!session->data.pipe)
		err = folded_file__setup(&ft);
	if (!err && opts->time && sample_time_filter__resolve(opts->time, session->data.env.sample_time_start,
							      session->data.env.sample_time_end)) {
		pr_err("%s: percent time ranges need the recording's sample time span "
		       "(HEADER_SAMPLE_TIME), which it does not have\n", path);
		err = -EINVAL;
	}
	if (!err)
		err = perf_session__process_events(session);
	if (perf_session__input_damage(session, err))	/* keep what was read */
		err = 0;
	ft.info.summary = session->data.summary;
	if (!err && !ft.evsel && !(opts->off_cpu && ft.info.nr_off_cpu)) {
		if (!ft.on_cpu)
			pr_err("%s: no off-CPU time (record with prf record --off-cpu)\n", path);
		else if (opts->event)
			pr_err("%s: no samples of event '%s'\n", path, opts->event);
		else
			pr_err("%s: no samples\n", path);
		err = -ENOENT;
	}
	if (ft.evsel)
		snprintf(ft.info.event, sizeof(ft.info.event), "%s", evsel__name(ft.evsel));
	if (info)
		*info = ft.info;
	perf_session__delete(session);
	resolved_sample__exit(&ft.rs);
	return err;
}
