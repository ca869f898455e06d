/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_STRBUF_H
#define PRF_LIB_STRBUF_H
/*
 * Growable NUL-terminated string (git's strbuf). buf is always valid to
 * read (points at a static "" until the first append). Append functions
 * return 0 or -ENOMEM. strbuf_release() frees; strbuf_detach() hands the
 * malloc'd string to the caller.
 */
#include <stddef.h>
#include <stdarg.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
int strbuf_grow(struct strbuf *sb, size_t extra);
int strbuf_add(struct strbuf *sb, const void *data, size_t len);
int strbuf_addstr(struct strbuf *sb, const char *s);
int strbuf_addch(struct strbuf *sb, int c);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int strbuf_addvf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);

#endif
