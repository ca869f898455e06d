// SPDX-License-Identifier: GPL-2.0
/*
 * `prf probe`'s work (probe.h): probe specs parsed, resolved through
 * util/model/probe-info.h, written to and read from tracefs
 * (util/kernel/tracefs.h), and perf 6.1's messages and listings.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
#include "../model/build-id-cache.h"
#include "../model/probe-cache.h"
#include "../model/probe-info.h"
#include "../kernel/tracefs.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

#define MAX_ARGS 128

struct parg {
	char *text;		/* as written, for "Added new event" */
	char *name;		/* NAME= or the last field's name */
	char *var;		/* the variable, "$retval", "$params", "$vars" */
	char *raw;		/* a raw fetch argument (no DWARF) */
	char *type;		/* :TYPE */
	struct probe_arg_step steps[16];
	size_t nsteps;
};

struct pspec {
	char *buf;		/* the point token, cut up in place */
	const char *group, *event;
	struct probe_request req;
	bool ret;
	bool sdt;		/* an SDT event of the build-id cache: group and
				 * event are globs, point "%EVENT" */
	char point[512];	/* the point as perf prints it back */
	struct parg args[MAX_ARGS];
	size_t nargs;
};

static void pspec__free(struct pspec *s)
{
	for (size_t i = 0; i < s->nargs; i++) {
		struct parg *a = &s->args[i];

		free(a->text);
		free(a->name);
		free(a->var);
		free(a->raw);
		free(a->type);
		for (size_t k = 0; k < a->nsteps; k++)
			free(a->steps[k].field);
	}
	free(s->buf);
}

static void add_error(void)
{
	fprintf(stderr, "  Error: Failed to add events.\n");
}

static int bad_syntax(const char *what, const char *text)
{
	fprintf(stderr, "Semantic error :%s: %s\n", what, text);
	return -EINVAL;
}

/* FUNC[@SRC][:RLN|+OFF|%return|;PTN] or SRC:ALN / SRC;PTN, cut in place. */
static int parse_point(struct pspec *s, char *p)
{
	struct probe_request *r = &s->req;
	char *lazy = strchr(p, ';'), *q, *end;
	char c = 0;

	if (lazy) {
		*lazy++ = '\0';
		r->lazy = lazy;
	}
	q = strpbrk(p, ":+@%");
	if (q) {
		c = *q;
		*q++ = '\0';
	}
	if (strchr(p, '.') && c != '@' && c != '+' && c != '%') {
		r->src = p;
		r->where = lazy ? PROBE_AT_SRC_LAZY : PROBE_AT_SRC_LINE;
	} else {
		r->func = p;
		r->where = lazy ? PROBE_AT_FUNC_LAZY : PROBE_AT_FUNC;
	}
	while (q) {
		char *cur = q, kind = c;

		q = strpbrk(cur, kind == '@' ? ":+%" : ":+@%");
		c = 0;
		if (q) {
			c = *q;
			*q++ = '\0';
		}
		switch (kind) {
		case '@':
			r->src = cur;
			break;
		case ':':
			r->line = strtol(cur, &end, 10);
			if (end == cur || *end || r->line < 0)
				return bad_syntax("Failed to parse line", cur);
			if (r->where == PROBE_AT_FUNC && r->line)	/* :0 is the entry */
				r->where = PROBE_AT_FUNC_LINE;
			break;
		case '+':
			r->offset = strtoull(cur, &end, 0);
			if (end == cur || *end)
				return bad_syntax("Failed to parse offset", cur);
			break;
		case '%':
			if (strcmp(cur, "return"))
				return bad_syntax("unknown probe point suffix", cur);
			s->ret = true;
			break;
		}
	}
	if (r->where == PROBE_AT_SRC_LINE && !r->line)
		return bad_syntax("File line is needed", r->src);
	if ((s->ret || r->offset) && r->where != PROBE_AT_FUNC)
		return bad_syntax("Offset and %return need a function", p);
	if (s->ret && r->offset)
		return bad_syntax("Offset can't be used with return probe", p);
	/* printed back as perf does */
	if (r->func) {
		int n = snprintf(s->point, sizeof(s->point), "%s", r->func);

		if (r->offset)
			n += snprintf(s->point + n, sizeof(s->point) - n, "+%" PRIu64, r->offset);
		if (r->where == PROBE_AT_FUNC_LINE)
			n += snprintf(s->point + n, sizeof(s->point) - n, ":%ld", r->line);
		if (s->ret)
			n += snprintf(s->point + n, sizeof(s->point) - n, "%%return");
		if (r->src)
			snprintf(s->point + n, sizeof(s->point) - n, "@%s", r->src);
	} else if (r->lazy) {	/* perf prints no pattern back */
		snprintf(s->point, sizeof(s->point), "@%s", r->src);
	} else {
		snprintf(s->point, sizeof(s->point), "@%s:%ld", r->src, r->line);
	}
	return 0;
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

/* [NAME=]VAR[->F|.F|[N]]...[:TYPE], or a raw fetch argument. */
static int parse_arg(struct parg *a, const char *text)
{
	const char *p = text, *eq = strchr(text, '='), *colon;
	char *v;

	a->text = strdup(text);
	if (!a->text)
		return -ENOMEM;
	if (eq && eq > text && strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_") == (size_t)(eq - text)) {
		a->name = strndup(text, (size_t)(eq - text));
		p = eq + 1;
	}
	if (!is_ident_start(*p) && *p != '$') {
		a->raw = strdup(p);
		return a->raw ? 0 : -ENOMEM;
	}
	colon = strrchr(p, ':');
	if (colon) {
		a->type = strdup(colon + 1);
		v = strndup(p, (size_t)(colon - p));
	} else {
		v = strdup(p);
	}
	if (!v)
		return -ENOMEM;
	a->var = v;
	while (*v && (isalnum((unsigned char)*v) || *v == '_' || (v == a->var && *v == '$')))
		v++;
	while (*v) {
		struct probe_arg_step *st;
		char *end;

		if (a->nsteps == ARRAY_SIZE(a->steps))
			return bad_syntax("Too many fields", text);
		st = &a->steps[a->nsteps];
		if (*v == '[') {
			st->index = strtol(v + 1, &end, 0);
			if (end == v + 1 || *end != ']')
				return bad_syntax("Array index must be a number", text);
			v = end + 1;
		} else if (*v == '.' || (v[0] == '-' && v[1] == '>')) {
			char *f;

			st->arrow = *v == '-';
			v += st->arrow ? 2 : 1;
			f = v;
			while (isalnum((unsigned char)*v) || *v == '_')
				v++;
			if (f == v)
				return bad_syntax("Field name is missing", text);
			st->field = strndup(f, (size_t)(v - f));
			if (!st->field)
				return -ENOMEM;
		} else {
			fprintf(stderr, "Failed to parse '%s': unexpected '%s'.\n", text, v);
			return -EINVAL;
		}
		a->nsteps++;
	}
	a->var[strcspn(a->var, ".-[")] = '\0';
	if (!*a->var)
		return bad_syntax("Variable name is missing", text);
	/* a field chain names the argument after its last member */
	if (!a->name && a->nsteps) {
		const char *last = a->var;

		for (size_t i = 0; i < a->nsteps; i++)
			if (a->steps[i].field)
				last = a->steps[i].field;
		a->name = strdup(last);
		if (!a->name)
			return -ENOMEM;
	}
	return 0;
}

/* Split spec text into the point and its arguments. */
static int pspec__parse(struct pspec *s, const char *text)
{
	char *tok, *save = NULL, *copy = strdup(text), *eq, *first;
	int err = 0;

	memset(s, 0, sizeof(*s));
	if (!copy)
		return -ENOMEM;
	first = strtok_r(copy, " \t", &save);
	if (!first) {
		free(copy);
		fprintf(stderr, "Error: probe point is not specified.\n");
		return -EINVAL;
	}
	s->buf = strdup(first);
	if (!s->buf) {
		free(copy);
		return -ENOMEM;
	}
	first = s->buf;
	eq = strchr(first, '=');
	/* "%[GROUP:]EVENT", or "sdt_..." with a group and no new name */
	if (first[0] == '%' || (!strncmp(first, "sdt_", 4) && strchr(first, ':') && !eq)) {
		char *colon;

		s->sdt = true;
		first += first[0] == '%';
		colon = strchr(first, ':');
		if (colon) {
			*colon = '\0';
			s->group = first;
		}
		s->event = colon ? colon + 1 : first;
		snprintf(s->point, sizeof(s->point), "%%%s", s->event);
	} else if (eq) {
		char *colon;

		*eq = '\0';
		colon = strchr(first, ':');
		if (colon) {
			*colon = '\0';
			s->group = first;
			s->event = colon + 1;
		} else {
			s->event = first;
		}
		first = eq + 1;
	}
	if (!s->sdt)
		err = parse_point(s, first);
	while (!err && (tok = strtok_r(NULL, " \t", &save))) {
		if (s->nargs == MAX_ARGS) {
			err = bad_syntax("Too many arguments", tok);
			break;
		}
		err = parse_arg(&s->args[s->nargs++], tok);
	}
	free(copy);
	return err;
}

/* ---- names ---- */

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			*s = '_';
}

static void default_group(const struct probe_opts *o, char *buf, size_t size)
{
	const char *base;

	if (!o->target) {
		snprintf(buf, size, "probe");
		return;
	}
	base = strrchr(o->target, '/');
	base = base ? base + 1 : o->target;
	snprintf(buf, size, "probe_%.*s", (int)strcspn(base, "."), base);
	sanitize(buf + 6);
}

/* The existing events "GROUP:EVENT" of both probe files, sorted. */
struct namelist {
	char **v;
	size_t n, alloc;
};

static int namelist__add(struct namelist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return 0;
	if (l->n == l->alloc) {
		size_t na = l->alloc ? 2 * l->alloc : 16;
		char **nv = realloc(l->v, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->alloc = na;
	}
	l->v[l->n] = strdup(name);
	return l->v[l->n++] ? 0 : -ENOMEM;
}

static void namelist__free(struct namelist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static bool namelist__has(const struct namelist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A definition line's parts: "p:GROUP/EVENT TARGET ARGS". */
struct probe_line {
	char kind;
	char group[128], event[128];
	char target[PATH_MAX + 32];
	const char *args;	/* into the line */
};

static bool probe_line__parse(const char *line, struct probe_line *pl)
{
	const char *slash, *sp, *t;

	if (!line[0] || line[1] != ':')
		return false;
	pl->kind = line[0];
	slash = strchr(line + 2, '/');
	sp = strchr(line + 2, ' ');
	if (!slash || !sp || slash > sp)
		return false;
	snprintf(pl->group, sizeof(pl->group), "%.*s", (int)(slash - line - 2), line + 2);
	snprintf(pl->event, sizeof(pl->event), "%.*s", (int)(sp - slash - 1), slash + 1);
	t = sp + 1;
	sp = strchr(t, ' ');
	snprintf(pl->target, sizeof(pl->target), "%.*s", (int)(sp ? sp - t : (long)strlen(t)), t);
	pl->args = sp ? sp + 1 : "";
	return true;
}

/* Lines of kprobe_events then uprobe_events: the buffers in bufs[2]
 * (freed by the caller), lines sorted per file in *lines. */
struct probe_files {
	char *buf[2];
	char **lines;
	size_t n;
	size_t nkprobes;	/* lines[0, nkprobes) are kprobes, the rest uprobes */
};

static int probe_files__read(struct probe_files *pf)
{
	size_t alloc = 0;

	memset(pf, 0, sizeof(*pf));
	for (int u = 0; u < 2; u++) {
		size_t start = pf->n;
		int err = tracefs__probe_events_read(u, &pf->buf[u]);
		char *save = NULL, *l;

		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		for (l = strtok_r(pf->buf[u], "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (pf->n == alloc) {
				char **nv = realloc(pf->lines, (alloc = alloc ? 2 * alloc : 64) *
							       sizeof(*nv));
				if (!nv)
					return -ENOMEM;
				pf->lines = nv;
			}
			pf->lines[pf->n++] = l;
		}
		if (pf->n > start)
			qsort(pf->lines + start, pf->n - start, sizeof(char *), cmp_str);
		if (!u)
			pf->nkprobes = pf->n;
	}
	return 0;
}

static void probe_files__free(struct probe_files *pf)
{
	free(pf->buf[0]);
	free(pf->buf[1]);
	free(pf->lines);
}

static int existing_names(struct namelist *names)
{
	struct probe_files pf;
	int err = probe_files__read(&pf);

	for (size_t i = 0; !err && i < pf.n; i++) {
		struct probe_line pl;
		char n[260];

		if (!probe_line__parse(pf.lines[i], &pl))
			continue;
		snprintf(n, sizeof(n), "%s:%s", pl.group, pl.event);
		err = namelist__add(names, n);
	}
	probe_files__free(&pf);
	return err;
}

static void tracefs_error(int err, bool write)
{
	if (err == -EACCES || err == -EPERM)
		fprintf(stderr, write ? "No permission to write tracefs.\n"
					"Please run this command again with sudo.\n"
				      : "No permission to read tracefs.\n"
					"Please try 'sudo mount -o remount,mode=755 %s/'\n",
			"/sys/kernel/tracing");
	else if (err == -ENOENT)
		fprintf(stderr, "%s\n", tracefs__mount_hint());
	else
		fprintf(stderr, "Failed to %s tracefs: %s\n", write ? "write" : "read",
			strerror(-err));
}

/* ---- resolving ---- */

struct added {
	char group[128], event[160];
	char *def;
	char *module;		/* an SDT event's binary (else the -x target's) */
	bool uprobe;		/* for uprobe_events, else kprobe_events */
	const struct pspec *spec;
};

struct add_ctx {
	const struct probe_opts *o;
	struct probe_info *pi;
	char target[PATH_MAX];
	struct namelist names;
	struct added *added;
	size_t nadded, alloc;
};

static int no_debuginfo(const char *target)
{
	fprintf(stderr, "The %s file has no debug information.\n"
			"Rebuild with -g, or install an appropriate debuginfo package.\n", target);
	return -EOPNOTSUPP;
}

struct var_expand {
	struct add_ctx *c;
	const struct probe_site *site;
	struct strbuf *b;
	const char *type;
	int err;
};

static int expand_var(const struct probe_var *var, void *arg)
{
	struct var_expand *x = arg;
	char *out = NULL, *msg = NULL;
	int err;

	err = probe_info__fetcharg(x->c->pi, x->site, var->name, NULL, 0, x->type, &out, &msg);
	if (!err)
		err = strbuf_addf(x->b, " %s=%s", var->name, out);
	else if (err != -ENOMEM)
		err = 0;	/* $vars: one without a location is left out */
	free(out);
	free(msg);
	x->err = err;
	return err;
}

static int arg_fetch(struct add_ctx *c, const struct pspec *s, const struct probe_site *site,
		     size_t i, struct strbuf *b)
{
	const struct parg *a = &s->args[i];
	char synth[256], *out = NULL, *msg = NULL;
	int err;

	/* unnamed, the kernel names them argN itself */
	if (a->raw)
		return a->name ? strbuf_addf(b, " %s=%s", a->name, a->raw) : strbuf_addf(b, " %s", a->raw);
	if (!strcmp(a->var, "$retval")) {
		if (!s->ret) {
			fprintf(stderr, "Semantic error: You can't specify $retval on this probe "
					"point.\n");
			return -EINVAL;
		}
		return strbuf_addf(b, " %s%s$retval%s%s", a->name ? a->name : "", a->name ? "=" : "",
			      a->type ? ":" : "", a->type ? a->type : "");
	}
	if (!c->pi || !probe_info__has_dwarf(c->pi))
		return no_debuginfo(c->target);
	if (!strcmp(a->var, "$params") || !strcmp(a->var, "$vars")) {
		struct var_expand x = { c, site, b, a->type, 0 };

		err = probe_info__vars(c->pi, site, a->var[1] == 'p', false, false, expand_var, &x);
		return err ? err : x.err;
	}
	if (a->var[0] == '$') {
		fprintf(stderr, "Semantic error: %s is not supported.\n", a->var);
		return -EINVAL;
	}
	err = probe_info__fetcharg(c->pi, site, a->var, a->steps, a->nsteps, a->type, &out, &msg);
	if (err) {
		fprintf(stderr, "%s\n", msg ? msg : strerror(-err));
		free(msg);
		return err == -ENOMEM ? err : err == -EOPNOTSUPP ? err : -EINVAL;
	}
	if (a->name) {
		snprintf(synth, sizeof(synth), "%s", a->name);
	} else {
		snprintf(synth, sizeof(synth), "%s%s%s", a->var, a->type ? ":" : "",
			 a->type ? a->type : "");
		sanitize(synth);
	}
	err = strbuf_addf(b, " %s=%s", synth, out);
	free(out);
	return err;
}

static int event_name(struct add_ctx *c, const struct pspec *s, const struct probe_site *site,
		      bool first_site, char *group, size_t gsize, char *event, size_t esize)
{
	char base[160], full[300];

	if (s->group)
		snprintf(group, gsize, "%s", s->group);
	else
		default_group(c->o, group, gsize);
	if (s->event) {
		snprintf(base, sizeof(base), "%s", s->event);
	} else {
		snprintf(base, sizeof(base), "%s", s->req.func ? s->req.func : site->func);
		base[strcspn(base, ".")] = '\0';
		sanitize(base);
		if (s->req.where == PROBE_AT_FUNC_LINE)
			snprintf(base + strlen(base), sizeof(base) - strlen(base), "_L%ld",
				 s->req.line);
	}
	if (s->ret)	/* also after a name of the user's, as perf does */
		strncat(base, "__return", sizeof(base) - strlen(base) - 1);
	snprintf(event, esize, "%s", base);
	/* more sites of one point join one event, as the kernel allows */
	if (!first_site)
		return 0;
	snprintf(full, sizeof(full), "%s:%s", group, event);
	if (!namelist__has(&c->names, full))
		return 0;
	if (!c->o->force) {
		fprintf(stderr, "Error: event \"%s\" already exists.\n"
				" Hint: Remove existing event by 'perf probe -d'\n"
				"       or force duplicates by 'perf probe -f'\n"
				"       or set 'force=yes' in BPF source.\n", event);
		return -EEXIST;
	}
	for (int i = 1; i < 10000; i++) {
		snprintf(event, esize, "%s_%d", base, i);
		snprintf(full, sizeof(full), "%s:%s", group, event);
		if (!namelist__has(&c->names, full))
			return 0;
	}
	return -EEXIST;
}

/* Room for one more added event: it, zeroed, or NULL (ENOMEM). */
static struct added *added__new(struct add_ctx *c)
{
	if (c->nadded == c->alloc) {
		size_t na = c->alloc ? 2 * c->alloc : 8;
		struct added *nv = realloc(c->added, na * sizeof(*nv));

		if (!nv)
			return NULL;
		c->added = nv;
		c->alloc = na;
	}
	memset(&c->added[c->nadded], 0, sizeof(c->added[0]));
	return &c->added[c->nadded];
}

static int add_site(struct add_ctx *c, const struct pspec *s, const struct probe_site *site,
		    bool first_site, const char *prev_event)
{
	struct strbuf b = STRBUF_INIT;
	struct added *ad;
	char full[300];
	uint64_t off;
	int err;

	ad = added__new(c);
	if (!ad)
		return -ENOMEM;
	ad->spec = s;
	ad->uprobe = c->o->target != NULL;
	err = event_name(c, s, site, first_site, ad->group, sizeof(ad->group), ad->event,
			 sizeof(ad->event));
	if (err)
		return err;
	if (!first_site && prev_event)
		snprintf(ad->event, sizeof(ad->event), "%s", prev_event);
	if (c->o->target) {
		if (probe_info__vaddr_to_offset(c->pi, site->addr, &off)) {
			fprintf(stderr, "Failed to find the file offset of 0x%" PRIx64 " in %s.\n",
				site->addr, c->target);
			return -ENOENT;
		}
		err = strbuf_addf(&b, "%c:%s/%s %s:0x%" PRIx64, s->ret ? 'r' : 'p', ad->group,
			     ad->event, c->target, off);
	} else {
		uint64_t addr, text;

		if (probe_info__kernel_symbol(s->req.func, &addr, &text)) {
			fprintf(stderr, "Failed to find symbol %s in kernel\n", s->req.func);
			strbuf_release(&b);
			return -ENOENT;
		}
		err = s->ret ? strbuf_addf(&b, "r:%s/%s %s+%" PRIu64, ad->group, ad->event, s->req.func,
				      s->req.offset)
			     : strbuf_addf(&b, "p:%s/%s _text+%" PRIu64, ad->group, ad->event,
				      addr - text + s->req.offset);
	}
	for (size_t i = 0; !err && i < s->nargs; i++)
		err = arg_fetch(c, s, site, i, &b);
	if (err) {
		strbuf_release(&b);
		return err;
	}
	ad->def = strbuf_detach(&b, NULL);
	if (!ad->def)
		return -ENOMEM;
	snprintf(full, sizeof(full), "%s:%s", ad->group, ad->event);
	c->nadded++;
	return namelist__add(&c->names, full);
}

/* Whether an argument is a variable to find in DWARF. */
static bool needs_dwarf_args(const struct pspec *s)
{
	for (size_t i = 0; i < s->nargs; i++)
		if (!s->args[i].raw && strcmp(s->args[i].var, "$retval"))
			return true;
	return false;
}

static bool needs_dwarf(const struct pspec *s)
{
	return s->req.where != PROBE_AT_FUNC || s->req.src || needs_dwarf_args(s);
}

static int resolve(struct add_ctx *c, struct pspec *s, struct probe_site **sites, size_t *n)
{
	int err;

	s->req.no_inlines = c->o->no_inlines;
	s->req.skip_prologue = needs_dwarf_args(s) && !s->ret;
	if (!c->o->target) {
		if (needs_dwarf(s)) {
			fprintf(stderr, "Failed to find the path for the kernel: Invalid ELF file\n");
			return -EOPNOTSUPP;
		}
		/* by symbol: add_site() looks the address up in kallsyms */
		*sites = calloc(1, sizeof(**sites));
		if (!*sites || !((*sites)->func = strdup(s->req.func))) {
			free(*sites);
			*sites = NULL;
			return -ENOMEM;
		}
		*n = 1;
		return 0;
	}
	if (needs_dwarf(s) && !probe_info__has_dwarf(c->pi))
		return no_debuginfo(c->target);
	if (s->req.func && probe_info__symbol_is_ifunc(c->pi, s->req.func))
		fprintf(stderr, "Warning: The probe function (%s) is a GNU indirect function.\n"
				"Consider identifying the final function used at run time and set "
				"the probe directly on that.\n", s->req.func);
	s->req.max_probes = c->o->max_probes ? c->o->max_probes : 128;
	err = probe_info__find(c->pi, &s->req, sites, n);
	if (err == -ENOENT)
		fprintf(stderr, "Probe point '%s' not found.\n", s->point);
	else if (err == -E2BIG)
		fprintf(stderr, "Too many( > %u) probe point found.\n", s->req.max_probes);
	else if (err == -EOPNOTSUPP)
		no_debuginfo(c->target);
	if (err)
		return err;
	for (size_t i = 0; i < *n; i++)
		if ((*sites)[i].skipped_prologue)
			fprintf(stderr, "Target program is compiled without optimization. "
					"Skipping prologue.\nProbe on address 0x%" PRIx64
					" to force probing at the function entry.\n\n",
				(*sites)[i].entry);
	return 0;
}

static int open_target(const struct probe_opts *o, struct add_ctx *c)
{
	int err;

	if (!o->target)
		return 0;
	if (!realpath(o->target, c->target)) {
		err = -errno;
		fprintf(stderr, "Failed to find the path for %s: %s\n", o->target, strerror(errno));
		return err;
	}
	err = probe_info__open(c->target, &c->pi);
	if (err)
		fprintf(stderr, "Failed to open %s: %s\n", c->target, strerror(-err));
	return err;
}

/* ---- SDT events (util/model/probe-cache.h) ---- */

/*
 * One cached definition "p:GROUP/EVENT PATH:0xOFF[(0xSEM)] ARGS" of spec
 * s added as perf does: the name checked against the events there were
 * before this spec (one in use: perf's error, or with -f the next free
 * EVENT_N), not against the others of this spec, which perf writes as
 * they are (the kernel refuses a second site under one name).
 */
static int sdt_add_def(struct add_ctx *c, const struct pspec *s, const char *def)
{
	struct probe_line pl;
	struct added *ad;
	char full[300];
	const char *colon;

	if (!probe_line__parse(def, &pl))
		return 0;	/* a damaged line of the cache is skipped */
	ad = added__new(c);
	if (!ad)
		return -ENOMEM;
	ad->spec = s;
	ad->uprobe = true;
	snprintf(ad->group, sizeof(ad->group), "%s", pl.group);
	snprintf(ad->event, sizeof(ad->event), "%s", pl.event);
	snprintf(full, sizeof(full), "%s:%s", pl.group, pl.event);
	if (namelist__has(&c->names, full)) {
		if (!c->o->force) {
			fprintf(stderr, "Error: event \"%s\" already exists.\n"
					" Hint: Remove existing event by 'perf probe -d'\n"
					"       or force duplicates by 'perf probe -f'\n"
					"       or set 'force=yes' in BPF source.\n", pl.event);
			return -EEXIST;
		}
		for (int n = 1; n < 10000; n++) {
			snprintf(ad->event, sizeof(ad->event), "%s_%d", pl.event, n);
			snprintf(full, sizeof(full), "%s:%s", pl.group, ad->event);
			if (!namelist__has(&c->names, full))
				break;
		}
	}
	colon = strrchr(pl.target, ':');
	ad->module = strndup(pl.target, colon ? (size_t)(colon - pl.target) : strlen(pl.target));
	if (!ad->module || asprintf(&ad->def, "%c:%s/%s %s%s%s", pl.kind, ad->group, ad->event,
				    pl.target, *pl.args ? " " : "", pl.args) < 0) {
		free(ad->module);
		return -ENOMEM;
	}
	c->nadded++;
	return 0;
}

/* The cached definitions matching s's [GROUP:]EVENT globs in probes file
 * `file` (a missing or unreadable file has none). */
static int sdt_add_file(struct add_ctx *c, const struct pspec *s, const char *file)
{
	struct probe_cache pc;
	int err = probe_cache__load(&pc, file);

	for (size_t i = 0; !err && i < pc.n; i++) {
		const struct probe_cache_entry *e = &pc.v[i];

		if (!e->group || (s->group && !strglobmatch(e->group, s->group)) ||
		    !strglobmatch(e->event, s->event))
			continue;
		for (size_t k = 0; !err && k < e->ndefs; k++)
			err = sdt_add_def(c, s, e->defs[k]);
	}
	probe_cache__exit(&pc);
	return err == -ENOMEM || err == -EEXIST ? err : 0;
}

/*
 * The events of SDT spec s from the build-id cache: those of the -x
 * target's entry (the file cached first when its build-id is not), else
 * those of every valid entry. -ENOENT (after no message, as perf) when
 * none matches.
 */
static int sdt_add(struct add_ctx *c, const struct pspec *s)
{
	size_t first = c->nadded;
	char file[PATH_MAX];
	int err = 0;

	if (c->o->target) {
		err = bid_cache__probes_of(c->target, file, sizeof(file));
		if (!err)
			err = sdt_add_file(c, s, file);
	} else {
		char **bids;
		int nr = bid_cache__list(&bids, true);

		for (int i = 0; !err && i < nr; i++)
			if (!bid_cache__probes_file(bids[i], file, sizeof(file)))
				err = sdt_add_file(c, s, file);
		if (nr > 0)
			bid_cache__free_list(bids, nr);
	}
	if (!err && c->nadded == first)
		err = -ENOENT;
	for (size_t i = first; !err && i < c->nadded; i++) {
		char full[300];

		snprintf(full, sizeof(full), "%s:%s", c->added[i].group, c->added[i].event);
		err = namelist__add(&c->names, full);
	}
	return err;
}

static void print_added(struct add_ctx *c)
{
	const struct added *last = NULL;

	fprintf(stderr, "Added new event%s:\n", c->nadded > 1 ? "s" : "");
	for (size_t i = 0; i < c->nadded; i++) {
		const struct added *ad = &c->added[i];
		const struct pspec *s = ad->spec;
		char name[300];

		snprintf(name, sizeof(name), "%s:%s", ad->group, ad->event);
		fprintf(stderr, "  %-20s (on %s", name, s->point);
		if (ad->module)
			fprintf(stderr, " in %s", ad->module);
		else if (c->o->target)
			fprintf(stderr, " in %s", c->target);
		for (size_t k = 0; k < s->nargs; k++) {
			const struct parg *a = &s->args[k];
			bool named = a->name && !strchr(a->text, '=');

			fprintf(stderr, "%s%s%s%s", k ? " " : " with ", named ? a->name : "",
				named ? "=" : "", a->text);
		}
		fprintf(stderr, ")\n");
		last = ad;
	}
	fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n"
			"\tperf record -e %s:%s -aR sleep 1\n\n", last->group, last->event);
}

int probe__add(const struct probe_opts *o, const char *const *texts, size_t nspecs, bool show_def)
{
	struct add_ctx c = { .o = o };
	struct pspec *specs = calloc(nspecs ? nspecs : 1, sizeof(*specs));
	size_t nparsed = 0;
	int err = specs ? 0 : -ENOMEM;

	if (!err)
		err = open_target(o, &c);
	if (!err && !show_def) {
		err = existing_names(&c.names);
		if (err == -ENOENT && !o->target) {
			fprintf(stderr, "%s/kprobe_events does not exist.\n"
					"Please rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n",
				tracefs__mountpoint(NULL) ? tracefs__mountpoint(NULL)
							  : "/sys/kernel/tracing/");
			err = -EOPNOTSUPP;
		} else if (err == -ENOENT) {
			err = 0;
		} else if (err) {
			tracefs_error(err, true);
		}
	}
	for (size_t i = 0; !err && i < nspecs; i++) {
		struct probe_site *sites = NULL;
		size_t n = 0;

		err = pspec__parse(&specs[i], texts[i]);
		nparsed = i + 1;
		if (!err && specs[i].sdt)
			err = sdt_add(&c, &specs[i]);
		else if (!err)
			err = resolve(&c, &specs[i], &sites, &n);
		for (size_t k = 0; !err && k < n; k++)
			err = add_site(&c, &specs[i], &sites[k], k == 0,
				       k ? c.added[c.nadded - 1].event : NULL);
		probe_sites__free(sites, n);
	}
	if (!err && show_def) {
		for (size_t i = 0; i < c.nadded; i++)
			printf("%s\n", c.added[i].def);
	} else if (!err) {
		for (size_t i = 0; !err && i < c.nadded; i++) {
			if (o->dry_run)
				continue;
			err = tracefs__probe_events_write(c.added[i].uprobe, c.added[i].def);
			if (err == -EACCES || err == -EPERM) {
				tracefs_error(err, true);
			} else if (err == -ENOENT && !o->target) {
				fprintf(stderr, "%s/kprobe_events does not exist.\n"
						"Please rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n",
					"/sys/kernel/tracing/");
			} else if (err) {
				fprintf(stderr, "Failed to write event: %s\n", strerror(-err));
			}
			/* the probes of this run that went in are taken out again */
			for (size_t k = i; err && k-- > 0;) {
				char del[300];

				snprintf(del, sizeof(del), "-:%s/%s", c.added[k].group, c.added[k].event);
				tracefs__probe_events_write(c.added[k].uprobe, del);
			}
		}
		if (!err && !o->quiet && c.nadded)
			print_added(&c);
	}
	if (err && err != -ENOMEM)
		add_error();
	for (size_t i = 0; i < c.nadded; i++) {
		free(c.added[i].def);
		free(c.added[i].module);
	}
	free(c.added);
	for (size_t i = 0; i < nparsed; i++)
		pspec__free(&specs[i]);
	free(specs);
	namelist__free(&c.names);
	probe_info__delete(c.pi);
	return err;
}

/* ---- list and delete ---- */

static bool name_matches(const char *filter, const char *group, const char *event)
{
	const char *colon;
	char g[128];

	if (!filter)
		return true;
	colon = strchr(filter, ':');
	if (!colon)
		return !fnmatch(filter, event, 0);
	snprintf(g, sizeof(g), "%.*s", (int)(colon - filter), filter);
	return !fnmatch(g, group, 0) && !fnmatch(colon + 1, event, 0);
}

/* A source path as perf prints it in a probe point: longer than 30
 * characters, its end from the first '/' within the last 30. */
static const char *short_file(const char *file)
{
	size_t len = strlen(file);
	const char *t;

	if (len <= 30)
		return file;
	t = strchr(file + len - 30, '/');
	return t ? t + 1 : file + len - 30;
}

/* " (on POINT in MODULE with ARGS)" of a uprobe line. */
static void print_uprobe_point(const struct probe_line *pl)
{
	char path[PATH_MAX], *colon = strrchr(pl->target, ':');
	struct probe_info *pi = NULL;
	char *func = NULL, *file = NULL;
	uint64_t off, vaddr, entry;
	int rel;

	if (!colon) {
		printf("(on %s", pl->target);
		return;
	}
	snprintf(path, sizeof(path), "%.*s", (int)(colon - pl->target), pl->target);
	off = strtoull(colon + 1, NULL, 0);
	if (!probe_info__open(path, &pi) && !probe_info__offset_to_vaddr(pi, off, &vaddr)) {
		const char *sym;
		uint64_t soff;

		if (!probe_info__point_at(pi, vaddr, &func, &rel, &file, &entry)) {
			if (pl->kind == 'r')
				printf("(on %s%%return@%s", func, short_file(file));
			else if (rel < 0)	/* no statement starts there */
				printf("(on %s+%" PRIu64 "@%s", func, vaddr - entry, short_file(file));
			else if (rel)
				printf("(on %s:%d@%s", func, rel, short_file(file));
			else
				printf("(on %s@%s", func, short_file(file));
		} else if (!probe_info__symbol_at(pi, vaddr, &sym, &soff)) {
			printf("(on %s%s", sym, pl->kind == 'r' ? "%return" : "");
			if (soff)
				printf("+%" PRIu64, soff);
		} else {
			printf("(on 0x%" PRIx64, off);
		}
	} else {
		printf("(on 0x%" PRIx64, off);
	}
	printf(" in %s", path);
	free(func);
	free(file);
	probe_info__delete(pi);
}

static void print_args(const char *args)
{
	bool first = true;

	while (*args) {
		size_t len = strcspn(args, " "), nlen = strcspn(args, "= ");

		if (len) {
			printf("%s%.*s", first ? " with " : " ", (int)(nlen < len ? nlen : len), args);
			first = false;
		}
		args += len;
		args += strspn(args, " ");
	}
}

int probe__list(const struct probe_opts *o, const char *filter)
{
	struct probe_files pf;
	int err = probe_files__read(&pf);

	(void)o;
	if (err) {
		tracefs_error(err, false);
		fprintf(stderr, "  Error: Failed to show event list.\n");
		probe_files__free(&pf);
		return err;
	}
	for (size_t i = 0; i < pf.n; i++) {
		struct probe_line pl;
		char name[300];

		if (!probe_line__parse(pf.lines[i], &pl) || !name_matches(filter, pl.group, pl.event))
			continue;
		snprintf(name, sizeof(name), "%s:%s", pl.group, pl.event);
		printf("  %-20s ", name);
		if (i >= pf.nkprobes)
			print_uprobe_point(&pl);
		else
			printf("(on %s", pl.target);
		print_args(pl.args);
		printf(")\n");
	}
	probe_files__free(&pf);
	return 0;
}

int probe__del(const struct probe_opts *o, const char *const *globs, size_t n)
{
	struct probe_files pf;
	int err = probe_files__read(&pf);

	if (err) {
		tracefs_error(err, true);
		fprintf(stderr, "  Error: Failed to delete events.\n");
		probe_files__free(&pf);
		return err;
	}
	for (size_t g = 0; !err && g < n; g++) {
		struct namelist hit[2] = { 0 };
		size_t total = 0;

		for (size_t i = 0; !err && i < pf.n; i++) {
			struct probe_line pl;
			char name[300];
			int u = i >= pf.nkprobes;

			if (!probe_line__parse(pf.lines[i], &pl) ||
			    !name_matches(globs[g], pl.group, pl.event))
				continue;
			snprintf(name, sizeof(name), "%s:%s", pl.group, pl.event);
			err = namelist__add(&hit[u], name);
		}
		for (int u = 0; u < 2; u++) {
			if (hit[u].n)
				qsort(hit[u].v, hit[u].n, sizeof(char *), cmp_str);
			total += hit[u].n;
			for (size_t i = 0; !err && i < hit[u].n; i++) {
				char cmd[300];
				char *colon = strchr(hit[u].v[i], ':');

				snprintf(cmd, sizeof(cmd), "-:%.*s/%s", (int)(colon - hit[u].v[i]),
					 hit[u].v[i], colon + 1);
				err = tracefs__probe_events_write(u, cmd);
				if (err == -EBUSY)
					fprintf(stderr, "Failed to delete event: %s\n"
							"  The event is in use (being recorded?).\n",
						hit[u].v[i]);
				else if (err)
					tracefs_error(err, true);
				else if (!o->quiet)
					fprintf(stderr, "Removed event: %s\n", hit[u].v[i]);
			}
			namelist__free(&hit[u]);
		}
		if (!err && !total) {
			fprintf(stderr, "\"%s\" does not hit any event.\n", globs[g]);
			err = -ENOENT;
		}
	}
	if (err)
		fprintf(stderr, "  Error: Failed to delete events.\n");
	probe_files__free(&pf);
	return err;
}

/* ---- inspection ---- */

struct var_lines {
	struct namelist l;
	const char *filter;
	bool range;
};

static bool filter_match(const char *filter, const char *name);

static int collect_var(const struct probe_var *var, void *arg)
{
	struct var_lines *v = arg;
	char line[1536];

	if (!filter_match(v->filter, var->name))
		return 0;
	if (var->range)	/* --range: [VAL] or [INV], and where */
		snprintf(line, sizeof(line), "\t\t[%s]\t%s\t%s\t%s",
			 var->external ? "EXT" : var->valid ? "VAL" : "INV", var->type, var->name,
			 var->range);
	else if (var->external && v->range)
		snprintf(line, sizeof(line), "\t\t[EXT]\t%s\t%s", var->type, var->name);
	else
		snprintf(line, sizeof(line), "\t\t%s\t%s", var->type, var->name);
	return namelist__add(&v->l, line);
}

static int open_for_dwarf(const struct probe_opts *o, struct add_ctx *c, const char *what)
{
	int err;

	if (!o->target) {
		fprintf(stderr, "Failed to find the path for the kernel: Invalid ELF file\n"
				"  Error: Failed to %s.\n", what);
		return -EOPNOTSUPP;
	}
	err = open_target(o, c);
	if (!err && !probe_info__has_dwarf(c->pi)) {
		err = no_debuginfo(c->target);
		fprintf(stderr, "  Error: Failed to %s.\n", what);
	}
	return err;
}

int probe__show_vars(const struct probe_opts *o, const char *text)
{
	struct add_ctx c = { .o = o };
	struct pspec s;
	struct probe_site *sites = NULL;
	size_t n = 0;
	int err = open_for_dwarf(o, &c, "show vars");

	if (err)
		goto out;
	err = pspec__parse(&s, text);
	if (!err) {
		s.req.no_inlines = o->no_inlines;
		err = probe_info__find(c.pi, &s.req, &sites, &n);
		if (err == -ENOENT)
			fprintf(stderr, "Failed to find the address of %s\n", s.point);
	}
	for (size_t i = 0; !err && i < n; i++) {
		struct var_lines v = { .filter = o->var_filter ? o->var_filter
							       : "!__k???tab_* & !__crc_*",
				       .range = o->range };

		if (i == 0)
			printf("Available variables at %s\n", s.point);
		printf("\t@<%s+%" PRIu64 ">\n", sites[i].outer ? sites[i].outer : sites[i].func,
		       sites[i].addr - (sites[i].outer ? sites[i].outer_entry : sites[i].entry));
		err = probe_info__vars(c.pi, &sites[i], false, o->externs, o->range, collect_var, &v);
		if (v.l.n)
			qsort(v.l.v, v.l.n, sizeof(char *), cmp_str);
		if (!v.l.n)
			printf("\t\t(No matched variables)\n");
		for (size_t k = 0; k < v.l.n; k++)
			printf("%s\n", v.l.v[k]);
		namelist__free(&v.l);
	}
	probe_sites__free(sites, n);
	pspec__free(&s);
	if (err)
		fprintf(stderr, "  Error: Failed to show vars.\n");
out:
	probe_info__delete(c.pi);
	return err;
}

int probe__show_lines(const struct probe_opts *o, const char *text)
{
	struct add_ctx c = { .o = o };
	char *file = NULL, buf[4096];
	bool *pr = NULL;
	int decl, end, line = 0, err = open_for_dwarf(o, &c, "show lines");
	FILE *f;

	if (err)
		goto out;
	err = probe_info__func_lines(c.pi, text, &file, &decl, &end, &pr);
	if (err) {
		fprintf(stderr, "Specified source line is not found.\n"
				"  Error: Failed to show lines.\n");
		goto out;
	}
	f = fopen(file, "r");
	if (!f) {
		err = -errno;
		fprintf(stderr, "Failed to find source file path.\n"
				"  Error: Failed to show lines.\n");
		goto out;
	}
	printf("<%s@%s:%d>\n", text, file, 0);
	while (fgets(buf, sizeof(buf), f) && ++line <= end + 3) {
		if (line < decl)
			continue;
		if (line <= end && pr[line - decl])
			printf("%7d  %s", line - decl, buf);
		else
			printf("         %s", buf);
	}
	fclose(f);
out:
	free(file);
	free(pr);
	probe_info__delete(c.pi);
	return err;
}

/* perf's strfilter, enough of it: A & B, A | B, !A over globs. */
static bool filter_match(const char *filter, const char *name)
{
	char term[256];
	const char *p = filter;
	bool result = false, have = false, op_and = false;

	while (*p) {
		size_t len;
		bool neg = false, m;

		p += strspn(p, " ");
		if (*p == '!') {
			neg = true;
			p++;
			p += strspn(p, " ");
		}
		len = strcspn(p, "&|");
		snprintf(term, sizeof(term), "%.*s", (int)len, p);
		while (len && term[strlen(term) - 1] == ' ')
			term[strlen(term) - 1] = '\0';
		m = !fnmatch(term, name, 0) != neg;
		result = !have ? m : op_and ? (result && m) : (result || m);
		have = true;
		p += len;
		if (*p) {
			op_and = *p == '&';
			p++;
		}
	}
	return result;
}

int probe__show_funcs(const struct probe_opts *o, const char *filter)
{
	struct add_ctx c = { .o = o };
	const char **names = NULL;
	size_t n = 0;
	int err;

	if (!o->target) {
		char **knames;

		err = probe_info__kernel_symbols(&knames, &n);
		if (err) {
			fprintf(stderr, "Failed to read /proc/kallsyms: %s\n", strerror(-err));
			return err;
		}
		for (size_t i = 0; i < n; i++)
			if (filter_match(filter ? filter : "!_* & !*@plt", knames[i]))
				printf("%s\n", knames[i]);
		probe_info__free_names(knames, n);
		return 0;
	}
	err = open_target(o, &c);
	if (!err)
		err = probe_info__symbols(c.pi, &names, &n);
	for (size_t i = 0; !err && i < n; i++)
		if (filter_match(filter ? filter : "!_* & !*@plt", names[i]))
			printf("%s\n", names[i]);
	free(names);
	probe_info__delete(c.pi);
	return err;
}
