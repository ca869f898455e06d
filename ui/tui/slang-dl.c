// SPDX-License-Identifier: GPL-2.0
/* libslang loaded at the TUI's start: see slang-dl.h. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include "slang-dl.h"
#include "../../util/lib/debug.h"

/* slang 2's soname (Debian's libslang2: libslang.so.2) */
#define SLANG_SONAME "libslang.so.2"

struct slang_dl slang_dl;

static pthread_once_t slang_dl_once = PTHREAD_ONCE_INIT;
static int slang_dl_err;

static void slang_dl__open(void)
{
	void *h = dlopen(SLANG_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		pr_debug("TUI: %s\n", dlerror());
		slang_dl_err = -ENOENT;
		return;
	}
	/* the names as symbols: the macros of slang-dl.h must not apply */
#define SLANG_DL_SYM(name)							\
	if (!(slang_dl.dl_##name = (__typeof__(slang_dl.dl_##name))dlsym(h, #name))) { \
		pr_debug("TUI: %s has no %s\n", SLANG_SONAME, #name);		\
		slang_dl_err = -ENOENT;					\
	}
	SLANG_DL_FUNCS(SLANG_DL_SYM)
	SLANG_DL_VARS(SLANG_DL_SYM)
#undef SLANG_DL_SYM
	/* on failure the handle stays: nothing of it is used, and a
	 * partly resolved table is never called (slang_dl_err) */
}

int slang_dl__load(void)
{
	pthread_once(&slang_dl_once, slang_dl__open);
	return slang_dl_err;
}
