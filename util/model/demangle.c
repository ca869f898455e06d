// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol demangling with libiberty (the GNU binutils demangler, as used by
 * c++filt): Itanium C++ ("_Z..."), Rust legacy ("_ZN...17h<hash>E") and
 * Rust v0 ("_R...").
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "dso.h"

bool name__mangled(const char *name)
{
	return name && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

char *demangle_sym(const char *name, bool params)
{
	int flags = params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;

	if (!name__mangled(name))
		return NULL;
#ifdef DMGL_RUST
	if (name[1] == 'R')
		flags |= DMGL_RUST;
	else if (strstr(name, "17h") && name[strlen(name) - 1] == 'E')
		flags |= DMGL_AUTO;	/* legacy Rust: libiberty detects and strips the hash */
#endif
	return cplus_demangle(name, flags);
}
