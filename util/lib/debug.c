// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "debug.h"

int verbose;

int veprintf(int level, const char *fmt, va_list ap)
{
	if (level >= 2 && verbose < level - 2)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int eprintf(int level, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = veprintf(level, fmt, ap);
	va_end(ap);
	return ret;
}
