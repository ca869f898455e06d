// SPDX-License-Identifier: GPL-2.0
/* A sample's self entry by its raw identity (see sample-memo.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sample-memo.h"
#include "../model/dso.h"
#include "../model/map.h"

int sample_memo__init(struct sample_memo *m)
{
	size_t size = sizeof(*m->slots) << SAMPLE_MEMO_BITS;

	m->gen = 1;
	if (posix_memalign((void **)&m->slots, 64, size)) {
		m->slots = NULL;
		return -ENOMEM;
	}
	memset(m->slots, 0, size);
	return 0;
}

void sample_memo__exit(struct sample_memo *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

void sample_memo__forget(struct sample_memo *m)
{
	if (++m->gen)
		return;
	/* the generation wrapped: slots of generation 1 could match again */
	if (m->slots)
		memset(m->slots, 0, sizeof(*m->slots) << SAMPLE_MEMO_BITS);
	m->gen = 1;
}

bool sample_memo__may_keep(const struct map *map)
{
	const struct dso *dso = map ? map->dso : NULL;

	return !dso || ((dso->kind == DSO_USER || dso->kind == DSO_KERNEL) &&
			__atomic_load_n(&dso->symbols_loaded, __ATOMIC_ACQUIRE));
}
