/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_TESTS_H
#define PRF_TESTS_H
/*
 * Built-in unit tests, run by `prf test` (builtin/test.c), each test case in
 * a forked child with a timeout. A file declares its cases and registers a
 * suite; no central list to edit:
 *
 *   static int test__simple(void) { TEST_ASSERT_VAL("x", 1 == 1); return TEST_OK; }
 *   DEFINE_SUITE(parse_events, "Parse event definitions",
 *                TEST_CASE(simple, "simple events"));
 *
 * A case returns TEST_OK, TEST_FAIL or test_skip("reason").
 *
 * Names: `prf test list` shows each case as SUITE-CASE, both identifiers
 * with '-' for '_' (parse-events-simple above); `prf test parse-events`
 * selects the whole suite. The names are how tests are cited: keep them
 * stable, and unique among all tests, shell tests (their file names
 * without ".sh") included: the runner refuses to run with two alike.
 *
 * Cases run beside other tests (prf test -j); a suite whose cases time
 * something or need the machine to themselves is declared with
 * DEFINE_SUITE_SERIAL instead, with a comment saying why: its cases run
 * alone.
 */
#include <stdbool.h>
#include <stdio.h>
#include "../util/lib/debug.h"

enum { TEST_OK = 0, TEST_FAIL = -1, TEST_SKIP = -2 };

struct test_case {
	const char *name;
	const char *desc;
	int (*run)(void);
};

struct test_suite {
	const char *name;
	const char *desc;
	const struct test_case *cases;
	bool serial;		/* run its cases alone, never beside another test */
	struct test_suite *next;
};

void test_suite__register(struct test_suite *suite);
/* First registered suite (sorted by name); iterate with ->next. */
struct test_suite *test_suites(void);

/* Record why the case is skipped (printed by the runner); returns TEST_SKIP. */
int test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Address of the C library's own function name (dlsym in the libc.so.6
 * already loaded), past any sanitizer interceptor of the same name in this
 * binary; NULL when not found.
 */
void *test_libc_func(const char *name);

#define TEST_CASE(n, d) { .name = #n, .desc = (d), .run = test__##n }

#define TEST_SUITE_DEFINE(ident, d, ser, ...)					\
	static const struct test_case ident##__cases[] = { __VA_ARGS__, { 0 } };	\
	static struct test_suite ident##__suite = {				\
		.name = #ident, .desc = (d), .cases = ident##__cases, .serial = (ser) }; \
	__attribute__((constructor)) static void ident##__register(void)	\
	{ test_suite__register(&ident##__suite); }

#define DEFINE_SUITE(ident, d, ...) TEST_SUITE_DEFINE(ident, d, false, __VA_ARGS__)
#define DEFINE_SUITE_SERIAL(ident, d, ...) TEST_SUITE_DEFINE(ident, d, true, __VA_ARGS__)

#define TEST_ASSERT_VAL(text, cond)						\
	do {									\
		if (!(cond)) {							\
			pr_err("FAILED %s:%d %s\n", __FILE__, __LINE__, text);	\
			return TEST_FAIL;					\
		}								\
	} while (0)

#define TEST_ASSERT_EQUAL(text, val, expected)					\
	do {									\
		long long __v = (long long)(val), __e = (long long)(expected);	\
		if (__v != __e) {						\
			pr_err("FAILED %s:%d %s (%lld != %lld)\n",		\
			       __FILE__, __LINE__, text, __v, __e);		\
			return TEST_FAIL;					\
		}								\
	} while (0)

#define TEST_ASSERT_STREQ(text, val, expected)					\
	do {									\
		const char *__v = (val), *__e = (expected);			\
		if (!__v || strcmp(__v, __e)) {					\
			pr_err("FAILED %s:%d %s ('%s' != '%s')\n",		\
			       __FILE__, __LINE__, text, __v ? __v : "(null)", __e); \
			return TEST_FAIL;					\
		}								\
	} while (0)

#endif
