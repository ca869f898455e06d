// SPDX-License-Identifier: GPL-2.0
/*
 * perf-script compatible text printer. Lines are formatted into a private
 * buffer with small hand-written number formatters (no printf per field).
 * Samples' text gathers there and is written PBUF_BATCH bytes at a time,
 * with write(2) straight to the stream's file descriptor (after flushing
 * what the stream itself holds, so the order stays): writing each
 * sample's text through stdio would copy all of it once more. A stream
 * without a descriptor
 * (open_memstream) gets fwrite. script_printer__flush() writes what is
 * gathered.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "script-print.h"
#include "../format/data.h"
#include "../format/event-detail.h"
#include "mem-src.h"
#include "../kernel/evsel.h"
#include "../kernel/evlist.h"
#include "../model/callchain.h"
#include "../model/dso.h"
#include "../model/map.h"
#include "../session/off-cpu.h"
#include "../lib/debug.h"
#include "../lib/util.h"
#include "../../arch/x86/perf_regs.h"

static const struct {
	const char *name;
	uint32_t field;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID },
	{ "time", SF_TIME }, { "cpu", SF_CPU }, { "event", SF_EVNAME },
	{ "trace", SF_TRACE }, { "ip", SF_IP }, { "sym", SF_SYM },
	{ "dso", SF_DSO }, { "addr", SF_ADDR }, { "symoff", SF_SYMOFF },
	{ "srcline", SF_SRCLINE }, { "period", SF_PERIOD },
	{ "callindent", SF_CALLINDENT }, { "iregs", SF_IREGS }, { "uregs", SF_UREGS },
	{ "data_src", SF_DATA_SRC }, { "weight", SF_WEIGHT }, { "phys_addr", SF_PHYS_ADDR },
	{ "misc", SF_MISC }, { "tod", SF_TOD }, { "flags", SF_FLAGS }, { "srccode", SF_SRCCODE },
	{ "bpf-output", SF_BPF_OUTPUT },
};

static const struct {
	const char *name;
	int slot;
} type_names[] = {
	{ "hw", PERF_TYPE_HARDWARE }, { "sw", PERF_TYPE_SOFTWARE },
	{ "trace", PERF_TYPE_TRACEPOINT }, { "raw", PERF_TYPE_RAW },
	{ "break", PERF_TYPE_BREAKPOINT },
};

const char *script_field__name(uint32_t field)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
		if (field_names[i].field == field)
			return field_names[i].name;
	return "";
}

#define SF_SAMPLE_DEFAULT (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | \
			   SF_SYM | SF_SYMOFF | SF_DSO | SF_PERIOD)

void script_fields__init(struct script_fields *sf)
{
	memset(sf, 0, sizeof(*sf));
	for (int i = 0; i < SCRIPT_NR_TYPES; i++)
		sf->fields[i] = SF_SAMPLE_DEFAULT;
	sf->fields[PERF_TYPE_TRACEPOINT] = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_TRACE;
	sf->fields[PERF_TYPE_RAW] |= SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR;
	sf->fields[PERF_TYPE_SOFTWARE] |= SF_BPF_OUTPUT;
}

int script_fields__slot(uint32_t attr_type)
{
	if (attr_type == PERF_TYPE_HW_CACHE)
		return PERF_TYPE_HARDWARE;
	return attr_type < PERF_TYPE_MAX ? (int)attr_type : SCRIPT_TYPE_OTHER;
}

static int lookup_field(const char *name, size_t len, uint32_t *field)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++) {
		if (strlen(field_names[i].name) == len && !strncmp(field_names[i].name, name, len)) {
			*field = field_names[i].field;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * perf 6.1's output types in the order its -F warnings name them, with
 * the name they are given there and prf's slot (-1: none, perf's
 * synthesized events).
 */
static const struct {
	const char *name;
	int slot;
} warn_types[] = {
	{ "hardware", PERF_TYPE_HARDWARE }, { "software", PERF_TYPE_SOFTWARE },
	{ "tracepoint", PERF_TYPE_TRACEPOINT }, { "hardware-cache", PERF_TYPE_HW_CACHE },
	{ "unknown", PERF_TYPE_RAW }, { "unknown", PERF_TYPE_BREAKPOINT },
	{ "unknown", -1 }, { "unknown", SCRIPT_TYPE_OTHER },
};

/* Fields that mean nothing for the events of a slot (perf's invalid
 * fields): a payload only tracepoints have, a BPF output only software
 * events (and tracepoints, which perf does not exclude) have. */
static uint32_t slot_invalid(int slot)
{
	if (slot == PERF_TYPE_TRACEPOINT)
		return 0;
	if (slot == PERF_TYPE_SOFTWARE)
		return SF_TRACE;
	return SF_TRACE | SF_BPF_OUTPUT;
}

static const char *slot_type_name(int slot)
{
	for (size_t i = 0; i < ARRAY_SIZE(warn_types); i++)
		if (warn_types[i].slot == slot)
			return warn_types[i].name;
	return "unknown";
}

int script_fields__parse(struct script_fields *sf, const char *spec, char *err, size_t errsz)
{
	int slot = -1;		/* -1: every type */
	const char *p = spec, *colon;
	uint32_t set[SCRIPT_NR_TYPES] = { 0 };
	bool touched[SCRIPT_NR_TYPES] = { false };	/* some field applied */
	int mode = 0;		/* 0 replace, '+' add, '-' remove */
	bool keep;		/* unsigned fields add to the current set */

	colon = strchr(spec, ':');
	if (colon) {
		size_t tlen = (size_t)(colon - spec);

		for (size_t i = 0; i < ARRAY_SIZE(type_names); i++)
			if (strlen(type_names[i].name) == tlen && !strncmp(type_names[i].name, spec, tlen))
				slot = type_names[i].slot;
		if (slot < 0) {
			snprintf(err, errsz, "Invalid event type in field string: '%.*s'", (int)tlen, spec);
			return -EINVAL;
		}
		p = colon + 1;
	}
	if (*p == '+' || *p == '-')
		mode = *p;
	keep = strpbrk(p, "+-") != NULL;
	while (*p) {
		const char *end, *name;
		uint32_t f;
		int m = mode;

		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '+' || *p == '-') {
			m = *p++;
			if (!mode) {
				snprintf(err, errsz, "Cannot mix +-field with overridden fields");
				return -EINVAL;
			}
		} else if (mode) {
			snprintf(err, errsz, "Cannot mix +-field with overridden fields");
			return -EINVAL;
		}
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (lookup_field(p, (size_t)(end - p), &f)) {
			snprintf(err, errsz, "Invalid field requested: '%.*s'", (int)(end - p), p);
			return -EINVAL;
		}
		name = script_field__name(f);
		if (slot >= 0 && (slot_invalid(slot) & f)) {
			snprintf(err, errsz, "'%s' not valid for %s events.", name, slot_type_name(slot));
			return -EINVAL;
		}
		if (slot < 0) {
			for (size_t t = 0; t < ARRAY_SIZE(warn_types); t++) {
				int ws = warn_types[t].slot;

				if (!(slot_invalid(ws < 0 ? SCRIPT_TYPE_OTHER : ws) & f))
					continue;
				pr_warning("'%s' not valid for %s events. Ignoring.\n", name,
					   warn_types[t].name);
			}
		}
		for (int i = 0; i < SCRIPT_NR_TYPES; i++) {
			if ((slot >= 0 && i != slot) || (slot_invalid(i) & f))
				continue;
			/* as perf 6.1: only fields named for every type
			 * are required of the samples; "type:f" ones
			 * the samples lack are dropped quietly */
			if (m == '+' || (!m && keep)) {
				sf->fields[i] |= f;
				if (slot < 0)
					sf->user_fields[i] |= f;
			} else if (m == '-') {
				sf->fields[i] &= ~f;
				sf->user_fields[i] &= ~f;
				sf->user_unset[i] |= f;
			}
			set[i] |= f;
			touched[i] = true;
		}
		p = end;
	}
	for (int i = 0; i < SCRIPT_NR_TYPES; i++) {
		if (slot >= 0 && i != slot)
			continue;
		/* perf: a replacing list sets every type in scope; an
		 * adding or removing one the types it applied to */
		if (!mode && !keep) {
			sf->fields[i] = set[i];
			sf->user_fields[i] = slot < 0 ? set[i] : 0;
			sf->user_set[i] = true;
		} else if (touched[i]) {
			sf->user_set[i] = true;
		}
	}
	return 0;
}

void script_fields__callchain_defaults(struct script_fields *sf, struct evlist *evlist, bool pipe)
{
	uint64_t combined = 0;
	struct evsel *evsel;

	if (pipe) {
		/* events arrive as ATTR records: each one's type gets ip and
		 * sym when the events sample callchains (or user stacks),
		 * unless the user took them out */
		evlist__for_each_entry(evlist, evsel)
			combined |= evsel->attr.sample_type;
		if (!(combined & PERF_SAMPLE_CALLCHAIN) &&
		    (combined & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)) !=
		    (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
			return;
		evlist__for_each_entry(evlist, evsel) {
			int slot = script_fields__slot(evsel->attr.type);

			sf->fields[slot] |= (SF_IP | SF_SYM) & ~sf->user_unset[slot];
		}
		return;
	}
	if (sf->user_set[PERF_TYPE_TRACEPOINT])
		return;
	evlist__for_each_entry(evlist, evsel) {
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
		    (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			sf->fields[PERF_TYPE_TRACEPOINT] |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
			return;
		}
	}
}

int script_fields__check(struct script_fields *sf, struct evsel *evsel, char *err, size_t errsz)
{
	static const struct {
		uint32_t field;
		uint64_t bit;
		const char *msg;
	} need[] = {
		{ SF_IP, PERF_SAMPLE_IP, "IP" },
		{ SF_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
		{ SF_TID, PERF_SAMPLE_TID, "TID" },
		{ SF_PID, PERF_SAMPLE_TID, "TID" },
		{ SF_TIME, PERF_SAMPLE_TIME, "TIME" },
		{ SF_CPU, PERF_SAMPLE_CPU, "CPU" },
		{ SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
		{ SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
		{ SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS" },
		{ SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS" },
		{ SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	};
	int slot = script_fields__slot(evsel->attr.type);
	uint32_t *f = &sf->fields[slot];

	for (size_t i = 0; i < ARRAY_SIZE(need); i++) {
		if (!(*f & need[i].field) || (evsel->attr.sample_type & need[i].bit))
			continue;
		if (sf->user_fields[slot] & need[i].field) {
			snprintf(err, errsz, "Samples for '%s' event do not have %s attribute set. "
				 "Cannot print '%s' field.", evsel__name(evsel), need[i].msg,
				 script_field__name(need[i].field));
			return -EINVAL;
		}
		*f &= ~need[i].field;
	}
	if ((*f & SF_SRCCODE) && !(*f & SF_IP)) {
		snprintf(err, errsz, "Display of source line number requested but sample IP is not\n"
			 "selected. Hence, no address to lookup the source line number.");
		return -EINVAL;
	}
	if ((*f & SF_SYMOFF) && !(*f & SF_SYM) && sf->user_set[slot]) {
		snprintf(err, errsz, "Display of offsets requested but symbol is not selected.");
		return -EINVAL;
	}
	return 0;
}

/* ---- line buffer ---- */

static inline int pbuf_grow(struct script_printer *p, size_t extra)
{
	if (p->len + extra <= p->alloc)
		return 0;
	size_t n = p->alloc ? p->alloc : 4096;
	while (n < p->len + extra)
		n *= 2;
	char *b = realloc(p->buf, n);
	if (!b)
		return -ENOMEM;
	p->buf = b;
	p->alloc = n;
	return 0;
}

static inline void put_mem(struct script_printer *p, const char *s, size_t n)
{
	if (pbuf_grow(p, n))
		return;
	memcpy(p->buf + p->len, s, n);
	p->len += n;
}

static inline void put_str(struct script_printer *p, const char *s)
{
	put_mem(p, s, strlen(s));
}

static inline void put_ch(struct script_printer *p, char c)
{
	if (pbuf_grow(p, 1))
		return;
	p->buf[p->len++] = c;
}

static inline void put_pad(struct script_printer *p, int n)
{
	if (n <= 0 || pbuf_grow(p, (size_t)n))
		return;
	memset(p->buf + p->len, ' ', (size_t)n);
	p->len += (size_t)n;
}

static __attribute__((format(printf, 2, 3))) void put_fmt(struct script_printer *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (pbuf_grow(p, 128))
		return;
	va_start(ap, fmt);
	n = vsnprintf(p->buf + p->len, p->alloc - p->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= p->alloc - p->len) {
		if (pbuf_grow(p, (size_t)n + 1))
			return;
		va_start(ap, fmt);
		vsnprintf(p->buf + p->len, p->alloc - p->len, fmt, ap);
		va_end(ap);
	}
	p->len += (size_t)n;
}

static const char spaces16[16] = "                ";
static const char zeros16[16] = "0000000000000000";

/* Unchecked writer (space reserved first: max(n, 16) bytes): n > 0 pad
 * chars, ' ' or '0'. */
static inline char *w_pad(char *w, int n, char pad)
{
	if (n <= 16)
		memcpy(w, pad == '0' ? zeros16 : spaces16, 16);
	else
		memset(w, pad, (size_t)n);
	return w + n;
}

/* "00" ... "99": two decimal digits per value below 100 */
static const char dec_pairs[201] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL,
	10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
	10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL
};

/* Decimal digits of v (1 for 0): about bits * log10(2), corrected once
 * (v | 1 has as many digits as v). */
static inline int dec_digits(uint64_t v)
{
	int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return t + ((v | 1) >= pow10_u64[t]);
}

/* Unchecked writer (space reserved first: max(width, 16) + 20 bytes): v
 * in decimal, right-aligned in width (0: no padding) with pad chars. */
static inline char *w_udec(char *w, uint64_t v, int width, char pad)
{
	int n = dec_digits(v);
	char *e;

	if (width > n)
		w = w_pad(w, width - n, pad);
	/* from the last digit back, two at a time */
	for (e = w + n; v >= 100; v /= 100) {
		e -= 2;
		memcpy(e, &dec_pairs[(v % 100) * 2], 2);
	}
	if (v >= 10)
		memcpy(e - 2, &dec_pairs[v * 2], 2);
	else
		e[-1] = (char)('0' + v);
	return w + n;
}

/* Right-aligned unsigned decimal in width (0: no padding), zero padding when zpad. */
static void put_udec(struct script_printer *p, uint64_t v, int width, bool zpad)
{
	if (pbuf_grow(p, (size_t)(width > 16 ? width : 16) + 20))
		return;
	p->len = (size_t)(w_udec(p->buf + p->len, v, width, zpad ? '0' : ' ') - p->buf);
}

/* Signed decimal in width, right-aligned, or left-aligned when left. */
static void put_sdec(struct script_printer *p, int64_t v, int width, bool left)
{
	bool neg = v < 0;
	uint64_t u = neg ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
	int n = dec_digits(u) + neg;
	char *w;

	if (pbuf_grow(p, 2 * (size_t)(width > 16 ? width : 16) + 21))
		return;
	w = p->buf + p->len;
	if (!left && width > n)
		w = w_pad(w, width - n, ' ');
	if (neg)
		*w++ = '-';
	w = w_udec(w, u, 0, ' ');
	if (left && width > n)
		w = w_pad(w, width - n, ' ');
	p->len = (size_t)(w - p->buf);
}

/* Eight hex digits of v as eight chars in a word, the most significant
 * digit first in memory: the nibbles spread one per byte, then turned to
 * '0'-'9' / 'a'-'f' in all bytes at once (+39 where a nibble is >= 10). */
static inline uint64_t hex8(uint32_t v)
{
	uint64_t x = v;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;	/* nibble k in byte k */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x + 0x3030303030303030ULL +
	       (((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL) * 39;
}

/* Unchecked writer (space reserved first: max(width, 16) + 16 bytes): v
 * in hex, right-aligned in width with spaces. Writes whole 16-byte
 * blocks; the bytes past the returned end are scratch. Inlined always:
 * the frame loop's two calls are most of its cost. */
static inline __attribute__((always_inline)) char *w_hex(char *w, uint64_t v, int width)
{
	/* digits: the top set bit's nibble + 1 (1 for 0) */
	int n = ((63 - __builtin_clzll(v | 1)) >> 2) + 1;
	uint64_t hi, lo;

	if (width > n)
		w = w_pad(w, width - n, ' ');
	/* the n digits at the top of an 8- or 16-digit block */
	if (n <= 8) {
		lo = hex8((uint32_t)v << 4 * (8 - n));
		memcpy(w, &lo, 8);
	} else {
		v <<= 4 * (16 - n);
		hi = hex8((uint32_t)(v >> 32));
		lo = hex8((uint32_t)v);
		memcpy(w, &hi, 8);
		memcpy(w + 8, &lo, 8);
	}
	return w + n;
}

static void put_hex(struct script_printer *p, uint64_t v, int width)
{
	if (pbuf_grow(p, (size_t)(width > 16 ? width : 16) + 16))
		return;
	p->len = (size_t)(w_hex(p->buf + p->len, v, width) - p->buf);
}

#define PBUF_BATCH (64u << 10)	/* bytes of samples' text written at once */

/* Write n bytes at s to the stream, in order after what it holds. */
static int out_write(struct script_printer *p, const char *s, size_t n)
{
	if (p->fd < 0) {
		if (n && fwrite(s, 1, n, p->fp) != n)
			return errno == EPIPE ? -EPIPE : -EIO;
	} else if (n) {
		int err;

		if (fflush(p->fp))
			return errno == EPIPE ? -EPIPE : -EIO;
		err = writen(p->fd, s, n);
		if (err)
			return err == -EPIPE ? -EPIPE : -EIO;
	}
	if (ferror(p->fp))
		return errno == EPIPE ? -EPIPE : -EIO;
	return 0;
}

/* Write the gathered text. */
static int pbuf_drain(struct script_printer *p)
{
	size_t n = p->len;

	p->len = 0;
	return out_write(p, p->buf, n);
}

/* ---- time-ordering queue (script_printer__set_reorder) ---- */

/* Records printed in time order: a FIFO for those that come in order (the
 * common case, appended) and a min-heap for those older than the FIFO's
 * tail (late records, e.g. off-CPU spans finished at switch-in). */
struct rq_fifo_entry {
	uint64_t time;
	size_t off, len;	/* in fbuf */
};

struct rq_heap_entry {
	uint64_t time, seq;
	char *data;
	size_t len;
};

struct script_reorder {
	char *fbuf;
	size_t fhead, flen, falloc;	/* bytes [fhead, flen) queued */
	struct rq_fifo_entry *fe;
	size_t fe_head, fe_nr, fe_alloc;
	struct rq_heap_entry *heap;
	size_t heap_nr, heap_alloc;
	uint64_t seq;
	size_t bytes;			/* queued in all */
	bool overflowed;
};

#define REORDER_MAX_BYTES (256UL << 20)

static bool rq_less(const struct rq_heap_entry *a, const struct rq_heap_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int rq_heap_push(struct script_reorder *q, uint64_t time, const char *data, size_t len)
{
	struct rq_heap_entry e = { time, q->seq++, malloc(len ? len : 1), len };
	size_t i;

	if (!e.data)
		return -ENOMEM;
	memcpy(e.data, data, len);
	if (q->heap_nr == q->heap_alloc) {
		size_t n = q->heap_alloc ? q->heap_alloc * 2 : 64;
		struct rq_heap_entry *h = realloc(q->heap, n * sizeof(*h));

		if (!h) {
			free(e.data);
			return -ENOMEM;
		}
		q->heap = h;
		q->heap_alloc = n;
	}
	for (i = q->heap_nr++; i > 0; i = (i - 1) / 2) {
		size_t parent = (i - 1) / 2;

		if (!rq_less(&e, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
	}
	q->heap[i] = e;
	return 0;
}

static void rq_heap_pop(struct script_reorder *q)
{
	struct rq_heap_entry last = q->heap[--q->heap_nr];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->heap_nr)
			break;
		if (c + 1 < q->heap_nr && rq_less(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!rq_less(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->heap_nr)
		q->heap[i] = last;
}

static int rq_fifo_push(struct script_reorder *q, uint64_t time, const char *data, size_t len)
{
	if (q->fe_head == q->fe_nr) {		/* empty: start over */
		q->fe_head = q->fe_nr = 0;
		q->fhead = q->flen = 0;
	}
	if (q->flen + len > q->falloc) {
		size_t live = q->flen - q->fhead, n = q->falloc ? q->falloc : 1 << 16;

		if (q->fhead) {		/* compact */
			memmove(q->fbuf, q->fbuf + q->fhead, live);
			for (size_t i = q->fe_head; i < q->fe_nr; i++)
				q->fe[i].off -= q->fhead;
			q->fhead = 0;
			q->flen = live;
		}
		while (n < q->flen + len)
			n *= 2;
		if (n > q->falloc) {
			char *b = realloc(q->fbuf, n);

			if (!b)
				return -ENOMEM;
			q->fbuf = b;
			q->falloc = n;
		}
	}
	if (q->fe_nr == q->fe_alloc) {
		if (q->fe_head) {
			memmove(q->fe, q->fe + q->fe_head, (q->fe_nr - q->fe_head) * sizeof(*q->fe));
			q->fe_nr -= q->fe_head;
			q->fe_head = 0;
		}
		if (q->fe_nr == q->fe_alloc) {
			size_t n = q->fe_alloc ? q->fe_alloc * 2 : 1024;
			struct rq_fifo_entry *e = realloc(q->fe, n * sizeof(*e));

			if (!e)
				return -ENOMEM;
			q->fe = e;
			q->fe_alloc = n;
		}
	}
	memcpy(q->fbuf + q->flen, data, len);
	q->fe[q->fe_nr++] = (struct rq_fifo_entry){ time, q->flen, len };
	q->flen += len;
	q->seq++;
	return 0;
}

static int rq_write(struct script_printer *p, const char *data, size_t len)
{
	if (len && fwrite(data, 1, len, p->fp) != len)
		return errno == EPIPE ? -EPIPE : -EIO;
	return 0;
}

int script_printer__flush(struct script_printer *p, uint64_t limit)
{
	struct script_reorder *q = p->reorder;
	int err = pbuf_drain(p);

	if (!q)
		return err;
	while (!err) {
		bool have_f = q->fe_head < q->fe_nr, have_h = q->heap_nr > 0;

		if (have_h && (!have_f || q->heap[0].time < q->fe[q->fe_head].time)) {
			struct rq_heap_entry *e = &q->heap[0];

			if (e->time >= limit)
				break;
			err = rq_write(p, e->data, e->len);
			q->bytes -= e->len;
			free(e->data);
			rq_heap_pop(q);
		} else if (have_f) {
			struct rq_fifo_entry *e = &q->fe[q->fe_head];

			if (e->time >= limit)
				break;
			err = rq_write(p, q->fbuf + e->off, e->len);
			q->bytes -= e->len;
			q->fhead += e->len;
			q->fe_head++;
		} else {
			break;
		}
	}
	if (!err && ferror(p->fp))
		err = errno == EPIPE ? -EPIPE : -EIO;
	return err;
}

static void reorder__free(struct script_reorder *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->heap_nr; i++)
		free(q->heap[i].data);
	free(q->heap);
	free(q->fe);
	free(q->fbuf);
	free(q);
}

int script_printer__set_reorder(struct script_printer *p, bool on)
{
	int err = 0;

	if (on && !p->reorder) {
		/* the queue takes each record's text alone from the buffer */
		err = pbuf_drain(p);
		if (err)
			return err;
		p->reorder = zalloc(sizeof(*p->reorder));
		return p->reorder ? 0 : -ENOMEM;
	}
	if (!on && p->reorder) {
		err = script_printer__flush(p, UINT64_MAX);
		reorder__free(p->reorder);
		p->reorder = NULL;
	}
	return err;
}

/* The record in the line buffer is done: written, or queued by time. */
static int pbuf_emit(struct script_printer *p, uint64_t time)
{
	struct script_reorder *q = p->reorder;
	struct rq_fifo_entry *tail;
	int err;

	if (!q)
		return p->len >= PBUF_BATCH || p->unbatched ? pbuf_drain(p) : 0;
	tail = q->fe_head < q->fe_nr ? &q->fe[q->fe_nr - 1] : NULL;
	if (!tail || time >= tail->time)
		err = rq_fifo_push(q, time, p->buf, p->len);
	else
		err = rq_heap_push(q, time, p->buf, p->len);
	if (!err)
		q->bytes += p->len;
	p->len = 0;
	if (!err && q->bytes > REORDER_MAX_BYTES) {
		/* bounded memory: write what is queued; records that come
		 * later with older times then print out of order */
		if (!q->overflowed)
			pr_warning("prf script: more than %lu MiB of output waiting for time order; "
				   "later off-CPU samples may be out of order\n", REORDER_MAX_BYTES >> 20);
		q->overflowed = true;
		err = script_printer__flush(p, UINT64_MAX);
	}
	return err;
}

int script_printer__init(struct script_printer *p, FILE *fp, struct script_fields *fields)
{
	memset(p, 0, sizeof(*p));
	p->fp = fp;
	p->fd = fileno(fp);
	p->fields = fields;
	return pbuf_grow(p, PBUF_BATCH + 4096);
}

/*
 * The text of callchains printed before, by the cursor's chain_id (the
 * very same frames, callchain.h) and the fields: a repeated chain is
 * copied instead of formatted frame by frame (a DWARF recording of a
 * python loop has 14 K samples and 600 distinct chains). Direct-mapped,
 * each slot replaced on collision; at most CHAIN_TEXTS_MAX_BYTES of text
 * in all, chains past CHAIN_TEXT_MAX bytes are not kept.
 */
#define CHAIN_TEXTS_SLOTS 1024
#define CHAIN_TEXT_MAX (16u << 10)
#define CHAIN_TEXTS_MAX_BYTES (8u << 20)

struct chain_text {
	uint64_t chain_id;	/* 0: empty */
	uint32_t fields;
	uint32_t len, cap;
	char *text;
};

struct chain_texts {
	size_t bytes;		/* text capacity held by all slots */
	struct chain_text slot[CHAIN_TEXTS_SLOTS];
};

static struct chain_text *chain_text__slot(struct script_printer *p, uint64_t id)
{
	if (!p->chain_texts && !(p->chain_texts = zalloc_written(sizeof(*p->chain_texts))))
		return NULL;
	return &p->chain_texts->slot[(id * 0x9e3779b97f4a7c15ULL) >> 54];
}

/* Keep the len bytes at text as the chain id's, printed with fields f. */
static void chain_text__store(struct chain_texts *ct, struct chain_text *t, uint64_t id,
			      uint32_t f, const char *text, size_t len)
{
	t->chain_id = 0;
	if (len > CHAIN_TEXT_MAX)
		return;
	if (t->cap < len) {
		size_t cap = len < 256 ? 256 : len;
		char *n;

		if (ct->bytes - t->cap + cap > CHAIN_TEXTS_MAX_BYTES || !(n = realloc(t->text, cap)))
			return;
		ct->bytes += cap - t->cap;
		t->text = n;
		t->cap = (uint32_t)cap;
	}
	memcpy(t->text, text, len);
	t->len = (uint32_t)len;
	t->fields = f;
	t->chain_id = id;
}

static void chain_texts__free(struct chain_texts *ct)
{
	for (size_t i = 0; ct && i < CHAIN_TEXTS_SLOTS; i++)
		free(ct->slot[i].text);
	free(ct);
}

int script_printer__set_output(struct script_printer *p, FILE *fp)
{
	int err = pbuf_drain(p);

	if (!err && fflush(p->fp))
		err = errno == EPIPE ? -EPIPE : -EIO;
	p->fp = fp;
	p->fd = fileno(fp);
	return err;
}

void script_printer__exit(struct script_printer *p)
{
	if (p->len)	/* gathered text the caller did not flush */
		pbuf_drain(p);
	chain_texts__free(p->chain_texts);
	p->chain_texts = NULL;
	reorder__free(p->reorder);
	p->reorder = NULL;
	zfree(&p->buf);
	p->len = p->alloc = 0;
}

void script_printer__set_evlist(struct script_printer *p, struct evlist *evlist)
{
	struct evsel *evsel;
	int w = 0;

	evlist__for_each_entry(evlist, evsel) {
		int l = (int)strlen(evsel__name(evsel));

		if (l > w)
			w = l;
	}
	p->name_width = w;
}

uint64_t script_frame__print_addr(const struct callchain_frame *frame)
{
	const struct map *map = frame->map;

	if (!map || !map->dso)
		return frame->ip;
	if (map->dso->kind == DSO_KERNEL || map->dso->kind == DSO_KMODULE)
		return frame->ip;
	return frame->ip - map->start + map->pgoff;
}

/* " sym+0xoff (dso)" part of a frame, by the fields asked for. */
static void put_frame_sym(struct script_printer *p, uint32_t f, const struct callchain_frame *fr)
{
	if (f & SF_SYM) {
		put_ch(p, ' ');
		if (fr->sym) {
			put_mem(p, fr->sym->name, symbol__name_len(fr->sym));
			if (f & SF_SYMOFF) {
				put_str(p, "+0x");
				put_hex(p, fr->addr - fr->sym->start, 0);
			}
		} else {
			put_str(p, "[unknown]");
		}
	}
	if (f & SF_DSO) {
		put_str(p, " (");
		if (fr->map && fr->map->dso)
			put_mem(p, fr->map->dso->long_name, dso__long_name_len(fr->map->dso));
		else
			put_str(p, "[unknown]");
		put_ch(p, ')');
	}
}

/*
 * -F misc as perf 6.1 prints it: a letter per cpumode its bits match
 * (K, U, H, G, g: each compared as a whole mask, so a hypervisor sample
 * shows "KUH"), then M (data mmap), E (exec comm) or S/Sp (switch out,
 * preempted) by record type, padded to six columns.
 */
static void put_misc(struct script_printer *p, uint32_t type, uint16_t misc)
{
	static const struct { uint16_t mask; char c; } modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if ((misc & modes[i].mask) == modes[i].mask) {
			put_ch(p, modes[i].c);
			n++;
		}
	}
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (misc & PERF_RECORD_MISC_MMAP_DATA) {
			put_ch(p, 'M');
			n++;
		}
		break;
	case PERF_RECORD_COMM:
		if (misc & PERF_RECORD_MISC_COMM_EXEC) {
			put_ch(p, 'E');
			n++;
		}
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT) {
			put_ch(p, 'S');
			n++;
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
				put_ch(p, 'p');
				n++;
			}
		}
		break;
	default:
		break;
	}
	put_pad(p, n < 5 ? 6 - n : 1);
}

void script_printer__tod(const struct script_printer *p, uint64_t time, char *buf, size_t size)
{
	uint64_t ns = p->tod_ns;
	time_t secs;
	struct tm tm;
	size_t n;

	if (time > p->tod_clock_ns)
		ns += time - p->tod_clock_ns;
	else
		ns -= p->tod_clock_ns - time;
	secs = (time_t)(ns / 1000000000ULL);
	if (!localtime_r(&secs, &tm) || !(n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))) {
		snprintf(buf, size, "?");
		return;
	}
	if (p->nanosecs)
		snprintf(buf + n, size - n, ".%09" PRIu64, (uint64_t)(ns % 1000000000ULL));
	else
		snprintf(buf + n, size - n, ".%06" PRIu64, (uint64_t)(ns % 1000000000ULL / 1000));
}

/* The prefix of a line; chain: the evsel samples callchains (perf prints
 * the comm unpadded only then, in the callchain layout, with ip shown). */
static void put_start(struct script_printer *p, uint32_t f, const struct perf_sample *sample,
		      const char *comm, uint32_t type, bool chain)
{
	if (f & SF_COMM) {
		if (p->latency) {	/* -L: "%8.8s" */
			size_t n = strlen(comm);

			put_pad(p, 8 - (int)n);
			put_mem(p, comm, n < 8 ? n : 8);
		} else if (p->use_callchain && chain && (f & SF_IP)) {
			put_str(p, comm);
		} else {
			put_pad(p, 16 - (int)strlen(comm));
			put_str(p, comm);
		}
		put_ch(p, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		put_sdec(p, (int32_t)sample->pid, 5, false);
		put_ch(p, '/');
		put_sdec(p, (int32_t)sample->tid, 5, true);
		put_ch(p, ' ');
	} else if (f & SF_PID) {
		put_sdec(p, (int32_t)sample->pid, 5, false);
		put_ch(p, ' ');
	} else if (f & SF_TID) {
		put_sdec(p, (int32_t)sample->tid, 5, false);
		put_ch(p, ' ');
	}
	if (f & SF_CPU) {
		if (p->latency) {
			put_sdec(p, (int32_t)sample->cpu, 3, false);
			put_ch(p, ' ');
		} else {
			put_ch(p, '[');
			put_udec(p, sample->cpu, 3, true);
			put_str(p, "] ");
		}
	}
	if (f & (SF_MISC | SF_TOD)) {
		if (f & SF_MISC)
			put_misc(p, type, sample->misc);
		if (f & SF_TOD) {
			char tod[64];

			script_printer__tod(p, sample->time, tod, sizeof(tod));
			put_str(p, tod);
			put_ch(p, ' ');
		}
	}
	if (f & SF_TIME) {
		uint64_t t = sample->time, secs, ns;

		/* --reltime: since the first record printed; --deltatime:
		 * since the previous one (0 for the first) */
		if (p->reltime) {
			if (!p->first_time)
				p->first_time = t;
			t -= p->first_time;
		} else if (p->deltatime) {
			uint64_t prev = p->prev_time;

			p->prev_time = t;
			t = prev ? t - prev : 0;
		}
		secs = t / 1000000000ULL;
		ns = t % 1000000000ULL;

		if (p->nanosecs) {
			put_udec(p, secs, 5, false);
			put_ch(p, '.');
			put_udec(p, ns, 9, true);
		} else {
			/* "%lu.%06lu" right-aligned in 12 columns */
			put_pad(p, 12 - (dec_digits(secs) + 7));
			put_udec(p, secs, 0, false);
			put_ch(p, '.');
			put_udec(p, ns / 1000, 6, true);
		}
		put_str(p, ": ");
	}
}

/* " sym+0xoff (dso)" of a page fault's address (-F addr with sym/dso). */
static void put_addr_sym(struct script_printer *p, uint32_t f)
{
	if (f & SF_SYM) {
		put_ch(p, ' ');
		put_str(p, p->addr_has_sym ? p->addr_sym : "[unknown]");
		if (p->addr_has_sym && (f & SF_SYMOFF)) {
			put_str(p, "+0x");
			put_hex(p, p->addr_symoff, 0);
		}
	}
	if (f & SF_DSO) {
		put_str(p, " (");
		put_str(p, p->addr_dso);
		put_ch(p, ')');
	}
}

/* -F data_src ("%16lx decoded", left-aligned to the widest so far, as
 * perf pads it) and -F weight ("%16lu"). */
static void put_mem_info(struct script_printer *p, uint32_t f, const struct perf_sample *sample)
{
	if (f & SF_DATA_SRC) {
		char decode[512], out[560];
		int n;

		mem_src__decode(sample->data_src, decode, sizeof(decode));
		n = snprintf(out, sizeof(out), "%16" PRIx64 " %s", (uint64_t)sample->data_src, decode);
		if (n > p->data_src_width)
			p->data_src_width = n;
		put_str(p, out);
		put_pad(p, p->data_src_width - n);
	}
	if (f & SF_WEIGHT)
		put_udec(p, sample->weight, 16, false);
}

/* " ABI:2    AX:0x1    BX:0x2 " of one register set, names as perf's. */
static void put_regs(struct script_printer *p, const struct regs_dump *regs, uint64_t mask)
{
	unsigned int i = 0;

	if (!regs->regs)
		return;
	put_fmt(p, " ABI:%" PRIu64 " ", (uint64_t)regs->abi);
	for (int r = 0; r < 64; r++) {
		const char *name;
		char upper[16];
		size_t j;

		if (!(mask & (1ULL << r)))
			continue;
		name = perf_reg_name(r);
		for (j = 0; name && name[j] && j < sizeof(upper) - 1; j++)
			upper[j] = (char)(name[j] >= 'a' && name[j] <= 'z' ? name[j] - 32 : name[j]);
		upper[j] = '\0';
		put_fmt(p, "%5s:0x%" PRIx64 " ", name ? upper : "unknown", (uint64_t)regs->regs[i++]);
	}
}

/*
 * perf's isprint(): the kernel's ctype table, which takes the Latin-1
 * letters and signs (0xa0-0xff) as printable beside ASCII 0x20-0x7e.
 */
static inline bool bpf_byte_printable(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c >= 0xa0;
}

/*
 * -F bpf-output, perf 6.1's layout: a new line, then 8 bytes a line,
 * "%17s" ("BPF output:" on the first, blanks after), " %04x:" offset,
 * " %02x" each byte ("   " for the missing ones of the last line), two
 * blanks, the bytes as characters ('.' where not printable; blank
 * padded to 8), "\n". When the data is a printable string ended by NULs
 * only, "      BPF string: \"...\"\n" follows.
 */
static void put_bpf_output(struct script_printer *p, const struct perf_sample *sample)
{
	const unsigned char *d = sample->raw_data;
	uint32_t n = d ? sample->raw_size : 0;
	bool printable = true, nul = false;

	put_ch(p, '\n');
	for (uint32_t at = 0; at < n; at += 8) {
		uint32_t cnt = n - at < 8 ? n - at : 8;

		put_str(p, at ? "                 " : "      BPF output:");
		put_fmt(p, " %04x:", at);
		for (uint32_t i = 0; i < cnt; i++)
			put_fmt(p, " %02x", d[at + i]);
		put_pad(p, (int)(8 - cnt) * 3 + 2);
		for (uint32_t i = 0; i < cnt; i++)
			put_ch(p, bpf_byte_printable(d[at + i]) ? (char)d[at + i] : '.');
		put_pad(p, (int)(8 - cnt));
		put_ch(p, '\n');
	}
	/* a string: printable bytes, a NUL, then NULs only */
	for (uint32_t i = 0; i < n && printable; i++) {
		if (nul && d[i])
			printable = false;
		else if (!d[i])
			nul = true;
		else if (!bpf_byte_printable(d[i]))
			printable = false;
	}
	if (printable && nul) {
		put_str(p, "      BPF string: \"");
		put_str(p, (const char *)d);
		put_str(p, "\"\n");
	}
}

/*
 * Whether evsel is a bpf-output event whose samples -F bpf-output shows:
 * as perf after 6.1, not the offcpu-time samples of an off-CPU recording
 * (they carry no BPF data).
 */
static bool evsel__shows_bpf_output(struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       evsel->attr.config == PERF_COUNT_SW_BPF_OUTPUT &&
	       strcmp(evsel__name(evsel), OFF_CPU_EVENT_NAME);
}

/* -F iregs, uregs, bpf-output and phys_addr ("%16lx"), in perf's order. */
static void put_regs_phys(struct script_printer *p, uint32_t f, struct evsel *evsel,
			  const struct perf_sample *sample)
{
	if (f & SF_IREGS)
		put_regs(p, &sample->intr_regs, evsel->attr.sample_regs_intr);
	if (f & SF_UREGS)
		put_regs(p, &sample->user_regs, evsel->attr.sample_regs_user);
	if ((f & SF_BPF_OUTPUT) && evsel__shows_bpf_output(evsel))
		put_bpf_output(p, sample);
	if (f & SF_PHYS_ADDR)
		put_hex(p, sample->phys_addr, 16);
}

static void put_trace(struct script_printer *p, const struct perf_sample *sample)
{
	/* Raw payload until the tracepoint formatter exists. */
	const unsigned char *d = sample->raw_data;

	for (uint32_t i = 0; d && i < sample->raw_size; i++) {
		static const char hx[] = "0123456789abcdef";

		if (i)
			put_ch(p, ' ');
		put_ch(p, hx[d[i] >> 4]);
		put_ch(p, hx[d[i] & 15]);
	}
}

/* Unchecked writers for the hot frame loop (space reserved first); see
 * also w_hex(). */
static inline char *w_mem(char *w, const char *s, size_t n)
{
	/* names are short: fixed-size copies, the last one overlapping the
	 * one before, instead of a libc call each */
	if (n >= 16) {
		for (size_t i = 0; i + 16 < n; i += 16)
			memcpy(w + i, s + i, 16);
		memcpy(w + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(w, s, 8);
		memcpy(w + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(w, s, 4);
		memcpy(w + n - 4, s + n - 4, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			w[i] = s[i];
	}
	return w + n;
}

/*
 * The srcline line -F srcline prints under a frame, or NULL for none: as
 * perf 6.1, the line the resolver gave the frame (a DWARF-unwound one's,
 * "??:0" included); else nothing for a frame outside any map and nothing
 * where the answer is "??:0" (no line, and no file from the symbol
 * table).
 */
static const char *script_srcline(const struct callchain_frame *fr)
{
	const char *s;

	if (fr->srcline)
		return fr->srcline;
	if (!fr->map || !fr->map->dso)
		return NULL;
	s = callchain_frame__srcline(fr, false);
	return strcmp(s, "??:0") ? s : NULL;
}

/*
 * One callchain frame line: "\t%16lx sym+0xoff (dso)\n". As perf 6.1: an
 * inlined frame shows no (dso) but " (inlined)", after the srcline when
 * that is printed ("\n  file.c:NN" under the frame, -F srcline). The
 * resolver's truncated-stack marker prints as "[truncated]" (no offset).
 */
static void put_chain_frame(struct script_printer *p, uint32_t f, const struct callchain_frame *fr)
{
	const char *sym = "[unknown]", *dso = "[unknown]";
	size_t slen = 9, dlen = 9, srclen = 0;
	bool inl = fr->sym && fr->sym->inlined;
	const char *src = (f & SF_SRCLINE) ? script_srcline(fr) : NULL;
	char *w;

	if (fr->sym && (f & SF_SYM)) {
		sym = fr->sym->name;
		slen = symbol__name_len(fr->sym);
	}
	if (fr->map && fr->map->dso && (f & SF_DSO)) {
		dso = fr->map->dso->long_name;
		dlen = dso__long_name_len(fr->map->dso);
	}
	if (src)
		srclen = strlen(src);
	/* 80: the fixed parts, w_hex()'s scratch bytes included */
	if (pbuf_grow(p, slen + dlen + srclen + 80))
		return;
	w = p->buf + p->len;
	*w++ = '\t';
	w = w_hex(w, script_frame__print_addr(fr), 16);
	if (f & SF_SYM) {
		*w++ = ' ';
		w = w_mem(w, sym, slen);
		if (fr->sym && (f & SF_SYMOFF) && !fr->truncated) {
			w = w_mem(w, "+0x", 3);
			w = w_hex(w, fr->addr - fr->sym->start, 0);
		}
	}
	if ((f & SF_DSO) && !inl) {
		w = w_mem(w, " (", 2);
		w = w_mem(w, dso, dlen);
		*w++ = ')';
	}
	if (src) {
		w = w_mem(w, "\n  ", 3);
		w = w_mem(w, src, srclen);
	}
	if (inl)
		w = w_mem(w, " (inlined)", 10);
	*w++ = '\n';
	p->len = (size_t)(w - p->buf);
}

int script_printer__sample(struct script_printer *p, struct evsel *evsel,
			   const struct perf_sample *sample, const char *comm,
			   const struct callchain_cursor *cursor)
{
	uint32_t f = p->fields->fields[script_fields__slot(evsel->attr.type)];

	if (!comm)
		comm = ":-1";
	if (!f || f == SF_FLAGS)	/* perf 6.1 prints nothing then */
		return 0;
	put_start(p, f, sample, comm, PERF_RECORD_SAMPLE,
		  evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	if (f & SF_PERIOD) {
		put_udec(p, sample->period, 10, false);
		put_ch(p, ' ');
	}
	if (f & SF_EVNAME) {
		const char *name = evsel__name(evsel);

		put_pad(p, p->name_width - (int)strlen(name));
		put_str(p, name);
		put_str(p, ": ");
	}
	if (f & SF_FLAGS)	/* no branch flags outside instruction traces */
		put_pad(p, 24);
	if (f & SF_TRACE) {
		if (p->trace_info)
			put_str(p, p->trace_info);
		else
			put_trace(p, sample);
		/* the ip brings its own separator (' ' or a new line) */
		if (f & SF_ADDR)
			put_ch(p, ' ');
	}
	if (f & SF_ADDR) {
		put_hex(p, sample->addr, 16);
		if (p->addr_dso)
			put_addr_sym(p, f);
	}
	if (f & (SF_DATA_SRC | SF_WEIGHT))
		put_mem_info(p, f, sample);

	/* perf prints sym/dso only together with ip */
	if ((f & SF_IP) && cursor) {
		if (p->use_callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			struct chain_text *t = cursor->chain_id ?
					       chain_text__slot(p, cursor->chain_id) : NULL;
			size_t start;

			put_ch(p, '\n');
			if (t && t->chain_id == cursor->chain_id && t->fields == f) {
				put_mem(p, t->text, t->len);
			} else {
				start = p->len;
				for (unsigned int i = 0; i < cursor->nr; i++)
					put_chain_frame(p, f, &cursor->frames[i]);
				if (t)
					chain_text__store(p->chain_texts, t, cursor->chain_id, f,
							  p->buf + start, p->len - start);
			}
		} else {
			static const struct callchain_frame none;
			const struct callchain_frame *fr = cursor->nr ? &cursor->frames[0] : &none;

			put_ch(p, ' ');
			put_hex(p, sample->ip, 16);
			put_frame_sym(p, f, fr);
			const char *src = (f & SF_SRCLINE) ? script_srcline(fr) : NULL;

			if (src) {
				/* perf: the sample's srcline on its own line */
				put_str(p, "\n  ");
				put_str(p, src);
			}
		}
	}
	if (f & (SF_IREGS | SF_UREGS | SF_BPF_OUTPUT | SF_PHYS_ADDR))
		put_regs_phys(p, f, evsel, sample);
	put_ch(p, '\n');
	if ((f & SF_SRCCODE) && p->srccode)
		put_str(p, p->srccode);
	return pbuf_emit(p, sample->time);
}

int script_printer__text(struct script_printer *p, const char *text)
{
	put_str(p, text);
	return pbuf_emit(p, 0);
}

int script_printer__sideband(struct script_printer *p, struct evsel *evsel,
			     const union perf_event *event,
			     const struct perf_sample *sample, const char *comm)
{
	uint32_t f = evsel ? p->fields->fields[script_fields__slot(evsel->attr.type)] :
			     (SF_COMM | SF_TID | SF_TIME);
	const struct perf_event_header *h = &event->header;

	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_LOST:
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_CGROUP:
		break;
	default:
		return 0;
	}
	put_start(p, f, sample, comm ? comm : ":-1", h->type,
		  evsel && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN));
	if (h->type == PERF_RECORD_LOST) {
		put_fmt(p, "PERF_RECORD_LOST lost %" PRIu64 "\n", (uint64_t)event->lost.lost);
	} else {
		char detail[2 * PATH_MAX];

		perf_event__detail(detail, sizeof(detail), event);
		put_fmt(p, "PERF_RECORD_%s%s", perf_event__name(h->type), detail);
	}
	return pbuf_emit(p, sample ? sample->time : 0);
}
