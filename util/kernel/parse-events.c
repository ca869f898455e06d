// SPDX-License-Identifier: GPL-2.0
/*
 * Event string parser; see parse-events.h. A hand-written recursive
 * descent over the string, keeping byte offsets so errors can point at the
 * offending token:
 *
 *   list  := item (',' item)*
 *   item  := '{' event (',' event)* '}' [':' mods] | event
 *   event := pmu '/' [term (',' term)*] '/' [mods]
 *          | name [':' mods]                 symbolic, cache, raw, PMU alias
 *          | 'mem:' addr ['/' len] [':' rwx] [':' mods]     breakpoint
 *          | sys ':' name [':' mods]         tracepoint, globs allowed
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "parse-events.h"
#include "event-names.h"
#include "evlist.h"
#include "evsel.h"
#include "cpumap.h"
#include "pmu.h"
#include "tracefs.h"
#include "../lib/debug.h"
#include "../lib/parse-options.h"
#include "../lib/strbuf.h"
#include "../lib/util.h"

#define VALID_MODIFIERS "ukhGHpPSDIWe"

struct parse_ctx {
	const char *str;
	struct parse_events_error *err;
	struct evlist *list;		/* evsels parsed so far (moved on success) */
	int nr_groups;
	const struct pmu_alias *alias;	/* the last alias apply_pmu_terms() took */
};

void parse_events_error__init(struct parse_events_error *err)
{
	memset(err, 0, sizeof(*err));
}

void parse_events_error__exit(struct parse_events_error *err)
{
	zfree(&err->str);
	zfree(&err->help);
	err->idx = 0;
}

/* Record the first error only; returns -EINVAL for `return set_error()`. */
static int set_error(struct parse_ctx *ctx, int idx, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int set_error(struct parse_ctx *ctx, int idx, const char *help, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!ctx->err || ctx->err->str)
		return -EINVAL;
	va_start(ap, fmt);
	strbuf_addvf(&sb, fmt, ap);
	va_end(ap);
	ctx->err->idx = idx;
	ctx->err->str = strbuf_detach(&sb, NULL);
	ctx->err->help = help ? strdup(help) : NULL;
	return -EINVAL;
}

#define ERR_PREFIX "event syntax error: "
#define ERR_MAX_WIDTH 1000
/* perf cuts the string's head so that the caret is at most this far in */
#define ERR_MAX_IDX 13

/* The terminal's width as perf takes it: $COLUMNS when $LINES and
 * $COLUMNS are both set, else stdout's window size, else 80; at most
 * ERR_MAX_WIDTH. */
static int term_width(void)
{
	const char *l = getenv("LINES"), *c = getenv("COLUMNS");
	struct winsize ws;
	int w = 80;

	if (l && c && atoi(l) > 0 && atoi(c) > 0)
		w = atoi(c);
	else if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col)
		w = ws.ws_col;
	return w > ERR_MAX_WIDTH ? ERR_MAX_WIDTH : w;
}

void parse_events_error__print_bare(const struct parse_events_error *err, const char *events,
				    FILE *fp)
{
	int len = strlen(events), idx = err->idx, cut = 0, caret;
	int max_len = term_width() - 2 - (int)strlen(ERR_PREFIX);
	char buf[ERR_MAX_WIDTH + 1];
	int n;

	if (idx < 0)
		idx = 0;
	if (max_len < 3)
		max_len = 3;
	/* a long string loses its head (marked "..") up to ERR_MAX_IDX
	 * before the error, and its tail (marked "..") past the width */
	if (idx > ERR_MAX_IDX)
		cut = idx - ERR_MAX_IDX;
	if (cut > len)
		cut = len;
	n = len - cut < max_len ? len - cut : max_len;
	memcpy(buf, events + cut, n);
	buf[n] = '\0';
	if (cut && n >= 2)
		buf[0] = buf[1] = '.';
	if (len - cut > max_len) {
		buf[max_len - 1] = buf[max_len - 2] = '.';
		buf[max_len] = '\0';
	}
	caret = (int)strlen(ERR_PREFIX) + idx - cut;
	fprintf(fp, ERR_PREFIX "'%s'\n", buf);
	fprintf(fp, "%*s\\___ %s\n", caret + 1, "", err->str ? err->str : "parser error");
	if (err->help)
		fprintf(fp, "\n%s\n", err->help);
}

void parse_events_error__print(const struct parse_events_error *err, const char *events, FILE *fp)
{
	parse_events_error__print_bare(err, events, fp);
	fprintf(fp, "Run 'prf list' for a list of valid events\n");
}

static struct evsel *new_evsel(struct parse_ctx *ctx, const struct perf_event_attr *attr,
			       const char *name, size_t name_len)
{
	struct evsel *evsel = evsel__new(attr);

	if (!evsel)
		return NULL;
	/* perf's default (event_attr_init with perf_guest false) */
	evsel->attr.exclude_guest = 1;
	evsel->name = strndup(name, name_len);
	if (!evsel->name) {
		evsel__delete(evsel);
		return NULL;
	}
	evlist__add(ctx->list, evsel);
	return evsel;
}

/*
 * Apply modifier letters to one evsel's attr, following perf: the first of
 * u/k/h excludes all three contexts and then re-includes the named ones;
 * likewise the first of G/H for guest/host; u and p also exclude the guest
 * unless G/H was given; each p raises precise_ip. An event's own
 * modifiers (own) start from no guest/host exclusion, so "cycles:k" counts
 * in guests too while a bare "cycles" keeps exclude_guest; a group's start
 * from what its events have.
 */
static void apply_modifiers(struct evsel *evsel, const char *mods, size_t n, bool own)
{
	struct perf_event_attr *a = &evsel->attr;
	int eu = a->exclude_user, ek = a->exclude_kernel, eh = a->exclude_hv;
	int eH = own && n ? 0 : a->exclude_host, eG = own && n ? 0 : a->exclude_guest;
	int ctx_set = eu | ek | eh, gh_set = evsel->exclude_GH;
	int precise = a->precise_ip;

	for (size_t i = 0; i < n; i++) {
		switch (mods[i]) {
		case 'u': case 'k': case 'h':
			if (!ctx_set)
				ctx_set = eu = ek = eh = 1;
			if (!gh_set && mods[i] == 'u')
				eG = 1;
			if (mods[i] == 'u')
				eu = 0;
			else if (mods[i] == 'k')
				ek = 0;
			else
				eh = 0;
			break;
		case 'G': case 'H':
			if (!gh_set)
				gh_set = eG = eH = 1;
			if (mods[i] == 'G')
				eG = 0;
			else
				eH = 0;
			break;
		case 'p':
			precise++;
			if (!gh_set)
				eG = 1;
			break;
		case 'P': evsel->precise_max = true; break;
		case 'I': a->exclude_idle = 1; break;
		case 'S': evsel->sample_read = true; break;
		case 'D': a->pinned = 1; break;
		case 'e': a->exclusive = 1; break;
		case 'W': evsel->weak_group = true; break;
		default: break;
		}
	}
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->precise_ip = precise;
	evsel->exclude_GH = gh_set;
}

/* Check modifier letters at str[pos..pos+n); colon is the offset of the
 * ':' (or of the first letter when there is none) for the caret. */
static int check_modifiers(struct parse_ctx *ctx, int colon, int pos, int n)
{
	int np = 0;

	if (n == 0)
		return set_error(ctx, colon, NULL, "missing modifier after ':'");
	for (int i = 0; i < n; i++) {
		char c = ctx->str[pos + i];

		if (!strchr(VALID_MODIFIERS, c))
			return set_error(ctx, colon, "valid modifiers: u k h G H p P S D I W e",
					 "unknown modifier '%c'", c);
		if (c == 'p' && ++np > 3)
			return set_error(ctx, pos, NULL, "bad modifier: at most 3 'p' (precise_ip 0-3)");
	}
	return 0;
}

static bool is_raw(const char *s, size_t n)
{
	if (n < 2 || s[0] != 'r')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return n <= 17;
}

/* Match one alias list entry as a prefix of s[0..n) ending at '-' or the
 * end; returns the matched length (longest) or 0. */
static size_t match_alias(const char *const names[HW_CACHE_MAX_ALIASES], const char *s, size_t n)
{
	size_t best = 0;

	for (int i = 0; i < HW_CACHE_MAX_ALIASES && names[i]; i++) {
		size_t l = strlen(names[i]);

		if (l <= n && l > best && !strncmp(s, names[i], l) && (l == n || s[l] == '-'))
			best = l;
	}
	return best;
}

/* Parse a generic cache event name: type[-op|-result]{0,2}. Returns 1
 * and fills *config when s is a cache event, 0 when not one, -EINVAL
 * (error set) when it is one with an op the cache doesn't have. */
static int parse_cache(struct parse_ctx *ctx, int pos, size_t n, uint64_t *config)
{
	const char *s = ctx->str + pos;
	int type = -1, op = -1, result = -1;
	size_t tl = 0, off;

	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		size_t l = match_alias(hw_cache_names[t], s, n);

		if (l > tl) {
			tl = l;
			type = t;
		}
	}
	if (type < 0)
		return 0;
	off = tl;
	for (int part = 0; part < 2 && off < n; part++) {
		size_t best = 0;
		int bop = -1, bres = -1;

		off++;	/* '-' */
		for (int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++) {
			size_t l = match_alias(hw_cache_op_names[o], s + off, n - off);

			if (l > best) {
				best = l;
				bop = o;
				bres = -1;
			}
		}
		for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
			size_t l = match_alias(hw_cache_result_names[r], s + off, n - off);

			if (l > best) {
				best = l;
				bres = r;
				bop = -1;
			}
		}
		if (!best || (bop >= 0 && op >= 0) || (bres >= 0 && result >= 0))
			return 0;
		if (bop >= 0)
			op = bop;
		else
			result = bres;
		off += best;
	}
	if (off != n)
		return 0;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!hw_cache__op_valid(type, op))
		return set_error(ctx, pos, NULL, "invalid cache event '%.*s': %s has no %s operation",
				 (int)n, s, hw_cache_names[type][0], hw_cache_op_names[op][0]);
	*config = type | (op << 8) | ((uint64_t)result << 16);
	return 1;
}

static int parse_u64(const char *s, size_t n, uint64_t *v)
{
	char buf[64], *end;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	if (*end || errno)
		return -EINVAL;
	return 0;
}

static void pmu_terms_help(struct perf_pmu *pmu, struct strbuf *sb)
{
	struct pmu_format *f;

	strbuf_addstr(sb, "valid terms:");
	list_for_each_entry(f, &pmu->formats, node)
		strbuf_addf(sb, " %s,", f->name);
	strbuf_addstr(sb, " config, config1, config2, name, period, freq");
}

/*
 * The config terms any event takes beyond its PMU's formats (perf-list(1),
 * "event/terms/"): time, call-graph, stack-size, max-stack, inherit and
 * no-inherit into cfg. key is the term's name, val (vlen bytes, NULL
 * without '=') its value at str offset vidx. 1: not one of these terms;
 * 0: applied; -EINVAL after the error.
 */
static int apply_config_term(struct parse_ctx *ctx, struct evsel_config *cfg, const char *key,
			     const char *val, size_t vlen, int vidx)
{
	uint64_t v = 1;

	if (!strcmp(key, "call-graph")) {
		static const struct { const char *name; enum callchain_record_mode mode; } modes[] = {
			{ "fp", CALLCHAIN_RECORD_FP }, { "dwarf", CALLCHAIN_RECORD_DWARF },
			{ "lbr", CALLCHAIN_RECORD_LBR }, { "no", CALLCHAIN_RECORD_NONE },
		};

		for (size_t i = 0; val && i < ARRAY_SIZE(modes); i++) {
			if (strlen(modes[i].name) == vlen && !memcmp(val, modes[i].name, vlen)) {
				cfg->has_callgraph = true;
				cfg->cg.mode = modes[i].mode;
				return 0;
			}
		}
		return set_error(ctx, vidx, NULL, "invalid value '%.*s' for term 'call-graph' "
				 "(fp, dwarf, lbr or no)", (int)vlen, val ? val : "");
	}
	if (strcmp(key, "time") && strcmp(key, "stack-size") && strcmp(key, "max-stack") &&
	    strcmp(key, "inherit") && strcmp(key, "no-inherit"))
		return 1;
	if (val && parse_u64(val, vlen, &v))
		return set_error(ctx, vidx, NULL, "invalid value '%.*s' for term '%s'",
				 (int)vlen, val, key);
	if (!strcmp(key, "time")) {
		cfg->has_time = true;
		cfg->time = v != 0;
	} else if (!strcmp(key, "stack-size")) {
		v = (v + 7) & ~7ULL;
		if (!v || v > CALLCHAIN_RECORD_DWARF_MAX)
			return set_error(ctx, vidx, NULL, "invalid stack-size (8..%d bytes)",
					 CALLCHAIN_RECORD_DWARF_MAX);
		cfg->cg.dwarf_size = (unsigned int)v;
	} else if (!strcmp(key, "max-stack")) {
		if (!v || v > 65535)
			return set_error(ctx, vidx, NULL, "invalid max-stack (1..65535 frames)");
		cfg->max_stack = (unsigned int)v;
	} else {
		cfg->has_inherit = true;
		cfg->inherit = !strcmp(key, "inherit") ? v != 0 : v == 0;
	}
	return 0;
}

/*
 * A period=V or (freq) freq=V term into attr and, when not NULL, into cfg
 * (the config terms record applies last, over -c/-F): the one written
 * last wins, as perf applies an event's config terms in their order.
 */
static void apply_period_term(struct perf_event_attr *attr, struct evsel_config *cfg, bool freq,
			      uint64_t v)
{
	if (freq)
		attr->sample_freq = v;
	else
		attr->sample_period = v;
	attr->freq = freq;
	if (!cfg)
		return;
	cfg->has_period = !freq;
	cfg->has_freq = freq;
	cfg->has_weak_period = false;	/* a later term wins over an alias's */
	if (freq)
		cfg->freq = v;
	else
		cfg->period = v;
}

/*
 * Apply terms str[pos..end) (comma separated) of PMU pmu to attr. `text`
 * is non-NULL when the terms come from an alias file; then errors point at
 * `pos_in_str` instead. *name gets the name= term (malloc'd).
 */
static int apply_pmu_terms(struct parse_ctx *ctx, struct perf_pmu *pmu, const char *terms,
			   size_t len, int base, bool from_alias, struct perf_event_attr *attr,
			   char **name, struct evsel_config *cfg, int depth)
{
	size_t i = 0;

	while (i < len) {
		size_t tstart = i, tend, klen;
		const char *t = terms + i, *eq;
		int idx = from_alias ? base : base + (int)i;
		uint64_t v = 1;
		struct pmu_format *fmt;
		char key[128];

		while (i < len && terms[i] != ',')
			i++;
		tend = i;
		if (i < len)
			i++;	/* ',' */
		if (tend == tstart)
			return set_error(ctx, idx, NULL, "parser error");
		eq = memchr(t, '=', tend - tstart);
		klen = eq ? (size_t)(eq - t) : tend - tstart;
		if (klen == 0 || klen >= sizeof(key))
			return set_error(ctx, idx, NULL, "parser error");
		memcpy(key, t, klen);
		key[klen] = '\0';

		/* the identifier of a metric's event (stat -M, which names the
		 * event after it): nothing for the counter */
		if (!strcmp(key, "metric-id") && eq)
			continue;
		if (!strcmp(key, "name")) {
			if (!eq || tend - tstart - klen - 1 == 0)
				return set_error(ctx, idx, NULL, "missing value for term 'name'");
			free(*name);
			*name = strndup(eq + 1, tend - tstart - klen - 1);
			if (!*name)
				return -ENOMEM;
			continue;
		}
		if (cfg) {
			int r = apply_config_term(ctx, cfg, key, eq ? eq + 1 : NULL,
						  eq ? tend - tstart - klen - 1 : 0,
						  from_alias ? base : idx + (int)klen + 1);

			if (r <= 0) {
				if (r)
					return r;
				continue;
			}
		}
		if (eq && parse_u64(eq + 1, tend - tstart - klen - 1, &v))
			return set_error(ctx, from_alias ? base : idx + (int)klen + 1, NULL,
					 "invalid value '%.*s' for term '%s'",
					 (int)(tend - tstart - klen - 1), eq + 1, key);
		if (!strcmp(key, "config")) {
			attr->config = v;
		} else if (!strcmp(key, "config1")) {
			attr->config1 = v;
		} else if (!strcmp(key, "config2")) {
			attr->config2 = v;
		} else if (from_alias && cfg && !strcmp(key, "period")) {
			/* an alias's period is weak, as in perf: it wins
			 * over the terms before it unless -c is given */
			cfg->has_weak_period = true;
			cfg->weak_period = v;
		} else if (!strcmp(key, "period") || !strcmp(key, "freq")) {
			apply_period_term(attr, cfg, key[0] == 'f', v);
		} else if ((fmt = pmu__find_format(pmu, key))) {
			if (pmu_format__apply(fmt, v, attr))
				return set_error(ctx, from_alias ? base : idx + (int)klen + 1, NULL,
						 "value too big for format '%s' of pmu '%s'",
						 key, pmu->name);
		} else {
			struct pmu_alias *alias = eq ? NULL : pmu__find_alias(pmu, key);
			struct strbuf help = STRBUF_INIT;
			int ret;

			if (alias && depth < 4) {
				ctx->alias = alias;
				ret = apply_pmu_terms(ctx, pmu, alias->terms, strlen(alias->terms),
						      idx, true, attr, name, cfg, depth + 1);
				if (ret)
					return ret;
				continue;
			}
			pmu_terms_help(pmu, &help);
			ret = set_error(ctx, idx, help.buf, "unknown term '%s' for pmu '%s'",
					key, pmu->name);
			strbuf_release(&help);
			return ret;
		}
	}
	return 0;
}

static int parse_event_terms(struct parse_ctx *ctx, int pos, int slash, int close, int end);

/* What one PMU event spells in ctx->str: its terms, alias and modifiers. */
struct pmu_event_text {
	const char *alias;	/* an alias of the PMU applied after the terms, or NULL */
	int alias_pos;		/* where errors in the alias point */
	int tpos, tlen;		/* the written terms (tlen 0: none) */
	int pos, end;		/* the event as written: its name without name= */
	int mpos, mlen;		/* the modifiers (mlen 0: none) */
};

/*
 * The evsel of event t on PMU pmu: the written terms, then the alias (perf
 * appends it to them), the modifiers; with the PMU's cpumask as its own
 * cpus; merge_group as struct evsel's. 0 or -errno (error set).
 */
static int add_pmu_evsel(struct parse_ctx *ctx, struct perf_pmu *pmu,
			 const struct pmu_event_text *t, int merge_group)
{
	const char *s = ctx->str;
	struct perf_event_attr attr = { .size = sizeof(attr), .type = pmu->type };
	struct evsel_config cfg = { 0 };
	struct evsel *evsel;
	char *name = NULL;
	int ret;

	ctx->alias = NULL;
	ret = t->tlen ? apply_pmu_terms(ctx, pmu, s + t->tpos, t->tlen, t->tpos, false, &attr,
					&name, &cfg, 0) : 0;
	if (!ret && t->alias)
		ret = apply_pmu_terms(ctx, pmu, t->alias, strlen(t->alias), t->alias_pos, false,
				      &attr, &name, &cfg, 0);
	if (!ret && t->mlen && t->tlen)	/* an alias's modifiers are checked before */
		ret = check_modifiers(ctx, t->mpos, t->mpos, t->mlen);
	if (ret)
		goto out;
	evsel = name ? new_evsel(ctx, &attr, name, strlen(name))
		     : new_evsel(ctx, &attr, s + t->pos, t->end - t->pos);
	if (!evsel || !(evsel->pmu_name = strdup(pmu->name))) {
		ret = -ENOMEM;
		goto out;
	}
	evsel->config = cfg;
	evsel->uniquify = !name;
	if (ctx->alias && ctx->alias->unit && !(evsel->unit = strdup(ctx->alias->unit))) {
		ret = -ENOMEM;
		goto out;
	}
	evsel->scale = ctx->alias ? ctx->alias->scale : 0;
	evsel->merge_group = merge_group;
	if (pmu->cpumask) {
		evsel->own_cpus = perf_cpu_map__new(pmu->cpumask);
		if (!evsel->own_cpus)
			pr_debug("pmu %s: bad cpumask '%s'\n", pmu->name, pmu->cpumask);
	}
	if (t->mlen)
		apply_modifiers(evsel, s + t->mpos, t->mlen, true);
out:
	free(name);
	return ret;
}

/* Event t on each of the nr PMUs: one evsel each, merged in stat's rows
 * when there are several. 0 or -errno. */
static int add_pmu_evsels(struct parse_ctx *ctx, struct perf_pmu **pmus, int nr,
			  const struct pmu_event_text *t)
{
	int merge_group = nr > 1 ? ctx->list->nr_entries + 1 : 0, ret = 0;

	for (int i = 0; i < nr && !ret; i++)
		ret = add_pmu_evsel(ctx, pmus[i], t, merge_group);
	return ret;
}

/* pmu/terms/mods at str[pos..end); slash is the offset of the first '/'. */
static int parse_pmu_event(struct parse_ctx *ctx, int pos, int slash, int end)
{
	const char *s = ctx->str;
	struct pmu_event_text t = { .pos = pos, .end = end };
	char pmu_name[256];
	struct perf_pmu *pmu, **pmus = NULL;
	uint64_t cache_config;
	int close, err = 0, nr = 1, ret;

	for (close = slash + 1; close < end && s[close] != '/'; close++)
		;
	if (close >= end)
		return set_error(ctx, end, NULL, "parser error: missing closing '/'");
	if (slash - pos >= (int)sizeof(pmu_name))
		return set_error(ctx, pos, NULL, "pmu name too long");
	memcpy(pmu_name, s + pos, slash - pos);
	pmu_name[slash - pos] = '\0';
	/* the PMU cache: sysfs is read once per PMU and process */
	pmu = pmus__find(pmu_name, &err);
	/* terms on a symbolic, raw (r1a8/name=x/), cache or tracepoint event */
	if (!pmu && err != -ENOMEM &&
	    (strchr(pmu_name, ':') || event_symbol__find(pmu_name) ||
	     is_raw(pmu_name, slash - pos) || parse_cache(ctx, pos, slash - pos, &cache_config)))
		return parse_event_terms(ctx, pos, slash, close, end);
	/* "inst_retired.any/metric-id=.../": an event alias of some PMUs
	 * (each that has it) with more terms; "uncore_imc/.../" or
	 * "imc/.../": every instance of uncore_imc; as perf takes them */
	if (!pmu && err != -ENOMEM) {
		nr = pmus__find_all(pmu_name, false, &pmus);
		if (nr > 0) {
			t.alias = pmu_name;
			t.alias_pos = pos;
		} else if (!nr) {
			nr = pmus__find_all(pmu_name, true, &pmus);
		}
		if (nr < 0)
			return nr;
	}
	if (!pmu && !nr) {
		if (err == -ENOMEM)
			return -ENOMEM;
		/* perf 6.1 puts this error at the string's start */
		return set_error(ctx, 0, NULL, "Cannot find PMU `%s'. Missing kernel support?",
				 pmu_name);
	}
	t.tpos = slash + 1;
	t.tlen = close - slash - 1;
	t.mpos = close + 1;
	t.mlen = end - close - 1;
	/* "pmu//u": checked as with terms */
	ret = !t.tlen && t.mlen ? check_modifiers(ctx, t.mpos, t.mpos, t.mlen) : 0;
	if (!ret)
		ret = add_pmu_evsels(ctx, pmus ? pmus : &pmu, nr, &t);
	free(pmus);
	return ret;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

struct tp_add {
	struct parse_ctx *ctx;
	const char *mods;
	size_t nmods;
	int count;
};

static int add_tracepoint(struct parse_ctx *ctx, const char *sys, const char *name, uint64_t id,
			  const char *mods, size_t nmods)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_TRACEPOINT,
		.config = id,
		/* as perf: every hit is a sample, with the raw record */
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
	};
	struct strbuf full = STRBUF_INIT;
	struct evsel *evsel;

	if (strbuf_addf(&full, "%s:%s", sys, name))
		return -ENOMEM;
	evsel = new_evsel(ctx, &attr, full.buf, full.len);
	strbuf_release(&full);
	if (!evsel || !(evsel->tp_sys = strdup(sys)) || !(evsel->tp_name = strdup(name)) ||
	    !(evsel->pmu_name = strdup("tracepoint")))
		return -ENOMEM;
	apply_modifiers(evsel, mods, nmods, true);
	return 0;
}

static int tp_glob_cb(const char *sys, const char *name, void *data)
{
	struct tp_add *t = data;
	uint64_t id;

	if (tracefs__event_id(sys, name, &id))
		return 0;
	t->count++;
	return add_tracepoint(t->ctx, sys, name, id, t->mods, t->nmods);
}

/* perf's hint for an unknown tracepoint of an SDT group ("sdt_..."),
 * added to help on a line of its own: help's text, or NULL when empty. */
static const char *sdt_hint(const char *sys, const char *name, struct strbuf *help)
{
	if (!strncmp(sys, "sdt_", 4))
		strbuf_addf(help, "%sHint:\tSDT event cannot be directly recorded on.\n"
			    "\tPlease first use 'prf probe %s:%s' before recording it.",
			    help->len ? "\n" : "", sys, name);
	return help->len ? help->buf : NULL;
}

/* sys:name[:mods] at str[pos..end), colon at the first ':'. */
static int parse_tracepoint(struct parse_ctx *ctx, int pos, int colon, int end)
{
	const char *s = ctx->str;
	int name_end = colon + 1, ret, mnt_err = 0, epos = pos;
	char sys[256], name[256], path[512];
	uint64_t id;

	while (name_end < end && s[name_end] != ':')
		name_end++;
	if (s[pos] == '%' && colon > pos + 1)	/* perf's spelling of a probed SDT event */
		pos++;	/* errors still point at the '%' */
	if (colon - pos >= (int)sizeof(sys) || name_end - colon - 1 >= (int)sizeof(name))
		return set_error(ctx, epos, NULL, "tracepoint name too long");
	if (name_end == colon + 1)
		return set_error(ctx, colon + 1, NULL, "parser error: missing tracepoint name");
	memcpy(sys, s + pos, colon - pos);
	sys[colon - pos] = '\0';
	memcpy(name, s + colon + 1, name_end - colon - 1);
	name[name_end - colon - 1] = '\0';
	if (name_end < end) {
		ret = check_modifiers(ctx, name_end, name_end + 1, end - name_end - 1);
		if (ret)
			return ret;
	}
	if (!tracefs__mountpoint(&mnt_err))
		return set_error(ctx, epos, tracefs__mount_hint(), "can't access tracepoint '%s:%s'",
				 sys, name);
	if (has_glob(sys) || has_glob(name)) {
		struct tp_add t = { .ctx = ctx, .mods = s + name_end + 1,
				    .nmods = name_end < end ? (size_t)(end - name_end - 1) : 0 };

		ret = tracefs__for_each_event(sys, name, tp_glob_cb, &t);
		if (ret)
			return ret == -ENOMEM ? ret : set_error(ctx, epos, NULL, "reading tracefs: %s",
								strerror(-ret));
		if (!t.count) {
			struct strbuf help = STRBUF_INIT;

			ret = set_error(ctx, epos, sdt_hint(sys, name, &help),
					"unknown tracepoint '%s:%s' (no match)", sys, name);
			strbuf_release(&help);
			return ret;
		}
		return 0;
	}
	ret = tracefs__event_id(sys, name, &id);
	if (ret) {
		struct strbuf help = STRBUF_INIT;

		tracefs__event_path(sys, name, NULL, path, sizeof(path));
		strbuf_addf(&help, "Error: File %s not found.", path);
		sdt_hint(sys, name, &help);
		ret = set_error(ctx, epos, help.buf, "unknown tracepoint '%s:%s'", sys, name);
		strbuf_release(&help);
		return ret;
	}
	return add_tracepoint(ctx, sys, name, id, s + name_end + 1,
			      name_end < end ? (size_t)(end - name_end - 1) : 0);
}

static bool tracepoint_exists(const char *sys, const char *name, size_t n)
{
	char buf[64];
	uint64_t id;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return tracefs__event_id(sys, buf, &id) == 0;
}

/*
 * mem:ADDR[/LEN][:ACCESS][:MODS] at str[pos..end): a hardware breakpoint
 * (PERF_TYPE_BREAKPOINT). ACCESS is up to three of r, w, x (default rw);
 * LEN defaults to 4 bytes, or sizeof(long) for x, as in perf.
 */
static int parse_breakpoint(struct parse_ctx *ctx, int pos, int end)
{
	const char *s = ctx->str;
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_BREAKPOINT,
					 .sample_period = 1 };
	int p = pos + 4, q, name_end, ret;
	uint64_t addr, len = 0;
	struct evsel *evsel;

	for (q = p; q < end && s[q] != '/' && s[q] != ':'; q++)
		;
	if (parse_u64(s + p, q - p, &addr))
		return set_error(ctx, p, NULL, "invalid breakpoint address '%.*s'", q - p, s + p);
	name_end = q;
	if (q < end && s[q] == '/') {
		p = q + 1;
		for (q = p; q < end && s[q] != ':'; q++)
			;
		if (parse_u64(s + p, q - p, &len) || !len || len > 8)
			return set_error(ctx, p, NULL, "invalid breakpoint length '%.*s'", q - p, s + p);
	}
	if (q < end && s[q] == ':' && q + 1 < end && strchr("rwx", s[q + 1])) {
		p = q + 1;
		for (q = p; q < end && s[q] != ':'; q++) {
			int bit = s[q] == 'r' ? HW_BREAKPOINT_R : s[q] == 'w' ? HW_BREAKPOINT_W :
				  s[q] == 'x' ? HW_BREAKPOINT_X : 0;

			if (!bit || (attr.bp_type & bit) || q - p >= 3)
				return set_error(ctx, p, "access is up to three of r, w, x",
						 "invalid breakpoint access '%.*s'", end - p, s + p);
			attr.bp_type |= bit;
		}
		if (name_end == q - (q - p) - 1)
			name_end = q;	/* no /len: the access stays in the name */
	}
	if (!attr.bp_type)
		attr.bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	attr.bp_addr = addr;
	attr.bp_len = len ? len : (attr.bp_type & HW_BREAKPOINT_X) ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	if (q < end) {
		ret = check_modifiers(ctx, q, q + 1, end - q - 1);
		if (ret)
			return ret;
		if (name_end == q)
			name_end = end;
	}
	evsel = new_evsel(ctx, &attr, s + pos, name_end - pos);
	if (!evsel || !(evsel->pmu_name = strdup("breakpoint")))
		return -ENOMEM;
	if (q < end)
		apply_modifiers(evsel, s + q + 1, end - q - 1, true);
	return 0;
}

/*
 * name (str[pos..]), an event alias of some PMUs' (sysfs events/, "tsc" of
 * msr, or JSON: "unc_m_cas_count.rd" of each uncore_imc_N), with the
 * modifiers at str[mpos..end) (mpos == end: none); an evsel on each PMU
 * that has it, named as written.
 */
static int parse_alias_event(struct parse_ctx *ctx, const char *name, int pos, int end, int mpos)
{
	struct pmu_event_text t = { .alias = name, .alias_pos = pos, .pos = pos, .end = end,
				    .mpos = mpos, .mlen = end - mpos };
	struct perf_pmu **pmus;
	int nr, ret;

	/* an unknown name is the error before bad modifiers ("cyclez:u") */
	nr = pmus__find_all(name, false, &pmus);
	if (nr <= 0)
		return nr ? nr : set_error(ctx, pos, NULL, "unknown event '%s'", name);
	ret = mpos < end ? check_modifiers(ctx, mpos - 1, mpos, end - mpos) : 0;
	if (!ret)
		ret = add_pmu_evsels(ctx, pmus, nr, &t);
	free(pmus);
	return ret;
}

/* One event that is not PMU/terms/: str[pos..end). */
static int parse_named_event(struct parse_ctx *ctx, int pos, int end)
{
	const char *s = ctx->str;
	const char *colon = memchr(s + pos, ':', end - pos);
	int nlen = colon ? (int)(colon - (s + pos)) : end - pos;
	int mpos = colon ? (int)(colon - s) + 1 : end;
	int nmods = end - mpos;
	struct perf_event_attr attr = { .size = sizeof(attr) };
	const struct event_symbol *sym;
	char name[256];
	bool mods_ok;
	int ret;

	if (nlen == 0)
		return set_error(ctx, pos, NULL, "parser error");
	if (nlen >= (int)sizeof(name))
		return set_error(ctx, pos, NULL, "event name too long");
	memcpy(name, s + pos, nlen);
	name[nlen] = '\0';
	if (colon && !strcmp(name, "mem"))
		return parse_breakpoint(ctx, pos, end);
	/* ':' followed by only modifier letters means modifiers; otherwise
	 * a second word means a tracepoint. */
	mods_ok = !colon || (nmods > 0 && (int)strspn(s + mpos, VALID_MODIFIERS) >= nmods);

	if (!colon && tool_event__find(name)) {
		/* duration_time & co: a dummy counter prf stat fills in */
		struct evsel *evsel;

		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_DUMMY;
		evsel = new_evsel(ctx, &attr, s + pos, end - pos);
		if (!evsel || !(evsel->pmu_name = strdup("tool")))
			return -ENOMEM;
		evsel->tool_event = tool_event__find(name);
		return 0;
	}
	sym = event_symbol__find(name);
	if (sym) {
		attr.type = sym->type;
		attr.config = sym->config;
	} else if (is_raw(name, nlen) && mods_ok) {
		attr.type = PERF_TYPE_RAW;
		attr.config = strtoull(name + 1, NULL, 16);
	} else {
		uint64_t config = 0;

		ret = parse_cache(ctx, pos, nlen, &config);
		if (ret < 0)
			return ret;
		if (ret == 1) {
			attr.type = PERF_TYPE_HW_CACHE;
			attr.config = config;
		} else if (colon && mods_ok && !tracepoint_exists(name, s + mpos, nmods)) {
			/* "tsc:u": a PMU's event alias with modifiers; else an
			 * unknown event ("cyclez:u") */
			return parse_alias_event(ctx, name, pos, end, mpos);
		} else if (colon) {
			return parse_tracepoint(ctx, pos, (int)(colon - s), end);
		} else {
			/* a bare name that is an event alias of some PMU
			 * ("tsc" of msr), from the PMU cache */
			return parse_alias_event(ctx, name, pos, end, end);
		}
	}
	if (colon) {
		ret = check_modifiers(ctx, mpos - 1, mpos, nmods);
		if (ret)
			return ret;
	}
	{
		struct evsel *evsel = new_evsel(ctx, &attr, s + pos, end - pos);

		if (!evsel)
			return -ENOMEM;
		if (attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE ||
		    attr.type == PERF_TYPE_RAW)
			evsel->pmu_name = strdup("cpu");
		else
			evsel->pmu_name = strdup("software");
		if (!evsel->pmu_name)
			return -ENOMEM;
		apply_modifiers(evsel, s + mpos, nmods, true);
	}
	return 0;
}

#define TERMS_HELP "valid terms: config,config1,config2,name,period,freq,time,call-graph," \
		   "stack-size,no-inherit,inherit,max-stack"
#define TP_TERMS_HELP "valid terms: call-graph,stack-size,max-stack,no-inherit,inherit"

/*
 * A symbolic event or a tracepoint with config terms (perf-list(1)):
 * "cpu-clock/period=1000,call-graph=dwarf/", "sched:sched_switch/
 * max-stack=3/" at str[pos..end), the terms between slash and close. A
 * symbolic event takes name, period, freq, config* and the terms of
 * apply_config_term(), and is named as written unless name= says
 * otherwise; a tracepoint (every one a glob matched) only the callchain
 * and inherit terms, and keeps its sys:name.
 */
static int parse_event_terms(struct parse_ctx *ctx, int pos, int slash, int close, int end)
{
	const char *s = ctx->str;
	bool tp = memchr(s + pos, ':', slash - pos) != NULL;
	int first = ctx->list->nr_entries, i = slash + 1, n = 0, ret;
	struct evsel_config cfg = { 0 };
	struct perf_event_attr attr = { 0 };
	bool has_config = false, has_config12 = false;
	char *name = NULL;
	struct evsel *evsel;

	while (i < close) {
		int tstart = i, tend, klen, vidx;
		const char *eq;
		char key[64];
		uint64_t v = 1;

		while (i < close && s[i] != ',')
			i++;
		tend = i++;
		eq = memchr(s + tstart, '=', tend - tstart);
		klen = eq ? (int)(eq - (s + tstart)) : tend - tstart;
		if (klen <= 0 || klen >= (int)sizeof(key)) {
			ret = set_error(ctx, tstart, NULL, "parser error");
			goto out;
		}
		memcpy(key, s + tstart, klen);
		key[klen] = '\0';
		vidx = tstart + klen + 1;
		ret = apply_config_term(ctx, &cfg, key, eq ? eq + 1 : NULL,
					eq ? (size_t)(tend - vidx) : 0, vidx);
		if (ret <= 0) {
			if (ret)
				goto out;
			continue;
		}
		if (!tp && !strcmp(key, "name") && eq && tend > vidx) {
			free(name);
			name = strndup(eq + 1, tend - vidx);
			if (!name) {
				ret = -ENOMEM;
				goto out;
			}
			continue;
		}
		if (tp || (strcmp(key, "period") && strcmp(key, "freq") && strncmp(key, "config", 6)) ||
		    (!strncmp(key, "config", 6) && strcmp(key + 6, "") && strcmp(key + 6, "1") &&
		     strcmp(key + 6, "2"))) {
			ret = set_error(ctx, tstart, tp ? TP_TERMS_HELP : TERMS_HELP, "unknown term");
			goto out;
		}
		if (eq && parse_u64(eq + 1, tend - vidx, &v)) {
			ret = set_error(ctx, vidx, NULL, "invalid value '%.*s' for term '%s'",
					tend - vidx, eq + 1, key);
			goto out;
		}
		if (!strcmp(key, "period") || !strcmp(key, "freq")) {
			apply_period_term(&attr, &cfg, key[0] == 'f', v);
		} else if (!strcmp(key, "config")) {
			attr.config = v;
			has_config = true;
		} else if (!strcmp(key, "config1")) {
			attr.config1 = v;
			has_config12 = true;
		} else {
			attr.config2 = v;
			has_config12 = true;
		}
	}
	if (close + 1 < end) {
		ret = check_modifiers(ctx, close + 1, close + 1, end - close - 1);
		if (ret)
			goto out;
	}
	ret = tp ? parse_tracepoint(ctx, pos, (int)((const char *)memchr(s + pos, ':', slash - pos) - s),
				    slash)
		 : parse_named_event(ctx, pos, slash);
	if (ret)
		goto out;
	if (cfg.has_callgraph && cfg.cg.mode == CALLCHAIN_RECORD_DWARF && !cfg.cg.dwarf_size)
		cfg.cg.dwarf_size = CALLCHAIN_RECORD_DWARF_SIZE;
	evlist__for_each_entry(ctx->list, evsel) {
		if (n++ < first)
			continue;
		evsel->config = cfg;
		/* period and freq also in the config: they win over -c/-F */
		if (cfg.has_period || cfg.has_freq || cfg.has_weak_period) {
			evsel->attr.sample_period = attr.sample_period;	/* or sample_freq */
			evsel->attr.freq = attr.freq;
		}
		if (has_config)
			evsel->attr.config = attr.config;
		if (has_config12) {
			evsel->attr.config1 = attr.config1;
			evsel->attr.config2 = attr.config2;
		}
		if (!tp) {
			free(evsel->name);
			evsel->name = name ? strdup(name) : strndup(s + pos, end - pos);
			if (!evsel->name) {
				ret = -ENOMEM;
				goto out;
			}
		}
		if (close + 1 < end)
			apply_modifiers(evsel, s + close + 1, end - close - 1, true);
	}
out:
	free(name);
	return ret;
}

/* Parse one event starting at *pos; leaves *pos at the delimiter. */
static int parse_event(struct parse_ctx *ctx, int *pos)
{
	const char *s = ctx->str;
	int p = *pos, slash = -1, end;

	for (end = p; s[end] && s[end] != ',' && s[end] != '}' && s[end] != '{'; end++) {
		/* a '/' starts PMU terms, except in mem:ADDR/LEN */
		if (s[end] == '/' && slash < 0 && strncmp(s + p, "mem:", 4)) {
			slash = end;
			/* terms may hold commas: skip to the closing '/' */
			end++;
			while (s[end] && s[end] != '/')
				end++;
			if (!s[end])
				break;
		}
	}
	if (s[end] == '{')
		return set_error(ctx, end, NULL, "parser error: unexpected '{'");
	if (end == p)
		return set_error(ctx, p, NULL, "parser error");
	*pos = end;
	if (slash >= 0) {
		if (slash == p)
			return set_error(ctx, p, NULL, "parser error: missing pmu name");
		return parse_pmu_event(ctx, p, slash, end);
	}
	return parse_named_event(ctx, p, end);
}

/*
 * A group whose events each became the same N > 1 PMUs' (an uncore alias
 * on uncore_imc_0 and _1, "{unc_m_cas_count.rd,unc_m_cas_count.wr}") is
 * one group per PMU, as perf 6.1 makes them: the evsels from index first
 * on are reordered PMU by PMU (each PMU's in the group's order). Returns
 * N (0: left as one group) or -ENOMEM.
 */
static int regroup_by_pmu(struct parse_ctx *ctx, int first)
{
	int nr = ctx->list->nr_entries - first, n = 0, k = 0;
	struct evsel **v, *evsel;

	if (nr < 2)
		return 0;
	v = calloc((size_t)nr, sizeof(*v));
	if (!v)
		return -ENOMEM;
	evlist__for_each_entry(ctx->list, evsel)
		if (k++ >= first)
			v[k - 1 - first] = evsel;
	/* N: the first event's instances; every event must have as many,
	 * on the same PMUs in the same order */
	while (n < nr && v[n]->merge_group && v[n]->merge_group == v[0]->merge_group)
		n++;
	if (n < 2 || nr % n)
		goto keep;
	for (int i = 0; i < nr; i++) {
		if (!v[i]->merge_group || v[i]->merge_group != v[i - i % n]->merge_group ||
		    !v[i]->pmu_name || strcmp(v[i]->pmu_name, v[i % n]->pmu_name) ||
		    (i % n == 0 && i && v[i]->merge_group == v[i - 1]->merge_group))
			goto keep;
	}
	for (int i = 0; i < nr; i++)
		list_del_init(&v[i]->node);
	k = first;
	for (int pmu = 0; pmu < n; pmu++) {
		for (int ev = 0; ev < nr / n; ev++) {
			evsel = v[ev * n + pmu];
			list_add_tail(&evsel->node, &ctx->list->entries);
			evsel->idx = k++;
		}
	}
	free(v);
	return n;
keep:
	free(v);
	return 0;
}

static int parse_group(struct parse_ctx *ctx, int *pos)
{
	const char *s = ctx->str;
	int open = *pos, p = open + 1, first = ctx->list->nr_entries, ret, mstart, mend, i, per;
	struct evsel *leader = NULL, *evsel;

	for (;;) {
		if (!s[p])
			return set_error(ctx, open, NULL, "unbalanced braces");
		if (s[p] == '{')
			return set_error(ctx, p, NULL, "nested groups are not supported");
		ret = parse_event(ctx, &p);
		if (ret)
			return ret;
		if (s[p] == ',') {
			p++;
			continue;
		}
		if (s[p] == '}')
			break;
		return set_error(ctx, open, NULL, "unbalanced braces");
	}
	p++;	/* '}' */
	mstart = mend = p;
	if (s[p] == ':') {
		mstart = p + 1;
		for (mend = mstart; s[mend] && s[mend] != ','; mend++)
			;
		if (s[mend - 1] == '}' || memchr(s + mstart, '}', mend - mstart))
			return set_error(ctx, p, NULL, "unbalanced braces");
		ret = check_modifiers(ctx, p, mstart, mend - mstart);
		if (ret)
			return ret;
		p = mend;
	} else if (s[p] && s[p] != ',') {
		return set_error(ctx, p, NULL, s[p] == '}' ? "unbalanced braces" : "parser error");
	}
	ret = regroup_by_pmu(ctx, first);
	if (ret < 0)
		return ret;
	per = ret ? (ctx->list->nr_entries - first) / ret : 0;	/* events of a PMU's group */
	i = 0;
	evlist__for_each_entry(ctx->list, evsel) {
		if (i++ < first)
			continue;
		if (!leader || (per && (i - 1 - first) % per == 0)) {
			if (leader && leader->nr_members > 1)
				ctx->nr_groups++;
			leader = evsel;
		}
		evsel->leader = leader;
		evsel->nr_members = 0;
		leader->nr_members++;
		apply_modifiers(evsel, s + mstart, mend - mstart, false);
	}
	if (leader && leader->nr_members > 1)
		ctx->nr_groups++;
	*pos = p;
	return 0;
}

/* The last successful parse per evlist, so --filter can reach every
 * tracepoint a glob in the last -e expanded to. */
static struct {
	const struct evlist *evlist;
	int first_idx;
} last_parse;

int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err)
{
	struct parse_ctx ctx = { .str = str, .err = err };
	struct evsel *evsel, *n;
	int pos = 0, ret = 0, first = evlist->nr_entries;

	ctx.list = evlist__new();
	if (!ctx.list)
		return -ENOMEM;
	if (!*str)
		ret = set_error(&ctx, 0, NULL, "parser error: empty event list");
	while (!ret && str[pos]) {
		if (str[pos] == '{')
			ret = parse_group(&ctx, &pos);
		else if (str[pos] == '}')
			ret = set_error(&ctx, pos, NULL, "unbalanced braces");
		else
			ret = parse_event(&ctx, &pos);
		if (ret)
			break;
		if (str[pos] == ',') {
			pos++;
			if (!str[pos])
				ret = set_error(&ctx, pos, NULL, "parser error: trailing ','");
		} else if (str[pos] == '}') {
			ret = set_error(&ctx, pos, NULL, "unbalanced braces");
		} else if (str[pos]) {
			ret = set_error(&ctx, pos, NULL, "parser error");
		}
	}
	if (ret) {
		if (ret == -ENOMEM)
			set_error(&ctx, pos, NULL, "out of memory");
		evlist__delete(ctx.list);
		return ret;
	}
	list_for_each_entry_safe(evsel, n, &ctx.list->entries, node) {
		list_del_init(&evsel->node);
		evlist__add(evlist, evsel);
	}
	ctx.list->nr_entries = 0;
	evlist->nr_groups += ctx.nr_groups;
	evlist__delete(ctx.list);
	last_parse.evlist = evlist;
	last_parse.first_idx = first;
	return 0;
}

int parse_events_option(const struct option *opt, const char *str, int unset)
{
	struct evlist *evlist = opt->value;
	struct parse_events_error err;
	int ret;

	if (unset || !str)
		return 0;
	parse_events_error__init(&err);
	ret = parse_events(evlist, str, &err);
	if (ret) {
		parse_events_error__print(&err, str, stderr);
		parse_events_error__exit(&err);
		return -1;
	}
	parse_events_error__exit(&err);
	return 0;
}

static int evsel__append_filter(struct evsel *evsel, const char *filter)
{
	struct strbuf sb = STRBUF_INIT;

	if (evsel->filter)
		strbuf_addf(&sb, "(%s) && (%s)", evsel->filter, filter);
	else
		strbuf_addstr(&sb, filter);
	if (!sb.len)
		return -ENOMEM;
	free(evsel->filter);
	evsel->filter = strbuf_detach(&sb, NULL);
	return 0;
}

int parse_filter_option(const struct option *opt, const char *str, int unset)
{
	struct evlist *evlist = opt->value;
	struct evsel *last, *evsel;

	if (unset || !str)
		return 0;
	if (!evlist->nr_entries || (last = evlist__last(evlist))->attr.type != PERF_TYPE_TRACEPOINT) {
		pr_err("--filter option should follow a -e tracepoint option\n");
		return -1;
	}
	evlist__for_each_entry(evlist, evsel) {
		bool in_last = last_parse.evlist == evlist ? evsel->idx >= last_parse.first_idx
							    : evsel == last;

		if (!in_last || evsel->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		if (evsel__append_filter(evsel, str)) {
			pr_err("not enough memory to hold filter string\n");
			return -1;
		}
	}
	return 0;
}
