/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_LIB_TUNABLES_H
#define PRF_LIB_TUNABLES_H
/*
 * The PRF_* environment variables prf reads, in one table (tunables.c):
 * name, type, default, a one-line description, and whether the variable
 * is a test switch (it exists to compare two code paths that must give
 * the same output, or to feed a unit test). Documentation/prf-tunables.txt
 * describes each; `prf version --build-options` lists them with their
 * current values.
 *
 * Every variable is parsed one way, by its type:
 *   bool    0/1, no/yes, false/true, off/on (any case);
 *   int     a decimal number within the variable's range;
 *   size    bytes: a number with an optional K, M or G (parse_size());
 *   string,
 *   path    the text as it is (an empty value is a value).
 * An unset variable, or an empty one for bool/int/size, has the default.
 * A value that does not parse is reported once on stderr (naming the
 * variable, the value and what was expected) and the default is used; an
 * int out of its range is reported and clamped to it.
 *
 * A value is read from the environment at the first call of its accessor
 * and kept: later setenv() calls are not seen (use tunable__set()). The
 * accessors may be called from any thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tunable_id {
	/* user settings */
	TUNABLE_PAGER,			/* PRF_PAGER */
	TUNABLE_THREADS,		/* PRF_THREADS */
	TUNABLE_UNWIND_THREADS,		/* PRF_UNWIND_THREADS */
	TUNABLE_DEBUG_CACHE,		/* PRF_DEBUG_CACHE */
	TUNABLE_DEBUG_CACHE_MAX,	/* PRF_DEBUG_CACHE_MAX */
	/* test switches: code paths compared by the tests */
	TUNABLE_READ_MAPPED,		/* PRF_READ_MAPPED */
	TUNABLE_UNWIND_WARM,		/* PRF_UNWIND_WARM */
	TUNABLE_DEBUG_IMAGE,		/* PRF_DEBUG_IMAGE */
	TUNABLE_DEBUG_LAZY,		/* PRF_DEBUG_LAZY */
	TUNABLE_DWARF_DIE,		/* PRF_DWARF_DIE */
	TUNABLE_NO_CHAIN_CACHE,		/* PRF_NO_CHAIN_CACHE */
	TUNABLE_NO_WALK_MEMO,		/* PRF_NO_WALK_MEMO */
	TUNABLE_OUTPUT_TREE,		/* PRF_OUTPUT_TREE */
	TUNABLE_TUI_TRACE,		/* PRF_TUI_TRACE */
	TUNABLE_TOP_COMPACT_MIN,	/* PRF_TOP_COMPACT_MIN */
	/* test switches: inputs of unit tests and fuzz harnesses */
	TUNABLE_UNWIND_DATA,		/* PRF_UNWIND_DATA */
	TUNABLE_UNWIND_TARGET,		/* PRF_UNWIND_TARGET */
	TUNABLE_UNWIND_OUT,		/* PRF_UNWIND_OUT */
	TUNABLE_UNWIND_BENCH,		/* PRF_UNWIND_BENCH */
	TUNABLE_DWARF_LINE_ELF,		/* PRF_DWARF_LINE_ELF */
	TUNABLE_DWARF_DIE_ELF,		/* PRF_DWARF_DIE_ELF */
	TUNABLE_FUZZ_ELF_FILES,		/* PRF_FUZZ_ELF_FILES */
	TUNABLE_TEST_SHARED,		/* PRF_TEST_SHARED */
	TUNABLE__NR
};

enum tunable_type {
	TUNABLE_BOOL,
	TUNABLE_INT,
	TUNABLE_SIZE,
	TUNABLE_STRING,
	TUNABLE_PATH,
};

/* One row of the table; see tunable__desc(). */
struct tunable_desc {
	const char *name;		/* "PRF_..." */
	enum tunable_type type;
	bool test;			/* a test switch, not a user setting */
	long long def;			/* bool, int, size: the default value */
	long long min, max;		/* int: the range */
	const char *def_text;		/* the default as documented ("auto",
					 * "$PAGER, else less"); NULL: def */
	const char *desc;		/* one line: what it does */
};

/* The table row of id (static; never NULL for id < TUNABLE__NR). */
const struct tunable_desc *tunable__desc(enum tunable_id id);
/* "bool", "int", "size", "string" or "path". */
const char *tunable_type__name(enum tunable_type type);

/* The value of a bool tunable. */
bool tunable__bool(enum tunable_id id);
/* The value of an int tunable, within its range. */
long tunable__int(enum tunable_id id);
/* The value of a size tunable, in bytes. */
uint64_t tunable__size(enum tunable_id id);
/*
 * The value of a string or path tunable: the environment's text (kept by
 * the table until the process ends or tunable__set() replaces it; do not
 * free), or NULL when the variable is unset.
 */
const char *tunable__str(enum tunable_id id);

/*
 * Set id to text (NULL: unset it) in the environment, where child
 * processes and code still calling getenv() see it, and in the table;
 * text is parsed and reported as a value read from the environment.
 * For tests and start-up code: not while other threads read id.
 * 0, or -ENOMEM.
 */
int tunable__set(enum tunable_id id, const char *text);

/*
 * The current value of id as text into buf (len bytes, at least 32 for
 * the numbers): "0"/"1", the number, or the string; "(unset)" for an
 * unset string or path. Returns buf.
 */
const char *tunable__format(enum tunable_id id, char *buf, size_t len);

/* The default of id as text into buf (len bytes, at least 32): the
 * table's def_text, else the value as tunable__format() prints it. */
const char *tunable__format_default(enum tunable_id id, char *buf, size_t len);

/*
 * Parse text as a value of type type, the table's way: *val is the bool
 * (0/1), int or size; strings are always valid. 0, or -EINVAL (not a
 * value of the type), or -ERANGE (int outside [min, max]: *val is then
 * clamped to the range). Empty or NULL text is -EINVAL.
 */
int tunable__parse(enum tunable_type type, const char *text, long long min, long long max,
		   long long *val);

#endif
