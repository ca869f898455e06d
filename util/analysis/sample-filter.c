// SPDX-License-Identifier: GPL-2.0
/*
 * Sample filters for report/script (see sample-filter.h): comma list
 * splitting, number lists, a cpu list bitmap and the matching predicates.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sample-filter.h"
#include "../model/dso.h"

/* "a,b,c" -> malloc'd array of malloc'd strings; empty items skipped.
 * Returns the count or -ENOMEM. */
static int split_list(const char *s, char ***out)
{
	char *dup = strdup(s), *save = NULL, *tok;
	int n = 0;

	*out = NULL;
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(*out, (size_t)(n + 1) * sizeof(*v));

		if (!v)
			break;
		*out = v;
		v[n++] = strdup(tok);
	}
	free(dup);
	return n;
}

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int parse_num_list(const char *cmd, const char *what, const char *s,
			  long **out, int *nr)
{
	char **v;
	int n = split_list(s, &v), ret = 0;

	if (n < 0)
		return n;
	*out = calloc((size_t)n + 1, sizeof(long));
	if (!*out) {
		free_list(v, n);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		char *end;

		(*out)[i] = strtol(v[i], &end, 10);
		if (*end || end == v[i]) {
			fprintf(stderr, "prf %s: invalid %s '%s'\n", cmd, what, v[i]);
			ret = -EINVAL;
			break;
		}
	}
	free_list(v, n);
	*nr = n;
	return ret;
}

static int parse_cpu_list(struct sample_filter *f, const char *cmd, const char *list)
{
	const char *p = list;

	f->cpu_set = calloc(SAMPLE_FILTER_MAX_CPUS, 1);
	if (!f->cpu_set)
		return -ENOMEM;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a >= SAMPLE_FILTER_MAX_CPUS)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= SAMPLE_FILTER_MAX_CPUS)
				goto bad;
			p = end;
		}
		for (long c = a; c <= b; c++)
			f->cpu_set[c] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "prf %s: invalid cpu list '%s'\n", cmd, list);
	return -EINVAL;
}

static int names(const char *s, char ***list, int *nr)
{
	int n;

	if (!s)
		return 0;
	n = split_list(s, list);
	if (n < 0)
		return n;
	*nr = n;
	return 0;
}

int sample_filter__parse(struct sample_filter *f, const struct sample_filter_args *args)
{
	const char *cmd = args->cmd ? args->cmd : "";
	int err;

	if ((err = names(args->comms, &f->comm_list, &f->nr_comms)) ||
	    (err = names(args->dsos, &f->dso_list, &f->nr_dsos)) ||
	    (err = names(args->symbols, &f->sym_list, &f->nr_syms)))
		return err;
	if (args->pids && (err = parse_num_list(cmd, "pid", args->pids, &f->pid_list, &f->nr_pids)))
		return err;
	if (args->tids && (err = parse_num_list(cmd, "tid", args->tids, &f->tid_list, &f->nr_tids)))
		return err;
	if (args->cpus && (err = parse_cpu_list(f, cmd, args->cpus)))
		return err;
	return 0;
}

void sample_filter__exit(struct sample_filter *f)
{
	free_list(f->comm_list, f->nr_comms);
	free_list(f->dso_list, f->nr_dsos);
	free_list(f->sym_list, f->nr_syms);
	free(f->pid_list);
	free(f->tid_list);
	free(f->cpu_set);
	memset(f, 0, sizeof(*f));
}

static bool in_list(char **list, int n, const char *s)
{
	if (!s)
		return false;
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool in_num_list(const long *list, int n, long v)
{
	for (int i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

bool sample_filter__match_task(const struct sample_filter *f, uint32_t pid, uint32_t tid,
			       const char *comm)
{
	if (f->nr_pids && !in_num_list(f->pid_list, f->nr_pids, (int32_t)pid))
		return false;
	if (f->nr_tids && !in_num_list(f->tid_list, f->nr_tids, (int32_t)tid))
		return false;
	if (f->nr_comms && !in_list(f->comm_list, f->nr_comms, comm))
		return false;
	return true;
}

bool sample_filter__match_dso(const struct sample_filter *f, const struct dso *dso)
{
	if (!f->nr_dsos)
		return true;
	return dso && (in_list(f->dso_list, f->nr_dsos, dso->short_name) ||
		       in_list(f->dso_list, f->nr_dsos, dso->long_name));
}

bool sample_filter__match_sym(const struct sample_filter *f, const char *sym_name)
{
	return !f->nr_syms || in_list(f->sym_list, f->nr_syms, sym_name);
}

bool sample_filter__match(const struct sample_filter *f, uint32_t pid, uint32_t tid,
			  uint32_t cpu, const char *comm)
{
	return sample_filter__match_cpu(f, cpu) && sample_filter__match_task(f, pid, tid, comm);
}

/* ---- time ranges (--time) ---- */

/* "SEC[.FRAC]" (up to 9 decimals) -> ns; p advanced past it. */
static bool parse_sec_ns(const char **pp, uint64_t *ns)
{
	const char *p = *pp;
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return false;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 9)
				return false;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		for (int i = digits; i < 9; i++)
			frac *= 10;
	}
	*ns = sec * 1000000000ULL + frac;
	*pp = p;
	return true;
}

/* "P%" -> P (0..100); p advanced past the '%'. */
static bool parse_pct(const char **pp, double *v)
{
	char *end;

	if (**pp < '0' || **pp > '9')
		return false;
	*v = strtod(*pp, &end);
	if (*end != '%' || *v < 0 || *v > 100)
		return false;
	*pp = end + 1;
	return true;
}

static int add_range(struct sample_time_filter *tf, const struct sample_time_range *r)
{
	struct sample_time_range *v = realloc(tf->ranges, (size_t)(tf->nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	tf->ranges = v;
	v[tf->nr++] = *r;
	return 0;
}

/* One percent item: "P%/N" or "A%-B%". */
static bool parse_pct_item(const char **pp, struct sample_time_range *r)
{
	double a, b;

	if (!parse_pct(pp, &a))
		return false;
	if (**pp == '/') {
		char *end;
		long n = strtol(*pp + 1, &end, 10);

		if (end == *pp + 1 || n < 1 || a <= 0 || a * (double)n > 100.0 + 1e-9)
			return false;
		r->pct_start = a * (double)(n - 1);
		r->pct_end = a * (double)n;
		*pp = end;
		return true;
	}
	if (**pp != '-')
		return false;
	(*pp)++;
	if (!parse_pct(pp, &b) || b < a)
		return false;
	r->pct_start = a;
	r->pct_end = b;
	return true;
}

int sample_time_filter__parse(struct sample_time_filter *tf, const char *cmd, const char *str)
{
	const char *p = str;
	int err = 0;

	if (!str || !*str)
		return 0;
	tf->percent = strchr(str, '%') != NULL;
	tf->resolved = !tf->percent;
	while (*p && !err) {
		struct sample_time_range r = { 0 };

		if (tf->percent) {
			if (!parse_pct_item(&p, &r) || (*p && *p != ','))
				goto bad;
			if (*p == ',')
				p++;
		} else {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			if (*p != ',' && !parse_sec_ns(&p, &r.start))
				goto bad;
			if (*p++ != ',')
				goto bad;
			if (*p && *p != ' ' && !parse_sec_ns(&p, &r.end))
				goto bad;
			if ((*p && *p != ' ') || (r.end && r.end < r.start))
				goto bad;
		}
		err = add_range(tf, &r);
	}
	if (!err && !tf->nr)
		goto bad;
	return err;
bad:
	fprintf(stderr, "prf %s: invalid time '%s'\n", cmd ? cmd : "", str);
	return -EINVAL;
}

int sample_time_filter__resolve(struct sample_time_filter *tf, uint64_t first, uint64_t last)
{
	double span;

	if (tf->resolved || !tf->nr)	/* absolute ranges, or none */
		return 0;
	if ((!first && !last) || last < first)
		return -EINVAL;
	span = (double)(last - first);
	for (int i = 0; i < tf->nr; i++) {
		struct sample_time_range *r = &tf->ranges[i];

		r->start = first + (uint64_t)(span * r->pct_start / 100.0);
		r->end = first + (uint64_t)(span * r->pct_end / 100.0);
		/* adjacent slices ("10%/1,10%/2") share no nanosecond */
		if (r->pct_end < 100.0 && r->end > r->start)
			r->end--;
	}
	tf->resolved = true;
	return 0;
}

bool sample_time_filter__match(const struct sample_time_filter *tf, uint64_t time)
{
	if (!tf->nr)
		return true;
	for (int i = 0; i < tf->nr; i++) {
		const struct sample_time_range *r = &tf->ranges[i];

		if (time >= r->start && (!r->end || time <= r->end))
			return true;
	}
	return false;
}

void sample_time_filter__exit(struct sample_time_filter *tf)
{
	free(tf->ranges);
	memset(tf, 0, sizeof(*tf));
}
