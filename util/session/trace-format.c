// SPDX-License-Identifier: GPL-2.0
/* Tracepoint payload formatting with libtraceevent; see trace-format.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "trace-format.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../kernel/evsel.h"
#include "session.h"
#include "../format/trace-data.h"

struct tf_cache {
	const struct evsel *evsel;
	struct tep_event *event;	/* NULL: looked up, not found */
};

struct trace_formatter {
	struct tep_handle *tep;
	bool has_data;			/* formats came from tracing data */
	struct tf_cache *cache;
	int nr_cache, alloc_cache;
	struct trace_seq seq;
	/* interned trace texts: open addressing, power-of-two size */
	char **strs;
	size_t nr_strs, size_strs;
};

struct trace_formatter *trace_formatter__new(const void *data, size_t size, int *err)
{
	struct trace_formatter *tf = zalloc(sizeof(*tf));
	int e = 0;

	if (!tf) {
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	if (data && size) {
		tf->tep = trace_data__parse(data, size, &e);
		tf->has_data = tf->tep != NULL;
	} else {
		tf->tep = tep_alloc();
		e = tf->tep ? 0 : -ENOMEM;
	}
	if (!tf->tep) {
		free(tf);
		if (err)
			*err = e ? e : -ENOMEM;
		return NULL;
	}
	trace_seq_init(&tf->seq);
	if (err)
		*err = 0;
	return tf;
}

struct trace_formatter *trace_formatter__new_session(struct perf_session *session)
{
	struct trace_formatter *tf = NULL;
	int err = 0;

	if (session && session->data.env.tracing_data && session->data.env.tracing_data_size) {
		tf = trace_formatter__new(session->data.env.tracing_data,
					  (size_t)session->data.env.tracing_data_size, &err);
		if (!tf && err != -ENOMEM)
			pr_warning("Warning: %s: corrupt tracing data, using this machine's tracepoint formats\n",
				   session->data.path ? session->data.path : "input");
	}
	if (!tf)
		tf = trace_formatter__new(NULL, 0, NULL);
	return tf;
}

void trace_formatter__delete(struct trace_formatter *tf)
{
	if (!tf)
		return;
	trace_seq_destroy(&tf->seq);
	for (size_t i = 0; i < tf->size_strs; i++)
		free(tf->strs[i]);
	free(tf->strs);
	tep_free(tf->tep);
	free(tf->cache);
	free(tf);
}

struct tep_handle *trace_formatter__tep(struct trace_formatter *tf)
{
	return tf ? tf->tep : NULL;
}

/* sys and name of a tracepoint evsel into the buffers; false if unknown. */
static bool evsel_tp_name(struct evsel *evsel, char *sys, size_t ssz, char *name, size_t nsz)
{
	const char *n, *colon;

	if (evsel->tp_sys && evsel->tp_name) {
		snprintf(sys, ssz, "%s", evsel->tp_sys);
		snprintf(name, nsz, "%s", evsel->tp_name);
		return true;
	}
	n = evsel__name(evsel);
	colon = n ? strchr(n, ':') : NULL;
	if (!colon || colon == n || (size_t)(colon - n) >= ssz)
		return false;
	memcpy(sys, n, (size_t)(colon - n));
	sys[colon - n] = '\0';
	snprintf(name, nsz, "%s", colon + 1);
	/* drop modifiers such as ":u" or "/.../" that are not part of the name */
	name[strcspn(name, ":/")] = '\0';
	return name[0] != '\0';
}

bool trace_formatter__evsel_is(struct evsel *evsel, const char *sys, const char *name)
{
	char s[128], n[128];

	if (!evsel || evsel->attr.type != PERF_TYPE_TRACEPOINT ||
	    !evsel_tp_name(evsel, s, sizeof(s), n, sizeof(n)))
		return false;
	return !strcmp(s, sys) && !strcmp(n, name);
}

static struct tep_event *lookup_event(struct trace_formatter *tf, struct evsel *evsel)
{
	struct tep_event *ev = NULL;
	char sys[128], name[128];
	bool named = evsel_tp_name(evsel, sys, sizeof(sys), name, sizeof(name));

	if (tf->has_data) {
		ev = tep_find_event(tf->tep, (int)evsel->attr.config);
		/* ids are per boot: trust the id only when the name agrees */
		if (ev && named && (strcmp(ev->system, sys) || strcmp(ev->name, name)))
			ev = NULL;
	}
	if (!ev && named)
		ev = tep_find_event_by_name(tf->tep, sys, name);
	if (!ev && named && !trace_data__add_local_event(tf->tep, sys, name))
		ev = tep_find_event_by_name(tf->tep, sys, name);
	if (!ev)
		pr_debug("no tracepoint format for event %s\n", evsel__name(evsel));
	return ev;
}

struct tep_event *trace_formatter__event(struct trace_formatter *tf, struct evsel *evsel)
{
	struct tep_event *ev;

	if (!tf || !evsel || evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return NULL;
	for (int i = 0; i < tf->nr_cache; i++)
		if (tf->cache[i].evsel == evsel)
			return tf->cache[i].event;
	ev = lookup_event(tf, evsel);
	if (tf->nr_cache == tf->alloc_cache) {
		int n = tf->alloc_cache ? tf->alloc_cache * 2 : 8;
		struct tf_cache *c = realloc(tf->cache, (size_t)n * sizeof(*c));

		if (!c)
			return ev;
		tf->cache = c;
		tf->alloc_cache = n;
	}
	tf->cache[tf->nr_cache].evsel = evsel;
	tf->cache[tf->nr_cache].event = ev;
	tf->nr_cache++;
	return ev;
}

int trace_formatter__field_names(struct trace_formatter *tf, struct evsel *evsel,
				 void (*fn)(const char *name, void *arg), void *arg)
{
	struct tep_event *ev = trace_formatter__event(tf, evsel);
	int n = 0;

	if (!ev)
		return -ENOENT;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next, n++)
		fn(f->name, arg);
	return n;
}

const char *trace_formatter__info(struct trace_formatter *tf, struct evsel *evsel,
				  const struct perf_sample *sample)
{
	struct tep_event *ev;
	struct tep_record rec;

	if (!sample->raw_data || !sample->raw_size)
		return NULL;
	ev = trace_formatter__event(tf, evsel);
	if (!ev)
		return NULL;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = (int)sample->cpu;
	rec.ts = sample->time;
	rec.size = (int)sample->raw_size;
	rec.data = (void *)sample->raw_data;
	trace_seq_reset(&tf->seq);
	tep_print_event(ev->tep, &tf->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&tf->seq);
	return tf->seq.buffer ? tf->seq.buffer : "";
}

int trace_formatter__field_ref(struct trace_formatter *tf, struct evsel *evsel,
			       const char *name, struct trace_field *ref)
{
	struct tep_event *ev = trace_formatter__event(tf, evsel);
	struct tep_format_field *f = ev ? tep_find_any_field(ev, name) : NULL;

	*ref = (struct trace_field){ .kind = TRACE_FIELD_NONE };
	if (!f)
		return -ENOENT;
	ref->offset = f->offset;
	ref->size = f->size;
	ref->is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	ref->swap = tep_is_file_bigendian(tf->tep) != tep_is_local_bigendian(tf->tep);
	if (f->offset < 0 || f->size < 0)
		ref->kind = TRACE_FIELD_OTHER;
	else if (f->flags & TEP_FIELD_IS_DYNAMIC)
		ref->kind = f->flags & TEP_FIELD_IS_RELATIVE ? TRACE_FIELD_REL : TRACE_FIELD_DYN;
	else if (f->flags & TEP_FIELD_IS_ARRAY)
		ref->kind = TRACE_FIELD_ARRAY;
	else if (!(f->flags & TEP_FIELD_IS_STRING) &&
		 (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8))
		ref->kind = TRACE_FIELD_NUM;
	else
		ref->kind = TRACE_FIELD_OTHER;
	return 0;
}

/* An unsigned integer of size 1, 2, 4 or 8 bytes at p, in the file's
 * byte order (swap: not the host's). False for another size. */
static bool read_uint(const char *p, int size, bool swap, uint64_t *v)
{
	uint16_t v2;
	uint32_t v4;
	uint64_t v8;

	switch (size) {
	case 1:
		*v = *(const uint8_t *)p;
		return true;
	case 2:
		memcpy(&v2, p, 2);
		*v = swap ? __builtin_bswap16(v2) : v2;
		return true;
	case 4:
		memcpy(&v4, p, 4);
		*v = swap ? __builtin_bswap32(v4) : v4;
		return true;
	case 8:
		memcpy(&v8, p, 8);
		*v = swap ? __builtin_bswap64(v8) : v8;
		return true;
	default:
		return false;
	}
}

/* The field's bytes lie in the sample's payload. */
static int field_in_payload(const struct trace_field *ref, const struct perf_sample *sample)
{
	if (ref->kind == TRACE_FIELD_NONE)
		return -ENOENT;
	if (!sample->raw_data || ref->kind == TRACE_FIELD_OTHER ||
	    (uint64_t)ref->offset + (uint64_t)ref->size > sample->raw_size)
		return -EINVAL;
	return 0;
}

int trace_field__u64(const struct trace_field *ref, const struct perf_sample *sample,
		     uint64_t *val)
{
	uint64_t v;
	int err = field_in_payload(ref, sample);

	if (err)
		return err;
	if (ref->kind != TRACE_FIELD_NUM ||
	    !read_uint((const char *)sample->raw_data + ref->offset, ref->size, ref->swap, &v))
		return -EINVAL;
	if (ref->is_signed && ref->size < 8) {
		int shift = 64 - 8 * ref->size;

		v = (uint64_t)(((int64_t)(v << shift)) >> shift);
	}
	*val = v;
	return 0;
}

int trace_field__str(const struct trace_field *ref, const struct perf_sample *sample,
		     char *buf, size_t size)
{
	const char *data = sample->raw_data;
	uint64_t loc;
	size_t off, len;
	int err;

	if (!size)
		return -EINVAL;
	err = field_in_payload(ref, sample);
	if (err)
		return err;
	switch (ref->kind) {
	case TRACE_FIELD_DYN:
	case TRACE_FIELD_REL:
		if (!read_uint(data + ref->offset, ref->size, ref->swap, &loc))
			return -EINVAL;
		off = loc & 0xffff;
		len = (loc >> 16) & 0xffff;
		if (ref->kind == TRACE_FIELD_REL)
			off += (size_t)ref->offset + (size_t)ref->size;
		break;
	case TRACE_FIELD_ARRAY:
		off = (size_t)ref->offset;
		len = (size_t)ref->size;
		break;
	default:
		return -EINVAL;
	}
	if (off + len > sample->raw_size)
		return -EINVAL;
	len = strnlen(data + off, len);
	if (len >= size)
		len = size - 1;
	memcpy(buf, data + off, len);
	buf[len] = '\0';
	return 0;
}

int trace_formatter__field_u64(struct trace_formatter *tf, struct evsel *evsel,
			       const struct perf_sample *sample, const char *field, uint64_t *val)
{
	struct trace_field ref;

	trace_formatter__field_ref(tf, evsel, field, &ref);
	return trace_field__u64(&ref, sample, val);
}

int trace_formatter__field_str(struct trace_formatter *tf, struct evsel *evsel,
			       const struct perf_sample *sample, const char *field,
			       char *buf, size_t size)
{
	struct trace_field ref;

	if (!size)
		return -EINVAL;
	trace_formatter__field_ref(tf, evsel, field, &ref);
	return trace_field__str(&ref, sample, buf, size);
}

static size_t str_hash(const char *s)
{
	size_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int intern_grow(struct trace_formatter *tf)
{
	size_t n = tf->size_strs ? tf->size_strs * 2 : 256;
	char **v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < tf->size_strs; i++) {
		size_t j;

		if (!tf->strs[i])
			continue;
		for (j = str_hash(tf->strs[i]) & (n - 1); v[j]; j = (j + 1) & (n - 1))
			;
		v[j] = tf->strs[i];
	}
	free(tf->strs);
	tf->strs = v;
	tf->size_strs = n;
	return 0;
}

const char *trace_formatter__info_intern(struct trace_formatter *tf, struct evsel *evsel,
					 const struct perf_sample *sample)
{
	const char *s = trace_formatter__info(tf, evsel, sample);
	size_t j;

	if (!s)
		s = "N/A";
	if ((tf->nr_strs + 1) * 2 > tf->size_strs && intern_grow(tf))
		return NULL;
	for (j = str_hash(s) & (tf->size_strs - 1); tf->strs[j]; j = (j + 1) & (tf->size_strs - 1))
		if (!strcmp(tf->strs[j], s))
			return tf->strs[j];
	tf->strs[j] = strdup(s);
	if (!tf->strs[j])
		return NULL;
	tf->nr_strs++;
	return tf->strs[j];
}
