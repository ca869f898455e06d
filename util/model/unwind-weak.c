// SPDX-License-Identifier: GPL-2.0
/*
 * Weak fallbacks for functions other util/model/ files provide, so the
 * model links (and says "not available") before they exist.
 */
#include <errno.h>
#include "unwind.h"
#include "dso.h"
#include "debuginfo.h"

__attribute__((weak)) int unwind__get_entries(unwind_entry_cb_t cb, void *arg,
					      struct thread *thread,
					      struct perf_sample *data, int max_stack)
{
	(void)cb; (void)arg; (void)thread; (void)data; (void)max_stack;
	return -ENOSYS;
}

/* util/model/debuginfo.c frees its per-DSO state here. */
__attribute__((weak)) void dso__debuginfo_delete(struct dso *dso)
{
	(void)dso;
}
