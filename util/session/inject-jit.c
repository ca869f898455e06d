// SPDX-License-Identifier: GPL-2.0
/* inject --jit: jitdump files to ELF images and MMAP2 records; see inject-jit.h. */
#include <errno.h>
#include <stdlib.h>
#include "inject-jit.h"

struct inject_jit {
	inject_emit_fn emit;
	void *ctx;
};

struct inject_jit *inject_jit__new(inject_emit_fn emit, void *ctx)
{
	struct inject_jit *jit = calloc(1, sizeof(*jit));

	if (jit) {
		jit->emit = emit;
		jit->ctx = ctx;
	}
	return jit;
}

void inject_jit__delete(struct inject_jit *jit)
{
	free(jit);
}

int inject_jit__mmap(struct inject_jit *jit, const union perf_event *ev, struct perf_data *d)
{
	(void)jit; (void)ev; (void)d;
	return 1;
}

int inject_jit__finish(struct inject_jit *jit)
{
	(void)jit;
	return 0;
}

int inject_jit__build_ids(struct inject_jit *jit, struct feat_build_id **bids, int *n)
{
	(void)jit; (void)bids; (void)n;
	return 0;
}
