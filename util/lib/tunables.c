// SPDX-License-Identifier: GPL-2.0
/*
 * The table of PRF_* environment variables and their one parser (see
 * tunables.h). Documentation/prf-tunables.txt describes the same rows:
 * change both together.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "debug.h"
#include "config.h"
#include "tunables.h"
#include "util.h"

#define BOOL(id, nm, t, d, text)						\
	[id] = { .name = nm, .type = TUNABLE_BOOL, .test = t, .def = d, .desc = text }
#define INT(id, nm, t, d, lo, hi, dt, text)					\
	[id] = { .name = nm, .type = TUNABLE_INT, .test = t, .def = d, .min = lo,	\
		 .max = hi, .def_text = dt, .desc = text }
#define SIZE(id, nm, t, d, text)						\
	[id] = { .name = nm, .type = TUNABLE_SIZE, .test = t, .def = d, .desc = text }
#define STR(id, nm, ty, t, dt, text)						\
	[id] = { .name = nm, .type = ty, .test = t, .def_text = dt, .desc = text }

static const struct tunable_desc tunables[TUNABLE__NR] = {
	STR(TUNABLE_PAGER, "PRF_PAGER", TUNABLE_STRING, false, "$PAGER, else less",
	    "pager command for output to a terminal; empty or cat: none"),
	INT(TUNABLE_THREADS, "PRF_THREADS", false, 0, 0, 64, "0 (the usable CPUs)",
	    "threads report's sorting and printing use; 1: only the main one"),
	INT(TUNABLE_UNWIND_THREADS, "PRF_UNWIND_THREADS", false, 0, 0, 16,
	    "0 (idle CPUs; 1 with at most 2)",
	    "threads that unwind DWARF stacks ahead; 1: unwinding in the reading thread"),
	STR(TUNABLE_DEBUG_CACHE, "PRF_DEBUG_CACHE", TUNABLE_PATH, false,
	    "$XDG_CACHE_HOME/prf/debug-images, else ~/.cache/prf/debug-images",
	    "directory of the on-disk debug cache; 0 or empty: no cache"),
	SIZE(TUNABLE_DEBUG_CACHE_MAX, "PRF_DEBUG_CACHE_MAX", false, 1LL << 30,
	     "bytes the debug cache's files may take together (K, M, G)"),

	BOOL(TUNABLE_READ_MAPPED, "PRF_READ_MAPPED", true, 0,
	     "1: read perf.data records in its mapping, not in blocks read ahead"),
	BOOL(TUNABLE_UNWIND_WARM, "PRF_UNWIND_WARM", true, 1,
	     "0: unwinding threads only unwind and fill no DWARF caches ahead"),
	BOOL(TUNABLE_DEBUG_IMAGE, "PRF_DEBUG_IMAGE", true, 1,
	     "0: libdw reads compressed debug files itself, not prf's image"),
	BOOL(TUNABLE_DEBUG_LAZY, "PRF_DEBUG_LAZY", true, 1,
	     "0: inflate a debug image's .debug_info and .debug_line up front"),
	BOOL(TUNABLE_DWARF_DIE, "PRF_DWARF_DIE", true, 1,
	     "0: inline scopes found by libdw, not by prf's DIE walker"),
	BOOL(TUNABLE_NO_CHAIN_CACHE, "PRF_NO_CHAIN_CACHE", true, 0,
	     "1: no chain cache; every DWARF callchain resolved again"),
	BOOL(TUNABLE_NO_WALK_MEMO, "PRF_NO_WALK_MEMO", true, 0,
	     "1: no walk memo; every DWARF walk done again"),
	BOOL(TUNABLE_OUTPUT_TREE, "PRF_OUTPUT_TREE", true, 0,
	     "1: report orders its entries through perf's output tree, not a sort"),
	STR(TUNABLE_TUI_TRACE, "PRF_TUI_TRACE", TUNABLE_PATH, true, "(none)",
	    "file the TUI appends a time-stamped line to per event"),
	INT(TUNABLE_TOP_COMPACT_MIN, "PRF_TOP_COMPACT_MIN", true, 4096, 1, 1 << 30, "4096",
	    "hist entries before prf top drops those decayed to 0"),

	STR(TUNABLE_UNWIND_DATA, "PRF_UNWIND_DATA", TUNABLE_PATH, true, "(none: skip)",
	    "perf.data the unwind unit test unwinds (tests/shell/unwind-dwarf.sh)"),
	STR(TUNABLE_UNWIND_TARGET, "PRF_UNWIND_TARGET", TUNABLE_STRING, true, "(none)",
	    "':'-separated binaries whose frames the unwind unit test prints"),
	STR(TUNABLE_UNWIND_OUT, "PRF_UNWIND_OUT", TUNABLE_PATH, true, "(none)",
	    "file the unwind unit test prints to"),
	BOOL(TUNABLE_UNWIND_BENCH, "PRF_UNWIND_BENCH", true, 0,
	     "1: the unwind unit test only unwinds, prints nothing (scripts/bench)"),
	STR(TUNABLE_DWARF_LINE_ELF, "PRF_DWARF_LINE_ELF", TUNABLE_STRING, true, "(prf itself)",
	    "':'-separated ELF files the line table unit test reads"),
	STR(TUNABLE_DWARF_DIE_ELF, "PRF_DWARF_DIE_ELF", TUNABLE_STRING, true, "(prf itself)",
	    "':'-separated ELF files the DIE walker unit test reads"),
	BOOL(TUNABLE_FUZZ_ELF_FILES, "PRF_FUZZ_ELF_FILES", true, 0,
	     "1: the fuzz-elf harness loads every input from a file as well"),
	STR(TUNABLE_TEST_SHARED, "PRF_TEST_SHARED", TUNABLE_PATH, true, "(one per run)",
	    "directory the tests of a prf test run share (kept when given)"),
};

/* The parsed values: each read at the first use, under lock, then
 * published by ready (release/acquire), so readers take no lock. */
static struct tunable_val {
	int ready;
	long long num;
	const char *str;	/* strdup()'d; replaced ones are kept */
} vals[TUNABLE__NR];
static pthread_mutex_t tunables_lock = PTHREAD_MUTEX_INITIALIZER;

const struct tunable_desc *tunable__desc(enum tunable_id id)
{
	return &tunables[id];
}

const char *tunable_type__name(enum tunable_type type)
{
	static const char *const names[] = {
		[TUNABLE_BOOL] = "bool", [TUNABLE_INT] = "int", [TUNABLE_SIZE] = "size",
		[TUNABLE_STRING] = "string", [TUNABLE_PATH] = "path",
	};

	return names[type];
}

int tunable__parse(enum tunable_type type, const char *text, long long min, long long max,
		   long long *val)
{
	static const char *const words[][2] = {
		{ "0", "1" }, { "no", "yes" }, { "false", "true" }, { "off", "on" },
	};
	uint64_t size;
	bool unit;
	char *end;

	if (!text || !*text)
		return -EINVAL;
	switch (type) {
	case TUNABLE_BOOL:
		for (size_t i = 0; i < ARRAY_SIZE(words); i++)
			for (int v = 0; v < 2; v++)
				if (!strcasecmp(text, words[i][v])) {
					*val = v;
					return 0;
				}
		return -EINVAL;
	case TUNABLE_INT:
		errno = 0;
		*val = strtoll(text, &end, 10);
		if (errno || *end)
			return -EINVAL;
		if (*val < min || *val > max) {
			*val = *val < min ? min : max;
			return -ERANGE;
		}
		return 0;
	case TUNABLE_SIZE:
		if (parse_size(text, &size, &unit) || size > INT64_MAX)
			return -EINVAL;
		*val = (long long)size;
		return 0;
	case TUNABLE_STRING:
	case TUNABLE_PATH:
		return 0;
	}
	return -EINVAL;
}

/* "1G" for 1 << 30, the largest binary unit that divides v. */
static void format_size(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "KMG";
	int u = -1;

	while (v && u < 2 && !(v & 1023)) {
		v >>= 10;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, units[u]);
}

static const char *format_num(const struct tunable_desc *d, long long v, char *buf, size_t len)
{
	if (d->type == TUNABLE_SIZE)
		format_size(buf, len, (uint64_t)v);
	else
		snprintf(buf, len, "%lld", v);
	return buf;
}

/* The default of d as its documentation gives it. */
static const char *default_text(const struct tunable_desc *d, char *buf, size_t len)
{
	return d->def_text ? d->def_text : format_num(d, d->def, buf, len);
}

/* Parse text (the environment's, NULL: unset) into v for d, saying on
 * stderr why a value is not used. Caller holds tunables_lock. */
static void tunable_val__fill(struct tunable_val *v, const struct tunable_desc *d,
			      const char *text)
{
	static const char *const expect[] = {
		[TUNABLE_BOOL] = "a boolean (0/1, no/yes, false/true, off/on)",
		[TUNABLE_INT] = "a decimal number",
		[TUNABLE_SIZE] = "a size (bytes, with an optional K, M or G)",
	};
	char buf[32];
	long long num = d->def;
	int err;

	if (d->type == TUNABLE_STRING || d->type == TUNABLE_PATH) {
		char *s = text ? strdup(text) : NULL;

		/* out of memory: as if unset, which every user handles */
		__atomic_store_n(&v->str, s, __ATOMIC_RELAXED);
		return;
	}
	err = text && *text ? tunable__parse(d->type, text, d->min, d->max, &num) : 0;
	if (err == -ERANGE)
		pr_warning("prf: %s=%s is outside %lld..%lld: using %lld\n", d->name, text,
			   d->min, d->max, num);
	else if (err)
		pr_warning("prf: %s=%s is not %s: using the default, %s\n", d->name, text,
			   expect[d->type], default_text(d, buf, sizeof(buf)));
	__atomic_store_n(&v->num, err && err != -ERANGE ? d->def : num, __ATOMIC_RELAXED);
}

/*
 * The text of d: its environment variable, else, for a user setting, the
 * "prf.NAME" key of the configuration files (config.h: PRF_UNWIND_THREADS
 * is prf.unwind-threads). NULL: unset.
 */
static const char *tunable__text(const struct tunable_desc *d)
{
	const char *text = getenv(d->name);
	char key[64];
	size_t n = 0;

	if (text || d->test)
		return text;
	n = (size_t)snprintf(key, sizeof(key), "prf.");
	for (const char *p = d->name + 4; *p && n + 1 < sizeof(key); p++)
		key[n++] = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	key[n] = '\0';
	return config__get(key);
}

static const struct tunable_val *tunable__get(enum tunable_id id)
{
	struct tunable_val *v = &vals[id];

	if (__atomic_load_n(&v->ready, __ATOMIC_ACQUIRE))
		return v;
	pthread_mutex_lock(&tunables_lock);
	if (!v->ready) {
		tunable_val__fill(v, &tunables[id], tunable__text(&tunables[id]));
		__atomic_store_n(&v->ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&tunables_lock);
	return v;
}

bool tunable__bool(enum tunable_id id)
{
	return __atomic_load_n(&tunable__get(id)->num, __ATOMIC_RELAXED) != 0;
}

long tunable__int(enum tunable_id id)
{
	return (long)__atomic_load_n(&tunable__get(id)->num, __ATOMIC_RELAXED);
}

uint64_t tunable__size(enum tunable_id id)
{
	return (uint64_t)__atomic_load_n(&tunable__get(id)->num, __ATOMIC_RELAXED);
}

const char *tunable__str(enum tunable_id id)
{
	return __atomic_load_n(&tunable__get(id)->str, __ATOMIC_RELAXED);
}

int tunable__set(enum tunable_id id, const char *text)
{
	struct tunable_val *v = &vals[id];
	int err;

	pthread_mutex_lock(&tunables_lock);
	err = text ? setenv(tunables[id].name, text, 1) : unsetenv(tunables[id].name);
	if (!err) {
		tunable_val__fill(v, &tunables[id], text);
		__atomic_store_n(&v->ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&tunables_lock);
	return err ? -errno : 0;
}

const char *tunable__format(enum tunable_id id, char *buf, size_t len)
{
	const struct tunable_desc *d = &tunables[id];
	const char *s;

	if (d->type != TUNABLE_STRING && d->type != TUNABLE_PATH)
		return format_num(d, tunable__int(id), buf, len);
	s = tunable__str(id);
	snprintf(buf, len, "%s", s ? s : "(unset)");
	return buf;
}

const char *tunable__format_default(enum tunable_id id, char *buf, size_t len)
{
	return default_text(&tunables[id], buf, len);
}
