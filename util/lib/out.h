/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_OUT_H
#define PRF_LIB_OUT_H
/*
 * One output writer with CSV and JSON back ends (bpftool style). Commands
 * emit records as a sequence of named fields; the writer handles the
 * separator (CSV) or keys, quoting, escaping and commas (JSON). Human text
 * output stays with each command's printer, which shares the same record
 * walk and calls the writer only in the machine-readable modes.
 *
 * CSV mode: out__begin_record(); fields are joined with `sep`; the key is
 * ignored; out__end_record() writes '\n'.
 * JSON mode: a record is one object on one line ({"k" : v, ...}\n), the
 * layout `perf stat -j` uses; nested objects/arrays are available.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum out_mode { OUT_HUMAN, OUT_CSV, OUT_JSON };

#define OUT_MAX_DEPTH 16

struct out {
	FILE *fp;
	enum out_mode mode;
	const char *sep;		/* CSV separator */
	int depth;
	bool need_comma[OUT_MAX_DEPTH];
	bool pretty;			/* JSON: newline + indent per field */
};

/* Initialise; fp is not owned. sep is used in CSV mode (default ","). */
void out__init(struct out *w, FILE *fp, enum out_mode mode, const char *sep);

void out__begin_record(struct out *w);	/* CSV: nothing; JSON: "{" */
void out__end_record(struct out *w);	/* CSV/JSON: "\n" after the record */
void out__begin_object(struct out *w, const char *key);	/* key NULL inside arrays */
void out__end_object(struct out *w);
void out__begin_array(struct out *w, const char *key);
void out__end_array(struct out *w);

/* Fields. In CSV mode `key` is ignored and the value written as-is. */
void out__field_str(struct out *w, const char *key, const char *val);
void out__field_u64(struct out *w, const char *key, uint64_t val);
void out__field_s64(struct out *w, const char *key, int64_t val);
/* fmt is a printf double format such as "%.2f"; JSON emits it unquoted
 * (non-finite values become strings). */
void out__field_double(struct out *w, const char *key, const char *fmt, double val);
/* A preformatted JSON value or CSV cell written without quoting. */
void out__field_raw(struct out *w, const char *key, const char *raw);

/* Write s as a JSON string literal (with quotes) to fp. */
void json__write_string(FILE *fp, const char *s);

#endif
