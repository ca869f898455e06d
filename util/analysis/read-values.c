// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread counter values of report -T (see read-values.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "read-values.h"

static int grow(void **v, int *alloc, int need, size_t size)
{
	int n = *alloc ? *alloc : 8;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*v, (size_t)n * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*alloc = n;
	return 0;
}

static int find_thread(struct read_values *rv, pid_t pid, pid_t tid)
{
	int n;

	for (int i = 0; i < rv->nr_threads; i++)
		if (rv->pid[i] == pid && rv->tid[i] == tid)
			return i;
	n = rv->alloc_threads;
	if (grow((void **)&rv->pid, &n, rv->nr_threads + 1, sizeof(*rv->pid)))
		return -ENOMEM;
	n = rv->alloc_threads;
	if (grow((void **)&rv->tid, &n, rv->nr_threads + 1, sizeof(*rv->tid)))
		return -ENOMEM;
	n = rv->alloc_threads;
	if (grow((void **)&rv->value, &n, rv->nr_threads + 1, sizeof(*rv->value)))
		return -ENOMEM;
	rv->alloc_threads = n;
	rv->value[rv->nr_threads] = calloc((size_t)rv->alloc_counters + 1, sizeof(uint64_t));
	if (!rv->value[rv->nr_threads])
		return -ENOMEM;
	rv->pid[rv->nr_threads] = pid;
	rv->tid[rv->nr_threads] = tid;
	return rv->nr_threads++;
}

static int find_counter(struct read_values *rv, int idx, const char *name)
{
	int n, old = rv->alloc_counters;

	for (int i = 0; i < rv->nr_counters; i++)
		if (rv->counter_idx[i] == idx)
			return i;
	n = old;
	if (grow((void **)&rv->counter_idx, &n, rv->nr_counters + 1, sizeof(*rv->counter_idx)))
		return -ENOMEM;
	n = old;
	if (grow((void **)&rv->counter_name, &n, rv->nr_counters + 1, sizeof(*rv->counter_name)))
		return -ENOMEM;
	if (n != old) {
		/* every thread's row gets room for the new counters */
		for (int t = 0; t < rv->nr_threads; t++) {
			uint64_t *row = realloc(rv->value[t], (size_t)n * sizeof(*row));

			if (!row)
				return -ENOMEM;
			memset(row + old, 0, (size_t)(n - old) * sizeof(*row));
			rv->value[t] = row;
		}
		rv->alloc_counters = n;
	}
	rv->counter_name[rv->nr_counters] = strdup(name);
	if (!rv->counter_name[rv->nr_counters])
		return -ENOMEM;
	rv->counter_idx[rv->nr_counters] = idx;
	return rv->nr_counters++;
}

int read_values__add(struct read_values *rv, pid_t pid, pid_t tid, int idx, const char *name,
		     uint64_t value)
{
	int c = find_counter(rv, idx, name);
	int t = c < 0 ? c : find_thread(rv, pid, tid);

	if (t < 0)
		return t;
	rv->value[t][c] += value;
	return 0;
}

static int num_width(uint64_t v)
{
	return snprintf(NULL, 0, "%" PRIu64, v);
}

void read_values__fprintf(const struct read_values *rv, FILE *fp)
{
	int pidw = 3, tidw = 3;
	int *cw = calloc((size_t)rv->nr_counters + 1, sizeof(*cw));

	if (!cw)
		return;
	for (int c = 0; c < rv->nr_counters; c++)
		cw[c] = (int)strlen(rv->counter_name[c]);
	for (int t = 0; t < rv->nr_threads; t++) {
		int w = snprintf(NULL, 0, "%d", rv->pid[t]);

		if (w > pidw)
			pidw = w;
		w = snprintf(NULL, 0, "%d", rv->tid[t]);
		if (w > tidw)
			tidw = w;
		for (int c = 0; c < rv->nr_counters; c++)
			if (num_width(rv->value[t][c]) > cw[c])
				cw[c] = num_width(rv->value[t][c]);
	}
	fprintf(fp, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (int c = 0; c < rv->nr_counters; c++)
		fprintf(fp, "  %*s", cw[c], rv->counter_name[c]);
	fputc('\n', fp);
	for (int t = 0; t < rv->nr_threads; t++) {
		fprintf(fp, "  %*d  %*d", pidw, rv->pid[t], tidw, rv->tid[t]);
		for (int c = 0; c < rv->nr_counters; c++)
			fprintf(fp, "  %*" PRIu64, cw[c], rv->value[t][c]);
		fputc('\n', fp);
	}
	free(cw);
}

void read_values__exit(struct read_values *rv)
{
	for (int t = 0; t < rv->nr_threads; t++)
		free(rv->value[t]);
	for (int c = 0; c < rv->nr_counters; c++)
		free(rv->counter_name[c]);
	free(rv->value);
	free(rv->pid);
	free(rv->tid);
	free(rv->counter_idx);
	free(rv->counter_name);
	memset(rv, 0, sizeof(*rv));
}
