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
