// SPDX-License-Identifier: GPL-2.0
/* CSV and JSON writer; see out.h. */
#include <math.h>
#include <string.h>
#include "out.h"

void out__init(struct out *w, FILE *fp, enum out_mode mode, const char *sep)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
	w->mode = mode;
	w->sep = sep ? sep : ",";
}

void json__write_string(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', fp);
	for (; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		case '\b': fputs("\\b", fp); break;
		case '\f': fputs("\\f", fp); break;
		default:
			if (*p < 0x20)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
}

/* Separator and key before a value at the current depth. */
static void out__key(struct out *w, const char *key)
{
	if (w->mode == OUT_CSV) {
		if (w->need_comma[w->depth])
			fputs(w->sep, w->fp);
		w->need_comma[w->depth] = true;
		return;
	}
	if (w->need_comma[w->depth])
		fputs(", ", w->fp);
	w->need_comma[w->depth] = true;
	if (key) {
		json__write_string(w->fp, key);
		fputs(" : ", w->fp);
	}
}

static void out__open(struct out *w, const char *key, char c)
{
	if (w->mode != OUT_JSON)
		return;
	out__key(w, key);
	fputc(c, w->fp);
	if (w->depth + 1 < OUT_MAX_DEPTH)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void out__close(struct out *w, char c)
{
	if (w->mode != OUT_JSON)
		return;
	if (w->depth > 0)
		w->depth--;
	fputc(c, w->fp);
}

void out__begin_record(struct out *w)
{
	w->depth = 0;
	w->need_comma[0] = false;
	if (w->mode == OUT_JSON) {
		fputc('{', w->fp);
		w->depth = 1;
		w->need_comma[1] = false;
	}
}

void out__end_record(struct out *w)
{
	if (w->mode == OUT_JSON) {
		while (w->depth > 1)
			out__close(w, '}');
		fputc('}', w->fp);
	}
	w->depth = 0;
	w->need_comma[0] = false;
	fputc('\n', w->fp);
}

void out__begin_object(struct out *w, const char *key) { out__open(w, key, '{'); }
void out__end_object(struct out *w) { out__close(w, '}'); }
void out__begin_array(struct out *w, const char *key) { out__open(w, key, '['); }
void out__end_array(struct out *w) { out__close(w, ']'); }

void out__field_str(struct out *w, const char *key, const char *val)
{
	out__key(w, key);
	if (w->mode == OUT_JSON)
		json__write_string(w->fp, val ? val : "");
	else
		fputs(val ? val : "", w->fp);
}

void out__field_u64(struct out *w, const char *key, uint64_t val)
{
	out__key(w, key);
	fprintf(w->fp, "%llu", (unsigned long long)val);
}

void out__field_s64(struct out *w, const char *key, int64_t val)
{
	out__key(w, key);
	fprintf(w->fp, "%lld", (long long)val);
}

void out__field_double(struct out *w, const char *key, const char *fmt, double val)
{
	out__key(w, key);
	if (w->mode == OUT_JSON && !isfinite(val)) {
		fputs(isnan(val) ? "\"nan\"" : "\"inf\"", w->fp);
		return;
	}
	fprintf(w->fp, fmt, val);
}

void out__field_raw(struct out *w, const char *key, const char *raw)
{
	out__key(w, key);
	fputs(raw, w->fp);
}
