// SPDX-License-Identifier: GPL-2.0
/* PMUs from sysfs; see pmu.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "pmu.h"
#include "pmu-events.h"
#include "../lib/debug.h"
#include "../lib/util.h"

#define PMU_SYSFS_DEFAULT "/sys/bus/event_source/devices"

/* Test hook: a fake sysfs tree. */
static const char *sysfs_root;

void pmu__set_sysfs_root(const char *dir)
{
	sysfs_root = dir;
	pmus__flush();
}

const char *pmu__sysfs_root(void)
{
	return sysfs_root ? sysfs_root : PMU_SYSFS_DEFAULT;
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* "config:0-7,32-35" -> fmt. 0 or -EINVAL. */
static int format__parse(struct pmu_format *fmt, char *text)
{
	char *s = trim(text), *colon = strchr(s, ':'), *tok, *save = NULL;

	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (!strcmp(s, "config"))
		fmt->config = 0;
	else if (!strcmp(s, "config1"))
		fmt->config = 1;
	else if (!strcmp(s, "config2"))
		fmt->config = 2;
	else
		return -EINVAL;
	for (tok = strtok_r(colon + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long lo = strtol(tok, &end, 10), hi = lo;

		if (end == tok)
			return -EINVAL;
		if (*end == '-') {
			char *p = end + 1;

			hi = strtol(p, &end, 10);
			if (end == p)
				return -EINVAL;
		}
		if (*end || lo < 0 || hi > 63 || hi < lo || fmt->nr_ranges == PMU_FORMAT_MAX_RANGES)
			return -EINVAL;
		fmt->ranges[fmt->nr_ranges].lo = lo;
		fmt->ranges[fmt->nr_ranges].hi = hi;
		fmt->nr_ranges++;
	}
	return fmt->nr_ranges ? 0 : -EINVAL;
}

static int pmu__load_formats(struct perf_pmu *pmu, const char *dir)
{
	char path[PATH_MAX + 16];
	struct dirent **ents;
	int n, err = 0;

	snprintf(path, sizeof(path), "%s/format", dir);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return 0;	/* no format directory: only config=/config1= terms */
	for (int i = 0; i < n; i++) {
		char file[PATH_MAX + 300];
		struct pmu_format *fmt;
		char *text = NULL;

		if (ents[i]->d_name[0] == '.' || err)
			goto next;
		snprintf(file, sizeof(file), "%s/%s", path, ents[i]->d_name);
		if (filename__read_str(file, &text, NULL))
			goto next;
		fmt = zalloc(sizeof(*fmt));
		if (!fmt || !(fmt->name = strdup(ents[i]->d_name))) {
			free(fmt);
			err = -ENOMEM;
			goto next;
		}
		if (format__parse(fmt, text)) {
			pr_debug("pmu %s: bad format %s\n", pmu->name, file);
			free(fmt->name);
			free(fmt);
			goto next;
		}
		list_add_tail(&fmt->node, &pmu->formats);
next:
		free(text);
		free(ents[i]);
	}
	free(ents);
	return err;
}

static bool alias_file_ignored(const char *name)
{
	static const char *const suffixes[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };
	size_t len = strlen(name);

	if (name[0] == '.')
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && !strcmp(name + len - sl, suffixes[i]))
			return true;
	}
	return false;
}

/* An events/ alias's NAME.unit and NAME.scale files (the kernel's sysfs
 * ABI), when there: a's unit and scale. */
static void alias__read_unit(struct pmu_alias *a, const char *events_dir)
{
	char file[PATH_MAX + 320], *text = NULL, *end;
	double v;

	snprintf(file, sizeof(file), "%s/%s.unit", events_dir, a->name);
	if (!filename__read_str(file, &text, NULL)) {
		a->unit = strdup(trim(text));
		free(text);
		text = NULL;
	}
	snprintf(file, sizeof(file), "%s/%s.scale", events_dir, a->name);
	if (!filename__read_str(file, &text, NULL)) {
		v = strtod(trim(text), &end);
		if (end != trim(text) && v > 0)
			a->scale = v;
		free(text);
	}
}

static int pmu__load_aliases(struct perf_pmu *pmu, const char *dir)
{
	char path[PATH_MAX + 16];
	struct dirent **ents;
	int n, err = 0;

	snprintf(path, sizeof(path), "%s/events", dir);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		char file[PATH_MAX + 300];
		struct pmu_alias *a;
		char *text = NULL;

		if (err || alias_file_ignored(ents[i]->d_name))
			goto next;
		snprintf(file, sizeof(file), "%s/%s", path, ents[i]->d_name);
		if (filename__read_str(file, &text, NULL))
			goto next;
		a = zalloc(sizeof(*a));
		if (!a || !(a->name = strdup(ents[i]->d_name)) || !(a->terms = strdup(trim(text)))) {
			if (a)
				free(a->name);
			free(a);
			err = -ENOMEM;
			goto next;
		}
		list_add_tail(&a->node, &pmu->aliases);
		alias__read_unit(a, path);
next:
		free(text);
		free(ents[i]);
	}
	free(ents);
	return err;
}

/* Add the JSON record pe's alias (name and terms copied), or replace the
 * terms and texts of one of the first nr_old aliases of that name. 0 or
 * -ENOMEM. */
static int pmu__set_alias(struct perf_pmu *pmu, int nr_old, const struct pmu_event *pe)
{
	struct pmu_alias *a = NULL, *old;
	const char *name = pe->name;
	char *t = strdup(pe->event);
	int i = 0;

	if (!t)
		return -ENOMEM;
	list_for_each_entry(old, &pmu->aliases, node) {
		if (i++ == nr_old)
			break;
		if (!strcasecmp(old->name, name)) {
			a = old;
			break;
		}
	}
	if (a) {		/* the JSON encoding wins over sysfs's, as in perf */
		free(a->terms);
	} else {
		a = zalloc(sizeof(*a));
		if (!a || !(a->name = strdup(name))) {
			free(a);
			free(t);
			return -ENOMEM;
		}
		a->json = true;
		list_add_tail(&a->node, &pmu->aliases);
	}
	a->terms = t;
	a->desc = pe->desc;
	/* perf's long description falls back on the brief one */
	a->long_desc = pe->long_desc ? pe->long_desc : pe->desc;
	a->topic = pe->topic;
	a->metric_name = pe->metric_name;
	a->metric_expr = pe->metric_expr;
	if (pe->unit) {		/* ScaleUnit "64Bytes": a number, then the unit */
		char *end;
		double v = strtod(pe->unit, &end);

		free(a->unit);
		a->unit = strdup(end);
		a->scale = end != pe->unit && v > 0 ? v : 0;
		if (!a->unit)
			return -ENOMEM;
	}
	a->deprecated = pe->deprecated != NULL;	/* any value, as perf */
	return 0;
}

struct json_alias_ctx {
	struct perf_pmu *pmu;
	const char *core_name;	/* what a record without a Unit belongs to */
	int nr_sysfs;		/* aliases from events/, first in the list */
	int err;
};

/* After a token: the end, or digits to the end, after an optional "_"
 * (uncore_imc_0, uncore_cbox0; not uncore_imc_free_running_0). */
static bool instance_suffix(const char *p)
{
	if (!*p)
		return true;
	if (*p == '_')
		p++;
	if (!*p)
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p;
}

bool pmu__unit_match(const char *unit, const char *name)
{
	const char *tok = unit, *at = name;

	while (*tok) {
		size_t len = strcspn(tok, ",");
		const char *hit = NULL;

		for (const char *p = at; *p && !hit; p++)
			if (!strncmp(p, tok, len))
				hit = p;
		if (!hit || !len)
			return false;
		at = hit + len;
		tok += len;
		if (*tok != ',')
			return instance_suffix(at);
		tok++;
	}
	return false;
}

bool pmu__name_match(const char *abbrev, const char *name)
{
	size_t len = strlen(abbrev);

	if (!strncmp(name, "uncore_", 7) && strncmp(abbrev, "uncore_", 7))
		name += 7;
	return len && !strncmp(name, abbrev, len) && instance_suffix(name + len);
}

static int json_alias_cb(const struct pmu_event *pe, void *data)
{
	struct json_alias_ctx *c = data;
	const char *owner = pe->pmu ? pe->pmu : c->core_name;

	if (!pe->name || !pe->event)
		return 0;
	if (c->pmu->uncore ? !pe->pmu || !pmu__unit_match(pe->pmu, c->pmu->name)
			   : strcmp(owner, c->pmu->name))
		return 0;
	c->err = pmu__set_alias(c->pmu, c->nr_sysfs, pe);
	return c->err;
}

/*
 * The CPU model's JSON events (pmu-events.h) that belong to this PMU
 * become its aliases, as perf 6.1 adds them: a record without a Unit
 * belongs to "cpu", or on a PMU with a cpus file (arm64's, hybrid x86's
 * cpu_core/cpu_atom) to that PMU; a record with a Unit to the PMU of that
 * name, or on an uncore PMU to each numbered instance of it
 * (pmu__unit_match()).
 */
static int pmu__add_json_aliases(struct perf_pmu *pmu, const char *dir)
{
	char path[PATH_MAX + 16];
	struct json_alias_ctx c = { .pmu = pmu, .core_name = "cpu" };
	const struct pmu_events_model *model;
	struct pmu_alias *a;

	if (!pmu->core && !pmu->uncore)
		return 0;
	snprintf(path, sizeof(path), "%s/cpus", dir);
	if (!access(path, F_OK))
		c.core_name = pmu->name;
	model = pmu_events__model();
	if (!model)
		return 0;
	list_for_each_entry(a, &pmu->aliases, node)
		c.nr_sysfs++;
	pmu_events__for_each(model, json_alias_cb, &c);
	return c.err;
}

struct perf_pmu *pmu__load(const char *name, int *errp)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct perf_pmu *pmu;
	int type, err;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		err = -ENOENT;
		goto fail;
	}
	snprintf(dir, sizeof(dir), "%s/%s", pmu__sysfs_root(), name);
	snprintf(path, sizeof(path), "%s/type", dir);
	err = filename__read_int(path, &type);
	if (err) {
		err = err == -ENOENT ? -ENOENT : -EINVAL;
		goto fail;
	}
	pmu = zalloc(sizeof(*pmu));
	if (!pmu || !(pmu->name = strdup(name))) {
		free(pmu);
		err = -ENOMEM;
		goto fail;
	}
	pmu->type = type;
	snprintf(path, sizeof(path), "%s/cpus", dir);
	pmu->core = !strcmp(name, "cpu") || !access(path, F_OK);
	snprintf(path, sizeof(path), "%s/cpumask", dir);
	if (!pmu->core && !filename__read_str(path, &pmu->cpumask, NULL)) {
		char *t = trim(pmu->cpumask);

		memmove(pmu->cpumask, t, strlen(t) + 1);
		pmu->uncore = true;
	}
	INIT_LIST_HEAD(&pmu->formats);
	INIT_LIST_HEAD(&pmu->aliases);
	err = pmu__load_formats(pmu, dir);
	if (!err)
		err = pmu__load_aliases(pmu, dir);
	if (!err)
		err = pmu__add_json_aliases(pmu, dir);
	if (err) {
		pmu__delete(pmu);
		goto fail;
	}
	return pmu;
fail:
	if (errp)
		*errp = err;
	return NULL;
}

void pmu__delete(struct perf_pmu *pmu)
{
	struct pmu_format *f, *fn;
	struct pmu_alias *a, *an;

	if (!pmu)
		return;
	list_for_each_entry_safe(f, fn, &pmu->formats, node) {
		free(f->name);
		free(f);
	}
	list_for_each_entry_safe(a, an, &pmu->aliases, node) {
		free(a->name);
		free(a->unit);
		free(a->terms);
		free(a);
	}
	free(pmu->cpumask);
	free(pmu->name);
	free(pmu);
}

struct pmu_format *pmu__find_format(struct perf_pmu *pmu, const char *name)
{
	struct pmu_format *f;

	list_for_each_entry(f, &pmu->formats, node)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

struct pmu_alias *pmu__find_alias(struct perf_pmu *pmu, const char *name)
{
	struct pmu_alias *a;

	/* sysfs alias names are matched case-insensitively, as perf does */
	list_for_each_entry(a, &pmu->aliases, node)
		if (!strcasecmp(a->name, name))
			return a;
	return NULL;
}

int pmu_format__apply(const struct pmu_format *fmt, uint64_t value, struct perf_event_attr *attr)
{
	__u64 *word = fmt->config == 0 ? &attr->config :
			 fmt->config == 1 ? &attr->config1 : &attr->config2;
	int width = 0, shift = 0;

	for (int i = 0; i < fmt->nr_ranges; i++)
		width += fmt->ranges[i].hi - fmt->ranges[i].lo + 1;
	if (width < 64 && (value >> width))
		return -ERANGE;
	/* Scatter value's low bits over the ranges, lowest range first. */
	for (int i = 0; i < fmt->nr_ranges; i++) {
		int lo = fmt->ranges[i].lo, bits = fmt->ranges[i].hi - lo + 1;
		uint64_t mask = bits == 64 ? ~0ULL : ((1ULL << bits) - 1);

		*word &= ~(mask << lo);
		*word |= ((value >> shift) & mask) << lo;
		shift += bits;
	}
	return 0;
}

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

char **pmu__names(void)
{
	struct dirent **ents;
	char **names;
	int n = scandir(pmu__sysfs_root(), &ents, not_dot, alphasort), k = 0;

	if (n < 0)
		return NULL;
	names = calloc(n + 1, sizeof(*names));
	for (int i = 0; i < n; i++) {
		if (names && !(names[k] = strdup(ents[i]->d_name))) {
			pmu__free_names(names);
			names = NULL;
		} else if (names) {
			k++;
		}
		free(ents[i]);
	}
	free(ents);
	return names;
}

void pmu__free_names(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

/*
 * The PMU cache: the names of the sysfs scan, in pmu__names() order, each
 * with its PMU once loaded (or the error that loading gave).
 */
struct pmus_entry {
	char *name;
	struct perf_pmu *pmu;
	int err;		/* pmu__load()'s error when pmu is NULL */
	bool loaded;
};

static struct {
	pthread_mutex_t lock;
	bool scanned;
	int nr;
	struct pmus_entry *v;
} pmus = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Scan the PMU directory once; called with pmus.lock held. */
static void pmus__scan(void)
{
	char **names;
	int n = 0;

	if (pmus.scanned)
		return;
	names = pmu__names();
	if (!names)
		return;		/* unreadable or out of memory: no PMUs, rescan next time */
	while (names[n])
		n++;
	pmus.v = calloc(n ? n : 1, sizeof(*pmus.v));
	if (!pmus.v) {
		pmu__free_names(names);
		return;
	}
	for (int i = 0; i < n; i++)
		pmus.v[i].name = names[i];	/* the strings move into the cache */
	free(names);
	pmus.nr = n;
	pmus.scanned = true;
}

/* pmus__find() with pmus.lock held. */
static struct perf_pmu *pmus__find_locked(const char *name, int *errp)
{
	struct pmus_entry *e = NULL;
	int err = -ENOENT;

	pmus__scan();
	for (int i = 0; i < pmus.nr; i++) {
		if (!strcmp(pmus.v[i].name, name)) {
			e = &pmus.v[i];
			break;
		}
	}
	if (!e)
		goto fail;
	if (!e->loaded) {
		e->pmu = pmu__load(e->name, &err);
		if (!e->pmu && err == -ENOMEM)
			goto fail;	/* not cached: may work next time */
		e->err = e->pmu ? 0 : err;
		e->loaded = true;
	}
	if (e->pmu)
		return e->pmu;
	err = e->err;
fail:
	if (errp)
		*errp = err;
	return NULL;
}

struct perf_pmu *pmus__find(const char *name, int *errp)
{
	struct perf_pmu *pmu;

	pthread_mutex_lock(&pmus.lock);
	pmu = pmus__find_locked(name, errp);
	pthread_mutex_unlock(&pmus.lock);
	return pmu;
}

int pmus__find_all(const char *alias, bool by_name, struct perf_pmu ***pmusp)
{
	struct perf_pmu **v = NULL;
	int n = 0;

	*pmusp = NULL;
	pthread_mutex_lock(&pmus.lock);
	pmus__scan();
	for (int i = 0; i < pmus.nr; i++) {
		struct perf_pmu *pmu, **nv;

		if (by_name && !pmu__name_match(alias, pmus.v[i].name))
			continue;
		pmu = pmus__find_locked(pmus.v[i].name, NULL);
		if (!pmu || (!by_name && !pmu__find_alias(pmu, alias)))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			pthread_mutex_unlock(&pmus.lock);
			return -ENOMEM;
		}
		v = nv;
		v[n++] = pmu;
	}
	pthread_mutex_unlock(&pmus.lock);
	*pmusp = v;
	return n;
}

void pmus__flush(void)
{
	pthread_mutex_lock(&pmus.lock);
	for (int i = 0; i < pmus.nr; i++) {
		pmu__delete(pmus.v[i].pmu);
		free(pmus.v[i].name);
	}
	free(pmus.v);
	pmus.v = NULL;
	pmus.nr = 0;
	pmus.scanned = false;
	pthread_mutex_unlock(&pmus.lock);
}
