/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_DEBUG_H
#define PRF_LIB_DEBUG_H
/*
 * Logging for every layer below builtin/. Messages go to stderr.
 * pr_err/pr_warning always print; pr_info prints unless quiet;
 * pr_debug prints with -v, pr_debug2 with -vv.
 */
#include <stdarg.h>

/* Verbosity: 0 default, 1 = -v, 2 = -vv; -1 = quiet (-q). Set by builtins. */
extern int verbose;

/* Print fmt at the given level (0 err, 1 warning, 2 info, 3 debug, 4 debug2). */
int eprintf(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int veprintf(int level, const char *fmt, va_list ap);

#define pr_err(fmt, ...)     eprintf(0, fmt, ##__VA_ARGS__)
#define pr_warning(fmt, ...) eprintf(1, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)    eprintf(2, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)   eprintf(3, fmt, ##__VA_ARGS__)
#define pr_debug2(fmt, ...)  eprintf(4, fmt, ##__VA_ARGS__)

#endif
