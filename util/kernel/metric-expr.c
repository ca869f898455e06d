// SPDX-License-Identifier: GPL-2.0
/*
 * Metric expressions (metric-expr.h): a tokenizer with flex's rules as
 * perf 6.1's expression grammar states them (the longest token wins, ties
 * go to keywords, then #literals, then numbers, then identifiers), and a
 * recursive-descent parser that computes as it reduces, bottom-up and
 * left to right, in the two modes perf has: finding the identifiers an
 * expression needs (constants folded, unknown values as "any value") and
 * evaluating it with the counters' values.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "metric-expr.h"

/* ---- the identifier set in libbpf hashmap order ---- */

static size_t id_hash(const char *s)
{
	size_t h = 0;

	for (; *s; s++)
		h = h * 31 + *s;
	return h;
}

static size_t id_chain(size_t h, int bits)
{
	if (!bits)
		return 0;
	return (size_t)((uint64_t)h * 11400714819323198485llu) >> (64 - bits);
}

static struct metric_id **id_find(const struct metric_ids *s, const char *key)
{
	struct metric_id **pp;

	if (!s->chains)
		return NULL;
	for (pp = &s->chains[id_chain(id_hash(key), s->bits)]; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->key, key))
			return pp;
	return NULL;
}

static int id_grow(struct metric_ids *s)
{
	int bits = s->bits + 1 < 2 ? 2 : s->bits + 1;
	size_t cap = (size_t)1 << bits;
	struct metric_id **chains = calloc(cap, sizeof(*chains));

	if (!chains)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++) {
		struct metric_id *n = s->chains[i], *next;

		for (; n; n = next) {
			size_t c = id_chain(id_hash(n->key), bits);

			next = n->next;
			n->next = chains[c];
			chains[c] = n;
		}
	}
	free(s->chains);
	s->chains = chains;
	s->cap = cap;
	s->bits = bits;
	return 0;
}

/* Add `key`, taking ownership of it (freed when already present). */
static int id_add_owned(struct metric_ids *s, char *key)
{
	struct metric_id *n;
	size_t c;

	if (id_find(s, key)) {
		free(key);
		return 0;
	}
	if ((!s->cap || (s->nr + 1) * 4 / 3 > s->cap) && id_grow(s)) {
		free(key);
		return -ENOMEM;
	}
	n = malloc(sizeof(*n));
	if (!n) {
		free(key);
		return -ENOMEM;
	}
	c = id_chain(id_hash(key), s->bits);
	n->key = key;
	n->next = s->chains[c];
	s->chains[c] = n;
	s->nr++;
	return 0;
}

int metric_ids__add(struct metric_ids *s, const char *key)
{
	char *k = strdup(key);

	return k ? id_add_owned(s, k) : -ENOMEM;
}

bool metric_ids__has(const struct metric_ids *s, const char *key)
{
	return id_find(s, key) != NULL;
}

void metric_ids__del(struct metric_ids *s, const char *key)
{
	struct metric_id **pp = id_find(s, key), *n;

	if (!pp)
		return;
	n = *pp;
	*pp = n->next;
	free(n->key);
	free(n);
	s->nr--;
}

void metric_ids__release(struct metric_ids *s)
{
	for (size_t i = 0; i < s->cap; i++) {
		struct metric_id *n = s->chains[i], *next;

		for (; n; n = next) {
			next = n->next;
			free(n->key);
			free(n);
		}
	}
	free(s->chains);
	memset(s, 0, sizeof(*s));
}

int metric_ids__union(struct metric_ids *a, struct metric_ids *b)
{
	struct metric_id *n;
	size_t i;
	int ret = 0;

	if (a->nr < b->nr) {
		struct metric_ids t = *a;

		*a = *b;
		*b = t;
	}
	metric_ids__for_each(b, n, i) {
		ret = metric_ids__add(a, n->key);
		if (ret)
			break;
	}
	metric_ids__release(b);
	return ret;
}

bool metric_ids__subset(const struct metric_ids *hay, const struct metric_ids *needles)
{
	struct metric_id *n;
	size_t i;

	metric_ids__for_each(needles, n, i)
		if (!metric_ids__has(hay, n->key))
			return false;
	return true;
}

/* ---- host literals ---- */

/* Number of distinct lines among cpuN/topology/NAME of the online CPUs. */
static double count_lists(const char *name, long ncpu)
{
	char **seen = calloc(ncpu > 0 ? ncpu : 1, sizeof(*seen));
	int n = 0;

	if (!seen)
		return NAN;
	for (long cpu = 0; cpu < ncpu; cpu++) {
		char path[128], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/%s", cpu, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f)) {
			int j;

			for (j = 0; j < n && strcmp(seen[j], line); j++)
				;
			if (j == n && (seen[n] = strdup(line)))
				n++;
		}
		fclose(f);
	}
	for (int j = 0; j < n; j++)
		free(seen[j]);
	free(seen);
	return n;
}

static double read_num(const char *path, double def)
{
	FILE *f = fopen(path, "r");
	double v = def;

	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = def;
		fclose(f);
	}
	return v;
}

/* Highest present CPU + 1 ("0-7" -> 8). */
static double present_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/present", "r");
	char line[4096], *p;
	long max = -1;

	if (!f)
		return sysconf(_SC_NPROCESSORS_CONF);
	if (fgets(line, sizeof(line), f)) {
		for (p = line; *p;) {
			long v = strtol(p, &p, 10);

			if (v > max)
				max = v;
			if (*p == '-' || *p == ',')
				p++;
			else
				break;
		}
	}
	fclose(f);
	return max + 1;
}

static double tsc_freq(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	/* leaf 0x15: TSC/crystal ratio b/a and the crystal's Hz in c */
	if (__get_cpuid(0x15, &a, &b, &c, &d) && a && b && c)
		return (double)c * b / a;
#endif
	return 0;
}

void metric_env__host(struct metric_env *env, bool system_wide)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	memset(env, 0, sizeof(*env));
	env->smt_on = read_num("/sys/devices/system/cpu/smt/active", 0) ? 1 : 0;
	/* all of each core's threads counted: only system-wide (prf takes
	 * every CPU of a -C list's cores to be listed) */
	env->core_wide = system_wide;
	env->num_cpus = present_cpus();
	env->num_packages = count_lists("package_cpus_list", ncpu);
	env->num_dies = count_lists("die_cpus_list", ncpu);
	env->num_cores = count_lists("core_cpus_list", ncpu);
	env->system_tsc_freq = tsc_freq();
}

static double literal_value(const struct metric_env *env, const char *s)
{
	if (!strcmp(s, "#num_cpus"))
		return env->num_cpus;
	if (!strcasecmp(s, "#system_tsc_freq"))
		return env->system_tsc_freq;
	if (!strcasecmp(s, "#smt_on"))
		return env->smt_on;
	if (!strcmp(s, "#core_wide"))
		return env->core_wide;
	if (!strcmp(s, "#num_packages"))
		return env->num_packages;
	if (!strcmp(s, "#num_dies"))
		return env->num_dies;
	if (!strcmp(s, "#num_cores"))
		return env->num_cores;
	return NAN;
}

/* ---- tokens ---- */

enum {
	T_END = 256, T_NUM, T_ID, T_LIT, T_DRATIO, T_MIN, T_MAX, T_IF, T_ELSE, T_SRC, T_ERR,
};

struct parser {
	const char *p;
	const struct metric_env *env;
	bool find_ids;
	metric_lookup_fn lookup;
	void *data;
	int tok;
	double num;
	char *id;		/* T_ID's text, owned until taken */
};

static bool is_sym(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

static size_t digits(const char *p)
{
	size_t n = 0;

	while (p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

/* Length of the number token at p, 0 if none. */
static size_t number_len(const char *p)
{
	size_t d1 = digits(p), n = d1;

	if (p[n] == '.') {
		size_t d2 = digits(p + n + 1);

		n = d1 || d2 ? d1 + 1 + d2 : 0;
	}
	if (!n)
		return 0;
	if (p[n] == 'e') {
		size_t k = n + 1 + (p[n + 1] == '-');
		size_t d = digits(p + k);

		if (d)
			n = k + d;
	}
	return n;
}

static size_t symbol_len(const char *p)
{
	size_t n = 0;

	for (;;) {
		if (is_sym(p[n]))
			n++;
		else if (p[n] == '\\' && p[n + 1] && strchr("-,=", p[n + 1]))
			n += 2;
		else
			return n;
	}
}

/* Drop "\\" escapes, put the runtime parameter for '?'. */
static char *normalize(const char *s, size_t len, int runtime)
{
	char *out = malloc(len * 12 + 1), *d = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len)
			*d++ = s[++i];
		else if (s[i] == '?')
			d += sprintf(d, "%d", runtime);
		else
			*d++ = s[i];
	}
	*d = '\0';
	return out;
}

static void next(struct parser *ps)
{
	static const struct { const char *w; int tok; } kw[] = {
		{ "d_ratio", T_DRATIO }, { "max", T_MAX }, { "min", T_MIN }, { "if", T_IF },
		{ "else", T_ELSE }, { "source_count", T_SRC },
	};
	const char *p = ps->p;
	size_t nl, sl;

	free(ps->id);
	ps->id = NULL;
	for (;;) {
		if (!*p) {
			ps->tok = T_END;
			ps->p = p;
			return;
		}
		if (*p == '#' && (is_sym(p[1]) || p[1] == '-') && p[1] != ':' && p[1] != '@' &&
		    p[1] != '?') {
			size_t n = 1;
			char *lit;

			while (p[n] == '-' || (is_sym(p[n]) && p[n] != ':' && p[n] != '@' && p[n] != '?'))
				n++;
			lit = strndup(p, n);
			ps->num = lit ? literal_value(ps->env, lit) : NAN;
			free(lit);
			ps->tok = isnan(ps->num) ? T_ERR : T_LIT;
			ps->p = p + n;
			return;
		}
		nl = number_len(p);
		sl = symbol_len(p);
		if (sl > nl) {
			for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
				if (strlen(kw[i].w) == sl && !strncmp(p, kw[i].w, sl)) {
					ps->tok = kw[i].tok;
					ps->p = p + sl;
					return;
				}
			}
			/* perf normalizes an identifier twice */
			{
				char *once = normalize(p, sl, ps->env->runtime);

				ps->id = once ? normalize(once, strlen(once), ps->env->runtime) : NULL;
				free(once);
			}
			ps->tok = ps->id ? T_ID : T_ERR;
			ps->p = p + sl;
			return;
		}
		if (nl) {
			char *txt = strndup(p, nl);

			errno = 0;
			ps->num = txt ? strtod(txt, NULL) : 0;
			ps->tok = !txt || errno ? T_ERR : T_NUM;
			free(txt);
			ps->p = p + nl;
			return;
		}
		if (strchr("|^&<>-+*/%(),", *p)) {
			ps->tok = *p;
			ps->p = p + 1;
			return;
		}
		p++;		/* any other character is skipped */
	}
}

/* ---- values ---- */

struct val {
	double v;
	struct metric_ids *ids;		/* find_ids mode: needed identifiers, or NULL */
};

static void ids_free(struct metric_ids *s)
{
	if (s) {
		metric_ids__release(s);
		free(s);
	}
}

/* perf's ids__union on two possibly absent sets. */
static struct metric_ids *ids_union(struct metric_ids *a, struct metric_ids *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	metric_ids__union(a, b);
	free(b);
	return a;
}

static struct val any_of(struct val a, struct val b)
{
	return (struct val){ .v = NAN, .ids = ids_union(a.ids, b.ids) };
}

static bool known(double v)
{
	return isfinite(v);
}

static int parse_if(struct parser *ps, struct val *out);
static int parse_bin(struct parser *ps, int level, struct val *out);

static int expect(struct parser *ps, int tok)
{
	if (ps->tok != tok)
		return -EINVAL;
	next(ps);
	return 0;
}

/* The two arguments of d_ratio/min/max: "(" expr "," expr ")". */
static int parse_args(struct parser *ps, struct val *a, struct val *b)
{
	*a = *b = (struct val){ 0 };
	if (expect(ps, '(') || parse_bin(ps, 0, a))
		return -EINVAL;
	if (expect(ps, ',') || parse_bin(ps, 0, b) || expect(ps, ')')) {
		ids_free(a->ids);
		ids_free(b->ids);
		*a = *b = (struct val){ 0 };
		return -EINVAL;
	}
	return 0;
}

static int id_value(struct parser *ps, const char *id, bool source_count, struct val *out)
{
	double v;

	*out = (struct val){ .v = NAN };
	if (ps->find_ids) {
		out->ids = calloc(1, sizeof(*out->ids));
		if (!out->ids || metric_ids__add(out->ids, id)) {
			ids_free(out->ids);
			out->ids = NULL;
			return -ENOMEM;
		}
	} else if (ps->lookup && !ps->lookup(id, source_count, &v, ps->data)) {
		out->v = v;
	}
	return 0;
}

static int parse_primary(struct parser *ps, struct val *out)
{
	struct val a, b;
	int tok = ps->tok, ret;

	*out = (struct val){ 0 };
	switch (tok) {
	case T_NUM:
	case T_LIT:
		out->v = ps->num;
		next(ps);
		return 0;
	case T_ID: {
		char *id = ps->id;

		ps->id = NULL;
		next(ps);
		ret = id_value(ps, id, false, out);
		free(id);
		return ret;
	}
	case T_SRC: {
		char *id;

		next(ps);
		if (expect(ps, '(') || ps->tok != T_ID)
			return -EINVAL;
		id = ps->id;
		ps->id = NULL;
		next(ps);
		if (expect(ps, ')')) {
			free(id);
			return -EINVAL;
		}
		ret = id_value(ps, id, true, out);
		free(id);
		return ret;
	}
	case '(':
		next(ps);
		if (parse_if(ps, out))
			return -EINVAL;
		if (expect(ps, ')')) {
			ids_free(out->ids);
			out->ids = NULL;
			return -EINVAL;
		}
		return 0;
	case T_DRATIO:
		next(ps);
		if (parse_args(ps, &a, &b))
			return -EINVAL;
		if (fpclassify(b.v) == FP_ZERO) {
			/* a constant 0 divisor: 0, no event needed */
			ids_free(a.ids);
			ids_free(b.ids);
			out->v = 0;
		} else if (!ps->find_ids || (known(a.v) && known(b.v))) {
			out->v = a.v / b.v;
		} else {
			*out = any_of(a, b);
		}
		return 0;
	case T_MIN:
	case T_MAX:
		next(ps);
		if (parse_args(ps, &a, &b))
			return -EINVAL;
		if (ps->find_ids)
			*out = any_of(a, b);
		else if (tok == T_MIN)
			out->v = a.v < b.v ? a.v : b.v;
		else
			out->v = a.v > b.v ? a.v : b.v;
		return 0;
	default:
		return -EINVAL;
	}
}

static int parse_unary(struct parser *ps, struct val *out)
{
	if (ps->tok == '-') {
		next(ps);
		if (parse_unary(ps, out))
			return -EINVAL;
		out->v = -out->v;
		return 0;
	}
	return parse_primary(ps, out);
}

static const char *const levels[] = { "|", "^", "&", "<>", "+-", "*/%" };
#define NR_LEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static int apply(int op, struct val a, struct val b, bool find_ids, struct val *out)
{
	bool consts = !find_ids || (known(a.v) && known(b.v));

	if ((op == '/' || op == '%') && fpclassify(b.v) == FP_ZERO) {
		ids_free(a.ids);
		ids_free(b.ids);
		return -EINVAL;		/* perf aborts the parse */
	}
	if (!consts) {
		*out = any_of(a, b);
		return 0;
	}
	ids_free(a.ids);
	ids_free(b.ids);
	*out = (struct val){ 0 };
	switch (op) {
	case '|': out->v = (long)a.v | (long)b.v; break;
	case '&': out->v = (long)a.v & (long)b.v; break;
	case '^': out->v = (long)a.v ^ (long)b.v; break;
	case '<': out->v = a.v < b.v; break;
	case '>': out->v = a.v > b.v; break;
	case '+': out->v = a.v + b.v; break;
	case '-': out->v = a.v - b.v; break;
	case '*': out->v = a.v * b.v; break;
	case '/': out->v = a.v / b.v; break;
	case '%':
		if ((long)b.v == 0)
			return -EINVAL;
		out->v = (long)a.v % (long)b.v;
		break;
	}
	return 0;
}

static int parse_bin(struct parser *ps, int level, struct val *out)
{
	if (level == NR_LEVELS)
		return parse_unary(ps, out);
	if (parse_bin(ps, level + 1, out))
		return -EINVAL;
	while (ps->tok < 256 && ps->tok && strchr(levels[level], ps->tok)) {
		int op = ps->tok;
		struct val lhs = *out, rhs;

		*out = (struct val){ 0 };
		next(ps);
		if (parse_bin(ps, level + 1, &rhs)) {
			ids_free(lhs.ids);
			return -EINVAL;
		}
		if (apply(op, lhs, rhs, ps->find_ids, out))
			return -EINVAL;		/* both sides freed */
	}
	return 0;
}

static int parse_if(struct parser *ps, struct val *out)
{
	struct val cond, other;

	if (parse_bin(ps, 0, out))
		return -EINVAL;
	if (ps->tok != T_IF)
		return 0;
	next(ps);
	if (parse_bin(ps, 0, &cond))
		goto err;
	if (expect(ps, T_ELSE) || parse_if(ps, &other)) {
		ids_free(cond.ids);
		goto err;
	}
	if (fpclassify(cond.v) == FP_ZERO) {
		ids_free(out->ids);
		ids_free(cond.ids);
		*out = other;
	} else if (!ps->find_ids || known(cond.v)) {
		ids_free(cond.ids);
		ids_free(other.ids);
	} else if (out->v == other.v) {
		ids_free(out->ids);
		ids_free(cond.ids);
		ids_free(other.ids);
		out->ids = NULL;
	} else {
		*out = any_of(*out, any_of(cond, other));
	}
	return 0;
err:
	ids_free(out->ids);
	*out = (struct val){ 0 };
	return -EINVAL;
}

static int parse(struct parser *ps, struct val *out)
{
	int ret;

	next(ps);
	ret = parse_if(ps, out);
	if (!ret && ps->tok != T_END) {
		ids_free(out->ids);
		ret = -EINVAL;
	}
	free(ps->id);
	ps->id = NULL;
	return ret;
}

int metric_expr__find_ids(const char *expr, const struct metric_env *env, struct metric_ids *ids)
{
	struct parser ps = { .p = expr, .env = env, .find_ids = true };
	struct val v;
	int ret = parse(&ps, &v);

	if (ret || !v.ids)
		return ret;
	/* perf: ids__union(expression's ids, the context's ids) */
	ret = metric_ids__union(v.ids, ids);
	*ids = *v.ids;
	free(v.ids);
	return ret;
}

int metric_expr__eval(const char *expr, const struct metric_env *env, metric_lookup_fn lookup,
		      void *data, double *val)
{
	struct parser ps = { .p = expr, .env = env, .lookup = lookup, .data = data };
	struct val v;
	int ret = parse(&ps, &v);

	if (!ret)
		*val = v.v;
	return ret;
}
